// The merge-path pull (Merrill & Garland, "Merge-based Parallel Sparse Matrix-Vector
// Multiplication", SC'16, sections 4-5): w(i) = accum(w(i), ⊕_j u(j) ⊗ A(i, j)) for every row i
// of the view the mask allows (for vxm the view is A', each row's arcs i's in-arcs). The n row
// ends and the nnz arcs are merged into one path of n + nnz items: arc e of row i sits at position
// i + e, row i's end at i + offsets[i + 1], after its arcs. Each block takes an equal run of the
// path in tiles of Threads x Items items, each thread Items consecutive items of a tile: a hub of
// a million arcs and a million empty rows cost the same per item, every arc is read once, and the
// only search over global memory is one per block. Bins by row length lost on both skewed and
// short rows (idle lanes, one dependent load chain per row, a block per hub, a selection pass per
// call; bench/tune/pull_kron_bins.cu): the path needs no selection and splits hubs.
//
// This is the merge path by blocks, for views that skip rows; a whole matrix with no mask and no
// floor (a plain SpMV) takes the merge path by warps (pull_warp_path.cuh).
//
// Light/heavy parts: the path runs over the part's arcs alone, as if the part were a matrix of
// its own (row_ranges::part_offset: a prefix of the light rows' lengths, kept by the split).
// Rows the mask excludes, and rows at or below the floor, stay on the path but read nothing.
//
// A row is finished, and written once (pull_write), where its end lies: inside a tile, the
// threads' partials of an open row are combined by a reduce-by-key block scan whose running
// prefix carries it into the block's next tile; a row open at a block's start is finished by
// pull_fixup from the partials every earlier block left for it, so accumulator::none, the mask
// and the improved list always see the whole row.
#pragma once

#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <cstdint>

#include "../agents/merge_path_tile.cuh"
#include "../agents/pull_row.cuh"

namespace tropic::detail {

// A tile shape for pull_merge_path (the default from tuning.hpp; tests use small ones so that
// small graphs cross tiles and blocks); for the warps' merge path, the resident blocks a SM its
// registers are held to (0: tuning::pull_warp_min_blocks for the semiring and value) and the
// items a lane takes per tile.
template <int Threads, int Items, int WarpMinBlocks = 0, int WarpItems = Items>
struct pull_policy {
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  static constexpr int warp_min_blocks = WarpMinBlocks;
  static constexpr int warp_items = WarpItems;
};
using pull_default_policy = pull_policy<tuning::pull_threads, tuning::pull_items_per_thread>;
// The library's shape for semiring S over W: the warps' tiles by the value's size.
template <class S, class W>
using pull_default_policy_for =
    pull_policy<tuning::pull_threads, tuning::pull_items_per_thread, 0,
                tuning::pull_warp_items(sizeof(W))>;

// One block's run of block_items path items; its record in records[blockIdx.x] (pull_fixup).
// The view is a light or heavy part, or a mask or a floor may skip rows, so step 2 maps the
// tile's arcs row by row; a whole matrix with every row (a plain SpMV) is pull_warp_path's.
template <class S, class W, int Threads, int Items>
__global__ void __launch_bounds__(Threads)
pull_merge_path(csr_view<W> a, row_ranges ranges, const W* u, W* w, mask_view<W> mask,
                accumulator accum, vertex* improved, unsigned long long* improved_count,
                value_range<W> range, arc_index block_items, pull_block_record<W>* records,
                unsigned long long* arcs_scanned, pull_floor<W> floor) {
  let_dependents_start();  // pull_fixup may take its place in the queue now (launch_fixup)
  constexpr int tile_items = Threads * Items;
  using scan_t = cub::BlockScan<pull_carry<W>, Threads>;
  // row_end[k]: the end of row i + k relative to the tile's first arc j (exact for the rows
  // that end in the tile, clamped to the tile's length beyond); product[q]: arc j + q's u ⊗ a.
  __shared__ std::uint32_t row_end[tile_items + 1];
  __shared__ W product[tile_items];
  __shared__ typename scan_t::TempStorage scan_temp;
  __shared__ int first_open;  // the tile's first row whose end lies past the tile
  __shared__ unsigned head_pending;
  __shared__ W head_value;
  // Step 2's map from the tile's arcs to the matrix's: bit q of starts is set where a row's
  // arcs in the tile begin, shift[q] there is what turns the row's part positions into arc
  // indices (no_arc: the row is skipped), last_start[b] the last row start in words 0 .. b.
  constexpr int start_words = (tile_items + 31) / 32;
  __shared__ std::uint32_t starts[start_words];
  __shared__ int last_start[start_words];
  __shared__ arc_index shift[tile_items];

  if (floor.by_live_rows && *floor.by_live_rows) return;  // pull_live_rows' turn
  const vertex n = a.n;
  const W floor_value = floor.template value<S>();
  const arc_index begin = arc_index(blockIdx.x) * block_items;
  const arc_index end = std::min(begin + block_items, arc_index(n) + ranges.part_arcs);
  if (threadIdx.x == 0) {
    first_open = tile_items + 1;
    head_pending = 0;
  }
  __syncthreads();

  // The block's first coordinate, a Threads-ary search: i = the rows whose end lies before
  // `begin`.
  vertex i = merge_path_first_row<Threads>(ranges, n, begin, threadIdx.x,
                                           [](bool p) { return __syncthreads_count(p); });
  arc_index j = begin - i;
  const vertex head_row = i;
  const bool head_split = i < n && ranges.part_offset(i) < j;  // it began in an earlier block

  pull_running_carry<S, W> running{{i, S::identity()}};
  unsigned long long read = 0;  // arcs this thread loaded
  for (arc_index d = begin; d < end; d += tile_items) {
    const int len = int(std::min<arc_index>(tile_items, end - d));

    // 1. The tile's row ends, rows i, i + 1, ... up to the first whose end lies past the tile
    // (m rows end in it, at most len). Rounds of Threads, 2 Threads, 4 Threads ... rows, so a
    // tile of long rows reads one round and a tile of empty rows at most a few.
    int m = 0;
    for (int base = 0, per = 1;; base += per * Threads, per *= 2) {
      bool open = false;
      for (int c = 0; c < per; ++c) {
        const int k = base + c * Threads + int(threadIdx.x);
        if (k > len) break;
        arc_index rel = arc_index(len);
        if (arc_index(i) + k < n)
          rel = std::min(ranges.part_offset(arc_index(i) + k + 1) - j, rel);
        row_end[k] = std::uint32_t(rel);
        if (!open && rel + k >= arc_index(len)) {  // row i + k's end lies past the tile
          open = true;
          atomicMin(&first_open, k);
        }
      }
      if (__syncthreads_or(open)) {
        m = first_open;
        break;
      }
    }
    const int arcs = len - m;  // the tile's arcs: j .. j + arcs - 1

    // 2. Products of the tile's arcs. Positions j .. j + arcs - 1 of the path count the part's
    // arcs only; row r's lie at [part_offset(r), part_offset(r + 1)) and its matrix arcs at
    // [first(r), last(r)), so arc index = position + shift(r). A thread per row with arcs in the
    // tile marks where they begin (a bit) and stores the row's shift there -- no_arc when the
    // mask excludes the row or it is at or below the floor -- and each arc finds its row's start
    // as the last marked bit at or before it. Walking whole rows instead (the part's arcs active,
    // the rest marked off) made a part's path as long as the matrix's
    // (bench/results/h100-run20/sweeps/).
    for (int word = int(threadIdx.x); word < start_words; word += Threads) starts[word] = 0;
    __syncthreads();
    for (int k = int(threadIdx.x); k <= m; k += Threads) {
      // Row i + k's arcs in the tile: [start, end); row m is the one open past the tile.
      const int start = k == 0 ? 0 : int(row_end[k - 1]);
      const int end = k < m ? int(row_end[k]) : arcs;
      if (start >= end) continue;  // no arcs here (also: no row i + m past the last row)
      const vertex r = i + vertex(k);
      shift[start] = mask_allows(mask, r) && floor.above(floor_value, w, r)
                         ? ranges.first(r) - ranges.part_offset(r)
                         : no_arc;
      atomicOr(&starts[start >> 5], 1u << (start & 31));
    }
    __syncthreads();
    if (threadIdx.x < 32) {  // a max-scan of each word's last start, a warp's round at a time
      int carry = -1;
      for (int base = 0; base < start_words; base += 32) {
        const int word = base + int(threadIdx.x);
        const std::uint32_t bits = word < start_words ? starts[word] : 0u;
        int last = bits ? word * 32 + 31 - __clz(int(bits)) : -1;
        for (int offset = 1; offset < 32; offset *= 2) {
          const int before = __shfl_up_sync(~0u, last, offset);
          if (int(threadIdx.x) >= offset) last = max(last, before);
        }
        last = max(last, carry);
        if (word < start_words) last_start[word] = last;
        carry = __shfl_sync(~0u, last, 31);
      }
    }
    __syncthreads();
    read += tile_products<S, W, Threads, Items>(a, arcs, u, product, [&](int q) -> arc_index {
      const int word = q >> 5;
      const std::uint32_t bits = starts[word] & (~0u >> (31 - (q & 31)));
      const int start = bits ? word * 32 + 31 - __clz(int(bits)) : last_start[word - 1];
      const arc_index by = shift[start];
      return by == no_arc ? no_arc : j + arc_index(q) + by;
    });
    __syncthreads();
    if (threadIdx.x == 0) first_open = tile_items + 1;  // every thread has read it (sync above)

    // 3. Each thread walks Items items of the path from its own coordinate (a search over the
    // tile's row ends in shared memory): an arc adds its product, a row end finishes a row.
    // Rows that begin and end within the thread are written at once; the first row it ends
    // needs the partials of earlier threads and tiles (the scan below).
    const int t0 = std::min(int(threadIdx.x) * Items, len);
    const int t1 = std::min(t0 + Items, len);
    int k = tile_rows_before(row_end, m, t0);
    int q = t0 - k;
    W acc = S::identity();
    int first_k = -1;
    W first_acc = S::identity();
    for (int p = t0; p < t1; ++p) {
      if (k < m && int(row_end[k]) <= q) {
        if (first_k < 0) {
          first_k = k;
          first_acc = acc;
        } else {
          const vertex r = i + vertex(k);
          if (mask_allows(mask, r))
            pull_write<S>(w, r, acc, accum, improved, improved_count, range);
        }
        acc = S::identity();
        ++k;
      } else {
        acc = S::add(acc, product[q]);
        ++q;
      }
    }

    // 4. Reduce-by-key over the threads' open rows, seeded with this block's earlier tiles:
    // thread t receives the partial of the row open at its start, which is the first row it
    // ends (keys are the same by construction: thread t starts where thread t - 1 stopped).
    pull_carry<W> carry_in;
    scan_t(scan_temp).ExclusiveScan(pull_carry<W>{i + vertex(k), acc}, carry_in,
                                    pull_carry_op<S, W>{}, running);
    if (first_k >= 0) {
      const vertex r = i + vertex(first_k);
      const W value = S::add(carry_in.value, first_acc);
      if (mask_allows(mask, r)) {
        if (r == head_row && head_split) {  // the rest of the row is in earlier blocks
          head_value = value;
          head_pending = 1;
        } else {
          pull_write<S>(w, r, value, accum, improved, improved_count, range);
        }
      }
    }
    __syncthreads();  // row_end, product and scan_temp are reused by the next tile
    i += vertex(m);
    j += arc_index(arcs);
  }

  if (threadIdx.x == 0) {  // thread 0 holds the running carry (and sees head_*: sync above)
    pull_block_record<W> record;
    record.head_row = head_row;
    record.head_pending = head_pending;
    record.head_value = head_pending ? head_value : S::identity();
    record.carry_value = running.total.value;
    records[blockIdx.x] = record;
  }
  if (arcs_scanned) add_block_sum(arcs_scanned, read);
}

// The rows that began in an earlier block, a warp each: the row open at block b's start began
// in block first = (r + part_offset(r)) / block_items (its first arc's path position), and every
// block from first to b - 1 ended with it open; their carries and block b's head partial, in
// path order, make the whole row, written once. `skip`: pull_live_rows ran the pull instead.
// pull_warp_path's runs are its blocks here (block_items: a warp's run).
template <class S, class W>
__global__ void pull_fixup(row_ranges ranges, const pull_block_record<W>* records, unsigned blocks,
                           arc_index block_items, W* w, accumulator accum, vertex* improved,
                           unsigned long long* improved_count, value_range<W> range,
                           const unsigned* skip = nullptr) {
  wait_for_prerequisites();  // launched early (launch_fixup): the records are final from here
  if (skip && *skip) return;  // the merge path did not run
  const std::size_t b = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  if (b >= blocks || !records[b].head_pending) return;  // uniform within the warp
  const vertex r = records[b].head_row;
  const std::size_t first = std::size_t((arc_index(r) + ranges.part_offset(r)) / block_items);
  W acc = S::identity();
  for (std::size_t k = first + lane; k < b; k += 32) acc = S::add(acc, records[k].carry_value);
  for (int offset = 16; offset > 0; offset /= 2)
    acc = S::add(acc, __shfl_down_sync(0xffffffffu, acc, offset));
  if (lane == 0)
    pull_write<S>(w, r, S::add(acc, records[b].head_value), accum, improved, improved_count,
                  range);
}

}  // namespace tropic::detail
