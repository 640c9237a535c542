// Algebraic delta-stepping and Bellman-Ford on the GPU against the CPU Dijkstra.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpu_test.hpp"
#include "policy.hpp"
#include "random_graphs.hpp"
#include "reference_graphs.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/device_loop.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;

namespace {

// sssp on the GPU (g uploaded for the call), its answer checked against the CPU Dijkstra.
result<std::uint32_t> checked_sssp(const csr<std::uint32_t>& g, vertex source, const options& o) {
  const device_matrix<std::uint32_t> a(g);
  result<std::uint32_t> r = sssp(a, source, o);
  CHECK(verify(g, source, dijkstra(g, source, false).distances, r) == "");
  return r;
}

template <class W>
void check_against_dijkstra(const csr<W>& g, vertex source, algorithm algo, double delta,
                            const device_matrix<W>& a) {
  const result<W> want = dijkstra(g, source, false);
  // The same loop driven by the host and by the GPU (one persistent kernel).
  for (loop_control loop : {loop_control::host, loop_control::device}) {
    options o;
    o.algorithm = algo;
    o.delta = delta;
    o.parents = true;
    o.loop = loop;
    const result<W> got = sssp(a, source, o);
    const std::string name = algorithm_name(algo);
    const bool device_loop = loop == loop_control::device;
    CAPTURE(name);
    CAPTURE(delta);
    CAPTURE(device_loop);
    CHECK(verify(g, source, want.distances, got) == "");
    CHECK(got.stats.buckets >= 1);
    CHECK((got.stats.device_loop_buckets > 0) == device_loop);
  }
}

}  // namespace

TEST_SUITE("delta_stepping") {
  TEST_CASE_TEMPLATE("matches Dijkstra on hundreds of random graphs, every delta", W, std::uint32_t,
                     std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : tropic::testing::test_graph_cases(200, 31)) {
      CAPTURE(c.name());
      const csr<W> g = c.graph<W>();
      const vertex s = c.source(g.n);
      const device_matrix<W> a(g);
      const double max_w = g.arcs() ? a.stats().max_weight : 1;
      // Δ = 1, the heuristic (0 = automatic), larger than every weight; Bellman-Ford is Δ = ∞.
      for (double delta : {1.0, 0.0, 2 * max_w + 1})
        check_against_dijkstra(g, s, algorithm::delta_stepping, delta, a);
      check_against_dijkstra(g, s, algorithm::bellman_ford, 0, a);
      if (std::is_floating_point_v<W>)
        check_against_dijkstra(g, s, algorithm::delta_stepping, 0.37, a);
    }
  }

  TEST_CASE_TEMPLATE(
      "larger generated graphs: push and pull (symmetric, directed, with and without transpose)", W,
      std::uint32_t, float) {
    TROPIC_REQUIRE_GPU();
    // kron:14 is symmetric (pull over A itself), the uniform graph is directed (push only unless
    // the transpose is uploaded), the grid is high-diameter.
    const csr<W> graphs[] = {generate_kronecker<W>(14, 16, 3), generate_uniform<W>(20000, 7, 4),
                             generate_grid<W>(120, 90, 5)};
    for (const auto& g : graphs) {
      CAPTURE(g.n);
      const result<W> want = dijkstra(g, 1, false);
      for (bool transpose : {false, true}) {
        const device_matrix<W> a(
            g, upload_options{transpose ? transpose_policy::required : transpose_policy::none});
        for (algorithm algo : {algorithm::delta_stepping, algorithm::bellman_ford})
          for (loop_control loop : {loop_control::automatic, loop_control::device}) {
            options o;
            o.algorithm = algo;
            o.parents = true;
            o.loop = loop;
            const auto got = sssp(a, 1, o);
            CHECK(verify(g, 1, want.distances, got) == "");
            CHECK(got.stats.vertices_relaxed > 0);
            CHECK(got.stats.arcs_relaxed > 0);
            CHECK(got.stats.iterations > 0);
          }
      }
    }
  }

  TEST_CASE("the host entry point uploads and runs, and automatic picks the GPU") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = generate_grid<std::uint32_t>(64, 64, 9);
    const auto want = dijkstra(g, 0, false);
    options o;  // automatic
    const auto got = sssp(g, 0, o);
    CHECK(got.stats.algorithm == "delta_stepping");
    CHECK(verify(g, 0, want.distances, got) == "");
    CHECK(got.stats.setup_milliseconds > 0);
  }

  TEST_CASE("the same graph and source give the same distances on every run") {
    TROPIC_REQUIRE_GPU();
    const csr<float> g = generate_kronecker<float>(12, 16, 77);
    const device_matrix<float> a(g);
    options o;
    o.algorithm = algorithm::delta_stepping;
    const auto first = sssp(a, 3, o).distances;
    for (int run = 0; run < 20; ++run) CHECK(sssp(a, 3, o).distances == first);
    o.loop = loop_control::device;
    for (int run = 0; run < 20; ++run) CHECK(sssp(a, 3, o).distances == first);
  }

  TEST_CASE("a high-diameter grid hands its loop to the GPU and the answer does not change") {
    TROPIC_REQUIRE_GPU();
    // 300 x 300: hundreds of buckets of a few hundred vertices, the case the device-driven loop
    // is for (automatic must hand over), checked against Dijkstra and the host-driven loop.
    const csr<std::uint32_t> g = generate_grid<std::uint32_t>(300, 300, 21);
    const device_matrix<std::uint32_t> a(g);
    const auto want = dijkstra(g, 0, false);
    options o;
    o.algorithm = algorithm::delta_stepping;
    o.parents = true;
    const auto automatic = sssp(a, 0, o);
    CHECK(verify(g, 0, want.distances, automatic) == "");
    CHECK(automatic.stats.device_loop_buckets > 0);
    o.loop = loop_control::host;
    const auto host = sssp(a, 0, o);
    CHECK(host.stats.device_loop_buckets == 0);
    CHECK(host.distances == automatic.distances);
    // The GPU-driven loop waits for the host once or twice, not once per step.
    CHECK(automatic.stats.host_round_trips < host.stats.host_round_trips / 4);
  }

  TEST_CASE("the automatic delta narrows for a frontier that grows geometrically, not on a grid") {
    TROPIC_REQUIRE_GPU();
    // A uniform random graph (out-degree 4, weights 1..10) and a grid, both of short rows (x4):
    // the random graph's frontier grows ~3x a step past 1,024 rows, so its Δ narrows back to
    // the heuristic's and bucket 0 is selected again under it; the grid's keeps x4. Narrowing
    // is the host-driven loop's (the automatic loop gives graphs this small to the GPU).
    options o;
    o.algorithm = algorithm::delta_stepping;
    o.parents = true;
    o.loop = loop_control::host;
    const csr<std::uint32_t> wide = generate<std::uint32_t>("uniform:65536:4", 5);
    const double heuristic = choose_delta(compute_stats(wide));
    const auto narrowed = checked_sssp(wide, 0, o);
    CHECK(narrowed.stats.delta == doctest::Approx(std::floor(std::floor(4 * heuristic) / 4)));
    const csr<std::uint32_t> grid = generate_grid<std::uint32_t>(256, 256, 5);
    const auto kept = checked_sssp(grid, 0, o);
    CHECK(kept.stats.delta == doctest::Approx(std::floor(4 * choose_delta(compute_stats(grid)))));
  }

  TEST_CASE("a short and wide search finishes as one bucket, a grid does not") {
    TROPIC_REQUIRE_GPU();
    // kron:16:16 from its largest hub: after bucket 0 the settled vertices and bucket 1 hold
    // 99.9% of the vertices with arcs (40,806 + 5,815 of 46,689, the CPU model), so the rest
    // runs as one bucket from bucket 1's lower end; a grid's buckets each hold a band of it.
    options o;
    o.algorithm = algorithm::delta_stepping;
    o.parents = true;
    o.loop = loop_control::host;
    const csr<std::uint32_t> kron = generate<std::uint32_t>("kron:16:16", 1);
    vertex hub = 0;
    for (vertex v = 0; v < kron.n; ++v)
      if (kron.degree(v) > kron.degree(hub)) hub = v;
    const auto widened = checked_sssp(kron, hub, o);
    CHECK(widened.stats.widened_at == doctest::Approx(widened.stats.delta));
    // With the automatic loop, kron:16 is small enough (policy::delta_stepping::
    // device_loop_small_vertices) for the GPU-driven loop from the start, which never widens (a
    // kron-22 keeps the host's loop).
    o.loop = loop_control::automatic;
    const auto device_driven = checked_sssp(kron, hub, o);
    CHECK(device_driven.stats.device_loop_buckets == device_driven.stats.buckets);
    CHECK(std::isinf(device_driven.stats.widened_at));
    // A Δ the caller chose (here the automatic one's value) is kept to the end, and the host
    // drives the first steps: its light steps are small enough (under policy::delta_stepping::
    // device_loop_step_arcs each) to hand bucket 0 over before the test for the widened tail.
    o.delta = choose_delta(compute_stats(kron));
    const auto handed_over = checked_sssp(kron, hub, o);
    CHECK(handed_over.stats.host_round_trips > 0);
    CHECK(handed_over.stats.device_loop_buckets > 0);
    CHECK(std::isinf(handed_over.stats.widened_at));
    o.delta = 0;
    const csr<std::uint32_t> grid = generate_grid<std::uint32_t>(256, 256, 5);
    CHECK(std::isinf(checked_sssp(grid, 0, o).stats.widened_at));
  }

  TEST_CASE_TEMPLATE("the light closure's local rounds and queue size never change the answer", W,
                     std::uint32_t, float) {
    TROPIC_REQUIRE_GPU();
    // Level-synchronous (0 rounds), a queue of one pair (everything else spills to the next
    // step), a few rounds, the defaults, and rounds until the queue runs dry; on the device-driven
    // loop, where the closure runs. Each answer against Dijkstra, and all identical.
    const csr<W> graphs[] = {generate_grid<W>(150, 110, 8), generate_kronecker<W>(12, 16, 9),
                             generate_uniform<W>(6000, 3, 10)};
    const closure_limits settings[] = {
        {0, tuning::closure_queue_items}, {8, 1}, {3, 37}, {}, {~0u, tuning::closure_queue_items}};
    for (const auto& g : graphs) {
      CAPTURE(g.n);
      const device_matrix<W> a(g);
      const auto want = dijkstra(g, 2, false);
      for (double delta : {0.0, 1.0, 1e9}) {
        options o;
        o.algorithm = algorithm::delta_stepping;
        o.loop = loop_control::device;
        o.delta = delta;
        o.parents = true;
        std::vector<W> first;
        for (const closure_limits& limits : settings) {
          CAPTURE(delta);
          CAPTURE(limits.local_rounds);
          CAPTURE(limits.queue_items);
          const auto got = detail::delta_stepping_configured(a, 2, o, limits, descriptor{});
          CHECK(verify(g, 2, want.distances, got) == "");
          if (first.empty()) first = got.distances;
          CHECK(got.distances == first);
        }
      }
    }
  }

  TEST_CASE("the light closure with local rounds: the same distances on every run") {
    TROPIC_REQUIRE_GPU();
    const csr<float> g = generate_grid<float>(200, 200, 12);
    const device_matrix<float> a(g);
    options o;
    o.algorithm = algorithm::delta_stepping;
    o.loop = loop_control::device;
    const auto want = dijkstra(g, 5, false);
    const auto first = sssp(a, 5, o);
    CHECK(verify(g, 5, want.distances, first) == "");
    for (int run = 0; run < 30; ++run) CHECK(sssp(a, 5, o).distances == first.distances);
  }

  TEST_CASE("a grid of 2^23 vertices and more: the wide wavefront's three blocks an SM") {
    TROPIC_REQUIRE_GPU();
    // policy::delta_stepping::device_loop_wide_vertices: the loop's instance bound to three
    // blocks an SM runs for 4-byte values only, twice on the same answer.
    const csr<std::uint32_t> g = generate_grid<std::uint32_t>(2900, 2900, 31);
    REQUIRE(std::uint64_t(g.n) >= policy::delta_stepping::device_loop_wide_vertices);
    const device_matrix<std::uint32_t> a(g);
    options o;
    o.algorithm = algorithm::delta_stepping;
    o.loop = loop_control::device;
    o.parents = true;
    const vertex source = g.n / 2 + 1000;
    const auto got = sssp(a, source, o);
    CHECK(verify(g, source, dijkstra(g, source, false).distances, got) == "");
    CHECK(sssp(a, source, o).distances == got.distances);
  }

  // The device-driven loop under compute-sanitizer (scripts/gpu-check.sh): small enough for
  // racecheck, and every path of the bucket kernel -- light only, heavy arcs with float
  // stragglers, empty buckets skipped, and the hand-over from the host-driven loop.
  TEST_CASE("delta_stepping: small graph for the sanitizers") {
    TROPIC_REQUIRE_GPU();
    {
      const csr<std::uint32_t> g = generate_grid<std::uint32_t>(24, 24, 5);
      const device_matrix<std::uint32_t> a(g);
      for (loop_control loop : {loop_control::device, loop_control::automatic}) {
        options o;
        o.algorithm = algorithm::delta_stepping;
        o.loop = loop;
        o.parents = true;
        // The automatic Δ's value as the caller's: the automatic loop starts on the host (a
        // graph this small under the automatic Δ starts on the GPU) and hands over.
        if (loop == loop_control::automatic) o.delta = 4 * choose_delta(compute_stats(g));
        const auto got = sssp(a, 0, o);
        CHECK(verify(g, 0, dijkstra(g, 0, false).distances, got) == "");
        CHECK(got.stats.device_loop_buckets > 0);
        if (loop == loop_control::automatic) CHECK(got.stats.host_round_trips > 0);
      }
    }
    {
      const csr<float> g = generate_kronecker<float>(7, 8, 3);
      const device_matrix<float> a(g);
      for (double delta : {0.37, 20.0}) {
        options o;
        o.algorithm = algorithm::delta_stepping;
        o.loop = loop_control::device;
        o.delta = delta;
        const auto got = sssp(a, 1, o);
        CAPTURE(delta);
        CHECK(verify(g, 1, dijkstra(g, 1, false).distances, got) == "");
      }
    }
  }

  TEST_CASE("the shared real graphs: reference answers") {
    TROPIC_REQUIRE_GPU();
    tropic::testing::for_each_reference_graph(
        [&](const csr<std::uint32_t>& g, const tropic::testing::reference_answer& ref) {
          const device_matrix<std::uint32_t> a(g);
          for (algorithm algo : {algorithm::delta_stepping, algorithm::bellman_ford})
            for (loop_control loop : {loop_control::automatic, loop_control::device}) {
              options o;
              o.algorithm = algo;
              o.parents = true;
              o.loop = loop;
              const auto got = sssp(a, ref.source, o);
              const auto s = tropic::testing::summarize(got.distances);
              CHECK(s.reached == ref.reached);
              CHECK(s.max_distance == ref.max_distance);
              CHECK(s.sum == ref.sum);
              const auto want = dijkstra(g, ref.source, false);
              CHECK(verify(g, ref.source, want.distances, got) == "");
            }
        });
  }

  TEST_CASE("bad input: a clear error, nothing written") {
    TROPIC_REQUIRE_GPU();
    const csr<std::int32_t> g = generate_grid<std::int32_t>(8, 8, 1);
    const device_matrix<std::int32_t> a(g);
    options o;
    o.algorithm = algorithm::delta_stepping;
    CHECK_THROWS_WITH_AS(sssp(a, 64, o), doctest::Contains("out of range"), error);
    CHECK_THROWS_WITH_AS(sssp(g, 1000, o), doctest::Contains("out of range"), error);
    csr<std::int32_t> neg = g;
    neg.weights[5] = -3;
    CHECK_THROWS_WITH_AS(sssp(neg, 0, o), doctest::Contains("negative"), error);
    CHECK_THROWS_WITH_AS(sssp(device_matrix<std::int32_t>(neg), 0, o),
                         doctest::Contains("negative"), error);
    o.delta = -1;
    CHECK_THROWS_AS(sssp(a, 0, o), error);
  }

  TEST_CASE("overflow: a distance beyond uint32 is an error, never a wrapped value") {
    TROPIC_REQUIRE_GPU();
    // A path 0 -> 1 -> 2 -> 3 of weight 2^31 each: dist[3] = 3 * 2^31 does not fit in uint32.
    arc_list<std::uint32_t> arcs;
    arcs.n = 4;
    for (vertex v = 0; v < 3; ++v) arcs.push_back(v, v + 1, 1u << 31);
    const auto g = build_csr(arcs);
    for (algorithm algo : {algorithm::delta_stepping, algorithm::bellman_ford}) {
      options o;
      o.algorithm = algo;
      try {
        sssp(g, 0, o);
        FAIL("no overflow error");
      } catch (const error& e) {
        CHECK(e.code() == error_code::overflow);
        CHECK(std::string(e.what()).find("vertex 2") != std::string::npos);
      }
      // uint64 holds it.
      const auto g64 = convert_weights<std::uint64_t>(g);
      CHECK(sssp(g64, 0, o).distances[3] == 3ull << 31);
    }
  }
}
