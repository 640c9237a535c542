// Issue 3 experiment: on graphs whose rows are all short (grids, roads, uniform), was the
// row-block pull's gap to cuSPARSE the offsets' width (64-bit arc_index, cuSPARSE reads 32-bit)
// or the kernel's shape (shared-memory tiles and two barriers per tile)? Times, for fp32
// min-plus SpMV (no mask), median of 21 after 3 warm-ups (CUDA events), each candidate checked
// against the library's result:
//   - cuSPARSE's plus-times CSR SpMV (32-bit offsets) on the same arrays,
//   - the library's pull through pull_dispatch, the automatic kernel and the merge path (when
//     the answer was found, at eb044e1, the automatic kernel was CSR-stream row blocks; its
//     successor is the group-per-row kernel),
//   - G lanes per row (G = 1 is a thread per row, "CSR-scalar"; G > 1 "CSR-vector" with a
//     shuffle reduction), each lane loading 4 arcs before its 4 gathers, over 64-bit and over a
//     32-bit copy of the offsets.
// Built by the `tune` target: build/bench/tune/tune_pull_short_rows [spec or graph file...]
// (default: the two grids and uniform-4M). The H100's numbers: bench/results/h100-run5/NOTES.md,
// issue 3 (they chose tuning.hpp's pull_group_*).
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

#include "operators.cuh"
#include "tropic/generate.hpp"
#include "tune_common.cuh"
using namespace tropic;

namespace {

template <int G, int Threads, class Off>
__global__ void __launch_bounds__(Threads)
pull_lanes_per_row(vertex n, const Off* offsets, const vertex* columns, const float* weights,
                   const float* x, float* y) {
  const std::uint64_t t = std::uint64_t(blockIdx.x) * Threads + threadIdx.x;
  const std::uint64_t row = t / G;
  const int lane = int(t % G);
  const bool valid = row < n;
  float acc = infinity<float>();
  if (valid)
    acc = tune::row_part_min<Off>(offsets[row], offsets[row + 1], Off(lane), Off(G), columns,
                                  weights, x);
  if constexpr (G > 1) {
#pragma unroll
    for (int s = G / 2; s > 0; s /= 2) acc = std::min(acc, __shfl_down_sync(0xffffffffu, acc, s, G));
  }
  if (valid && lane == 0) y[row] = acc;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> specs(argv + 1, argv + argc);  // generator specs or graph files
  if (specs.empty()) specs = {"grid:2048:2048", "grid:4096:4096", "uniform:4194304:7"};
  for (const std::string& spec : specs) {
    tune::spmv_problem problem(spec);
    cudaStream_t stream = problem.stream;
    auto& ctx = problem.ctx;
    const auto& a = problem.matrix;
    const auto& v = problem.view;
    const vertex n = problem.n;
    auto &x = problem.x, &y = problem.y, &ref = problem.ref;

    // cuSPARSE, the ceiling; its 32-bit offsets are also the "off32" variants' offsets.
    tune::cusparse_spmv spmv(v, x.data(), y.data(), stream);
    std::printf("  cusparse plus-times        %.4f ms\n",
                tune::median_ms(stream, [&] { spmv.run(); }));

    matrix_operand<float> op{&a, row_part::all, nullptr};
    auto library = [&](dense_vector<float>& out, pull_method method) {
      descriptor d;
      d.pull = method;
      detail::pull_dispatch<min_plus<float>>(
          detail::pull_operands<float>{&out, no_mask<float>(), accumulator::none, v,
                                       detail::ranges_of(v, op, false), x.data()},
          d, ctx);
    };
    library(ref, pull_method::automatic);
    std::vector<float> want(n), got(n);
    cudaMemcpyAsync(want.data(), ref.data(), n * sizeof(float), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    std::printf("  library, automatic (%u lanes/row) %.4f ms\n", 1u << pull_group_log2(v),
                tune::median_ms(stream, [&] { library(y, pull_method::automatic); }));
    std::printf("  library, merge path        %.4f ms\n",
                tune::median_ms(stream, [&] { library(y, pull_method::merge_path); }));

    auto check = [&] {
      cudaMemcpyAsync(got.data(), y.data(), n * sizeof(float), cudaMemcpyDeviceToHost, stream);
      cudaStreamSynchronize(stream);
      return got == want ? "ok" : "WRONG";
    };
#define LANES(G, T, OFF, NAME)                                                                  \
  {                                                                                             \
    const unsigned blocks = unsigned((std::uint64_t(n) * G + T - 1) / T);                       \
    auto call = [&] {                                                                           \
      pull_lanes_per_row<G, T><<<blocks, T, 0, stream>>>(n, OFF, v.columns, v.weights,          \
                                                         x.data(), y.data());                   \
    };                                                                                          \
    cudaMemsetAsync(y.data(), 0, n * sizeof(float), stream);                                    \
    call();                                                                                     \
    const char* ok = check();                                                                   \
    const float ms = tune::median_ms(stream, call);                                             \
    std::printf("  %d lanes/row, %3d thr, %s  %.4f ms  %s\n", G, T, NAME, ms, ok);               \
  }
    LANES(1, 128, v.row_offsets, "off64") LANES(1, 128, spmv.offsets(), "off32")
    LANES(1, 256, v.row_offsets, "off64") LANES(1, 256, spmv.offsets(), "off32")
    LANES(2, 128, v.row_offsets, "off64") LANES(2, 128, spmv.offsets(), "off32")
    LANES(4, 128, v.row_offsets, "off64") LANES(4, 128, spmv.offsets(), "off32")
    LANES(4, 256, spmv.offsets(), "off32") LANES(8, 128, spmv.offsets(), "off32")
  }
}
