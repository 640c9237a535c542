// The merge path by warps: the pull over a whole matrix with no mask and no floor (a plain
// SpMV, w = accum(w, A ⊕.⊗ u)), Merrill & Garland's merge path (SC'16, sections 4-5) with a
// warp, not a block, as the unit of work. Each warp takes an equal run of the path of n row
// ends and nnz arcs in tiles of 32 x Items items, keeps the tile's row ends in its own shared
// memory, and combines its lanes' partial rows by a segmented scan of shuffles: no block scan
// and no block barrier, which held pull_merge_path (by blocks) 4-10% slower on cnr-2000 and
// 2-3% on kron-20/22 (bench/results/h200-run50/). A row open at a warp's start is finished by
// pull_fixup from the carries every earlier warp left for it, as the block version's rows are.
#pragma once

#include <algorithm>
#include <cstdint>

#include "../agents/merge_path_tile.cuh"
#include "../agents/pull_row.cuh"

namespace tropic::detail {

// A lane's part of the segmented scan: whether a row ended in it, and the ⊕ of the row open at
// its end since then (the whole lane's when none did). Combining in lane order is associative.
template <class S, class W>
__device__ __forceinline__ void warp_path_combine(bool& ended, W& value, bool ended_before,
                                                  W value_before) {
  if (!ended) value = S::add(value_before, value);
  ended = ended || ended_before;
}

// One warp's run of `run` path items; its record in records[warp] (pull_fixup).
template <class S, class W, int Threads, int Items, int MinBlocks>
__global__ void __launch_bounds__(Threads, MinBlocks)
pull_warp_path(csr_view<W> a, row_ranges ranges, const W* u, W* w, accumulator accum,
               vertex* improved, unsigned long long* improved_count, value_range<W> range,
               arc_index run, pull_block_record<W>* records, unsigned long long* arcs_scanned,
               const vertex* starts) {
  static_assert(Threads % 32 == 0, "whole warps");
  let_dependents_start();  // pull_fixup may take its place in the queue now (launch_fixup)
  constexpr int tile = 32 * Items;
  // row_end[k]: the end of row i + k relative to the tile's first arc j, clamped to the tile.
  __shared__ std::uint32_t row_end_of[Threads / 32][tile + 1];
  std::uint32_t* row_end = row_end_of[threadIdx.x / 32];
  const int lane = int(threadIdx.x % 32);
  const std::size_t warp = (blockIdx.x * std::size_t(Threads) + threadIdx.x) / 32;
  const vertex n = a.n;
  const arc_index total = arc_index(n) + ranges.part_arcs;
  const arc_index begin = arc_index(warp) * run;
  if (begin >= total) return;  // the grid's last warps; uniform in a warp
  // Every arc of a whole matrix is read once: warp 0 counts them all, and no warp counts its
  // own (one atomic a call, not one a warp; no faster, bench/results/h200-run51/, but simpler).
  if (warp == 0 && lane == 0 && arcs_scanned) atomicAdd(arcs_scanned, ranges.part_arcs);
  const arc_index end = std::min(begin + run, total);

  // The warp's first coordinate: kept with the matrix (merge_path_starts), or a 32-ary search.
  const auto ballot = [](bool p) { return __popc(__ballot_sync(~0u, p)); };
  vertex i =
      starts ? starts[warp] : merge_path_first_row<32>(ranges, n, begin, unsigned(lane), ballot);
  arc_index j = begin - i;
  const vertex head_row = i;
  const bool head_split = i < n && ranges.part_offset(i) < j;  // it began in an earlier warp
  bool head_here = false;
  W head_value = S::identity();
  W carry = S::identity();  // the row open at the tile's start, from the warp's earlier tiles

  for (arc_index d = begin; d < end; d += tile) {
    const int len = int(std::min<arc_index>(tile, end - d));
    // 1. The tile's row ends, 32 rows a round, up to the first whose end lies past the tile:
    // rows i .. i + m - 1 end in it.
    int m = 0;
    for (int base = 0;; base += 32) {
      const int k = base + lane;
      bool open = false;
      if (k <= len) {
        arc_index rel = arc_index(len);
        if (arc_index(i) + k < n) rel = std::min(ranges.part_offset(arc_index(i) + k + 1) - j, rel);
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
    // 2. The lane's items [t0, t1): k0 rows end before t0 (a search of the row ends); then each
    // item is a row end or arc j + q. The arcs' loads go out together, the gathers after them.
    const int t0 = std::min(lane * Items, len), t1 = std::min(t0 + Items, len);
    const int k0 = tile_rows_before(row_end, m, t0);
    int k = k0;
    int q = t0 - k0;
    bool ends[Items];
    int arc_at[Items];  // q of the item's arc, -1 for a row end or an item past t1
#pragma unroll
    for (int p = 0; p < Items; ++p) {
      const bool in = t0 + p < t1;
      ends[p] = in && k < m && int(row_end[k]) <= q;
      arc_at[p] = in && !ends[p] ? q : -1;
      if (ends[p]) ++k;
      else if (in) ++q;
    }
    vertex col[Items];
    W weight[Items];
#pragma unroll
    for (int p = 0; p < Items; ++p)
      if (arc_at[p] >= 0) {
        col[p] = read_once(a.columns + j + arc_at[p]);
        weight[p] = read_once(a.weights + j + arc_at[p]);
      }
    W product[Items];
#pragma unroll
    for (int p = 0; p < Items; ++p) {
      product[p] = S::identity();
      if (arc_at[p] >= 0) {
        const W ux = u[col[p]];
        if (ux != S::identity()) product[p] = S::mul(ux, weight[p]);
      }
    }
    // 3. The lane's rows: those that begin and end in it are written at once; the first it ends
    // waits for the earlier lanes' partials (the scan).
    W acc = S::identity(), first_acc = S::identity();
    bool ended = false;
    k = k0;
#pragma unroll
    for (int p = 0; p < Items; ++p) {
      if (ends[p]) {
        if (!ended) {
          ended = true;
          first_acc = acc;
        } else {
          pull_write<S>(w, i + vertex(k), acc, accum, improved, improved_count, range);
        }
        acc = S::identity();
        ++k;
      } else if (arc_at[p] >= 0) {
        acc = S::add(acc, product[p]);
      }
    }
    // 4. The segmented scan over the lanes (inclusive, then shifted by one lane), seeded with the
    // warp's carry from its earlier tiles.
    bool f = ended;
    W v = acc;
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2) {
      const bool f_up = __shfl_up_sync(~0u, int(f), offset) != 0;
      const W v_up = __shfl_up_sync(~0u, v, offset);
      if (lane >= offset) warp_path_combine<S>(f, v, f_up, v_up);
    }
    bool f_in = __shfl_up_sync(~0u, int(f), 1) != 0;
    W v_in = __shfl_up_sync(~0u, v, 1);
    if (lane == 0) {
      f_in = false;
      v_in = S::identity();
    }
    if (!f_in) v_in = S::add(carry, v_in);
    if (ended) {
      const vertex r = i + vertex(k0);
      const W value = S::add(v_in, first_acc);
      if (r == head_row && head_split) {  // the rest of the row is in earlier warps
        head_here = true;
        head_value = value;
      } else {
        pull_write<S>(w, r, value, accum, improved, improved_count, range);
      }
    }
    const bool f_all = __shfl_sync(~0u, int(f), 31) != 0;
    const W v_all = __shfl_sync(~0u, v, 31);
    carry = f_all ? v_all : S::add(carry, v_all);
    __syncwarp();  // row_end is rewritten by the next tile
    i += vertex(m);
    j += arc_index(len - m);
  }

  const unsigned here = __ballot_sync(~0u, head_here);
  const W head = __shfl_sync(~0u, head_value, here ? __ffs(here) - 1 : 0);
  if (lane == 0) {
    records[warp] = pull_block_record<W>{head_row, here ? 1u : 0u, here ? head : S::identity(),
                                         carry};
  }
}

}  // namespace tropic::detail
