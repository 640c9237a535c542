// Delta-stepping over several GPUs (tropic/distributed.hpp): on every GPU of the machine, and on
// one part where only one exists, the answers are one GPU's delta-stepping's (distances equal,
// checked against Dijkstra; parents equal on positive integer weights, certified otherwise), for
// every weight type, from a split host CSR and from blocks generated part by part; bad device
// lists and arguments are refused with a clear error. The rank meetings: test_distributed_ranks.cpp.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <thread>
#include <string>
#include <vector>

#include "gpu_test.hpp"
#include "random_graphs.hpp"
#include "tropic/detail/backends.hpp"
#include "tropic/distributed.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;

namespace {

int gpu_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

// Every device of the machine (at most 4): the parts of the cases below.
std::vector<int> all_devices() {
  std::vector<int> d;
  for (int i = 0; i < gpu_count() && i < 4; ++i) d.push_back(i);
  return d;
}

template <class W>
void check_same_as_one_gpu(const csr<W>& g, vertex s, const result<W>& got) {
  options one;
  one.algorithm = algorithm::delta_stepping;
  one.parents = true;
  const result<W> want = sssp(g, s, one);
  CHECK(verify(g, s, dijkstra(g, s, false).distances, got) == "");
  CHECK(got.distances == want.distances);
  CHECK(certify(g, s, got) == "");
  if (std::is_integral_v<W> && (g.arcs() == 0 || compute_stats(g).min_weight > 0))
    CHECK(got.parents == want.parents);
}

template <class W>
void check_on(const std::vector<int>& devices, std::uint64_t seed,
              loop_control loop = loop_control::automatic) {
  int solved = 0;
  for (const auto& c : testing::test_graph_cases(24, seed)) {
    CAPTURE(c.name());
    const csr<W> g = c.graph<W>();
    if (g.n == 0) continue;
    const distributed_matrix<W> a(g, devices);
    REQUIRE(a.parts() == devices.size());
    for (vertex s : {c.source(g.n), vertex(0), vertex(g.n - 1)}) {
      CAPTURE(s);
      options o;
      o.parents = true;
      o.loop = loop;
      const result<W> r = sssp(a, s, o);
      check_same_as_one_gpu(g, s, r);
      CHECK(certify(a, s, r) == "");
      // host: every light step an exchange; device: every bucket's light loop in rounds
      if (loop == loop_control::host) CHECK(r.stats.device_loop_buckets == 0);
      if (loop == loop_control::device) CHECK(r.stats.device_loop_buckets == r.stats.buckets);
      ++solved;
    }
  }
  CHECK(solved > 50);
}

}  // namespace

#define TROPIC_REQUIRE_GPUS()                                                          \
  do {                                                                                 \
    TROPIC_REQUIRE_GPU();                                                              \
    if (gpu_count() < 2 || !multi_gpu_available()) {                                   \
      MESSAGE("skipped: fewer than two CUDA devices, or no NCCL in this build "       \
              "(multi-GPU test)");                                                     \
      return;                                                                          \
    }                                                                                  \
  } while (0)

TEST_SUITE("distributed") {
  TEST_CASE_TEMPLATE("one part: one GPU's answers on random graphs", W, std::uint32_t,
                     std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    check_on<W>({0}, 7100);
  }

  TEST_CASE_TEMPLATE("every GPU of the machine: one GPU's answers on random graphs", W,
                     std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPUS();
    check_on<W>(all_devices(), 7200);
  }

  TEST_CASE_TEMPLATE("every GPU of the machine: steps and closure rounds as options::loop asks",
                     W, std::uint32_t, float) {
    TROPIC_REQUIRE_GPUS();
    check_on<W>(all_devices(), 7300, loop_control::host);
    check_on<W>(all_devices(), 7400, loop_control::device);
  }

  TEST_CASE("several GPUs: closure rounds on a grid's thin borders, steps first on a random graph") {
    TROPIC_REQUIRE_GPUS();
    for (const char* spec : {"grid:128:128", "uniform:4096:5"}) {
      CAPTURE(spec);
      const csr<std::uint32_t> g = generate<std::uint32_t>(spec, 11);
      const distributed_matrix<std::uint32_t> a(g, all_devices());
      options o;
      o.parents = true;
      const result<std::uint32_t> r = sssp(a, 5, o);
      check_same_as_one_gpu(g, 5, r);
      // rounds from the start run at twice the steps' automatic Δ
      o.loop = loop_control::host;
      const double steps_delta = sssp(a, 5, o).stats.delta;
      o.loop = loop_control::device;
      const double rounds_delta = sssp(a, 5, o).stats.delta;
      CHECK(rounds_delta > steps_delta);
      if (spec[0] == 'g') {
        CHECK(r.stats.delta == rounds_delta);
        CHECK(r.stats.device_loop_buckets == r.stats.buckets);
      } else {  // thick borders: steps, handing over to rounds once they are small
        CHECK(r.stats.delta == steps_delta);
      }
    }
  }

  TEST_CASE("several GPUs: options::devices, a cutoff, Δ given, tiny graphs with empty parts") {
    TROPIC_REQUIRE_GPUS();
    const csr<std::uint32_t> g = generate<std::uint32_t>("grid:40:50", 3);
    options o;
    o.devices = all_devices();
    o.parents = true;
    const result<std::uint32_t> r = sssp(g, 17, o);
    check_same_as_one_gpu(g, 17, r);
    CHECK(r.stats.algorithm == "delta_stepping");
    CHECK(r.stats.setup_milliseconds > 0);

    o.cutoff = 3000;
    options one;
    one.cutoff = 3000;
    one.algorithm = algorithm::dijkstra;
    CHECK(sssp(g, 17, o).distances == sssp(g, 17, one).distances);

    o.cutoff = std::numeric_limits<double>::infinity();
    o.delta = 1;  // many buckets
    check_same_as_one_gpu(g, 17, sssp(g, 17, o));
    o.delta = std::numeric_limits<double>::infinity();  // one bucket: Bellman-Ford's rounds
    check_same_as_one_gpu(g, 17, sssp(g, 17, o));

    // Fewer vertices than parts: some parts hold no rows.
    arc_list<float> single;
    single.n = 1;
    const csr<float> tiny = build_csr(single);
    o.delta = 0;
    const result<float> one_vertex = sssp(tiny, 0, o);
    CHECK(one_vertex.distances == std::vector<float>{0.0f});
    arc_list<float> pair;
    pair.n = 2;
    pair.push_back(0, 1, 2.5f);
    CHECK(sssp(build_csr(pair), 0, o).distances == std::vector<float>{0.0f, 2.5f});
  }

  TEST_CASE("several GPUs: parts generated block by block equal the split host graph") {
    TROPIC_REQUIRE_GPUS();
    const std::vector<int> devices = all_devices();
    for (const std::string spec : {"kron:12:8", "grid:61:47", "uniform:3000:5"}) {
      CAPTURE(spec);
      const csr<std::uint32_t> g = generate<std::uint32_t>(spec, 11);
      const distributed_matrix<std::uint32_t> whole(g, devices);
      const bool symmetric = spec.rfind("uniform", 0) != 0;
      CHECK(compute_stats(g).symmetric == symmetric);
      const distributed_matrix<std::uint32_t> generated(
          graph_spec_vertices(spec), devices,
          [&](row_range rows) { return generate_rows<std::uint32_t>(spec, 11, rows); },
          symmetric);
      CHECK(generated.arcs() == g.arcs());
      CHECK(generated.stats().symmetric == whole.stats().symmetric);
      CHECK(generated.stats().max_degree == compute_stats(g).max_degree);
      CHECK(generated.stats().isolated == compute_stats(g).isolated);
      options o;
      o.parents = true;
      const result<std::uint32_t> r = sssp(generated, 5, o);
      check_same_as_one_gpu(g, 5, r);
      CHECK(r.distances == sssp(whole, 5, o).distances);
    }
  }

  TEST_CASE("many sources and origin-destination over the parts: one GPU's rows") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = generate<std::uint32_t>("kron:10:8", 5);
    const std::vector<vertex> sources{4, 900, 4, 17};
    options one;
    one.algorithm = algorithm::delta_stepping;
    one.parents = true;
    const multi_result<std::uint32_t> want = sssp(g, sources, one);
    // One part (the machine's first GPU): the rows the several-GPU entry points assemble.
    options o;
    o.devices = {0};
    o.parents = true;
    multi_result<std::uint32_t> got;
    got.n = g.n;
    got.distances.assign(sources.size() * g.n, 0);
    got.parents.assign(sources.size() * g.n, 0);
    detail::distributed_rows(g, sources, o, got);
    CHECK(got.distances == want.distances);
    CHECK(got.parents == want.parents);
    {
      // A resident matrix (from a host view, as Python's borrowed arrays) solved many times: the
      // rows returned and the rows written into the caller's memory.
      const distributed_matrix<std::uint32_t> a(host_view(g), o.devices);
      const multi_result<std::uint32_t> rows = sssp(a, sources, o);
      CHECK(rows.n == g.n);
      CHECK(rows.sources == sources);
      CHECK(rows.distances == want.distances);
      CHECK(rows.parents == want.parents);
      std::vector<std::uint32_t> d(sources.size() * g.n, 7);
      std::vector<std::int64_t> p(sources.size() * g.n, 7);
      const statistics st = sssp_into(a, sources, o, d.data(), p.data());
      CHECK(d == want.distances);
      CHECK(p == want.parents);
      CHECK(st.milliseconds > 0);
      CHECK_THROWS_WITH_AS(sssp_into(a, sources, o, d.data(), nullptr),
                           doctest::Contains("no memory given"), error);
      CHECK_THROWS_WITH_AS(sssp(a, std::vector<vertex>{1, g.n}, o),
                           doctest::Contains("out of range"), error);
      CHECK(sssp(a, std::vector<vertex>{}, o).distances.empty());
    }
    {
      const std::vector<vertex> destinations{0, 4, 1023, 17, 4};
      options plain;
      plain.algorithm = algorithm::dijkstra;
      CHECK(detail::distributed_od(g, sources, destinations, o) ==
            sssp_od(g, sources, destinations, plain));
      CHECK(sssp_od(g, sources, destinations, o) == sssp_od(g, sources, destinations, plain));
    }
    if (gpu_count() < 2 || !multi_gpu_available()) return;  // the rest needs two GPUs
    o.devices = all_devices();
    const multi_result<std::uint32_t> many = sssp(g, sources, o);
    CHECK(many.distances == want.distances);
    CHECK(many.parents == want.parents);
    const std::vector<vertex> destinations{0, 4, 1023, 17};
    options plain;
    plain.algorithm = algorithm::dijkstra;
    CHECK(sssp_od(g, sources, destinations, o) == sssp_od(g, sources, destinations, plain));
  }

  TEST_CASE("a profiled solve: the same answer, and an account that adds up") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = generate<std::uint32_t>("kron:11:8", 3);
    const std::vector<int> devices = multi_gpu_available() ? all_devices() : std::vector<int>{0};
    const distributed_matrix<std::uint32_t> a(g, devices);
    const vertex s = testing::test_graph_cases(1, 3).front().source(g.n);
    distributed_profile p;
    p.steps = 99;  // the solve starts the account afresh
    const result<std::uint32_t> r = sssp(a, s, {}, &p);
    CHECK(r.distances == sssp(a, s, {}).distances);
    CHECK(p.solve_ms > 0);
    CHECK(p.solve_ms <= r.stats.milliseconds);  // rank 0's; the statistics take the slowest rank's
    CHECK(p.wait_ms + p.meet_ms <= p.solve_ms);
    CHECK(p.relax_ms > 0);
    CHECK(p.select_ms > 0);
    CHECK(p.relax_ms + p.exchange_ms + p.select_ms <= p.solve_ms);
    CHECK(p.waits > 0);
    CHECK(p.meetings > 0);
    CHECK(p.steps >= r.stats.iterations);
    CHECK(p.steps < r.stats.iterations + 2 * r.stats.buckets + 2);
    CHECK(p.pulls <= p.steps);
    // The step log: every step once, every rank's numbers, rank 0's relax times within its
    // phase; a pull routes nothing, and on one part no step does.
    REQUIRE(p.step_log.size() == p.steps);
    std::uint64_t pulls = 0;
    double rank0_relax = 0;
    for (const distributed_profile::step& st : p.step_log) {
      REQUIRE(st.relax_ms.size() == a.parts());
      REQUIRE(st.improved.size() == a.parts());
      REQUIRE(st.exchange_ms.size() == a.parts());
      REQUIRE(st.gather_ms.size() == a.parts());
      REQUIRE(st.route_ms.size() == a.parts());
      REQUIRE(st.send_ms.size() == a.parts());
      REQUIRE(st.apply_ms.size() == a.parts());
      pulls += st.pull;
      rank0_relax += st.relax_ms[0];
      for (std::size_t rank = 0; rank < a.parts(); ++rank) {
        CHECK(st.relax_ms[rank] >= 0);
        CHECK(st.improved[rank] <= g.n);
        if (st.pull || a.parts() == 1) {
          CHECK(st.exchange_ms[rank] == 0);
          CHECK(st.route_ms[rank] + st.send_ms[rank] + st.apply_ms[rank] == 0);
        }
        CHECK(st.route_ms[rank] + st.send_ms[rank] + st.apply_ms[rank] <=
              st.exchange_ms[rank] * (1 + 1e-6) + 1e-3);
        if (!st.pull) CHECK(st.gather_ms[rank] == 0);
        CHECK(st.gather_ms[rank] <= st.relax_ms[rank] * (1 + 1e-6) + 1e-3);
      }
    }
    CHECK(pulls == p.pulls);
    CHECK(rank0_relax <= p.relax_ms * (1 + 1e-9));
    if (a.parts() == 1) {
      CHECK(p.exchange_ms == 0);
      CHECK(p.transfers == 0);
      CHECK(p.gathered == 0);
    } else {
      CHECK(p.transfers > 0);
      CHECK(p.nccl_ms > 0);
    }
  }

  TEST_CASE("parts generated on their devices: the generated graph's answers, certified") {
    TROPIC_REQUIRE_GPU();
    for (const char* spec : {"kron:12:16", "grid:60:70"}) {
      CAPTURE(std::string(spec));
      const csr<std::uint32_t> g = generate<std::uint32_t>(spec, 3);
      std::vector<std::vector<int>> sets{{0}};
      if (gpu_count() >= 2 && multi_gpu_available()) sets.push_back(all_devices());
      for (const std::vector<int>& devices : sets) {
        const distributed_matrix<std::uint32_t> a(spec, 3, devices);
        CHECK(a.arcs() == g.arcs());
        CHECK(a.stats().symmetric);
        for (vertex s : {vertex(0), vertex(g.n / 3), vertex(g.n - 1)}) {
          options o;
          o.parents = true;
          const result<std::uint32_t> r = sssp(a, s, o);
          check_same_as_one_gpu(g, s, r);
          CHECK(certify(a, s, r) == "");
        }
      }
    }
  }

  TEST_CASE("the certificate over the parts: certify's verdict, part by part") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = generate<std::uint32_t>("kron:11:8", 9);
    vertex s = 0;  // the hub: a Kronecker graph leaves many vertices isolated
    for (vertex u = 0; u < g.n; ++u)
      if (g.degree(u) > g.degree(s)) s = u;
    for (const std::vector<int>& devices : {std::vector<int>{0}, all_devices()}) {
      if (devices.size() > 1 && !multi_gpu_available()) continue;
      const distributed_matrix<std::uint32_t> a(g, devices);
      options o;
      o.parents = true;
      result<std::uint32_t> r = sssp(a, s, o);
      CHECK(certify(a, s, r) == "");
      // A distance too small, one too large, a parent that is not tight: the same first
      // violation as certify() over the whole graph.
      for (int damage = 0; damage < 3; ++damage) {
        result<std::uint32_t> bad = r;
        vertex v = 0;
        while (v < g.n && (v == s || bad.distances[v] == infinity<std::uint32_t>())) ++v;
        REQUIRE(v < g.n);
        if (damage == 0) bad.distances[v] -= 1;
        if (damage == 1) bad.distances[v] += 1;
        if (damage == 2) bad.parents[v] = v;  // no self-loop: never tight
        const std::string got = certify(a, s, bad);
        CHECK(got != "");
        CHECK(got == certify(g, s, bad));
      }
    }
  }

  TEST_CASE("solves from several threads on one matrix, and the caller's device kept") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = generate<std::uint32_t>("grid:30:40", 4);
    const std::vector<int> devices = multi_gpu_available() ? all_devices() : std::vector<int>{0};
    const distributed_matrix<std::uint32_t> a(g, devices);
    const int last = devices.back();
    REQUIRE(cudaSetDevice(last) == cudaSuccess);
    std::vector<std::vector<std::uint32_t>> got(4);
    std::vector<std::thread> threads;
    for (std::size_t k = 0; k < got.size(); ++k)
      threads.emplace_back([&, k] { got[k] = sssp(a, vertex(k * 100), {}).distances; });
    for (std::thread& t : threads) t.join();
    for (std::size_t k = 0; k < got.size(); ++k)
      CHECK(got[k] == dijkstra(g, vertex(k * 100), false).distances);
    // Rank 0 runs on this thread, on devices[0]: the solve hands the thread back as it was.
    const result<std::uint32_t> r = sssp(a, 7, {});
    CHECK(r.distances == dijkstra(g, 7, false).distances);
    int now = -1;
    REQUIRE(cudaGetDevice(&now) == cudaSuccess);
    CHECK(now == last);
    CHECK(certify(a, 7, r) == "");  // positive weights: distances alone are certified
    REQUIRE(cudaSetDevice(0) == cudaSuccess);
  }

  TEST_CASE("bad device lists and arguments are refused, naming the problem") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = generate<std::uint32_t>("grid:8:8", 1);
    auto code_of = [&](const std::vector<int>& devices) {
      try {
        distributed_matrix<std::uint32_t> a(g, devices);
      } catch (const error& e) {
        MESSAGE(std::string(e.what()));
        return e.code();
      }
      return error_code::graphblas;  // no error: not a code these cases expect
    };
    CHECK(code_of({}) == error_code::invalid_value);
    CHECK(code_of({gpu_count()}) == error_code::invalid_value);
    CHECK(code_of({-1}) == error_code::invalid_value);
    CHECK(code_of({0, 0}) == error_code::invalid_value);

    const distributed_matrix<std::uint32_t> a(g, {0});
    CHECK_THROWS_AS(sssp(a, 64, {}), error);
    options o;
    o.algorithm = algorithm::adds;
    CHECK_THROWS_WITH(sssp(a, 0, o), doctest::Contains("only delta_stepping"));
    o = {};
    o.delta = -1;
    CHECK_THROWS_AS(sssp(a, 0, o), error);

    options several;
    several.devices = {0, 0};
    CHECK_THROWS_WITH(sssp(g, 0, several), doctest::Contains("listed twice"));
    several.algorithm = algorithm::near_far;
    CHECK_THROWS_WITH(sssp(g, 0, several), doctest::Contains("only delta_stepping"));

    arc_list<std::int32_t> negative;
    negative.n = 3;
    negative.push_back(0, 1, 4);
    negative.push_back(1, 2, -1);
    const distributed_matrix<std::int32_t> n(build_csr(negative), {0});
    CHECK_THROWS_WITH(sssp(n, 0, {}), doctest::Contains("non-negative"));
  }
}
