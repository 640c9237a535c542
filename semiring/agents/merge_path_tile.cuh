// Per-tile agents of the merge-path pull (kernels/pull_merge_path.cuh): the partial of an open
// row and its reduce-by-key, what a block leaves for the fixup, and a tile's arc products.
#pragma once

#include <cstdint>

#include "../detail/common.cuh"

namespace tropic::detail {

// A partial of one row: the row open at the end of a run of path items, and its ⊕ over them.
template <class W>
struct pull_carry {
  vertex row;
  W value;
};

// Reduce-by-key over carries in path order: keys never decrease along the path, which makes
// this associative (segmented scan), as CUB's BlockScan requires.
template <class S, class W>
struct pull_carry_op {
  __device__ __forceinline__ pull_carry<W> operator()(const pull_carry<W>& a,
                                                      const pull_carry<W>& b) const {
    return {b.row, a.row == b.row ? S::add(a.value, b.value) : b.value};
  }
};

// CUB's block-prefix callback: the carry of the tiles of this block so far (lane 0 of warp 0
// keeps it).
template <class S, class W>
struct pull_running_carry {
  pull_carry<W> total;
  __device__ pull_carry<W> operator()(const pull_carry<W>& tile) {
    const pull_carry<W> before = total;
    total = pull_carry_op<S, W>{}(total, tile);
    return before;
  }
};

// What a block (pull_merge_path) or a warp (pull_warp_path) leaves for pull_fixup.
template <class W>
struct pull_block_record {
  vertex head_row;        // the row open at the block's start
  unsigned head_pending;  // 1: the row ends in this block, the mask allows it, head_value waits
  W head_value;           // ⊕ of the head row's arcs in this block
  W carry_value;          // ⊕ of the arcs, in this block, of the row open at the block's end
};

// The merge path's products of a tile: product[q] = u(columns[e]) ⊗ weights[e] for the tile's
// arc q < count at e = arc(q), the identity where arc(q) is no_arc (an arc of a masked-out row or
// of a row at or below the floor: never read) or u has no entry. Columns and weights first
// (coalesced: consecutive q of a row are consecutive arcs), then the gathers of u: Items
// independent loads per thread in flight, which is what an SpMV's time is. Returns how many
// arcs this thread read (the statistics' arcs scanned).
inline constexpr arc_index no_arc = ~arc_index(0);
template <class S, class W, int Threads, int Items, class Arc>
__device__ __forceinline__ unsigned tile_products(const csr_view<W>& a, int count, const W* u,
                                                  W* product, Arc arc) {
  vertex col[Items];
  W weight[Items];
  bool on[Items];
  unsigned read = 0;
#pragma unroll
  for (int c = 0; c < Items; ++c) {
    const int q = c * Threads + int(threadIdx.x);
    const arc_index e = q < count ? arc(q) : no_arc;
    on[c] = e != no_arc;
    if (on[c]) {
      col[c] = read_once(a.columns + e);
      weight[c] = read_once(a.weights + e);
      ++read;
    }
  }
#pragma unroll
  for (int c = 0; c < Items; ++c) {
    const int q = c * Threads + int(threadIdx.x);
    if (q >= count) continue;
    W x = S::identity();
    if (on[c]) {
      const W ux = u[col[c]];
      if (ux != S::identity()) x = S::mul(ux, weight[c]);
    }
    product[q] = x;
  }
  return read;
}

// Merrill & Garland's merge-path search (SC'16, section 4): the rows whose end lies before path
// position `begin`, i.e. the first r with r + part_offset(r + 1) >= begin. Each round samples
// Width rows of [lo, hi), one a thread of the group (rank), `count` says in how many of them
// the predicate holds (a block's __syncthreads_count, a warp's ballot), and the gap where it
// turns is the next round's range: a few rounds of one load a thread cover millions of rows.
template <int Width, class Count>
__device__ __forceinline__ vertex merge_path_first_row(const row_ranges& ranges, vertex n,
                                                       arc_index begin, unsigned rank,
                                                       Count count) {
  vertex lo = 0, hi = n;
  while (lo < hi) {
    const std::uint64_t span = hi - lo;
    const vertex r = lo + vertex(span * rank / Width);
    const int before = count(arc_index(r) + ranges.part_offset(arc_index(r) + 1) < begin);
    if (before == 0) break;  // the answer is lo
    const vertex last_before = lo + vertex(span * unsigned(before - 1) / Width);
    if (before < Width) hi = lo + vertex(span * unsigned(before) / Width);
    lo = last_before + 1;
  }
  return lo;
}

// A thread's coordinate in a tile (a search of the tile's row ends in shared memory): how many
// of its m finished rows end before item t, i.e. the first k < m with k + row_end[k] >= t.
__device__ __forceinline__ int tile_rows_before(const std::uint32_t* row_end, int m, int t) {
  int k = 0;
  while (k < m) {
    const int mid = (k + m) / 2;
    if (mid + int(row_end[mid]) < t) k = mid + 1;
    else m = mid;
  }
  return k;
}

}  // namespace tropic::detail
