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
  // Where each light arc's target's light row lies (light_heavy_split::light_successors), or
  // null: the local rounds then load a target's row bounds beside its atomic, not its arcs.
  const std::uint32_t* successors;
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
// bench/results/h100-run6/results.csv against run5's).
template <class S, class W, class Now, class Hold>
__device__ __forceinline__ bool push_row(const closure_args<W>& c, const closure_item<W>& item,
                                         Now now, bool filter, unsigned offset, unsigned stride,
                                         const value_range<W>& range, Hold&& hold) {
  for (arc_index arc = item.first + offset; arc < item.last; arc += stride) {
    const vertex v = c.a.columns[arc];
    const W x = S::mul(item.x, c.a.weights[arc]);
    if (value_now(now) < item.x) return arc != item.first + offset;
    if (filter && !(x < c.w[v])) continue;
    const arc_index first = c.ranges.first(v), last = c.ranges.last(v);
    const W old = S::atomic_add(&c.w[v], x);
    if (x < old && in_range(x, range)) hold(closure_item<W>{v, x, first, last});
  }
  return true;
}

// Arcs a queued row carries: its first arcs, loaded beside the atomic that queued it.
inline constexpr unsigned carried_arcs = 4;

// A row in a block's queue for the local rounds: its vertex, the value it fell to and the
// bounds of its row, and, when the matrix has successor words, its first arcs with theirs, so
// that its push starts with its atomics (bench/results/h200-run55/NOTES.md).
template <class W>
struct queued_row {
  vertex v;
  unsigned carried;  // arcs in the arrays below: first, first + 1, ...
  W x;
  arc_index first, last;
  vertex columns[carried_arcs];
  W weights[carried_arcs];
  std::uint32_t successors[carried_arcs];
};

// A row from a frontier's push (push_row's closure_item), queued with no arcs carried.
template <class W>
__device__ __forceinline__ queued_row<W> uncarried(const closure_item<W>& item) {
  queued_row<W> row;
  row.v = item.v;
  row.carried = 0;
  row.x = item.x;
  row.first = item.first;
  row.last = item.last;
  return row;
}

// w[v] = min(w[v], x) for a light arc to v whose successor word is `next`; hands v to hold()
// when x fell into `range`, with as many of v's arcs as the queue carries. Their loads go out
// beside the atomic, so a local round's hop waits for one round trip, not two: speculative, and
// dropped when the atomic does not improve. The loads come before the atomic in program order:
// two builds that issued them after it were 13-17% slower on NY and the grids, most likely
// because they waited for it (bench/results/h200-run55/NOTES.md).
template <class S, class W, class Hold>
__device__ __forceinline__ void relax_carrying(const closure_args<W>& c, vertex v, W x,
                                               std::uint32_t next, const value_range<W>& range,
                                               Hold&& hold) {
  queued_row<W> row;
  row.v = v;
  row.x = x;
  row.carried = 0;
  const bool held = in_range(x, range);
  const unsigned length = next & successor_long;
  row.first = next >> successor_length_bits;
  row.last = length < successor_long ? row.first + length : c.ranges.last(v);
  if (held && length < successor_long) row.carried = min(length, carried_arcs);
#pragma unroll
  for (unsigned j = 0; j < carried_arcs; ++j)
    if (j < row.carried) {
      row.columns[j] = c.a.columns[row.first + j];
      row.weights[j] = c.a.weights[row.first + j];
      row.successors[j] = c.successors[row.first + j];
    }
  const W old = S::atomic_add(&c.w[v], x);
  if (x < old && held) hold(row);
}

// Pushes a queued row, Group lanes at `lane`: its carried arcs from the queue, the rest from the
// matrix. Without successor words nothing is carried and the row goes to push_row, whose loop
// is shorter: a single path's hop took 0.86-0.88 µs against 1.08-1.09 through the loop below
// (bench/results/h200-run56/NOTES.md).
// A row of no carried arcs whose vertex has fallen below row.x since it was queued is dropped
// at its first arc (superseded, as in push_row). One that carries arcs is pushed without
// waiting for its vertex's value, which would cost the round trip the carried arcs save; the
// value, loaded beside its atomics, only keeps a superseded row from holding what it improved:
// the row's lower value, pushed by whoever lowered it, improves those targets again and holds
// them (without this a grid's rows pushed rose from 3.7 to 5.8 a vertex). A plain load: a stale
// value costs only work (bench/results/h200-run55/NOTES.md). Returns false when this lane dropped
// the row.
template <class S, int Group, class W, class Hold>
__device__ __forceinline__ bool push_queued(const closure_args<W>& c, const queued_row<W>& row,
                                            unsigned lane, const value_range<W>& range,
                                            Hold&& hold) {
  // The entry's scalars once, in registers: hold() writes the block's other queue, which the
  // compiler cannot tell from this entry's, and would load them again after every hold.
  const vertex u = row.v;
  const unsigned carried = row.carried;
  const W x = row.x;
  const arc_index first = row.first, length = row.last - row.first;
  if (!c.successors)
    return push_row<S>(c, closure_item<W>{u, x, first, first + length},
                       static_cast<const W*>(c.w + u), false, lane, Group, range,
                       [&](const closure_item<W>& item) { hold(uncarried(item)); });
  const W now = carried ? c.w[u] : x;
  const auto hold_fresh = [&](const queued_row<W>& next) {
    if (!(now < x)) hold(next);
  };
  for (arc_index k = lane; k < length; k += Group) {
    vertex v;
    W weight;
    std::uint32_t next;
    if (k < carried) {
      v = row.columns[k];
      weight = row.weights[k];
      next = row.successors[k];
    } else {
      const arc_index arc = first + k;
      v = c.a.columns[arc];
      weight = c.a.weights[arc];
      next = c.successors[arc];
      if (carried == 0 && value_now(static_cast<const W*>(c.w + u)) < x) return k != lane;
    }
    relax_carrying<S>(c, v, S::mul(x, weight), next, range, hold_fresh);
  }
  return true;
}

}  // namespace tropic::detail
