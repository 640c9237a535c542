// mxm push (tropic/mxm.hpp): C = C ⊕ U ⊕.⊗ A(part) from the listed columns of U, load-balanced
// over arcs as push_merge_path is (Davidson et al. IV-B, load-balanced partitioning): the
// columns' row lengths are scanned (dispatch/push.cuh's frontier_scan), each block takes a
// contiguous run of arcs and finds the columns covering it by binary search. Each arc u -> v is
// read once by a group of Group lanes, which then walk the k sources: entry (s, v) of C lies at
// v·k + s, beside its neighbours, so the group's loads and atomics are coalesced. Memory
// ordering: as push_merge_path, plain loads of C filter the atomics (a stale value costs an
// atomic, never an answer).
#pragma once

#include <algorithm>
#include <cstddef>

#include "../detail/args.cuh"
#include "tropic/mxm.hpp"

namespace tropic::detail {

template <class W>
__device__ __forceinline__ bool matrix_mask_allows(const matrix_mask<W>& m, std::size_t p) {
  if (m.kind == mask_kind::none) return true;
  const W x = m.values[p];
  const bool set = m.kind == mask_kind::value ? (x != W(0)) : (x != infinity<W>());
  return set != m.complement;
}

// C(s, v) = C(s, v) ⊕ x at p = v·k + s, atomically; with a min monoid, column v listed once per
// stamp when x lowered the entry into `range` (list_once: stamps over the n columns).
template <class S, class W>
__device__ __forceinline__ void mxm_combine(W* c, std::size_t p, vertex v, W x,
                                            std::uint32_t* stamps, std::uint32_t stamp,
                                            vertex* improved, unsigned long long* improved_count,
                                            const value_range<W>& range) {
  if constexpr (S::is_min_monoid) {
    if (!(x < c[p])) return;  // most candidates do not improve
    const W old = S::atomic_add(&c[p], x);
    if (improved && x < old && in_range(x, range))
      list_once(v, stamps, stamp, improved, improved_count);
  } else {
    if (x != S::identity()) S::atomic_add(&c[p], x);
  }
}

// columns[j], j < column_count, with values[j·k + s]; scan[j] = the arcs of the rows of the
// columns before j in ranges' part, scan[column_count] the total (read here, on the device).
template <class S, class W, int Threads, int ItemsPerGroup, int Group>
__global__ void __launch_bounds__(Threads)
mxm_push_merge_path(const vertex* columns, const W* values, std::size_t column_count,
                    std::size_t k, const arc_index* scan, csr_view<W> a, row_ranges ranges, W* c,
                    matrix_mask<W> mask, std::uint32_t* stamps, std::uint32_t stamp,
                    vertex* improved, unsigned long long* improved_count, value_range<W> range,
                    unsigned long long* arcs_scanned) {
  static_assert(Threads % Group == 0, "a block holds whole groups");
  constexpr int groups = Threads / Group;
  constexpr int tile = groups * ItemsPerGroup;  // arcs of a tile
  const arc_index total = scan[column_count];
  if (arcs_scanned && blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(arcs_scanned, total);
  const unsigned group = threadIdx.x / Group, lane = threadIdx.x % Group;
  __shared__ std::size_t tile_columns[2];
  for (arc_index tile_start = arc_index(blockIdx.x) * tile; tile_start < total;
       tile_start += arc_index(gridDim.x) * tile) {
    if (threadIdx.x < 2) {
      // The columns covering the tile's first and last arc: the last j with scan[j] <= e.
      const arc_index e = threadIdx.x == 0 ? tile_start : std::min(tile_start + tile, total) - 1;
      std::size_t lo = 0, hi = column_count;
      while (hi - lo > 1) {
        const std::size_t mid = (lo + hi) / 2;
        if (scan[mid] <= e) lo = mid; else hi = mid;
      }
      tile_columns[threadIdx.x] = lo;
    }
    __syncthreads();
    std::size_t j = tile_columns[0];
    const std::size_t j_last = tile_columns[1];
    __syncthreads();
    // Group g takes arcs tile_start + g + i·groups: its column index only grows.
    for (int i = 0; i < ItemsPerGroup; ++i) {
      const arc_index e = tile_start + group + arc_index(i) * groups;
      if (e >= total) break;  // the same e for every lane of the group
      std::size_t lo = j, hi = j_last + 1;
      while (hi - lo > 1) {
        const std::size_t mid = (lo + hi) / 2;
        if (scan[mid] <= e) lo = mid; else hi = mid;
      }
      j = lo;
      const vertex u = columns[j];
      const arc_index arc = ranges.first(u) + (e - scan[j]);
      const vertex v = a.columns[arc];
      const W weight = a.weights[arc];
      const W* x = values + j * k;
      const std::size_t base = std::size_t(v) * k;
      for (std::size_t s = lane; s < k; s += Group) {
        const W xs = x[s];
        if (xs == S::identity() || !matrix_mask_allows(mask, base + s)) continue;
        mxm_combine<S>(c, base + s, v, S::mul(xs, weight), stamps, stamp, improved,
                       improved_count, range);
      }
    }
  }
}

}  // namespace tropic::detail
