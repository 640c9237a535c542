// graphblas_cpu (delta-stepping on SuiteSparse:GraphBLAS) against the CPU Dijkstra: every weight
// type, random graphs full of ties, zero weights and parallel arcs, several deltas, overflow, and
// the shared real graphs with their published reference answers.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "random_graphs.hpp"
#include "tropic/csr.hpp"
#include "tropic/error.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;

namespace {

template <class W>
result<W> run_graphblas(const csr<W>& g, vertex s, double delta, bool parents = true) {
  options o;
  o.algorithm = algorithm::graphblas_cpu;
  o.delta = delta;
  o.parents = parents;
  return sssp(g, s, o);
}

// Every parent chain must reach the source: verify() checks each parent arc is tight, this
// checks the tree has no cycle (zero-weight cycles make that a real risk).
template <class W>
std::string parent_chains_reach_source(const result<W>& r, vertex s) {
  const std::size_t n = r.distances.size();
  for (std::size_t v = 0; v < n; ++v) {
    if (r.distances[v] == infinity<W>()) continue;
    std::size_t x = v, steps = 0;
    while (x != s && steps <= n) {
      if (r.parents[x] < 0) return "vertex " + std::to_string(x) + " reached but has no parent";
      x = static_cast<std::size_t>(r.parents[x]);
      ++steps;
    }
    if (x != s) return "the parent chain of " + std::to_string(v) + " has a cycle";
  }
  return "";
}

template <class W>
void check_random_graphs(std::size_t count, std::uint64_t base_seed) {
  const double deltas[] = {0, 1, 0.5, 7.25, 100, std::numeric_limits<double>::infinity()};
  for (const auto& c : testing::test_graph_cases(count, base_seed)) {
    CAPTURE(c.name());
    const csr<W> g = c.graph<W>();
    if (g.n == 0) continue;
    const vertex s = c.source(g.n);
    const auto want = dijkstra(g, s, false).distances;
    for (double delta : deltas) {
      CAPTURE(delta);
      const auto got = run_graphblas(g, s, delta);
      CHECK(verify(g, s, want, got) == "");
      CHECK(parent_chains_reach_source(got, s) == "");
      CHECK(got.stats.algorithm == "graphblas_cpu");
      CHECK(got.stats.delta > 0);
      if (delta > 0) CHECK(got.stats.delta == delta);
      std::uint64_t reached = 0;
      for (W d : want) reached += d != infinity<W>();
      // Every reached vertex is relaxed at least once; arcs counted never exceed rounds * m.
      CHECK(got.stats.vertices_relaxed >= reached);
      CHECK(got.stats.buckets >= 1);
      CHECK(got.stats.iterations >= got.stats.buckets);
      CHECK(got.stats.arcs_relaxed <= got.stats.vertices_relaxed * g.arcs());
    }
  }
}

std::string find_shared(const std::string& name) {
  for (const std::string& dir : {std::string(TROPIC_SHARED_DATA), std::string(TROPIC_LOCAL_DATA)}) {
    const std::string path = dir + "/" + name;
    if (std::ifstream(path).good()) return path;
  }
  return "";
}

struct reference {
  const char* file;
  bool unit;
  vertex source;
  std::uint64_t reached;
  std::uint64_t max_distance;
  std::uint64_t sum;
};

// From ../shared/data/README.md (scipy.sparse.csgraph.dijkstra).
constexpr reference references[] = {
    {"USA-road-d.NY.gr.gz", false, 0, 264346, 1440081, 186686642878ULL},
    {"soc-Slashdot0902.txt.gz", true, 0, 82168, 8, 259462},
    {"cnr-2000.el.gz", true, 217849, 325557, 35, 5426851},
    {"mdual.mtx.gz", true, 0, 258569, 105, 16308480},
};

template <class W>
void check_reference(const csr<W>& g, const reference& ref, const result<W>& r) {
  std::uint64_t reached = 0, max_distance = 0;
  long double sum = 0;
  for (W d : r.distances) {
    if (d == infinity<W>()) continue;
    ++reached;
    sum += static_cast<long double>(d);
    max_distance = std::max<std::uint64_t>(max_distance, static_cast<std::uint64_t>(d));
  }
  CHECK(reached == ref.reached);
  CHECK(max_distance == ref.max_distance);
  CHECK(static_cast<std::uint64_t>(sum) == ref.sum);
  const auto want = dijkstra(g, ref.source, false).distances;
  CHECK(verify(g, ref.source, want, r) == "");
}

}  // namespace

TEST_SUITE("graphblas_cpu") {
  TEST_CASE("random graphs, every weight type, against Dijkstra") {
    check_random_graphs<std::uint32_t>(40, 1);
    check_random_graphs<std::int32_t>(24, 101);
    check_random_graphs<std::uint64_t>(24, 201);
    check_random_graphs<std::int64_t>(24, 301);
    check_random_graphs<float>(40, 401);
    check_random_graphs<double>(24, 501);
  }

  TEST_CASE("a one-vertex graph and an out-of-range source") {
    csr<float> g;
    g.n = 1;
    g.row_offsets = {0, 0};
    const auto r = run_graphblas(g, 0, 0);
    REQUIRE(r.distances.size() == 1);
    CHECK(r.distances[0] == 0.0f);
    CHECK(r.parents[0] == -1);
    CHECK_THROWS_AS(run_graphblas(g, 1, 0), tropic::error);
  }

  TEST_CASE("integer sums that would wrap around are saturated, not wrapped") {
    // 0 -> 1 (3e9), 1 -> 2 (4e9 would wrap to 2.7e9 in uint32), 0 -> 2 (3.5e9): dist[2] = 3.5e9.
    // The bound sum of heaviest out-arcs = 7e9 > 2^32, so the saturating semiring runs.
    arc_list<std::uint32_t> a;
    a.n = 3;
    a.push_back(0, 1, 3000000000u);
    a.push_back(1, 2, 4000000000u);
    a.push_back(0, 2, 3500000000u);
    const auto g = build_csr(a);
    const auto r = run_graphblas(g, 0, 0);
    CHECK(r.distances[1] == 3000000000u);
    CHECK(r.distances[2] == 3500000000u);
    CHECK(r.parents[2] == 0);
  }

  TEST_CASE("a distance beyond the weight type throws overflow") {
    SUBCASE("uint32") {
      arc_list<std::uint32_t> a;
      a.n = 3;
      a.push_back(0, 1, 3000000000u);
      a.push_back(1, 2, 3000000000u);
      try {
        run_graphblas(build_csr(a), 0, 0);
        FAIL("no overflow reported");
      } catch (const tropic::error& e) {
        CHECK(e.code() == error_code::overflow);
        CHECK(std::string(e.what()).find("vertex 2") != std::string::npos);
      }
    }
    SUBCASE("int64") {
      arc_list<std::int64_t> a;
      a.n = 4;
      const std::int64_t big = std::numeric_limits<std::int64_t>::max() / 2;
      a.push_back(0, 1, big);
      a.push_back(1, 2, big);
      a.push_back(2, 3, big);
      try {
        run_graphblas(build_csr(a), 0, 1e18);
        FAIL("no overflow reported");
      } catch (const tropic::error& e) {
        CHECK(e.code() == error_code::overflow);
      }
    }
    SUBCASE("float") {
      arc_list<float> a;
      a.n = 3;
      a.push_back(0, 1, 3e38f);
      a.push_back(1, 2, 3e38f);
      CHECK_THROWS_AS(run_graphblas(build_csr(a), 0, 0), tropic::error);
    }
    SUBCASE("no false alarm when the long path is not the shortest") {
      arc_list<std::int32_t> a;
      a.n = 3;
      a.push_back(0, 1, 2000000000);
      a.push_back(1, 2, 2000000000);
      a.push_back(0, 2, 5);
      const auto r = run_graphblas(build_csr(a), 0, 0);
      CHECK(r.distances[2] == 5);
    }
  }

  TEST_CASE("automatic is graphblas_cpu without a GPU") {
    if (gpu_available()) {
      MESSAGE("a GPU is present: automatic picks the GPU, nothing to check here");
      return;
    }
    const auto g = testing::random_test_graph<double>(7, testing::test_graph_kind::grid);
    const auto r = sssp(g, 0);
    CHECK(r.stats.algorithm == "graphblas_cpu");
    CHECK(verify(g, 0, dijkstra(g, 0, false).distances, r) == "");
  }

  TEST_CASE("shared real graphs match the published reference answers") {
    for (const reference& ref : references) {
      const std::string file = ref.file;
    CAPTURE(file);
      const std::string path = find_shared(ref.file);
      if (path.empty()) {
        MESSAGE("skipped: " << ref.file << " is in neither " << TROPIC_SHARED_DATA << " nor "
                            << TROPIC_LOCAL_DATA);
        continue;
      }
      read_options ro;
      ro.unit_weights = ref.unit;
      // The reference types: uint32 for the road network, int32 for unit weights.
      if (!ref.unit) {
        const auto g = read_graph<std::uint32_t>(path, ro);
        const auto r = run_graphblas(g, ref.source, 0, false);
        check_reference(g, ref, r);
        MESSAGE(ref.file << ": graphblas_cpu " << r.stats.milliseconds << " ms, "
                         << r.stats.buckets << " buckets, " << r.stats.iterations
                         << " light rounds, delta " << r.stats.delta);
      } else {
        const auto g = read_graph<std::int32_t>(path, ro);
        const auto r = run_graphblas(g, ref.source, 0, true);
        check_reference(g, ref, r);
      }
    }
  }
}
