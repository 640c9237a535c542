// The ADDS ordered work queue (Wang, Fussell, Lin, PPoPP'21, section 5) as a device "ref" object:
// a trivially copyable view of device arrays that the manager thread block (MTB) and the worker
// thread blocks (WTBs) of algorithms/adds.cu share.
//
// Layout (section 5.3). 32 buckets, each a FIFO addressed by a 64-bit position that only grows
// (positions are never reset, so a writer holding a stale idea of which tier a slot stands for
// never corrupts anything: its item just lands in a bucket of another priority). Storage comes
// in blocks of `block_items` vertex ids from one pool; bucket b maps position p to
//   pool[table[b][(p / block_items) % table_size] * block_items + p % block_items].
// The MTB alone maps blocks (ahead of the reservation pointer) and frees them (behind the oldest
// item still being worked on); it keeps its free list private.
//
// SRMW protocol (section 5.2), per bucket b:
//   resv[b]       reservation pointer: writers fetch_add it (one RMW per group of lanes of a warp
//                 pushing to the same bucket).
//   mapped[b]     positions < mapped[b] have storage. MTB: table + WCC reset, then release-store;
//                 writers acquire-load it before touching the slot.
//   wcc[...]      write-completed counter of each `segment_items` segment, indexed by the
//                 physical pool block (a segment belongs to one block for the block's lifetime),
//                 reset to 0 by the MTB when the block is mapped. A writer stores its item, then
//                 fetch_add(1, release) on the segment's WCC.
//   completed[b]  completed-work counter (CWC, section 5.4): a WTB adds the size of its finished
//                 assignment with release, after every push of the assignment's rounds
//                 (its local rounds included).
// Assignment flags (AF, one 64-bit word per WTB): the MTB release-stores (assigned, bucket,
// count, start); the WTB acquire-loads it, works (its local rounds, adds_tuning::local_rounds,
// included), adds to completed[], then release-stores idle.
#pragma once

#include <cuda/atomic>

#include <cstdint>
#include <vector>

#include "tropic/device_matrix.hpp"
#include "tropic/sssp.hpp"

namespace tropic::detail {

namespace adds {

// One home for the tuning constants.
inline constexpr int num_buckets = 32;                  // section 5.4: a circular array of 32
// Slots wrap with `& (num_buckets - 1)`, and the MTB keeps per-bucket flags in one 32-bit mask.
static_assert(num_buckets <= 32 && (num_buckets & (num_buckets - 1)) == 0,
              "num_buckets: a power of two that fits a 32-bit mask");
inline constexpr unsigned block_items = 4096;            // pool allocation unit (paper: 64K words)
inline constexpr unsigned segment_items = 64;            // N of section 5.2
inline constexpr unsigned segments_per_block = block_items / segment_items;
inline constexpr int threads_per_block = 256;            // MTB and WTBs alike
inline constexpr int min_blocks_per_sm = 4;              // caps registers at 64: 4 x 256 per SM
// MTB sweeps between two polls of the host-abort flag, and between two heartbeats (control).
inline constexpr unsigned poll_sweeps = 256;
// The section 5.5 knobs (open buckets, utilisation limits, settling, clipping, delta bounds,
// chunk sizes) are run-time values: tropic::detail::adds_tuning below.

// Assignment-flag states.
inline constexpr unsigned af_idle = 0, af_assigned = 1, af_exit = 2;

// Kernel outcome, in control::status.
inline constexpr int status_running = 0, status_done = 1, status_pool_exhausted = 2,
                     status_watchdog = 3, status_stalled = 4, status_host_abort = 5,
                     status_positions = 6;

// Global control block: MTB-written scalars that WTBs read (relaxed: a stale head or delta only
// misplaces an item into a bucket of another priority, which costs order, never correctness),
// the status word, and counters gathered at the end.
struct control {
  int status;
  unsigned head_slot;
  double head_base;  // lower distance bound of the head bucket
  double delta;
  unsigned long long vertices;     // items whose row was scanned
  unsigned long long arcs;         // arcs scanned
  unsigned long long skipped;      // items dropped as already processed at their distance
  unsigned long long assignments;  // chunks handed to WTBs
  unsigned long long retires;      // head-bucket switches
  unsigned long long sweeps;       // MTB loop iterations
  unsigned long long delta_changes;
  unsigned long long max_in_flight;  // most items assigned at once
  double delta_min_seen, delta_max_seen;
  unsigned long long trace_n;  // trace entries written (the ring keeps the last trace_capacity)
  // Heartbeat, readable by the host while the kernel still runs (the statistics above are only
  // published at the end): the MTB stores these (relaxed) every poll_sweeps sweeps, and every
  // worker block counts itself out when it leaves its loop. When a run ignores the host timeout, a
  // snapshot of them says which side hangs: a manager stuck inside a sweep (live_sweeps frozen,
  // status running), a live manager (live_sweeps advancing), or a manager that stopped while
  // some worker never came back (status set, workers_exited < workers).
  unsigned long long live_sweeps, live_progress, live_queued;
  unsigned live_busy;
  unsigned workers_exited;
  // Where the time goes (SM clock cycles, clock64): the MTB's sweeps by phase (A+B: worker flags,
  // completed counters and reservation pointers; C: WCC scan; the per-bucket bookkeeping; D1:
  // thread 0's decisions; D2: assignment flags), and
  // the WTBs' cycles in their loop and, of those, waiting for an assignment.
  unsigned long long manager_phase_cycles[5];
  unsigned long long worker_cycles, worker_wait_cycles;
};

struct queue_ref {
  unsigned long long* resv;       // [num_buckets]
  unsigned long long* mapped;     // [num_buckets]
  unsigned long long* completed;  // [num_buckets]
  unsigned* table;                // [num_buckets * table_size] physical block ids
  unsigned table_size;            // = pool_blocks: a bucket can never hold more blocks
  vertex* pool;                   // [pool_blocks * block_items]
  unsigned* wcc;                  // [pool_blocks * segments_per_block]
  unsigned pool_blocks;
  control* ctl;

  __device__ unsigned block_of(int b, unsigned long long p) const {
    return table[static_cast<std::size_t>(b) * table_size + (p / block_items) % table_size];
  }
};

// Per-WTB assignment flag (AF): one 64-bit word holds the state and the assignment, so that
// one release store publishes an assignment and one acquire load reads it (no separate field
// stores for the MTB's fence to wait on, no second round trip for the worker). Bits 0-1 state,
// 2-6 bucket, 7-23 item count, 24-63 start position. The MTB stops with status_positions
// before a bucket's positions reach af_start_limit (2^40 items pushed into one bucket).
inline constexpr unsigned long long af_start_limit = 1ull << 40;
inline constexpr unsigned af_count_limit = 1u << 17;  // items per assignment: adds_tuning::max_chunk
static_assert(num_buckets <= 32, "the assignment word has 5 bits for the bucket");

__host__ __device__ constexpr unsigned long long af_pack(unsigned state, unsigned bucket,
                                                         unsigned count, unsigned long long start) {
  return state | static_cast<unsigned long long>(bucket) << 2 |
         static_cast<unsigned long long>(count) << 7 | start << 24;
}
__host__ __device__ constexpr unsigned af_state_of(unsigned long long a) { return unsigned(a & 3); }
__host__ __device__ constexpr unsigned af_bucket_of(unsigned long long a) {
  return unsigned(a >> 2) & 31;
}
__host__ __device__ constexpr unsigned af_count_of(unsigned long long a) {
  return unsigned(a >> 7) & (af_count_limit - 1);
}
__host__ __device__ constexpr unsigned long long af_start_of(unsigned long long a) {
  return a >> 24;
}

}  // namespace adds

// Section 5.5's dynamic-delta rules as numbers. The paper fixes the shape of each rule and one
// number (clipping at 65%); the rest are our defaults, exposed so that one GPU run can compare a
// few settings (test/test_adds.cu, "adds: tuning sweep"). adds_sssp_configured rejects values
// outside the ranges noted here.
struct adds_tuning {
  // delta0 = (options.delta, or choose_delta's Near-Far heuristic, section 4.3) x this; > 0.
  double initial_delta_factor = 1;
  // Utilisation = arcs in flight (items assigned and unfinished x average degree) over the
  // hardware threads of the WTBs; delta and the open buckets aim between these two shares
  // (util_low < util_high).
  double util_low = 0.5, util_high = 2.0;
  int settle_switches = 8;               // head-bucket switches between two delta decisions; >= 1
  // The fast knob's upper end; 1..num_buckets. Every open bucket is handed out as soon as a
  // worker is idle, so the unordered window is max_open_buckets x delta wide. On a
  // high-diameter graph idle workers and items past the open buckets coexist at nearly every
  // sweep (the frontier never reaches util_low), so `open` climbs to this bound within a few
  // sweeps and never comes down (only util_high lowers it): at 16, a 16 x delta window that
  // cost 11x (grid 2048^2) and 24-38x (USA-road-NY) the rows Dijkstra scans in run 5, whatever
  // the initial delta. 2 keeps the paper's reason for several buckets (the next bucket starts
  // while the head's last items finish) at a 2 x delta window.
  int max_open_buckets = 2;
  double clip_share = 0.65;              // tail bucket's share of queued items that is clipping
  double delta_floor_ratio = 1.0 / 64;   // delta never goes below delta0 x this; (0, 1]
  double delta_ceiling_ratio = 1048576;  // ... nor above delta0 x this; >= 1
  // The low-utilisation raise never takes delta past delta0 x this (>= 1; clipping may raise it,
  // up to the ceiling; 1: it only undoes lowering). With few open buckets, work is "held back"
  // at most sweeps of a road graph, and an unbounded raise would double delta every
  // settle_switches head switches. On the H100 (test "adds: tuning sweep", 2026-11-23, median
  // of 3 after a warm-up, two sources each): 1 against 4 took grid 2048^2 82 / 65 ms against
  // 110 / 98 (work 1.8 against 10-11x Dijkstra's rows), USA-road-NY 24.2 / 18.1 ms against
  // 21.5 / 16.0 (work 1.7 against 2.9-4.0), kron:20 7.7 against 7.3 ms; run 5's knobs (16 open,
  // unbounded) 115 / 88, 29.1 / 19.7, 7.8 ms.
  double util_raise_ratio = 1;
  unsigned min_chunk = 32;               // items per assignment, at least; >= 1
  unsigned max_chunk = 1024;  // ... and at most (4 rounds of a WTB); >= min_chunk, < 131072
  // Low utilisation raises delta (and opens buckets) only in sweeps where idle WTBs coexist with
  // queued items that the open buckets keep from them: only then can a wider bucket hand out more
  // work. With false, any low-utilisation window raises delta (the paper's rule read literally),
  // which on high-diameter graphs, whose frontier is small at every delta, drifts delta upward
  // and turns the queue into Bellman-Ford (issue 6: 10-27x the vertex work of Dijkstra).
  bool raise_only_when_held_back = true;
  // Local rounds (ours, not the paper's): after its chunk's rounds, a WTB relaxes the rows it
  // lowered into the chunk's own bucket itself, and the rows those lower, up to this many rounds
  // of a group of lanes per row (adds.cu, local_rounds()), instead of leaving each hop to the
  // MTB's next assignments: a thin wavefront's hop (roads, meshes, web crawls) otherwise costs
  // about two MTB sweeps. 0: the paper's scheme; at most 65536 (a block in local rounds holds
  // its chunk's completion back, and with it the stall watchdog's progress). Measured in
  // adds.cu, above worker().
  unsigned local_rounds = 32;
  // ... while a round holds no more rows than this many passes of the block's lane groups take
  // (256 / lanes rows a pass); 1..65536.
  unsigned local_passes = 4;
};

// One line of the optional delta trace (issue 6; section 5.5, and the parallelism-over-time
// plots of the paper's figures 11-15): written by the MTB when it starts, at every delta decision
// (every settle_switches head switches) and at the end.
struct adds_trace_entry {
  // Values of `decision`.
  static constexpr int keep = 0;        // delta unchanged (also the first entry)
  static constexpr int raise = 1;       // doubled: low utilisation
  static constexpr int clip_raise = 2;  // doubled, and the floor raised to it: clipping
  static constexpr int lower = -1;      // halved (down to the floor): high utilisation
  static constexpr int end = 3;         // the final entry, when the MTB stops

  double ms;         // since the MTB started
  double delta;      // delta after this decision
  double head_base;  // lower distance bound of the head bucket
  double avg_util;   // mean utilisation over the window, as a share of the hardware threads
  // Share of the window's sweeps with idle WTBs and held-back work (with
  // raise_only_when_held_back off: with idle WTBs).
  double held_back_share;
  double clip_share;        // share of the window's sweeps that saw clipping
  std::uint64_t sweep;      // MTB sweeps so far
  std::uint64_t retires;    // head switches so far
  std::uint64_t completed;  // items completed so far (sum of the CWCs)
  std::uint64_t queued;     // items reserved and not completed at this sweep
  std::uint64_t in_flight;  // items assigned and unfinished at this sweep
  int open;                 // open buckets (the fast knob) at this sweep
  int decision;             // keep, raise, clip_raise, lower or end
};

// Knobs for tests and experiments; sssp() uses the defaults.
struct adds_config {
  unsigned pool_blocks = 0;          // 0: sized from the graph (n + arcs items, plus 2 per bucket)
  int pool_retries = 3;              // on exhaustion: rerun with 4x the pool, this many times
  unsigned max_worker_blocks = 0;    // 0: every block the occupancy API says fits
  // Worker blocks per SM on graphs of mean degree >= wide_row_degree (0: every block that fits,
  // as on any other graph). The MTB's sweep slows with the number of WTBs pushing beside it (its
  // loads queue behind theirs): on kron-22 (H100) 264 WTBs made it 9.1 us against 17.3 with
  // 527, and Kronecker rows are long enough for 2 blocks per SM to keep memory busy:
  // kron-24 80.5 -> 62.2 ms, kron-22 19.7 -> 17.2, kron-20 4.67 -> 4.69. Graphs of short rows
  // need every block (uniform-4M 6.3 -> 7.2 ms, cnr-2000, mdual, soc-Slashdot slower with 264):
  // bench/results/2026-11-24-h100-run17/sweeps/ab-worker-count*.txt and
  // 8cbfde2-gpu-check/ab-8cbfde2.txt (kron-22 18.7 -> 15.9 ms there, the rest unchanged).
  unsigned wide_row_workers_per_sm = 2;
  double wide_row_degree = 16;  // the rule that gives such rows a warp in the local rounds
  double watchdog_ms = 120000;       // device: total run-time bound, checked by the MTB
  double stall_ms = 2000;            // device: bound on time without a completed item
  double host_timeout_ms = 0;        // host: 0 = watchdog_ms + 10000
  bool dynamic_delta = true;         // section 5.5 on (off: the initial delta throughout)
  adds_tuning tuning;
  // Delta trace ring (adds_report::trace): 0 = off, unless options.verbose, which keeps 1024 and
  // prints them. Costs one adds_trace_entry (96 bytes) per delta decision when on, one branch
  // when off.
  unsigned trace_capacity = 0;
};

// What happened, for tests and the verbose trace.
struct adds_report {
  int status = 0;
  int pool_retries_used = 0;
  unsigned pool_blocks = 0;
  unsigned worker_blocks = 0;
  unsigned blocks_per_sm = 0;
  double initial_delta = 0;
  double final_delta = 0;
  double min_delta = 0, max_delta = 0;
  std::uint64_t delta_changes = 0;
  std::uint64_t sweeps = 0;
  std::uint64_t skipped = 0;
  std::uint64_t max_in_flight = 0;
  std::uint64_t assignments = 0;
  std::uint64_t retires = 0;
  // Share of the MTB's cycles in each sweep phase (A+B worker flags, counters and pointers; C WCC
  // scan; bookkeeping; D1 decisions; D2 assignment flags), the mean sweep in microseconds (wall
  // time over sweeps), and the share of
  // the WTBs' cycles spent waiting for an assignment.
  double manager_phase_share[5] = {};
  double sweep_us = 0;
  double worker_wait_share = 0;
  std::vector<adds_trace_entry> trace;  // oldest first; the last trace_capacity entries
  std::uint64_t trace_dropped = 0;      // older entries the ring overwrote
};

template <class W>
result<W> adds_sssp_configured(const device_matrix<W>& a, vertex source, const options& opts,
                               const adds_config& cfg, adds_report* report = nullptr);

}  // namespace tropic::detail
