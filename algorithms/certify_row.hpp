// The checks of one row of the optimality certificate (certify.cpp says why they prove the
// distances exact), written once over plain pointers so that the CPU loop (certify.cpp) and the
// GPU kernels (certify_kernels.cuh) run the same definition. The messages are certify.cpp's alone.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "tropic/sssp.hpp"

#if defined(__CUDACC__)
#define TROPIC_CERTIFY_HD __host__ __device__
#else
#define TROPIC_CERTIFY_HD
#endif

namespace tropic::detail::certificate {

// certificate_part::marks bits: which kind of proving in-arc a vertex has.
enum : char { strict_tight = 1, weak_tight = 2, parent_tight = 4 };

// Integers: the exact sum (128 bits hold any two 64-bit values; nvcc has __int128 in device code
// too); floats: the sum rounded in W, as every algorithm computes it.
template <class W>
using sum_type = std::conditional_t<std::is_integral_v<W>, __int128, W>;

template <class W>
TROPIC_CERTIFY_HD sum_type<W> path_sum(W du, W w) {
  return sum_type<W>(du) + sum_type<W>(w);
}

// A value a distance may take: finite or +infinity (unreached); never NaN or -inf.
template <class W>
TROPIC_CERTIFY_HD bool is_distance(W d) {
  if constexpr (std::is_floating_point_v<W>)
    return d == d && d != -infinity<W>();  // d == d: not NaN
  return true;
}

enum class vertex_fault : char {
  none,
  not_a_distance,     // d[u] is NaN or -inf
  source_not_zero,    // d[source] != 0
  parent_not_none,    // the source or an unreached vertex has a parent
  parent_not_vertex,  // a reached vertex's parent is outside [0, n)
  parent_unreached,   // a reached vertex's parent is unreached
};

// Row u's own values. `parents` is null for a result without parents.
template <class W>
TROPIC_CERTIFY_HD vertex_fault check_vertex(vertex n, vertex source, const W* d,
                                            const std::int64_t* parents, vertex u) {
  const W du = d[u];
  if (!is_distance(du)) return vertex_fault::not_a_distance;
  if (u == source && du != W(0)) return vertex_fault::source_not_zero;
  if (parents == nullptr) return vertex_fault::none;
  const std::int64_t p = parents[u];
  if (u == source || du == infinity<W>())
    return p != -1 ? vertex_fault::parent_not_none : vertex_fault::none;
  if (p < 0 || p >= static_cast<std::int64_t>(n)) return vertex_fault::parent_not_vertex;
  if (d[static_cast<vertex>(p)] == infinity<W>()) return vertex_fault::parent_unreached;
  return vertex_fault::none;
}

enum class arc_fault : char {
  none,
  head_unreached,  // d[u] finite, d[v] infinite
  head_too_large,  // d[u] + w < d[v]
};

// An arc's fault, or else the marks bit (0 for none) its head v earns from it.
struct arc_verdict {
  arc_fault fault = arc_fault::none;
  char mark = 0;
};

// Arc u -> v of weight w out of a reached row u (d[u] = du is finite).
template <class W>
TROPIC_CERTIFY_HD arc_verdict check_arc(vertex source, const W* d, const std::int64_t* parents,
                                        vertex u, W du, vertex v, W w) {
  const W dv = d[v];
  if (dv == infinity<W>()) return {arc_fault::head_unreached, 0};
  if (!is_distance(dv)) return {};  // reported in row v
  const sum_type<W> through_u = path_sum(du, w);
  if (through_u < sum_type<W>(dv)) return {arc_fault::head_too_large, 0};
  if (v == source || through_u != sum_type<W>(dv)) return {};
  if (parents != nullptr)
    return {arc_fault::none,
            parents[v] == static_cast<std::int64_t>(u) ? char(parent_tight) : char(0)};
  return {arc_fault::none, du < dv ? char(strict_tight) : char(weak_tight)};
}

// certify.cpp, host only. What certify_rows reports before checking any row (sizes, the source,
// the range), "" when nothing.
template <class W>
std::string rows_problem(vertex n, vertex source, const result<W>& r, row_range rows);

// Row u's violation as certify_rows words it, "" when the row holds. Its `degree` arcs may come
// in any order: the arc reported is the violating one of least column, then least weight, so a
// weight-sorted device row gives a csr row's text.
template <class W>
std::string row_violation(vertex n, vertex source, const result<W>& r, vertex u,
                          const vertex* columns, const W* weights, arc_index degree);

}  // namespace tropic::detail::certificate
