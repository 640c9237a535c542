// The live-rows pull: a floored pull (pull_floor) over a view with long rows, visiting only the
// rows that may change. The merge path walks every row end and arc whatever the floor excludes,
// and its time is that walk (bench/results/h100-run19/sweeps/ncu-kron22-pulls.txt).
// Here the 32 lanes of a warp test 32 consecutive rows (mask, floor, an empty part) at once; a
// lane pulls its row's first pull_live_short arcs alone (loads, then gathers), a group of 8
// lanes the rest of a row with at most pull_live_group_row arcs left (four such rows at once),
// and the warp takes the longer rests in turn, each lane loading pull_live_items arcs before
// their gathers, a shuffle reduction, the row written by lane 0. A row longer than
// pull_live_long_row arcs (a hub: one warp would walk it alone) is listed for pull_long_rows.
// pull_live_choice decides on the device which of this and the merge path runs a pull: the
// merge path when nearly every arc is live, this when fewer are. Every kernel of a floored pull
// is launched; those not chosen leave at once.
#pragma once

#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <cstdint>

#include "../agents/pull_row.cuh"

namespace tropic::detail {

// What pull_live_rows lists for pull_long_rows: a long row, its ⊕ so far and its chunks not yet
// combined; and each chunk, as (record, chunk index).
template <class W>
struct pull_long_row {
  vertex row;
  unsigned pending;  // chunks not yet combined; the block that takes it to 0 writes the row
  W value;
};
struct pull_long_part {
  unsigned record, chunk;
};
// The long rows' scratch of a pull: counts, then records and chunks (pull_dispatch sizes it).
template <class W>
struct pull_long_rows_list {
  unsigned long long* rows;    // [0]: records listed, [1]: chunks listed
  pull_long_row<W>* records;
  pull_long_part* parts;
};

// One block: the share of pull_live_samples arcs, evenly spaced over the view (each one's row
// found by a binary search over the row offsets), that lie in the part of a row that may change;
// *choice = 1 (pull_live_rows) when it is at most pull_live_share, or when `forced`
// (pull_method::live_rows).
template <class S, class W>
__global__ void __launch_bounds__(tuning::block_threads)
pull_live_choice(csr_view<W> a, row_ranges ranges, const W* w, mask_view<W> mask,
                 pull_floor<W> floor, bool forced, unsigned* choice) {
  if (forced) {
    if (threadIdx.x == 0) *choice = 1;
    return;
  }
  using reduce = cub::BlockReduce<unsigned, tuning::block_threads>;
  __shared__ typename reduce::TempStorage storage;
  const W least = floor.template least<S>();
  unsigned in_part = 0, live = 0;
  static_assert(tuning::pull_live_samples % tuning::block_threads == 0,
                "whole rounds of the block");
  for (unsigned k = threadIdx.x; k < tuning::pull_live_samples; k += blockDim.x) {
    const arc_index e =
        arc_index((double(k) + 0.5) * double(a.arcs) / tuning::pull_live_samples);
    vertex lo = 0, hi = a.n;  // the row of arc e: the last r with offsets[r] <= e
    while (hi - lo > 1) {
      const vertex mid = lo + (hi - lo) / 2;
      if (a.row_offsets[mid] <= e) lo = mid;
      else hi = mid;
    }
    if (e < a.arcs && ranges.first(lo) <= e && e < ranges.last(lo)) {
      ++in_part;
      live += mask_allows(mask, lo) &&
              bound_of<S>(floor, least, floor.current(w, lo)).keeps(a.weights[e]);
    }
  }
  __syncthreads();
  const unsigned parts = reduce(storage).Sum(in_part);
  __syncthreads();
  const unsigned lives = reduce(storage).Sum(live);
  if (threadIdx.x == 0)
    *choice = double(lives) <= tuning::pull_live_share * double(parts) ? 1u : 0u;
}

// The rows that may change, a lane, an 8-lane group or a warp each by their length (above),
// grid-stride; the long rows listed in long_rows for pull_long_rows. Blocks per SM:
// tuning::pull_live_min_blocks.
template <class S, class W>
__global__ void __launch_bounds__(tuning::block_threads, tuning::pull_live_min_blocks<W>)
pull_live_rows(csr_view<W> a, row_ranges ranges, const W* u, W* w, mask_view<W> mask,
               accumulator accum, pull_floor<W> floor, vertex* improved,
               unsigned long long* improved_count, value_range<W> range,
               pull_long_rows_list<W> long_rows, unsigned long long* arcs_scanned) {
  if (!*floor.by_live_rows) return;  // the merge path's turn
  const W floor_value = floor.template value<S>();
  const W least = floor.template least<S>();
  const unsigned lane = threadIdx.x % 32;
  const std::uint64_t warps = std::uint64_t(gridDim.x) * blockDim.x / 32;
  unsigned long long read = 0;  // the arcs this thread loaded
  for (std::uint64_t base = (blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x) / 32 * 32;
       base < a.n; base += warps * 32) {
    const vertex row = vertex(base + lane);
    arc_index first = 0, last = 0;
    const bool in_view = base + lane < a.n && mask_allows(mask, row);
    const W current = in_view ? floor.current(w, row) : W();
    const bool allowed = in_view && floor.above(floor_value, current) &&
                         opens(a, bound_of<S>(floor, least, current), row);
    if (allowed) {
      first = ranges.first(row);
      last = ranges.last(row);
    }
    const arc_index length = last - first;
    W head = S::identity();  // the ⊕ of the row's arcs this lane read alone
    if (length > tuning::pull_live_long_row) {
      const arc_index chunk = S::is_min_monoid ? tuning::pull_long_chunk : length;
      const unsigned chunks = unsigned((length + chunk - 1) / chunk);
      const unsigned record = unsigned(atomicAdd(&long_rows.rows[0], 1ull));
      const unsigned part = unsigned(atomicAdd(&long_rows.rows[1], (unsigned long long)chunks));
      long_rows.records[record] = {row, chunks, S::identity()};
      for (unsigned c = 0; c < chunks; ++c) long_rows.parts[part + c] = {record, c};
    } else if (allowed) {
      // Every lane reads its row's first pull_live_short arcs alone. Where the bound ends
      // among them (nearly every row of a late pull, bench/tune/pull_bound_model.cpp), or the
      // row has no more (an empty one too: accumulator::none writes it), the lane writes the
      // row; the rest of a longer row goes to its group or the warp below, from arc first +
      // pull_live_short on. A warp then waits for one chain of dependent loads (weights,
      // columns, u) per step of 32 rows, not one per group of four and per warp-shared row
      // (bench/results/h100-run26/sweeps/ab-2-lane-first.txt).
      lane_pull<W> p{S::identity()};
      pull_arcs<S, W, unsigned(tuning::pull_live_short)>(
          a, u, first, min(last, first + tuning::pull_live_short), 1,
          bound_of<S>(floor, least, current), p);
      read += p.read;
      if (p.past_bound || length <= tuning::pull_live_short) {
        pull_write<S>(w, row, p.acc, accum, improved, improved_count, range);
        last = first;  // finished
      } else {
        head = p.acc;
        first += tuning::pull_live_short;
      }
    }
    const arc_index rest = last - first;  // a long row's: listed above
    // Rows with up to pull_live_group_row arcs left: an 8-lane group each, four rows at once
    // (the warp's g-th group takes the g-th such row of the round).
    const bool grouped = rest > 0 && rest <= tuning::pull_live_group_row;
    for (unsigned pending = __ballot_sync(~0u, grouped); pending;) {
      const unsigned group = lane / 8, member = lane % 8;
      const unsigned k = __fns(pending, 0, int(group) + 1);  // ~0u: no row for this group
      const unsigned from = k < 32 ? k : 0;
      const arc_index f = __shfl_sync(~0u, first, int(from)), l = __shfl_sync(~0u, last, int(from));
      const W limit = __shfl_sync(~0u, current, int(from));
      const row_bound<S, W> bound = bound_of<S>(floor, least, limit);
      lane_pull<W> p{S::identity()};
      if (k < 32)
        for (arc_index run = f + member; run < l && !p.past_bound;
             run += 8 * tuning::pull_live_items)
          pull_arcs<S, W, tuning::pull_live_items>(a, u, run, l, 8, bound, p);
      read += p.read;
      W acc = p.acc;
      for (int offset = 4; offset > 0; offset /= 2)
        acc = S::add(acc, __shfl_down_sync(~0u, acc, offset, 8));
      acc = S::add(acc, __shfl_sync(~0u, head, int(from)));
      if (k < 32 && member == 0)
        pull_write<S>(w, vertex(base + k), acc, accum, improved, improved_count, range);
      for (int taken = 0; taken < 4 && pending; ++taken) pending &= pending - 1;
    }
    const bool shared =
        rest > tuning::pull_live_group_row && rest <= tuning::pull_live_long_row;
    for (unsigned pending = __ballot_sync(~0u, shared); pending; pending &= pending - 1) {
      const int k = __ffs(pending) - 1;
      const arc_index f = __shfl_sync(~0u, first, k), l = __shfl_sync(~0u, last, k);
      const row_bound<S, W> bound = bound_of<S>(floor, least, __shfl_sync(~0u, current, k));
      lane_pull<W> p{S::identity()};
      for (arc_index run = f + lane; run < l && !p.past_bound;
           run += 32 * tuning::pull_live_items)
        pull_arcs<S, W, tuning::pull_live_items>(a, u, run, l, 32, bound, p);
      read += p.read;
      W acc = p.acc;
      for (int offset = 16; offset > 0; offset /= 2)
        acc = S::add(acc, __shfl_down_sync(~0u, acc, offset));
      acc = S::add(acc, __shfl_sync(~0u, head, k));
      if (lane == 0)
        pull_write<S>(w, vertex(base + unsigned(k)), acc, accum, improved, improved_count, range);
    }
  }
  if (arcs_scanned) add_block_sum(arcs_scanned, read);
}

// The long rows pull_live_rows listed (known on the device only), in chunks of pull_long_chunk
// arcs, a block per chunk, grid-stride, each thread loading pull_live_items arcs before their
// gathers. A chunk's ⊕ goes into its row's record atomically; the block that combines a row's
// last chunk writes the row, once, as every pull does (pull_write). Only min monoids split a row:
// another ⊕ in another order could change a float sum, so those keep a block per row.
template <class S, class W>
__global__ void __launch_bounds__(tuning::block_threads)
pull_long_rows(csr_view<W> a, row_ranges ranges, const W* u, W* w, accumulator accum,
               pull_floor<W> floor, pull_long_rows_list<W> long_rows, vertex* improved,
               unsigned long long* improved_count, value_range<W> range,
               unsigned long long* arcs_scanned) {
  constexpr unsigned threads = tuning::block_threads;
  using reduce = cub::BlockReduce<W, threads>;
  __shared__ typename reduce::TempStorage storage;
  const unsigned long long listed = long_rows.rows[1];  // 0 when the merge path ran the pull
  const W least = floor.template least<S>();
  unsigned long long read = 0;
  for (unsigned long long k = blockIdx.x; k < listed; k += gridDim.x) {
    const pull_long_part part = long_rows.parts[k];
    pull_long_row<W>* record = &long_rows.records[part.record];
    const vertex r = record->row;
    const arc_index row_first = ranges.first(r), row_last = ranges.last(r);
    const arc_index chunk = S::is_min_monoid ? tuning::pull_long_chunk : row_last - row_first;
    const arc_index first = row_first + arc_index(part.chunk) * chunk;
    const arc_index last = std::min(row_last, first + chunk);
    // w(r) is written only after every chunk has been combined (below), so each reads the
    // row's value before the pull. A chunk that begins past the row's bound reads nothing else.
    const row_bound<S, W> bound = bound_of<S>(floor, least, floor.current(w, r));
    lane_pull<W> p{S::identity()};
    if (bound.keeps(a.weights[first]))
      for (arc_index run = first + threadIdx.x; run < last && !p.past_bound;
           run += threads * tuning::pull_live_items)
        pull_arcs<S, W, tuning::pull_live_items>(a, u, run, last, threads, bound, p);
    read += p.read;
    const W acc = reduce(storage).Reduce(p.acc, monoid_op<S>{});
    if (threadIdx.x == 0) {
      if (acc != S::identity()) S::atomic_add(&record->value, acc);
      __threadfence();  // this chunk's ⊕ is in the record before its count goes down
      if (atomicSub(&record->pending, 1u) == 1u) {  // the row's last chunk
        __threadfence();
        const W value = *static_cast<volatile W*>(&record->value);
        pull_write<S>(w, r, value, accum, improved, improved_count, range);
      }
    }
    __syncthreads();  // the reduction's storage is free for the next chunk
  }
  if (arcs_scanned) add_block_sum(arcs_scanned, read);
}

}  // namespace tropic::detail
