// The agent of the device-driven loops: a group of lanes pushing one row of a frontier, and the
// parameter struct of the kernels that call it (the light closure, delta-stepping's bucket loop,
// ADDS's local rounds). The grid-scope primitives built on it are in semiring/grid.cuh.
#pragma once

#include <cuda/atomic>

#include "../operators.cuh"
#include "../tropic/device_loop.hpp"

namespace tropic::detail {

// What a persistent kernel's pushes read and write: the matrix and the part of its rows pushed
// (light, heavy or all), w, the two worklists that alternate as frontiers with their three
// lengths (see grid::closure), the stamps that list an index once per step, the arc counter.
template <class W>
struct closure_args {
  csr_view<W> a;
  row_ranges ranges;
  W* w;
  vertex* lists[2];
  unsigned long long* counts[3];
  std::uint32_t* stamps;
  unsigned long long* arcs_scanned;
  closure_limits limits;
};

// A row waiting to be pushed: the value its vertex fell to, and the bounds of its row in the
// operand's part (loaded by the push that improved it, alongside its atomic).
template <class W>
struct closure_item {
  vertex v;
  W x;
  arc_index first, last;
};

// The value of a queued row's vertex: one its caller holds already, or one loaded where it lies
// (relaxed: other threads lower it with atomics meanwhile).
template <class W>
__device__ __forceinline__ W value_now(W now) {
  return now;
}
template <class W>
__device__ __forceinline__ W value_now(const W* at) {
  return cuda::atomic_ref<W, cuda::thread_scope_device>(*const_cast<W*>(at))
      .load(cuda::memory_order_relaxed);
}

// Pushes one row: w[v] = min(w[v], item.x + A(u, v)) for its arcs, Group lanes at `offset`,
// `stride` apart; hands every target whose value fell into `range` to hold(), with its row
// bounds (Meyer & Sanders' relax). `now` is the row's vertex's value or where it lies: a row
// whose vertex has fallen below item.x since it was queued is dropped (superseded: its lowerer
// holds it). Returns false when this lane dropped it at its first arc.
// w is read with plain loads while other threads lower it with atomics: a stale value costs
// work, never an answer, because whoever lowers an index holds it (hold()).
// Latency first (a local round waits for its slowest row): a vertex's value given by address
// is loaded after the row's arcs, so that both loads are in flight at once, and each target's
// row bounds beside its atomic: a local round's hop waits for two round trips, not three
// (bench/results/h200-run54/NOTES.md). `filter` adds a load of w[v] before each atomic: two
// round trips where one does, but it skips the atomics of a wide frontier whose candidates
// mostly do not improve (without it uniform-4M took 28.6 ms against 13.0:
// bench/results/h100-run6/results.csv against run5's). Its arcs go through for_each_arc, which
// loads each before the previous arc's atomic (cnr-2000 0.82x, soc-Slashdot 0.89x:
// bench/results/h200-run58/NOTES.md).
template <class S, class W, class Now, class Hold>
__device__ __forceinline__ bool push_row(const closure_args<W>& c, const closure_item<W>& item,
                                         Now now, bool filter, unsigned offset, unsigned stride,
                                         const value_range<W>& range, Hold&& hold) {
  bool live = true;
  bool first_arc = true;
  for_each_arc(c.a.columns, c.a.weights, item.first + offset, item.last, arc_index(stride),
               [&](vertex v, W weight) {
                 const W x = S::mul(item.x, weight);
                 if (value_now(now) < item.x) {
                   live = !first_arc;
                   return false;
                 }
                 first_arc = false;
                 if (!filter || x < c.w[v]) {
                   const arc_index first = c.ranges.first(v), last = c.ranges.last(v);
                   const W old = S::atomic_add(&c.w[v], x);
                   if (x < old && in_range(x, range)) hold(closure_item<W>{v, x, first, last});
                 }
                 return true;
               });
  return live;
}

}  // namespace tropic::detail
