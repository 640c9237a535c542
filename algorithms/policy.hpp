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

// ADDS (algorithms/adds*.cu).
namespace adds {}  // namespace adds

// RDBS (algorithms/rdbs*.cu).
namespace rdbs {}  // namespace rdbs

}  // namespace tropic::policy
