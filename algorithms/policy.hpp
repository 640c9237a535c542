// One home for the algorithms' policy constants (operator tuning lives in
// semiring/tropic/tuning.hpp). Each constant: what it trades, and the results folder whose
// measurement chose it, or "unmeasured".
#pragma once

#include <cstddef>
#include <cstdint>

#include "tropic/tuning.hpp"

namespace tropic::policy {

namespace delta_stepping {
// The automatic Δ is choose_delta (Near-Far: 32 x mean weight / mean degree) times:
// x4 with local rounds: fewer, wider buckets; bench/results/h100-run27/sweeps/closure-sweep.txt
inline constexpr double automatic_delta_factor_rounds = 4;
// x2 without them (hubs); bench/results/h100-run11/sweeps/closure-sweep-2-factor-rounds-lanes.txt
inline constexpr double automatic_delta_factor = 2;
// x1 from this mean degree on: wide buckets cost passes; bench/results/h100-run6/summary.md
inline constexpr double automatic_delta_max_degree = 16;

// Pull hysteresis (Beamer et al.'s beta; a pull reads rows only up to their bounds):
// keep pulling while |B| > n / this; bench/results/h100-run24/sweeps/ab-1-rowleast.txt
inline constexpr double pull_stay_rows_ratio = 24;

// Hand-over to the GPU-driven loop, which never pulls, once light steps are small:
// a step under this many arcs (|B| x mean degree) costs less than a round trip; unmeasured
inline constexpr double device_loop_step_arcs = 1 << 20;
// ... this many such steps in a row: not on a source's first small steps; unmeasured
inline constexpr unsigned device_loop_small_steps = 8;
// ... the last grew B at most this much; bench/results/h100-run12/sweeps/ab-4-handover-growth.txt
inline constexpr double device_loop_growth = 2;
// The GPU-driven loop from the first bucket on graphs deeper than this (graph_stats::
// probe_levels: grids, roads), whose frontiers never grow to need a pull; the host loop's first
// steps are round trips spent waiting to hand over; bench/results/h200-run30/NOTES.md
inline constexpr std::uint32_t device_loop_probe_levels = 64;
// ... and on small graphs (fewer vertices than this, at most device_loop_small_arcs arcs) under
// the automatic Δ: their host-driven steps are round trips until the hand-over or the widened
// tail, and a pull saves little on them. From the start: 0.43-0.98x the host-first time on
// soc-Slashdot, mdual, cnr-2000, kron 16-18 and uniform 262K-459K; 1.2-2.6x on kron 19-20 and
// uniform 1M-2M. The arcs bound: the most measured winning (kron-18, 7.8M); past it
// kron:17:64 (13M) won 2x, kron:18:32 (14.5M) 0.86-1.09x; bench/results/h200-run59/NOTES.md
inline constexpr std::uint64_t device_loop_small_vertices = std::uint64_t(1) << 19;
inline constexpr std::uint64_t device_loop_small_arcs = std::uint64_t(1) << 23;

// Narrowing Δ (x4 back to x1) for a short, wide search, whose frontier grows geometrically:
// after this many growing steps; bench/results/h100-run13/sweeps/ab-5-narrow-wide-searches.txt
inline constexpr unsigned narrow_growing_steps = 3;
// ... to this many rows; bench/results/h100-run13/sweeps/ab-5-narrow-wide-searches.txt
inline constexpr std::size_t narrow_min_rows = 1024;

// Widened tail (one last bucket [(i+1)Δ, ∞), every arc light) for a short, wide search:
// within this many first buckets (no long search); bench/results/h100-run26/sweeps/ab-1-wide-tail.txt
inline constexpr std::uint64_t widen_tail_within_buckets = 4;
// ... this share of vertices settled or next; bench/results/h100-run26/sweeps/ab-1-wide-tail.txt
inline constexpr double widen_tail_reached_share = 0.95;

// Batched delta-stepping (delta_stepping_batch.cu): a step pulls when its frontier holds more
// than k x n / this (source, vertex) entries, vxm's pull_ratio; unmeasured
inline constexpr std::size_t batch_pull_ratio = 4;
// delta_stepping with many sources runs batched only on graphs of short rows (the closure's,
// below) and at least this many sources: there the batch beat the single solves (64 sources:
// 1.8x on USA-road-d.NY, 4.9x on a 100 x 100 grid), on Kronecker graphs and with 8 sources it
// lost (0.3-0.8x);
// bench/results/h200-run32/NOTES.md
inline constexpr std::size_t batch_min_sources = 64;

// The GPU-driven loop runs tuning::device_loop_wide_blocks_per_sm blocks an SM (4-byte values,
// local rounds on) from this many vertices on: a wavefront wider than two blocks an SM hide;
// bench/results/h200-run58/NOTES.md
inline constexpr std::uint64_t device_loop_wide_vertices = std::uint64_t(1) << 23;

// The closure's local rounds pay on short rows (roads, grids, meshes), not on hubs:
// up to this max degree only; bench/results/h100-run10/sweeps/anatomy-3-rounds.txt
inline constexpr std::uint64_t closure_local_rounds_max_degree = tuning::block_threads;
}  // namespace delta_stepping

// Many sources (algorithms/gpu_many.cu).
namespace many_sources {
// automatic and near_far run a thread block per source (near_far_blocks.cu) on graphs of short
// rows from this many sources on: 8 sources of USA-road-d.NY solved 1.9x faster than 8 single
// solves, 64 of them 10.4x (and 3.4x on a 2048 x 2048 grid); on kron-22 it lost 14x, hence short
// rows only; bench/results/h200x4-run35/NOTES.md
inline constexpr std::size_t blocks_min_sources = 8;
}  // namespace many_sources

// algorithm::automatic on a GPU with non-negative weights (algorithms/gpu_dispatch.cu): ADDS on
// small graphs of shallow probe, delta-stepping elsewhere. ADDS's queue has no per-step cost, and
// wins 1.2-3.7x on such graphs; delta-stepping's passes win on large graphs, and its local
// rounds on grids and roads (probe_levels: grids 178+, NY 81, mdual 37, cnr 11). Fit on 28
// graphs (bench/results/h200-run30/NOTES.md), then refit where 28 graphs of other generators
// and seeds found it 1.16-2.3x off (bench/results/h200-run47/NOTES.md).
namespace automatic {
// ADDS up to this many arcs ...
inline constexpr std::uint64_t adds_max_arcs = std::uint64_t(1) << 23;
// ... and up to this many beyond adds_max_vertices vertices: its queue carries several items a
// vertex, and on 2^20 vertices it lost 1.16-1.34x from 6.3M arcs on, where it won 1.7x at 3.1M ...
inline constexpr std::uint64_t adds_max_arcs_many_vertices = std::uint64_t(1) << 22;
inline constexpr std::uint64_t adds_max_vertices = std::uint64_t(1) << 19;
// ... when no row is longer than this (a worker block relaxes a hub's row alone: rows of ~90K
// arcs made ADDS 1.9-2.3x slower, rows of 16-26K did not) ...
inline constexpr std::uint64_t adds_max_degree = std::uint64_t(1) << 16;
// ... and graph_stats::probe_levels is at most this: 3D meshes reach the probe's 16,384 vertices
// in 42-43 levels, 2D graphs in 59 and more (a random geometric graph of degree 7 59, NY 81,
// grids 178+), where delta-stepping's local rounds win (1.6x on that geometric graph).
inline constexpr std::uint32_t adds_max_probe_levels = 50;

// The rule above: true for ADDS, false for delta-stepping.
constexpr bool prefers_adds(std::uint64_t vertices, std::uint64_t arcs, std::uint64_t max_degree,
                            std::uint32_t probe_levels) {
  const std::uint64_t max_arcs =
      vertices > adds_max_vertices ? adds_max_arcs_many_vertices : adds_max_arcs;
  return arcs <= max_arcs && max_degree <= adds_max_degree &&
         probe_levels <= adds_max_probe_levels;
}
}  // namespace automatic

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
// WTB arcs in flight per thread vs registers; bench/results/h100-run15/sweeps/
inline constexpr int arc_batch = 4;
// Rows this long take the whole WTB after the round; bench/results/h100-run14/sweeps/
inline constexpr std::uint64_t hub_row = 2048;
// Rows a WTB keeps for its local rounds (two queues in shared memory); unmeasured.
inline constexpr unsigned local_capacity = threads_per_block;
// Longer rows are never kept locally: a lane group would hold the block back; unmeasured.
inline constexpr std::uint64_t local_row_limit = threads_per_block;
// Phase A: worker flags per MTB thread in flight; bench/results/h100-run16/sweeps/
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
// Open buckets: parallelism vs an open x delta window; bench/results/h100-run6/sweeps/
inline constexpr int max_open_buckets = 2;
// Tail bucket's share of the queue that is clipping; the paper's 65% (section 5.5).
inline constexpr double clip_share = 0.65;
// Delta never goes below delta0 x this: order vs the rework of a narrow bucket; unmeasured.
inline constexpr double delta_floor_ratio = 1.0 / 64;
// ... nor above delta0 x this; unmeasured.
inline constexpr double delta_ceiling_ratio = 1048576;
// Low-utilisation raises stop at delta0 x this; bench/results/h100-run6/sweeps/
inline constexpr double util_raise_ratio = 1;
// Fewest items per assignment: handoffs vs spread; bench/results/h100-run6/sweeps/
inline constexpr unsigned min_chunk = 32;
// Most items per assignment (4 rounds of a WTB): handoffs vs balance; unmeasured.
inline constexpr unsigned max_chunk = 1024;
// Raise only when buckets hold work from idle WTBs; bench/results/h100-run6/sweeps/
inline constexpr bool raise_only_when_held_back = true;
// Local rounds per chunk: hops per sweep vs balance; bench/results/h100-run17/sweeps/
inline constexpr unsigned local_rounds = 32;
// Local rounds stop past this many lane-group passes; bench/results/h100-run17/sweeps/
inline constexpr unsigned local_passes = 4;

// adds_config's defaults.
// Reruns with a 4x pool after the pool ran out: memory vs failing; unmeasured.
inline constexpr int pool_retries = 3;
// WTBs/SM on long-row graphs: MTB sweep vs bandwidth; bench/results/h100-run17/sweeps/
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
// Section 4.1's degree renumbering in every solve: off, it cost more than it saved on every
// graph tried, and a second CSR (bench/results/h200-run39/).
inline constexpr bool reorder = false;
// Section 4.3's per-bucket delta (Eq. 1-2), else delta_0 throughout; unmeasured.
inline constexpr bool dynamic_delta = true;
// Eq. 2's delta stays within [delta_0 / this, delta_0 x this] (the paper sets none); unmeasured.
inline constexpr double delta_range = 16;
// The light/heavy split follows Eq. 2's delta in steps of 2^(1 / this) (0: every change): each
// step re-splits every row, which cost more than a finer width saved (bench/results/h200-run40/).
inline constexpr unsigned delta_steps_per_octave = 2;
// On a shallow graph (probe_levels at most shallow_probe_levels) of more arcs than this, the
// automatic delta_0 scales by sqrt(this / arcs), down to delta0_least_scale (and not below the
// lightest arc): a bucket of many arcs keeps the GPU busy at a narrower width, which cuts the
// light phase's repeated work. Fitted on kron-20/22/24 and uniform-4M
// (bench/results/h200-run40/).
inline constexpr double delta0_reference_arcs = double(1u << 25);
// "Shallow" above: the depth bound this was fitted with, kept apart from the automatic rule's
// (bench/results/h200-run40/).
inline constexpr std::uint32_t shallow_probe_levels = 64;
inline constexpr double delta0_least_scale = 0.25;
// Work-list slots per vertex (or row) of a list's class: memory vs redone phases; unmeasured.
inline constexpr std::size_t list_headroom = 2;
// ... plus this many slots per list; unmeasured.
inline constexpr std::size_t list_slack = 1024;
// Light phases redone with 4x lists after a full one: memory vs failing; unmeasured.
inline constexpr int overflow_retries = 6;
// Device bound on one light phase: a hang's report vs the longest honest phase; unmeasured.
inline constexpr double watchdog_ms = 120000;
// An idle worker's sleeps double up to this (ns): its reads of the lists' ends vs how soon it
// sees new work; 256 to 16384 measured alike (bench/results/h200-run39/).
inline constexpr unsigned idle_sleep_ns = 256;
}  // namespace rdbs

// Delta-stepping over several GPUs (delta_stepping_distributed.cu).
namespace distributed {
// Its light steps are closure rounds (each part's light loop to a fixed point in one GPU-driven
// kernel, then its fallen ghosts sent) on graphs of short rows, where one GPU's closure takes
// local rounds: their thousands of small steps would each cost host meetings and an exchange;
// bench/results/h200x4-run48/NOTES.md
inline constexpr bool short_rows(std::uint64_t max_degree) {
  return max_degree <= delta_stepping::closure_local_rounds_max_degree;
}
// ... from the start behind thin borders: ghosts (a part's arcs' heads that another part owns),
// summed over the parts, at most this share of the vertices. Roads and grids have 0.2-2% on four
// parts, a mesh dual and a random graph 69-248%: there a round reaches hardly further than a
// step and re-relaxes on stale ghosts, so steps go first and hand over to rounds as one GPU's
// loop does (delta_stepping::device_loop_*); bench/results/h200x2-run49/NOTES.md
inline constexpr double closure_rounds_max_ghost_share = 0.1;
inline constexpr bool thin_borders(std::uint64_t ghosts, std::uint64_t n) {
  return double(ghosts) <= closure_rounds_max_ghost_share * double(n);
}
// ... with the automatic Δ this many times one GPU's: half the buckets, so half the rounds'
// fixed costs; at four times the closures' re-relaxations in wide buckets cost more;
// bench/results/h200x4-run48/NOTES.md
inline constexpr double closure_delta_factor = 2;
}  // namespace distributed

}  // namespace tropic::policy
