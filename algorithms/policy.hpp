// One home for the algorithms' policy constants (operator tuning lives in
// semiring/tropic/tuning.hpp). Each constant: what it trades, and the results folder whose
// measurement chose it, or "unmeasured".
#pragma once

#include <cstddef>
#include <cstdint>

#include "tropic/tuning.hpp"

namespace tropic::policy {

namespace delta_stepping {
// The automatic Δ: a multiple of the Near-Far heuristic (choose_delta: 32 x mean weight / mean
// degree). With the light closure's local rounds, a light step costs a block's round (~2.5
// µs) rather than a grid-wide step, so wider buckets -- fewer of them, each with its fixed
// passes over t -- pay for their extra work sooner: x4 where the rounds run (graphs of short
// rows), x2 where they do not (web and social graphs with hubs), x1 from a mean degree of 16
// (Kronecker graphs, ~30: a few wide buckets of host-driven passes, where x2 cost kron-22 10.8
// -> 15.5 ms and kron-24 63 -> 77 ms in bench run 6). The "closure sweep" in
// test/test_delta_stepping.cu (H100, 2026-11-24, median of 3, two sources each), heuristic x2 /
// x4 / x8 at 8 local rounds: grid 2048^2 16.5 / 15.4 / 15.6 ms and 13.2 / 12.4 / 13.0;
// USA-road-NY 5.2 / 4.7 / 4.5 and 4.2 / 3.7 / 3.5; mdual 1.17 / 1.22 / 1.52 and 1.18 / 1.17 /
// 1.38; cnr-2000 without rounds 2.85 / 3.35 / 3.69 (second source; the first flat);
// Slashdot flat. x4 with 8 rounds has the best geometric mean over the graphs (1.12 of each
// graph's best; x2 with 16 rounds, the choice before, 1.21). With small frontiers dealt out over
// every block and 264 blocks (2026-11-25, bench/results/2026-11-25-h100-run27/sweeps/
// closure-sweep.txt, 16 rounds): x2 / x4 / x8 grid 10.6 / 9.6 / 9.5 ms and 8.8 / 8.0 / 8.2,
// NY 3.8 / 3.1 / 2.9 and 3.0 / 2.5 / 2.4, mdual 1.00 / 0.99 / 1.22 and 0.99 / 1.02 / 1.18: x4
// still has the best geometric mean (x8 1.09 of each graph's best against 1.05). A search whose
// frontier grows geometrically from the source (uniform random graphs) narrows x4 back to x1
// in its first steps (the loop below, tuning::narrow_*).
inline constexpr double automatic_delta_factor_rounds = 4;
inline constexpr double automatic_delta_factor = 2;
inline constexpr double automatic_delta_max_degree = 16;

// Delta-stepping's light steps keep pulling after a pull while the frontier holds more than
// n / pull_stay_rows_ratio rows (Beamer et al.'s bottom-up-to-top-down switch, whose beta = 24
// this is).
inline constexpr double pull_stay_rows_ratio = 24;
// Delta-stepping hands its loop to the GPU (loop_control::automatic) after this many light steps
// in a row each touched fewer arcs than device_loop_step_arcs (estimated as frontier x mean
// degree): at the H100's ~50 GTEPS for a push, a million arcs take ~20 µs, the cost of one host
// round trip. A few steps, so the first small steps from the source (before a Kronecker
// graph's frontier explodes) do not trigger it.
inline constexpr double device_loop_step_arcs = 1 << 20;
inline constexpr unsigned device_loop_small_steps = 8;
// ... and the last of them did not grow the frontier (rows) more than this many times: a search
// still expanding from its source (a uniform random graph's first bucket) is no long, thin
// search: handed over there, uniform random graphs of out-degree 4 and 20 (4M vertices) took
// 10.9 and 15.4 ms in the device-driven loop, which does not pull; with this test 5.6 and 6.7,
// grids, roads, mdual and the web/social graphs within noise (H100, 2026-11-24,
// bench/results/2026-11-24-h100-run12/sweeps/ab-4-handover-growth.txt).
inline constexpr double device_loop_growth = 2;
// Delta-stepping's automatic Δ (x4 on graphs of short rows) narrows to the heuristic's once the
// light steps grew the frontier more than device_loop_growth times in this many steps in a row
// up to at least narrow_min_rows rows: geometric growth to a size that grids, roads and meshes
// (frontiers ~ hops or hops^2) do not reach in a few steps; such a search then stays
// host-driven (algorithms/delta_stepping.cu).
inline constexpr unsigned narrow_growing_steps = 3;
// Delta-stepping finishes a search as one bucket (every arc light, Bellman-Ford from there) when,
// after bucket i < widen_tail_within_buckets - 1, the settled vertices and the next bucket
// together hold widen_tail_reached_share of the vertices with out-arcs: kron-20/22's first
// bucket leaves 96-100% of them settled or in the second (the CPU model, bench/tune), a grid
// or road network reaches that share after tens of buckets.
inline constexpr std::uint64_t widen_tail_within_buckets = 4;
inline constexpr double widen_tail_reached_share = 0.95;
inline constexpr std::size_t narrow_min_rows = 1024;
// ... and only on graphs without rows longer than a block (delta-stepping's automatic choice;
// vxm_closure does as it is told). The bucket loop on cnr-2000 (max degree 2,715), one source:
// 16 rounds 5.3 ms, 4 rounds 4.3, none 2.8 (117 grid steps instead of 21); Slashdot (2,510)
// 0.78 / 0.75 / 0.82 and 1.06 / 1.03 / 0.98 ms, within noise; mdual (max 4), USA-road-NY (8)
// and grid-4M (4) need the rounds (none: 1.4 -> 2.0, 5.1 -> 8.1, 18 -> 33 ms). H100,
// 2026-11-24, the "grid anatomy" case in test/test_delta_stepping.cu. Why the rounds cost a
// web graph that much is not established: listing its hubs for the next step instead of
// leaving them to their groups did not help.
inline constexpr std::uint64_t closure_local_rounds_max_degree = tuning::block_threads;
}  // namespace delta_stepping

// ADDS (algorithms/adds*.cu; Wang, Fussell, Lin, PPoPP'21, section 5). adds_tuning and
// adds_config (algorithms/adds_config.cuh) take their defaults from here.
namespace adds {
// Threads of the MTB and of each WTB (the WTB's scan width, the local queues); unmeasured.
inline constexpr int threads_per_block = 256;
// 4 blocks/SM: registers capped at 64, against a few spilled bytes; unmeasured.
inline constexpr int min_blocks_per_sm = 4;
// Pool allocation unit (paper: 64K words): maps and frees sooner vs less often; unmeasured.
inline constexpr unsigned block_items = 4096;
// Items per write-completed counter (N of section 5.2): scan loads vs contention; unmeasured.
inline constexpr unsigned segment_items = 64;
// MTB sweeps between host-abort polls and heartbeats: host reaction vs sweep time; unmeasured.
inline constexpr unsigned poll_sweeps = 256;
// WTB arcs in flight per thread vs registers; bench/results/2026-11-24-h100-run15/sweeps/
inline constexpr int arc_batch = 4;
// Rows this long take the whole WTB after the round; bench/results/2026-11-24-h100-run14/sweeps/
inline constexpr std::uint64_t hub_row = 2048;
// Rows a WTB keeps for its local rounds (two queues in shared memory); unmeasured.
inline constexpr unsigned local_capacity = threads_per_block;
// Longer rows are never kept locally: a lane group would hold the block back; unmeasured.
inline constexpr std::uint64_t local_row_limit = threads_per_block;
// Phase A: worker flags per MTB thread in flight; bench/results/2026-11-24-h100-run16/sweeps/
inline constexpr int flags_per_thread = 4;

// adds_tuning's defaults (section 5.5's knobs).
// Initial delta over the Near-Far heuristic's (Davidson et al.); unmeasured.
inline constexpr double initial_delta_factor = 1;
// Utilisation (arcs in flight / WTB threads) below which buckets open, delta rises; unmeasured.
inline constexpr double util_low = 0.5;
// ... above which buckets close and delta falls; unmeasured.
inline constexpr double util_high = 2.0;
// Head switches between two delta decisions: reaction vs noise; unmeasured.
inline constexpr int settle_switches = 8;
// Open buckets: parallelism vs an open x delta window; bench/results/2026-11-23-h100-run6/sweeps/
inline constexpr int max_open_buckets = 2;
// Tail bucket's share of the queue that is clipping; the paper's 65% (section 5.5).
inline constexpr double clip_share = 0.65;
// Delta never goes below delta0 x this: order vs the rework of a narrow bucket; unmeasured.
inline constexpr double delta_floor_ratio = 1.0 / 64;
// ... nor above delta0 x this; unmeasured.
inline constexpr double delta_ceiling_ratio = 1048576;
// Low-utilisation raises stop at delta0 x this; bench/results/2026-11-23-h100-run6/sweeps/
inline constexpr double util_raise_ratio = 1;
// Fewest items per assignment: handoffs vs spread; bench/results/2026-11-23-h100-run6/sweeps/
inline constexpr unsigned min_chunk = 32;
// Most items per assignment (4 rounds of a WTB): handoffs vs balance; unmeasured.
inline constexpr unsigned max_chunk = 1024;
// Raise only when buckets hold work from idle WTBs; bench/results/2026-11-23-h100-run6/sweeps/
inline constexpr bool raise_only_when_held_back = true;
// Local rounds per chunk: hops per sweep vs balance; bench/results/2026-11-24-h100-run17/sweeps/
inline constexpr unsigned local_rounds = 32;
// Local rounds stop past this many lane-group passes; bench/results/2026-11-24-h100-run17/sweeps/
inline constexpr unsigned local_passes = 4;

// adds_config's defaults.
// Reruns with a 4x pool after the pool ran out: memory vs failing; unmeasured.
inline constexpr int pool_retries = 3;
// WTBs/SM on long-row graphs: MTB sweep vs bandwidth; bench/results/2026-11-24-h100-run17/sweeps/
inline constexpr unsigned wide_row_workers_per_sm = 2;
// Mean degree from which rows count as long (the local rounds' warp-per-row rule); unmeasured.
inline constexpr double wide_row_degree = 16;
// Device bound on a whole run: a hang's report vs the longest honest run; unmeasured.
inline constexpr double watchdog_ms = 120000;
// Device bound on time without a completed item; unmeasured.
inline constexpr double stall_ms = 2000;
// Host timeout past watchdog_ms, and the wait past it before the host gives up; unmeasured.
inline constexpr double host_grace_ms = 10000;
// Delta-trace entries kept (and printed) with options.verbose; unmeasured.
inline constexpr unsigned verbose_trace_capacity = 1024;
}  // namespace adds

// RDBS (algorithms/rdbs*.cu; Zhang et al., ICPP-W'23). rdbs_config
// (algorithms/rdbs_config.cuh) takes its defaults from here.
namespace rdbs {
// Threads per block of the light phase (a block item's width); unmeasured.
inline constexpr int threads_per_block = 256;
// 4 blocks/SM: registers capped at 64 (the light phase needs 40); unmeasured.
inline constexpr int min_blocks_per_sm = 4;
// Section 4.2's beta: up to this many light arcs, one thread per row; the paper's value.
inline constexpr std::uint64_t beta_arcs = 32;
// Section 4.2's alpha: up to this many, one warp per row; more, one block; the paper's value.
inline constexpr std::uint64_t alpha_arcs = 256;
// Section 4.2: a block item covers at most this many arcs of a row; the paper's value.
inline constexpr std::uint64_t chunk_arcs = 4096;
// Section 4.1's degree renumbering in every solve: locality vs its cost; unmeasured.
inline constexpr bool reorder = true;
// Section 4.3's per-bucket delta (Eq. 1-2), else delta_0 throughout; unmeasured.
inline constexpr bool dynamic_delta = true;
// Eq. 2's delta stays within [delta_0 / this, delta_0 x this] (the paper sets none); unmeasured.
inline constexpr double delta_range = 16;
// Work-list slots per vertex (or row) of a list's class: memory vs redone phases; unmeasured.
inline constexpr std::size_t list_headroom = 2;
// ... plus this many slots per list; unmeasured.
inline constexpr std::size_t list_slack = 1024;
// Light phases redone with 4x lists after a full one: memory vs failing; unmeasured.
inline constexpr int overflow_retries = 6;
// Device bound on one light phase: a hang's report vs the longest honest phase; unmeasured.
inline constexpr double watchdog_ms = 120000;
}  // namespace rdbs

}  // namespace tropic::policy
