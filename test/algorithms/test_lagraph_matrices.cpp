// LAGraph's own SSSP test matrices (test/data/lagraph/) through tropic's CPU paths: from every
// source with the weights LAGraph's test gives them (1..255) against Dijkstra, with LAGraph's
// added negative arc A(0,1) = -1, and from LAGraph's sources with their raw values (several hold negative entries, and symmetric ones with a negative entry hold a
// negative 2-cycle) against the Bellman-Ford reference: the same distances, or the same
// negative-cycle verdict.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lagraph_matrices.hpp"
#include "tropic/error.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;

namespace {

// The distances, or the error code when the run throws one.
template <class W>
struct outcome {
  std::vector<W> distances;
  bool cycle = false;
  std::string problems;
};

template <class W>
outcome<W> outcome_of(const csr<W>& g, vertex s, const std::vector<W>* want, algorithm a,
                      double delta) {
  outcome<W> o;
  options opts;
  opts.algorithm = a;
  opts.delta = delta;
  opts.parents = true;
  try {
    const result<W> r = sssp(g, s, opts);
    o.distances = r.distances;
    if (want) o.problems = verify(g, s, *want, r);
  } catch (const error& e) {
    if (e.code() != error_code::negative_cycle) throw;
    o.cycle = true;
  }
  return o;
}

// Sources 0, step, 2 step, ... (every source by default): the reference's answer (or its
// negative-cycle verdict) and graphblas_cpu's must agree on each. auto's too, on every fourth
// source up to 300 vertices and on 32 spread over the larger matrices: without a GPU it is
// graphblas_cpu again, and graphblas_cpu's few ms a call on every source of the larger matrices
// already take a CI minute per test case. The Deltas LAGraph's test tries, one per source in turn.
template <class W>
std::size_t check_sources(const csr<W>& g, const std::string& name, vertex step = 1) {
  const double deltas[] = {30, 100, 50000, 0};
  const vertex auto_step = std::max<vertex>(step * 4, g.n <= 300 ? 1 : g.n / 32);
  std::size_t cycles = 0;
  for (vertex s = 0; s < g.n; s += step) {
    CAPTURE(name);
    CAPTURE(s);
    std::vector<W> want;
    bool cycle = false;
    try {
      want = reference_sssp(g, s, false).distances;
    } catch (const error& e) {
      REQUIRE(e.code() == error_code::negative_cycle);
      cycle = true;
    }
    cycles += cycle;
    for (algorithm a : {algorithm::graphblas_cpu, algorithm::automatic}) {
      if (a == algorithm::automatic && s % auto_step != 0) continue;
      if (a == algorithm::automatic && cycle && s > 0) continue;  // n rounds of m arcs to prove
      CAPTURE(algorithm_name(a));
      const outcome<W> got = outcome_of(g, s, cycle ? nullptr : &want, a, deltas[s % 4]);
      CHECK(got.cycle == cycle);
      CHECK(got.problems == "");
    }
  }
  return cycles;
}

}  // namespace

TEST_SUITE("lagraph_matrices") {
  TEST_CASE("LAGraph's SSSP matrices, LAGraph's test weights, against Dijkstra") {
    for (const char* name : testing::lagraph_sssp_matrices) {
      const csr<std::int32_t> g = testing::lagraph_test_weights(testing::read_lagraph_matrix(name));
      REQUIRE(g.n > 0);
      CHECK(check_sources(g, name) == 0);
      // The Bellman-Ford reference agrees with Dijkstra where both apply.
      for (vertex s = 0; s < g.n; ++s) {
        CAPTURE(name);
        CAPTURE(s);
        CHECK(bellman_ford_cpu(g, s, false).distances == dijkstra(g, s, false).distances);
      }
    }
  }

  TEST_CASE("LAGraph's SSSP matrices with its added negative arc A(0,1) = -1") {
    std::size_t cycles = 0;
    for (const char* name : testing::lagraph_sssp_matrices) {
      arc_list<double> raw = testing::read_lagraph_matrix(name);
      csr<std::int32_t> g = testing::lagraph_test_weights(raw);
      arc_list<std::int32_t> arcs;
      arcs.n = g.n;
      for (vertex u = 0; u < g.n; ++u)
        for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e)
          if (!(u == 0 && g.columns[e] == 1)) arcs.push_back(u, g.columns[e], g.weights[e]);
      arcs.push_back(0, 1, -1);
      g = build_csr(arcs, {duplicate_policy::keep_min, false, false});
      cycles += check_sources(g, name);
      // LAGraph's own check: from 0, vertex 1 is at -1.
      CHECK(reference_sssp(g, 0, false).distances[1] == -1);
    }
    CHECK(cycles == 0);  // 1 -> 0 (when present) weighs >= 1: no cycle below zero
  }

  TEST_CASE("LAGraph's SSSP matrices with their raw values, negative entries included") {
    std::size_t cycles = 0, negative = 0;
    for (const char* name : testing::lagraph_sssp_matrices) {
      const csr<double> g = testing::lagraph_raw_weights(testing::read_lagraph_matrix(name));
      for (double w : g.weights) negative += w < 0;
      // A negative cycle costs n rounds of m arcs to prove: LAGraph's test's sources (its
      // step: 3n/4 above 100 vertices, else n/4 + 1), not every one.
      cycles += check_sources(g, name, g.n > 100 ? 3 * g.n / 4 : g.n / 4 + 1);
    }
    // Symmetric matrices with negative entries (LFAT5, bcsstk13, ...) make negative 2-cycles,
    // skew_fp32 and the non-negative ones none: both verdicts are exercised.
    CHECK(negative > 0);
    CHECK(cycles > 0);
  }
}
