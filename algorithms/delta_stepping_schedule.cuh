// The adaptive schedule of delta-stepping's bucket loop (delta_stepping.cu): the width Δ, the
// direction of a light step, and when the loop goes to the GPU. The loop does the algebra and asks
// the schedule at three points -- before a light step, after it, at a bucket's end -- and the
// schedule keeps what its four policies remember between them. Constants: policy.hpp.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "bucket_bounds.cuh"
#include "policy.hpp"
#include "tropic/device_loop.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/operators.hpp"
#include "tropic/sssp.hpp"

namespace tropic::detail {

template <class W>
class delta_stepping_schedule {
 public:
  enum class action {
    go_on,      // the next light step, or the next bucket
    hand_over,  // the GPU-driven loop takes bucket i over (its light loop resumes from B)
    narrow,     // Δ narrowed: bucket i is selected again from its lower end, under the new Δ
    widen,      // Δ = ∞ from the next bucket's lower end: one last bucket, every arc light
  };

  // dir: the light and heavy steps' direction as configured (automatic unless pinned).
  delta_stepping_schedule(const device_matrix<W>& A, const options& opts,
                          const closure_limits& closure, direction dir)
      : buckets_(initial_width(A.stats(), opts, closure)),
        max_weight_(A.stats().max_weight),
        n_(double(A.rows())),
        mean_degree_(A.rows() ? double(A.arcs()) / A.rows() : 0),
        with_arcs_(double(A.rows()) - double(A.stats().isolated)),
        dir_(dir),
        may_hand_over_(opts.loop == loop_control::automatic),
        from_start_(opts.loop == loop_control::device ||
                    (opts.loop == loop_control::automatic &&
                     (A.stats().probe_levels > policy::delta_stepping::device_loop_probe_levels ||
                      small_graph(A, opts)))),
        device_driven_(from_start_),
        may_narrow_(!(opts.delta > 0) && opts.algorithm != algorithm::bellman_ford &&
                    factor(A.stats(), closure) ==
                        policy::delta_stepping::automatic_delta_factor_rounds),
        // A cutoff keeps the search to its ball: no Bellman-Ford over the rest of the graph.
        may_widen_tail_(!(opts.delta > 0) && opts.algorithm != algorithm::bellman_ford &&
                        opts.algorithm != algorithm::edge_wise &&
                        !(opts.cutoff < std::numeric_limits<double>::infinity())) {}

  const bucket_bounds<W>& buckets() const { return buckets_; }
  // AH = A .* (A > Δ) holds arcs. Strictly lighter in double: a weight rounded into double
  // (64-bit integers) is then still at most the light part's limit.
  bool has_heavy() const { return !std::isinf(buckets_.delta) && !(max_weight_ < buckets_.delta); }
  // The GPU drives buckets i, i+1, ...: from the start (loop_control::device, or a deep or small
  // graph under automatic), or handed over.
  bool device_driven() const { return device_driven_; }
  bool handed_over() const { return device_driven_ && !from_start_; }
  // The operators' tally of push and pull calls, which the hysteresis reads.
  op_counters* counters() { return &counters_; }

  // Bucket i begins: the previous bucket's S joins the settled count; no light step pulled yet.
  void begin_bucket() {
    settled_ += settled_here_;
    settled_here_ = 0;
    pulled_ = false;
  }

  // Direction-optimising hysteresis (Beamer et al., SC'12, section 3): after a pull, the
  // bucket's light steps keep pulling while B holds more than n / pull_stay_rows_ratio rows. A
  // pull reads each row only up to its bound, which tightens as the bucket settles; a push reads
  // every arc of B's rows.
  direction light_direction(std::size_t rows) {
    pulls_before_ = counters_.pull_calls;
    const bool stay = pulled_ && dir_ == direction::automatic &&
                      double(rows) * policy::delta_stepping::pull_stay_rows_ratio > n_;
    return stay ? direction::pull : dir_;
  }

  // After a light step from `rows` rows: the next step, the hand-over, or a narrower Δ.
  action after_light_step(std::size_t rows) {
    pulled_ = counters_.pull_calls > pulls_before_;
    small_steps_ = double(rows) * mean_degree_ < policy::delta_stepping::device_loop_step_arcs
                       ? small_steps_ + 1
                       : 0;
    const bool growing =
        double(rows) > policy::delta_stepping::device_loop_growth * double(last_rows_);
    growing_steps_ = growing ? growing_steps_ + 1 : 0;
    last_rows_ = rows;
    device_driven_ = hand_over_now(growing);
    if (narrow_now(rows)) {
      may_narrow_ = false;
      wide_search_ = true;
      buckets_ =
          bucket_bounds<W>(buckets_.delta / policy::delta_stepping::automatic_delta_factor_rounds);
      return action::narrow;
    }
    return device_driven_ ? action::hand_over : action::go_on;
  }

  // S, bucket i's settled vertices, was selected for its heavy step.
  void settled_in_bucket(std::size_t rows) { settled_here_ = rows; }

  // Bucket i = [.., upper) ended; the next non-empty one is selected already with next_rows rows
  // when it is bucket i+1 (else 0): the next bucket, or the widened tail.
  action at_bucket_end(std::uint64_t i, W upper, std::size_t next_rows) {
    if (!widen_tail_now(i, next_rows)) return action::go_on;
    may_widen_tail_ = false;
    may_narrow_ = false;  // narrowing rebuilds the buckets from 0: not past a widened origin
    wide_search_ = true;  // the host drives the widened bucket (a few big steps) to the end
    buckets_ = bucket_bounds<W>::from(upper);
    return action::widen;
  }

 private:
  // The automatic Δ: a multiple of the Near-Far heuristic, wider where the closure's local
  // rounds make a light step cheap, the heuristic's own on graphs of long rows.
  static double factor(const graph_stats& s, const closure_limits& closure) {
    namespace p = policy::delta_stepping;
    return s.avg_degree >= p::automatic_delta_max_degree ? 1.0
           : closure.local_rounds > 0                    ? p::automatic_delta_factor_rounds
                                                         : p::automatic_delta_factor;
  }
  // Bellman-Ford is one bucket.
  static double initial_width(const graph_stats& s, const options& opts,
                              const closure_limits& closure) {
    if (opts.algorithm == algorithm::bellman_ford) return std::numeric_limits<double>::infinity();
    return opts.delta > 0 ? opts.delta : factor(s, closure) * choose_delta(s);
  }

  // A graph small enough for the GPU-driven loop from the start (policy::delta_stepping::
  // device_loop_small_vertices), as measured: delta-stepping's automatic Δ, not Bellman-Ford.
  static bool small_graph(const device_matrix<W>& A, const options& opts) {
    namespace p = policy::delta_stepping;
    return !(opts.delta > 0) && opts.algorithm != algorithm::bellman_ford &&
           A.rows() < p::device_loop_small_vertices && A.arcs() <= p::device_loop_small_arcs;
  }

  // Hand the loop to the GPU once device_loop_small_steps light steps in a row were each too
  // small to pay for their round trip (|B| x mean degree < device_loop_step_arcs) and the last
  // did not grow the frontier: a search still expanding from its source soon needs the pulls
  // the GPU-driven loop lacks. Bucket i may be handed over mid-way: its light loop goes on from B.
  bool hand_over_now(bool growing) const {
    return may_hand_over_ && !wide_search_ &&
           small_steps_ >= policy::delta_stepping::device_loop_small_steps && !growing;
  }

  // Narrow the automatic Δ (x automatic_delta_factor_rounds) back to the heuristic's once the
  // frontier grew geometrically for narrow_growing_steps steps to narrow_min_rows rows, which
  // lattice-like graphs (frontiers ~ hops or hops^2) do not reach in a few steps: a short, wide
  // search, which then stays with the host. Any bucket structure is correct from a point below
  // which every distance is settled, so bucket i starts again from its lower end.
  bool narrow_now(std::size_t rows) const {
    return may_narrow_ && growing_steps_ >= policy::delta_stepping::narrow_growing_steps &&
           rows >= policy::delta_stepping::narrow_min_rows;
  }

  // Finish a short, wide search (Kronecker graphs) as one bucket [(i+1)Δ, ∞), every arc light,
  // i.e. Bellman-Ford from the settled vertices on, once the first buckets left
  // widen_tail_reached_share of the vertices with arcs settled or in the next bucket: its tail
  // of ever smaller buckets then costs more round trips than the few arcs Bellman-Ford adds. A
  // long search (grids, roads) never reaches that share within widen_tail_within_buckets.
  bool widen_tail_now(std::uint64_t i, std::size_t next_rows) const {
    return may_widen_tail_ && has_heavy() &&
           i + 1 < policy::delta_stepping::widen_tail_within_buckets &&
           double(settled_ + settled_here_ + next_rows) >=
               policy::delta_stepping::widen_tail_reached_share * with_arcs_;
  }

  bucket_bounds<W> buckets_;
  const double max_weight_, n_, mean_degree_, with_arcs_;
  const direction dir_;
  const bool may_hand_over_, from_start_;
  bool device_driven_;
  bool may_narrow_, may_widen_tail_;
  bool wide_search_ = false;  // narrowed or widened once: the host drives to the end
  // Hysteresis: did the bucket's last light step pull?
  op_counters counters_;
  std::uint64_t pulls_before_ = 0;
  bool pulled_ = false;
  // Hand-over and narrowing: the last light steps' sizes.
  unsigned small_steps_ = 0, growing_steps_ = 0;
  std::size_t last_rows_ = 0;
  // Widened tail: vertices settled in the buckets before i, and in bucket i (its last S).
  std::uint64_t settled_ = 0;
  std::size_t settled_here_ = 0;
};

}  // namespace tropic::detail
