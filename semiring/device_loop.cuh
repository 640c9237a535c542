// The dispatch of the device-driven loops' operators (tropic/device_loop.hpp): checks the
// limits, builds the operand, picks the lanes per row and launches the persistent kernel.
// Layers: agents/push_row.cuh (a group pushing one row) -> grid.cuh (grid-scope
// primitives: select, push_list, closure) -> kernels/push_closure.cuh -> this file.
#pragma once

#include "grid.cuh"
#include "kernels/push_closure.cuh"
#include "tropic/device_loop.hpp"

namespace tropic {

template <class S, class W>
void vxm_closure(dense_vector<W>& w, S, device_worklist& in, const matrix_operand<W>& a,
                 gpu_context& ctx, device_worklist& spare, const value_range<W>* range,
                 closure_limits limits) {
  static_assert(S::is_min_monoid, "the closure's fixed point needs an idempotent (min) monoid");
  if (limits.queue_items < 1 || limits.queue_items > tuning::closure_queue_items)
    throw error(error_code::invalid_value, "vxm_closure: queue_items must be 1.." +
                                               std::to_string(tuning::closure_queue_items) +
                                               ", got " + std::to_string(limits.queue_items));
  const unsigned g = limits.group_lanes;
  if (g != 0 && g != 1 && g != 2 && g != 4 && g != 8 && g != 32)
    throw error(error_code::invalid_value,
                "vxm_closure: group_lanes must be 0 (automatic), 1, 2, 4, 8 or 32, got " +
                    std::to_string(g));
  const grid::closure_args<W> c = grid::closure_args_of(a, w, in, spare, ctx, limits);
  const double avg = c.a.n ? double(c.a.arcs) / c.a.n : 0;
  std::uint32_t* device_stamp = ctx.device_stamp();
  unsigned long long* statistics = ctx.loop_statistics();
  grid::with_lanes(grid::lanes_per_row(g, avg), [&](auto lanes) {
    constexpr int G = decltype(lanes)::value;
    grid::launch_cooperative(detail::push_closure<S, W, G>, limits.blocks, ctx.stream(), c, range,
                             device_stamp, statistics);
  });
}

}  // namespace tropic

#define TROPIC_INSTANTIATE_DEVICE_LOOP(W)                                                      \
  template void vxm_closure<min_plus<W>, W>(                                                   \
      dense_vector<W>&, min_plus<W>, device_worklist&, const matrix_operand<W>&, gpu_context&, \
      device_worklist&, const value_range<W>*, closure_limits);
