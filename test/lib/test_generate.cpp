// Generators: shapes, weight ranges, symmetry, and determinism across runs and thread counts.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "tropic/error.hpp"
#include "tropic/generate.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

using namespace tropic;

namespace {

template <class W>
bool same_graph(const csr<W>& a, const csr<W>& b) {
  return a.n == b.n && a.row_offsets == b.row_offsets && a.columns == b.columns &&
         a.weights == b.weights;
}

// Structural invariants every generator promises: offsets consistent, rows strictly sorted (so
// no parallel arcs), no self-loops, ids in range.
template <class W>
void check_well_formed(const csr<W>& g) {
  REQUIRE(g.row_offsets.size() == static_cast<std::size_t>(g.n) + 1);
  REQUIRE(g.row_offsets.front() == 0);
  REQUIRE(g.row_offsets.back() == g.columns.size());
  REQUIRE(g.weights.size() == g.columns.size());
  std::uint64_t bad_rows = 0, loops = 0, out_of_range = 0;
  for (vertex u = 0; u < g.n; ++u) {
    REQUIRE(g.row_offsets[u] <= g.row_offsets[u + 1]);
    for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
      if (g.columns[k] >= g.n) ++out_of_range;
      if (g.columns[k] == u) ++loops;
      if (k > g.row_offsets[u] && g.columns[k - 1] >= g.columns[k]) ++bad_rows;
    }
  }
  CHECK(out_of_range == 0);
  CHECK(loops == 0);
  CHECK(bad_rows == 0);
}

// Every arc u -> v of weight w has v -> u of weight w.
template <class W>
bool symmetric_with_equal_weights(const csr<W>& g) {
  for (vertex u = 0; u < g.n; ++u)
    for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
      const vertex v = g.columns[k];
      const auto first = g.columns.begin() + static_cast<std::ptrdiff_t>(g.row_offsets[v]);
      const auto last = g.columns.begin() + static_cast<std::ptrdiff_t>(g.row_offsets[v + 1]);
      const auto it = std::lower_bound(first, last, u);
      if (it == last || *it != u) return false;
      if (g.weights[static_cast<std::size_t>(it - g.columns.begin())] != g.weights[k]) return false;
    }
  return true;
}

template <class W>
std::pair<W, W> weight_range(const csr<W>& g) {
  const auto [lo, hi] = std::minmax_element(g.weights.begin(), g.weights.end());
  return {*lo, *hi};
}

// Runs `make` with 1 thread and with 3 (more than the cores here, so the work splits
// differently), restoring the thread count afterwards.
template <class F>
void check_thread_count_invariant(F make) {
#if defined(_OPENMP)
  const int before = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto one = make();
  omp_set_num_threads(3);
  const auto three = make();
  omp_set_num_threads(before);
  CHECK(same_graph(one, three));
#else
  MESSAGE("built without OpenMP: thread-count invariance not exercised");
  CHECK(same_graph(make(), make()));
#endif
}

error_code code_of(const std::string& spec) {
  try {
    generate<std::uint32_t>(spec, 1);
  } catch (const error& e) {
    CHECK_MESSAGE(std::string(e.what()).find(spec.empty() ? "''" : spec) != std::string::npos,
                  e.what());
    return e.code();
  }
  FAIL("spec '" << spec << "' was accepted");
  return error_code::io;
}

}  // namespace

TEST_SUITE("generate") {
  TEST_CASE("kronecker: counts, symmetry, weights, degree skew") {
    const int scale = 12, ef = 16;
    const auto g = generate_kronecker<std::uint32_t>(scale, ef, 42);
    CHECK(g.n == 4096);
    check_well_formed(g);
    // At most 2 arcs per edge; duplicates and self-loops remove some, but far from most.
    CHECK(g.arcs() <= 2ULL * ef * g.n);
    CHECK(g.arcs() > 1ULL * ef * g.n);
    CHECK(g.arcs() % 2 == 0);
    CHECK(symmetric_with_equal_weights(g));
    const auto [lo, hi] = weight_range(g);
    CHECK(lo >= 1);
    CHECK(hi <= 255);
    CHECK(hi - lo > 200);  // the full range is used

    // R-MAT's hubs: the largest degree is far above the mean. The relabeling moves the biggest
    // hub (R-MAT vertex 0) away from id 0.
    arc_index max_degree = 0;
    vertex hub = 0;
    for (vertex u = 0; u < g.n; ++u)
      if (g.degree(u) > max_degree) max_degree = g.degree(u), hub = u;
    CHECK(max_degree > 20 * g.arcs() / g.n);
    CHECK(hub != 0);
  }

  TEST_CASE("kronecker: deterministic for a seed, across runs and thread counts") {
    const auto a = generate_kronecker<std::uint32_t>(11, 8, 7);
    const auto b = generate_kronecker<std::uint32_t>(11, 8, 7);
    const auto c = generate_kronecker<std::uint32_t>(11, 8, 8);
    CHECK(same_graph(a, b));
    CHECK_FALSE(same_graph(a, c));
    check_thread_count_invariant([] { return generate_kronecker<std::uint32_t>(13, 16, 3); });
  }

  TEST_CASE("kronecker: every weight type gets the same graph and the same weights") {
    const auto ref = generate_kronecker<std::uint32_t>(9, 16, 5);
    auto same_as_ref = [&](const auto& g) {
      REQUIRE(g.n == ref.n);
      CHECK(g.row_offsets == ref.row_offsets);
      CHECK(g.columns == ref.columns);
      bool equal = true;
      for (std::size_t k = 0; k < ref.weights.size(); ++k)
        equal = equal && static_cast<double>(g.weights[k]) == static_cast<double>(ref.weights[k]);
      CHECK(equal);
    };
    same_as_ref(generate_kronecker<std::int32_t>(9, 16, 5));
    same_as_ref(generate_kronecker<std::uint64_t>(9, 16, 5));
    same_as_ref(generate_kronecker<std::int64_t>(9, 16, 5));
    same_as_ref(generate_kronecker<float>(9, 16, 5));
    same_as_ref(generate_kronecker<double>(9, 16, 5));
  }

  TEST_CASE("kronecker: edge cases and bad arguments") {
    const auto one = generate_kronecker<double>(0, 16, 1);  // one vertex: every edge a loop
    CHECK(one.n == 1);
    CHECK(one.arcs() == 0);
    const auto none = generate_kronecker<float>(5, 0, 1);
    CHECK(none.n == 32);
    CHECK(none.arcs() == 0);
    check_well_formed(none);
    CHECK_THROWS_AS(generate_kronecker<std::uint32_t>(32, 16, 1), error);
    CHECK_THROWS_AS(generate_kronecker<std::uint32_t>(-1, 16, 1), error);
    CHECK_THROWS_AS(generate_kronecker<std::uint32_t>(4, -1, 1), error);
    CHECK_THROWS_AS(generate_kronecker<std::uint32_t>(4, 4, 1, 10, 9), error);
    // A custom range: zero weights allowed, constant weights exact.
    const auto zero = generate_kronecker<std::int64_t>(8, 4, 1, 0, 0);
    CHECK(weight_range(zero) == std::pair<std::int64_t, std::int64_t>(0, 0));
  }

  TEST_CASE("uniform: exact out-degree, distinct targets, directed, weights 1..10") {
    const vertex n = 1000;
    const int deg = 16;
    const auto g = generate_uniform<std::uint32_t>(n, deg, 99);
    CHECK(g.n == n);
    CHECK(g.arcs() == static_cast<arc_index>(n) * deg);
    check_well_formed(g);
    bool every_row_full = true;
    for (vertex u = 0; u < n; ++u) every_row_full = every_row_full && g.degree(u) == deg;
    CHECK(every_row_full);
    CHECK_FALSE(symmetric_with_equal_weights(g));
    const auto [lo, hi] = weight_range(g);
    CHECK(lo == 1);
    CHECK(hi == 10);
    // Targets are uniform: in-degrees ~ Binomial(16000, 1/999), mean 16, sd 4.
    std::vector<int> in(n, 0);
    for (vertex v : g.columns) ++in[v];
    const int max_in = *std::max_element(in.begin(), in.end());
    const int min_in = *std::min_element(in.begin(), in.end());
    CHECK(max_in < 45);
    CHECK(min_in > 0);
    // Every weight value appears about equally often (16000 draws, 1600 expected each).
    std::vector<int> histogram(11, 0);
    for (auto w : g.weights) ++histogram[w];
    CHECK(*std::min_element(histogram.begin() + 1, histogram.end()) > 1400);
    CHECK(*std::max_element(histogram.begin() + 1, histogram.end()) < 1800);
  }

  TEST_CASE("uniform: complete graph, determinism, thread counts, bad arguments") {
    const auto complete = generate_uniform<double>(50, 49, 3);  // all other vertices
    check_well_formed(complete);
    CHECK(complete.arcs() == 50 * 49);
    CHECK(same_graph(generate_uniform<float>(300, 5, 1), generate_uniform<float>(300, 5, 1)));
    CHECK_FALSE(same_graph(generate_uniform<float>(300, 5, 1), generate_uniform<float>(300, 5, 2)));
    check_thread_count_invariant([] { return generate_uniform<std::int32_t>(20000, 8, 11); });
    CHECK(generate_uniform<std::uint32_t>(1, 0, 1).arcs() == 0);
    CHECK_THROWS_AS(generate_uniform<std::uint32_t>(10, 10, 1), error);
    CHECK_THROWS_AS(generate_uniform<std::uint32_t>(0, 0, 1), error);
    CHECK_THROWS_AS(generate_uniform<std::uint32_t>(10, -1, 1), error);
    // The full 64-bit range draws without overflow.
    const auto wide =
        generate_uniform<std::uint64_t>(100, 4, 1, 0, std::numeric_limits<std::uint64_t>::max());
    CHECK(weight_range(wide).second > (std::uint64_t{1} << 62));
    const auto negative = generate_uniform<std::int32_t>(100, 4, 1, -5, 5);
    CHECK(weight_range(negative).first == -5);
    CHECK(weight_range(negative).second == 5);
    // Floating bounds: the integers inside them.
    const auto halves = generate_uniform<float>(100, 4, 1, 0.5f, 2.5f);
    CHECK(weight_range(halves) == std::pair<float, float>(1.0f, 2.0f));
    CHECK_THROWS_AS(generate_uniform<float>(100, 4, 1, 0.25f, 0.75f), error);
  }

  TEST_CASE("grid: shape, 4-neighbourhood, symmetric weights 1..1000") {
    const vertex rows = 37, cols = 53;
    const auto g = generate_grid<std::uint32_t>(rows, cols, 4);
    CHECK(g.n == rows * cols);
    CHECK(g.arcs() == 2ULL * (rows * (cols - 1) + cols * (rows - 1)));
    check_well_formed(g);
    CHECK(symmetric_with_equal_weights(g));
    std::uint64_t not_neighbours = 0;
    for (vertex u = 0; u < g.n; ++u)
      for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
        const long dr = static_cast<long>(g.columns[k] / cols) - static_cast<long>(u / cols);
        const long dc = static_cast<long>(g.columns[k] % cols) - static_cast<long>(u % cols);
        if (std::labs(dr) + std::labs(dc) != 1) ++not_neighbours;
      }
    CHECK(not_neighbours == 0);
    const auto [lo, hi] = weight_range(g);
    CHECK(lo >= 1);
    CHECK(hi <= 1000);
    CHECK(hi - lo > 900);
    CHECK(generate_grid<float>(1, 1, 1).arcs() == 0);
    CHECK(generate_grid<float>(1, 5, 1).arcs() == 8);
    CHECK(generate_grid<float>(5, 1, 1).arcs() == 8);
    check_thread_count_invariant([] { return generate_grid<double>(300, 200, 9); });
    CHECK_FALSE(same_graph(generate_grid<double>(30, 20, 9), generate_grid<double>(30, 20, 10)));
    CHECK_THROWS_AS(generate_grid<double>(0, 5, 1), error);
    CHECK_THROWS_AS(generate_grid<double>(70000, 70000, 1), error);  // > 2^32 - 1 vertices
  }

  TEST_CASE("generate(spec): the families with their default weights") {
    CHECK(same_graph(generate<std::uint32_t>("kron:8", 3),
                     generate_kronecker<std::uint32_t>(8, 16, 3, 1, 255)));
    CHECK(same_graph(generate<float>("kron:8:4", 3), generate_kronecker<float>(8, 4, 3, 1, 255)));
    CHECK(same_graph(generate<std::int64_t>("uniform:500:7", 3),
                     generate_uniform<std::int64_t>(500, 7, 3, 1, 10)));
    CHECK(same_graph(generate<double>("grid:12:34", 3), generate_grid<double>(12, 34, 3, 1, 1000)));
    const auto g = generate<std::uint64_t>("grid:10:10", 1);
    CHECK(weight_range(g).second <= 1000);
  }

  TEST_CASE("generate(spec): malformed specs are invalid_value errors that quote the spec") {
    for (const std::string spec : {"",
                                   "kron",
                                   "kron:",
                                   "kron:x",
                                   "kron:12:",
                                   "kron:12:16:3",
                                   "kron:32",
                                   "kron:-1",
                                   "kron: 10",
                                   "kron:10 ",
                                   "kron:0x10",
                                   "uniform:10",
                                   "uniform:10:10",
                                   "uniform:0:0",
                                   "uniform:a:b",
                                   "grid:0:5",
                                   "grid:5",
                                   "grid:5:5:5",
                                   "grid:99999:99999",
                                   "road:10:10",
                                   "KRON:10",
                                   "kron:99999999999999999999999"}) {
      CAPTURE(spec);
      CHECK(code_of(spec) == error_code::invalid_value);
    }
  }
}
