// The CPU reference: Dijkstra against a brute-force Bellman-Ford on hundreds of random graphs,
// against scipy's answers on the shared real graphs, overflow detection; and verify(), which
// every other algorithm's tests lean on, shown to reject what it must reject.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "random_graphs.hpp"
#include "reference_graphs.hpp"
#include "tropic/error.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;
using tropic::testing::make_csr;

namespace {

// The obviously right answer: relax every arc n times, in exact-enough arithmetic (test graphs
// have small weights, so no sum comes near infinity).
template <class W>
std::vector<W> bellman_ford(const csr<W>& g, vertex source) {
  std::vector<W> dist(g.n, infinity<W>());
  dist[source] = 0;
  for (vertex round = 0; round < g.n; ++round) {
    bool changed = false;
    for (vertex u = 0; u < g.n; ++u) {
      if (dist[u] == infinity<W>()) continue;
      for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
        const W candidate = dist[u] + g.weights[k];
        if (candidate < dist[g.columns[k]]) {
          dist[g.columns[k]] = candidate;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return dist;
}

template <class W>
bool near(W a, W b) {
  if (a == b) return true;  // both infinite included
  if constexpr (std::is_floating_point_v<W>) {
    const double x = a, y = b;
    return std::isfinite(x) && std::isfinite(y) &&
           std::fabs(x - y) <= 1e-5 * std::max({1.0, std::fabs(x), std::fabs(y)});
  }
  return false;
}

}  // namespace

TEST_SUITE("dijkstra") {
  TEST_CASE_TEMPLATE("matches Bellman-Ford on hundreds of random graphs", W, std::uint32_t,
                     std::int32_t, std::uint64_t, std::int64_t, float, double) {
    int graphs = 0, with_unreachable = 0, with_parallel = 0, with_zero = 0;
    for (const auto& c : testing::test_graph_cases(320, 1000)) {
      CAPTURE(c.name());
      const csr<W> g = c.graph<W>();
      const vertex s = c.source(g.n);
      const std::vector<W> want = bellman_ford(g, s);
      const result<W> got = dijkstra(g, s, true);

      REQUIRE(got.distances.size() == g.n);
      bool all_near = true;
      vertex reached = 0;
      arc_index reached_arcs = 0;
      for (vertex v = 0; v < g.n; ++v) {
        all_near = all_near && near(got.distances[v], want[v]);
        if (want[v] != infinity<W>()) ++reached, reached_arcs += g.degree(v);
      }
      CHECK(all_near);
      if constexpr (std::is_integral_v<W>) CHECK(got.distances == want);  // exact
      CHECK(verify(g, s, want, got) == "");  // parents form a shortest-path tree
      CHECK(got.parents[s] == -1);
      CHECK(got.stats.algorithm == "dijkstra");
      CHECK(got.stats.vertices_relaxed == reached);
      CHECK(got.stats.arcs_relaxed == reached_arcs);
      CHECK(std::isinf(got.stats.delta));
      CHECK(got.stats.milliseconds >= 0);

      const result<W> bare = dijkstra(g, s, false);
      CHECK(bare.parents.empty());
      CHECK(bare.distances == got.distances);
      // Merging parallel arcs and dropping loops changes no distance.
      const auto merged = dijkstra(c.graph<W>({false, false}), s, false);
      CHECK(merged.distances == got.distances);

      ++graphs;
      with_unreachable += reached < g.n;
      with_parallel += g.arcs() != c.graph<W>({false, true}).arcs();
      bool zero = false;
      for (W w : g.weights) zero = zero || w == W(0);
      with_zero += zero;
    }
    // The random graphs really contain what they are meant to stress.
    CHECK(graphs == 320);
    CHECK(with_unreachable > 60);
    CHECK(with_parallel > 150);
    CHECK(with_zero > 60);
  }

  TEST_CASE("sssp() with algorithm::dijkstra is the same reference") {
    const auto g = testing::random_test_graph<double>(5, testing::test_graph_kind::grid);
    options o;
    o.algorithm = algorithm::dijkstra;
    o.parents = true;
    const auto r = sssp(g, 0, o);
    CHECK(r.distances == dijkstra(g, 0).distances);
    CHECK(r.stats.algorithm == "dijkstra");
    CHECK(verify(g, 0, r.distances, r) == "");
  }

  TEST_CASE("argument checks: source out of range, negative weights, no vertices") {
    const auto g = make_csr<std::int32_t>(3, {{0, 1, 4}, {1, 2, -1}});
    try {
      dijkstra(g, 3);
      FAIL("source 3 of 3 vertices accepted");
    } catch (const error& e) {
      CHECK(e.code() == error_code::invalid_index);
    }
    try {
      dijkstra(g, 0);
      FAIL("negative weight accepted");
    } catch (const error& e) {
      CHECK(e.code() == error_code::invalid_value);
    }
    CHECK_THROWS_AS(dijkstra(csr<float>{0, {0}, {}, {}}, 0), error);
  }

  TEST_CASE("overflow: a distance beyond the weight type throws, never wraps") {
    constexpr std::uint32_t half = 1u << 31;
    // 0 -> 1 -> 2: dist[2] = 2^32 does not fit in uint32.
    const auto g = make_csr<std::uint32_t>(3, {{0, 1, half}, {1, 2, half}});
    try {
      dijkstra(g, 0);
      FAIL("2^32 fit in uint32");
    } catch (const error& e) {
      CHECK(e.code() == error_code::overflow);
      const std::string what = e.what();
      CHECK(what.find("vertex 2") != std::string::npos);
      CHECK(what.find("wider") != std::string::npos);
    }
    // The largest finite distance is max() - 1: max() itself means unreachable.
    const std::uint32_t max = std::numeric_limits<std::uint32_t>::max();
    const auto fits = make_csr<std::uint32_t>(3, {{0, 1, half}, {1, 2, max - 1 - half}});
    CHECK(dijkstra(fits, 0).distances[2] == max - 1);
    const auto just_over = make_csr<std::uint32_t>(3, {{0, 1, half}, {1, 2, max - half}});
    CHECK_THROWS_AS(dijkstra(just_over, 0), error);
    const auto single = make_csr<std::uint32_t>(2, {{0, 1, max}});
    CHECK_THROWS_AS(dijkstra(single, 0), error);
    // A saturating arc is harmless when another path reaches its head.
    const auto detour = make_csr<std::uint32_t>(3, {{0, 1, half}, {0, 2, 5}, {1, 2, half}});
    const auto r = dijkstra(detour, 0);
    CHECK(r.distances[2] == 5);
    CHECK(r.parents[2] == 0);
    // The same graph fits in the wider types.
    const auto wide = make_csr<std::uint64_t>(3, {{0, 1, half}, {1, 2, half}});
    CHECK(dijkstra(wide, 0).distances[2] == std::uint64_t{1} << 32);

    const auto i32 = make_csr<std::int32_t>(3, {{0, 1, 1 << 30}, {1, 2, 1 << 30}});
    CHECK_THROWS_AS(dijkstra(i32, 0), error);
    const std::int64_t big = std::int64_t{1} << 62;
    CHECK_THROWS_AS(dijkstra(make_csr<std::int64_t>(3, {{0, 1, big}, {1, 2, big}}), 0), error);
    const std::uint64_t ubig = std::uint64_t{1} << 63;
    CHECK_THROWS_AS(dijkstra(make_csr<std::uint64_t>(3, {{0, 1, ubig}, {1, 2, ubig}}), 0), error);
    CHECK_THROWS_AS(dijkstra(make_csr<float>(3, {{0, 1, 3e38f}, {1, 2, 3e38f}}), 0), error);
    CHECK_THROWS_AS(dijkstra(make_csr<double>(3, {{0, 1, 1e308}, {1, 2, 1e308}}), 0), error);
  }

  TEST_CASE("the shared real graphs: scipy's reference answers") {
    tropic::testing::for_each_reference_graph([](const csr<std::uint32_t>& g,
                                                 const tropic::testing::reference_answer& ref) {
      const auto r = dijkstra(g, ref.source, true);
      const auto s = tropic::testing::summarize(r.distances);
      CHECK(s.reached == ref.reached);
      CHECK(s.max_distance == ref.max_distance);
      CHECK(s.sum == ref.sum);
      CHECK(verify(g, ref.source, r.distances, r) == "");
    });
  }
}

TEST_SUITE("verify") {
  // 0 -> 1 (2), 0 -> 2 (5), 1 -> 2 (3), 2 -> 3 (0), 3 -> 2 (0); vertex 4 unreachable.
  // dist = 0, 2, 5, 5, inf; vertex 2 has two valid parents (0 and 1).
  template <class W>
  csr<W> small_graph() {
    return make_csr<W>(5, {{0, 1, 2}, {0, 2, 5}, {1, 2, 3}, {2, 3, 0}, {3, 2, 0}});
  }

  TEST_CASE_TEMPLATE("accepts a correct result, with either tied parent", W, std::uint32_t,
                     std::int64_t, float, double) {
    const auto g = small_graph<W>();
    const result<W> ok = dijkstra(g, 0);
    const std::vector<W> want = ok.distances;
    CHECK(want == std::vector<W>{0, 2, 5, 5, infinity<W>()});
    CHECK(verify(g, 0, want, ok) == "");
    for (std::int64_t p : {0, 1}) {
      result<W> other = ok;
      other.parents[2] = p;
      CHECK(verify(g, 0, want, other) == "");
    }
    result<W> no_parents = ok;
    no_parents.parents.clear();
    CHECK(verify(g, 0, want, no_parents) == "");
  }

  TEST_CASE_TEMPLATE("rejects wrong distances and a wrong reachable set", W, std::uint32_t,
                     std::int32_t, std::uint64_t, std::int64_t, float, double) {
    const auto g = small_graph<W>();
    const result<W> ok = dijkstra(g, 0);
    const std::vector<W> want = ok.distances;

    result<W> bad = ok;
    bad.distances[3] = 6;
    bad.parents.clear();
    std::string msg = verify(g, 0, want, bad);
    CHECK(msg.find("vertex 3") != std::string::npos);

    bad = ok;
    bad.parents.clear();
    bad.distances[1] = infinity<W>();  // reachable reported unreachable
    CHECK(verify(g, 0, want, bad).find("vertex 1") != std::string::npos);

    bad = ok;
    bad.parents.clear();
    bad.distances[4] = 7;  // unreachable reported reachable
    CHECK(verify(g, 0, want, bad).find("vertex 4") != std::string::npos);

    bad = ok;
    bad.distances.pop_back();
    CHECK(verify(g, 0, want, bad).find("size") != std::string::npos);
    bad = ok;
    bad.parents.pop_back();
    CHECK(verify(g, 0, want, bad).find("size") != std::string::npos);
  }

  TEST_CASE("floats: within 1e-5 relative passes, beyond fails") {
    const auto g = small_graph<double>();
    const auto ok = dijkstra(g, 0, false);
    auto close = ok;
    close.distances[2] = 5 * (1 + 1e-7);
    close.distances[3] = 5 * (1 + 1e-7);
    CHECK(verify(g, 0, ok.distances, close) == "");
    auto far = ok;
    far.distances[2] = 5 * (1 + 1e-4);
    CHECK(verify(g, 0, ok.distances, far) != "");
    // Near zero the tolerance is absolute.
    auto tiny = ok;
    tiny.distances[0] = 1e-7;
    CHECK(verify(g, 0, ok.distances, tiny) == "");
    tiny.distances[0] = 1e-3;
    CHECK(verify(g, 0, ok.distances, tiny) != "");
    auto nan = ok;
    nan.distances[1] = std::numeric_limits<double>::quiet_NaN();
    CHECK(verify(g, 0, ok.distances, nan).find("NaN") != std::string::npos);
  }

  TEST_CASE_TEMPLATE("rejects bad parents", W, std::uint32_t, std::int32_t, float, double) {
    const auto g = small_graph<W>();
    const result<W> ok = dijkstra(g, 0);
    const std::vector<W> want = ok.distances;
    auto with_parent = [&](vertex v, std::int64_t p) {
      result<W> r = ok;
      r.parents[v] = p;
      return verify(g, 0, want, r);
    };
    CHECK(with_parent(0, 1).find("parent of vertex 0") != std::string::npos);  // the source
    CHECK(with_parent(4, 2).find("parent of vertex 4") != std::string::npos);  // unreachable
    CHECK(with_parent(1, -1).find("parent of vertex 1") != std::string::npos);
    CHECK(with_parent(1, 7).find("parent of vertex 1") != std::string::npos);  // not a vertex
    CHECK(with_parent(1, 4).find("unreachable") != std::string::npos);
    CHECK(with_parent(3, 1).find("no arc") != std::string::npos);
    CHECK(with_parent(1, 2).find("no arc") != std::string::npos);
    CHECK(with_parent(3, 0).find("no arc") != std::string::npos);
    // 2 -> 3 and 3 -> 2 both weigh 0 and dist[2] == dist[3]: each parent alone is tight, but
    // together they form a cycle that never leads back to the source.
    result<W> cycle = ok;
    cycle.parents[2] = 3;
    cycle.parents[3] = 2;
    CHECK(verify(g, 0, want, cycle).find("cycle") != std::string::npos);
  }

  TEST_CASE("rejects a parent whose arc is not tight, and counts many problems") {
    // 0 -> 1 (1), 0 -> 2 (10), 1 -> 2 (1): dist[2] = 2 via 1; parent 0 is not tight.
    const auto g = make_csr<std::uint32_t>(3, {{0, 1, 1}, {0, 2, 10}, {1, 2, 1}});
    auto r = dijkstra(g, 0);
    CHECK(verify(g, 0, r.distances, r) == "");
    r.parents[2] = 0;
    const std::string msg = verify(g, 0, r.distances, r);
    CHECK(msg.find("!=") != std::string::npos);
    CHECK(msg.find("vertex 2") != std::string::npos);

    // Twenty wrong distances: five listed, the rest counted.
    std::vector<std::tuple<vertex, vertex, std::uint32_t>> chain;
    for (vertex v = 0; v + 1 < 30; ++v) chain.emplace_back(v, v + 1, 1);
    const auto path = make_csr<std::uint32_t>(30, chain);
    const auto p = dijkstra(path, 0, false);
    auto wrong = p;
    for (vertex v = 1; v <= 20; ++v) wrong.distances[v] += 1;
    const std::string many = verify(path, 0, p.distances, wrong);
    CHECK(many.find("20 problems") != std::string::npos);
    CHECK(many.find("and 15 more") != std::string::npos);
  }
}
