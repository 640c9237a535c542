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
// x4 with local rounds: fewer, wider buckets; bench/results/*-run27/sweeps/closure-sweep.txt
inline constexpr double automatic_delta_factor_rounds = 4;
// x2 without them (hubs); bench/results/*-run11/sweeps/closure-sweep-2-factor-rounds-lanes.txt
inline constexpr double automatic_delta_factor = 2;
// x1 from this mean degree on: wide buckets cost passes; bench/results/*-run6/summary.md
inline constexpr double automatic_delta_max_degree = 16;

// Pull hysteresis (Beamer et al.'s beta; a pull reads rows only up to their bounds):
// keep pulling while |B| > n / this; bench/results/*-run24/sweeps/ab-1-rowleast.txt
inline constexpr double pull_stay_rows_ratio = 24;

// Hand-over to the GPU-driven loop, which never pulls, once light steps are small:
// a step under this many arcs (|B| x mean degree) costs less than a round trip; unmeasured
inline constexpr double device_loop_step_arcs = 1 << 20;
// ... this many such steps in a row: not on a source's first small steps; unmeasured
inline constexpr unsigned device_loop_small_steps = 8;
// ... the last grew B at most this much; bench/results/*-run12/sweeps/ab-4-handover-growth.txt
inline constexpr double device_loop_growth = 2;

// Narrowing Δ (x4 back to x1) for a short, wide search, whose frontier grows geometrically:
// after this many growing steps; bench/results/*-run13/sweeps/ab-5-narrow-wide-searches.txt
inline constexpr unsigned narrow_growing_steps = 3;
// ... to this many rows; bench/results/*-run13/sweeps/ab-5-narrow-wide-searches.txt
inline constexpr std::size_t narrow_min_rows = 1024;

// Widened tail (one last bucket [(i+1)Δ, ∞), every arc light) for a short, wide search:
// within this many first buckets (no long search); bench/results/*-run26/sweeps/ab-1-wide-tail.txt
inline constexpr std::uint64_t widen_tail_within_buckets = 4;
// ... this share of vertices settled or next; bench/results/*-run26/sweeps/ab-1-wide-tail.txt
inline constexpr double widen_tail_reached_share = 0.95;

// The closure's local rounds pay on short rows (roads, grids, meshes), not on hubs:
// up to this max degree only; bench/results/*-run10/sweeps/anatomy-3-rounds.txt
inline constexpr std::uint64_t closure_local_rounds_max_degree = tuning::block_threads;
}  // namespace delta_stepping

// ADDS (algorithms/adds*.cu).
namespace adds {}  // namespace adds

// RDBS (algorithms/rdbs*.cu).
namespace rdbs {}  // namespace rdbs

}  // namespace tropic::policy
