// graphblas_cpu: delta-stepping SSSP written in SuiteSparse:GraphBLAS operations (CPU, every
// core through GraphBLAS's OpenMP). The algebra is the one of DESIGN.md (Sridhar et al., "Delta-
// stepping SSSP: from Vertices and Edges to GraphBLAS Implementations", 2019), the behaviour that
// of LAGraph's LAGr_SingleSourceShortestPath; the code is ours.
//
// Vectors (length n):
//   t  dense, tentative distances, infinity<W>() where unreached
//   R  sparse, the reached vertices not yet settled by a finished bucket, with their t values
//   B  sparse, the frontier: vertices of the current bucket whose t improved, with their t
//   S  sparse, the vertices settled by the current light phase, with their t
//   r  sparse, the relaxation result of one vxm
// Buckets are [k delta, (k+1) delta). Only non-empty ones are visited: the next bucket is the
// one holding min(R). For integer W a fractional delta still means those real intervals; a
// bucket's upper end is then ceil((k+1) delta) (the integers below (k+1) delta).
//
// Light and heavy arcs: AL = A .* (A <= delta), AH = A .* (A > delta). The textbook loop
// relaxes AH once per bucket, which is right only if no heavy arc can land inside the bucket it
// leaves. That holds in exact arithmetic, but not always with float rounding of the bucket ends;
// so a heavy relaxation that does land inside the bucket reopens the light phase with those
// vertices (almost never taken; it keeps the answer exact for any delta).
//
// Overflow: GraphBLAS's integer PLUS wraps around. Before solving we bound every sum the loop can
// form: a tentative distance is the length of a simple path (t only decreases, so a relaxation
// that closes a cycle never improves anything), whose arcs leave distinct vertices, so every
// t[u] + w(u, v) is at most sum_u max_w(u). If that bound is below infinity<W>(), nothing can
// wrap or reach infinity and the built-in MIN_PLUS semiring is exact. Otherwise integer types
// switch to a user-defined saturating PLUS (slower, generic kernels), floats saturate to inf by
// themselves, and a pass over the arcs after the solve throws error_code::overflow when a reached
// vertex has an arc to an unreached one, i.e. when a true distance is not representable.
//
// Negative arcs (signed and float W): Bellman-Ford's rounds in the same algebra, as LAGraph's
// LAGraph_BF_* do: Δ = ∞ (one bucket, AL = A), so each light round is r = B min.+ A over the
// vertices the previous round improved. Round n improving anything proves a reachable negative
// cycle (after round k, t is at most the lightest walk of k arcs; CLRS 24.1): the loop stops
// there and throw_negative_cycle names a vertex on it. The overflow bound above assumes simple
// paths; with negative arcs t holds walks of at most n arcs, bounded by (n + 1) times the
// heaviest and the lightest weight, and the user-defined PLUS also clamps at W's lowest value.
//
// Parents: a breadth-first pass from the source over tight arcs (dist[u] + w == dist[v]), so the
// tree is acyclic even with zero-weight cycles.
//
// Statistics: iterations counts light rounds (one vxm with AL each), vertices_relaxed and
// arcs_relaxed are exact (|frontier| and the frontier's light or heavy out-degrees, summed),
// setup_milliseconds is the import of the CSR into a GrB_Matrix, milliseconds everything after
// it (light/heavy split, solve, extraction of the distances, parents, overflow pass).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "graphblas_cpu_common.hpp"
#include "tropic/csr.hpp"
#include "tropic/detail/backends.hpp"
#include "tropic/detail/cutoff.hpp"
#include "tropic/detail/graphblas_session.hpp"
#include "tropic/error.hpp"
#include "tropic/sssp.hpp"

namespace tropic::detail {

using namespace gb;

template <class W>
result<W> graphblas_cpu_sssp(const csr<W>& g, vertex source, const options& opts) {
  using T = grb<W>;
  ensure_graphblas();
  if (source >= g.n)
    throw error(error_code::invalid_index, "graphblas_cpu: source " + std::to_string(source) +
                                               " is not below n = " + std::to_string(g.n));
  const GrB_Index n = g.n;
  result<W> out;
  out.stats.algorithm = "graphblas_cpu";

  // --- setup: the CSR becomes a GrB_Matrix (GraphBLAS copies; its column ids are 64-bit) ----
  auto start = std::chrono::steady_clock::now();
  matrix_handle a;
  GrB_Index m = 0;
  {
    // GraphBLAS forbids two entries in one position: parallel arcs (which a csr may hold) are
    // merged here keeping the lightest, and self-loops, which never shorten a path, dropped.
    const graphblas_rows<W> rows = to_graphblas_rows(g);
    m = rows.columns.size();
    const std::vector<W>& weights = rows.offsets.empty() ? g.weights : rows.weights;
    // GraphBLAS wants non-null arrays even when there are no entries.
    const GrB_Index no_column = 0;
    const W no_weight = 0;
    graphblas_check(import_matrix<W>(a.out(), n, rows.offsets.empty() ? g.row_offsets.data()
                                                               : rows.offsets.data(),
                              m ? rows.columns.data() : &no_column,
                              m ? weights.data() : &no_weight, m),
                    "GrB_Matrix_import");
  }
  // Δ and the overflow check read the graph, not the GraphBLAS matrix: setup, as the GPU path's
  // upload (device_matrix computes the same statistics there), not the solve.
  // Negative arcs: Bellman-Ford's rounds (one bucket), whatever Δ was asked for.
  const bool negative = has_negative_arc(g);
  double delta = negative ? std::numeric_limits<double>::infinity() : opts.delta;
  if (delta == 0) delta = choose_delta(compute_stats(g));
  if (!(delta > 0))
    throw error(error_code::invalid_value,
                "graphblas_cpu: delta must be positive, got " + std::to_string(delta));
  out.stats.delta = delta;
  // Integer sums that could wrap get the saturating semiring (see the header).
  const bool exact_fast_path = negative ? walk_sums_cannot_overflow(g) : sums_cannot_overflow(g);
  out.stats.setup_milliseconds = elapsed_ms(start);
  start = std::chrono::steady_clock::now();
  grb_handle<GrB_BinaryOp> plus_op;
  grb_handle<GrB_Semiring> saturating;
  GrB_Semiring semiring = T::min_plus();
  if (!exact_fast_path && !std::is_floating_point_v<W>) {
    graphblas_check(GrB_BinaryOp_new(plus_op.out(),
                                     negative ? &clamping_plus<W> : &saturating_plus<W>,
                                     T::type(), T::type(), T::type()),
                    "GrB_BinaryOp_new");
    graphblas_check(GrB_Semiring_new(saturating.out(), T::min_monoid(), plus_op.get()),
                    "GrB_Semiring_new");
    semiring = saturating.get();
  }

  // AL = A .* (A <= delta), AH = A .* (A > delta); A itself is not needed after this.
  const W limit = light_limit<W>(delta);
  matrix_handle al, ah;
  graphblas_check(GrB_Matrix_new(al.out(), T::type(), n, n), "GrB_Matrix_new");
  graphblas_check(GrB_Matrix_new(ah.out(), T::type(), n, n), "GrB_Matrix_new");
  graphblas_check(T::select(al.get(), T::value_le(), a.get(), limit), "GrB_select (AL)");
  graphblas_check(T::select(ah.get(), T::value_gt(), a.get(), limit), "GrB_select (AH)");
  a.reset();
  const bool has_heavy = nvals(ah.get()) > 0;

  // dL, dH: light and heavy out-degrees, so the arcs each frontier scans are counted exactly.
  vector_handle ones, degree_light, degree_heavy, degree_scratch;
  graphblas_check(GrB_Vector_new(ones.out(), GrB_BOOL, n), "GrB_Vector_new");
  graphblas_check(GrB_Vector_assign_BOOL(ones.get(), nullptr, nullptr, true, GrB_ALL, n, nullptr),
                  "GrB_assign (ones)");
  graphblas_check(GrB_Vector_new(degree_light.out(), GrB_UINT64, n), "GrB_Vector_new");
  graphblas_check(GrB_Vector_new(degree_heavy.out(), GrB_UINT64, n), "GrB_Vector_new");
  graphblas_check(GrB_Vector_new(degree_scratch.out(), GrB_UINT64, n), "GrB_Vector_new");
  // dL = AL plus.pair 1
  graphblas_check(GrB_mxv(degree_light.get(), nullptr, nullptr, GxB_PLUS_PAIR_UINT64, al.get(),
                          ones.get(), nullptr),
                  "GrB_mxv (light degrees)");
  // dH = AH plus.pair 1
  graphblas_check(GrB_mxv(degree_heavy.get(), nullptr, nullptr, GxB_PLUS_PAIR_UINT64, ah.get(),
                          ones.get(), nullptr),
                  "GrB_mxv (heavy degrees)");
  ones.reset();
  auto arcs_of = [&](GrB_Vector frontier, GrB_Vector degrees) {
    // scratch = degrees .* frontier (pattern), then sum
    graphblas_check(GrB_Vector_eWiseMult_BinaryOp(degree_scratch.get(), nullptr, nullptr,
                                                  GrB_FIRST_UINT64, degrees, frontier, nullptr),
                    "GrB_eWiseMult (degrees)");
    std::uint64_t sum = 0;
    graphblas_check(GrB_Vector_reduce_UINT64(&sum, nullptr, GrB_PLUS_MONOID_UINT64,
                                             degree_scratch.get(), nullptr),
                    "GrB_reduce (degrees)");
    return sum;
  };

  vector_handle t, unsettled, frontier, settled, relaxed, improved;
  for (vector_handle* v : {&t, &unsettled, &frontier, &settled, &relaxed})
    graphblas_check(GrB_Vector_new(v->out(), T::type(), n), "GrB_Vector_new");
  graphblas_check(GrB_Vector_new(improved.out(), GrB_BOOL, n), "GrB_Vector_new");

  // t = inf; t[s] = 0; R = {s: 0}
  graphblas_check(T::fill(t.get(), infinity<W>(), n), "GrB_assign (t = inf)");
  graphblas_check(T::set(t.get(), W(0), source), "GrB_Vector_setElement");
  graphblas_check(T::set(unsettled.get(), W(0), source), "GrB_Vector_setElement");

  // Cutoff: a relaxation beyond it is dropped before it reaches t, so nothing past the cutoff is
  // ever reached or expanded. Not with negative arcs, where a path may come back below the
  // cutoff: Bellman-Ford runs in full and the result is masked.
  const W cut = cutoff_limit<W>(opts.cutoff);
  const bool prune = cut != infinity<W>() && !negative;

  // Folds one relaxation result r into t and R, and leaves in B the vertices it improved below
  // the bucket's end (the next light frontier).
  auto absorb = [&](W bucket_hi) {
    // r = r .* (r <= cutoff)
    if (prune)
      graphblas_check(T::select(relaxed.get(), nullptr, T::value_le(), relaxed.get(), cut, nullptr),
                      "GrB_select (cutoff)");
    // imp = r < t
    graphblas_check(GrB_Vector_eWiseMult_BinaryOp(improved.get(), nullptr, nullptr, T::lt(),
                                                  relaxed.get(), t.get(), nullptr),
                    "GrB_eWiseMult (r < t)");
    // t = min(t, r)
    graphblas_check(GrB_Vector_assign(t.get(), nullptr, T::min(), relaxed.get(), GrB_ALL, n,
                                      nullptr),
                    "GrB_assign (t min= r)");
    // R<imp> = min(R, r)
    graphblas_check(GrB_Vector_assign(unsettled.get(), improved.get(), T::min(), relaxed.get(),
                                      GrB_ALL, n, nullptr),
                    "GrB_assign (R min= r)");
    // B<imp, replace> = r .* (r < hi)
    graphblas_check(T::select(frontier.get(), improved.get(), T::value_lt(), relaxed.get(),
                              bucket_hi, GrB_DESC_R),
                    "GrB_select (next frontier)");
  };

  statistics& st = out.stats;
  while (nvals(unsettled.get()) > 0) {
    // The next non-empty bucket is the one holding min(R).
    W lowest = infinity<W>();
    graphblas_check(T::reduce_min(&lowest, unsettled.get()), "GrB_reduce (min R)");
    const W hi = bucket_end(lowest, delta);
    ++st.buckets;
    // B = R .* (R < hi)
    graphblas_check(T::select(frontier.get(), nullptr, T::value_lt(), unsettled.get(), hi,
                              nullptr),
                    "GrB_select (bucket)");
    GrB_Index frontier_size = nvals(frontier.get());
    while (frontier_size > 0) {
      graphblas_check(GrB_Vector_clear(settled.get()), "GrB_Vector_clear");
      while (frontier_size > 0) {
        ++st.iterations;
        st.vertices_relaxed += frontier_size;
        st.arcs_relaxed += arcs_of(frontier.get(), degree_light.get());
        // S = min(S, B)
        graphblas_check(GrB_Vector_eWiseAdd_BinaryOp(settled.get(), nullptr, nullptr, T::min(),
                                                     settled.get(), frontier.get(), nullptr),
                        "GrB_eWiseAdd (S)");
        // r = B min.+ AL
        graphblas_check(GrB_vxm(relaxed.get(), nullptr, nullptr, semiring, frontier.get(),
                                al.get(), nullptr),
                        "GrB_vxm (light)");
        absorb(hi);
        frontier_size = nvals(frontier.get());
        // Round n (Δ = ∞: one light round per Bellman-Ford round) still improved: a cycle.
        if (negative && frontier_size > 0 && st.iterations >= n)
          throw_negative_cycle(g, source, "graphblas_cpu");
      }
      // R<!S, replace> = R: what this light phase settled leaves R
      graphblas_check(GrB_Vector_apply(unsettled.get(), settled.get(), nullptr, T::identity(),
                                       unsettled.get(), GrB_DESC_RSC),
                      "GrB_apply (R minus S)");
      if (has_heavy) {
        st.vertices_relaxed += nvals(settled.get());
        st.arcs_relaxed += arcs_of(settled.get(), degree_heavy.get());
        // r = S min.+ AH
        graphblas_check(GrB_vxm(relaxed.get(), nullptr, nullptr, semiring, settled.get(),
                                ah.get(), nullptr),
                        "GrB_vxm (heavy)");
        absorb(hi);
        frontier_size = nvals(frontier.get());  // non-zero only through float rounding
      }
    }
  }

  out.distances.resize(g.n);
  GrB_Index count = n;
  graphblas_check(T::extract(out.distances.data(), &count, t.get()), "GrB_extractTuples");
  if (count != n)
    throw error(error_code::graphblas, "graphblas_cpu: the distance vector lost entries");
  // With a cutoff a sum that saturated lies beyond it: an unreached vertex, not an overflow.
  if (!exact_fast_path && cut == infinity<W>()) check_no_overflow(g, out.distances);
  if (negative) check_negative_extremes(g, source, out.distances);
  mask_beyond(opts.cutoff, out.distances, nullptr);
  if (opts.parents) out.parents = shortest_path_tree(g, source, out.distances);
  st.milliseconds = elapsed_ms(start);
  return out;
}

#define TROPIC_INSTANTIATE(W) \
  template result<W> graphblas_cpu_sssp<W>(const csr<W>&, vertex, const options&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)
#undef TROPIC_INSTANTIATE

}  // namespace tropic::detail
