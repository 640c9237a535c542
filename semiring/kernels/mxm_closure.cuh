// One step of mxm_closure (tropic/mxm.hpp): C = min(C, (C(:, in) .* (C inside range)) ⊕.⊗
// A(part)), listing in `out` each column with an entry that decreased into the range, once per
// stamp. The step's frontier length is read on the device (the host launches steps back to back
// and reads a length once per round of steps), and the step zeroes the length two steps ahead:
// three lengths rotate, as in vxm_closure (semiring/grid.cuh). A group of Group lanes per listed
// column walks its row's arcs, its lanes over the k sources (short rows: roads, grids, meshes).
// Memory ordering: C is read with plain loads while other groups lower it with atomics, as
// push_row's: a column lowered after its group read it is listed in `out` by whoever lowered it,
// and pushed again with its final value in the next step, so the fixed point is exact.
#pragma once

#include <cstddef>

#include "mxm_push.cuh"

namespace tropic::detail {

template <class S, class W, int Group, int PerLane>
__global__ void mxm_closure_step(csr_view<W> a, row_ranges ranges, W* c, std::size_t k,
                                 const vertex* in, const unsigned long long* in_count,
                                 vertex* out, unsigned long long* out_count,
                                 unsigned long long* zero_count, value_range<W> range,
                                 std::uint32_t* stamps, std::uint32_t stamp,
                                 unsigned long long* arcs_scanned) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *zero_count = 0;  // read by no one in this step
  const unsigned long long count = *in_count;
  const unsigned lane = threadIdx.x % Group;
  const std::size_t groups = std::size_t(gridDim.x) * blockDim.x / Group;
  unsigned long long read = 0;
  for (std::size_t j = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / Group; j < count;
       j += groups) {
    const vertex u = in[j];
    const arc_index first = ranges.first(u), last = ranges.last(u);
    if (lane == 0) read += last - first;
    const std::size_t base = std::size_t(u) * k;
    for (std::size_t s0 = 0; s0 < k; s0 += std::size_t(Group) * PerLane) {
      W x[PerLane];
      bool on[PerLane];
      bool any = false;
#pragma unroll
      for (int r = 0; r < PerLane; ++r) {
        const std::size_t s = s0 + lane + std::size_t(r) * Group;
        x[r] = s < k ? c[base + s] : S::identity();
        on[r] = s < k && in_range(x[r], range);
        any = any || on[r];
      }
      if (!any) continue;  // this lane's sources have nothing in the range at u
      for_each_arc(a.columns, a.weights, first, last, arc_index(1), [&](vertex v, W weight) {
        const std::size_t target = std::size_t(v) * k + s0 + lane;
#pragma unroll
        for (int r = 0; r < PerLane; ++r)
          if (on[r])
            mxm_combine<S>(c, target + std::size_t(r) * Group, v, S::mul(x[r], weight), stamps,
                           stamp, out, out_count, range);
        return true;
      });
    }
  }
  if (arcs_scanned) add_block_sum(arcs_scanned, read);
}

}  // namespace tropic::detail
