// RDBS (algorithms/rdbs.cu) against the CPU Dijkstra: the random-graph suite in every weight
// type, with and without the degree renumbering, the shared real graphs, repeatability, the
// three workload lists (split rows included), degenerate shapes, and the failure paths (full
// work lists, the watchdog).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpu_test.hpp"
#include "rdbs_config.cuh"
#include "reference_graphs.hpp"
#include "test_helpers.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/sssp.hpp"

namespace {

using namespace tropic;
using tropic::detail::rdbs_config;
using tropic::detail::rdbs_report;

template <class W>
result<W> run_rdbs(const csr<W>& g, vertex source, const options& o = {},
                   const rdbs_config& cfg = {}, rdbs_report* rep = nullptr) {
  device_matrix<W> a(g);
  return detail::rdbs_sssp_configured(a, source, o, cfg, rep);
}

template <class W>
void check_rdbs(const csr<W>& g, vertex source, const options& o = {},
                const rdbs_config& cfg = {}, rdbs_report* rep = nullptr) {
  const result<W> want = dijkstra(g, source, false);
  const result<W> got = run_rdbs(g, source, o, cfg, rep);
  const std::string problems = verify(g, source, want.distances, got);
  CHECK_MESSAGE(problems.empty(), problems);
  CHECK(got.stats.algorithm == "rdbs");
}

// A hub (the last vertex, so that the renumbering moves it to 0) with an arc to every leaf and
// one back from each, plus a ring through the leaves whose short arcs compete with the hub's.
// Hub weights in 0..max_hub_w: with a small maximum all of the hub's arcs are light, so its row
// is split into 4096-arc block items.
template <class W>
csr<W> hub_graph(vertex leaves, std::uint64_t max_hub_w, std::uint64_t seed) {
  testing::test_rng rng(seed);
  arc_list<W> l;
  l.n = leaves + 1;
  const vertex hub = leaves;
  for (vertex i = 0; i < leaves; ++i) {
    l.push_back(hub, i, W(rng.below(max_hub_w + 1)));
    l.push_back(i, hub, W(1 + rng.below(1000)));
    l.push_back(i, (i + 1) % leaves, W(rng.below(3)));
  }
  return build_csr(l);
}

// Rows of all three classes at delta = 5: every 7th vertex has 600 arcs of weight 0..2 (large
// items: more than 256 light arcs), every other 3rd has 80 such arcs (middle items), the rest 4
// arcs of weight 0..19 (small items).
template <class W>
csr<W> mixed_degree_graph(vertex n, std::uint64_t seed) {
  testing::test_rng rng(seed);
  arc_list<W> l;
  l.n = n;
  for (vertex u = 0; u < n; ++u) {
    const bool light_row = u % 7 == 0 || u % 3 == 0;
    const unsigned d = u % 7 == 0 ? 600 : u % 3 == 0 ? 80 : 4;
    for (unsigned j = 0; j < d; ++j)
      l.push_back(u, static_cast<vertex>(rng.below(n)), W(rng.below(light_row ? 3 : 20)));
  }
  return build_csr(l);
}

template <class W>
void random_suite(std::size_t count, std::uint64_t base_seed, const rdbs_config& cfg = {}) {
  testing::for_each_test_graph<W>(
      count, base_seed, [&](const csr<W>& g, vertex s) { check_rdbs(g, s, options{}, cfg); });
}

}  // namespace

TEST_SUITE("rdbs") {
  TEST_CASE("rdbs: random graph suite, uint32 and float") {
    TROPIC_REQUIRE_GPU();
    random_suite<std::uint32_t>(64, 1);
    random_suite<float>(64, 1001);
  }

  TEST_CASE("rdbs: random graph suite, the other weight types") {
    TROPIC_REQUIRE_GPU();
    random_suite<std::int32_t>(24, 2001);
    random_suite<std::uint64_t>(24, 3001);
    random_suite<std::int64_t>(24, 4001);
    random_suite<double>(24, 5001);
  }

  TEST_CASE("rdbs: random graph suite with the renumbering, and with a fixed delta") {
    TROPIC_REQUIRE_GPU();
    rdbs_config renumbered;
    renumbered.reorder = true;
    random_suite<std::uint32_t>(32, 6001, renumbered);
    random_suite<double>(16, 7001, renumbered);
    rdbs_config fixed;
    fixed.dynamic_delta = false;
    random_suite<float>(32, 8001, fixed);
  }

  TEST_CASE("rdbs: random graph suite with every heavy step a pull") {
    TROPIC_REQUIRE_GPU();
    rdbs_config pulled;
    pulled.heavy_direction = direction::pull;
    random_suite<std::uint32_t>(32, 9001, pulled);
    random_suite<float>(32, 9501, pulled);
    random_suite<std::int64_t>(16, 9801, pulled);
  }

  TEST_CASE("rdbs: the renumbering does not change the answer") {
    TROPIC_REQUIRE_GPU();
    const auto g = mixed_degree_graph<std::uint32_t>(20000, 3);
    rdbs_config on, off;
    on.reorder = true;
    off.reorder = false;
    rdbs_report rep_on, rep_off;
    const auto a = run_rdbs(g, 7, options{}, on, &rep_on);
    const auto b = run_rdbs(g, 7, options{}, off, &rep_off);
    CHECK(rep_on.reordered);
    CHECK(!rep_off.reordered);
    CHECK(rep_off.reorder_ms == 0);
    CHECK(a.distances == b.distances);  // integer weights: distances are exact
    CHECK(verify(g, 7, dijkstra(g, 7, false).distances, a).empty());
  }

  TEST_CASE("rdbs: parents, given deltas, one bucket") {
    TROPIC_REQUIRE_GPU();
    const auto g = testing::uniform_digraph<std::uint32_t>(20000, 6, 1000, 7);
    options o;
    o.parents = true;
    check_rdbs(g, 3, o);  // verify() checks every parent arc is tight, in the caller's numbering
    o.parents = false;
    o.delta = 1;  // many narrow buckets: almost every arc heavy
    check_rdbs(g, 3, o);
    o.delta = 1e6;  // every arc light, a few wide buckets
    check_rdbs(g, 3, o);
    o.delta = std::numeric_limits<double>::infinity();  // one bucket: asynchronous Bellman-Ford
    rdbs_report rep;
    check_rdbs(g, 3, o, rdbs_config{}, &rep);
    CHECK(rep.heavy_steps == 0);
    CHECK(rep.delta_changes == 0);
    const auto gz = testing::random_test_graph<float>(77, testing::test_graph_kind::zero_weight_heavy);
    o = options{};
    o.parents = true;
    check_rdbs(gz, 0, o);  // zero-weight cycles: parents must still form a tree
  }

  TEST_CASE("rdbs: the per-bucket delta of Eq. 1-2 stays in its bounds, and off means off") {
    TROPIC_REQUIRE_GPU();
    const auto g = testing::uniform_digraph<float>(50000, 8, 100, 11);
    rdbs_report rep;
    check_rdbs(g, 0, options{}, rdbs_config{}, &rep);
    CHECK(rep.min_delta >= rep.initial_delta / 16);
    CHECK(rep.max_delta <= rep.initial_delta * 16);
    MESSAGE("rdbs dynamic delta: ", rep.initial_delta, " -> ", rep.final_delta, " (range ",
            rep.min_delta, "..", rep.max_delta, ", ", rep.delta_changes, " changes)");
    rdbs_config fixed;
    fixed.dynamic_delta = false;
    rdbs_report rep2;
    check_rdbs(g, 0, options{}, fixed, &rep2);
    CHECK(rep2.delta_changes == 0);
    CHECK(rep2.final_delta == rep2.initial_delta);
  }

  TEST_CASE("rdbs: the buckets' width in steps of delta_0, and the scaled delta_0") {
    // Pure functions (no GPU): Eq. 2's delta rounded to a half octave of delta_0 ...
    CHECK(detail::rdbs_stepped_delta(13, 10, 0) == 13);
    CHECK(detail::rdbs_stepped_delta(10.9, 10, 2) == doctest::Approx(10));
    CHECK(detail::rdbs_stepped_delta(13, 10, 2) == doctest::Approx(10 * std::sqrt(2.0)));
    CHECK(detail::rdbs_stepped_delta(7.2, 10, 2) == doctest::Approx(10 / std::sqrt(2.0)));
    CHECK(detail::rdbs_stepped_delta(40, 10, 1) == doctest::Approx(40));
    CHECK(detail::rdbs_stepped_delta(50, 10, 1) == doctest::Approx(40));
    // ... and the automatic delta_0 scaled by sqrt(reference / arcs) on shallow graphs, to a
    // quarter at most, never below the lightest arc.
    const double ref = double(1 << 25);
    CHECK(detail::rdbs_scaled_delta0(100, double(1 << 27), 6, 1, ref) == doctest::Approx(50));
    CHECK(detail::rdbs_scaled_delta0(100, double(1ull << 33), 6, 1, ref) == 25);
    CHECK(detail::rdbs_scaled_delta0(100, double(1ull << 33), 6, 40, ref) == 40);
    CHECK(detail::rdbs_scaled_delta0(100, double(1ull << 33), 6, 400, ref) == 100);
    CHECK(detail::rdbs_scaled_delta0(100, double(1 << 24), 6, 1, ref) == 100);
    CHECK(detail::rdbs_scaled_delta0(100, double(1 << 27), 500, 1, ref) == 100);  // deep
    CHECK(detail::rdbs_scaled_delta0(100, double(1 << 27), 6, 1, 0) == 100);      // off
  }

  TEST_CASE("rdbs: exact with the width in steps and a scaled delta_0, and a given delta kept") {
    TROPIC_REQUIRE_GPU();
    const auto g = testing::uniform_digraph<std::uint32_t>(30000, 8, 1000, 5);
    rdbs_config unscaled;
    unscaled.delta0_reference_arcs = 0;
    rdbs_report plain;
    check_rdbs(g, 1, options{}, unscaled, &plain);
    for (unsigned steps : {0u, 1u, 2u, 4u}) {
      CAPTURE(steps);
      rdbs_config c;
      c.delta_steps_per_octave = steps;
      c.delta0_reference_arcs = double(g.arcs()) / 16;  // a quarter of the automatic delta_0
      rdbs_report rep;
      check_rdbs(g, 1, options{}, c, &rep);
      CHECK(rep.initial_delta == doctest::Approx(plain.initial_delta / 4));
    }
    rdbs_config c;
    c.delta0_reference_arcs = double(g.arcs()) / 16;
    options o;
    o.delta = 37;
    rdbs_report rep;
    check_rdbs(g, 1, o, c, &rep);
    CHECK(rep.initial_delta == 37);
  }

  TEST_CASE("rdbs: the heavy phase pulls where A' is at hand, and pushes otherwise") {
    TROPIC_REQUIRE_GPU();
    rdbs_config pull, push;
    pull.heavy_direction = direction::pull;
    push.heavy_direction = direction::push;
    SUBCASE("symmetric: A is its own transpose") {
      const auto g = generate<std::uint32_t>("kron:14:16", 3);
      rdbs_report pulled, pushed, automatic;
      check_rdbs(g, 1, options{}, pull, &pulled);
      CHECK(pulled.heavy_steps > 0);
      CHECK(pulled.heavy_pulls == pulled.heavy_steps);
      check_rdbs(g, 1, options{}, push, &pushed);
      CHECK(pushed.heavy_steps > 0);
      CHECK(pushed.heavy_pulls == 0);
      check_rdbs(g, 1, options{}, rdbs_config{}, &automatic);
      CHECK(automatic.heavy_pulls <= automatic.heavy_steps);
      MESSAGE("kron-14, the direction rule: ", automatic.heavy_pulls, " of ",
              automatic.heavy_steps, " heavy steps pulled");
      // floats: a heavy arc that rounding brings back into the bucket, from a pull
      check_rdbs(generate<float>("kron:14:16", 4), 2, options{}, pull);
      check_rdbs(generate<double>("grid:60:70", 5), 7, options{}, pull);
    }
    SUBCASE("directed: A' uploaded, or none and the rule pushes") {
      const auto g = testing::uniform_digraph<double>(20000, 8, 100, 9);
      rdbs_report with;
      check_rdbs(g, 0, options{}, pull, &with);
      CHECK(with.heavy_pulls == with.heavy_steps);
      device_matrix<double> bare(g, upload_options{transpose_policy::none});
      REQUIRE_FALSE(bare.has_transpose());
      rdbs_report without;
      const auto got = detail::rdbs_sssp_configured(bare, 0, options{}, rdbs_config{}, &without);
      CHECK(verify(g, 0, dijkstra(g, 0, false).distances, got).empty());
      CHECK(without.heavy_pulls == 0);
      CHECK(without.heavy_steps > 0);
    }
    SUBCASE("the renumbered copy pushes whatever the direction") {
      const auto g = generate<std::uint32_t>("kron:14:16", 3);
      rdbs_config renumbered = pull;
      renumbered.reorder = true;
      rdbs_report rep;
      check_rdbs(g, 1, options{}, renumbered, &rep);
      CHECK(rep.heavy_pulls == 0);
      CHECK(rep.heavy_steps > 0);
    }
  }

  TEST_CASE("rdbs: statistics and the three workload lists") {
    TROPIC_REQUIRE_GPU();
    const auto g = mixed_degree_graph<float>(30000, 5);
    device_matrix<float> a(g);
    rdbs_report rep;
    options o;
    o.delta = 5;  // the classes of mixed_degree_graph (the heuristic would pick about 0.4)
    const auto r = detail::rdbs_sssp_configured(a, 0, o, rdbs_config{}, &rep);
    const auto want = dijkstra(g, 0, false);
    CHECK(verify(g, 0, want.distances, r).empty());
    std::uint64_t reached = 0;
    for (float d : want.distances) reached += d != infinity<float>();
    CHECK(r.stats.algorithm == "rdbs");
    CHECK(r.stats.buckets >= 1);
    CHECK(r.stats.vertices_relaxed >= reached);
    CHECK(r.stats.arcs_relaxed >= r.stats.vertices_relaxed);
    CHECK(r.stats.iterations >= rep.heavy_steps);
    CHECK(r.stats.milliseconds > 0);
    CHECK(r.stats.delta > 0);
    CHECK(r.stats.host_round_trips > 0);
    CHECK(rep.light_phases >= r.stats.buckets);
    CHECK(rep.small_items > 0);
    CHECK(rep.middle_items > 0);
    CHECK(rep.large_items > 0);
    CHECK(rep.threads_used >= rep.small_items + 32 * rep.middle_items + 256 * rep.large_items);
    CHECK(rep.worker_blocks >= 1);
    MESSAGE("rdbs mixed n=30000: ", r.stats.milliseconds, " ms (reorder ", rep.reorder_ms,
            " ms), ", r.stats.buckets, " buckets, ", rep.light_phases, " light phases, items ",
            rep.small_items, "/", rep.middle_items, "/", rep.large_items, ", ",
            double(r.stats.vertices_relaxed) / double(reached), " rows per reached vertex");
  }

  TEST_CASE("rdbs: the same graph and source 20 times give identical distances") {
    TROPIC_REQUIRE_GPU();
    const auto g = testing::uniform_digraph<float>(30000, 5, 1000, 23);
    device_matrix<float> a(g);
    options o;
    o.algorithm = algorithm::rdbs;
    o.parents = true;
    const auto first = sssp(a, 17, o);
    const auto want = dijkstra(g, 17, false);
    REQUIRE(verify(g, 17, want.distances, first).empty());
    int different = 0;
    for (int i = 0; i < 20; ++i) {
      const auto again = sssp(a, 17, o);
      different += again.distances != first.distances || again.parents != first.parents;
    }
    CHECK(different == 0);
  }

  TEST_CASE("rdbs: tiny and degenerate graphs") {
    TROPIC_REQUIRE_GPU();
    SUBCASE("one vertex") {
      csr<std::uint32_t> g;
      g.n = 1;
      g.row_offsets = {0, 0};
      for (bool reorder : {true, false}) {
        rdbs_config cfg;
        cfg.reorder = reorder;
        const auto r = run_rdbs(g, 0, options{}, cfg);
        REQUIRE(r.distances.size() == 1);
        CHECK(r.distances[0] == 0);
      }
    }
    SUBCASE("one vertex with a self-loop") {
      csr<double> g;
      g.n = 1;
      g.row_offsets = {0, 1};
      g.columns = {0};
      g.weights = {2.5};
      const auto r = run_rdbs(g, 0);
      REQUIRE(r.distances.size() == 1);
      CHECK(r.distances[0] == 0);
    }
    SUBCASE("no arcs") {
      csr<float> g;
      g.n = 10;
      g.row_offsets.assign(11, 0);
      const auto r = run_rdbs(g, 4);
      for (vertex v = 0; v < 10; ++v) CHECK(r.distances[v] == (v == 4 ? 0.f : infinity<float>()));
    }
    SUBCASE("a path of 100k vertices") {
      check_rdbs(testing::path_graph<std::uint32_t>(100000, false), 0);
      check_rdbs(testing::path_graph<double>(100000, true), 50000);
      rdbs_config renumbered;
      renumbered.reorder = true;
      check_rdbs(testing::path_graph<std::int64_t>(100000, true), 99999, options{}, renumbered);
    }
  }

  TEST_CASE("rdbs: huge-degree stars (split rows)") {
    TROPIC_REQUIRE_GPU();
    rdbs_report rep;
    // Hub weights 0..2: the hub's million arcs are light, 245 block items of 4096 arcs.
    check_rdbs(hub_graph<std::uint32_t>(1000000, 2, 5), 1000000, options{}, rdbs_config{}, &rep);
    CHECK(rep.large_items >= 1000000 / 4096);
    check_rdbs(hub_graph<float>(300000, 1000, 6), 12345);  // from a leaf, hub arcs mostly heavy
    rdbs_config renumbered;
    renumbered.reorder = true;
    check_rdbs(hub_graph<std::uint64_t>(200000, 3, 7), 200000, options{}, renumbered);
  }

  TEST_CASE("rdbs: the shared real graphs") {
    TROPIC_REQUIRE_GPU();
    testing::for_each_reference_graph([](const csr<std::uint32_t>& g,
                                         const testing::reference_answer& ref) {
      rdbs_report rep;
      const auto got = run_rdbs(g, ref.source, options{}, rdbs_config{}, &rep);
      const auto s = testing::summarize(got.distances);
      CHECK(s.reached == ref.reached);
      CHECK(s.max_distance == ref.max_distance);
      CHECK(s.sum == ref.sum);
      const auto want = dijkstra(g, ref.source, false);
      CHECK_MESSAGE(verify(g, ref.source, want.distances, got).empty(),
                    verify(g, ref.source, want.distances, got));
      MESSAGE(ref.file, " source ", ref.source, ": ", got.stats.milliseconds, " ms (reorder ",
              rep.reorder_ms, " ms), ", got.stats.buckets, " buckets, ", rep.light_phases,
              " light phases, delta ", rep.initial_delta, " -> ", rep.final_delta, ", ",
              double(got.stats.vertices_relaxed) / double(s.reached), " rows per reached vertex");
    });
  }

  TEST_CASE("rdbs: full work lists grow and retry, or fail with a message") {
    TROPIC_REQUIRE_GPU();
    const auto g = hub_graph<std::uint32_t>(100000, 1000, 9);
    const auto want = dijkstra(g, 100000, false);
    device_matrix<std::uint32_t> a(g);
    rdbs_config cfg;
    cfg.list_capacity = 16;  // the hub's first burst cannot fit
    cfg.overflow_retries = 0;
    try {
      detail::rdbs_sssp_configured(a, 100000, options{}, cfg);
      FAIL("16-item lists cannot hold the hub's 100000 pushes");
    } catch (const error& e) {
      CHECK(e.code() == error_code::out_of_memory);
      CHECK(std::string(e.what()).find("work lists") != std::string::npos);
    }
    cfg.overflow_retries = 8;  // 16 * 4^8 = 1M items: enough
    rdbs_report rep;
    const auto r = detail::rdbs_sssp_configured(a, 100000, options{}, cfg, &rep);
    CHECK(verify(g, 100000, want.distances, r).empty());
    CHECK(rep.overflow_retries >= 1);
  }

  TEST_CASE("rdbs: the watchdog ends a light phase with a message instead of hanging") {
    TROPIC_REQUIRE_GPU();
    const auto g = testing::path_graph<std::uint32_t>(100000, false);
    device_matrix<std::uint32_t> a(g);
    options o;
    o.delta = std::numeric_limits<double>::infinity();  // one light phase of 100k dependent steps
    rdbs_config cfg;
    cfg.watchdog_ms = 1e-3;
    try {
      detail::rdbs_sssp_configured(a, 0, o, cfg);
      FAIL("the device watchdog should have stopped the light phase");
    } catch (const error& e) {
      CHECK(e.code() == error_code::cuda);
      CHECK(std::string(e.what()).find("watchdog") != std::string::npos);
    }
    const auto r = detail::rdbs_sssp_configured(a, 0, o, rdbs_config{});  // usable afterwards
    CHECK(verify(g, 0, dijkstra(g, 0, false).distances, r).empty());
  }

  TEST_CASE("rdbs: few worker blocks, and the host entry point") {
    TROPIC_REQUIRE_GPU();
    const auto g = mixed_degree_graph<std::uint32_t>(8000, 31);
    device_matrix<std::uint32_t> a(g);
    const auto want = dijkstra(g, 5, false);
    for (unsigned workers : {1u, 2u, 7u}) {
      CAPTURE(workers);
      rdbs_config cfg;
      cfg.max_worker_blocks = workers;
      rdbs_report rep;
      const auto r = detail::rdbs_sssp_configured(a, 5, options{}, cfg, &rep);
      CHECK(verify(g, 5, want.distances, r).empty());
      CHECK(rep.worker_blocks == workers);
    }
    options o;
    o.algorithm = algorithm::rdbs;
    const auto r = sssp(g, 5, o);  // uploads, then dispatches
    CHECK(verify(g, 5, want.distances, r).empty());
    CHECK(r.stats.algorithm == "rdbs");
    bool listed = false;
    for (algorithm x : available_algorithms()) listed = listed || x == algorithm::rdbs;
    CHECK(listed);
    CHECK(parse_algorithm("rdbs") == algorithm::rdbs);
  }

  TEST_CASE("rdbs: small graph for the sanitizers") {
    TROPIC_REQUIRE_GPU();
    check_rdbs(testing::uniform_digraph<std::uint32_t>(2000, 4, 20, 41), 0);
    check_rdbs(mixed_degree_graph<float>(1500, 42), 3);
    check_rdbs(hub_graph<std::uint32_t>(9000, 2, 43), 9000);  // split rows: 3 block items
    rdbs_config cfg;
    cfg.list_capacity = 64;  // the overflow path, small
    cfg.reorder = false;
    check_rdbs(testing::uniform_digraph<std::uint32_t>(3000, 6, 10, 44), 1, options{}, cfg);
  }
}
