// The cutoff, many sources and origin-destination on the CPU algorithms (dijkstra and
// graphblas_cpu), every weight type, against Dijkstra truncated at the cutoff.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "many_sources.hpp"
#include "negative_graphs.hpp"
#include "random_graphs.hpp"
#include "tropic/detail/backends.hpp"
#include "tropic/detail/openmp.hpp"
#include "tropic/error.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;
using namespace tropic::testing;

namespace {

constexpr algorithm cpu_algorithms[] = {algorithm::dijkstra, algorithm::graphblas_cpu};

template <class W>
void check_cutoff_single(std::size_t count, std::uint64_t seed) {
  for (const auto& c : test_graph_cases(count, seed)) {
    CAPTURE(c.name());
    const csr<W> g = c.graph<W>();
    const vertex s = c.source(g.n);
    const double cut = cutoff_between(dijkstra(g, s, false).distances);
    CAPTURE(cut);
    for (algorithm a : cpu_algorithms) {
      CAPTURE(algorithm_name(a));
      options o;
      o.algorithm = a;
      o.cutoff = cut;
      o.parents = true;
      CHECK(verify(g, s, truncated_reference(g, s, cut), sssp(g, s, o)) == "");
    }
  }
}

template <class W>
void check_many(std::size_t count, std::uint64_t seed) {
  for (const auto& c : test_graph_cases(count, seed)) {
    CAPTURE(c.name());
    const csr<W> g = c.graph<W>();
    const std::vector<vertex> sources = some_sources(g.n, c.seed, 5);
    const std::vector<vertex> targets = some_sources(g.n, c.seed + 99, 4);
    for (double cut : {std::numeric_limits<double>::infinity(),
                       cutoff_between(dijkstra(g, sources[0], false).distances, 0.3)}) {
      CAPTURE(cut);
      for (algorithm a : cpu_algorithms) {
        CAPTURE(algorithm_name(a));
        options o;
        o.algorithm = a;
        o.cutoff = cut;
        o.parents = true;
        check_rows(g, sources, cut, sssp(g, sources, o));
        o.parents = false;
        const multi_result<W> plain = sssp(g, sources, o);
        CHECK(plain.parents.empty());
        check_rows(g, sources, cut, plain);
        check_od(g, sources, targets, cut, sssp_od(g, sources, targets, o));
      }
    }
  }
}

}  // namespace

TEST_SUITE("many_sources") {
  TEST_CASE("cutoff: dijkstra and graphblas_cpu, every weight type, random graphs") {
    check_cutoff_single<std::uint32_t>(40, 11);
    check_cutoff_single<std::int32_t>(24, 111);
    check_cutoff_single<std::uint64_t>(24, 211);
    check_cutoff_single<std::int64_t>(24, 311);
    check_cutoff_single<float>(40, 411);
    check_cutoff_single<double>(24, 511);
  }

  TEST_CASE("many sources and origin-destination: every weight type, random graphs") {
    check_many<std::uint32_t>(24, 21);
    check_many<std::int32_t>(16, 121);
    check_many<std::uint64_t>(16, 221);
    check_many<std::int64_t>(16, 321);
    check_many<float>(24, 421);
    check_many<double>(16, 521);
  }

  TEST_CASE("a cutoff of 0 keeps the source and its zero-weight ball") {
    // 0 -> 1 (0), 1 -> 2 (1), 0 -> 3 (0)
    csr<std::uint32_t> g;
    g.n = 4;
    g.row_offsets = {0, 2, 3, 3, 3};
    g.columns = {1, 3, 2};
    g.weights = {0, 0, 1};
    for (algorithm a : cpu_algorithms) {
      options o;
      o.algorithm = a;
      o.cutoff = 0;
      o.parents = true;
      const auto r = sssp(g, 0, o);
      const std::uint32_t inf = infinity<std::uint32_t>();
      CHECK(r.distances == std::vector<std::uint32_t>{0, 0, inf, 0});
      CHECK(r.parents == std::vector<std::int64_t>{-1, 0, -1, 0});
    }
  }

  TEST_CASE("a cutoff stops graphblas_cpu and dijkstra early: the work is the ball's") {
    // A path of 1000 unit arcs: a cutoff of 10.5 reaches 11 vertices.
    csr<std::uint32_t> g;
    g.n = 1000;
    for (vertex v = 0; v < g.n; ++v) {
      g.row_offsets.push_back(v);
      if (v + 1 < g.n) g.columns.push_back(v + 1), g.weights.push_back(1);
    }
    g.row_offsets.push_back(g.n - 1);
    for (algorithm a : cpu_algorithms) {
      options o;
      o.algorithm = a;
      o.cutoff = 10.5;
      o.delta = 1;
      const auto r = sssp(g, 0, o);
      CHECK(r.distances[10] == 10);
      CHECK(r.distances[11] == infinity<std::uint32_t>());
      CHECK(r.stats.vertices_relaxed <= 22);  // graphblas_cpu counts S and B: twice the ball
    }
  }

  TEST_CASE(
      "negative arcs: the cutoff masks exact distances, and parents with a cutoff are refused") {
    for (const auto& c : test_graph_cases(16, 701)) {
      CAPTURE(c.name());
      const negative_case<std::int64_t> nc = reweighted_case<std::int64_t>(c);
      const csr<std::int64_t>& g = nc.g;
      const vertex s = nc.source;
      const auto full = bellman_ford_cpu(g, s, false).distances;
      const double cut = std::max(0.5, cutoff_between(full, 0.4));  // a cutoff is >= 0
      std::vector<std::int64_t> want = full;
      for (auto& x : want)
        if (x != infinity<std::int64_t>() && double(x) > cut) x = infinity<std::int64_t>();
      options o;
      o.algorithm = algorithm::graphblas_cpu;
      o.cutoff = cut;
      CHECK(verify(g, s, want, sssp(g, s, o)) == "");
      const multi_result<std::int64_t> m = sssp(g, std::vector<vertex>{s, s}, o);
      CHECK(std::vector<std::int64_t>(m.distances.begin(), m.distances.begin() + g.n) == want);
      o.parents = true;
      if (std::isfinite(cut)) {
        bool negative = false;
        for (auto w : g.weights) negative |= w < 0;
        if (negative) CHECK_THROWS_AS(sssp(g, s, o), error);
      }
    }
  }

  TEST_CASE("argument errors name the value") {
    csr<float> g;
    g.n = 3;
    g.row_offsets = {0, 1, 1, 1};
    g.columns = {1};
    g.weights = {1};
    for (algorithm a : cpu_algorithms) {
      options o;
      o.algorithm = a;
      for (double bad : {-1.0, std::nan("")}) {
        o.cutoff = bad;
        try {
          sssp(g, 0, o);
          FAIL("a cutoff of " << bad << " was accepted");
        } catch (const error& e) {
          CHECK(e.code() == error_code::invalid_value);
          CHECK(std::string(e.what()).find("cutoff") != std::string::npos);
        }
        CHECK_THROWS_AS(sssp(g, std::vector<vertex>{0}, o), error);
      }
      o.cutoff = std::numeric_limits<double>::infinity();
      try {
        sssp(g, std::vector<vertex>{0, 2, 7}, o);
        FAIL("source 7 was accepted");
      } catch (const error& e) {
        CHECK(e.code() == error_code::invalid_index);
        CHECK(std::string(e.what()).find("source 7") != std::string::npos);
      }
      try {
        sssp_od(g, std::vector<vertex>{0}, std::vector<vertex>{1, 3}, o);
        FAIL("destination 3 was accepted");
      } catch (const error& e) {
        CHECK(e.code() == error_code::invalid_index);
        CHECK(std::string(e.what()).find("destination 3") != std::string::npos);
      }
      const multi_result<float> none = sssp(g, std::vector<vertex>{}, o);
      CHECK(none.distances.empty());
      CHECK(none.n == 3);
      CHECK(sssp_od(g, std::vector<vertex>{1}, std::vector<vertex>{}, o).empty());
    }
  }

  TEST_CASE("max_batch: graphblas_cpu in chunks gives the same rows") {
    const csr<double> g = test_graph_cases(1, 901)[0].graph<double>();
    const std::vector<vertex> sources = some_sources(g.n, 901, 11);
    options o;
    o.algorithm = algorithm::graphblas_cpu;
    o.parents = true;
    const multi_result<double> whole = sssp(g, sources, o);
    o.max_batch = 3;
    const multi_result<double> chunked = sssp(g, sources, o);
    CHECK(chunked.distances == whole.distances);
    check_rows(g, sources, std::numeric_limits<double>::infinity(), chunked);
  }

  TEST_CASE("auto with no GPU: one source per thread or more runs Dijkstra per source") {
    if (gpu_available()) {
      MESSAGE("skipped: a CUDA device is usable here, auto runs the GPU algorithms");
      return;
    }
    const csr<double> g = test_graph_cases(1, 902)[0].graph<double>();
    const std::size_t threads = std::size_t(tropic::detail::worker_threads());
    options o;
    o.parents = true;
    const std::vector<vertex> many = some_sources(g.n, 902, threads + 2);
    const multi_result<double> r = sssp(g, many, o);
    CHECK(r.stats.algorithm == "dijkstra");
    check_rows(g, many, std::numeric_limits<double>::infinity(), r);
    if (threads > 1) {  // fewer sources than threads: graphblas_cpu's batch, its threads within
      const std::vector<vertex> few = some_sources(g.n, 903, threads - 1);
      CHECK(sssp(g, few, o).stats.algorithm == "graphblas_cpu");
    }
    // A negative arc (no negative cycle: every other arc weighs 1): graphblas_cpu solves it.
    csr<double> negative = g;
    std::fill(negative.weights.begin(), negative.weights.end(), 1.0);
    // The first arc of the first row that does not start with a self-loop (rows ascend).
    vertex u = 0;
    while (u < g.n && (g.row_offsets[u] == g.row_offsets[u + 1] ||
                       g.columns[g.row_offsets[u]] == u))
      ++u;
    REQUIRE(u < g.n);
    negative.weights[g.row_offsets[u]] = -0.5;
    const multi_result<double> n = sssp(negative, many, options{});
    CHECK(n.stats.algorithm == "graphblas_cpu");
    options bf;
    bf.algorithm = algorithm::bellman_ford;
    for (std::size_t i = 0; i < many.size(); ++i) {
      const std::vector<double> want = sssp(negative, many[i], bf).distances;
      CHECK(std::equal(want.begin(), want.end(), n.distances.begin() + std::ptrdiff_t(i * g.n)));
    }
  }

  TEST_CASE("batch_rows: all rows when they fit, chunks or an error naming the sizes") {
    CHECK(tropic::detail::batch_rows(8, 100, 4, 3200, 0, "host memory") == 8);
    CHECK(tropic::detail::batch_rows(8, 100, 4, 3199, 3, "host memory") == 3);
    try {
      tropic::detail::batch_rows(8, 100, 4, 3199, 0, "device memory");
      FAIL("no error");
    } catch (const error& e) {
      CHECK(e.code() == error_code::out_of_memory);
      const std::string m = e.what();
      for (const char* part : {"8 sources", "100 vertices", "3200 bytes", "3199 available",
                               "device memory", "max_batch"})
        CHECK(m.find(part) != std::string::npos);
    }
  }
}
