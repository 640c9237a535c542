// RDBS (algorithms/rdbs.cu) knobs and report, for tests and experiments; sssp() uses the
// defaults, which live in algorithms/policy.hpp (tropic::policy::rdbs). Plain C++ (no device
// code), GPU builds only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "policy.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/operators.hpp"
#include "tropic/sssp.hpp"

namespace tropic::detail {

struct rdbs_config {
  bool reorder = policy::rdbs::reorder;  // section 4.1: renumber vertices by descending degree
  // Section 4.3, Eq. 1-2: per-bucket delta (off: delta_0 always).
  bool dynamic_delta = policy::rdbs::dynamic_delta;
  // The buckets' width follows Eq. 2's delta in steps of 2^(1 / this); 0: at every change.
  unsigned delta_steps_per_octave = policy::rdbs::delta_steps_per_octave;
  // The automatic delta_0 scales down on shallow graphs of more arcs than this (0: never; see
  // policy::rdbs::delta0_reference_arcs).
  double delta0_reference_arcs = policy::rdbs::delta0_reference_arcs;
  // The heavy phase (section 4.2 pushes it): automatic pulls a large settled bucket where A' is
  // at hand, by the direction rule of delta_stepping's heavy step; push is the paper's.
  direction heavy_direction = direction::automatic;
  unsigned max_worker_blocks = 0;  // 0: every block the occupancy API says fits
  std::size_t list_capacity = 0;   // 0: sized from the graph; else every work list gets this many
  // On a full work list: grow 4x and redo the light phase, this many times.
  int overflow_retries = policy::rdbs::overflow_retries;
  double watchdog_ms = policy::rdbs::watchdog_ms;  // device: bound on one light phase
  unsigned idle_sleep_ns = policy::rdbs::idle_sleep_ns;  // an idle worker's longest sleep
};

struct rdbs_report {
  double reorder_ms = 0;     // the degree renumbering (inside stats.milliseconds)
  double initial_delta = 0;  // delta_0
  double min_delta = 0, max_delta = 0, final_delta = 0;
  std::uint64_t delta_changes = 0;     // buckets whose width differed from the previous one
  std::uint64_t light_phases = 0;      // asynchronous light-phase launches
  std::uint64_t heavy_steps = 0;       // synchronous heavy steps
  std::uint64_t heavy_pulls = 0;       // of which pulls (the direction rule)
  std::uint64_t overflow_retries = 0;  // light phases redone after a full work list
  std::uint64_t threads_used = 0;      // sum over light items of their thread group size (T)
  std::uint64_t small_items = 0, middle_items = 0, large_items = 0;  // per workload list
  unsigned worker_blocks = 0;
  bool reordered = false;
  // With a report or options::verbose: each part of the solve's time (CUDA events around it,
  // each part then waited for), inside stats.milliseconds. setup: the work lists and distances.
  double setup_ms = 0, light_ms = 0, heavy_ms = 0, select_ms = 0, split_ms = 0;
  double wait_share = 0;  // of worker blocks' light-phase time, looking for a batch
  std::uint64_t batches = 0;
};

// Eq. 2's delta rounded to a step of 2^(1 / steps) times delta_0 (steps 0: delta itself): the
// buckets' width, which moves every row's light/heavy split only when it changes.
inline double rdbs_stepped_delta(double delta, double delta0, unsigned steps) {
  if (steps == 0 || !(delta > 0) || !(delta0 > 0) || !std::isfinite(delta)) return delta;
  return delta0 * std::exp2(std::round(std::log2(delta / delta0) * steps) / steps);
}

// The automatic delta_0 scaled by sqrt(reference / arcs), within [delta0_least_scale, 1], on a
// shallow graph (probe_levels at most policy::rdbs::shallow_probe_levels) of more arcs than
// `reference`; never below the lightest positive arc, choose_delta's floor (a narrower bucket
// only adds empty ones).
inline double rdbs_scaled_delta0(double delta0, double arcs, std::uint32_t probe_levels,
                                 double min_weight, double reference) {
  if (!(reference > 0) || !(arcs > reference) ||
      probe_levels > policy::rdbs::shallow_probe_levels)
    return delta0;
  const double scale = std::max(std::sqrt(reference / arcs), policy::rdbs::delta0_least_scale);
  return std::max(delta0 * scale, std::min(delta0, min_weight));
}

template <class W>
result<W> rdbs_sssp_configured(const device_matrix<W>& a, vertex source, const options& opts,
                               const rdbs_config& cfg, rdbs_report* report = nullptr);

}  // namespace tropic::detail
