// The ADDS manager's sequential decisions: thread 0 of the MTB alone, on shared memory and a
// few global words per sweep. Phase D1 (termination, watchdogs, the head, the assignment plan)
// decides what this sweep's assignment words say; phase D2's knobs (section 5.5) and memory map
// (section 5.3) run beside the other threads' stores of the words (adds_manager.cuh).
#pragma once

#include "adds_manager_phases.cuh"

namespace tropic::detail::adds {

// ceil(a / b), b > 0. Thread 0's plan divides on every sweep: with 32-bit operands (the common
// case) a short instruction sequence, where a 64-bit division is a long serial one.
__device__ __forceinline__ unsigned long long ceil_div(unsigned long long a, unsigned long long b) {
  if (a < (1ull << 31) && b < (1ull << 31)) return (unsigned(a) + unsigned(b) - 1) / unsigned(b);
  return (a + b - 1) / b;
}

// ---------------------------------------------------------------------------------------------
// Phase D1, thread 0: termination, watchdogs, the head and the assignment plan -- what the words
// of this sweep depend on. The rest of thread 0's work (section 5.5's knobs, the memory map)
// runs in phase D2, beside the other threads' stores of the words.

__device__ __forceinline__ sweep_totals begin_decisions(const manager_shared& s, manager_state& m) {
  sweep_totals v;
  v.now = global_ns();
  v.queued = s.queued;
  v.progress = s.progress;
  ++m.sweeps;
  return v;
}

// Termination (section 5.4): two consecutive sweeps with nothing outstanding.
template <class W>
__device__ __forceinline__ void check_termination(const kernel_args<W>& k, manager_shared& s,
                                                  manager_state& m, const sweep_totals& v) {
  if (s.busy_n == 0 && v.queued == 0) {
    if (++m.idle_sweeps >= 2) {
      device_atomic<int>(k.q.ctl->status).store(status_done, memory_order_relaxed);
      s.stop = 1;
    }
  } else {
    m.idle_sweeps = 0;
  }
}

// Watchdogs: a bound on the whole run and on time without a completed item; the host's abort
// flag, and the heartbeat it reads, every poll_sweeps sweeps.
template <class W>
__device__ __forceinline__ void check_watchdogs(const kernel_args<W>& k, manager_shared& s,
                                                manager_state& m, const sweep_totals& v) {
  control& ctl = *k.q.ctl;
  if (v.progress != m.last_progress_value) {
    m.last_progress_value = v.progress;
    m.last_progress_ns = v.now;
  }
  if (m.sweeps % poll_sweeps == 0) {  // heartbeat for the host (see control::live_sweeps)
    device_atomic<unsigned long long>(ctl.live_sweeps).store(m.sweeps, memory_order_relaxed);
    device_atomic<unsigned long long>(ctl.live_progress).store(v.progress, memory_order_relaxed);
    device_atomic<unsigned long long>(ctl.live_queued).store(v.queued, memory_order_relaxed);
    device_atomic<unsigned>(ctl.live_busy).store(s.busy_n, memory_order_relaxed);
  }
  if (!s.stop) {
    int why = status_running;
    if (v.now - m.start_ns > k.watchdog_ns)
      why = status_watchdog;
    else if (s.positions_out)
      why = status_positions;  // no assignment word could name them
    else if (v.now - m.last_progress_ns > k.stall_ns)
      why = status_stalled;
    else if (m.sweeps % poll_sweeps == 0 &&
             cuda::atomic_ref<int, cuda::thread_scope_system>(*k.host_abort)
                     .load(memory_order_relaxed) != 0)
      why = status_host_abort;
    if (why != status_running) {
      device_atomic<int>(ctl.status).store(why, memory_order_relaxed);
      s.stop = 1;
    }
  }
}

// Retire empty head buckets (section 5.4): all reserved items of the head completed. Never
// while nothing at all is queued: then we are terminating, and the base would run.
template <class W>
__device__ __forceinline__ void retire_head_buckets(const kernel_args<W>& k,
                                                    const manager_shared& s, manager_state& m,
                                                    const sweep_totals& v) {
  control& ctl = *k.q.ctl;
  for (int r = 0; r < num_buckets && v.queued > 0 && s.cwc[m.head] == s.resv[m.head]; ++r) {
    m.head = (m.head + 1) & (num_buckets - 1);
    m.head_base += m.delta;
    ++m.retires;
    ++m.switches;
  }
  device_atomic<unsigned>(ctl.head_slot).store(m.head, memory_order_relaxed);
  device_atomic<double>(ctl.head_base).store(m.head_base, memory_order_relaxed);
}

// The assignment plan (section 5.4): open buckets in priority order, chunks sized to spread the
// open work over the idle workers; phase D2 writes the words.
template <class W>
__device__ __forceinline__ void plan_assignments(const kernel_args<W>& k, manager_shared& s,
                                                 manager_state& m, sweep_totals& v) {
  const adds_tuning& t = k.tuning;
  v.idle = s.stop ? 0 : s.idle_n;
  unsigned long long open_avail = 0;
  for (int o = 0; o < m.open; ++o) {
    const unsigned b = (m.head + o) & (num_buckets - 1);
    open_avail += s.written[b] - s.read[b];
  }
  unsigned long long chunk = v.idle ? ceil_div(open_avail, v.idle) : 0;
  chunk = min(max(chunk, (unsigned long long)t.min_chunk), (unsigned long long)t.max_chunk);
  unsigned plans = 0;
  v.in_flight = s.in_flight;
  for (int o = 0; o < m.open && v.assigned < v.idle; ++o) {
    const unsigned b = (m.head + o) & (num_buckets - 1);
    const unsigned long long avail = s.written[b] - s.read[b];
    if (avail == 0) continue;
    const unsigned chunks = static_cast<unsigned>(
        min(ceil_div(avail, chunk), (unsigned long long)(v.idle - v.assigned)));
    const unsigned long long items = min(avail, chunks * chunk);
    s.plan_bucket[plans] = b;
    s.plan_first[plans] = v.assigned;
    s.plan_start[plans] = s.read[b];
    s.plan_items[plans] = items;
    ++plans;
    v.assigned += chunks;
    s.read[b] += items;
    v.in_flight += items;
  }
  s.plan_first[plans] = v.assigned;
  s.plan_n = plans;
  s.plan_chunk = static_cast<unsigned>(chunk);
  m.assignments += v.assigned;
  if (v.in_flight > m.max_in_flight) m.max_in_flight = v.in_flight;
}

// ---------------------------------------------------------------------------------------------
// Phase D2, thread 0.

// The fast knob (section 5.5): how many head buckets are open. Utilisation = arcs in flight
// (items x average degree) against the hardware threads of the workers. Work is "held back"
// when workers stay idle while queued items wait outside the open buckets: only then do more
// open buckets, or a wider delta, give the hardware more to do. When every queued item is
// already assigned, the frontier itself is small (a road network's wavefront) and widening
// buckets would only trade order for rework at the same parallelism. Also the window's
// statistics for the slow knob.
template <class W>
__device__ __forceinline__ void open_or_close_buckets(const kernel_args<W>& k,
                                                      const manager_shared& s, manager_state& m,
                                                      const sweep_totals& v, double hw_threads) {
  const adds_tuning& t = k.tuning;
  const double util = double(v.in_flight) * k.avg_degree;
  const double low = t.util_low * hw_threads, high = t.util_high * hw_threads;
  // Buckets past the open ones with unassigned items (the plan changed s.read only for the
  // open ones): bit o of `waiting` is bucket head + o.
  const unsigned waiting = __funnelshift_r(s.waiting_mask, s.waiting_mask, m.head);
  const bool held_back = v.idle > v.assigned && m.open < num_buckets && (waiting >> m.open) != 0;
  const bool starved = t.raise_only_when_held_back ? held_back : v.idle > v.assigned;
  if (starved && util < low && m.open < t.max_open_buckets)
    ++m.open;
  else if (util > high && m.open > 1)
    --m.open;
  if (v.queued > 0) {
    m.util_sum += util;
    ++m.util_n;
    m.held_n += starved;
    const unsigned tail = (m.head + num_buckets - 1) & (num_buckets - 1);
    if (v.queued >= 4ull * t.max_chunk &&
        double(s.resv[tail] - s.cwc[tail]) >= t.clip_share * double(v.queued))
      ++m.clip_n;
  }
}

// The slow knob, delta, after settle_switches head switches (section 5.5): clipping sets a
// floor and raises it; otherwise low utilisation raises it (only when starved, that is, held
// back by the buckets: see adds_tuning), high utilisation lowers it.
template <class W>
__device__ __forceinline__ void move_delta(const kernel_args<W>& k, manager_state& m,
                                           const sweep_totals& v, double hw_threads) {
  const adds_tuning& t = k.tuning;
  if (!(m.switches >= t.settle_switches && m.util_n > 0)) return;
  const double low = t.util_low * hw_threads, high = t.util_high * hw_threads;
  const double avg = m.util_sum / m.util_n;
  double nd = m.delta;
  int decision = adds_trace_entry::keep;
  if (k.dynamic_delta) {
    if (2 * m.clip_n > m.util_n) {
      // Clipping: the tail holds most of the queue. Delta below here loses order.
      m.delta_floor = max(m.delta_floor, 2 * m.delta);
      nd = 2 * m.delta;
      decision = adds_trace_entry::clip_raise;
    } else if (avg < low && (!t.raise_only_when_held_back || 2 * m.held_n > m.util_n) &&
               2 * m.delta <= m.raise_limit) {
      // Bounded (adds_tuning::util_raise_ratio): a small frontier never fills the GPU, so this
      // rule alone would double delta all the way to the ceiling.
      nd = 2 * m.delta;
      decision = adds_trace_entry::raise;
    } else if (avg > high) {
      nd = max(m.delta / 2, m.delta_floor);
      decision = adds_trace_entry::lower;
    }
    nd = min(nd, m.delta_ceiling);
  }
  if (nd != m.delta) {
    m.delta = nd;
    ++m.delta_changes;
    m.delta_min_seen = min(m.delta_min_seen, nd);
    m.delta_max_seen = max(m.delta_max_seen, nd);
    device_atomic<double>(k.q.ctl->delta).store(nd, memory_order_relaxed);
  } else {
    decision = adds_trace_entry::keep;  // a change the ceiling or the floor absorbed
  }
  trace_append(k, m, v.now, v.progress, v.queued, v.in_flight, hw_threads, decision);
  m.switches = 0;
  m.util_sum = 0;
  m.util_n = m.clip_n = m.held_n = 0;
}

// Memory (section 5.3): one spare block mapped ahead of every reservation pointer (the
// bookkeeping freed the blocks behind the oldest unfinished item and marked the buckets short of
// one). Writers waiting on blocks that only finishing work could free, while nothing finishes,
// stop the run (status_pool_exhausted; the host retries with a larger pool).
template <class W>
__device__ __forceinline__ void map_blocks(const kernel_args<W>& k, manager_shared& s,
                                           manager_state& m, const sweep_totals& v) {
  const queue_ref& q = k.q;
  bool starving = false;
  for (unsigned need = s.need_map; need; need &= need - 1) {
    const int b = __ffs(need) - 1;
    const unsigned long long want = s.resv[b] + block_items;
    bool grew = false;
    while (s.mapped[b] < want) {
      if (m.free_top == 0) {
        if (s.mapped[b] <= s.resv[b]) starving = true;  // a writer is waiting on this
        break;
      }
      const unsigned blk = k.free_blocks[--m.free_top];
      for (unsigned g = 0; g < segments_per_block; ++g)
        q.wcc[static_cast<std::size_t>(blk) * segments_per_block + g] = 0;
      q.table[static_cast<std::size_t>(b) * q.table_size +
              (s.mapped[b] / block_items) % q.table_size] = blk;
      s.mapped[b] += block_items;
      grew = true;
    }
    // Release: the table entries and zeroed WCCs above before writers use the positions.
    if (grew)
      device_atomic<unsigned long long>(q.mapped[b]).store(s.mapped[b], memory_order_release);
  }
  if (!starving) {
    m.starving_since = 0;
  } else if (m.starving_since == 0) {
    m.starving_since = v.now;
  } else if (v.now - m.starving_since > k.stall_ns / 4 && !s.stop) {
    device_atomic<int>(q.ctl->status).store(status_pool_exhausted, memory_order_relaxed);
    s.stop = 1;
  }
}

}  // namespace tropic::detail::adds
