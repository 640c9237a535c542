// Pull by a group of lanes per row, for views whose rows are all short (roads, grids, meshes,
// uniform random graphs): `group` consecutive lanes of a warp take one row -- CSR-vector (Bell &
// Garland, "Implementing Sparse Matrix-Vector Multiplication on Throughput-Oriented Processors",
// SC'09, section 4), with a group of one lane their CSR-scalar. The group is sized so that each
// lane reads about Items arcs (pull_group_log2: one lane on a degree-4 grid). Each lane loads its
// Items arcs before their Items gathers of u, so a warp keeps 32 independent offsets -> arcs -> u
// chains in flight, with no shared memory or barrier between them; the group ⊕-reduces by
// shuffles and its first lane writes the row. A group's time is its row's length, so one long
// row stalls its warp: the automatic choice takes this kernel only when no row is longer than
// tuning::pull_group_max_row (bench/tune/pull_short_rows.cu compares it with CSR-stream row
// blocks and cuSPARSE).
//
// The light/heavy part narrows each row to [first, last); a row the mask excludes, or that is at
// or below the floor, is skipped without reading its arcs.
#pragma once

#include <cstdint>

#include "../agents/pull_row.cuh"

namespace tropic::detail {

template <class S, class W, int Items>
__global__ void __launch_bounds__(tuning::pull_group_threads)
pull_group_per_row(csr_view<W> a, row_ranges ranges, const W* u, W* w, mask_view<W> mask,
                   accumulator accum, unsigned group_log2, vertex* improved,
                   unsigned long long* improved_count, value_range<W> range,
                   unsigned long long* arcs_scanned, pull_floor<W> floor) {
  const unsigned group = 1u << group_log2;
  const std::uint64_t thread = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t row = thread >> group_log2;
  const unsigned lane = unsigned(thread) & (group - 1);
  const bool allowed = row < a.n && mask_allows(mask, vertex(row));
  const W current = allowed ? floor.current(w, vertex(row)) : W();
  const row_bound<S, W> bound = bound_of<S>(floor, floor.template least<S>(), current);
  const bool live = allowed && floor.above(floor.template value<S>(), current) &&
                    opens(a, bound, vertex(row));
  lane_pull<W> p{S::identity()};
  if (live) {
    const arc_index first = ranges.first(vertex(row)), last = ranges.last(vertex(row));
    for (arc_index run = first + lane; run < last && !p.past_bound;
         run += arc_index(Items) * group)
      pull_arcs<S, W, Items>(a, u, run, last, group, bound, p);
  }
  // Every lane of the warp takes part (rows past n and masked rows add the identity); a group
  // is `group` consecutive lanes, so width = group keeps the shuffles inside it.
  W acc = p.acc;
  for (unsigned s = group / 2; s > 0; s /= 2)
    acc = S::add(acc, __shfl_down_sync(0xffffffffu, acc, int(s), int(group)));
  if (live && lane == 0)
    pull_write<S>(w, vertex(row), acc, accum, improved, improved_count, range);
  if (arcs_scanned) add_block_sum(arcs_scanned, p.read);
}

}  // namespace tropic::detail
