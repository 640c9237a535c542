// Delta-stepping in the min-plus algebra (Meyer & Sanders' buckets, written as GraphBLAS
// operations after Sridhar et al., "Delta-stepping SSSP: from Vertices and Edges to GraphBLAS
// Implementations", 2019; the pseudo-code is quoted in DESIGN.md).
//
// Light and heavy arcs are the masked views AL = A .* (A <= Δ) and AH = A .* (A > Δ) of one
// weight-sorted matrix (light_heavy_split: one pass over the rows). Each line of the loop is one
// operator call. Bellman-Ford is the same code with Δ = ∞: one bucket, every arc light.
//
// Two drivers of the same loop (options.loop, issue #4):
//  - host-driven: one counter read per light iteration (the size of the next B, fused into the
//    push) and three per bucket (S, the heavy step's stragglers, the next bucket's lower end);
//    push or pull and the load-balanced push are chosen per step from the frontier's size. Right
//    for big frontiers (Kronecker graphs: 5 buckets, 21 steps of millions of arcs).
//  - device-driven: the same loop as one persistent kernel (bucket_loop below), each line a
//    grid-wide device form of the operator (semiring/device_loop.cuh), the grid kept in step by
//    grid barriers; each bucket's light loop is the closure (vxm_closure's steps: a grid barrier
//    per step, local rounds in each block between them). Right for long, thin searches (a 2048 x
//    2048 grid: ~50 buckets at the automatic Δ, thousands of light steps of a few thousand arcs
//    each, where the host-driven loop spends ~60 µs per step waiting and a graph node per step
//    ~8 µs, bench/RESULTS.md).
//
// Correctness does not depend on the bucket arithmetic being exact: a heavy arc that lands back
// in the current bucket (possible only through floating-point rounding of the bucket bounds)
// is caught by the heavy step's `improved` output and sent through the light loop again.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include "bucket_bounds.cuh"
#include "delta_stepping_device.cuh"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"
#include "policy.hpp"

namespace tropic::detail {

template <class W>
result<W> delta_stepping_configured(const device_matrix<W>& A, vertex source, const options& opts,
                                    const closure_limits& closure, const descriptor& base) {
  const vertex n = A.rows();
  const bool bellman_ford = opts.algorithm == algorithm::bellman_ford;
  cuda_stream stream;
  gpu_context ctx(stream);
  const double factor = A.stats().avg_degree >= policy::delta_stepping::automatic_delta_max_degree ? 1.0
                        : closure.local_rounds > 0 ? policy::delta_stepping::automatic_delta_factor_rounds
                                                   : policy::delta_stepping::automatic_delta_factor;
  const double delta = opts.delta > 0 ? opts.delta : factor * choose_delta(A.stats());
  bucket_bounds<W> buckets(bellman_ford ? std::numeric_limits<double>::infinity() : delta);
  // The automatic Δ narrows back to the heuristic's once, for a short, wide search (below).
  bool may_narrow = !(opts.delta > 0) && !bellman_ford && factor == policy::delta_stepping::automatic_delta_factor_rounds;
  const min_plus<W> min_plus_semiring;
  descriptor desc = base;  // push/pull chosen per call from the frontier size
  if (opts.algorithm == algorithm::edge_wise) {
    // Hohne et al.: every request generated edge-parallel (semiring/push_edge_wise.cuh); the
    // paper never pulls. gpu_dispatch pins the host-driven loop and builds A.arc_sources().
    desc.balance = load_balance::edge_wise;
    desc.dir = direction::push;
  }
  op_counters counters;

  dense_vector<W> t(n, stream);
  sparse_vector<W> B(n, stream), tB(n, stream), S(n, stream);

  result<W> out;
  statistics& st = out.stats;
  st.algorithm = algorithm_name(opts.algorithm);
  st.delta = buckets.delta;

  cuda_timer timer(stream);
  // AL = A .* (A <= Δ), AH = A .* (A > Δ): per-row split offsets, one pass over the rows.
  std::optional<light_heavy_split<W>> split;
  split.emplace(A, buckets.delta, ctx);
  // Every arc lighter than Δ (a grid's weights up to 1000 under Δ = 4000): no heavy step, and no
  // select of S for it. Strictly lighter in double: a weight rounded into double (64-bit
  // integers) is then still at most the light part's limit.
  auto any_heavy = [&] {
    return !std::isinf(buckets.delta) && !(A.stats().max_weight < buckets.delta);
  };
  bool has_heavy = any_heavy();

  // t = ∞; t[s] = 0
  assign(t, no_mask<W>(), infinity<W>(), false, ctx);
  {
    sparse_vector<W> s(1, stream);
    s.upload({source}, {W(0)});
    assign(t, s, ctx);
  }

  // Host-driven until policy::delta_stepping::device_loop_small_steps light steps in a row were each too small
  // to pay for their round trip (policy::delta_stepping::device_loop_step_arcs, estimated as |B| x mean degree)
  // and the last did not grow the frontier more than policy::delta_stepping::device_loop_growth times (a short,
  // wide search still expanding from its source is about to need the pulls the device-driven
  // loop lacks); then the GPU drives from bucket i on (selecting bucket i afresh is correct at
  // any point: its settled vertices are merely relaxed again).
  const double mean_degree = n ? double(A.arcs()) / n : 0;
  bool device_driven = opts.loop == loop_control::device;
  unsigned small_steps = 0, growing_steps = 0;
  std::size_t last_rows = 0;
  bool narrowed = false;     // this bucket is selected again under the heuristic's Δ
  bool wide_search = false;  // narrowed or widened once: the host drives to the end
  // The tail of a short, wide search finishes as one bucket (below).
  bool may_widen_tail =
      !(opts.delta > 0) && !bellman_ford && opts.algorithm != algorithm::edge_wise;
  std::uint64_t settled = 0;  // vertices of the buckets finished so far (their S)
  const double with_arcs = double(n) - double(A.stats().isolated);
  std::uint64_t i = 0;
  bool selected = false;  // B holds bucket i already: selected with the step to it
  for (;;) {
    if (device_driven) {
      // From the start (loop_control::device) bucket 0 is selected; after a hand-over the light
      // loop of bucket i goes on from B.
      const bool handed_over = opts.loop != loop_control::device;
      device_driven_buckets(A, *split, buckets, has_heavy, i, handed_over ? &B : nullptr, t, ctx,
                            closure, st);
      break;
    }
    const value_range<W> bucket = buckets.range(i);  // [iΔ, (i+1)Δ)
    ++st.buckets;
    // B = { v : iΔ <= t[v] < (i+1)Δ }
    if (!selected) select(B, t, bucket, ctx);
    selected = false;
    bool pulled = false;  // the bucket's last light step pulled
    std::size_t settled_here = 0;
    do {
      while (B.nvals() > 0 && !device_driven) {
        // tB = t .* B
        gather(tB, t, B, ctx);
        st.vertices_relaxed += tB.nvals();
        // Direction-optimising hysteresis (Beamer et al., SC'12, section 3; LAGraph's BFS makes
        // the same choice in the algorithm): after a pull, the bucket's next light steps pull
        // while B holds more than n / policy::delta_stepping::pull_stay_rows_ratio rows. Each pull reads its
        // rows only up to their bounds (row_bound), which tighten as the bucket settles, while
        // a push reads all of B's arcs: kron-22's eighth step, 656k rows after three pulls,
        // pushed 7.9M arcs (0.31 ms) where a pull reads 0.5M within the bounds. With the rows'
        // lightest weights (csr_view::row_least) beside it: kron-22 5.10 -> 4.81 and 5.93 ->
        // 5.98 ms, kron-20 2.41 -> 2.27 and 2.47 -> 2.57 (medians of four passes in one call,
        // H100, 2026-11-25); without them it was mixed (-8% .. +11% by graph).
        descriptor step = desc;
        if (pulled && desc.dir == direction::automatic &&
            double(tB.nvals()) * policy::delta_stepping::pull_stay_rows_ratio > double(n))
          step.dir = direction::pull;
        const std::uint64_t pulls = counters.pull_calls;
        // t = min(t, AL' min.+ tB);  B = { v : r[v] < t[v], iΔ <= r[v] < (i+1)Δ }
        vxm(t, no_mask<W>(), accumulator::min, min_plus_semiring, tB, light(A, *split), step,
            ctx, &B, bucket, &counters);
        pulled = counters.pull_calls > pulls;
        ++st.iterations;
        const std::size_t rows = tB.nvals();
        small_steps = double(rows) * mean_degree < policy::delta_stepping::device_loop_step_arcs
                          ? small_steps + 1
                          : 0;
        const bool growing = double(rows) > policy::delta_stepping::device_loop_growth * double(last_rows);
        growing_steps = growing ? growing_steps + 1 : 0;
        last_rows = rows;
        device_driven = opts.loop == loop_control::automatic && !wide_search &&
                        small_steps >= policy::delta_stepping::device_loop_small_steps && !growing;
        // A frontier that kept growing geometrically to a size no lattice-like graph reaches
        // in a few steps: a short, wide search, whose best Δ is the heuristic's own and whose
        // loop stays with the host (its next buckets hold millions of vertices, which the
        // device-driven loop cannot pull): host-driven uniform random graphs of out-degree 4 /
        // 7 / 12 took 4.3 / 4.7 / 6.1 ms at x1 against 5.8 / 6.6 / 7.7 at x4, and at x1 handed
        // over 6.2 / 6.4 / 10.9 (bench/results/2026-11-24-h100-run12/sweeps/). Bucket i is
        // selected again under the narrower Δ from its lower end: any bucket structure is
        // correct from a point where every lower distance is settled.
        if (may_narrow && growing_steps >= policy::delta_stepping::narrow_growing_steps &&
            rows >= policy::delta_stepping::narrow_min_rows) {
          may_narrow = false;
          wide_search = true;
          narrowed = true;
          const W lower = bucket.lo;
          buckets = bucket_bounds<W>(buckets.delta / policy::delta_stepping::automatic_delta_factor_rounds);
          i = buckets.index_of(lower);
          split.emplace(A, buckets.delta, ctx);
          has_heavy = any_heavy();
          st.delta = buckets.delta;
          break;
        }
      }
      if (narrowed || !has_heavy || device_driven) break;
      // S = { v : iΔ <= t[v] < (i+1)Δ }: every vertex settled in bucket i (with its distance)
      select(S, t, bucket, ctx);
      st.vertices_relaxed += S.nvals();
      settled_here = S.nvals();  // the last selection: a float bucket may repeat its light loop
      // t = min(t, AH' min.+ (t .* S)); B = stragglers back in bucket i (rounding only). With
      // integer weights and a bucket closed above there are none -- t[v] >= iΔ and w > Δ make
      // t[v] + w > (i+1)Δ -- so the step lists nothing and costs no round trip (B is empty:
      // the light loop ended). The last bucket, open above (its bound saturated), keeps them.
      const bool stragglers = !std::is_integral_v<W> || bucket.hi == infinity<W>();
      vxm(t, no_mask<W>(), accumulator::min, min_plus_semiring, S, heavy(A, *split), desc, ctx,
          stragglers ? &B : nullptr, bucket, &counters);
    } while (B.nvals() > 0);
    settled += settled_here;
    if (device_driven || narrowed) {
      --st.buckets;  // bucket i is counted again by the device-driven loop, or when reselected
      narrowed = false;
      continue;
    }

    // Skip empty buckets: i = bucket of min{ t[v] : t[v] >= (i+1)Δ }. The same round trip
    // selects B = { v : (i+1)Δ <= t[v] < (i+2)Δ }: bucket i+1, right when it is the next
    // non-empty one (every bucket of kron-22's solves), and empty, to be selected afresh, when
    // it is not.
    if (bucket.hi == infinity<W>()) break;
    const W next = select_reduce_min(B, t, buckets.range(i + 1),
                                     value_range<W>{bucket.hi, infinity<W>()}, ctx);
    if (next == infinity<W>()) break;
    const std::uint64_t following = buckets.index_of(next);
    selected = following == i + 1;
    // A short, wide search (Kronecker graphs: ~99.9% of the vertices with arcs settled or in
    // the next bucket after the first one) finishes as one bucket [(i+1)Δ, ∞) with every arc
    // light, i.e. as Bellman-Ford from the settled vertices on: its tail of buckets, a few
    // hundred thousand rows of few light arcs and then ever fewer, took 11-12 steps, 4 selects of
    // S, 4 advances and ~16 host round trips (76 small kernels, 0.62 / 0.55 ms of kron-22's two
    // solves, ncu, H100, 2026-11-25) where one bucket takes 3 light steps (the CPU model,
    // bench/tune/pull_bound_model.cpp). A long search (grids, roads) never has that share
    // within policy::delta_stepping::widen_tail_within_buckets buckets; Bellman-Ford over one's remainder
    // relaxes many times the arcs delta-stepping does. Measured (H100, 2026-11-25, two A/B
    // passes, scripts/device-ab.sh): kron-22 4.23/4.32 -> 3.61/3.78 ms and 5.70/5.46 ->
    // 4.77/4.88 ms on its two bench sources (5 -> 2 buckets, 39 -> 25 round trips, +0.002% arcs),
    // kron-20 -17 to -24%; uniform, grid, NY, cnr, Slashdot, mdual unchanged within noise.
    if (may_widen_tail && has_heavy && i + 1 < policy::delta_stepping::widen_tail_within_buckets &&
        double(settled + (selected ? B.nvals() : 0)) >=
            policy::delta_stepping::widen_tail_reached_share * with_arcs) {
      may_widen_tail = false;
      may_narrow = false;  // narrowing rebuilds the buckets from 0: not past a widened origin
      wide_search = true;  // the host drives the widened bucket (a few big steps) to the end
      buckets = bucket_bounds<W>::from(bucket.hi);
      split.emplace(A, buckets.delta, ctx);
      has_heavy = any_heavy();
      st.widened_at = double(bucket.hi);
      i = 0;
      selected = false;
      continue;
    }
    i = following;
  }
  st.milliseconds = timer.elapsed_ms();
  st.host_round_trips = ctx.round_trips;
  st.arcs_relaxed = ctx.read_arcs_scanned();
  finish_result(A, t.data(), source, opts, out, stream);
  return out;
}

template <class W>
result<W> delta_stepping_sssp(const device_matrix<W>& A, vertex source, const options& opts) {
  closure_limits closure;
  // Local rounds pay on graphs of short rows (roads, grids, meshes), not on web graphs with hubs
  // (policy::delta_stepping::closure_local_rounds_max_degree).
  if (A.stats().max_degree > policy::delta_stepping::closure_local_rounds_max_degree) closure.local_rounds = 0;
  return delta_stepping_configured(A, source, opts, closure, descriptor{});
}

#define TROPIC_INSTANTIATE(W)                                                                \
  template result<W> delta_stepping_configured<W>(                                           \
      const device_matrix<W>&, vertex, const options&, const closure_limits&, const descriptor&); \
  template result<W> delta_stepping_sssp<W>(const device_matrix<W>&, vertex, const options&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
