// The CPU reference for graphs with negative arcs, where Dijkstra is wrong: Bellman-Ford-Moore
// in rounds (R. Bellman, "On a routing problem", 1958; E. F. Moore, 1959), each round relaxing
// the out-arcs of the vertices the previous round improved (the FIFO queue of SPFA, cut into
// rounds so that the round count is the proof).
//
// After round k every distance is at most the lightest walk of at most k arcs, and every value
// ever held is the length of a real walk. Without a reachable negative cycle the distances are
// exact after n - 1 rounds, so round n improving anything proves a reachable negative cycle
// (CLRS 24.1). The report names a vertex on one: walking n parents back from a vertex that
// round n improved lands on a cycle of the parent graph (each parent was improved at most one
// round earlier, so n steps cannot reach the never-improved source), and every cycle of the
// parent graph is negative (CLRS lemma 24.16). O(n m) in the worst case; O(m) per round.
//
// Sums are exact: integers in 128 bits (n arcs of at most 2^64 each fit), floats in W. A
// distance outside W's finite range (max() means "unreachable") throws error_code::overflow.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "tropic/detail/backends.hpp"
#include "tropic/error.hpp"
#include "tropic/sssp.hpp"

namespace tropic {

namespace {

template <class W>
using exact_sum = std::conditional_t<std::is_integral_v<W>, __int128, W>;

template <class W>
struct relaxation {
  std::vector<exact_sum<W>> dist;
  std::vector<char> reached;
  std::vector<std::int64_t> parent;
  std::uint64_t rounds = 0, vertices = 0, arcs = 0;
  std::int64_t cycle_vertex = -1;  // a vertex on a reachable negative cycle, or -1
  std::uint64_t cycle_arcs = 0;
};

template <class W>
relaxation<W> relax_in_rounds(const csr<W>& g, vertex source) {
  relaxation<W> r;
  r.dist.assign(g.n, exact_sum<W>(0));
  r.reached.assign(g.n, 0);
  r.parent.assign(g.n, -1);
  r.reached[source] = 1;
  std::vector<vertex> frontier{source}, next;
  std::vector<char> queued(g.n, 0);
  while (!frontier.empty()) {
    if (r.rounds == g.n) {
      // Round n improved the frontier's vertices: a negative cycle (see the header).
      vertex x = frontier.front();
      for (vertex k = 0; k < g.n; ++k) x = static_cast<vertex>(r.parent[x]);
      r.cycle_vertex = x;
      vertex y = x;
      do {  // back to x within n steps (x is on a cycle of the parent graph); bounded anyway
        y = static_cast<vertex>(r.parent[y]);
        ++r.cycle_arcs;
      } while (y != x && r.cycle_arcs <= g.n);
      return r;
    }
    ++r.rounds;
    next.clear();
    for (vertex u : frontier) queued[u] = 0;
    for (vertex u : frontier) {
      ++r.vertices;
      const exact_sum<W> du = r.dist[u];
      for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
        ++r.arcs;
        const vertex v = g.columns[e];
        const exact_sum<W> candidate = du + exact_sum<W>(g.weights[e]);
        if (r.reached[v] && !(candidate < r.dist[v])) continue;
        r.dist[v] = candidate;
        r.reached[v] = 1;
        r.parent[v] = u;
        if (!queued[v]) {
          queued[v] = 1;
          next.push_back(v);
        }
      }
    }
    frontier.swap(next);
  }
  return r;
}

template <class W>
[[noreturn]] void throw_cycle_of(const relaxation<W>& r, vertex source, const char* algorithm) {
  std::string where = r.cycle_vertex >= 0
                          ? ": vertex " + std::to_string(r.cycle_vertex) + " lies on one (" +
                                std::to_string(r.cycle_arcs) + " arcs)"
                          : "";
  throw error(error_code::negative_cycle, std::string(algorithm) +
                                              ": a negative-weight cycle is reachable from "
                                              "source " +
                                              std::to_string(source) + where +
                                              "; shortest paths are undefined");
}

}  // namespace

namespace detail {
template <class W>
void throw_negative_cycle(const csr<W>& g, vertex source, const char* algorithm) {
  throw_cycle_of(relax_in_rounds(g, source), source, algorithm);
}
}  // namespace detail

template <class W>
result<W> bellman_ford_cpu(const csr<W>& g, vertex source, bool parents) {
  if (g.n == 0)
    throw error(error_code::invalid_value, "the graph has no vertices: there is no source");
  if (source >= g.n)
    throw error(error_code::invalid_index, "source vertex " + std::to_string(source) +
                                               " is out of range: the graph has " +
                                               std::to_string(g.n) + " vertices (0-based)");
  const auto start = std::chrono::steady_clock::now();
  relaxation<W> r = relax_in_rounds(g, source);
  if (r.cycle_vertex >= 0) throw_cycle_of(r, source, "bellman_ford_cpu");

  result<W> out;
  out.distances.assign(g.n, infinity<W>());
  for (vertex v = 0; v < g.n; ++v) {
    if (!r.reached[v]) continue;
    const exact_sum<W> d = r.dist[v];
    bool fits;
    if constexpr (std::is_integral_v<W>)
      fits = d >= exact_sum<W>(std::numeric_limits<W>::lowest()) && d < exact_sum<W>(infinity<W>());
    else
      fits = std::isfinite(d);
    if (!fits)
      throw error(error_code::overflow, "bellman_ford_cpu: the distance of vertex " +
                                            std::to_string(v) + " lies outside what " +
                                            weight_type_name<W>() +
                                            " can hold; use a wider weight type (int64 or double)");
    out.distances[v] = static_cast<W>(d);
  }
  if (parents) out.parents = std::move(r.parent);
  if (parents) out.parents[source] = -1;
  statistics& st = out.stats;
  st.algorithm = "bellman_ford_cpu";
  st.delta = std::numeric_limits<double>::infinity();
  st.iterations = r.rounds;
  st.vertices_relaxed = r.vertices;
  st.arcs_relaxed = r.arcs;
  st.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

template <class W>
result<W> reference_sssp(const csr<W>& g, vertex source, bool parents) {
  if constexpr (std::is_signed_v<W> || std::is_floating_point_v<W>) {
    for (W w : g.weights)
      if (w < W(0)) return bellman_ford_cpu(g, source, parents);
  }
  return dijkstra(g, source, parents);
}

#define TROPIC_INSTANTIATE(W)                                          \
  template result<W> bellman_ford_cpu<W>(const csr<W>&, vertex, bool); \
  template result<W> reference_sssp<W>(const csr<W>&, vertex, bool);   \
  template void detail::throw_negative_cycle<W>(const csr<W>&, vertex, const char*);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)
#undef TROPIC_INSTANTIATE

}  // namespace tropic
