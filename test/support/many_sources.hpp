// Helpers for the cutoff, many-source and origin-destination tests (CPU and GPU suites): a
// cutoff that no algorithm's rounding can put on the other side of a distance, the truncated
// reference, a check of every row of a multi_result, and random source lists.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "random_graphs.hpp"
#include "tropic/sssp.hpp"

namespace tropic::testing {

// k sources in [0, n): random, with a repeat of an earlier one now and then.
inline std::vector<vertex> random_sources(test_rng& rng, std::size_t k, vertex n) {
  std::vector<vertex> sources(k);
  for (std::size_t s = 0; s < k; ++s)
    sources[s] = s > 0 && rng.chance(0.2) ? sources[rng.below(s)] : vertex(rng.below(n));
  return sources;
}

// A cutoff halfway between two consecutive distinct finite distances of `dist`, near the middle
// (`share` of the way up), with a gap of at least 1e-3 relative so float rounding of different
// algorithms cannot move a vertex across it; +inf when there is no such pair.
template <class W>
double cutoff_between(const std::vector<W>& dist, double share = 0.5) {
  std::vector<double> d;
  for (W x : dist)
    if (x != infinity<W>()) d.push_back(double(x));
  std::sort(d.begin(), d.end());
  d.erase(std::unique(d.begin(), d.end()), d.end());
  if (d.size() < 2) return std::numeric_limits<double>::infinity();
  for (std::size_t i = std::size_t(share * double(d.size() - 1)); i + 1 < d.size(); ++i)
    if (!std::is_floating_point_v<W> || d[i + 1] - d[i] > 1e-3 * std::max(1.0, std::fabs(d[i + 1])))
      return std::is_floating_point_v<W> ? (d[i] + d[i + 1]) / 2 : d[i] + 0.5;
  return std::numeric_limits<double>::infinity();
}

// The reference truncated at the cutoff: Dijkstra in full, then every distance beyond it gone.
template <class W>
std::vector<W> truncated_reference(const csr<W>& g, vertex source, double cutoff) {
  std::vector<W> d = dijkstra(g, source, false).distances;
  for (W& x : d)
    if (x != infinity<W>() && double(x) > cutoff) x = infinity<W>();
  return d;
}

// Every row of `got` against the truncated Dijkstra of its source (parents checked by verify
// when present).
template <class W>
void check_rows(const csr<W>& g, const std::vector<vertex>& sources, double cutoff,
                const multi_result<W>& got) {
  REQUIRE(got.n == g.n);
  REQUIRE(got.sources == sources);
  REQUIRE(got.distances.size() == sources.size() * g.n);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    CAPTURE(i);
    CAPTURE(sources[i]);
    result<W> row;
    row.distances.assign(got.distances.begin() + i * g.n, got.distances.begin() + (i + 1) * g.n);
    if (!got.parents.empty())
      row.parents.assign(got.parents.begin() + i * g.n, got.parents.begin() + (i + 1) * g.n);
    CHECK(verify(g, sources[i], truncated_reference(g, sources[i], cutoff), row) == "");
  }
}

// The origin-destination matrix against the full rows gathered.
template <class W>
void check_od(const csr<W>& g, const std::vector<vertex>& origins,
              const std::vector<vertex>& destinations, double cutoff, const std::vector<W>& got) {
  REQUIRE(got.size() == origins.size() * destinations.size());
  for (std::size_t i = 0; i < origins.size(); ++i) {
    const std::vector<W> want = truncated_reference(g, origins[i], cutoff);
    for (std::size_t j = 0; j < destinations.size(); ++j) {
      CAPTURE(i);
      CAPTURE(j);
      const W a = got[i * destinations.size() + j], b = want[destinations[j]];
      CHECK((a == infinity<W>()) == (b == infinity<W>()));
      if (a != infinity<W>() && b != infinity<W>())
        CHECK(double(a) == doctest::Approx(double(b)).epsilon(1e-5));
    }
  }
}

// A few sources of g, duplicates included, fixed by the seed.
inline std::vector<vertex> some_sources(vertex n, std::uint64_t seed, std::size_t k) {
  test_rng rng(seed * 7919 + 3);
  std::vector<vertex> s;
  for (std::size_t i = 0; i < k; ++i) s.push_back(vertex(rng.below(n)));
  if (k > 2) s[k - 1] = s[0];  // a duplicate: its row must equal the first
  return s;
}

}  // namespace tropic::testing
