// The cutoff, many sources and origin-destination on the GPU algorithms, every weight type,
// against Dijkstra truncated at the cutoff; delta_stepping's early exits (cutoff, settled
// destinations) in both the host-driven and the GPU-driven loop; sssp_into (its download,
// copy_to_host, is test/lib/test_host_copy.cpp's).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <limits>
#include <string>
#include <vector>

#include "gpu_test.hpp"
#include "many_sources.hpp"
#include "random_graphs.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/device_memory.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;
using namespace tropic::testing;

namespace {

constexpr algorithm gpu_algorithms[] = {
    algorithm::delta_stepping, algorithm::bellman_ford, algorithm::adds,  algorithm::near_far,
    algorithm::workfront,      algorithm::rdbs,         algorithm::da2cf, algorithm::edge_wise};

// The loops an algorithm runs in: delta_stepping and bellman_ford both ways, the rest as they do.
std::vector<loop_control> loops_of(algorithm a) {
  if (a == algorithm::delta_stepping || a == algorithm::bellman_ford)
    return {loop_control::host, loop_control::device};
  return {loop_control::automatic};
}

template <class W>
void check_gpu(std::size_t count, std::uint64_t seed) {
  for (const auto& c : test_graph_cases(count, seed)) {
    CAPTURE(c.name());
    const csr<W> g = c.graph<W>();
    if (g.n == 0) continue;
    const device_matrix<W> a(g);
    const vertex s = c.source(g.n);
    const std::vector<vertex> sources = some_sources(g.n, c.seed, 4);
    const std::vector<vertex> targets = some_sources(g.n, c.seed + 5, 3);
    const double cut = cutoff_between(dijkstra(g, s, false).distances, 0.4);
    CAPTURE(cut);
    for (algorithm al : gpu_algorithms) {
      // DA2CF takes host round trips per distinct distance: float weights make that slow.
      if (al == algorithm::da2cf && std::is_floating_point_v<W>) continue;
      for (loop_control loop : loops_of(al)) {
        CAPTURE(algorithm_name(al));
        CAPTURE(int(loop));
        options o;
        o.algorithm = al;
        o.loop = loop;
        o.parents = true;
        o.cutoff = cut;
        CHECK(verify(g, s, truncated_reference(g, s, cut), sssp(a, s, o)) == "");
        check_rows(g, sources, cut, sssp(a, sources, o));
        o.cutoff = std::numeric_limits<double>::infinity();
        check_rows(g, sources, o.cutoff, sssp(a, sources, o));
        o.parents = false;
        check_od(g, sources, targets, o.cutoff, sssp_od(a, sources, targets, o));
        o.cutoff = cut;
        check_od(g, sources, targets, cut, sssp_od(a, sources, targets, o));
      }
    }
  }
}

// A path 0 -> 1 -> ... -> n-1 of unit arcs.
csr<std::uint32_t> path_graph(vertex n) {
  csr<std::uint32_t> g;
  g.n = n;
  for (vertex v = 0; v < n; ++v) {
    g.row_offsets.push_back(v);
    if (v + 1 < n) g.columns.push_back(v + 1), g.weights.push_back(1);
  }
  g.row_offsets.push_back(n - 1);
  return g;
}

}  // namespace

TEST_SUITE("many_sources_gpu") {
  TEST_CASE("GPU algorithms: cutoff, many sources and origin-destination, every weight type") {
    TROPIC_REQUIRE_GPU();
    check_gpu<std::uint32_t>(16, 41);
    check_gpu<std::int32_t>(8, 141);
    check_gpu<std::uint64_t>(8, 241);
    check_gpu<std::int64_t>(8, 341);
    check_gpu<float>(16, 441);
    check_gpu<double>(8, 541);
  }

  TEST_CASE("delta_stepping and adds stop at the cutoff: the work is the ball's") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = path_graph(200000);
    const device_matrix<std::uint32_t> a(g);
    for (loop_control loop : {loop_control::host, loop_control::device}) {
      CAPTURE(int(loop));
      options o;
      o.algorithm = algorithm::delta_stepping;
      o.loop = loop;
      o.delta = 1;
      o.cutoff = 100.5;
      const result<std::uint32_t> r = sssp(a, 0, o);
      CHECK(r.distances[100] == 100);
      CHECK(r.distances[101] == infinity<std::uint32_t>());
      CHECK(r.stats.buckets <= 102);  // one bucket per distance 0..100, and the one it stops at
      CHECK(r.stats.vertices_relaxed <= 2 * 102);
    }
    options o;
    o.algorithm = algorithm::adds;
    o.cutoff = 100.5;
    const result<std::uint32_t> r = sssp(a, 0, o);
    CHECK(r.distances[100] == 100);
    CHECK(r.distances[101] == infinity<std::uint32_t>());
    CHECK(r.stats.vertices_relaxed <= 1000);  // the ball (100), not the path (200000)
  }

  TEST_CASE("delta_stepping's origin-destination stops once the destinations are settled") {
    TROPIC_REQUIRE_GPU();
    // The exact values on a path of 2,000 (Δ = 1: a bucket per vertex to the far end; 200,000
    // such buckets, host-driven, ran past ctest's limit), the early stop on one of 200,000.
    const device_matrix<std::uint32_t> shorter(path_graph(2000));
    const csr<std::uint32_t> g = path_graph(200000);
    const device_matrix<std::uint32_t> a(g);
    for (loop_control loop : {loop_control::host, loop_control::device}) {
      CAPTURE(int(loop));
      options o;
      o.algorithm = algorithm::delta_stepping;
      o.loop = loop;
      o.delta = 1;
      const std::vector<std::uint32_t> d =
          sssp_od(shorter, std::vector<vertex>{0, 10}, std::vector<vertex>{50, 5, 1999}, o);
      CHECK(d == std::vector<std::uint32_t>{50, 5, 1999, 40, infinity<std::uint32_t>(), 1989});
      // A near destination: the solve settles ~61 buckets, not 200000 (white box: the
      // settle_targets that sssp_od passes).
      cuda_stream stream;
      device_buffer<vertex> ids(1, stream);
      const vertex target = 60;
      ids.upload(&target, 1);
      stream.synchronize();
      const tropic::detail::settle_targets targets{ids.data(), 1};
      const result<std::uint32_t> r = tropic::detail::delta_stepping_sssp(a, 0, o, &targets);
      CHECK(r.distances[60] == 60);
      CHECK(r.stats.buckets <= 63);
    }
  }

  TEST_CASE_TEMPLATE("sssp_into: all pairs into the caller's memory, past the staged size", W,
                     std::uint32_t, double) {
    TROPIC_REQUIRE_GPU();
    // 72 x 72: 5184 x 5184 rows, 107 MB of uint32 and 215 MB of double, several pieces.
    const csr<W> g = generate<W>("grid:72:72", 5);
    const device_matrix<W> a(g);
    const std::size_t n = g.n;
    std::vector<vertex> all(n);
    for (vertex v = 0; v < g.n; ++v) all[v] = v;
    for (algorithm al : {algorithm::automatic, algorithm::delta_stepping}) {
      CAPTURE(algorithm_name(al));
      options o;
      o.algorithm = al;
      std::unique_ptr<W, decltype(&std::free)> d(static_cast<W*>(std::malloc(n * n * sizeof(W))),
                                                 &std::free);
      REQUIRE(d);
      sssp_into(a, all, o, d.get());
      // Undirected: the matrix is symmetric with a zero diagonal, which checks every entry
      // against another one written by a different block; sampled rows against Dijkstra.
      std::size_t asymmetric = 0, diagonal = 0;
      for (std::size_t u = 0; u < n; ++u) {
        diagonal += d.get()[u * n + u] != W(0);
        for (std::size_t v = u + 1; v < n; ++v) asymmetric += d.get()[u * n + v] != d.get()[v * n + u];
      }
      CHECK(diagonal == 0);
      CHECK(asymmetric == 0);
      for (vertex s : {vertex(0), vertex(1234), vertex(n - 1)}) {
        const std::vector<W> ref = dijkstra(g, s, false).distances;
        CHECK(std::vector<W>(d.get() + s * n, d.get() + (s + 1) * n) == ref);
      }
    }
    // With parents (each row finished on its own): 64 sources, every row verified by edge check.
    {
      test_rng rng(sizeof(W) + 3);
      multi_result<W> m;
      m.n = n;
      m.sources = random_sources(rng, 64, g.n);
      m.distances.resize(m.sources.size() * n);
      m.parents.resize(m.sources.size() * n);
      options o;
      o.parents = true;
      sssp_into(a, m.sources, o, m.distances.data(), m.parents.data());
      check_rows(g, m.sources, std::numeric_limits<double>::infinity(), m);
    }
    options o;
    o.parents = true;
    CHECK_THROWS_AS(sssp_into(a, all, o, static_cast<W*>(nullptr)), error);
    std::vector<W> one(n);
    CHECK_THROWS_AS(sssp_into(a, std::vector<vertex>{0}, o, one.data()), error);  // no parents
    o.parents = false;
    CHECK_NOTHROW(sssp_into(a, std::vector<vertex>{}, o, static_cast<W*>(nullptr)));
  }

  TEST_CASE("many sources: a distance beyond uint32 is an overflow error on every path") {
    TROPIC_REQUIRE_GPU();
    // A path 0 -> 1 -> 2 -> 3 of weight 2^31 each: from 0, dist[2] = 2^32 does not fit in
    // uint32; from 3 nothing is reached. 64 sources, 3 and 0 in turn: Near-Far's block per
    // source (automatic), the batch (delta_stepping) and the loop of single solves (adds), whose
    // rows are finished together (finish_rows) or one by one (finish_result).
    arc_list<std::uint32_t> arcs;
    arcs.n = 4;
    for (vertex v = 0; v < 3; ++v) arcs.push_back(v, v + 1, 1u << 31);
    const csr<std::uint32_t> g = build_csr(arcs);
    const device_matrix<std::uint32_t> a(g);
    const device_matrix<std::uint64_t> a64(convert_weights<std::uint64_t>(g));
    std::vector<vertex> sources;
    for (int s = 0; s < 64; ++s) sources.push_back(s % 2 ? 0 : 3);
    for (algorithm algo : {algorithm::automatic, algorithm::delta_stepping, algorithm::adds}) {
      CAPTURE(algorithm_name(algo));
      options o;
      o.algorithm = algo;
      try {
        sssp(a, sources, o);
        FAIL("no overflow error");
      } catch (const error& e) {
        CHECK(e.code() == error_code::overflow);
        CHECK(std::string(e.what()).find("vertex 2") != std::string::npos);
      }
      // uint64 holds it; the rows from 3 reach only 3.
      const multi_result<std::uint64_t> r = sssp(a64, sources, o);
      CHECK(r.distances[0 * 4 + 3] == 0);
      CHECK(r.distances[0 * 4 + 0] == infinity<std::uint64_t>());
      CHECK(r.distances[1 * 4 + 2] == 2ull << 31);
      CHECK(r.distances[63 * 4 + 3] == 3ull << 31);
    }
  }

  TEST_CASE("GPU argument errors: cutoff, sources, destinations") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = path_graph(10);
    const device_matrix<std::uint32_t> a(g);
    options o;
    o.algorithm = algorithm::delta_stepping;
    o.cutoff = -1;
    CHECK_THROWS_AS(sssp(a, 0, o), error);
    CHECK_THROWS_AS(sssp(a, std::vector<vertex>{0}, o), error);
    o.cutoff = std::numeric_limits<double>::infinity();
    try {
      sssp(a, std::vector<vertex>{0, 12}, o);
      FAIL("source 12 accepted");
    } catch (const error& e) {
      CHECK(e.code() == error_code::invalid_index);
      CHECK(std::string(e.what()).find("source 12") != std::string::npos);
    }
    CHECK_THROWS_AS(sssp_od(a, std::vector<vertex>{0}, std::vector<vertex>{10}, o), error);
  }
}
