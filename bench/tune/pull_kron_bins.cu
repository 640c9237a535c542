// Issue 3 experiment: on a Kronecker graph (kron-22: rows of 1 to ~10^5 arcs), does binning rows
// by length beat the merge-path pull? Short rows by a group of lanes per row (the short-row
// kernel, rows above a bound skipped), medium rows by a warp per listed row, long rows by a block
// per listed row; the lists are built on the host here (a production version would build them
// once per matrix). fp32 min-plus SpMV, no mask, median of 21 after 3 warm-ups (CUDA events),
// every variant checked against the library's result. Built by the `tune` target:
//   build/bench/tune/tune_pull_kron_bins [spec]
// The H100's answer (the bins lose 10-19% to the merge path, which stays): bench/results/h100-run5/NOTES.md,
// issue 3.
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cstdio>
#include <cub/block/block_reduce.cuh>
#include <functional>
#include <string>
#include <vector>

#include "operators.cuh"
#include "tropic/generate.hpp"
#include "tune_common.cuh"
using namespace tropic;

namespace {

template <int G>
__global__ void __launch_bounds__(128)
short_rows(vertex n, const arc_index* offsets, const vertex* columns, const float* weights,
           const float* x, float* y, arc_index max_len) {
  const std::uint64_t t = std::uint64_t(blockIdx.x) * 128 + threadIdx.x;
  const std::uint64_t row = t / G;
  const int lane = int(t % G);
  float acc = infinity<float>();
  bool mine = false;
  if (row < n) {
    const arc_index lo = offsets[row], hi = offsets[row + 1];
    mine = hi - lo <= max_len;
    if (mine) acc = tune::row_part_min<arc_index>(lo, hi, lane, G, columns, weights, x);
  }
  if constexpr (G > 1) {
#pragma unroll
    for (int s = G / 2; s > 0; s /= 2) acc = std::min(acc, __shfl_down_sync(0xffffffffu, acc, s, G));
  }
  if (mine && lane == 0) y[row] = acc;
}

__global__ void __launch_bounds__(256)
warp_rows(const vertex* rows, std::size_t count, const arc_index* offsets, const vertex* columns,
          const float* weights, const float* x, float* y) {
  const std::size_t k = (std::size_t(blockIdx.x) * 256 + threadIdx.x) / 32;
  const int lane = int(threadIdx.x % 32);
  float acc = infinity<float>();
  vertex row = 0;
  if (k < count) {
    row = rows[k];
    acc = tune::row_part_min<arc_index>(offsets[row], offsets[row + 1], lane, 32, columns,
                                        weights, x);
  }
  for (int s = 16; s > 0; s /= 2) acc = std::min(acc, __shfl_down_sync(0xffffffffu, acc, s));
  if (k < count && lane == 0) y[row] = acc;
}

template <int Threads>
__global__ void __launch_bounds__(Threads)
block_rows(const vertex* rows, const arc_index* offsets, const vertex* columns,
           const float* weights, const float* x, float* y) {
  using reduce_t = cub::BlockReduce<float, Threads>;
  __shared__ typename reduce_t::TempStorage temp;
  const vertex row = rows[blockIdx.x];
  const float acc = tune::row_part_min<arc_index>(offsets[row], offsets[row + 1], threadIdx.x,
                                                 Threads, columns, weights, x);
  const float all = reduce_t(temp).Reduce(acc, [](float a, float b) { return std::min(a, b); });
  if (threadIdx.x == 0) y[row] = all;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string spec = argc > 1 ? argv[1] : "kron:22:16";
  tune::spmv_problem problem(spec);
  const auto& g = problem.graph;
  cudaStream_t stream = problem.stream;
  auto& ctx = problem.ctx;
  const auto& a = problem.matrix;
  const auto& v = problem.view;
  const vertex n = problem.n;
  auto &x = problem.x, &y = problem.y, &ref = problem.ref;

  tune::cusparse_spmv spmv(v, x.data(), y.data(), stream);
  std::printf("  cusparse plus-times              %.4f ms\n",
              tune::median_ms(stream, [&] { spmv.run(); }));

  matrix_operand<float> op{&a, row_part::all, nullptr};
  auto library = [&](dense_vector<float>& out) {
    detail::pull_dispatch<min_plus<float>>(
        detail::pull_operands<float>{&out, no_mask<float>(), accumulator::none, v,
                                     detail::ranges_of(v, op, false), x.data()},
        descriptor{}, ctx);
  };
  library(ref);
  std::vector<float> want(n), got(n);
  cudaMemcpyAsync(want.data(), ref.data(), n * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  std::printf("  library (merge path)             %.4f ms\n",
              tune::median_ms(stream, [&] { library(y); }));

  auto degree = [&](vertex u) { return arc_index(g.degree(u)); };
  for (arc_index short_max : {16, 32, 64, 128}) {
    for (arc_index medium_max : {1024, 8192}) {
      std::vector<vertex> medium, longer;
      for (vertex u = 0; u < n; ++u) {
        const arc_index d = degree(u);
        if (d > medium_max) longer.push_back(u);
        else if (d > short_max) medium.push_back(u);
      }
      device_buffer<vertex> dm(std::max<std::size_t>(medium.size(), 1), stream),
          dl(std::max<std::size_t>(longer.size(), 1), stream);
      cudaMemcpyAsync(dm.data(), medium.data(), medium.size() * sizeof(vertex),
                      cudaMemcpyHostToDevice, stream);
      cudaMemcpyAsync(dl.data(), longer.data(), longer.size() * sizeof(vertex),
                      cudaMemcpyHostToDevice, stream);
      auto run_bins = [&](auto group) {
        constexpr int G = decltype(group)::value;
        const unsigned blocks = unsigned((std::uint64_t(n) * G + 127) / 128);
        short_rows<G><<<blocks, 128, 0, stream>>>(n, v.row_offsets, v.columns, v.weights,
                                                  x.data(), y.data(), short_max);
        if (!medium.empty())
          warp_rows<<<unsigned((medium.size() * 32 + 255) / 256), 256, 0, stream>>>(
              dm.data(), medium.size(), v.row_offsets, v.columns, v.weights, x.data(), y.data());
        if (!longer.empty())
          block_rows<512><<<unsigned(longer.size()), 512, 0, stream>>>(
              dl.data(), v.row_offsets, v.columns, v.weights, x.data(), y.data());
      };
      auto report = [&](auto group) {
        constexpr int G = decltype(group)::value;
        cudaMemsetAsync(y.data(), 0, n * sizeof(float), stream);
        run_bins(group);
        cudaMemcpyAsync(got.data(), y.data(), n * sizeof(float), cudaMemcpyDeviceToHost, stream);
        cudaStreamSynchronize(stream);
        const char* ok = got == want ? "ok" : "WRONG";
        std::printf("  bins: <=%4llu by %d lanes (%zu medium <=%llu by warps, %zu long by blocks) "
                    "%.4f ms %s\n",
                    (unsigned long long)short_max, G, medium.size(),
                    (unsigned long long)medium_max, longer.size(),
                    tune::median_ms(stream, [&] { run_bins(group); }), ok);
      };
      report(std::integral_constant<int, 2>{});
      report(std::integral_constant<int, 4>{});
      report(std::integral_constant<int, 8>{});
    }
  }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("cuda: %s\n", cudaGetErrorString(e));
}
