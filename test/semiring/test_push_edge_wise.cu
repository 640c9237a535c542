// The edge-parallel push (load_balance::edge_wise, semiring/kernels/push_edge_wise.cuh): the arc->source
// array it reads (built once, on demand, by several threads at once), the operator's demand for
// it, and the push against the host spec where the random-input harness (test_operator_spec.cu)
// does not reach: a hub of 100k arcs, plus-times, a run small enough for the sanitizers.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#include "device_download.hpp"
#include "gpu_test.hpp"
#include "operator_checks.hpp"
#include "random_graphs.hpp"
#include "test_helpers.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

using namespace tropic;
using tropic::testing::check_vxm_mxv;
using tropic::testing::download;
using tropic::testing::star;
using tropic::testing::vxm_choice;

namespace {

// The arc->source array: row u repeated once per arc of u (rows keep their arcs when sorted by
// weight, so this depends on the offsets alone).
template <class W>
std::vector<vertex> expected_sources(const csr<W>& g) {
  std::vector<vertex> s;
  for (vertex u = 0; u < g.n; ++u)
    for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) s.push_back(u);
  return s;
}

// vxm pushed edge-wise, every mask, accumulator and row part (check_vxm_mxv), no mxv.
vxm_choice edge_wise_push() {
  vxm_choice c;
  c.dir = direction::push;
  c.balance = load_balance::edge_wise;
  c.mxv = false;
  return c;
}

}  // namespace

TEST_SUITE("operators") {
  TEST_CASE("edge_wise push: the arc->source array is built once, on demand, and is right") {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : tropic::testing::test_graph_cases(16, 2100)) {
      CAPTURE(c.name());
      const csr<float> g = c.graph<float>();
      const device_matrix<float> a(g);
      CHECK(a.view().arc_sources == nullptr);
      const std::size_t bytes = a.device_bytes();
      const vertex* first = a.arc_sources();
      if (g.arcs() == 0) {
        CHECK(first == nullptr);
        continue;
      }
      REQUIRE(first != nullptr);
      CHECK(a.arc_sources() == first);
      CHECK(a.view().arc_sources == first);
      CHECK(a.device_bytes() == bytes + g.arcs() * sizeof(vertex));
      CHECK(download(first, g.arcs()) == expected_sources(g));
    }
  }

  TEST_CASE("edge_wise push: the arc->source array, asked for by several threads at once") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = star<std::uint32_t>(50000, 3);
    const device_matrix<std::uint32_t> a(g);
    std::vector<const vertex*> seen(8, nullptr);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < seen.size(); ++t)
      threads.emplace_back([&, t] { seen[t] = a.arc_sources(); });
    for (auto& t : threads) t.join();
    for (const vertex* p : seen) CHECK(p == seen[0]);
    CHECK(download(seen[0], g.arcs()) == expected_sources(g));
  }

  TEST_CASE("edge_wise push: the operator asks for the arc->source array it needs") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = generate_grid<std::uint32_t>(10, 10, 2);
    cuda_stream stream;
    gpu_context ctx(stream);
    const device_matrix<std::uint32_t> a(g, upload_options{}, stream);
    dense_vector<std::uint32_t> w(g.n, stream);
    assign(w, no_mask<std::uint32_t>(), infinity<std::uint32_t>(), false, ctx);
    sparse_vector<std::uint32_t> u(g.n, stream);
    u.upload({0}, {0u});
    descriptor d;
    d.dir = direction::push;
    d.balance = load_balance::edge_wise;
    CHECK_THROWS_WITH_AS(vxm(w, no_mask<std::uint32_t>(), accumulator::min,
                             min_plus<std::uint32_t>{}, u, all_of(a), d, ctx),
                         doctest::Contains("arc_sources"), error);
    a.arc_sources();
    vxm(w, no_mask<std::uint32_t>(), accumulator::min, min_plus<std::uint32_t>{}, u, all_of(a), d,
        ctx);
    std::vector<std::uint32_t> want(g.n, infinity<std::uint32_t>());
    for (arc_index e = g.row_offsets[0]; e < g.row_offsets[1]; ++e)
      want[g.columns[e]] = std::min(want[g.columns[e]], g.weights[e]);
    CHECK(w.to_host() == want);
  }

  TEST_CASE_TEMPLATE("edge_wise push with a vertex of degree 100k", W, std::uint32_t, float) {
    TROPIC_REQUIRE_GPU();
    check_vxm_mxv<min_plus<W>>(star<W>(100000, 7), 7, true, edge_wise_push());
  }

  TEST_CASE_TEMPLATE("edge_wise push in plus-times matches the spec", W, float, double) {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : tropic::testing::test_graph_cases(16, 1500)) {
      CAPTURE(c.name());
      check_vxm_mxv<plus_times<W>>(c.graph<W>(), c.seed, false, edge_wise_push());
    }
  }

  TEST_CASE("edge_wise push: small graph for the sanitizers") {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : tropic::testing::test_graph_cases(8, 5100)) {
      CAPTURE(c.name());
      check_vxm_mxv<min_plus<std::uint32_t>>(c.graph<std::uint32_t>(), c.seed, true,
                                             edge_wise_push());
    }
  }
}
