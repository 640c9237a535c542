// bellman_ford on the GPU with negative arcs (algorithms/bellman_ford.cu): exact distances and
// valid parents against distances known through potentials (negative_graphs.hpp), every signed
// type, from a host csr and from a device matrix, and through auto; planted reachable negative
// cycles reported with a vertex on them within n rounds; unreachable ones ignored; every other
// GPU algorithm refuses negative arcs with a clear error. LAGraph's SSSP test matrices on every
// GPU algorithm that takes them.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu_test.hpp"
#include "lagraph_matrices.hpp"
#include "negative_graphs.hpp"
#include "random_graphs.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/error.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;

namespace {

template <class W>
result<W> run(const device_matrix<W>& a, vertex s, algorithm algo) {
  options o;
  o.algorithm = algo;
  o.parents = true;
  return sssp(a, s, o);
}

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
    for (W w : k.g.weights) negative += w < W(0);
    const device_matrix<W> a(k.g);
    CHECK(a.stats().has_negative_weight ==
          (std::find_if(k.g.weights.begin(), k.g.weights.end(), [](W w) { return w < W(0); }) !=
           k.g.weights.end()));
    for (algorithm algo : {algorithm::bellman_ford, algorithm::automatic}) {
      CAPTURE(algorithm_name(algo));
      const result<W> got = run(a, k.source, algo);
      CHECK(verify(k.g, k.source, k.want, got) == "");
      if (a.stats().has_negative_weight) CHECK(got.stats.algorithm == "bellman_ford");
    }
    options o;
    o.algorithm = algorithm::bellman_ford;
    o.parents = true;
    CHECK(verify(k.g, k.source, k.want, sssp(k.g, k.source, o)) == "");  // host csr, uploaded
  }
  CHECK(negative > count);
}

}  // namespace

TEST_SUITE("bellman_ford_negative") {
  TEST_CASE("GPU bellman_ford is exact with negative arcs: int32") {
    TROPIC_REQUIRE_GPU();
    check_exact<std::int32_t>(80, 11);
  }
  TEST_CASE("GPU bellman_ford is exact with negative arcs: int64") {
    TROPIC_REQUIRE_GPU();
    check_exact<std::int64_t>(80, 511);
  }
  TEST_CASE("GPU bellman_ford is exact with negative arcs: float") {
    TROPIC_REQUIRE_GPU();
    check_exact<float>(80, 1011);
  }
  TEST_CASE("GPU bellman_ford is exact with negative arcs: double") {
    TROPIC_REQUIRE_GPU();
    check_exact<double>(80, 1511);
  }

  TEST_CASE("GPU: a reachable negative cycle is reported, an unreachable one ignored" *
            doctest::timeout(120)) {
    TROPIC_REQUIRE_GPU();
    const auto started = std::chrono::steady_clock::now();
    for (const auto& c : testing::test_graph_cases(32, 2101)) {
      const auto base = testing::reweighted_case<float>(c);
      if (base.g.n < 2) continue;
      for (vertex k : {vertex(1), vertex(2), vertex(5)}) {
        const auto hit = testing::with_planted_cycle(base, k, true);
        CAPTURE(hit.name);
        const device_matrix<float> a(hit.g);
        for (algorithm algo : {algorithm::bellman_ford, algorithm::automatic}) {
          const error e = thrown_by([&] { run(a, hit.source, algo); });
          CHECK(e.code() == error_code::negative_cycle);
          INFO(e.what());
          CHECK(std::find(hit.cycle.begin(), hit.cycle.end(),
                          testing::named_cycle_vertex(e.what())) != hit.cycle.end());
        }
        const auto miss = testing::with_planted_cycle(base, k, false);
        CAPTURE(miss.name);
        CHECK(verify(miss.g, miss.source, miss.want,
                     run(device_matrix<float>(miss.g), miss.source, algorithm::bellman_ford)) ==
              "");
      }
    }
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(120));
  }

  TEST_CASE("GPU: every signed type reports a planted cycle") {
    TROPIC_REQUIRE_GPU();
    const auto c = testing::test_graph_cases(3, 3101)[1];
    auto check = [&](auto w) {
      using W = decltype(w);
      const auto hit = testing::with_planted_cycle(testing::reweighted_case<W>(c), 3, true);
      CAPTURE(weight_type_name<W>());
      CHECK(thrown_by([&] {
              run(device_matrix<W>(hit.g), hit.source, algorithm::bellman_ford);
            }).code() == error_code::negative_cycle);
    };
    check(std::int32_t{});
    check(std::int64_t{});
    check(float{});
    check(double{});
  }

  TEST_CASE("GPU: the other algorithms refuse negative arcs by name") {
    TROPIC_REQUIRE_GPU();
    const auto k = testing::reweighted_case<std::int32_t>(testing::test_graph_cases(2, 4101)[1]);
    const device_matrix<std::int32_t> a(k.g);
    REQUIRE(a.stats().has_negative_weight);
    for (algorithm algo :
         {algorithm::delta_stepping, algorithm::adds, algorithm::near_far, algorithm::workfront,
          algorithm::rdbs, algorithm::da2cf, algorithm::edge_wise}) {
      CAPTURE(algorithm_name(algo));
      const error e = thrown_by([&] { run(a, k.source, algo); });
      CHECK(e.code() == error_code::invalid_value);
      CHECK(std::string(e.what()).find("negative") != std::string::npos);
      options o;
      o.algorithm = algo;
      CHECK(thrown_by([&] { sssp(k.g, k.source, o); }).code() == error_code::invalid_value);
    }
  }
  // Every GPU algorithm on LAGraph's matrices with at most / more than 300 vertices (two test
  // cases: each its own ctest entry and time limit).
  void check_lagraph_matrices_gpu(bool small) {
    const algorithm all[] = {
        algorithm::delta_stepping, algorithm::bellman_ford, algorithm::adds,
        algorithm::near_far,       algorithm::workfront,    algorithm::rdbs,
        algorithm::da2cf,          algorithm::edge_wise,    algorithm::automatic};
    for (const char* name : testing::lagraph_sssp_matrices) {
      CAPTURE(name);
      const auto raw = testing::read_lagraph_matrix(name);
      if ((raw.n <= 300) != small) continue;
      // LAGraph's test weights (1..255): every algorithm, every source.
      const csr<std::int32_t> g = testing::lagraph_test_weights(raw);
      const device_matrix<std::int32_t> a(g);
      // every source up to 300 vertices, 16 spread over the larger ones (9 algorithms a source;
      // 32 took more than 200 s on an H200; the CPU test takes every source of every matrix)
      for (vertex s = 0; s < g.n; s += g.n <= 300 ? 1 : g.n / 16) {
        CAPTURE(s);
        const auto want = dijkstra(g, s, false).distances;
        for (algorithm algo : all) {
          CAPTURE(algorithm_name(algo));
          CHECK(verify(g, s, want, run(a, s, algo)) == "");
        }
      }
      // Raw values (negative entries, and negative 2-cycles in symmetric ones): bellman_ford and
      // auto against the CPU reference, same distances or the same negative-cycle verdict, from
      // LAGraph's test's sources.
      const csr<double> r = testing::lagraph_raw_weights(raw);
      const device_matrix<double> ar(r);
      for (vertex s = 0; s<r.n; s += r.n> 100 ? 3 * r.n / 4 : r.n / 4 + 1) {
        CAPTURE(s);
        bool cycle = false;
        std::vector<double> want;
        try {
          want = reference_sssp(r, s, false).distances;
        } catch (const error& e) {
          REQUIRE(e.code() == error_code::negative_cycle);
          cycle = true;
        }
        for (algorithm algo : {algorithm::bellman_ford, algorithm::automatic}) {
          CAPTURE(algorithm_name(algo));
          if (cycle)
            CHECK(thrown_by([&] { run(ar, s, algo); }).code() == error_code::negative_cycle);
          else
            CHECK(verify(r, s, want, run(ar, s, algo)) == "");
        }
      }
    }
  }
  TEST_CASE("GPU: LAGraph's SSSP matrices of at most 300 vertices, every GPU algorithm") {
    TROPIC_REQUIRE_GPU();
    check_lagraph_matrices_gpu(true);
  }
  TEST_CASE("GPU: LAGraph's SSSP matrices of more than 300 vertices, every GPU algorithm") {
    TROPIC_REQUIRE_GPU();
    check_lagraph_matrices_gpu(false);
  }
}
