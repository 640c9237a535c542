// The edge-parallel push (load_balance::edge_wise, semiring/push_edge_wise.cuh) against the host
// spec, the arc->source array it reads, and the `edge_wise` algorithm (Hohne et al.'s
// delta-stepping = ours with that push) against the CPU Dijkstra.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "gpu_test.hpp"
#include "operator_spec.hpp"
#include "random_graphs.hpp"
#include "reference_graphs.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;
using tropic::testing::test_rng;

namespace {

template <class W>
W random_value(test_rng& rng, double infinity_chance) {
  if (rng.chance(infinity_chance)) return infinity<W>();
  return W(rng.between(0, 60));
}

template <class W>
std::vector<W> random_dense(test_rng& rng, vertex n, double infinity_chance) {
  std::vector<W> v(n);
  for (auto& x : v) x = random_value<W>(rng, infinity_chance);
  return v;
}

// A hub with `leaves` out-arcs, every leaf an arc back: the degree skew edge-wise balances.
template <class W>
csr<W> star(vertex leaves, std::uint64_t seed) {
  test_rng rng(seed);
  arc_list<W> a;
  a.n = leaves + 1;
  for (vertex v = 1; v <= leaves; ++v) {
    const W w = W(rng.between(0, 9));
    a.push_back(0, v, w);
    a.push_back(v, 0, w);
  }
  return build_csr(a);
}

template <class W>
bool same(W a, W b, bool exact) {
  if (exact || a == b) return a == b;
  const double x = double(a), y = double(b);
  return std::fabs(x - y) <= 1e-4 * std::max(1.0, std::max(std::fabs(x), std::fabs(y)));
}

std::vector<vertex> download(const vertex* device, std::size_t count) {
  std::vector<vertex> h(count);
  if (count)
    TROPIC_CUDA_CHECK(cudaMemcpy(h.data(), device, count * sizeof(vertex), cudaMemcpyDeviceToHost));
  return h;
}

// The arc->source array: row u repeated once per arc of u (rows keep their arcs when sorted by
// weight, so this depends on the offsets alone).
template <class W>
std::vector<vertex> expected_sources(const csr<W>& g) {
  std::vector<vertex> s;
  for (vertex u = 0; u < g.n; ++u)
    for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) s.push_back(u);
  return s;
}

// vxm with the push pinned to edge_wise, against spec::vxm + spec::write: every mask kind,
// complement, replace, accumulator and row part; inputs empty, one entry, 10%, every vertex, or
// a worklist that repeats indices. Also checks the improved list (each index once, exactly the
// vertices that decreased into the range) and that a call adds |E| to the arcs-scanned counter.
template <class S, class W = typename S::value_type>
void check_edge_wise_vxm(const csr<W>& g, std::uint64_t seed, bool exact) {
  test_rng rng(seed);
  const double inf_share = S::is_min_monoid ? 1.0 : 0.0;  // plus-times: ∞ would make NaNs
  cuda_stream stream;
  gpu_context ctx(stream);
  device_matrix<W> a(g, upload_options{}, stream);
  a.arc_sources();
  const vertex n = g.n;
  const double delta = double(rng.between(0, 40));
  light_heavy_split<W> split(a, delta, ctx);
  const W wdelta = W(delta);
  std::uint64_t scanned = ctx.read_arcs_scanned();

  for (int round = 0; round < 12; ++round) {
    const mask_kind mk = static_cast<mask_kind>(rng.below(3));
    const bool complement = rng.chance(0.3), replace = rng.chance(0.3);
    const accumulator accum = S::is_min_monoid
                                  ? (rng.chance(0.5) ? accumulator::min : accumulator::none)
                                  : (rng.chance(0.5) ? accumulator::plus : accumulator::none);
    const row_part part = static_cast<row_part>(rng.below(3));
    const int shape = int(rng.below(5));
    CAPTURE(round);
    CAPTURE(int(mk));
    CAPTURE(complement);
    CAPTURE(replace);
    CAPTURE(int(accum));
    CAPTURE(int(part));
    CAPTURE(shape);

    std::vector<vertex> ui;
    std::vector<W> uv;
    if (shape == 4) {
      // A worklist: indices drawn with repetition (the pushes of one index must combine).
      const std::size_t count = std::size_t(rng.between(1, 2 * std::size_t(n)));
      for (std::size_t k = 0; k < count && k < n; ++k) {
        ui.push_back(vertex(rng.below(n)));
        uv.push_back(random_value<W>(rng, 0.05 * inf_share));
      }
    } else {
      for (vertex i = 0; i < n; ++i) {
        const bool take = shape == 0   ? false
                          : shape == 1 ? i == vertex(seed % n)
                          : shape == 2 ? rng.chance(0.1)
                                       : true;
        if (take) {
          ui.push_back(i);
          uv.push_back(random_value<W>(rng, 0.05 * inf_share));
        }
      }
    }
    const std::vector<W> w0 = random_dense<W>(rng, n, 0.4 * inf_share);
    std::vector<W> m = random_dense<W>(rng, n, 0.3);
    if (rng.chance(0.15)) std::fill(m.begin(), m.end(), W(1));
    if (rng.chance(0.15)) std::fill(m.begin(), m.end(), infinity<W>());

    dense_vector<W> w(n, stream), mask(n, stream);
    w.upload(w0);
    mask.upload(m);
    sparse_vector<W> u(n, stream), improved(n, stream);
    u.upload(ui, uv);
    const mask_view<W> mv{mk == mask_kind::none ? nullptr : mask.data(), mk, complement};
    descriptor d;
    d.replace = replace;
    d.dir = direction::push;
    d.balance = load_balance::edge_wise;
    const matrix_operand<W> op{&a, part, &split};
    const bool track = accum == accumulator::min && S::is_min_monoid;
    const value_range<W> range{W(0), W(30)};
    vxm(w, mv, accum, S{}, u, op, d, ctx, track ? &improved : nullptr, range);
    const std::vector<W> got = w.to_host();

    std::vector<W> want = w0;
    spec::write<S>(want, spec::vxm<S>(g, ui, uv, part, wdelta), &m, mk, complement, accum,
                   replace);
    for (vertex i = 0; i < n; ++i) {
      if (!same(got[i], want[i], exact)) {
        CAPTURE(i);
        CHECK(double(got[i]) == double(want[i]));
        break;
      }
    }
    if (track) {
      std::vector<vertex> listed = improved.indices_to_host();
      std::sort(listed.begin(), listed.end());
      CHECK(std::adjacent_find(listed.begin(), listed.end()) == listed.end());
      std::vector<vertex> expect;
      for (vertex i = 0; i < n; ++i)
        if (want[i] < w0[i] && want[i] < range.hi) expect.push_back(i);
      CHECK(listed == expect);
    }
    // The sweep reads every arc once per call with a non-empty input, and nothing otherwise.
    const std::uint64_t now = ctx.read_arcs_scanned();
    CHECK(now - scanned == (ui.empty() ? 0 : g.arcs()));
    scanned = now;
  }
}

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

  TEST_CASE("edge_wise: the arc->source array is built once, on demand, and is right") {
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

  TEST_CASE("edge_wise: the arc->source array, asked for by several threads at once") {
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

  TEST_CASE("edge_wise: the operator asks for the arc->source array it needs") {
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

  TEST_CASE_TEMPLATE("edge_wise push matches the spec on random graphs", W, std::uint32_t,
                     std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : tropic::testing::test_graph_cases(24, 1300)) {
      CAPTURE(c.name());
      check_edge_wise_vxm<min_plus<W>>(c.graph<W>(), c.seed, true);
    }
  }

  TEST_CASE_TEMPLATE("edge_wise push with a vertex of degree 100k", W, std::uint32_t, float) {
    TROPIC_REQUIRE_GPU();
    check_edge_wise_vxm<min_plus<W>>(star<W>(100000, 7), 7, true);
  }

  TEST_CASE_TEMPLATE("edge_wise push in plus-times matches the spec", W, float, double) {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : tropic::testing::test_graph_cases(16, 1500)) {
      CAPTURE(c.name());
      check_edge_wise_vxm<plus_times<W>>(c.graph<W>(), c.seed, false);
    }
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
    // The operator on every row part, then the algorithm, on graphs small enough for memcheck and
    // racecheck.
    for (const auto& c : tropic::testing::test_graph_cases(8, 5100)) {
      CAPTURE(c.name());
      check_edge_wise_vxm<min_plus<std::uint32_t>>(c.graph<std::uint32_t>(), c.seed, true);
    }
    const csr<float> g = generate_grid<float>(16, 16, 4);
    const device_matrix<float> a(g);
    const auto want = dijkstra(g, 3, false);
    const auto got = sssp(a, 3, edge_wise_options());
    CHECK(verify(g, 3, want.distances, got) == "");
    check_sweeps(got, g.arcs());
  }
}
