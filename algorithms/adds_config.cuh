// ADDS (algorithms/adds.cu) knobs, trace and report, for tests and experiments; sssp() uses the
// defaults, which live in algorithms/policy.hpp (tropic::policy::adds). Plain C++ (no device
// code), GPU builds only.
#pragma once

#include <cstdint>
#include <vector>

#include "policy.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/sssp.hpp"

namespace tropic::detail {

// Section 5.5's dynamic-delta rules as numbers. The paper fixes the shape of each rule and one
// number (clipping at 65%); the rest are ours, run-time values so that one GPU run can compare
// a few settings (bench/tune/adds_sweep.cu, "tuning sweep"). adds_sssp_configured rejects values
// outside the ranges noted here.
struct adds_tuning {
  // delta0 = (options.delta, or choose_delta's Near-Far heuristic) x this; > 0.
  double initial_delta_factor = policy::adds::initial_delta_factor;
  // Utilisation = arcs in flight (items assigned and unfinished x average degree) over the
  // hardware threads of the WTBs; delta and the open buckets aim between these two shares
  // (util_low < util_high).
  double util_low = policy::adds::util_low, util_high = policy::adds::util_high;
  // Head-bucket switches between two delta decisions; >= 1.
  int settle_switches = policy::adds::settle_switches;
  // The fast knob's upper end; 1..num_buckets. Every open bucket is handed out as soon as a
  // worker is idle, so the unordered window is max_open_buckets x delta wide; on a
  // high-diameter graph `open` climbs to this bound within a few sweeps and stays there. Two
  // keep the paper's reason for several buckets (the next one starts while the head's last
  // items finish) at a 2 x delta window.
  int max_open_buckets = policy::adds::max_open_buckets;
  // The tail bucket's share of the queued items from which a sweep counts as clipping.
  double clip_share = policy::adds::clip_share;
  double delta_floor_ratio = policy::adds::delta_floor_ratio;      // delta >= delta0 x this; (0, 1]
  double delta_ceiling_ratio = policy::adds::delta_ceiling_ratio;  // ... <= delta0 x this; >= 1
  // The low-utilisation raise never takes delta past delta0 x this (>= 1; clipping may raise it,
  // up to the ceiling; 1: it only undoes lowering). With few open buckets, work is "held back"
  // at most sweeps of a road graph, and an unbounded raise would double delta every
  // settle_switches head switches.
  double util_raise_ratio = policy::adds::util_raise_ratio;
  unsigned min_chunk = policy::adds::min_chunk;  // items per assignment, at least; >= 1
  // ... and at most; >= min_chunk, < 131072 (the assignment word's count field).
  unsigned max_chunk = policy::adds::max_chunk;
  // Low utilisation raises delta (and opens buckets) only in sweeps where idle WTBs coexist with
  // queued items that the open buckets keep from them: only then can a wider bucket hand out
  // more work. With false, any low-utilisation window raises delta (the paper's rule read
  // literally), which on high-diameter graphs, whose frontier is small at every delta, drifts
  // delta upward and turns the queue into Bellman-Ford.
  bool raise_only_when_held_back = policy::adds::raise_only_when_held_back;
  // Local rounds (ours, not the paper's): after its chunk's rounds, a WTB relaxes the rows it
  // lowered into the chunk's own bucket itself, and the rows those lower, up to this many rounds
  // of a group of lanes per row (adds_worker.cuh, local_rounds()), instead of leaving each hop
  // to the MTB's next assignments: a thin wavefront's hop (roads, meshes, web crawls) otherwise
  // costs about two MTB sweeps. 0: the paper's scheme; at most 65536 (a block in local rounds
  // holds its chunk's completion back, and with it the stall watchdog's progress).
  unsigned local_rounds = policy::adds::local_rounds;
  // ... while a round holds no more rows than this many passes of the block's lane groups take
  // (256 / lanes rows a pass); 1..65536.
  unsigned local_passes = policy::adds::local_passes;
};

// One line of the optional delta trace (section 5.5, and the parallelism-over-time plots of the
// paper's figures 11-15): written by the MTB when it starts, at every delta decision (every
// settle_switches head switches) and at the end.
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
  unsigned pool_blocks = 0;  // 0: sized from the graph (n + arcs items, plus 2 per bucket)
  int pool_retries = policy::adds::pool_retries;  // on exhaustion: rerun with 4x the pool
  unsigned max_worker_blocks = 0;                 // 0: every block the occupancy API says fits
  // Worker blocks per SM on graphs of mean degree >= wide_row_degree (0: every block that fits,
  // as on any other graph). The MTB's sweep slows with the number of WTBs pushing beside it (its
  // loads queue behind theirs), and long rows keep memory busy with fewer blocks; graphs of
  // short rows need every block.
  unsigned wide_row_workers_per_sm = policy::adds::wide_row_workers_per_sm;
  double wide_row_degree = policy::adds::wide_row_degree;
  double watchdog_ms = policy::adds::watchdog_ms;  // device: total run-time bound (the MTB)
  double stall_ms = policy::adds::stall_ms;        // device: bound on time without a completed item
  double host_timeout_ms = 0;                      // host: 0 = watchdog_ms + host_grace_ms
  bool dynamic_delta = true;  // section 5.5 on (off: the initial delta throughout)
  adds_tuning tuning;
  // Delta trace ring (adds_report::trace): 0 = off, unless options.verbose, which keeps
  // verbose_trace_capacity and prints them. Costs one adds_trace_entry (96 bytes) per delta
  // decision when on, one branch when off.
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
  // Share of the MTB's cycles in each sweep phase (A+B worker flags, counters and pointers; C
  // WCC scan; bookkeeping; D1 decisions; D2 assignment flags), the mean sweep in microseconds
  // (wall time over sweeps), and the share of the WTBs' cycles spent waiting for an assignment.
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
