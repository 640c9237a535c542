// ADDS (algorithms/adds.cu) against the CPU Dijkstra: the random-graph suite, the shared real
// graphs, repeatability, degenerate shapes, and the failure paths (pool exhaustion, watchdogs).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "adds_queue.cuh"
#include "gpu_test.hpp"
#include "reference_graphs.hpp"
#include "test_helpers.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"

namespace {

using namespace tropic;
using tropic::detail::adds_config;
using tropic::detail::adds_report;
using tropic::detail::adds_trace_entry;
using tropic::detail::adds_tuning;

template <class W>
result<W> run_adds(const csr<W>& g, vertex source, options o = {}) {
  device_matrix<W> a(g);
  o.algorithm = algorithm::adds;
  return sssp(a, source, o);
}

template <class W>
void check_against_dijkstra(const csr<W>& g, vertex source, const options& o = {}) {
  const result<W> want = dijkstra(g, source, false);
  const result<W> got = run_adds(g, source, o);
  const std::string problems = verify(g, source, want.distances, got);
  CHECK_MESSAGE(problems.empty(), problems);
  CHECK(got.stats.algorithm == "adds");
}

// A hub (vertex 0) with arcs to every other vertex, and every leaf with an arc back, plus a ring
// through the leaves so that distances through the ring compete with the hub's direct arcs.
template <class W>
csr<W> star_graph(vertex leaves, std::uint64_t seed) {
  testing::test_rng rng(seed);
  arc_list<W> l;
  l.n = leaves + 1;
  for (vertex i = 1; i <= leaves; ++i) {
    l.push_back(0, i, W(1 + rng.below(1000)));
    l.push_back(i, 0, W(1 + rng.below(1000)));
    l.push_back(i, i % leaves + 1, W(rng.below(3)));
  }
  return build_csr(l);
}

template <class W>
void random_suite(std::size_t count, std::uint64_t base_seed) {
  testing::for_each_test_graph<W>(count, base_seed,
                                  [](const csr<W>& g, vertex s) { check_against_dijkstra(g, s); });
}

}  // namespace

TEST_SUITE("adds") {
  TEST_CASE("adds: the assignment word holds its fields at their limits") {
    // Host-side: the MTB packs an assignment into one 64-bit word (adds_queue.cuh), the WTB
    // unpacks it. Every field at zero, at its largest value and in between, in every
    // combination with the others at their extremes.
    namespace a = tropic::detail::adds;
    const unsigned buckets[] = {0u, 1u, 17u, unsigned(a::num_buckets - 1)};
    const unsigned counts[] = {0u, 1u, 1024u, a::af_count_limit - 1};
    const unsigned long long starts[] = {0ull, 1ull, 4096ull * 12345 + 77, a::af_start_limit - 1};
    for (unsigned state : {a::af_idle, a::af_assigned, a::af_exit})
      for (unsigned b : buckets)
        for (unsigned c : counts)
          for (unsigned long long st : starts) {
            const unsigned long long w = a::af_pack(state, b, c, st);
            CHECK(a::af_state_of(w) == state);
            CHECK(a::af_bucket_of(w) == b);
            CHECK(a::af_count_of(w) == c);
            CHECK(a::af_start_of(w) == st);
          }
    // The idle word is all zeros: the host's memset and the WTB's idle store agree with it.
    CHECK(a::af_pack(a::af_idle, 0, 0, 0) == 0ull);
    CHECK(a::af_idle == 0u);
  }

  TEST_CASE("adds: random graph suite, uint32 and float") {
    TROPIC_REQUIRE_GPU();
    random_suite<std::uint32_t>(48, 1);
    random_suite<float>(48, 1001);
  }

  TEST_CASE("adds: random graph suite, the other weight types") {
    TROPIC_REQUIRE_GPU();
    random_suite<std::int32_t>(16, 2001);
    random_suite<std::uint64_t>(16, 3001);
    random_suite<std::int64_t>(16, 4001);
    random_suite<double>(16, 5001);
  }

  TEST_CASE("adds: parents, fixed delta, infinite delta, static delta") {
    TROPIC_REQUIRE_GPU();
    const auto g = testing::uniform_digraph<std::uint32_t>(20000, 6, 1000, 7);
    options o;
    o.parents = true;
    check_against_dijkstra(g, 3, o);  // verify() checks every parent arc is tight
    o.parents = false;
    o.delta = 1;  // far too small: clipping, delta must grow
    check_against_dijkstra(g, 3, o);
    o.delta = std::numeric_limits<double>::infinity();  // one bucket: Bellman-Ford order
    check_against_dijkstra(g, 3, o);

    device_matrix<std::uint32_t> a(g);
    adds_config cfg;
    cfg.dynamic_delta = false;
    adds_report rep;
    const auto r = detail::adds_sssp_configured(a, 3, options{}, cfg, &rep);
    const auto want = dijkstra(g, 3, false);
    CHECK(verify(g, 3, want.distances, r).empty());
    CHECK(rep.delta_changes == 0);
    CHECK(rep.final_delta == rep.initial_delta);
  }

  TEST_CASE("adds: statistics") {
    TROPIC_REQUIRE_GPU();
    const auto g = testing::uniform_digraph<float>(50000, 8, 100, 11);
    device_matrix<float> a(g);
    adds_report rep;
    const auto r = detail::adds_sssp_configured(a, 0, options{}, adds_config{}, &rep);
    const auto want = dijkstra(g, 0, false);
    CHECK(verify(g, 0, want.distances, r).empty());
    std::uint64_t reached = 0;
    for (float d : want.distances) reached += d != infinity<float>();
    CHECK(r.stats.algorithm == "adds");
    CHECK(r.stats.vertices_relaxed >= reached);  // every reached vertex was scanned at least once
    CHECK(r.stats.arcs_relaxed >= r.stats.vertices_relaxed);  // out-degree 8, few duplicates
    CHECK(r.stats.milliseconds > 0);
    CHECK(r.stats.delta > 0);
    CHECK(rep.worker_blocks >= 1);
    CHECK(rep.status == 1);
    // Where the time went: the MTB's phase shares add up to the whole, the WTBs wait for some
    // share of their cycles (between none and all), a sweep takes time.
    double phases = 0;
    for (double x : rep.manager_phase_share) {
      CHECK(x >= 0);
      phases += x;
    }
    CHECK(phases == doctest::Approx(1.0));
    CHECK(rep.worker_wait_share >= 0);
    CHECK(rep.worker_wait_share <= 1);
    CHECK(rep.sweep_us > 0);
    MESSAGE("adds n=50000 deg 8: ", r.stats.milliseconds, " ms, ", r.stats.vertices_relaxed,
            " items (", double(r.stats.vertices_relaxed) / double(reached), " per reached vertex), ",
            rep.worker_blocks, " WTBs (", rep.blocks_per_sm, "/SM), delta ", rep.initial_delta,
            " -> ", rep.final_delta, " (", rep.delta_changes, " changes), ", rep.sweeps,
            " sweeps, max in flight ", rep.max_in_flight);
  }

  TEST_CASE("adds: the same graph and source 100 times give identical distances") {
    TROPIC_REQUIRE_GPU();
    const auto g = testing::uniform_digraph<float>(30000, 5, 1000, 23);
    device_matrix<float> a(g);
    options o;
    o.algorithm = algorithm::adds;
    const auto first = sssp(a, 17, o);
    const auto want = dijkstra(g, 17, false);
    REQUIRE(verify(g, 17, want.distances, first).empty());
    int different = 0;
    for (int i = 0; i < 100; ++i) different += sssp(a, 17, o).distances != first.distances;
    CHECK(different == 0);
  }

  TEST_CASE("adds: skewed graphs with hubs and zero weights, repeatedly") {
    // The WTB's load-balanced rounds (adds.cu, worker()): rows of every length in one scan, hub
    // rows (hub_row arcs or more) after the rest, zero weights for ties, and an infinite delta
    // (one bucket, the most concurrent lowering). Every run against Dijkstra, and repeated runs
    // must agree.
    TROPIC_REQUIRE_GPU();
    const auto g = generate_kronecker<std::uint32_t>(16, 16, 77, 0, 20);
    arc_index longest = 0;
    for (vertex u = 0; u < g.n; ++u)
      longest = std::max(longest, g.row_offsets[u + 1] - g.row_offsets[u]);
    REQUIRE(longest >= 2048);  // the graph has hub rows
    device_matrix<std::uint32_t> a(g);
    const vertex s = 0;
    const auto want = dijkstra(g, s, false);
    for (double delta : {0.0, 4.0, std::numeric_limits<double>::infinity()}) {
      CAPTURE(delta);
      options o;
      o.delta = delta;  // 0: the heuristic
      const auto first = detail::adds_sssp_configured(a, s, o, adds_config{});
      CHECK(verify(g, s, want.distances, first).empty());
      int different = 0;
      for (int i = 0; i < 20; ++i)
        different += detail::adds_sssp_configured(a, s, o, adds_config{}).distances !=
                     first.distances;
      CHECK(different == 0);
    }
    const auto gf = generate_kronecker<float>(14, 16, 78, 0.0f, 2.5f);
    const auto rf = run_adds(gf, 5);
    CHECK(verify(gf, 5, dijkstra(gf, 5, false).distances, rf).empty());
    const auto gd = generate_kronecker<double>(14, 16, 79, 0.0, 1e9);
    const auto rd = run_adds(gd, 5);
    CHECK(verify(gd, 5, dijkstra(gd, 5, false).distances, rd).empty());
    const auto gi = generate_kronecker<std::int64_t>(14, 16, 80, 0, 3);
    const auto ri = run_adds(gi, 5);
    CHECK(verify(gi, 5, dijkstra(gi, 5, false).distances, ri).empty());
  }

  TEST_CASE("adds: local rounds, repeatedly") {
    // A WTB's local rounds (adds.cu, local_rounds(); adds_tuning::local_rounds, local_passes):
    // thin wavefronts (a grid, a long path with side arcs: 4 lanes per row) where they run for
    // many rounds, a random graph of degree 6 (8 lanes per row) and a Kronecker graph (a warp
    // per row) where the width rule stops them, a width beyond the queue's capacity (rows
    // pushed because the queue is full), a delta far below the weights (rows lowered into
    // other buckets) and an infinite one (every lowered vertex stays in the bucket). Every
    // setting against Dijkstra; repeated runs agree.
    TROPIC_REQUIRE_GPU();
    const auto grid = generate_grid<std::uint32_t>(300, 300, 31);
    csr<std::uint32_t> path;
    {
      arc_list<std::uint32_t> l;
      l.n = 20000;
      for (vertex u = 0; u + 1 < 20000; ++u) {
        l.push_back(u, u + 1, 1 + u % 7);
        if (u % 5 == 0 && u + 40 < 20000) l.push_back(u, u + 40, 200);  // shortcuts, some tight
      }
      path = build_csr(l);
    }
    const auto uniform = generate_uniform<std::uint32_t>(30000, 6, 17, 1, 1000);
    const auto kron = generate_kronecker<std::uint32_t>(14, 16, 32, 1, 255);
    struct graph_case {
      const char* name;
      const csr<std::uint32_t>* g;
      vertex source;
    };
    struct round_limits {
      unsigned rounds, passes;
    };
    for (const graph_case& c : {graph_case{"grid 300^2", &grid, 4321},
                                graph_case{"path 20000 with shortcuts", &path, 0},
                                graph_case{"uniform 30000 degree 6", &uniform, 11},
                                graph_case{"kron 14", &kron, 3}}) {
      CAPTURE(c.name);
      const auto want = dijkstra(*c.g, c.source, false);
      device_matrix<std::uint32_t> a(*c.g);
      for (const round_limits& l : {round_limits{0, 4}, round_limits{1, 4}, round_limits{32, 1},
                                    round_limits{32, 4}, round_limits{1000, 64}}) {
        for (double delta : {0.0, 1.0, std::numeric_limits<double>::infinity()}) {
          CAPTURE(l.rounds);
          CAPTURE(l.passes);
          CAPTURE(delta);
          adds_config cfg;
          cfg.tuning.local_rounds = l.rounds;
          cfg.tuning.local_passes = l.passes;
          options o;
          o.delta = delta;  // 0: the heuristic
          const auto first = detail::adds_sssp_configured(a, c.source, o, cfg);
          CHECK(verify(*c.g, c.source, want.distances, first).empty());
          int different = 0;
          for (int i = 0; i < 5; ++i)
            different +=
                detail::adds_sssp_configured(a, c.source, o, cfg).distances != first.distances;
          CHECK(different == 0);
        }
      }
    }
  }

  TEST_CASE("adds: tiny and degenerate graphs") {
    TROPIC_REQUIRE_GPU();
    SUBCASE("one vertex") {
      csr<std::uint32_t> g;
      g.n = 1;
      g.row_offsets = {0, 0};
      const auto r = run_adds(g, 0);
      REQUIRE(r.distances.size() == 1);
      CHECK(r.distances[0] == 0);
    }
    SUBCASE("no arcs") {
      csr<float> g;
      g.n = 10;
      g.row_offsets.assign(11, 0);
      const auto r = run_adds(g, 4);
      for (vertex v = 0; v < 10; ++v) CHECK(r.distances[v] == (v == 4 ? 0.f : infinity<float>()));
    }
    SUBCASE("a path of 100k vertices") {
      check_against_dijkstra(testing::path_graph<std::uint32_t>(100000, false), 0);
      check_against_dijkstra(testing::path_graph<double>(100000, true), 50000);
    }
  }

  TEST_CASE("adds: huge-degree stars") {
    TROPIC_REQUIRE_GPU();
    check_against_dijkstra(star_graph<std::uint32_t>(1000000, 5), 0);  // from the hub
    check_against_dijkstra(star_graph<float>(300000, 6), 12345);       // from a leaf
  }

  TEST_CASE("adds: the shared real graphs") {
    TROPIC_REQUIRE_GPU();
    struct data_case {
      const char* file;
      bool unit;
      vertex source;
    };
    const data_case cases[] = {{"USA-road-d.NY.gr.gz", false, 0},
                               {"USA-road-d.NY.gr.gz", false, 100000},
                               {"soc-Slashdot0902.txt.gz", true, 0},
                               {"cnr-2000.el.gz", true, 217849},
                               {"mdual.mtx.gz", true, 0},
                               {"mdual.mtx.gz", false, 0}};
    // Each solve here takes milliseconds. The library's bounds (120 s on the device, then the
    // host flag at 130 s and giving up at 140 s) are sized for big graphs and exceed what a
    // ctest case of six solves can spend: a hang must fail this case quickly and name itself,
    // not run into the ctest timeout with nothing in the log. So: 20 s on the device (stall
    // bound 2 s, the default), the host flag at 25 s, giving up at 35 s.
    adds_config bounded;
    bounded.watchdog_ms = 20000;
    bounded.host_timeout_ms = 25000;
    auto announce = [](const char* file, vertex source, const char* what) {
      // stderr, unbuffered: a ctest timeout keeps it, whereas doctest's MESSAGE lines in a
      // buffered stdout are lost when the process is killed.
      std::fprintf(stderr, "adds real graphs: %s source %u %s: solving\n", file, source, what);
      std::fflush(stderr);
    };
    for (const auto& c : cases) {
      const std::string path = testing::find_data(c.file);
      if (path.empty()) {
        const std::string why = std::string("skipping ") + c.file +
                                ": not in TROPIC_SHARED_DATA or TROPIC_LOCAL_DATA";
        MESSAGE(why);
        continue;
      }
      CAPTURE(c.file);
      CAPTURE(c.source);
      read_options ro;
      ro.unit_weights = c.unit;
      const auto g = read_graph<std::uint32_t>(path, ro);
      const auto want = dijkstra(g, c.source, false);
      device_matrix<std::uint32_t> a(g);
      adds_report rep;
      announce(c.file, c.source, c.unit ? "unit uint32" : "weighted uint32");
      const auto got = detail::adds_sssp_configured(a, c.source, options{}, bounded, &rep);
      CHECK_MESSAGE(verify(g, c.source, want.distances, got).empty(),
                    verify(g, c.source, want.distances, got));
      std::uint64_t reached = 0;
      for (auto d : want.distances) reached += d != infinity<std::uint32_t>();
      MESSAGE(std::string(c.file), " source ", c.source, std::string(c.unit ? " unit" : " weighted"), ": ",
              got.stats.milliseconds, " ms, work ",
              double(got.stats.vertices_relaxed) / double(reached), " items per reached vertex, delta ",
              rep.initial_delta, " -> ", rep.final_delta, " (", rep.delta_changes,
              " changes), ", got.stats.buckets, " head switches");
      if (std::string(c.file) == "USA-road-d.NY.gr.gz") {  // and once in float
        const auto gf = read_graph<float>(path, ro);
        const auto wf = dijkstra(gf, c.source, false);
        device_matrix<float> af(gf);
        announce(c.file, c.source, "weighted float");
        const auto rf = detail::adds_sssp_configured(af, c.source, options{}, bounded);
        CHECK(verify(gf, c.source, wf.distances, rf).empty());
      }
    }
  }

  TEST_CASE("adds: pool exhaustion retries or fails with a message") {
    TROPIC_REQUIRE_GPU();
    const auto g = star_graph<std::uint32_t>(200000, 9);
    device_matrix<std::uint32_t> a(g);
    const auto want = dijkstra(g, 0, false);
    adds_config cfg;
    cfg.pool_blocks = 33;  // one block per bucket and one spare: the hub's burst cannot fit
    cfg.stall_ms = 200;
    cfg.pool_retries = 0;
    try {
      detail::adds_sssp_configured(a, 0, options{}, cfg);
      FAIL("a 33-block pool cannot hold the hub's 200000 pushes");
    } catch (const error& e) {
      CHECK(e.code() == error_code::out_of_memory);
      CHECK(std::string(e.what()).find("pool") != std::string::npos);
    }
    cfg.pool_retries = 3;
    adds_report rep;
    const auto r = detail::adds_sssp_configured(a, 0, options{}, cfg, &rep);
    CHECK(verify(g, 0, want.distances, r).empty());
    CHECK(rep.pool_retries_used >= 1);
    CHECK(rep.pool_blocks > 33);
  }

  TEST_CASE("adds: watchdogs end a run with a message instead of hanging") {
    TROPIC_REQUIRE_GPU();
    const auto g = testing::path_graph<std::uint32_t>(100000, false);  // ~100k dependent steps
    device_matrix<std::uint32_t> a(g);
    adds_config cfg;
    cfg.watchdog_ms = 1e-3;  // the device bound trips on the first sweeps
    try {
      detail::adds_sssp_configured(a, 0, options{}, cfg);
      FAIL("the device watchdog should have stopped the run");
    } catch (const error& e) {
      CHECK(e.code() == error_code::cuda);
      CHECK(std::string(e.what()).find("watchdog") != std::string::npos);
    }
    cfg = adds_config{};
    cfg.host_timeout_ms = 1e-3;  // the host raises the pinned flag at once
    try {
      detail::adds_sssp_configured(a, 0, options{}, cfg);
      FAIL("the host timeout should have stopped the run");
    } catch (const error& e) {
      CHECK(e.code() == error_code::cuda);
      CHECK(std::string(e.what()).find("host timeout") != std::string::npos);
    }
    // The device is usable afterwards.
    const auto r = detail::adds_sssp_configured(a, 0, options{}, adds_config{});
    CHECK(verify(g, 0, dijkstra(g, 0, false).distances, r).empty());
  }

  TEST_CASE("adds: few worker blocks, and the host entry point") {
    TROPIC_REQUIRE_GPU();
    const auto g = testing::uniform_digraph<std::uint32_t>(20000, 4, 50, 31);
    device_matrix<std::uint32_t> a(g);
    const auto want = dijkstra(g, 5, false);
    for (unsigned workers : {1u, 2u, 7u}) {
      CAPTURE(workers);
      adds_config cfg;
      cfg.max_worker_blocks = workers;
      adds_report rep;
      const auto r = detail::adds_sssp_configured(a, 5, options{}, cfg, &rep);
      CHECK(verify(g, 5, want.distances, r).empty());
      CHECK(rep.worker_blocks == workers);
    }
    options o;
    o.algorithm = algorithm::adds;
    const auto r = sssp(g, 5, o);  // uploads, then dispatches
    CHECK(verify(g, 5, want.distances, r).empty());

    // Graphs of long rows (mean degree >= adds_config::wide_row_degree) get
    // wide_row_workers_per_sm WTBs per SM, others every block that fits.
    int device = 0, sms = 0;
    REQUIRE(cudaGetDevice(&device) == cudaSuccess);
    REQUIRE(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess);
    const auto kron = generate_kronecker<std::uint32_t>(12, 16, 5, 1, 255);
    device_matrix<std::uint32_t> ak(kron);
    REQUIRE(ak.stats().avg_degree >= adds_config{}.wide_row_degree);
    REQUIRE(a.stats().avg_degree < adds_config{}.wide_row_degree);
    const auto want_kron = dijkstra(kron, 3, false);
    for (unsigned per_sm : {0u, 1u, 2u}) {
      CAPTURE(per_sm);
      adds_config cfg;
      cfg.wide_row_workers_per_sm = per_sm;
      adds_report rk, rg;
      CHECK(verify(kron, 3, want_kron.distances,
                   detail::adds_sssp_configured(ak, 3, options{}, cfg, &rk)).empty());
      CHECK(verify(g, 5, want.distances, detail::adds_sssp_configured(a, 5, options{}, cfg, &rg))
                .empty());
      const unsigned fit = rk.blocks_per_sm * unsigned(sms) - 1;
      CHECK(rk.worker_blocks == (per_sm == 0 ? fit : std::min(fit, per_sm * unsigned(sms))));
      CHECK(rg.worker_blocks == fit);
    }
  }

  TEST_CASE("adds: the delta trace") {
    TROPIC_REQUIRE_GPU();
    // A grid: many head switches, so many delta decisions, and a small ring that must wrap.
    const auto g = generate_grid<std::uint32_t>(300, 300, 5);
    const auto want = dijkstra(g, 0, false);
    device_matrix<std::uint32_t> a(g);

    adds_report off;
    const auto r0 = detail::adds_sssp_configured(a, 0, options{}, adds_config{}, &off);
    CHECK(verify(g, 0, want.distances, r0).empty());
    CHECK(off.trace.empty());  // off unless asked for (or verbose)
    CHECK(off.trace_dropped == 0);

    for (unsigned cap : {4096u, 3u}) {
      CAPTURE(cap);
      adds_config cfg;
      cfg.trace_capacity = cap;
      adds_report rep;
      const auto r = detail::adds_sssp_configured(a, 0, options{}, cfg, &rep);
      CHECK(verify(g, 0, want.distances, r).empty());
      REQUIRE(!rep.trace.empty());
      CHECK(rep.trace.size() <= cap);
      // One entry at the start, one per delta decision (each after settle_switches head
      // switches or more), one at the end.
      const std::uint64_t total = rep.trace.size() + rep.trace_dropped;
      CHECK(total >= 2);
      CHECK(total <= 2 + rep.retires / adds_tuning{}.settle_switches);
      if (cap == 3) CHECK(rep.trace.size() == std::min<std::uint64_t>(3, total));
      if (rep.trace_dropped == 0) {
        CHECK(rep.trace.front().sweep == 0);
        CHECK(rep.trace.front().delta == rep.initial_delta);
      }
      const adds_trace_entry& last = rep.trace.back();
      CHECK(last.decision == adds_trace_entry::end);
      CHECK(last.delta == rep.final_delta);
      CHECK(last.sweep == rep.sweeps);
      CHECK(last.retires == rep.retires);
      CHECK(last.queued == 0);
      std::uint64_t changes = 0;
      for (std::size_t i = 0; i < rep.trace.size(); ++i) {
        const adds_trace_entry& e = rep.trace[i];
        CHECK(e.delta > 0);
        CHECK(e.open >= 1);
        CHECK(e.open <= adds_tuning{}.max_open_buckets);
        CHECK(e.avg_util >= 0);
        CHECK(e.held_back_share >= 0);
        CHECK(e.held_back_share <= 1);
        CHECK(e.clip_share >= 0);
        CHECK(e.clip_share <= 1);
        if (i > 0) {
          const adds_trace_entry& p = rep.trace[i - 1];
          CHECK(e.sweep >= p.sweep);
          CHECK(e.retires >= p.retires);
          CHECK(e.completed >= p.completed);
          CHECK(e.ms >= p.ms);
          CHECK(e.head_base >= p.head_base);
          if (e.decision == adds_trace_entry::raise || e.decision == adds_trace_entry::clip_raise)
            CHECK(e.delta == 2 * p.delta);
          if (e.decision == adds_trace_entry::lower) CHECK(e.delta < p.delta);
          if (e.decision == adds_trace_entry::keep) CHECK(e.delta == p.delta);
        }
        changes += e.decision == adds_trace_entry::raise ||
                   e.decision == adds_trace_entry::clip_raise ||
                   e.decision == adds_trace_entry::lower;
      }
      if (rep.trace_dropped == 0) CHECK(changes == rep.delta_changes);
    }
  }

  TEST_CASE("adds: tuning knobs") {
    TROPIC_REQUIRE_GPU();
    const auto g = generate_grid<std::uint32_t>(200, 200, 9);
    const auto want = dijkstra(g, 7, false);
    device_matrix<std::uint32_t> a(g);
    const double auto_delta = choose_delta(a.stats());

    struct variant {
      const char* name;
      adds_tuning t;
    };
    std::vector<variant> variants;
    variants.push_back({"defaults", adds_tuning{}});
    adds_tuning literal;
    literal.raise_only_when_held_back = false;
    variants.push_back({"literal utilisation rule", literal});
    adds_tuning narrow;
    narrow.initial_delta_factor = 0.125;
    narrow.max_open_buckets = 1;  // only the head bucket: order first, parallelism from delta
    variants.push_back({"delta/8, one open bucket", narrow});
    adds_tuning wide;
    wide.initial_delta_factor = 16;
    wide.max_open_buckets = 32;
    wide.min_chunk = wide.max_chunk = 256;
    wide.settle_switches = 1;
    variants.push_back({"delta x16, 32 open, fixed chunks, settle 1", wide});
    for (const auto& v : variants) {
      CAPTURE(v.name);
      adds_config cfg;
      cfg.tuning = v.t;
      adds_report rep;
      const auto r = detail::adds_sssp_configured(a, 7, options{}, cfg, &rep);
      CHECK(verify(g, 7, want.distances, r).empty());
      CHECK(rep.initial_delta == doctest::Approx(auto_delta * v.t.initial_delta_factor));
      CHECK(rep.min_delta >= rep.initial_delta * v.t.delta_floor_ratio * (1 - 1e-12));
    }

    adds_config bad;
    bad.tuning.max_open_buckets = 33;
    CHECK_THROWS_AS(detail::adds_sssp_configured(a, 7, options{}, bad), error);
    bad = adds_config{};
    bad.tuning.util_low = 3;  // above util_high
    CHECK_THROWS_AS(detail::adds_sssp_configured(a, 7, options{}, bad), error);
    bad = adds_config{};
    bad.tuning.min_chunk = 0;
    CHECK_THROWS_AS(detail::adds_sssp_configured(a, 7, options{}, bad), error);
    bad = adds_config{};
    bad.tuning.max_chunk = 1u << 17;  // more than the assignment word's count field holds
    CHECK_THROWS_AS(detail::adds_sssp_configured(a, 7, options{}, bad), error);
    bad = adds_config{};
    bad.tuning.local_passes = 0;
    CHECK_THROWS_AS(detail::adds_sssp_configured(a, 7, options{}, bad), error);
    bad = adds_config{};
    bad.tuning.local_rounds = 65537;
    CHECK_THROWS_AS(detail::adds_sssp_configured(a, 7, options{}, bad), error);
  }

  TEST_CASE("adds: small graph for the sanitizers") {
    TROPIC_REQUIRE_GPU();
    check_against_dijkstra(testing::uniform_digraph<std::uint32_t>(2000, 4, 20, 41), 0);
    check_against_dijkstra(star_graph<float>(5000, 42), 0);
  }
}
