// Batched delta-stepping (algorithms/delta_stepping_batch.cu) against per-source solves: every row
// exactly the single-source delta-stepping's distances and Dijkstra's (verify: the reachable set,
// the values, parents by edge check), for k = 1, 2, 7, 64 sources with repeats, on random graphs
// of every weight type, larger generated ones (hubs, a grid, a directed graph without its
// transpose: push only), every Δ, Bellman-Ford's one bucket, the light loop as mxm_closure and as
// host-driven steps, a cutoff, and bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <type_traits>
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

// Row s of a batched answer as a result (distances and parents of one source).
template <class W>
result<W> row_of(const std::vector<W>& d, const std::vector<std::int64_t>& p, std::size_t s,
                 vertex n) {
  result<W> r;
  r.distances.assign(d.begin() + std::ptrdiff_t(s * n), d.begin() + std::ptrdiff_t((s + 1) * n));
  if (!p.empty())
    r.parents.assign(p.begin() + std::ptrdiff_t(s * n), p.begin() + std::ptrdiff_t((s + 1) * n));
  return r;
}

// Per source, Dijkstra's distances (verify's reference) and the single-source delta-stepping's
// with the batch's options, each computed once per graph and reused by every batch that holds the
// source (a batch of 64 with repeats against the same graph's other batches).
template <class W>
struct references {
  const csr<W>& g;
  const device_matrix<W>& a;
  std::map<vertex, std::vector<W>> dijkstra_rows;
  std::map<std::tuple<vertex, double, int>, std::vector<W>> single_rows;

  const std::vector<W>& exact(vertex s) {
    auto it = dijkstra_rows.find(s);
    if (it == dijkstra_rows.end())
      it = dijkstra_rows.emplace(s, dijkstra(g, s, false).distances).first;
    return it->second;
  }
  const std::vector<W>& single(vertex s, const options& o) {
    const auto key = std::make_tuple(s, o.delta, int(o.algorithm));
    auto it = single_rows.find(key);
    if (it == single_rows.end()) {
      options single = o;
      single.parents = false;
      single.loop = loop_control::host;
      it = single_rows.emplace(key, detail::delta_stepping_sssp(a, s, single).distances).first;
    }
    return it->second;
  }
};

// The batch from `sources` against, per row, Dijkstra (verify, parents included) and the
// single-source delta-stepping with the same options (equal distances, floats too: each is the
// least fixed point of d(v) = min_u d(u) + w(u, v) in W's arithmetic). A finite cutoff truncates
// the references: farther vertices unreachable.
template <class W>
void check_batch(references<W>& ref, const std::vector<vertex>& sources, options o,
                 W cutoff = infinity<W>()) {
  const vertex n = ref.g.n;
  const std::size_t k = sources.size();
  std::vector<W> d(k * n);
  std::vector<std::int64_t> p(o.parents ? k * n : 0);
  statistics st;
  detail::delta_stepping_batch(ref.a, sources.data(), k, o, d.data(),
                               o.parents ? p.data() : nullptr, st, cutoff);
  CHECK(st.buckets >= 1);
  CHECK(st.algorithm == "delta_stepping");
  for (std::size_t s = 0; s < k; ++s) {
    CAPTURE(s);
    CAPTURE(sources[s]);
    const result<W> got = row_of(d, p, s, n);
    std::vector<W> want = ref.exact(sources[s]);
    std::vector<W> alone = ref.single(sources[s], o);
    for (vertex v = 0; v < n; ++v)
      if (cutoff < want[v]) want[v] = alone[v] = infinity<W>();
    CHECK(verify(ref.g, sources[s], want, got) == "");
    CHECK(got.distances == alone);
  }
}

template <class W>
void check_random_graphs(std::size_t graphs, std::uint64_t base_seed) {
  for (const auto& c : tropic::testing::test_graph_cases(graphs, base_seed)) {
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
      // Δ = 1 (up to 7 sources: on a path its buckets are as many as the distances, and each
      // row's single solve is as slow), automatic, wider than every weight; Bellman-Ford's one
      // bucket. The light loop as mxm_closure (automatic, short rows) and as host-driven steps.
      std::vector<double> deltas = {0.0, 2 * max_w + 1};
      if (k <= 7) deltas.push_back(1.0);
      for (double delta : deltas)
        for (loop_control loop : {loop_control::automatic, loop_control::host}) {
          CAPTURE(delta);
          CAPTURE(int(loop));
          options o;
          o.delta = delta;
          o.loop = loop;
          o.parents = true;
          check_batch(ref, sources, o);
        }
      options bf;
      bf.algorithm = algorithm::bellman_ford;
      check_batch(ref, sources, bf);
    }
  }
}

}  // namespace

TEST_SUITE("delta_stepping_batch") {
  TEST_CASE_TEMPLATE("batched delta-stepping: every row equals its single solve, random graphs",
                     W, std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    check_random_graphs<W>(24, 3300);
  }

  TEST_CASE_TEMPLATE("batched delta-stepping: hubs, a grid, a directed graph pushed only", W,
                     std::uint32_t, double) {
    TROPIC_REQUIRE_GPU();
    test_rng rng(77);
    for (const char* spec : {"kron:12:16", "grid:40:60", "uniform:3000:5"}) {
      CAPTURE(spec);
      const csr<W> g = generate<W>(spec, 5);
      for (transpose_policy t : {transpose_policy::if_fits, transpose_policy::none}) {
        CAPTURE(int(t));
        const device_matrix<W> a(g, upload_options{t});
        references<W> ref{g, a, {}, {}};
        for (std::size_t k : {7, 64})
          for (loop_control loop : {loop_control::automatic, loop_control::host}) {
            CAPTURE(k);
            CAPTURE(int(loop));
            options o;
            o.parents = k == 7;
            o.loop = loop;
            check_batch(ref, random_sources(rng, k, g.n), o);
          }
      }
    }
  }

  TEST_CASE_TEMPLATE("batched delta-stepping: a cutoff, farther vertices unreachable", W,
                     std::uint32_t, std::int64_t, float) {
    TROPIC_REQUIRE_GPU();
    test_rng rng(91);
    for (const auto& c : tropic::testing::test_graph_cases(24, 3400)) {
      CAPTURE(c.name());
      const csr<W> g = c.graph<W>();
      if (g.n == 0) continue;
      const device_matrix<W> a(g);
      references<W> ref{g, a, {}, {}};
      for (W cutoff : {W(0), W(3), W(17), W(60)}) {
        CAPTURE(double(cutoff));
        options o;
        o.parents = true;
        check_batch(ref, random_sources(rng, 7, g.n), o, cutoff);
      }
    }
  }

  TEST_CASE("batched delta-stepping: a source out of range, no sources, k x n past the memory") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = generate<std::uint32_t>("grid:100:100", 1);
    const device_matrix<std::uint32_t> a(g);
    statistics st;
    std::vector<std::uint32_t> d(2 * g.n);
    const std::vector<vertex> bad = {0, g.n};
    CHECK_THROWS_AS(
        detail::delta_stepping_batch(a, bad.data(), 2, options{}, d.data(), nullptr, st), error);
    try {
      detail::delta_stepping_batch(a, bad.data(), 2, options{}, d.data(), nullptr, st);
    } catch (const error& e) {
      CHECK(e.code() == error_code::invalid_index);
      CHECK(std::string(e.what()).find("sources[1]") != std::string::npos);
    }
    detail::delta_stepping_batch(a, bad.data(), 0, options{}, d.data(), nullptr, st);
    CHECK(st.buckets == 0);
    // 10^4 vertices x 10^7 sources x 4 bytes x 3: 1.2 TB.
    const std::vector<vertex> many(10'000'000, 0);
    try {
      detail::delta_stepping_batch(a, many.data(), many.size(), options{}, d.data(), nullptr, st);
      FAIL("no out_of_memory");
    } catch (const error& e) {
      CHECK(e.code() == error_code::out_of_memory);
      CHECK(std::string(e.what()).find("10000000 sources x 10000 vertices") != std::string::npos);
    }
  }
}
