// Negative arcs on the CPU paths: the Bellman-Ford reference and graphblas_cpu (and auto, which
// is graphblas_cpu without a GPU and bellman_ford with one) against distances known from
// Dijkstra through potentials, every signed type; planted negative cycles reported, never
// looped on; unreachable ones change nothing; overflow below the type's range reported.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "negative_graphs.hpp"
#include "random_graphs.hpp"
#include "tropic/error.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;

namespace {

template <class W>
result<W> run(const csr<W>& g, vertex s, algorithm a, double delta = 0) {
  options o;
  o.algorithm = a;
  o.delta = delta;
  o.parents = true;
  return sssp(g, s, o);
}

// How many arcs are negative: the cases must actually exercise them.
template <class W>
std::size_t negative_arcs(const csr<W>& g) {
  std::size_t k = 0;
  for (W w : g.weights) k += w < W(0);
  return k;
}

// Runs f and returns the error it throws (code and message); FAILs when it returns.
template <class F>
error thrown_by(F&& f) {
  try {
    f();
  } catch (const error& e) {
    return e;
  }
  FAIL("no error thrown");
  return error(error_code::invalid_value, "");
}

template <class W>
void check_exact(std::size_t count, std::uint64_t seed) {
  std::size_t negative = 0;
  for (const auto& c : testing::test_graph_cases(count, seed)) {
    const auto k = testing::reweighted_case<W>(c);
    CAPTURE(k.name);
    if (k.g.n == 0) continue;
    negative += negative_arcs(k.g);
    const result<W> ref = bellman_ford_cpu(k.g, k.source, true);
    CHECK(verify(k.g, k.source, k.want, ref) == "");
    CHECK(reference_sssp(k.g, k.source, false).distances == ref.distances);
    for (double delta : {0.0, 3.0, std::numeric_limits<double>::infinity()}) {
      CAPTURE(delta);
      const result<W> gb = run(k.g, k.source, algorithm::graphblas_cpu, delta);
      CHECK(verify(k.g, k.source, k.want, gb) == "");
      // Bellman-Ford's one bucket with a negative arc, whatever was asked
      if (negative_arcs(k.g) > 0) CHECK(std::isinf(gb.stats.delta));
    }
    const result<W> any = run(k.g, k.source, algorithm::automatic);
    CHECK(verify(k.g, k.source, k.want, any) == "");
    // bellman_ford on every build: the GPU's where one is usable, else bellman_ford_cpu.
    const result<W> bf = run(k.g, k.source, algorithm::bellman_ford);
    CHECK(verify(k.g, k.source, k.want, bf) == "");
    CHECK(bf.stats.algorithm == (gpu_available() ? "bellman_ford" : "bellman_ford_cpu"));
  }
  CHECK(negative > count);  // on average more than one negative arc per graph
}

}  // namespace

TEST_SUITE("negative_weights") {
  TEST_CASE("bellman_ford_cpu, graphblas_cpu and auto are exact with negative arcs: int32") {
    check_exact<std::int32_t>(120, 1);
  }
  TEST_CASE("bellman_ford_cpu, graphblas_cpu and auto are exact with negative arcs: int64") {
    check_exact<std::int64_t>(120, 501);
  }
  TEST_CASE("bellman_ford_cpu, graphblas_cpu and auto are exact with negative arcs: float") {
    check_exact<float>(120, 1001);
  }
  TEST_CASE("bellman_ford_cpu, graphblas_cpu and auto are exact with negative arcs: double") {
    check_exact<double>(120, 1501);
  }

  TEST_CASE(
      "a reachable negative cycle is reported with a vertex on it, an unreachable one is "
      "ignored" *
      doctest::timeout(60)) {
    const auto started = std::chrono::steady_clock::now();
    for (const auto& c : testing::test_graph_cases(48, 2001)) {
      const auto base = testing::reweighted_case<std::int64_t>(c);
      if (base.g.n < 2) continue;
      for (vertex k : {vertex(1), vertex(2), vertex(5)}) {
        const auto hit = testing::with_planted_cycle(base, k, true);
        CAPTURE(hit.name);
        for (algorithm a :
             {algorithm::graphblas_cpu, algorithm::automatic, algorithm::bellman_ford}) {
          CAPTURE(algorithm_name(a));
          const error e = thrown_by([&] { run(hit.g, hit.source, a); });
          CHECK(e.code() == error_code::negative_cycle);
          const long long v = testing::named_cycle_vertex(e.what());
          INFO(e.what());
          CHECK(std::find(hit.cycle.begin(), hit.cycle.end(), v) != hit.cycle.end());
        }
        const error e = thrown_by([&] { bellman_ford_cpu(hit.g, hit.source); });
        CHECK(e.code() == error_code::negative_cycle);
        CHECK(std::find(hit.cycle.begin(), hit.cycle.end(),
                        testing::named_cycle_vertex(e.what())) != hit.cycle.end());

        const auto miss = testing::with_planted_cycle(base, k, false);
        CAPTURE(miss.name);
        CHECK(verify(miss.g, miss.source, miss.want, bellman_ford_cpu(miss.g, miss.source)) == "");
        CHECK(verify(miss.g, miss.source, miss.want,
                     run(miss.g, miss.source, algorithm::graphblas_cpu)) == "");
        CHECK(verify(miss.g, miss.source, miss.want,
                     run(miss.g, miss.source, algorithm::automatic)) == "");
      }
    }
    // The round bound is the time bound: 48 graphs x 3 cycles, each proven within n rounds.
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(60));
  }

  TEST_CASE("every signed type reports a planted cycle") {
    const auto c = testing::test_graph_cases(3, 3001)[1];  // uniform
    auto check = [&](auto w) {
      using W = decltype(w);
      const auto hit = testing::with_planted_cycle(testing::reweighted_case<W>(c), 3, true);
      CAPTURE(weight_type_name<W>());
      CHECK(thrown_by([&] { run(hit.g, hit.source, algorithm::graphblas_cpu); }).code() ==
            error_code::negative_cycle);
      CHECK(thrown_by([&] { reference_sssp(hit.g, hit.source); }).code() ==
            error_code::negative_cycle);
    };
    check(std::int32_t{});
    check(std::int64_t{});
    check(float{});
    check(double{});
  }

  TEST_CASE("the algorithms that need non-negative weights still say so") {
    const auto k = testing::reweighted_case<double>(testing::test_graph_cases(2, 4001)[1]);
    REQUIRE(negative_arcs(k.g) > 0);
    const error e = thrown_by([&] { run(k.g, k.source, algorithm::dijkstra); });
    CHECK(e.code() == error_code::invalid_value);
    CHECK(std::string(e.what()).find("negative") != std::string::npos);
    CHECK(thrown_by([&] { dijkstra(k.g, k.source); }).code() == error_code::invalid_value);
    // Unsigned types cannot hold a negative arc; their answers are unchanged (reference_sssp is
    // Dijkstra there).
    const auto u = testing::random_test_graph<std::uint32_t>(5, testing::test_graph_kind::grid);
    CHECK(reference_sssp(u, 0).distances == dijkstra(u, 0).distances);
  }

  TEST_CASE("distances below the type's range are an overflow, not a wrap") {
    // 0 -> 1 -> 2 -> 3, each arc -2^30: d(3) = -3 * 2^30 < INT32_MIN.
    csr<std::int32_t> g;
    g.n = 4;
    g.row_offsets = {0, 1, 2, 3, 3};
    g.columns = {1, 2, 3};
    g.weights = {-(1 << 30), -(1 << 30), -(1 << 30)};
    CHECK(thrown_by([&] { bellman_ford_cpu(g, 0); }).code() == error_code::overflow);
    CHECK(thrown_by([&] { run(g, 0, algorithm::graphblas_cpu); }).code() == error_code::overflow);
    // In int64 the same graph is exact.
    csr<std::int64_t> wide;
    wide.n = 4;
    wide.row_offsets = g.row_offsets;
    wide.columns = g.columns;
    wide.weights.assign(g.weights.begin(), g.weights.end());
    const std::int64_t q = std::int64_t(1) << 30;
    const std::vector<std::int64_t> want = {0, -q, -2 * q, -3 * q};
    CHECK(bellman_ford_cpu(wide, 0).distances == want);
    CHECK(run(wide, 0, algorithm::graphblas_cpu).distances == want);
  }

  TEST_CASE("a two-vertex negative cycle through the source, and n = 1 with a negative loop") {
    csr<std::int32_t> g;
    g.n = 2;
    g.row_offsets = {0, 1, 2};
    g.columns = {1, 0};
    g.weights = {-1, -1};
    for (algorithm a : {algorithm::graphblas_cpu, algorithm::automatic}) {
      const error e = thrown_by([&] { run(g, 0, a); });
      CHECK(e.code() == error_code::negative_cycle);
      const long long v = testing::named_cycle_vertex(e.what());
      CHECK((v == 0 || v == 1));
    }
    csr<double> one;
    one.n = 1;
    one.row_offsets = {0, 1};
    one.columns = {0};
    one.weights = {-0.5};
    CHECK(thrown_by([&] { run(one, 0, algorithm::graphblas_cpu); }).code() ==
          error_code::negative_cycle);
    CHECK(thrown_by([&] { bellman_ford_cpu(one, 0); }).code() == error_code::negative_cycle);
    one.weights = {0.5};  // a positive loop is no cycle to report
    CHECK(run(one, 0, algorithm::graphblas_cpu).distances == std::vector<double>{0});
  }
}
