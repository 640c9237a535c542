// Internal: what graphblas_cpu.cpp (one source, GrB_vxm) and graphblas_cpu_batch.cpp (many
// sources, GrB_mxm) share: the typed GraphBLAS entry points, the CSR import, the overflow bounds
// and checks, bucket ends and parents. graphblas_cpu.cpp's header comment explains each.
#pragma once

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

namespace tropic::detail::gb {

using matrix_handle = grb_handle<GrB_Matrix>;
using vector_handle = grb_handle<GrB_Vector>;

// The GraphBLAS objects and typed entry points of one weight type.
template <class W>
struct grb;

#define TROPIC_GRB_TRAITS(W, T)                                                                    \
  template <>                                                                                      \
  struct grb<W> {                                                                                  \
    static GrB_Type type() { return GrB_##T; }                                                     \
    static GrB_Semiring min_plus() { return GrB_MIN_PLUS_SEMIRING_##T; }                           \
    static GrB_Monoid min_monoid() { return GrB_MIN_MONOID_##T; }                                  \
    static GrB_BinaryOp min() { return GrB_MIN_##T; }                                              \
    static GrB_BinaryOp lt() { return GrB_LT_##T; }                                                \
    static GrB_UnaryOp identity() { return GrB_IDENTITY_##T; }                                     \
    static GrB_IndexUnaryOp value_lt() { return GrB_VALUELT_##T; }                                 \
    static GrB_IndexUnaryOp value_le() { return GrB_VALUELE_##T; }                                 \
    static GrB_IndexUnaryOp value_gt() { return GrB_VALUEGT_##T; }                                 \
    static GrB_IndexUnaryOp value_ge() { return GrB_VALUEGE_##T; }                                 \
    static GrB_Info fill(GrB_Vector v, W x, GrB_Index n) {                                         \
      return GrB_Vector_assign_##T(v, nullptr, nullptr, x, GrB_ALL, n, nullptr);                   \
    }                                                                                              \
    static GrB_Info set(GrB_Vector v, W x, GrB_Index i) {                                          \
      return GrB_Vector_setElement_##T(v, x, i);                                                   \
    }                                                                                              \
    static GrB_Info select(GrB_Vector w, GrB_Vector mask, GrB_IndexUnaryOp op, GrB_Vector u, W y,  \
                           GrB_Descriptor d) {                                                     \
      return GrB_Vector_select_##T(w, mask, nullptr, op, u, y, d);                                 \
    }                                                                                              \
    static GrB_Info select(GrB_Matrix c, GrB_IndexUnaryOp op, GrB_Matrix a, W y) {                 \
      return GrB_Matrix_select_##T(c, nullptr, nullptr, op, a, y, nullptr);                        \
    }                                                                                              \
    static GrB_Info select(GrB_Matrix c, GrB_Matrix mask, GrB_IndexUnaryOp op, GrB_Matrix a, W y,  \
                           GrB_Descriptor d) {                                                     \
      return GrB_Matrix_select_##T(c, mask, nullptr, op, a, y, d);                                 \
    }                                                                                              \
    static GrB_Info reduce_min(W* x, GrB_Matrix a) {                                               \
      return GrB_Matrix_reduce_##T(x, nullptr, GrB_MIN_MONOID_##T, a, nullptr);                    \
    }                                                                                              \
    static GrB_Info fill(GrB_Matrix c, W x, GrB_Index rows, GrB_Index cols) {                      \
      return GrB_Matrix_assign_##T(c, nullptr, nullptr, x, GrB_ALL, rows, GrB_ALL, cols, nullptr); \
    }                                                                                              \
    static GrB_Info build(GrB_Matrix c, const GrB_Index* i, const GrB_Index* j, const W* x,        \
                          GrB_Index k) {                                                           \
      return GrB_Matrix_build_##T(c, i, j, x, k, GrB_MIN_##T);                                     \
    }                                                                                              \
    static GrB_Info reduce_min(W* x, GrB_Vector u) {                                               \
      return GrB_Vector_reduce_##T(x, nullptr, GrB_MIN_MONOID_##T, u, nullptr);                    \
    }                                                                                              \
    static GrB_Info extract(W* x, GrB_Index* count, GrB_Vector v) {                                \
      return GrB_Vector_extractTuples_##T(nullptr, x, count, v);                                   \
    }                                                                                              \
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
      if (__builtin_add_overflow(bound, static_cast<std::uint64_t>(heaviest), &bound)) return false;
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
      throw error(error_code::overflow, "graphblas_cpu: the distance of vertex " +
                                            std::to_string(u) + " lies below what " +
                                            weight_type_name<W>() +
                                            " can hold; use a wider weight type (int64 or double)");
  }
}

inline double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
      .count();
}

inline GrB_Index nvals(GrB_Vector v) {
  GrB_Index k = 0;
  graphblas_check(GrB_Vector_nvals(&k, v), "GrB_Vector_nvals");
  return k;
}

inline GrB_Index nvals(GrB_Matrix a) {
  GrB_Index k = 0;
  graphblas_check(GrB_Matrix_nvals(&k, a), "GrB_Matrix_nvals");
  return k;
}

}  // namespace tropic::detail::gb
