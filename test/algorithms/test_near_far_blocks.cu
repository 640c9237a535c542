// Near-Far on a thread block per source (algorithms/near_far_blocks.cu) against Dijkstra (verify:
// the reachable set, the values, parents by edge check) and the single-source delta-stepping
// (equal distances, floats too), for 1 to 64 sources with repeats and for more sources than
// blocks (each block solving many in turn), on random graphs of every weight type, generated ones
// (hubs, a grid, a directed graph), both block widths, every Δ, a cutoff, through
// sssp(A, sources), and bad input.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gpu_test.hpp"
#include "many_sources.hpp"
#include "random_graphs.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;
using tropic::testing::random_sources;
using tropic::testing::test_rng;

namespace {

// Dijkstra's row and the single-source delta-stepping's, once per source of a graph.
template <class W>
struct references {
  const csr<W>& g;
  const device_matrix<W>& a;
  std::map<vertex, std::vector<W>> exact_rows, single_rows;

  const std::vector<W>& exact(vertex s) {
    auto it = exact_rows.find(s);
    if (it == exact_rows.end()) it = exact_rows.emplace(s, dijkstra(g, s, false).distances).first;
    return it->second;
  }
  const std::vector<W>& single(vertex s) {
    auto it = single_rows.find(s);
    if (it == single_rows.end())
      it = single_rows.emplace(s, detail::delta_stepping_sssp(a, s, options{}).distances).first;
    return it->second;
  }
};

// Every row against Dijkstra (parents too when asked) and the single solve; a finite cutoff
// truncates both references.
template <class W>
void check_blocks(references<W>& ref, const std::vector<vertex>& sources, const options& o,
                  unsigned threads, W cutoff = infinity<W>()) {
  const vertex n = ref.g.n;
  const std::size_t k = sources.size();
  std::vector<W> d(k * n);
  std::vector<std::int64_t> p(o.parents ? k * n : 0);
  statistics st;
  detail::near_far_blocks(ref.a, sources.data(), k, o, d.data(), o.parents ? p.data() : nullptr,
                          st, cutoff, threads);
  CHECK(st.algorithm == "near_far");
  CHECK(st.buckets >= k);
  for (std::size_t s = 0; s < k; ++s) {
    CAPTURE(s);
    CAPTURE(sources[s]);
    result<W> got;
    got.distances.assign(d.begin() + std::ptrdiff_t(s * n), d.begin() + std::ptrdiff_t((s + 1) * n));
    if (o.parents)
      got.parents.assign(p.begin() + std::ptrdiff_t(s * n), p.begin() + std::ptrdiff_t((s + 1) * n));
    std::vector<W> want = ref.exact(sources[s]), alone = ref.single(sources[s]);
    for (vertex v = 0; v < n; ++v)
      if (cutoff < want[v]) want[v] = alone[v] = infinity<W>();
    CHECK(verify(ref.g, sources[s], want, got) == "");
    CHECK(got.distances == alone);
  }
}

}  // namespace

TEST_SUITE("near_far_blocks") {
  TEST_CASE_TEMPLATE("near_far_blocks: every row equals Dijkstra's and the single solve's", W,
                     std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : tropic::testing::test_graph_cases(24, 5100)) {
      CAPTURE(c.name());
      const csr<W> g = c.graph<W>();
      if (g.n == 0) continue;
      const device_matrix<W> a(g);
      references<W> ref{g, a, {}, {}};
      test_rng rng(c.seed);
      const double max_w = g.arcs() ? a.stats().max_weight : 1;
      for (std::size_t k : {1, 2, 7, 64}) {
        CAPTURE(k);
        const std::vector<vertex> sources = random_sources(rng, k, g.n);
        // Δ automatic, 1 (a window per distance), wider than every weight (one window).
        for (double delta : {0.0, 1.0, 2 * max_w + 1})
          for (unsigned threads : {256u, 1024u}) {
            CAPTURE(delta);
            CAPTURE(threads);
            options o;
            o.delta = delta;
            o.parents = k <= 7;
            check_blocks(ref, sources, o, threads);
          }
      }
    }
  }

  TEST_CASE_TEMPLATE("near_far_blocks: more sources than blocks, each block solving many", W,
                     std::uint32_t, double) {
    TROPIC_REQUIRE_GPU();
    int sms = 0;
    REQUIRE(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) == cudaSuccess);
    test_rng rng(52);
    for (const auto& c : tropic::testing::test_graph_cases(6, 5200)) {
      CAPTURE(c.name());
      const csr<W> g = c.graph<W>();
      if (g.n == 0) continue;
      const device_matrix<W> a(g);
      references<W> ref{g, a, {}, {}};
      // 1024-thread blocks: at most 2 per SM, so 3 per SM is more sources than blocks.
      check_blocks(ref, random_sources(rng, 3 * std::size_t(sms), g.n), options{}, 1024);
    }
  }

  TEST_CASE_TEMPLATE("near_far_blocks: hubs, a grid, a directed graph", W, std::uint32_t,
                     float) {
    TROPIC_REQUIRE_GPU();
    test_rng rng(53);
    for (const char* spec : {"kron:12:16", "grid:40:60", "uniform:3000:5"}) {
      CAPTURE(spec);
      const csr<W> g = generate<W>(spec, 5);
      const device_matrix<W> a(g);
      references<W> ref{g, a, {}, {}};
      for (unsigned threads : {0u, 256u, 1024u}) {
        CAPTURE(threads);
        options o;
        o.parents = threads == 0;
        check_blocks(ref, random_sources(rng, 40, g.n), o, threads);
      }
    }
  }

  TEST_CASE_TEMPLATE("near_far_blocks: a cutoff, farther vertices unreachable", W, std::uint32_t,
                     std::int64_t, float) {
    TROPIC_REQUIRE_GPU();
    test_rng rng(54);
    for (const auto& c : tropic::testing::test_graph_cases(24, 5300)) {
      CAPTURE(c.name());
      const csr<W> g = c.graph<W>();
      if (g.n == 0) continue;
      const device_matrix<W> a(g);
      references<W> ref{g, a, {}, {}};
      for (W cutoff : {W(0), W(3), W(17), W(60)}) {
        CAPTURE(double(cutoff));
        options o;
        o.parents = true;
        check_blocks(ref, random_sources(rng, 7, g.n), o, 0, cutoff);
      }
    }
  }

  TEST_CASE("near_far_blocks: sssp(A, sources) takes it on short rows, rows as single solves") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = generate<std::uint32_t>("grid:30:30", 3);
    const device_matrix<std::uint32_t> a(g);
    test_rng rng(55);
    const std::vector<vertex> sources = random_sources(rng, 20, g.n);
    for (algorithm alg : {algorithm::automatic, algorithm::near_far}) {
      CAPTURE(int(alg));
      options o;
      o.algorithm = alg;
      o.cutoff = 2000;
      const multi_result<std::uint32_t> r = sssp(a, sources, o);
      CHECK(r.stats.algorithm == "near_far");
      for (std::size_t s = 0; s < sources.size(); ++s) {
        options one;
        one.cutoff = o.cutoff;
        const result<std::uint32_t> single = sssp(g, sources[s], one);
        CHECK(std::equal(single.distances.begin(), single.distances.end(),
                         r.distances.begin() + std::ptrdiff_t(s * g.n)));
      }
    }
  }

  TEST_CASE("near_far_blocks: bad input, no sources, k x n past the memory") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = generate<std::uint32_t>("grid:100:100", 1);
    const device_matrix<std::uint32_t> a(g);
    statistics st;
    std::vector<std::uint32_t> d(2 * g.n);
    const std::vector<vertex> bad = {0, g.n};
    try {
      detail::near_far_blocks(a, bad.data(), 2, options{}, d.data(), nullptr, st);
      FAIL("no invalid_index");
    } catch (const error& e) {
      CHECK(e.code() == error_code::invalid_index);
      CHECK(std::string(e.what()).find("sources[1]") != std::string::npos);
    }
    const std::vector<vertex> good = {0, 1};
    CHECK_THROWS_AS(detail::near_far_blocks(a, good.data(), 2, options{}, d.data(), nullptr, st,
                                            infinity<std::uint32_t>(), 512),
                    error);
    options negative_delta;
    negative_delta.delta = -1;
    CHECK_THROWS_AS(
        detail::near_far_blocks(a, good.data(), 2, negative_delta, d.data(), nullptr, st), error);
    detail::near_far_blocks(a, good.data(), 0, options{}, d.data(), nullptr, st);
    CHECK(st.buckets == 0);
    const std::vector<vertex> many(10'000'000, 0);  // 10^4 x 10^7 x 4 bytes: 400 GB
    try {
      detail::near_far_blocks(a, many.data(), many.size(), options{}, d.data(), nullptr, st);
      FAIL("no out_of_memory");
    } catch (const error& e) {
      CHECK(e.code() == error_code::out_of_memory);
      CHECK(std::string(e.what()).find("10000000 sources x 10000 vertices") != std::string::npos);
    }
    const csr<std::int32_t> signed_graph = generate<std::int32_t>("grid:10:10", 1);
    csr<std::int32_t> with_negative = signed_graph;
    with_negative.weights[0] = -1;
    const device_matrix<std::int32_t> n(with_negative);
    std::vector<std::int32_t> dn(with_negative.n);
    CHECK_THROWS_AS(detail::near_far_blocks(n, good.data(), 1, options{}, dn.data(), nullptr, st),
                    error);
  }
}
