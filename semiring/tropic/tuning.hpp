// One home for the operators' tuning constants (CUB's tuning_*.cuh idea).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tropic::tuning {
inline constexpr unsigned block_threads = 256;
inline constexpr std::size_t max_blocks = 1u << 20;
// Push (merge-path): 256 threads x 4 arcs per tile; at most 16 blocks per SM in flight.
inline constexpr int push_threads = 256;
inline constexpr int push_items_per_thread = 4;
inline constexpr unsigned push_max_blocks_per_sm = 16;
// Pull (merge-path SpMV, Merrill & Garland SC'16): a tile is pull_threads x
// pull_items_per_thread items of the path that merges row ends with arcs; each block walks
// a contiguous run of tiles. 1024-item tiles keep one block's shared memory at 9-13 KB
// (row ends 4 B per item, products sizeof(W) per item), so many blocks fit an SM and their
// phases (loads, gathers, walks, scans) overlap; 8 independent gathers per thread keep enough
// misses in flight for the x gathers that bound an SpMV. A sweep on the H100
// (bench/tune/pull_merge_shapes.cu, fp32, median of 21, 2026-11-23) on kron-22 / kron-20:
// 128 x 8 1.193 / 0.289 ms, 256 x 8 1.226 / 0.298, 256 x 6 1.215 / 0.296, 256 x 12 1.230 /
// 0.333, 64 x 16 1.249 / 0.310, 512 x 4 1.498 / 0.345 (cuSPARSE 1.104 / 0.264); one block per
// resident slot beat 1 or 4 tiles per block for every shape.
inline constexpr int pull_threads = 128;
inline constexpr int pull_items_per_thread = 8;
// Pull by a group of lanes per row (CSR-vector), for views whose rows are all short: each lane
// loads pull_group_items arcs before their gathers. On the H100 (fp32 min-plus, median of 21,
// bench/tune/pull_short_rows.cu, 2026-11-23) one lane per row took 0.0755 ms on grid 2048x2048
// and 0.272 ms on grid 4096x4096, two lanes 0.267 ms on uniform out-degree 7 (one lane 0.300),
// against cuSPARSE's CSR SpMV 0.102 / 0.326 / 0.287 and the CSR-stream row blocks this kernel
// replaced 0.110 / 0.406 / 0.266; 128- and 256-thread blocks within 2%. A group's time is its
// row's length, so the automatic choice takes it only when no row is longer than
// pull_group_max_row (roads <= 9, grids 4, uniform random graphs' in-degrees ~25 at 4M vertices;
// a Kronecker hub of 10^5 arcs would hold its warp for a millisecond).
inline constexpr int pull_group_threads = 128;
inline constexpr int pull_group_items = 4;
inline constexpr std::uint64_t pull_group_max_row = 32;
// The grid of pull_long_rows (the long rows pull_live_rows lists): eight blocks per SM.
inline constexpr unsigned pull_long_rows_blocks_per_sm = 8;
// The pull_live_rows family's constants (moved from semiring/operators.cuh):
// Pull, live rows: arcs a lane loads before their gathers (loads vs registers); unmeasured.
inline constexpr unsigned pull_live_items = 4;
// Pull, live rows: arcs a lane pulls alone; 2026-11-25-h100-run26/sweeps/ab-2-lane-first.txt
inline constexpr std::uint64_t pull_live_short = 8;
// Pull, live rows: rest for an 8-lane group; 2026-11-24-h100-run22/sweeps/ab-4-groups-kron.txt
inline constexpr std::uint64_t pull_live_group_row = 64;
// Pull, live rows: longer rows (hubs) go to pull_long_rows, a block per chunk; unmeasured.
inline constexpr std::uint64_t pull_live_long_row = 32 * pull_live_items * 8;
// Pull, long rows: arcs a block takes; 2026-11-24-h100-run22/sweeps/ab-6-chunks-kron-a.txt
inline constexpr std::uint64_t pull_long_chunk = 4 * block_threads * pull_live_items;
// Live-rows choice: samples (cost vs aim); 2026-11-24-h100-run19/sweeps/ab-pull-floor-2-*.txt
inline constexpr unsigned pull_live_samples = block_threads;
// Live-rows choice: live share at most; 2026-11-24-h100-run19/sweeps/ab-pull-live-share.txt
inline constexpr double pull_live_share = 0.75;
// Live-rows choice: smaller views keep the merge path; 2026-11-24-h100-run19/sweeps/
inline constexpr std::uint64_t pull_live_min_arcs = std::uint64_t(1) << 23;
// Live rows: blocks/SM (64 regs, no spill); 2026-11-25-h100-run26/sweeps/ab-3-launch-bounds.txt
template <class W>
inline constexpr int pull_live_min_blocks = sizeof(W) <= 4 ? 4 : 3;

// descriptor::pull_arc_ratio's test: a graph is skewed when its longest row is this many times
// its mean row or more (Kronecker, web and social graphs; not grids, roads, meshes or uniform
// random graphs, whose frontiers' arcs follow their rows), and the arcs of a frontier are
// counted only above n / arc_count_rows_ratio rows (below, a push is cheap whatever its rows).
inline constexpr double skewed_degree_ratio = 16;
inline constexpr std::uint64_t arc_count_rows_ratio = 64;
// The grid of the device-driven loop's persistent kernels (the closure, delta-stepping's bucket
// loop): enough thread groups for the frontiers of road-like graphs (a few thousand rows) in one
// sweep, larger ones grid-stride. Every block joins every grid barrier, so a grid larger than
// the work only adds to each step's latency (bench/RESULTS.md: 1056 blocks gave ~10 µs per step
// on grid-4M). Two blocks per SM since push_list deals a small frontier out over every block:
// grid-4M 9.9 -> 8.1 ms with 16 local rounds (132 blocks and 8 rounds before), NY flat, mdual
// 1.06 -> 1.12-1.18, the others within noise (H100, CLI A/B, two passes, 2026-11-25,
// bench/results/2026-11-25-h100-run27/sweeps/ab-4-blocks-rounds.txt).
inline constexpr unsigned device_loop_blocks_per_sm = 2;
// The light closure's local rounds (vxm_closure, semiring/device_loop.cuh): each block keeps what
// it improved in a shared-memory queue of closure_queue_items rows (vertex, value, bounds), pushes
// those rows itself for up to closure_local_rounds rounds before the grid barrier; the rest goes
// to the next global step. From the sweep in test/test_delta_stepping.cu ("closure sweep",
// H100, 2026-11-24; grid 2048^2, USA-road-NY, mdual, cnr-2000, Slashdot, two sources each;
// heuristic Δ x2, x4, x8), at x4: 0 rounds (level-synchronous, one grid barrier per light step)
// took grid 24.0 / 19.4 ms and NY 7.0 / 5.5; 8 rounds 15.4 / 12.4 and 4.7 / 3.7, mdual 1.22 /
// 1.17; 16 rounds 15.1 / 12.3, 4.9 / 3.8, 1.29 / 1.31; 32 rounds 16.5 / 13.8, 6.0 / 4.6, 1.58 /
// 1.64. 8 rounds at x4 has the best geometric mean over the graphs (1.12 of each graph's
// best; 16 rounds 1.17). More rounds let a block run ahead on values that later fall, and the
// grid waits for its busiest block (a probe of grid 2048^2: that block held 88 rows a round on
// average, other blocks' queues ran dry in ~4 rounds of the 16: the wavefront's ~1,000 rows
// went grid-stride to the first 16 blocks' groups, and each block keeps what it improves).
// Since push_list deals such a frontier out over every block (2026-11-25), the sweep (x2, x4,
// x8 x 4, 8, 16, 32 rounds x 132, 264 blocks; bench/results/2026-11-25-h100-run27/sweeps/
// closure-sweep.txt) has x4, 16 rounds, 264 blocks best over grid, NY and mdual (1.05 of each
// graph's best; x4, 8 rounds, 132 blocks 1.15): grid 9.6 / 8.0 ms against 11.5 / 9.8. Lanes per
// row: the mean-degree rule (4 on grids and roads) against 1 or 2 lanes, 2.4x and 1.5x slower
// on the grid (2026-11-24). Chains in the local rounds (a group pushing one of the rows it
// improved at once, up to 2-128 hops, instead of queueing it) were 1.5-5x slower on grid, NY
// and mdual: a chain serializes hops that the next round would push side by side (2026-11-25,
// sweeps/ab-2-chase-sweep.txt there). Tried for the busiest block and dropped (H100,
// 2026-11-24, old and new side by side in one call): blocks of 512 threads for the loop's
// kernels (grid-16M 25.8 -> 21.7 ms, but cnr-2000 2.8 -> 3.2 and grid-4M flat); a round of at
// most one row per group, the rest listed for the next step (NY 4.8 -> 4.2 ms, but grid 15.5
// -> 16.0 and 12.5 -> 13.1); a lane loading its next arcs before their atomics (1 lane per row
// 37.9 -> 32.2 ms on the grid, still 2.3x the 4 lanes; 4 lanes 2-5% slower on grid, NY, mdual).
inline constexpr unsigned closure_queue_items = 512;
inline constexpr unsigned closure_local_rounds = 16;
// ... and only after a global frontier of at most one row per thread of a grid of one block per
// SM (the closure's grid before it took two blocks per SM; the limit was not measured again).
inline constexpr std::size_t closure_local_frontier_per_sm = 256;
}  // namespace tropic::tuning
