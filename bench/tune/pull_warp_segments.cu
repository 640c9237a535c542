// Issue 35 experiment: a merge-path min-plus SpMV by warps instead of blocks, against the
// library's lean merge path and cuSPARSE on the same CSR. Each warp takes an equal run of the
// path (Merrill & Garland, SC'16) in tiles of 32 x K items, keeps the tile's row ends in its own
// 1 KB of shared memory, and combines the lanes' partial rows by a shuffle-only segmented scan:
// no block scan and no block barrier, which is where the lean kernel's time goes on cnr-2000
// (bench/results/h200-run50/NOTES.md). The rows open at a warp's start are finished by a fixup
// kernel as in the library. fp32, whole matrix, no mask, w = A min.+ x. A prototype: not in the
// library. Built by the `tune` target:
//   build/bench/tune/tune_pull_warp_segments [spec or graph file...]
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "operators.cuh"
#include "tropic/generate.hpp"
#include "tune_common.cuh"
using namespace tropic;

namespace {

constexpr float inf = INFINITY;

struct warp_record {
  vertex head_row;
  unsigned head_pending;
  float head_value;
  float carry;
};

// The pair a lane hands on in the segmented scan: whether a row ended in it, and the partial of
// the row open at its end.
__device__ __forceinline__ void combine(bool& f, float& v, bool f_before, float v_before) {
  if (!f) v = fminf(v, v_before);
  f = f || f_before;
}

template <int K, int Warps, int MinBlocks>
__global__ void __launch_bounds__(32 * Warps, MinBlocks)
warp_segments(csr_view<float> a, const float* __restrict__ x, float* __restrict__ w,
              arc_index run, warp_record* records) {
  constexpr int tile = 32 * K;
  __shared__ std::uint32_t row_end_all[Warps][tile + 1];
  std::uint32_t* row_end = row_end_all[threadIdx.x / 32];
  const int lane = int(threadIdx.x % 32);
  const std::size_t warp = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / 32;
  const vertex n = a.n;
  const arc_index total = arc_index(n) + a.arcs;
  const arc_index begin = arc_index(warp) * run;
  if (begin >= total) return;  // uniform in the warp
  const arc_index end = std::min(begin + run, total);
  const arc_index* off = a.row_offsets;

  // The warp's first coordinate: the first r with r + off[r + 1] >= begin, 32-ary.
  vertex lo = 0, hi = n;
  while (lo < hi) {
    const std::uint64_t span = hi - lo;
    const vertex r = lo + vertex(span * unsigned(lane) / 32);
    const unsigned below = __ballot_sync(~0u, arc_index(r) + off[r + 1] < begin);
    const int before = __popc(below);
    if (before == 0) break;
    const vertex last_before = lo + vertex(span * unsigned(before - 1) / 32);
    if (before < 32) hi = lo + vertex(span * unsigned(before) / 32);
    lo = last_before + 1;
  }
  vertex i = lo;
  arc_index j = begin - i;
  const vertex head_row = i;
  const bool head_split = i < n && off[i] < j;
  bool head_found = false;
  float head_value = inf;
  float carry = inf;  // the row open at the tile's start, from earlier tiles of this warp

  for (arc_index d = begin; d < end; d += tile) {
    const int len = int(std::min<arc_index>(tile, end - d));
    // Row ends relative to arc j (clamped to len): rows i .. i + m - 1 end in the tile.
    int m = 0;
    for (int base = 0;; base += 32) {
      const int k = base + lane;
      bool open = false;
      if (k <= len) {
        arc_index rel = arc_index(len);
        if (arc_index(i) + k < n) rel = std::min(off[i + k + 1] - j, rel);
        row_end[k] = std::uint32_t(rel);
        open = rel + k >= arc_index(len);
      }
      const unsigned opens = __ballot_sync(~0u, open);
      if (opens) {
        m = base + __ffs(opens) - 1;
        break;
      }
    }
    __syncwarp();
    // This lane's items [t0, t1): k0 rows end before t0.
    const int t0 = std::min(lane * K, len), t1 = std::min(t0 + K, len);
    int k = 0;
    {
      int k_hi = m;
      while (k < k_hi) {
        const int mid = (k + k_hi) / 2;
        if (mid + int(row_end[mid]) < t0) k = mid + 1;
        else k_hi = mid;
      }
    }
    const int k0 = k;
    int q = t0 - k0;
    bool ends[K];
    int arc_at[K];
#pragma unroll
    for (int p = 0; p < K; ++p) {
      const bool in = t0 + p < t1;
      ends[p] = in && k < m && int(row_end[k]) <= q;
      arc_at[p] = in && !ends[p] ? q : -1;
      if (ends[p]) ++k;
      else if (in) ++q;
    }
    vertex col[K];
    float weight[K];
#pragma unroll
    for (int p = 0; p < K; ++p)
      if (arc_at[p] >= 0) {
        col[p] = __ldcs(a.columns + j + arc_at[p]);
        weight[p] = __ldcs(a.weights + j + arc_at[p]);
      }
    float product[K];
#pragma unroll
    for (int p = 0; p < K; ++p) {
      product[p] = inf;
      if (arc_at[p] >= 0) {
        const float ux = x[col[p]];
        if (ux != inf) product[p] = ux + weight[p];
      }
    }
    float acc = inf, first_acc = inf;
    bool seen = false;
    k = k0;
#pragma unroll
    for (int p = 0; p < K; ++p) {
      if (ends[p]) {
        if (!seen) {
          seen = true;
          first_acc = acc;
        } else {
          w[i + vertex(k)] = acc;
        }
        acc = inf;
        ++k;
      } else {
        acc = fminf(acc, product[p]);
      }
    }
    // Inclusive segmented scan over the lanes, then the exclusive value for this lane.
    bool f = seen;
    float v = acc;
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2) {
      const bool f_up = __shfl_up_sync(~0u, int(f), offset) != 0;
      const float v_up = __shfl_up_sync(~0u, v, offset);
      if (lane >= offset) combine(f, v, f_up, v_up);
    }
    bool f_ex = __shfl_up_sync(~0u, int(f), 1) != 0;
    float v_ex = __shfl_up_sync(~0u, v, 1);
    if (lane == 0) {
      f_ex = false;
      v_ex = inf;
    }
    if (!f_ex) v_ex = fminf(v_ex, carry);
    if (seen) {
      const vertex r = i + vertex(k0);
      const float value = fminf(v_ex, first_acc);
      if (r == head_row && head_split) {
        head_found = true;
        head_value = value;
      } else {
        w[r] = value;
      }
    }
    const bool f_all = __shfl_sync(~0u, int(f), 31) != 0;
    const float v_all = __shfl_sync(~0u, v, 31);
    carry = f_all ? v_all : fminf(carry, v_all);
    __syncwarp();  // row_end is rewritten by the next tile
    i += vertex(m);
    j += arc_index(len - m);
  }
  const unsigned found = __ballot_sync(~0u, head_found);
  const float hv = __shfl_sync(~0u, head_value, found ? __ffs(found) - 1 : 0);
  if (lane == 0) records[warp] = warp_record{head_row, found ? 1u : 0u, found ? hv : inf, carry};
}

__global__ void warp_fixup(const arc_index* off, const warp_record* records, std::size_t warps,
                           arc_index run, float* w) {
  const std::size_t b = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  if (b >= warps || !records[b].head_pending) return;
  const vertex r = records[b].head_row;
  const std::size_t first = std::size_t((arc_index(r) + off[r]) / run);
  float acc = inf;
  for (std::size_t k = first + lane; k < b; k += 32) acc = fminf(acc, records[k].carry);
  for (int offset = 16; offset > 0; offset /= 2)
    acc = fminf(acc, __shfl_down_sync(~0u, acc, offset));
  if (lane == 0) w[r] = fminf(acc, records[b].head_value);
}

template <int K, int Warps, int MinBlocks = 1>
void measure(tune::spmv_problem& problem, float cusparse_ms, const std::vector<float>& want,
             int runs_per_slot) {
  cudaStream_t s = problem.stream;
  const auto& v = problem.view;
  const arc_index total = arc_index(v.n) + v.arcs;
  int per_sm = 0, sms = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, warp_segments<K, Warps, MinBlocks>, 32 * Warps, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaFuncAttributes attr{};
  cudaFuncGetAttributes(&attr, warp_segments<K, Warps, MinBlocks>);
  // Runs of whole tiles, as many warps as the device holds at once times runs_per_slot.
  const arc_index tile = 32 * K;
  const arc_index slots = arc_index(std::max(1, per_sm * sms * Warps * runs_per_slot));
  const arc_index tiles = (total + tile - 1) / tile;
  const arc_index run = std::max<arc_index>(1, (tiles + slots - 1) / slots) * tile;
  const std::size_t warps = std::size_t((total + run - 1) / run);
  device_buffer<warp_record> records(warps, s);
  const unsigned grid = unsigned((warps + Warps - 1) / Warps);
  auto call = [&] {
    warp_segments<K, Warps, MinBlocks><<<grid, 32 * Warps, 0, s>>>(v, problem.x.data(), problem.y.data(),
                                                       run, records.data());
    if (warps > 1)
      warp_fixup<<<unsigned((warps * 32 + 255) / 256), 256, 0, s>>>(v.row_offsets,
                                                                    records.data(), warps, run,
                                                                    problem.y.data());
  };
  cudaMemsetAsync(problem.y.data(), 0, v.n * sizeof(float), s);
  call();
  std::vector<float> got(v.n);
  cudaMemcpyAsync(got.data(), problem.y.data(), v.n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  const float ms = tune::median_ms(s, call);
  std::printf("  warp segments %d items x %d warps, min blocks %d (%d blocks/SM, %d registers, "
              "%zu B local, %d runs a slot): %.4f ms (%.3fx cuSPARSE) %s\n",
              K, Warps, MinBlocks, per_sm, attr.numRegs, attr.localSizeBytes, runs_per_slot, ms,
              cusparse_ms / ms, got == want ? "ok" : "WRONG");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> specs;
  for (int i = 1; i < argc; ++i) specs.push_back(argv[i]);
  if (specs.empty()) specs = {"kron:20:16"};
  for (const auto& spec : specs) {
    tune::spmv_problem problem(spec);
    cudaStream_t s = problem.stream;
    const auto& v = problem.view;
    tune::cusparse_spmv spmv(v, problem.x.data(), problem.y.data(), s);
    const float cusparse_ms = tune::median_ms(s, [&] { spmv.run(); });
    std::printf("  cusparse plus-times      %.4f ms\n", cusparse_ms);
    // The library's pull (lean merge path) as the reference answer and the time to beat.
    const matrix_operand<float> op{&problem.matrix, row_part::all, nullptr};
    descriptor d;
    d.pull = pull_method::merge_path;
    auto library = [&] {
      detail::pull_dispatch<min_plus<float>>(
          detail::pull_operands<float>{&problem.ref, no_mask<float>(), accumulator::none, v,
                                       detail::ranges_of(v, op, false), problem.x.data()},
          d, problem.ctx);
    };
    library();
    std::vector<float> want(v.n);
    cudaMemcpyAsync(want.data(), problem.ref.data(), v.n * sizeof(float), cudaMemcpyDeviceToHost,
                    s);
    cudaStreamSynchronize(s);
    const float lean_ms = tune::median_ms(s, library);
    std::printf("  library lean merge path  %.4f ms (%.3fx cuSPARSE)\n", lean_ms,
                cusparse_ms / lean_ms);
    // Call 7: 8 x 4 at one run a slot was the best on cnr-2000; 6 x 4 and 4 x 4 close behind.
    // Here: register bounds (MinBlocks), longer lanes, and 2 or 4 warps a block.
    for (int runs : {1, 2}) {
      measure<8, 4>(problem, cusparse_ms, want, runs);
      measure<8, 4, 8>(problem, cusparse_ms, want, runs);
      measure<8, 4, 9>(problem, cusparse_ms, want, runs);
      measure<6, 4, 10>(problem, cusparse_ms, want, runs);
      measure<12, 4>(problem, cusparse_ms, want, runs);
      measure<16, 4>(problem, cusparse_ms, want, runs);
      measure<8, 2>(problem, cusparse_ms, want, runs);
      measure<8, 2, 16>(problem, cusparse_ms, want, runs);
    }
    const float again_ms = tune::median_ms(s, library);
    std::printf("  library lean merge path  %.4f ms (%.3fx cuSPARSE)\n", again_ms,
                cusparse_ms / again_ms);
  }
  std::printf("cuda: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
}
