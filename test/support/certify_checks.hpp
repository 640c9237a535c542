// The certificate as P row parts would run it (certify_rows on each, certify_combine once), small
// hand-made graphs and answers, and answers damaged in every way the certificate must catch: the
// CPU and GPU certificate tests compare each form with the whole check.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "random_graphs.hpp"
#include "tropic/partition.hpp"
#include "tropic/sssp.hpp"

namespace tropic::testing {

template <class W>
std::string certify_in_parts(const csr<W>& g, vertex s, const result<W>& r, std::size_t parts) {
  std::vector<certificate_part> checked;
  for (const row_range& rows : partition_rows(g, parts))
    checked.push_back(certify_rows(g, s, r, rows));
  return certify_combine(s, r, checked);
}

template <class W>
result<W> answer(std::vector<W> d, std::vector<std::int64_t> parents = {}) {
  result<W> r;
  r.distances = std::move(d);
  r.parents = std::move(parents);
  return r;
}

template <class W>
struct named_answer {
  std::string name;
  result<W> answer;
};

// `exact` (distances and parents of a solve from s) and damaged copies of it, each with and
// without parents: a distance too small or too large, infinity for a reached vertex, a finite
// value on an unreached one, d[s] != 0, wrong, out-of-range and self parents, a parent cycle of
// two tight arcs where the graph has one, every distance off by one; NaN for floats. The vertices
// are drawn by `seed`.
template <class W>
std::vector<named_answer<W>> damaged_answers(const csr<W>& g, vertex s, const result<W>& exact,
                                             std::uint64_t seed) {
  constexpr W inf = infinity<W>();
  std::vector<named_answer<W>> out;
  auto add = [&](const std::string& name, result<W> r, bool also_without_parents = true) {
    out.push_back({name, r});
    if (!also_without_parents) return;
    r.parents.clear();
    out.push_back({name + ", no parents", std::move(r)});
  };
  auto damaged = [&](auto&& change) {
    result<W> r = exact;
    change(r);
    return r;
  };
  test_rng rng(seed);
  std::vector<vertex> reached, unreached;
  for (vertex v = 0; v < g.n; ++v) {
    if (v == s) continue;
    (exact.distances[v] == inf ? unreached : reached).push_back(v);
  }
  add("exact", exact);
  add("d[s] = 1", damaged([&](result<W>& r) { r.distances[s] = W(1); }));
  if (!reached.empty()) {
    const vertex v = reached[rng.below(reached.size())];
    const std::string at = " at " + std::to_string(v);
    if (std::is_signed_v<W> || exact.distances[v] >= W(1))
      add("too small" + at, damaged([&](result<W>& r) { r.distances[v] -= W(1); }));
    add("too large" + at, damaged([&](result<W>& r) { r.distances[v] += W(1); }));
    add("infinity" + at, damaged([&](result<W>& r) { r.distances[v] = inf; }));
    add("infinity, parent -1" + at, damaged([&](result<W>& r) {
          r.distances[v] = inf;
          r.parents[v] = -1;
        }),
        false);
    const auto q = static_cast<std::int64_t>(rng.below(g.n));
    add("parent " + std::to_string(q) + at, damaged([&](result<W>& r) { r.parents[v] = q; }),
        false);
    add("self parent" + at, damaged([&](result<W>& r) { r.parents[v] = v; }), false);
    add("parent n" + at, damaged([&](result<W>& r) { r.parents[v] = g.n; }), false);
    if constexpr (std::is_floating_point_v<W>) {
      add("NaN" + at,
          damaged([&](result<W>& r) { r.distances[v] = std::numeric_limits<W>::quiet_NaN(); }));
      add("-inf" + at, damaged([&](result<W>& r) { r.distances[v] = -inf; }));
    }
    add("all raised", damaged([&](result<W>& r) {
          for (vertex x : reached) r.distances[x] += W(1);
        }));
  }
  // Two reached vertices whose arcs to each other are both tight: parents through each other.
  [&] {
    for (vertex x : reached)
      for (arc_index e = g.row_offsets[x]; e < g.row_offsets[x + 1]; ++e) {
        const vertex y = g.columns[e];
        if (y == x || y == s || exact.distances[y] == inf ||
            exact.distances[x] + g.weights[e] != exact.distances[y])
          continue;
        for (arc_index f = g.row_offsets[y]; f < g.row_offsets[y + 1]; ++f) {
          if (g.columns[f] != x || exact.distances[y] + g.weights[f] != exact.distances[x])
            continue;
          add("parent cycle " + std::to_string(x) + " " + std::to_string(y),
              damaged([&](result<W>& r) {
                r.parents[x] = y;
                r.parents[y] = x;
              }),
              false);
          return;
        }
      }
  }();
  if (!unreached.empty()) {
    const vertex x = unreached[rng.below(unreached.size())];
    const std::string at = " at " + std::to_string(x);
    add("finite unreached" + at, damaged([&](result<W>& r) { r.distances[x] = W(5); }));
    add("finite unreached, parent s" + at, damaged([&](result<W>& r) {
          r.distances[x] = W(5);
          r.parents[x] = s;
        }),
        false);
    add("every unreached finite", damaged([&](result<W>& r) {
          for (vertex y : unreached) r.distances[y] = W(7);
        }));
  }
  return out;
}

}  // namespace tropic::testing
