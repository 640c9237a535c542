// certify(): an O(arcs) optimality certificate for SSSP distances, checked from the graph alone
// (no reference solve), for graphs too large for the CPU reference; and its 1D row-partitioned
// form (certify_rows per part, certify_combine once), as several GPUs would check their rows.
//
// Why it proves exactness. Let len(P) be a path's length as the algorithms compute it (each sum
// in W: exact for integers, rounded for floats; rounding is monotone, which is all we use).
// (1) d[s] = 0 and d[v] <= d[u] + w on every arc with d[u] finite give, by induction along any
//     path P from s to v, d[v] <= len(P): no distance is too large, and no reachable vertex is
//     left at infinity (the first unreached vertex of P would break its in-arc's condition; that
//     is why unreached vertices need no check of their own).
// (2) With parents: each reached v != s has a parent p, d[p] + w(p, v) == d[v], and the chain of
//     parents reaches s. Unrolling the chain makes d[v] the length of a real path, so d[v] is not
//     too small either. The chain must be checked to end at s: with zero-weight or negative arcs
//     tight arcs can form a cycle of equal (or decreasing) distances that no path backs up.
// (3) Without parents: each reached v != s has a tight in-arc u -> v with d[u] < d[v]. Take a
//     vertex whose d is too small, with the least d: its tight in-arc comes from a smaller d[u],
//     which is therefore exact, so d[v] = d[u] + w is a real path's length: a contradiction.
//     The strict d[u] < d[v] is what makes it sound: "some tight in-arc" alone accepts a
//     zero-weight cycle off the source's reach labelled with any finite distance. With positive
//     weights the last arc of a shortest path is such an arc, so exact answers always pass;
//     a vertex reached only through zero or negative tight arcs needs the parent tree of (2).
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "certify_row.hpp"
#include "tropic/detail/openmp.hpp"
#include "tropic/sssp.hpp"

namespace tropic {

namespace {

using namespace detail::certificate;

template <class W>
std::string show(W w) {
  return w == infinity<W>() ? "inf" : weight_string(w);
}

template <class W>
std::string show_sum(sum_type<W> s) {
  if constexpr (std::is_integral_v<W>) {
    const bool negative = s < 0;
    unsigned __int128 x = negative ? -static_cast<unsigned __int128>(s) : s;
    std::string digits;
    do {
      digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(x % 10)));
      x /= 10;
    } while (x != 0);
    return negative ? "-" + digits : digits;
  } else {
    return weight_string(s);
  }
}

std::string vertex_name(vertex v) {
  return "vertex " + std::to_string(v);
}

template <class W>
std::string arc_name(vertex u, vertex v, W w) {
  return "arc " + std::to_string(u) + " -> " + std::to_string(v) + " (weight " + weight_string(w) +
         ")";
}

template <class W>
std::string vertex_message(vertex_fault fault, vertex source, const result<W>& r, vertex u) {
  const W du = r.distances[u];
  const std::string p = r.parents.empty() ? "" : std::to_string(r.parents[u]);
  switch (fault) {
    case vertex_fault::none:
      break;
    case vertex_fault::not_a_distance:
      return vertex_name(u) + ": distance is " + weight_string(du) +
             ", neither a finite distance nor infinity (unreached)";
    case vertex_fault::source_not_zero:
      return vertex_name(u) + " (the source): distance is " + show(du) + ", expected 0";
    case vertex_fault::parent_not_none:
      return vertex_name(u) + (u == source ? " (the source)" : " (unreached)") + ": parent is " +
             p + ", expected -1";
    case vertex_fault::parent_not_vertex:
      return vertex_name(u) + " (distance " + show(du) + "): parent " + p + " is not a vertex";
    case vertex_fault::parent_unreached:
      return vertex_name(u) + " (distance " + show(du) + "): its parent " + p + " is unreached";
  }
  return {};
}

template <class W>
std::string arc_message(arc_fault fault, vertex u, W du, vertex v, W w, W dv) {
  if (fault == arc_fault::head_unreached)
    return arc_name(u, v, w) + ": vertex " + std::to_string(u) + " is reached at distance " +
           show(du) + " but vertex " + std::to_string(v) + " is reported unreached";
  return arc_name(u, v, w) + ": d[" + std::to_string(u) + "] + w = " + show(du) + " + " +
         weight_string(w) + " = " + show_sum<W>(path_sum(du, w)) + " < d[" + std::to_string(v) +
         "] = " + show(dv) + ": the distance of vertex " + std::to_string(v) + " is too large";
}

// The checks that belong to row u (its `degree` arcs at columns, weights): u's own values, then
// each out-arc of u. Without a message, returns true at the first violation and marks the heads
// of u's tight arcs; with one, writes there the violating arc of least column, then least weight
// (a csr row's first, but for parallel arcs), so that any order of the row's arcs gives one text.
template <class W>
bool row_violates(vertex n, vertex source, const result<W>& r, vertex u, const vertex* columns,
                  const W* weights, arc_index degree, std::string* message, char* marks) {
  const W* d = r.distances.data();
  const std::int64_t* parents = r.parents.empty() ? nullptr : r.parents.data();
  if (const vertex_fault f = check_vertex(n, source, d, parents, u); f != vertex_fault::none) {
    if (message) *message = vertex_message(f, source, r, u);
    return true;
  }
  const W du = d[u];
  if (du == infinity<W>()) return false;  // no condition on the out-arcs of an unreached vertex
  arc_index reported = degree;            // the violating arc of least (column, weight) so far
  arc_fault fault = arc_fault::none;
  for (arc_index e = 0; e < degree; ++e) {
    const arc_verdict a = check_arc(source, d, parents, u, du, columns[e], weights[e]);
    if (a.fault != arc_fault::none) {
      if (!message) return true;
      if (reported == degree || columns[e] < columns[reported] ||
          (columns[e] == columns[reported] && weights[e] < weights[reported])) {
        reported = e;
        fault = a.fault;
      }
    } else if (a.mark != 0 && marks != nullptr) {
      TROPIC_OMP(atomic update)
      marks[columns[e]] |= a.mark;
    }
  }
  if (reported == degree) return false;
  const vertex v = columns[reported];
  *message = arc_message(fault, u, du, v, weights[reported], d[v]);
  return true;
}

template <class W>
std::string argument_problem(vertex source, const result<W>& r, std::size_t n) {
  if (r.distances.size() != n)
    return "size mismatch: the graph has " + std::to_string(n) + " vertices, the result " +
           std::to_string(r.distances.size()) + " distances";
  if (!r.parents.empty() && r.parents.size() != n)
    return "size mismatch: the graph has " + std::to_string(n) + " vertices, the result " +
           std::to_string(r.parents.size()) + " parents";
  if (source >= n)
    return "source " + std::to_string(source) + " is out of range: the graph has " +
           std::to_string(n) + " vertices";
  return {};
}

// Follows every reached vertex's parent chain (each link already checked tight); the first
// vertex, in vertex order, whose chain cycles before reaching the source is reported.
template <class W>
std::string parent_cycle(vertex source, const result<W>& r) {
  const std::size_t n = r.distances.size();
  enum : char { unknown, on_path, rooted };
  std::vector<char> state(n, unknown);
  state[source] = rooted;
  std::vector<vertex> path;
  for (std::size_t v = 0; v < n; ++v) {
    if (state[v] != unknown || r.distances[v] == infinity<W>()) continue;
    path.clear();
    auto x = static_cast<vertex>(v);
    while (state[x] == unknown) {
      state[x] = on_path;
      path.push_back(x);
      x = static_cast<vertex>(r.parents[x]);
    }
    if (state[x] == on_path)
      return "the parent chain of " + vertex_name(static_cast<vertex>(v)) +
             " runs into a cycle through vertex " + std::to_string(x) +
             " and never reaches the source";
    for (vertex y : path) state[y] = rooted;
  }
  return {};
}

}  // namespace

namespace detail::certificate {

template <class W>
std::string rows_problem(vertex n, vertex source, const result<W>& r, row_range rows) {
  if (std::string problem = argument_problem(source, r, n); !problem.empty()) return problem;
  if (rows.begin > rows.end || rows.end > n)
    return "row range [" + std::to_string(rows.begin) + ", " + std::to_string(rows.end) +
           ") is not within [0, " + std::to_string(n) + ")";
  return {};
}

template <class W>
std::string row_violation(vertex n, vertex source, const result<W>& r, vertex u,
                          const vertex* columns, const W* weights, arc_index degree) {
  std::string message;
  row_violates(n, source, r, u, columns, weights, degree, &message, nullptr);
  return message;
}

}  // namespace detail::certificate

template <class W>
certificate_part certify_rows(const csr<W>& g, vertex source, const result<W>& r, row_range rows) {
  certificate_part part;
  part.rows = rows;
  part.violation = rows_problem(g.n, source, r, rows);
  if (!part.violation.empty()) return part;
  part.marks.assign(g.n, 0);
  // Every row marks its tight arcs; the least violating row is then re-checked alone for its
  // message, so the report is the same whatever the thread count.
  auto row = [&](vertex u, std::string* message, char* marks) {
    const arc_index e = g.row_offsets[u];
    return row_violates(g.n, source, r, u, g.columns.data() + e, g.weights.data() + e,
                        g.row_offsets[u + 1] - e, message, marks);
  };
  const vertex none = rows.end;
  vertex first = none;
  const auto begin = static_cast<std::int64_t>(rows.begin),
             end = static_cast<std::int64_t>(rows.end);
  const bool par = g.row_offsets[rows.end] - g.row_offsets[rows.begin] > detail::parallel_threshold;
  char* marks = part.marks.data();
  TROPIC_OMP(parallel for reduction(min : first) schedule(dynamic, 1024) if (par))
  for (std::int64_t i = begin; i < end; ++i) {
    const auto u = static_cast<vertex>(i);
    if (row(u, nullptr, marks) && u < first) first = u;
  }
  if (first != none) row(first, &part.violation, nullptr);
  return part;
}

template <class W>
std::string certify_combine(vertex source, const result<W>& r,
                            const std::vector<certificate_part>& parts) {
  const std::size_t n = r.distances.size();
  if (std::string problem = argument_problem(source, r, n); !problem.empty()) return problem;
  // A part missing or checked twice would leave rows unchecked: insist on an exact cover.
  std::size_t next = 0;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const row_range rows = parts[k].rows;
    if (rows.begin != next || rows.end < rows.begin || rows.end > n)
      return "the parts do not cover the rows [0, " + std::to_string(n) + ") in order: part " +
             std::to_string(k) + " holds [" + std::to_string(rows.begin) + ", " +
             std::to_string(rows.end) + "), expected it to start at " + std::to_string(next);
    next = rows.end;
  }
  if (next != n)
    return "the parts cover the rows [0, " + std::to_string(next) + ") of [0, " +
           std::to_string(n) + ")";
  for (const certificate_part& part : parts)  // in row order: the least violating row first
    if (!part.violation.empty()) return part.violation;
  for (const certificate_part& part : parts)
    if (part.marks.size() != n)
      return "a part's marks hold " + std::to_string(part.marks.size()) + " entries, expected " +
             std::to_string(n);

  const bool with_parents = !r.parents.empty();
  const char needed = with_parents ? parent_tight : strict_tight;
  const std::size_t none = n;
  std::size_t first = none;
  TROPIC_OMP(parallel for reduction(min : first) schedule(static) if (n > detail::parallel_threshold))
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
    const auto v = static_cast<std::size_t>(i);
    if (v == source || r.distances[v] == infinity<W>()) continue;
    char mark = 0;
    for (const certificate_part& part : parts) mark |= part.marks[v];
    if (!(mark & needed) && v < first) first = v;
  }
  if (first != none) {
    const auto v = static_cast<vertex>(first);
    const std::string head = vertex_name(v) + " (distance " + show(r.distances[v]) + ")";
    if (with_parents) {
      const auto p = static_cast<vertex>(r.parents[v]);
      return head + ": no arc from its parent " + std::to_string(p) + " is tight: d[" +
             std::to_string(p) + "] + w != " + show(r.distances[v]) + " for every arc " +
             std::to_string(p) + " -> " + std::to_string(v) + " (d[" + std::to_string(p) +
             "] = " + show(r.distances[p]) + ")";
    }
    char mark = 0;
    for (const certificate_part& part : parts) mark |= part.marks[v];
    if (mark & weak_tight)
      return head +
             ": every tight in-arc comes from a vertex at a distance >= its own (zero or "
             "negative weights): without parents that proves nothing; certify a result "
             "with parents";
    return head + ": no in-arc u -> " + std::to_string(v) +
           " has d[u] + w == d[v]: no path has that length";
  }
  return with_parents ? parent_cycle(source, r) : std::string();
}

template <class W>
std::string certify(const csr<W>& g, vertex source, const result<W>& r) {
  std::vector<certificate_part> whole{certify_rows(g, source, r, row_range{0, g.n})};
  if (!whole.front().violation.empty()) return whole.front().violation;
  return certify_combine(source, r, whole);
}

#define TROPIC_INSTANTIATE(W)                                                                    \
  template std::string detail::certificate::rows_problem<W>(vertex, vertex, const result<W>&,    \
                                                            row_range);                          \
  template std::string detail::certificate::row_violation<W>(                                    \
      vertex, vertex, const result<W>&, vertex, const vertex*, const W*, arc_index);             \
  template certificate_part certify_rows<W>(const csr<W>&, vertex, const result<W>&, row_range); \
  template std::string certify_combine<W>(vertex, const result<W>&,                              \
                                          const std::vector<certificate_part>&);                 \
  template std::string certify<W>(const csr<W>&, vertex, const result<W>&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)
#undef TROPIC_INSTANTIATE

}  // namespace tropic
