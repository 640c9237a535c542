// The paper baselines on the GPU -- Near-Far and Workfront Sweep (Davidson et al., IPDPS'14) and
// DA2CF (Martin et al., ICCS'09) -- against the CPU Dijkstra. The operators they added (select
// over a listed pattern, append, reduce over a sparse vector): test_operator_spec.cu.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_test.hpp"
#include "random_graphs.hpp"
#include "reference_graphs.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/io.hpp"
#include "tropic/operators.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;

namespace {

constexpr algorithm baselines[] = {algorithm::near_far, algorithm::workfront, algorithm::da2cf};

template <class W>
result<W> run(const device_matrix<W>& a, vertex source, algorithm algo, double delta = 0) {
  options o;
  o.algorithm = algo;
  o.delta = delta;
  o.parents = true;
  return sssp(a, source, o);
}

template <class W>
vertex reached(const std::vector<W>& d) {
  return vertex(std::count_if(d.begin(), d.end(), [](W x) { return x != infinity<W>(); }));
}

// Statistics every baseline must get right whatever the graph: its name, and at least every
// reached vertex relaxed once (each is relaxed with its final distance).
template <class W>
void check_statistics(const result<W>& got, algorithm algo) {
  CHECK(got.stats.algorithm == algorithm_name(algo));
  CHECK(got.stats.vertices_relaxed >= reached(got.distances));
  CHECK(got.stats.iterations >= 1);
  CHECK(got.stats.buckets >= 1);
}

// DA2CF's compound frontiers partition the reached vertices, one frontier per distinct distance.
template <class W>
void check_da2cf_frontiers(const result<W>& got) {
  std::set<W> distinct;
  for (W x : got.distances)
    if (x != infinity<W>()) distinct.insert(x);
  CHECK(got.stats.vertices_relaxed == reached(got.distances));
  CHECK(got.stats.buckets == distinct.size());
}

template <class W>
void check_all(const csr<W>& g, vertex source, const device_matrix<W>& a) {
  const result<W> want = dijkstra(g, source, false);
  const double max_w = g.arcs() ? a.stats().max_weight : 1;
  std::vector<double> deltas = {0.0, 1.0, 2 * max_w + 1};
  if (std::is_floating_point_v<W>) deltas.push_back(0.37);
  for (double delta : deltas) {
    CAPTURE(delta);
    const auto got = run(a, source, algorithm::near_far, delta);
    CHECK(verify(g, source, want.distances, got) == "");
    check_statistics(got, algorithm::near_far);
  }
  for (load_balance lb :
       {load_balance::automatic, load_balance::merge_path, load_balance::warp_per_row}) {
    CAPTURE(int(lb));
    options o;
    o.algorithm = algorithm::workfront;
    o.parents = true;
    const auto got = detail::workfront_sssp(a, source, o, lb);
    CHECK(verify(g, source, want.distances, got) == "");
    check_statistics(got, algorithm::workfront);
  }
  const auto got = run(a, source, algorithm::da2cf);
  CHECK(verify(g, source, want.distances, got) == "");
  check_statistics(got, algorithm::da2cf);
  check_da2cf_frontiers(got);
}

// A zero-weight path 0 -> 1 -> ... -> k whose every vertex i also reaches each of m sinks at
// weight 1000 - 2i: with Δ = 1 the whole path is one Near-Far window, and every sweep lowers every
// sink again above the window, piling all m of them: the far pile (n entries) overflows and is
// rebuilt from t. Dijkstra's answer: sinks at 1000 - k.
template <class W>
csr<W> overflowing_far_pile(vertex k, vertex m) {
  arc_list<W> arcs;
  arcs.n = k + 1 + m;
  for (vertex i = 0; i < k; ++i) arcs.push_back(i, i + 1, W(0));
  for (vertex i = 0; i <= k; ++i)
    for (vertex j = 0; j < m; ++j) arcs.push_back(i, k + 1 + j, W(1000 - 2 * i));
  return build_csr(arcs);
}

}  // namespace

TEST_SUITE("baselines") {
  TEST_CASE("the baselines are available by name in CUDA builds") {
    for (algorithm algo : baselines) {
      CHECK(parse_algorithm(algorithm_name(algo)) == algo);
      CHECK(is_gpu_algorithm(algo));
      const auto all = available_algorithms();
      CHECK(std::find(all.begin(), all.end(), algo) != all.end());
    }
  }

  TEST_CASE_TEMPLATE("match Dijkstra on random graphs: every Δ, both load balancers", W,
                     std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : tropic::testing::test_graph_cases(120, 5151)) {
      CAPTURE(c.name());
      const csr<W> g = c.graph<W>();
      const vertex s = c.source(g.n);
      const device_matrix<W> a(g);
      check_all(g, s, a);
    }
  }

  TEST_CASE_TEMPLATE("a far pile that outgrows n entries, and windows far apart", W,
                     std::uint32_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    const csr<W> g = overflowing_far_pile<W>(50, 50);
    const device_matrix<W> a(g);
    const result<W> want = dijkstra(g, 0, false);
    REQUIRE(want.distances[g.n - 1] == W(1000 - 2 * 50));
    for (double delta : {1.0, 0.0}) {
      CAPTURE(delta);
      CHECK(verify(g, 0, want.distances, run(a, 0, algorithm::near_far, delta)) == "");
    }
    check_all(g, 0, a);

    // A path of weight-10^6 arcs with Δ = 1: every window but the ones holding a vertex is
    // empty, and Near-Far jumps to the far pile's minimum instead of stepping through them.
    arc_list<W> path;
    path.n = 30;
    for (vertex v = 0; v + 1 < path.n; ++v) path.push_back(v, v + 1, W(1000000));
    const csr<W> p = build_csr(path);
    const device_matrix<W> pa(p);
    const result<W> got = run(pa, 0, algorithm::near_far, 1.0);
    CHECK(verify(p, 0, dijkstra(p, 0, false).distances, got) == "");
    CHECK(got.stats.buckets == path.n);
  }

  TEST_CASE_TEMPLATE("larger generated graphs, with and without the transpose", W, std::uint32_t,
                     float) {
    TROPIC_REQUIRE_GPU();
    const csr<W> graphs[] = {generate_kronecker<W>(14, 16, 3), generate_uniform<W>(20000, 7, 4),
                             generate_grid<W>(120, 90, 5)};
    for (const auto& g : graphs) {
      CAPTURE(g.n);
      const result<W> want = dijkstra(g, 1, false);
      // Every reached vertex's row is scanned at least once.
      std::uint64_t reached_arcs = 0;
      for (vertex u = 0; u < g.n; ++u)
        if (want.distances[u] != infinity<W>()) reached_arcs += g.degree(u);
      for (bool transpose : {false, true}) {
        CAPTURE(transpose);
        const device_matrix<W> a(
            g, upload_options{transpose ? transpose_policy::required : transpose_policy::none});
        for (algorithm algo : baselines) {
          // DA2CF takes three host round trips per distinct distance: with float weights almost
          // every vertex has its own (~20k here, seconds); integer weights give a few hundred.
          if (algo == algorithm::da2cf && std::is_floating_point_v<W>) continue;
          CAPTURE(algorithm_name(algo));
          const auto got = run(a, 1, algo);
          CHECK(verify(g, 1, want.distances, got) == "");
          check_statistics(got, algo);
          CHECK(got.stats.arcs_relaxed >= reached_arcs);
          CHECK(got.stats.milliseconds > 0);
          if (algo == algorithm::da2cf) check_da2cf_frontiers(got);
        }
      }
    }
  }

  TEST_CASE("Near-Far with an infinite window is Workfront Sweep, sweep for sweep") {
    TROPIC_REQUIRE_GPU();
    // Each sweep's improved set is a function of t and the frontier alone, so both algorithms
    // relax the same frontiers.
    const csr<std::uint32_t> g = generate_kronecker<std::uint32_t>(12, 16, 8);
    const device_matrix<std::uint32_t> a(g);
    const auto near_far = run(a, 0, algorithm::near_far, std::numeric_limits<double>::infinity());
    const auto workfront = run(a, 0, algorithm::workfront);
    CHECK(near_far.distances == workfront.distances);
    CHECK(near_far.stats.iterations == workfront.stats.iterations);
    CHECK(near_far.stats.vertices_relaxed == workfront.stats.vertices_relaxed);
    CHECK(near_far.stats.buckets == 1);
    // A finite window: other frontiers, the same distances.
    const auto windowed = run(a, 0, algorithm::near_far);
    CHECK(windowed.distances == workfront.distances);
    CHECK(windowed.stats.delta < std::numeric_limits<double>::infinity());
  }

  TEST_CASE("the host entry point uploads and runs each baseline") {
    TROPIC_REQUIRE_GPU();
    const csr<std::uint32_t> g = generate_grid<std::uint32_t>(40, 40, 9);
    const auto want = dijkstra(g, 0, false);
    for (algorithm algo : baselines) {
      CAPTURE(algorithm_name(algo));
      options o;
      o.algorithm = algo;
      const auto got = sssp(g, 0, o);
      CHECK(got.stats.algorithm == algorithm_name(algo));
      CHECK(verify(g, 0, want.distances, got) == "");
      CHECK(got.stats.setup_milliseconds > 0);
    }
  }

  TEST_CASE("the same graph and source give the same distances on every run") {
    TROPIC_REQUIRE_GPU();
    const csr<float> g = generate_kronecker<float>(12, 16, 77);
    const device_matrix<float> a(g);
    for (algorithm algo : baselines) {
      CAPTURE(algorithm_name(algo));
      const auto first = run(a, 3, algo);
      for (int r = 0; r < 5; ++r) {
        const auto again = run(a, 3, algo);
        CHECK(again.distances == first.distances);
        // Every frontier, near set and pile split is a set determined by t alone, whatever order
        // the atomics ran in: the number of sweeps repeats too.
        CHECK(again.stats.iterations == first.stats.iterations);
        CHECK(again.stats.vertices_relaxed == first.stats.vertices_relaxed);
      }
    }
  }

  TEST_CASE("the shared real graphs: reference answers") {
    TROPIC_REQUIRE_GPU();
    tropic::testing::for_each_reference_graph([&](const csr<std::uint32_t>& g,
                                                  const tropic::testing::reference_answer& ref) {
      const device_matrix<std::uint32_t> a(g);
      const auto want = dijkstra(g, ref.source, false);
      for (algorithm algo : baselines) {
        // DA2CF pays two O(n) passes per distinct distance: the road graph's ~10^6 distinct
        // distances would take minutes, the unit-weight graphs' few dozen take milliseconds.
        if (algo == algorithm::da2cf && !ref.unit_weights) continue;
        CAPTURE(algorithm_name(algo));
        const auto got = run(a, ref.source, algo);
        const auto s = tropic::testing::summarize(got.distances);
        CHECK(s.reached == ref.reached);
        CHECK(s.max_distance == ref.max_distance);
        CHECK(s.sum == ref.sum);
        CHECK(verify(g, ref.source, want.distances, got) == "");
      }
    });
  }

  TEST_CASE("overflow: a distance beyond uint32 is an error, never a wrapped value") {
    TROPIC_REQUIRE_GPU();
    arc_list<std::uint32_t> arcs;
    arcs.n = 4;
    for (vertex v = 0; v < 3; ++v) arcs.push_back(v, v + 1, 1u << 31);
    const auto g = build_csr(arcs);
    for (algorithm algo : baselines) {
      CAPTURE(algorithm_name(algo));
      options o;
      o.algorithm = algo;
      try {
        sssp(g, 0, o);
        FAIL("no overflow error");
      } catch (const error& e) {
        CHECK(e.code() == error_code::overflow);
      }
      CHECK(sssp(convert_weights<std::uint64_t>(g), 0, o).distances[3] == 3ull << 31);
    }
  }
}
