// Push, a group of Group lanes per frontier row (Group 32: a warp, the binned alternative for
// even degrees; 4 or 8 for the short rows of road-like graphs), grid-stride, so the grid may be
// sized for the device rather than the frontier: w(v) = w(v) ⊕ (x_u ⊗ A(u, v)) for each arc
// u -> v of u's part the mask allows, listing each v that improved into `range` once per stamp.
#pragma once

#include <cstddef>

#include "../detail/args.cuh"

namespace tropic::detail {

template <class S, class W, int Group>
__global__ void push_group_per_row(frontier_ref<W> frontier, csr_view<W> a, row_ranges ranges,
                                   W* w, mask_view<W> mask, std::uint32_t* stamps,
                                   std::uint32_t stamp, vertex* improved,
                                   unsigned long long* improved_count, value_range<W> range,
                                   unsigned long long* arcs_scanned) {
  const std::size_t groups = std::size_t(gridDim.x) * blockDim.x / Group;
  const unsigned lane = threadIdx.x % Group;
  unsigned long long read = 0;
  for (std::size_t k = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / Group;
       k < frontier.size; k += groups) {
    const vertex u = frontier.indices[k];
    const W xu = frontier.value(k, u);
    const arc_index first = ranges.first(u), last = ranges.last(u);
    if (lane == 0 && last > first) read += last - first;
    for (arc_index arc = first + lane; arc < last; arc += Group) {
      const vertex v = a.columns[arc];
      if (!mask_allows(mask, v)) continue;
      push_combine<S>(w, v, S::mul(xu, a.weights[arc]), stamps, stamp, improved, improved_count,
                      range);
    }
  }
  if (arcs_scanned) add_block_sum(arcs_scanned, read);
}

}  // namespace tropic::detail
