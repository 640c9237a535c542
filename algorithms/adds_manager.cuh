// The ADDS manager thread block (MTB; Wang, Fussell, Lin, PPoPP'21, section 5): block 0 of the
// kernel. Workers never read the queue metadata: the MTB finds written items (WCC scan, 5.2),
// hands chunks of them to idle workers through per-worker assignment words (5.4), retires the
// head bucket when its completed-work counter reaches its reservation pointer (5.4), maps and
// frees pool blocks (5.3), and moves delta (5.5). The queue and its protocol: adds_queue.cuh.
//
// One sweep: the phases manager() calls in order, each ending at a block barrier (the whole
// block's in adds_manager_phases.cuh, thread 0's decisions in adds_manager_decisions.cuh):
//   A  find_finished_workers  which workers finished (warps 1 and up), beside
//   B  read_counters          the completed-work counters, then the reservation pointers (warp 0)
//   C  scan_written           advance each bucket's `written` over full WCC segments (5.2)
//      bookkeeping            queue totals, blocks to free (5.3), buckets short of a block (warp 0)
//   D1 (thread 0)             check_termination (5.4), check_watchdogs, retire_head_buckets
//                             (5.4), plan_assignments (5.4)
//   D2 write_assignments      the planned assignment words, one per thread, beside thread 0's
//                             open_or_close_buckets and move_delta (5.5) and map_blocks (5.3)
//
// The sweep is the latency of the whole queue: an item pushed now is assigned at the earliest
// in the next sweep, and on a high-diameter graph the run is (hops on the longest shortest path)
// x (sweep + chunk) long whatever delta is. So the sweep keeps global round trips off thread 0's
// serial path: the statistics live in shared memory until the end, thread 0 only plans the
// assignments while the whole block writes the words (a release store is a device-scope fence:
// a serial loop would pay one per chunk), and each phase's loads are in flight together, with
// no same-address shared atomics and no device-scope fence on the way (~1 us each against ~0.3
// us for a load on the H100). Each phase's cycles: adds_report::manager_phase_share.
//
// Memory ordering: worker words seen idle are acquired (A); completed[] is acquired before the
// reservation pointers are read (B); WCCs are acquired, then a fresh pointer (C); assignment
// words and mapped[] are released (D2). Comments at each site say which invariant they protect.
#pragma once

#include "adds_manager_decisions.cuh"

namespace tropic::detail::adds {

// The MTB: sweeps until the queue is empty (or a watchdog fires), then publishes its statistics.
template <class W>
__device__ void manager(const kernel_args<W>& k) {
  __shared__ manager_shared s;
  __shared__ manager_state m;
  const unsigned tid = threadIdx.x;
  const double hw_threads = double(k.workers) * threads_per_block;

  start(k, s, m, hw_threads);
  __syncthreads();

  // Thread 0 charges the cycles since the previous phase boundary to phase i.
  long long phase_mark = clock64();
  const auto end_phase = [&](int i) {
    if (tid == 0) {
      const long long now = clock64();
      m.phase_cycles[i] += static_cast<unsigned long long>(now - phase_mark);
      phase_mark = now;
    }
  };

  for (;;) {
    begin_sweep(s);
    __syncthreads();
    // A and B side by side: nothing in B needs A's acquires. (A worker seen idle whose CWC
    // increment B missed leaves its items counted as queued: no retire and no termination is
    // concluded from a count that lags.)
    find_finished_workers(k, s);
    read_counters(k, s);
    __syncthreads();
    end_phase(0);
    scan_written(k, s);
    __syncthreads();
    end_phase(1);
    bookkeeping(k, s, m);
    __syncthreads();
    end_phase(2);
    // D1, thread 0: what this sweep's assignment words depend on.
    sweep_totals v;
    if (tid == 0) {
      v = begin_decisions(s, m);
      check_termination(k, s, m, v);
      check_watchdogs(k, s, m, v);
      retire_head_buckets(k, s, m, v);
      plan_assignments(k, s, m, v);
    }
    __syncthreads();
    end_phase(3);
    // D2: the words, and beside them thread 0's knobs and memory map.
    write_assignments(k, s);
    if (tid == 0) {
      open_or_close_buckets(k, s, m, v, hw_threads);
      move_delta(k, m, v, hw_threads);
      map_blocks(k, s, m, v);
      if (s.stop)
        trace_append(k, m, v.now, v.progress, v.queued, v.in_flight, hw_threads,
                     adds_trace_entry::end);
    }
    __syncthreads();
    end_phase(4);
    if (s.stop) {
      wake_workers(k);
      break;
    }
  }
  publish_manager_statistics(k, m);
}

}  // namespace tropic::detail::adds
