// Small random graphs for tests: deterministic for a seed, for every weight type, and full of
// what breaks SSSP code: zero weights, ties, parallel arcs, self-loops, unreachable vertices,
// isolated vertices, skewed degrees, long paths.
//
//   for (const auto& c : testing::test_graph_cases(300)) {
//     CAPTURE(c.name());
//     const auto g = c.graph<float>();
//     const vertex s = c.source(g.n);
//     ...
//   }
//
// Everything here is self-contained (its own counter-based RNG, its own CSR assembly) so that
// tests of build_csr and of the generators can use it without testing code with itself.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tropic/csr.hpp"

namespace tropic::testing {

// A CSR from (u, v, w) triples given in row order, columns sorted within each row.
template <class W>
csr<W> make_csr(vertex n, const std::vector<std::tuple<vertex, vertex, W>>& arcs) {
  csr<W> g;
  g.n = n;
  g.row_offsets.assign(n + 1, 0);
  for (const auto& [u, v, w] : arcs) {
    ++g.row_offsets[u + 1];
    g.columns.push_back(v);
    g.weights.push_back(w);
  }
  for (vertex u = 0; u < n; ++u) g.row_offsets[u + 1] += g.row_offsets[u];
  return g;
}

enum class test_graph_kind {
  kronecker,          // R-MAT, symmetrized: skewed degrees, many parallel arcs and self-loops
  uniform,            // directed, random out-degree 0..6: some vertices unreachable
  grid,               // 4-neighbour, undirected: long shortest paths, many ties
  path,               // a chain, some links one-way: everything before the source unreachable
  star,               // one hub: a vertex of very high degree
  empty_arcs,         // vertices and no arcs at all
  disconnected,       // several components with no arc between them, plus isolated vertices
  zero_weight_heavy,  // most weights 0: zero-weight cycles, massive ties
};

inline constexpr test_graph_kind all_test_graph_kinds[] = {
    test_graph_kind::kronecker,    test_graph_kind::uniform,
    test_graph_kind::grid,         test_graph_kind::path,
    test_graph_kind::star,         test_graph_kind::empty_arcs,
    test_graph_kind::disconnected, test_graph_kind::zero_weight_heavy,
};

inline const char* test_graph_kind_name(test_graph_kind k) noexcept {
  switch (k) {
    case test_graph_kind::kronecker:
      return "kronecker";
    case test_graph_kind::uniform:
      return "uniform";
    case test_graph_kind::grid:
      return "grid";
    case test_graph_kind::path:
      return "path";
    case test_graph_kind::star:
      return "star";
    case test_graph_kind::empty_arcs:
      return "empty_arcs";
    case test_graph_kind::disconnected:
      return "disconnected";
    case test_graph_kind::zero_weight_heavy:
      return "zero_weight_heavy";
  }
  return "unknown";
}

// splitmix64: a few lines, the same sequence on every platform (unlike std:: distributions).
class test_rng {
 public:
  explicit test_rng(std::uint64_t seed) noexcept : state_(seed) {}
  std::uint64_t next() noexcept {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t bound) noexcept { return bound == 0 ? 0 : next() % bound; }
  std::uint64_t between(std::uint64_t lo, std::uint64_t hi) noexcept {
    return lo + below(hi - lo + 1);
  }
  double uniform01() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(double p) noexcept { return uniform01() < p; }

 private:
  std::uint64_t state_;
};

namespace detail {

// Per graph: how heavy the weights are and how many are zero. Small maxima make ties common;
// floating types sometimes get fractional weights, so sums are inexact.
template <class W>
class test_weights {
 public:
  test_weights(test_rng& rng, double zero_share) : zero_share_(zero_share) {
    static constexpr std::uint64_t maxima[] = {1, 3, 10, 100, 1000};
    max_ = maxima[rng.below(5)];
    if constexpr (std::is_floating_point_v<W>) fractional_ = rng.chance(0.5);
  }
  W operator()(test_rng& rng) const {
    if (rng.chance(zero_share_)) return W(0);
    if constexpr (std::is_floating_point_v<W>) {
      if (fractional_) return static_cast<W>(rng.uniform01() * static_cast<double>(max_));
    }
    return static_cast<W>(rng.between(1, max_));
  }

 private:
  double zero_share_;
  std::uint64_t max_ = 1;
  bool fractional_ = false;
};

inline void shuffle_ids(std::vector<vertex>& ids, test_rng& rng) {
  for (std::size_t i = ids.size(); i > 1; --i) std::swap(ids[i - 1], ids[rng.below(i)]);
}

}  // namespace detail

// The raw arcs of a random graph, in random order: parallel arcs (with different weights) and
// self-loops included. Every endpoint is < n; n >= 1.
template <class W>
arc_list<W> random_test_arcs(std::uint64_t seed, test_graph_kind kind) {
  static_assert(is_weight_type_v<W>, "one of the six tropic weight types");
  test_rng rng(seed * 0x2545f4914f6cdd1dULL + static_cast<std::uint64_t>(kind) + 1);
  const double zero_share = kind == test_graph_kind::zero_weight_heavy ? 0.7
                            : rng.chance(0.5)                          ? 0.15
                                                                       : 0.0;
  const detail::test_weights<W> weight(rng, zero_share);
  arc_list<W> a;
  auto both_ways = [&](vertex u, vertex v) {
    const W w = weight(rng);
    a.push_back(u, v, w);
    a.push_back(v, u, w);
  };
  auto random_arcs = [&](vertex first, vertex count, std::uint64_t max_degree) {
    for (vertex u = first; u < first + count; ++u) {
      const std::uint64_t d = rng.below(max_degree + 1);
      for (std::uint64_t k = 0; k < d; ++k)
        a.push_back(u, static_cast<vertex>(first + rng.below(count)), weight(rng));
    }
  };

  switch (kind) {
    case test_graph_kind::kronecker: {
      const int scale = static_cast<int>(rng.between(2, 7));
      a.n = vertex(1) << scale;
      const std::uint64_t edges = rng.between(1, 8) * a.n;
      for (std::uint64_t e = 0; e < edges; ++e) {
        vertex u = 0, v = 0;
        for (int level = 0; level < scale; ++level) {
          const double r = rng.uniform01();  // quadrants A = 0.57, B = C = 0.19, D = 0.05
          u |= static_cast<vertex>(r >= 0.76) << level;
          v |= static_cast<vertex>((r >= 0.57 && r < 0.76) || r >= 0.95) << level;
        }
        both_ways(u, v);
      }
      break;
    }
    case test_graph_kind::uniform:
      a.n = static_cast<vertex>(rng.between(2, 150));
      random_arcs(0, a.n, 6);
      break;
    case test_graph_kind::grid: {
      const auto rows = static_cast<vertex>(rng.between(1, 12));
      const auto cols = static_cast<vertex>(rng.between(1, 12));
      a.n = rows * cols;
      for (vertex r = 0; r < rows; ++r)
        for (vertex c = 0; c < cols; ++c) {
          if (c + 1 < cols) both_ways(r * cols + c, r * cols + c + 1);
          if (r + 1 < rows) both_ways(r * cols + c, (r + 1) * cols + c);
        }
      break;
    }
    case test_graph_kind::path:
      a.n = static_cast<vertex>(rng.between(1, 200));
      for (vertex u = 0; u + 1 < a.n; ++u) {
        if (rng.chance(0.5))
          both_ways(u, u + 1);
        else
          a.push_back(u, u + 1, weight(rng));
      }
      break;
    case test_graph_kind::star: {
      a.n = static_cast<vertex>(rng.between(2, 300));
      const auto hub = static_cast<vertex>(rng.below(a.n));
      for (vertex v = 0; v < a.n; ++v) {
        if (v == hub) continue;
        a.push_back(hub, v, weight(rng));
        if (rng.chance(0.5)) a.push_back(v, hub, weight(rng));
        if (rng.chance(0.1)) a.push_back(v, static_cast<vertex>(rng.below(a.n)), weight(rng));
      }
      break;
    }
    case test_graph_kind::empty_arcs:
      a.n = static_cast<vertex>(rng.between(1, 50));
      break;
    case test_graph_kind::disconnected: {
      const auto parts = static_cast<vertex>(rng.between(2, 4));
      std::vector<vertex> sizes(parts);
      for (auto& s : sizes) s = static_cast<vertex>(rng.between(1, 40));
      a.n = static_cast<vertex>(rng.below(5));  // isolated vertices first
      for (vertex s : sizes) {
        random_arcs(a.n, s, 4);
        for (vertex u = a.n; u + 1 < a.n + s; ++u)  // a path keeps each part mostly connected
          if (rng.chance(0.7)) both_ways(u, u + 1);
        a.n += s;
      }
      break;
    }
    case test_graph_kind::zero_weight_heavy:
      a.n = static_cast<vertex>(rng.between(2, 120));
      random_arcs(0, a.n, 5);
      for (vertex u = 0; u + 1 < a.n; u += 2) both_ways(u, u + 1);  // zero-weight 2-cycles
      break;
  }

  // Parallel arcs with their own weights, and self-loops, on top of what the kind made.
  if (a.size() > 0) {
    const std::uint64_t extra = rng.below(a.size() / 4 + 2);
    for (std::uint64_t k = 0; k < extra; ++k) {
      const std::uint64_t i = rng.below(a.size());
      a.push_back(a.src[i], a.dst[i], weight(rng));
    }
  }
  const std::uint64_t loops = rng.below(4);
  for (std::uint64_t k = 0; k < loops; ++k) {
    const auto u = static_cast<vertex>(rng.below(a.n));
    a.push_back(u, u, weight(rng));
  }

  // Relabel the vertices and shuffle the arcs: no kind keeps its structure at low ids or in
  // arc order.
  std::vector<vertex> label(a.n);
  for (vertex v = 0; v < a.n; ++v) label[v] = v;
  detail::shuffle_ids(label, rng);
  for (std::size_t i = a.size(); i > 1; --i) {
    const std::size_t j = rng.below(i);
    std::swap(a.src[i - 1], a.src[j]);
    std::swap(a.dst[i - 1], a.dst[j]);
    std::swap(a.weight[i - 1], a.weight[j]);
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    a.src[i] = label[a.src[i]];
    a.dst[i] = label[a.dst[i]];
  }
  return a;
}

struct test_graph_options {
  bool keep_parallel_arcs = true;  // false: keep the lightest of each u -> v
  bool keep_self_loops = true;
};

// The CSR of random_test_arcs, assembled here (not by build_csr): rows sorted by column, and
// parallel arcs, by default kept, in random weight order (the lightest is not always first), as an
// algorithm must tolerate them. Self-loops are kept by default too.
template <class W>
csr<W> random_test_graph(std::uint64_t seed, test_graph_kind kind,
                         const test_graph_options& opts = {}) {
  const arc_list<W> a = random_test_arcs<W>(seed, kind);
  // The arcs are shuffled already: ties broken by position keep parallel arcs in random order.
  std::vector<std::size_t> order(a.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return std::tie(a.src[x], a.dst[x], x) < std::tie(a.src[y], a.dst[y], y);
  });
  csr<W> g;
  g.n = a.n;
  g.row_offsets.assign(static_cast<std::size_t>(a.n) + 1, 0);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    if (!opts.keep_self_loops && a.src[i] == a.dst[i]) continue;
    if (!opts.keep_parallel_arcs && k > 0 && a.src[order[k - 1]] == a.src[i] &&
        a.dst[order[k - 1]] == a.dst[i]) {
      g.weights.back() = std::min(g.weights.back(), a.weight[i]);
      continue;
    }
    g.columns.push_back(a.dst[i]);
    g.weights.push_back(a.weight[i]);
    ++g.row_offsets[a.src[i] + 1];
  }
  for (vertex u = 0; u < a.n; ++u) g.row_offsets[u + 1] += g.row_offsets[u];
  return g;
}

// One graph of a "hundreds of random graphs" loop: a seed, a kind, and a source.
struct test_graph_case {
  std::uint64_t seed = 0;
  test_graph_kind kind = test_graph_kind::uniform;

  template <class W>
  csr<W> graph(const test_graph_options& opts = {}) const {
    return random_test_graph<W>(seed, kind, opts);
  }
  template <class W>
  arc_list<W> arcs() const {
    return random_test_arcs<W>(seed, kind);
  }
  // A source in [0, n), fixed by the seed.
  vertex source(vertex n) const {
    test_rng rng(seed ^ 0x5eedULL);
    return static_cast<vertex>(rng.below(n));
  }
  std::string name() const {
    return std::string(test_graph_kind_name(kind)) + " seed " + std::to_string(seed);
  }
};

// `count` cases cycling through every kind, seeds base_seed, base_seed + 1, ...
inline std::vector<test_graph_case> test_graph_cases(std::size_t count,
                                                     std::uint64_t base_seed = 1) {
  constexpr std::size_t kinds = sizeof(all_test_graph_kinds) / sizeof(all_test_graph_kinds[0]);
  std::vector<test_graph_case> cases(count);
  for (std::size_t i = 0; i < count; ++i)
    cases[i] = {base_seed + i, all_test_graph_kinds[i % kinds]};
  return cases;
}

}  // namespace tropic::testing
