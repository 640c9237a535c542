// Dijkstra's algorithm with a binary heap: the exact CPU reference every other algorithm is
// checked against (E. W. Dijkstra, "A note on two problems in connexion with graphs", 1959).
//
// Limits: non-negative weights (checked); O((n + m) log m) with lazy deletion, since
// std::priority_queue cannot decrease a key: a vertex may sit in the heap several times and
// the stale entries are skipped when popped.
//
// Distances saturate: a sum that reaches infinity<W>() never becomes a distance. Where that
// leaves a vertex that is reachable without a representable distance, the run throws
// error_code::overflow instead of reporting it unreachable or wrapping around.
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tropic/detail/backends.hpp"
#include "tropic/detail/cutoff.hpp"
#include "tropic/error.hpp"
#include "tropic/sssp.hpp"

namespace tropic {

namespace {

// a + b, or infinity<W>() when the exact sum is not below it (a, b >= 0).
template <class W>
W saturating_add(W a, W b) noexcept {
  if constexpr (std::is_floating_point_v<W>) {
    return a + b;  // IEEE addition already rounds an overflowing sum to +inf
  } else {
    return b >= infinity<W>() - a ? infinity<W>() : static_cast<W>(a + b);
  }
}

template <class W>
W largest_finite() noexcept {
  if constexpr (std::is_floating_point_v<W>) {
    return std::numeric_limits<W>::max();
  } else {
    return infinity<W>() - 1;  // max() itself means "unreachable"
  }
}

// After the search, a reached u with an arc u -> v to an unreached v can only be an arc whose
// sum saturated: v is reachable but its distance is not representable in W.
template <class W>
void throw_if_overflowed(const csr<W>& g, const std::vector<W>& dist) {
  for (vertex u = 0; u < g.n; ++u) {
    if (dist[u] == infinity<W>()) continue;
    for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
      const vertex v = g.columns[k];
      if (dist[v] != infinity<W>()) continue;
      throw error(error_code::overflow,
                  "dijkstra: the distance of vertex " + std::to_string(v) + " (via vertex " +
                      std::to_string(u) + " at distance " + weight_string(dist[u]) +
                      " and an arc of weight " + weight_string(g.weights[k]) +
                      ") exceeds the largest finite distance " + weight_type_name<W>() +
                      " can hold, " + weight_string(largest_finite<W>()) +
                      "; use a wider weight type (uint64, int64 or double)");
    }
  }
}

}  // namespace

namespace detail {

// Cutoff: a candidate beyond `limit` is never stored, so the heap only ever holds the ball and
// the search stops with it. Targets: the search stops once each of them has been popped (its
// distance final); the vertices not popped by then keep tentative distances.
template <class W>
result<W> dijkstra_search(const csr<W>& g, vertex source, bool parents, W limit,
                          const std::vector<vertex>* targets) {
  detail::check_sssp_arguments(g, source, algorithm::dijkstra);
  const auto start = std::chrono::steady_clock::now();

  result<W> r;
  std::vector<W>& dist = r.distances;
  dist.assign(g.n, infinity<W>());
  if (parents) r.parents.assign(g.n, -1);

  using entry = std::pair<W, vertex>;
  std::priority_queue<entry, std::vector<entry>, std::greater<entry>> heap;
  dist[source] = W(0);
  heap.emplace(W(0), source);
  bool saturated = false;
  std::uint64_t pops = 0, settled = 0, scanned = 0;
  std::vector<char> wanted;
  std::size_t targets_left = 0;
  if (targets) {
    wanted.assign(g.n, 0);
    for (vertex t : *targets)
      if (!wanted[t]) wanted[t] = 1, ++targets_left;
    if (targets_left == 0) heap.pop();  // no destination: nothing to search
  }

  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    ++pops;
    // Keys pushed for u strictly decrease, so only the entry equal to dist[u] is current.
    if (d != dist[u]) continue;
    ++settled;
    if (targets && wanted[u] && --targets_left == 0) break;
    const arc_index end = g.row_offsets[u + 1];
    scanned += end - g.row_offsets[u];
    for (arc_index k = g.row_offsets[u]; k < end; ++k) {
      const vertex v = g.columns[k];
      const W candidate = saturating_add(d, g.weights[k]);
      if (candidate == infinity<W>()) {
        saturated = true;
        continue;
      }
      if (candidate > limit) continue;  // beyond the cutoff: never reached
      if (candidate < dist[v]) {
        dist[v] = candidate;
        if (parents) r.parents[v] = u;
        heap.emplace(candidate, v);
      }
    }
  }
  // Only a saturated sum can leave a reachable vertex unreached: check for that only then.
  // With a cutoff a saturated sum lies beyond it: not an overflow but an unreached vertex.
  if (saturated && limit == infinity<W>()) throw_if_overflowed(g, dist);

  r.stats.algorithm = "dijkstra";
  r.stats.delta = std::numeric_limits<double>::infinity();
  r.stats.buckets = 0;
  r.stats.iterations = pops;  // heap pops, stale entries included
  r.stats.vertices_relaxed = settled;
  r.stats.arcs_relaxed = scanned;
  r.stats.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace detail

template <class W>
result<W> dijkstra(const csr<W>& g, vertex source, bool parents) {
  return detail::dijkstra_search(g, source, parents, infinity<W>(), nullptr);
}

#define TROPIC_INSTANTIATE(W)                                                   \
  template result<W> dijkstra<W>(const csr<W>&, vertex, bool);                  \
  template result<W> detail::dijkstra_search<W>(const csr<W>&, vertex, bool, W, \
                                                const std::vector<vertex>*);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)
#undef TROPIC_INSTANTIATE

}  // namespace tropic
