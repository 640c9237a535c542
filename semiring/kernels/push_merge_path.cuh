// Push, load-balanced (Davidson et al. IV-B "load-balanced partitioning", merge-path style):
// the frontier's row lengths are scanned (CUB; dispatch/push.cuh's frontier_scan) into `scan`;
// each block takes a contiguous run of `tile` arcs, finds the frontier rows that cover it with
// two binary searches, and its threads walk the arcs. Work per block is equal whatever the
// degree skew.
#pragma once

#include <algorithm>
#include <cstddef>

#include "../detail/args.cuh"

namespace tropic::detail {

// frontier[k] with value frontier_values[k], k < frontier_size; scan[k] = the arcs of rows
// before k in ranges' part, scan[frontier_size] the total (read here, on the device).
template <class S, class W, int Threads, int ItemsPerThread>
__global__ void __launch_bounds__(Threads)
push_merge_path(const vertex* frontier, const W* frontier_values, std::size_t frontier_size,
                const arc_index* scan, csr_view<W> a, row_ranges ranges, W* w,
                mask_view<W> mask, std::uint32_t* stamps, std::uint32_t stamp, vertex* improved,
                unsigned long long* improved_count, value_range<W> range,
                unsigned long long* arcs_scanned) {
  constexpr int tile = Threads * ItemsPerThread;
  const arc_index total = scan[frontier_size];
  if (arcs_scanned && blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(arcs_scanned, total);
  __shared__ std::size_t tile_rows[2];
  // A tile's improved targets are staged here and appended to `improved` with one atomic per
  // tile: appended a warp at a time (append_slot), the list's length -- one word -- limited a
  // hub frontier's push (bench/results/h100-run24/sweeps/ab-3-push-stage.txt).
  __shared__ vertex staged[tile];
  __shared__ unsigned long long staged_count, staged_base;
  if (threadIdx.x == 0) staged_count = 0;
  for (arc_index tile_start = arc_index(blockIdx.x) * tile; tile_start < total;
       tile_start += arc_index(gridDim.x) * tile) {
    if (threadIdx.x < 2) {
      // The frontier rows covering the tile's first and last arc: the last k with scan[k] <= e.
      const arc_index e = threadIdx.x == 0 ? tile_start : std::min(tile_start + tile, total) - 1;
      std::size_t lo = 0, hi = frontier_size;
      while (hi - lo > 1) {
        std::size_t mid = (lo + hi) / 2;
        if (scan[mid] <= e) lo = mid; else hi = mid;
      }
      tile_rows[threadIdx.x] = lo;
    }
    __syncthreads();
    std::size_t k = tile_rows[0];
    const std::size_t k_last = tile_rows[1];
    __syncthreads();
    // Each thread handles arcs tile_start + threadIdx.x + j * Threads; its row index only grows,
    // so each search starts from the previous row and stops at the tile's last row.
    for (int j = 0; j < ItemsPerThread; ++j) {
      const arc_index e = tile_start + threadIdx.x + arc_index(j) * Threads;
      if (e >= total) break;
      std::size_t lo = k, hi = k_last + 1;
      while (hi - lo > 1) {
        std::size_t mid = (lo + hi) / 2;
        if (scan[mid] <= e) lo = mid; else hi = mid;
      }
      k = lo;
      const vertex u = frontier[k];
      const arc_index arc = ranges.first(u) + (e - scan[k]);
      const vertex v = a.columns[arc];
      if (!mask_allows(mask, v)) continue;
      const W x = S::mul(frontier_values[k], a.weights[arc]);
      push_combine<S>(w, v, x, stamps, stamp, improved ? staged : nullptr, &staged_count, range);
    }
    if (improved) {
      __syncthreads();  // the tile's targets are staged
      if (threadIdx.x == 0 && staged_count) staged_base = atomicAdd(improved_count, staged_count);
      __syncthreads();
      for (unsigned long long i = threadIdx.x; i < staged_count; i += Threads)
        improved[staged_base + i] = staged[i];
      __syncthreads();  // every thread has read staged_count
      if (threadIdx.x == 0) staged_count = 0;
    }
  }
}

}  // namespace tropic::detail
