// Random graphs with negative arcs and known answers, for every signed weight type.
//
// No reachable negative cycle, by construction: a random graph g0 of the shared test kinds with
// integer weights >= 0 is reweighted by random potentials, w'(u, v) = w(u, v) + p(u) - p(v)
// (Johnson's reweighting run backwards). Every cycle keeps its weight (>= 0), about half the
// arcs turn negative, and the distances are known independently of any Bellman-Ford:
// d'(v) = d0(v) + p(s) - p(v), with d0 from Dijkstra on g0. Integer-valued weights keep float
// sums exact.
//
// A planted negative cycle: k new vertices x0 -> x1 -> ... -> x0 of total weight -1, entered
// from a reached vertex (reachable) or from nowhere (unreachable), with one heavy arc back into
// the graph. The entry and exit arcs are heavy enough that every negative cycle is the planted
// one, so a reported vertex must be one of its k.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "random_graphs.hpp"
#include "tropic/csr.hpp"
#include "tropic/sssp.hpp"

namespace tropic::testing {

template <class W>
struct negative_case {
  std::string name;
  csr<W> g;
  vertex source = 0;
  std::vector<W> want;        // exact distances (infinity<W>() where unreachable)
  std::vector<vertex> cycle;  // the planted cycle's vertices, if any
  bool cycle_reachable = false;
};

template <class W>
negative_case<W> reweighted_case(const test_graph_case& c) {
  const csr<std::int64_t> g0 = c.graph<std::int64_t>();
  negative_case<W> out;
  out.name = c.name() + " reweighted";
  out.source = g0.n ? c.source(g0.n) : 0;
  std::int64_t heaviest = 1;
  for (std::int64_t w : g0.weights) heaviest = std::max(heaviest, w);
  test_rng rng(c.seed * 7919 + 17);
  std::vector<std::int64_t> p(g0.n);
  for (auto& x : p) x = static_cast<std::int64_t>(rng.below(std::uint64_t(2 * heaviest + 2)));
  out.g.n = g0.n;
  out.g.row_offsets = g0.row_offsets;
  out.g.columns = g0.columns;
  out.g.weights.resize(g0.weights.size());
  for (vertex u = 0; u < g0.n; ++u)
    for (arc_index e = g0.row_offsets[u]; e < g0.row_offsets[u + 1]; ++e)
      out.g.weights[e] = static_cast<W>(g0.weights[e] + p[u] - p[g0.columns[e]]);
  out.want.assign(g0.n, infinity<W>());
  if (g0.n == 0) return out;
  const auto d0 = dijkstra(g0, out.source, false).distances;
  for (vertex v = 0; v < g0.n; ++v)
    if (d0[v] != infinity<std::int64_t>())
      out.want[v] = static_cast<W>(d0[v] + p[out.source] - p[v]);
  return out;
}

// base plus a planted cycle of k >= 1 vertices (k = 1: a negative self-loop).
template <class W>
negative_case<W> with_planted_cycle(const negative_case<W>& base, vertex k, bool reachable) {
  negative_case<W> out;
  out.name = base.name + (reachable ? " + reachable" : " + unreachable") + " negative cycle of " +
             std::to_string(k);
  out.source = base.source;
  out.cycle_reachable = reachable;
  const csr<W>& g = base.g;
  const vertex n = g.n;
  // Heavier than any path of the graph is light: every cycle through entry or exit is >= 0.
  double lightest = 0;
  for (W w : g.weights) lightest = std::min(lightest, double(w));
  const W heavy = static_cast<W>(1000 - lightest * 2);
  // entry: the reached vertex farthest from the source in id order (any reached one will do)
  vertex entry = base.source;
  for (vertex v = 0; v < n; ++v)
    if (base.want[v] != infinity<W>()) entry = v;
  const vertex exit_to = (base.source + 1) % n;
  out.g.n = n + k;
  out.g.row_offsets.assign(std::size_t(n + k) + 1, 0);
  for (vertex u = 0; u < n + k; ++u) {
    if (u < n) {
      for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
        out.g.columns.push_back(g.columns[e]);
        out.g.weights.push_back(g.weights[e]);
      }
      if (reachable && u == entry) {  // new ids are above every old one: the row stays sorted
        out.g.columns.push_back(n);
        out.g.weights.push_back(heavy);
      }
    } else {
      const vertex i = u - n;
      std::vector<std::pair<vertex, W>> row;
      // x_i -> x_{i+1}: weights 2, 2, ..., and the last one closes the cycle at -1 in total.
      const W w = i + 1 < k ? W(2) : static_cast<W>(-1 - 2 * std::int64_t(k - 1));
      row.emplace_back(n + (i + 1) % k, w);
      if (i == 0) row.emplace_back(exit_to, heavy);
      std::sort(row.begin(), row.end());
      for (const auto& [v, x] : row) {
        out.g.columns.push_back(v);
        out.g.weights.push_back(x);
      }
    }
    out.g.row_offsets[u + 1] = out.g.columns.size();
  }
  for (vertex i = 0; i < k; ++i) out.cycle.push_back(n + i);
  out.want = base.want;
  out.want.resize(n + k, infinity<W>());
  return out;
}

// The vertex a negative_cycle message names ("... vertex 17 lies on one ..."), or -1.
inline long long named_cycle_vertex(const std::string& msg) {
  const std::string key = "vertex ";
  const auto at = msg.find(key);
  if (at == std::string::npos) return -1;
  return std::stoll(msg.substr(at + key.size()));
}

}  // namespace tropic::testing
