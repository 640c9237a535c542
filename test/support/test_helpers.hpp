// Helpers the suites share: random values and dense vectors, a comparison exact for integers and
// tolerant for floating-point sums, graphs of chosen shapes (a star, rows of given lengths, a
// path, a uniform digraph), and the loop of an algorithm's random-graph suite. Plain C++: the CPU
// suites include it too.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "random_graphs.hpp"
#include "tropic/csr.hpp"

namespace tropic::testing {

// A value in 0..60, or infinity<W>() ("no entry" of a min-plus vector) with the given chance.
template <class W>
W random_value(test_rng& rng, double infinity_chance) {
  if (rng.chance(infinity_chance)) return infinity<W>();
  return W(rng.between(0, 60));
}

template <class W>
std::vector<W> random_dense(test_rng& rng, vertex n, double infinity_chance) {
  std::vector<W> v(n);
  for (auto& x : v) x = random_value<W>(rng, infinity_chance);
  return v;
}

// a == b, or for a sum whose order the GPU chooses (plus-times in floating point) within 1e-5
// of the larger magnitude (at least 1).
template <class W>
bool same(W a, W b, bool exact) {
  if (exact || a == b) return a == b;
  const double x = double(a), y = double(b);
  return std::fabs(x - y) <= 1e-5 * std::max(1.0, std::max(std::fabs(x), std::fabs(y)));
}

// A star whose hub (vertex 0) has `leaves` out-arcs, every leaf an arc back of the same weight
// 0..9: the degree-skew case.
template <class W>
csr<W> star(vertex leaves, std::uint64_t seed) {
  test_rng rng(seed);
  arc_list<W> a;
  a.n = leaves + 1;
  for (vertex v = 1; v <= leaves; ++v) {
    const W w = W(rng.between(0, 9));
    a.push_back(0, v, w);
    a.push_back(v, 0, w);
  }
  return build_csr(a);
}

// Row i has lengths[i] arcs, and a row past the list tail(i) arcs; distinct columns from a
// random start, weights 0..9. Rows whose lengths sit at a kernel's tile edges, one short of
// them and one past them.
template <class W, class Tail>
csr<W> rows_of_lengths(vertex n, const std::vector<arc_index>& lengths, std::uint64_t seed,
                       Tail tail) {
  test_rng rng(seed);
  csr<W> g;
  g.n = n;
  g.row_offsets.assign(1, 0);
  for (vertex i = 0; i < n; ++i) {
    const arc_index len = i < lengths.size() ? lengths[i] : tail(i);
    const vertex start = vertex(rng.below(n));
    std::vector<vertex> cols;
    for (arc_index k = 0; k < len; ++k) cols.push_back(vertex((start + k) % n));
    std::sort(cols.begin(), cols.end());
    for (vertex c : cols) {
      g.columns.push_back(c);
      g.weights.push_back(W(rng.between(0, 9)));
    }
    g.row_offsets.push_back(g.columns.size());
  }
  return g;
}
// The same with the list repeated (row i: lengths[i % size]; no arcs for an empty list).
template <class W>
csr<W> rows_of_lengths(vertex n, const std::vector<arc_index>& lengths, std::uint64_t seed) {
  return rows_of_lengths<W>(n, lengths, seed, [&](vertex i) {
    return lengths.empty() ? arc_index(0) : lengths[i % lengths.size()];
  });
}

// n vertices on a line, i -> i+1 (and back when `both`), weights 1..7.
template <class W>
csr<W> path_graph(vertex n, bool both) {
  arc_list<W> l;
  l.n = n;
  for (vertex i = 0; i + 1 < n; ++i) {
    l.push_back(i, i + 1, W(1 + i % 7));
    if (both) l.push_back(i + 1, i, W(1 + (i * 5) % 7));
  }
  return build_csr(l);
}

// A uniform random digraph: n vertices, `degree` random out-arcs each, weights 0..max_w
// (build_csr keeps the lightest of parallel arcs and drops self-loops).
template <class W>
csr<W> uniform_digraph(vertex n, unsigned degree, std::uint64_t max_w, std::uint64_t seed) {
  test_rng rng(seed);
  arc_list<W> l;
  l.n = n;
  for (vertex u = 0; u < n; ++u)
    for (unsigned j = 0; j < degree; ++j) {
      W w;
      if constexpr (std::is_floating_point_v<W>)
        w = static_cast<W>(rng.uniform01() * double(max_w));
      else
        w = static_cast<W>(rng.below(max_w + 1));
      l.push_back(u, static_cast<vertex>(rng.below(n)), w);
    }
  return build_csr(l);
}

// check(g, source) on `count` random test graphs of weight type W (test_graph_cases from
// base_seed), each named in a failure's report.
template <class W, class Check>
void for_each_test_graph(std::size_t count, std::uint64_t base_seed, Check&& check) {
  for (const auto& c : test_graph_cases(count, base_seed)) {
    CAPTURE(c.name());
    const csr<W> g = c.graph<W>();
    check(g, c.source(g.n));
  }
}

}  // namespace tropic::testing
