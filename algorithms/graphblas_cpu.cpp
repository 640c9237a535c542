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

#include "tropic/csr.hpp"
#include "tropic/detail/backends.hpp"
#include "tropic/detail/graphblas_session.hpp"
#include "tropic/error.hpp"
#include "tropic/sssp.hpp"

namespace tropic::detail {

namespace {

using matrix_handle = grb_handle<GrB_Matrix>;
using vector_handle = grb_handle<GrB_Vector>;

// The GraphBLAS objects and typed entry points of one weight type.
template <class W>
struct grb;

#define TROPIC_GRB_TRAITS(W, T)                                                               \
  template <>                                                                                 \
  struct grb<W> {                                                                             \
    static GrB_Type type() { return GrB_##T; }                                                \
    static GrB_Semiring min_plus() { return GrB_MIN_PLUS_SEMIRING_##T; }                      \
    static GrB_Monoid min_monoid() { return GrB_MIN_MONOID_##T; }                             \
    static GrB_BinaryOp min() { return GrB_MIN_##T; }                                         \
    static GrB_BinaryOp lt() { return GrB_LT_##T; }                                           \
    static GrB_UnaryOp identity() { return GrB_IDENTITY_##T; }                                \
    static GrB_IndexUnaryOp value_lt() { return GrB_VALUELT_##T; }                            \
    static GrB_IndexUnaryOp value_le() { return GrB_VALUELE_##T; }                            \
    static GrB_IndexUnaryOp value_gt() { return GrB_VALUEGT_##T; }                            \
    static GrB_Info fill(GrB_Vector v, W x, GrB_Index n) {                                    \
      return GrB_Vector_assign_##T(v, nullptr, nullptr, x, GrB_ALL, n, nullptr);              \
    }                                                                                         \
    static GrB_Info set(GrB_Vector v, W x, GrB_Index i) {                                     \
      return GrB_Vector_setElement_##T(v, x, i);                                              \
    }                                                                                         \
    static GrB_Info select(GrB_Vector w, GrB_Vector mask, GrB_IndexUnaryOp op, GrB_Vector u,  \
                           W y, GrB_Descriptor d) {                                           \
      return GrB_Vector_select_##T(w, mask, nullptr, op, u, y, d);                            \
    }                                                                                         \
    static GrB_Info select(GrB_Matrix c, GrB_IndexUnaryOp op, GrB_Matrix a, W y) {            \
      return GrB_Matrix_select_##T(c, nullptr, nullptr, op, a, y, nullptr);                   \
    }                                                                                         \
    static GrB_Info reduce_min(W* x, GrB_Vector u) {                                          \
      return GrB_Vector_reduce_##T(x, nullptr, GrB_MIN_MONOID_##T, u, nullptr);               \
    }                                                                                         \
    static GrB_Info extract(W* x, GrB_Index* count, GrB_Vector v) {                           \
      return GrB_Vector_extractTuples_##T(nullptr, x, count, v);                              \
    }                                                                                         \
  };
TROPIC_GRB_TRAITS(std::uint32_t, UINT32)
TROPIC_GRB_TRAITS(std::int32_t, INT32)
TROPIC_GRB_TRAITS(std::uint64_t, UINT64)
TROPIC_GRB_TRAITS(std::int64_t, INT64)
TROPIC_GRB_TRAITS(float, FP32)
TROPIC_GRB_TRAITS(double, FP64)
#undef TROPIC_GRB_TRAITS

// The CSR arrays as GraphBLAS takes them. When g's rows are already strictly increasing by
// column without self-loops (what build_csr makes), only the 64-bit columns are new and
// `offsets` and `weights` stay empty (g's own are used); otherwise all three are rebuilt.
template <class W>
struct graphblas_rows {
  std::vector<GrB_Index> offsets;
  std::vector<GrB_Index> columns;
  std::vector<W> weights;
};

template <class W>
graphblas_rows<W> to_graphblas_rows(const csr<W>& g) {
  graphblas_rows<W> out;
  bool clean = true;
  for (vertex u = 0; u < g.n && clean; ++u)
    for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e)
      if (g.columns[e] == u || (e > g.row_offsets[u] && g.columns[e - 1] >= g.columns[e])) {
        clean = false;
        break;
      }
  if (clean) {
    out.columns.assign(g.columns.begin(), g.columns.end());
    return out;
  }
  out.offsets.assign(static_cast<std::size_t>(g.n) + 1, 0);
  out.columns.reserve(g.arcs());
  out.weights.reserve(g.arcs());
  std::vector<std::pair<vertex, W>> row;
  for (vertex u = 0; u < g.n; ++u) {
    row.clear();
    for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e)
      if (g.columns[e] != u) row.emplace_back(g.columns[e], g.weights[e]);
    std::sort(row.begin(), row.end());  // by column, then weight: the lightest comes first
    for (std::size_t k = 0; k < row.size(); ++k) {
      if (k > 0 && row[k].first == row[k - 1].first) continue;
      out.columns.push_back(row[k].first);
      out.weights.push_back(row[k].second);
    }
    out.offsets[u + 1] = out.columns.size();
  }
  return out;
}

// z = x + y clamped at infinity<W>(); x, y >= 0 (the weights are checked non-negative).
template <class W>
void saturating_plus(void* z, const void* x, const void* y) {
  const W a = *static_cast<const W*>(x);
  const W b = *static_cast<const W*>(y);
  *static_cast<W*>(z) = (a > infinity<W>() - b) ? infinity<W>() : static_cast<W>(a + b);
}

// z = x + y clamped to [lowest, infinity<W>()] for signed integers with negative arcs.
template <class W>
void clamping_plus(void* z, const void* x, const void* y) {
  constexpr W lowest = std::numeric_limits<W>::lowest();
  const __int128 sum = __int128(*static_cast<const W*>(x)) + __int128(*static_cast<const W*>(y));
  *static_cast<W*>(z) = sum >= __int128(infinity<W>()) ? infinity<W>()
                        : sum <= __int128(lowest)      ? lowest
                                                       : static_cast<W>(sum);
}

template <class W>
bool has_negative_arc(const csr<W>& g) {
  if constexpr (std::is_signed_v<W> || std::is_floating_point_v<W>) {
    for (W w : g.weights)
      if (w < W(0)) return true;
  }
  return false;
}

// With negative arcs: true when every walk of at most n + 1 arcs has a sum strictly inside W's
// finite range, so the built-in MIN_PLUS neither wraps nor reaches infinity (see the header).
template <class W>
bool walk_sums_cannot_overflow(const csr<W>& g) {
  long double heaviest = 0, lightest = 0;
  for (W w : g.weights) {
    heaviest = std::max(heaviest, static_cast<long double>(w));
    lightest = std::min(lightest, static_cast<long double>(w));
  }
  const long double arcs = static_cast<long double>(g.n) + 1;
  // Headroom for the long double product and for float rounding (k ulps over k terms).
  const long double top = static_cast<long double>(std::numeric_limits<W>::max()) * (1 - 1e-3L);
  const long double bottom =
      static_cast<long double>(std::numeric_limits<W>::lowest()) * (1 - 1e-3L);
  return arcs * heaviest < top && arcs * lightest > bottom;
}

// True when no sum t[u] + w(u, v) formed by the loop can reach infinity<W>() (see the header).
template <class W>
bool sums_cannot_overflow(const csr<W>& g) {
  if constexpr (std::is_floating_point_v<W>) {
    long double bound = 0;
    for (vertex u = 0; u < g.n; ++u) {
      W heaviest = 0;
      for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e)
        if (g.weights[e] > heaviest) heaviest = g.weights[e];
      bound += heaviest;
    }
    // Headroom for rounding: a float sum of k terms is within k ulps of the exact one.
    return bound * (1 + 1e-3L) < static_cast<long double>(std::numeric_limits<W>::max());
  } else {
    std::uint64_t bound = 0;
    for (vertex u = 0; u < g.n; ++u) {
      W heaviest = 0;
      for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e)
        if (g.weights[e] > heaviest) heaviest = g.weights[e];
      if (__builtin_add_overflow(bound, static_cast<std::uint64_t>(heaviest), &bound))
        return false;
    }
    return bound < static_cast<std::uint64_t>(infinity<W>());
  }
}

// The upper end of the bucket [k delta, (k+1) delta) that holds m, as a W strictly above m.
template <class W>
W bucket_end(W m, double delta) {
  if (!std::isfinite(delta)) return infinity<W>();
  const long double k = std::floor(static_cast<long double>(m) / delta) + 1;
  const long double end = k * static_cast<long double>(delta);
  W hi;
  if constexpr (std::is_floating_point_v<W>) {
    hi = end >= static_cast<long double>(std::numeric_limits<W>::max()) ? infinity<W>()
                                                                         : static_cast<W>(end);
    if (!(hi > m)) hi = std::nextafter(m, infinity<W>());
  } else {
    const long double c = std::ceil(end);
    hi = c >= static_cast<long double>(infinity<W>()) ? infinity<W>() : static_cast<W>(c);
    if (!(hi > m)) hi = static_cast<W>(m + 1);  // m is finite, so m + 1 <= max()
  }
  return hi;
}

// The largest weight counted as light: weights <= delta.
template <class W>
W light_limit(double delta) {
  if constexpr (std::is_floating_point_v<W>) {
    if (delta >= static_cast<double>(std::numeric_limits<W>::max())) return infinity<W>();
    return static_cast<W>(delta);
  } else {
    const long double f = std::floor(static_cast<long double>(delta));
    if (f >= static_cast<long double>(infinity<W>())) return infinity<W>();
    return static_cast<W>(f);
  }
}

// dist[u] + w == dist[v], evaluated the way the solve did (exact for integers, W rounding for
// floats); dist[u] and dist[v] are finite.
template <class W>
bool tight(W du, W w, W dv) {
  if constexpr (std::is_floating_point_v<W>) {
    return static_cast<W>(du + w) == dv;
  } else {
    W diff;  // dv - w, which a negative w could push past max()
    return !__builtin_sub_overflow(dv, w, &diff) && du == diff;
  }
}

template <class W>
std::vector<std::int64_t> shortest_path_tree(const csr<W>& g, vertex source,
                                             const std::vector<W>& dist) {
  std::vector<std::int64_t> parent(g.n, -1);
  std::vector<char> seen(g.n, 0);
  std::vector<vertex> queue;
  queue.reserve(g.n);
  queue.push_back(source);
  seen[source] = 1;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const vertex u = queue[head];
    for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      const vertex v = g.columns[e];
      if (seen[v] || dist[v] == infinity<W>() || !tight(dist[u], g.weights[e], dist[v])) continue;
      seen[v] = 1;
      parent[v] = u;
      queue.push_back(v);
    }
  }
  if (queue.size() == g.n) return parent;
  // Float rounding could in principle leave a reached vertex outside the tight-arc tree; it
  // still gets a tight in-arc (valid, though no longer guaranteed acyclic).
  for (vertex u = 0; u < g.n; ++u) {
    if (dist[u] == infinity<W>()) continue;
    for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      const vertex v = g.columns[e];
      if (!seen[v] && v != source && dist[v] != infinity<W>() &&
          tight(dist[u], g.weights[e], dist[v])) {
        seen[v] = 1;
        parent[v] = u;
      }
    }
  }
  return parent;
}

template <class W>
void check_no_overflow(const csr<W>& g, const std::vector<W>& dist) {
  for (vertex u = 0; u < g.n; ++u) {
    if (dist[u] == infinity<W>()) continue;
    for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      const vertex v = g.columns[e];
      if (dist[v] != infinity<W>()) continue;
      throw error(error_code::overflow,
                  "graphblas_cpu: the distance to vertex " + std::to_string(v) + " (through arc " +
                      std::to_string(u) + " -> " + std::to_string(v) + ") exceeds the largest " +
                      weight_type_name<W>() + " value; use a wider weight type (" +
                      (std::is_floating_point_v<W> ? "double" : "uint64 or double") + ")");
    }
  }
}

// After a solve with negative arcs: a negative self-loop at a reached vertex (GraphBLAS holds no
// self-loops) is a negative cycle; a distance at W's lowest value (clamped) or -inf is not exact.
template <class W>
void check_negative_extremes(const csr<W>& g, vertex source, const std::vector<W>& dist) {
  for (vertex u = 0; u < g.n; ++u) {
    if (dist[u] == infinity<W>()) continue;
    for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e)
      if (g.columns[e] == u && g.weights[e] < W(0))
        throw_negative_cycle(g, source, "graphblas_cpu");
    bool below = false;
    if constexpr (std::is_floating_point_v<W>)
      below = dist[u] == -infinity<W>();
    else if constexpr (std::is_signed_v<W>)
      below = dist[u] == std::numeric_limits<W>::lowest();
    if (below)
      throw error(error_code::overflow,
                  "graphblas_cpu: the distance of vertex " + std::to_string(u) +
                      " lies below what " + weight_type_name<W>() +
                      " can hold; use a wider weight type (int64 or double)");
  }
}

double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
      .count();
}

GrB_Index nvals(GrB_Vector v) {
  GrB_Index k = 0;
  graphblas_check(GrB_Vector_nvals(&k, v), "GrB_Vector_nvals");
  return k;
}

GrB_Index nvals(GrB_Matrix a) {
  GrB_Index k = 0;
  graphblas_check(GrB_Matrix_nvals(&k, a), "GrB_Matrix_nvals");
  return k;
}

}  // namespace

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

  // Folds one relaxation result r into t and R, and leaves in B the vertices it improved below
  // the bucket's end (the next light frontier).
  auto absorb = [&](W bucket_hi) {
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
  if (!exact_fast_path) check_no_overflow(g, out.distances);
  if (negative) check_negative_extremes(g, source, out.distances);
  if (opts.parents) out.parents = shortest_path_tree(g, source, out.distances);
  st.milliseconds = elapsed_ms(start);
  return out;
}

#define TROPIC_INSTANTIATE(W) \
  template result<W> graphblas_cpu_sssp<W>(const csr<W>&, vertex, const options&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)
#undef TROPIC_INSTANTIATE

}  // namespace tropic::detail
