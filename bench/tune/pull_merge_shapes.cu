// Issue 3 experiment: the merge-path pull's tile shape and runs on Kronecker graphs. fp32
// min-plus SpMV through pull_dispatch with each pull_policy<threads, items> and path items per
// warp (the plain SpMV's merge path by warps) or per block (the row-checking merge path by
// blocks that parts, masks and floors take); 0 = as many as the device holds at once, the
// library's choice. Median of 21 after 3 warm-ups (CUDA events), each checked against the
// library's default; then the default shape under each L1 / shared-memory carve-out and the
// other pull kernels on the same view (issue 35). Built by the `tune` target:
//   [TROPIC_TUNE_SHORT=1] build/bench/tune/tune_pull_merge_shapes [spec or graph file...]
// (TROPIC_TUNE_SHORT: the carve-outs, the other kernels and the default shape's tiles per block
// only; TROPIC_TUNE_LEAN_SHAPES: the warps' shapes near the default only.)
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "operators.cuh"
#include "tropic/generate.hpp"
#include "tune_common.cuh"
using namespace tropic;

int main(int argc, char** argv) {
  std::vector<std::string> specs;
  for (int i = 1; i < argc; ++i) specs.push_back(argv[i]);
  if (specs.empty()) specs = {"kron:22:16", "kron:20:16"};
  for (const auto& spec : specs) {
    tune::spmv_problem problem(spec);
    cudaStream_t stream = problem.stream;
    auto& ctx = problem.ctx;
    const auto& a = problem.matrix;
    const auto& v = problem.view;
    const vertex n = problem.n;
    auto &x = problem.x, &y = problem.y, &ref = problem.ref;

    tune::cusparse_spmv spmv(v, x.data(), y.data(), stream);
    const float cusparse_ms = tune::median_ms(stream, [&] { spmv.run(); });
    std::printf("  cusparse plus-times      %.4f ms\n", cusparse_ms);

    matrix_operand<float> op{&a, row_part::all, nullptr};
    descriptor d;
    d.pull = pull_method::merge_path;
    detail::pull_dispatch<min_plus<float>>(
        detail::pull_operands<float>{&ref, no_mask<float>(), accumulator::none, v,
                                     detail::ranges_of(v, op, false), x.data()},
        d, ctx);
    std::vector<float> want(n), got(n);
    cudaMemcpyAsync(want.data(), ref.data(), n * sizeof(float), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    // y = the pull of x under `desc` with policy P's tiles, block_items path items per block
    // (0: the library's choice); one run checked against `want`, then the median of timed runs.
    auto measure = [&](auto policy, const descriptor& desc, arc_index block_items,
                       bool check_rows = false) {
      using P = decltype(policy);
      auto call = [&] {
        detail::pull_dispatch<min_plus<float>, float, P>(
            detail::pull_operands<float>{&y, no_mask<float>(), accumulator::none, v,
                                         detail::ranges_of(v, op, false), x.data()},
            desc, ctx, {block_items, -1, check_rows});
      };
      cudaMemsetAsync(y.data(), 0, n * sizeof(float), stream);
      call();
      cudaMemcpyAsync(got.data(), y.data(), n * sizeof(float), cudaMemcpyDeviceToHost, stream);
      cudaStreamSynchronize(stream);
      return std::pair<float, const char*>(tune::median_ms(stream, call),
                                           got == want ? "ok" : "WRONG");
    };
    auto shape = [&](auto policy, arc_index tiles_per_block, bool check_rows = false) {
      using P = decltype(policy);
      const arc_index tile = arc_index(check_rows ? P::threads : 32) * P::items;
      const auto [ms, verdict] = measure(policy, d, tiles_per_block * tile, check_rows);
      using S = min_plus<float>;
      int per_sm = 0;
      cudaFuncAttributes attr{};
      auto occupancy = [&](auto* kernel) {
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, P::threads, 0);
        cudaFuncGetAttributes(&attr, kernel);
      };
      if (check_rows) occupancy(detail::pull_merge_path<S, float, P::threads, P::items>);
      else occupancy(detail::pull_warp_kernel<S, float, P>);
      std::printf("  %s%3d threads x %2d items (%2d blocks/SM, %d registers, %zu B local), %s: "
                  "%.4f ms (%.3fx cuSPARSE) %s\n",
                  check_rows ? "row-checking " : "warps ", P::threads, P::items, per_sm,
                  attr.numRegs, attr.localSizeBytes,
                  tiles_per_block ? (std::to_string(tiles_per_block) + " tiles/run").c_str()
                                  : "resident blocks",
                  ms, cusparse_ms / ms, verdict);
    };
    using detail::pull_policy;
    // TROPIC_TUNE_LEAN_SHAPES: the warps' tile shapes around the default only (fewer items a
    // thread: fewer registers, more blocks a SM).
    if (std::getenv("TROPIC_TUNE_LEAN_SHAPES")) {
      shape(pull_policy<128, 8>{}, 0);
      shape(pull_policy<128, 7>{}, 0);
      shape(pull_policy<128, 6>{}, 0);
      shape(pull_policy<128, 5>{}, 0);
      shape(pull_policy<128, 4>{}, 0);
      shape(pull_policy<96, 8>{}, 0);
      shape(pull_policy<96, 6>{}, 0);
      shape(pull_policy<64, 8>{}, 0);
      shape(pull_policy<192, 6>{}, 0);
      shape(pull_policy<128, 8>{}, 0);
      continue;
    }
    // The L1 / shared memory split: the resident blocks' shared memory leaves L1 the rest of
    // the SM's 256 KB, where hub columns of u would stay. Each carve-out with as many blocks as
    // it holds at once (the library's default shape, 128 x 8, by warps).
    {
      using P = pull_policy<128, 8>;
      auto kernel = detail::pull_warp_kernel<min_plus<float>, float, P>;
      int sms = 0;
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
      const arc_index total = arc_index(n) + v.arcs, tile = arc_index(32) * P::items;
      for (int carveout : {-1, 100, 75, 50, 25}) {
        cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, carveout);
        int per_sm = 0;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, P::threads, 0);
        for (int share : {1, 2}) {  // 2: half the resident slots (L1 left by fewer blocks)
          const arc_index warps =
              std::max<arc_index>(1, arc_index(sms) * per_sm / share * (P::threads / 32));
          const arc_index run = ((total + warps - 1) / warps + tile - 1) / tile * tile;
          const auto [ms, verdict] = measure(P{}, d, run);
          std::printf("  carveout %3d (%2d blocks/SM)%s: %.4f ms (%.3fx cuSPARSE) %s\n",
                      carveout, per_sm, share == 2 ? ", half the blocks" : "", ms,
                      cusparse_ms / ms, verdict);
        }
      }
      cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, -1);
    }
    // The row-checking kernel (every light or heavy part, mask or floor takes it) on the whole
    // matrix, where it maps each arc through its row's shift.
    {
      const auto [ms, verdict] = measure(detail::pull_default_policy{}, d, 0, true);
      std::printf("  row-checking kernel: %.4f ms (%.3fx cuSPARSE) %s\n", ms, cusparse_ms / ms,
                  verdict);
    }
    // The other pull kernels on the same view: a group of lanes per row (however long the
    // longest row), and live rows (short rows by a lane or a group, hubs by pull_long_rows).
    for (pull_method m : {pull_method::group_per_row, pull_method::live_rows}) {
      descriptor other;
      other.pull = m;
      const auto [ms, verdict] = measure(detail::pull_default_policy{}, other, 0);
      std::printf("  %s: %.4f ms (%.3fx cuSPARSE) %s\n",
                  m == pull_method::live_rows ? "live rows" : "group per row", ms,
                  cusparse_ms / ms, verdict);
    }
    // Runs of at most a few tiles, beyond the resident slots where the graph is large: the
    // block scheduler then balances the SMs, at a search and a record per run.
    for (arc_index tiles : {0, 2, 4, 8, 16, 32}) {
      shape(pull_policy<128, 8>{}, tiles);
      shape(pull_policy<128, 8>{}, tiles, true);
    }
    if (std::getenv("TROPIC_TUNE_SHORT")) continue;
    for (arc_index tiles : {0, 1, 4}) {
      shape(pull_policy<256, 8>{}, tiles);
      shape(pull_policy<128, 8>{}, tiles);
      shape(pull_policy<256, 4>{}, tiles);
      shape(pull_policy<256, 6>{}, tiles);
      shape(pull_policy<128, 16>{}, tiles);
      shape(pull_policy<512, 4>{}, tiles);
      shape(pull_policy<64, 16>{}, tiles);
    }
  }
  std::printf("cuda: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
}
