// The operators' tuning constants, one home (CUB's tuning_*.cuh idea); the algorithms' policy is
// in algorithms/policy.hpp. One line each: what it trades, and the measurement that chose it (a
// folder under bench/results/, or a program under bench/tune/), or "unmeasured". Grids are per
// SM, multiplied by the device's SM count at run time (detail::sm_count()), never one GPU's.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tropic::tuning {

// Threads of the grid-stride and one-block kernels; unmeasured.
inline constexpr unsigned block_threads = 256;
// Cap on a grid-stride kernel's blocks (more items loop); unmeasured.
inline constexpr std::size_t max_blocks = 1u << 20;

// Push, merge path: threads of a tile; unmeasured.
inline constexpr int push_threads = 256;
// Push, merge path: arcs per thread (8, or loads first: no faster); h100-run24/sweeps/
inline constexpr int push_items_per_thread = 4;
// Push, merge path: blocks per SM at most (a hub frontier's reach vs idle launches); unmeasured.
inline constexpr unsigned push_max_blocks_per_sm = 16;

// Pull, merge path: tile threads (fewer: more blocks per SM); h100-merge-128x8/
inline constexpr int pull_threads = 128;
// Pull, merge path: items per thread (gathers in flight vs shared memory); same folder.
inline constexpr int pull_items_per_thread = 8;
// Pull, the warps' merge path (a plain SpMV): resident blocks a SM its registers are held to
// (9: 56 registers a thread at 128 threads, 8: 64, 7: 72, 6: 80), the most at which ptxas spills
// nothing for the value's bytes, ⊕ and tile; more spill, fewer cost occupancy. h200-run53/
constexpr int pull_warp_min_blocks(std::size_t value_bytes, bool min_monoid) {
  if (value_bytes <= 4) return min_monoid ? 9 : 8;
  return 8;  // with pull_warp_items' 5
}
// Pull, the warps' merge path: items a lane takes per tile. 8-byte values: 5, so that 8 blocks
// fit without spills (5 x 8 against 8 x 7: kron-20/22 3-7% faster, cnr-2000 2% slower, double
// min-plus; plus-times double faster on all). h200-run53/
constexpr int pull_warp_items(std::size_t value_bytes) {
  return value_bytes <= 4 ? pull_items_per_thread : 5;
}

// Pull, group per row: block threads (128 and 256 within 2%); bench/tune/pull_short_rows.cu
inline constexpr int pull_group_threads = 128;
// Pull, group per row: arcs a lane loads first, sizing the group; bench/tune/pull_short_rows.cu
inline constexpr int pull_group_items = 4;
// Pull, group per row: longest row it is chosen for (a hub would hold its warp); unmeasured.
inline constexpr std::uint64_t pull_group_max_row = 32;

// Pull, live rows: arcs a lane loads before their gathers (loads vs registers); unmeasured.
inline constexpr unsigned pull_live_items = 4;
// Pull, live rows: arcs a lane pulls alone; h100-run26/sweeps/ab-2-lane-first.txt
inline constexpr std::uint64_t pull_live_short = 8;
// Pull, live rows: rest for an 8-lane group; h100-run22/sweeps/ab-4-groups-kron.txt
inline constexpr std::uint64_t pull_live_group_row = 64;
// Pull, live rows: longer rows (hubs) go to pull_long_rows, a block per chunk; unmeasured.
inline constexpr std::uint64_t pull_live_long_row = 32 * pull_live_items * 8;
// Pull, long rows: arcs a block takes; h100-run22/sweeps/ab-6-chunks-kron-a.txt
inline constexpr std::uint64_t pull_long_chunk = 4 * block_threads * pull_live_items;
// Pull, long rows: blocks per SM for the listed chunks; unmeasured.
inline constexpr unsigned pull_long_rows_blocks_per_sm = 8;
// Live-rows choice: samples (cost vs aim); h100-run19/sweeps/ab-pull-floor-2-*.txt
inline constexpr unsigned pull_live_samples = block_threads;
// Live-rows choice: live share at most; h100-run19/sweeps/ab-pull-live-share.txt
inline constexpr double pull_live_share = 0.75;
// Live-rows choice: smaller views keep the merge path; h100-run19/sweeps/
inline constexpr std::uint64_t pull_live_min_arcs = std::uint64_t(1) << 23;
// Live rows: blocks/SM (64 regs for 4-byte values, where ptxas now spills ~50 B, yet 3 blocks
// were slower: h200-run53/); h100-run26/sweeps/ab-3-launch-bounds.txt
template <class W>
inline constexpr int pull_live_min_blocks = sizeof(W) <= 4 ? 4 : 3;

// mxm: lanes of a group, over the k sources (k <= 8: 8 lanes, else a warp); unmeasured.
inline constexpr int mxm_small_group = 8;
// mxm pull: sources a lane holds at once (registers vs passes over a row when k > 32 x this).
inline constexpr int mxm_pull_per_lane = 4;
// mxm pull: arcs of an A' row a group takes (a hub's row shared vs a chunk's atomics); unmeasured.
inline constexpr std::uint64_t mxm_pull_chunk = 128;

// mxm closure: steps launched per host read of the frontier's length at most (round trips vs
// empty steps after the last; doubling from 4); unmeasured.
inline constexpr unsigned mxm_closure_round_steps = 16;

// Direction: skewed when the longest row is this x the mean (Kronecker, web, social); unmeasured.
inline constexpr double skewed_degree_ratio = 16;
// Direction: count a frontier's arcs (a round trip) only above n / this rows; unmeasured.
inline constexpr std::uint64_t arc_count_rows_ratio = 64;

// Device-driven loop: persistent blocks per SM; h100-run27/sweeps/ab-4-blocks-rounds.txt
inline constexpr unsigned device_loop_blocks_per_sm = 2;
// ... for a wide wavefront (algorithms' policy): 3 at 80 registers (4-byte values spill nothing);
// grids of 9-34M vertices 0.93-0.94x, where USA-road-NY, mdual and kron-20 lost 1-5%
// (bench/results/h200-run58/NOTES.md)
inline constexpr unsigned device_loop_wide_blocks_per_sm = 3;
// Closure: rows of a block's shared-memory queue; 128 to 512 rows were within 3% of each other on
// the grids, USA-road-NY and mdual (bench/results/h200-run54/NOTES.md and h200-run57's queue
// sweeps); cnr-2000's loss once put on 512 rows came from push_row's arc loop
// (bench/results/h200-run58/NOTES.md).
inline constexpr unsigned closure_queue_items = 192;
// Closure: local rounds per grid barrier; h100-run27/sweeps/closure-sweep.txt
inline constexpr unsigned closure_local_rounds = 16;
// Closure: local rounds only from a frontier of at most this many rows per SM; unmeasured.
inline constexpr std::size_t closure_local_frontier_per_sm = 256;

}  // namespace tropic::tuning
