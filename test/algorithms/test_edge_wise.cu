// The `edge_wise` algorithm (Hohne et al.'s delta-stepping = ours with the edge-parallel push,
// load_balance::edge_wise) against the CPU Dijkstra; the push itself:
// test/semiring/test_push_edge_wise.cu.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_test.hpp"
#include "random_graphs.hpp"
#include "reference_graphs.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;

namespace {

options edge_wise_options(double delta = 0) {
  options o;
  o.algorithm = algorithm::edge_wise;
  o.delta = delta;
  o.parents = true;
  return o;
}

// What only the edge-wise push does: each light step (and each heavy pass) sweeps all |E| arcs,
// so the arcs scanned are a whole number of sweeps, at least one per light iteration. The
// merge-path push would report the frontier's arcs instead (fails here on any graph whose light
// frontiers are not always everything).
template <class W>
void check_sweeps(const result<W>& got, arc_index arcs) {
  CHECK(got.stats.algorithm == "edge_wise");
  if (arcs == 0) {
    CHECK(got.stats.arcs_relaxed == 0);
    return;
  }
  CHECK(got.stats.arcs_relaxed % arcs == 0);
  CHECK(got.stats.arcs_relaxed >= got.stats.iterations * arcs);
}

template <class W>
void check_algorithm(const csr<W>& g, vertex s, double delta, const device_matrix<W>& a) {
  CAPTURE(delta);
  const result<W> want = dijkstra(g, s, false);
  const result<W> got = sssp(a, s, edge_wise_options(delta));
  CHECK(verify(g, s, want.distances, got) == "");
  CHECK(got.stats.buckets >= 1);
  check_sweeps(got, g.arcs());
}

}  // namespace

TEST_SUITE("edge_wise") {
  TEST_CASE("edge_wise: available by name in CUDA builds") {
    CHECK(parse_algorithm("edge_wise") == algorithm::edge_wise);
    CHECK(std::string(algorithm_name(algorithm::edge_wise)) == "edge_wise");
    CHECK(is_gpu_algorithm(algorithm::edge_wise));
    const auto all = available_algorithms();
    CHECK(std::find(all.begin(), all.end(), algorithm::edge_wise) != all.end());
  }
  TEST_CASE_TEMPLATE("edge_wise matches Dijkstra on random graphs, every delta", W, std::uint32_t,
                     std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : tropic::testing::test_graph_cases(120, 4001)) {
      CAPTURE(c.name());
      const csr<W> g = c.graph<W>();
      const vertex s = c.source(g.n);
      const device_matrix<W> a(g);
      const double max_w = g.arcs() ? a.stats().max_weight : 1;
      // Δ = 1, the heuristic (0), wider than every weight (one light loop); fractional for floats.
      for (double delta : {1.0, 0.0, 2 * max_w + 1}) check_algorithm(g, s, delta, a);
      if (std::is_floating_point_v<W>) check_algorithm(g, s, 0.37, a);
    }
  }

  TEST_CASE_TEMPLATE("edge_wise on larger generated graphs, with and without the transpose", W,
                     std::uint32_t, float) {
    TROPIC_REQUIRE_GPU();
    // Symmetric and skewed (kron), directed (uniform), high-diameter (grid). With the transpose
    // uploaded delta_stepping may pull; edge_wise must still push, edge-parallel.
    const csr<W> graphs[] = {generate_kronecker<W>(14, 16, 3), generate_uniform<W>(20000, 7, 4),
                             generate_grid<W>(120, 90, 5)};
    for (const auto& g : graphs) {
      CAPTURE(g.n);
      const result<W> want = dijkstra(g, 1, false);
      for (bool transpose : {false, true}) {
        CAPTURE(transpose);
        const device_matrix<W> a(
            g, upload_options{transpose ? transpose_policy::required : transpose_policy::none});
        const auto got = sssp(a, 1, edge_wise_options());
        CHECK(verify(g, 1, want.distances, got) == "");
        check_sweeps(got, g.arcs());
        options plain = edge_wise_options();
        plain.algorithm = algorithm::delta_stepping;
        plain.delta = got.stats.delta;
        CHECK(sssp(a, 1, plain).distances == got.distances);
      }
    }
  }

  TEST_CASE("edge_wise: the host entry point builds the arc->source array as setup") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = generate_grid<std::uint32_t>(64, 64, 9);
    const auto want = dijkstra(g, 0, false);
    const auto got = sssp(g, 0, edge_wise_options());
    CHECK(verify(g, 0, want.distances, got) == "");
    CHECK(got.stats.setup_milliseconds > 0);
    check_sweeps(got, g.arcs());
  }

  TEST_CASE("edge_wise: bad input and a device-driven loop are clear errors") {
    TROPIC_REQUIRE_GPU();
    const csr<std::int32_t> g = generate_grid<std::int32_t>(8, 8, 1);
    const device_matrix<std::int32_t> a(g);
    options o = edge_wise_options();
    CHECK_THROWS_WITH_AS(sssp(a, 64, o), doctest::Contains("out of range"), error);
    csr<std::int32_t> neg = g;
    neg.weights[5] = -3;
    CHECK_THROWS_WITH_AS(sssp(neg, 0, o), doctest::Contains("negative"), error);
    o.loop = loop_control::device;
    CHECK_THROWS_WITH_AS(sssp(a, 0, o), doctest::Contains("host-driven"), error);
    o.loop = loop_control::automatic;
    const auto want = dijkstra(g, 0, false);
    CHECK(verify(g, 0, want.distances, sssp(a, 0, o)) == "");
  }

  TEST_CASE("edge_wise: the shared real graphs: reference answers") {
    TROPIC_REQUIRE_GPU();
    tropic::testing::for_each_reference_graph([&](const csr<std::uint32_t>& g,
                                                  const tropic::testing::reference_answer& ref) {
      const device_matrix<std::uint32_t> a(g);
      const auto got = sssp(a, ref.source, edge_wise_options());
      const auto s = tropic::testing::summarize(got.distances);
      CHECK(s.reached == ref.reached);
      CHECK(s.max_distance == ref.max_distance);
      CHECK(s.sum == ref.sum);
      const auto want = dijkstra(g, ref.source, false);
      CHECK(verify(g, ref.source, want.distances, got) == "");
      check_sweeps(got, g.arcs());
    });
  }

  TEST_CASE("edge_wise: small graph for the sanitizers") {
    TROPIC_REQUIRE_GPU();
    // The algorithm on a graph small enough for memcheck and racecheck (the push alone:
    // test_push_edge_wise.cu).
    const csr<float> g = generate_grid<float>(16, 16, 4);
    const device_matrix<float> a(g);
    const auto want = dijkstra(g, 3, false);
    const auto got = sssp(a, 3, edge_wise_options());
    CHECK(verify(g, 3, want.distances, got) == "");
    check_sweeps(got, g.arcs());
  }
}
