// vxm_closure's kernel (semiring/device_loop.cuh): one closure by a persistent grid, written with
// the grid-scope primitives of semiring/grid.cuh.
#pragma once

#include "../grid.cuh"

namespace tropic::detail {

// while B ≠ ∅: w = min(w, (w .* B)' min.+ A(part)); B = improved ∩ *range (Meyer & Sanders'
// light phase), B = c.lists[0]. The stamps go on from *device_stamp, and the next unused one is
// left there: after a step's grid barrier every block has read it; without a step it is unchanged.
template <class S, class W, int Group>
__global__ void __launch_bounds__(grid::block_threads, grid::blocks_per_sm)
    push_closure(closure_args<W> c, const value_range<W>* range, std::uint32_t* device_stamp,
                 unsigned long long* statistics) {
  __shared__ grid::block_queues<W> sh;
  grid::loop_state st;
  grid::begin_loop(sh, st, *device_stamp);
  grid::closure<S, Group>(c, sh, *range, st);
  grid::tally_loop(st, statistics, c.arcs_scanned);
  if (blockIdx.x == 0 && threadIdx.x == 0) *device_stamp = st.stamp;
}

}  // namespace tropic::detail
