// generate_rows: the blocks of every family, concatenated, are exactly generate()'s CSR.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/partition.hpp"

using namespace tropic;

namespace {

// Appends block b to the arrays of a CSR being rebuilt: offsets shifted by the arcs so far.
template <class W>
void append_block(const csr_rows<W>& b, csr<W>& whole) {
  REQUIRE(b.row_offsets.size() == static_cast<std::size_t>(b.rows.size()) + 1);
  REQUIRE(b.row_offsets.front() == 0);
  REQUIRE(b.columns.size() == b.row_offsets.back());
  REQUIRE(b.weights.size() == b.columns.size());
  const arc_index base = whole.columns.size();
  for (std::size_t r = 1; r < b.row_offsets.size(); ++r)
    whole.row_offsets.push_back(base + b.row_offsets[r]);
  whole.columns.insert(whole.columns.end(), b.columns.begin(), b.columns.end());
  whole.weights.insert(whole.weights.end(), b.weights.begin(), b.weights.end());
}

template <class W>
void check_blocks(const std::string& spec, std::uint64_t seed) {
  const csr<W> want = generate<W>(spec, seed);
  REQUIRE(graph_spec_vertices(spec) == want.n);
  for (std::size_t parts : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7},
                            static_cast<std::size_t>(want.n) + 3}) {
    CAPTURE(parts);
    csr<W> got;
    got.n = want.n;
    got.row_offsets.push_back(0);
    vertex next = 0;
    for (const row_range& r : partition_vertices(want.n, parts)) {
      REQUIRE(r.begin == next);
      next = r.end;
      const csr_rows<W> b = generate_rows<W>(spec, seed, r);
      CHECK(b.n == want.n);
      CHECK(b.rows.begin == r.begin);
      CHECK(b.rows.end == r.end);
      append_block(b, got);
    }
    REQUIRE(next == want.n);
    CHECK(got.row_offsets == want.row_offsets);
    CHECK(got.columns == want.columns);
    CHECK(got.weights == want.weights);
  }
}

}  // namespace

TEST_SUITE("generate_rows") {
  TEST_CASE_TEMPLATE("blocks of every family concatenate to generate()", W, std::uint32_t,
                     std::int32_t, std::uint64_t, std::int64_t, float, double) {
    for (const char* spec :
         {"kron:1:4", "kron:6:8", "kron:9", "kron:10:3", "kron:0:5", "uniform:1:0", "uniform:2:1",
          "uniform:50:7", "uniform:300:4", "grid:1:1", "grid:1:9", "grid:7:1", "grid:13:17"}) {
      for (std::uint64_t seed : {0ULL, 1ULL, 12345ULL}) {
        CAPTURE(std::string(spec));
        CAPTURE(seed);
        check_blocks<W>(spec, seed);
      }
    }
  }

  TEST_CASE("a Kronecker block with parallel arcs keeps the lightest, as generate() does") {
    // At scale 4 with 64 edges per vertex nearly every pair repeats: the dedup is exercised.
    const csr<std::uint32_t> g = generate<std::uint32_t>("kron:4:64", 7);
    const csr_rows<std::uint32_t> b = generate_rows<std::uint32_t>("kron:4:64", 7, {5, 11});
    REQUIRE(b.row_offsets.back() == g.row_offsets[11] - g.row_offsets[5]);
    for (arc_index k = 0; k < b.arcs(); ++k) {
      CHECK(b.columns[k] == g.columns[g.row_offsets[5] + k]);
      CHECK(b.weights[k] == g.weights[g.row_offsets[5] + k]);
    }
  }

  TEST_CASE("empty and single-row blocks, anywhere") {
    const csr<double> g = generate<double>("grid:5:6", 3);
    for (vertex u = 0; u <= g.n; ++u) {
      const csr_rows<double> empty = generate_rows<double>("grid:5:6", 3, {u, u});
      CHECK(empty.row_offsets == std::vector<arc_index>{0});
      CHECK(empty.arcs() == 0);
      if (u == g.n) continue;
      const csr_rows<double> one = generate_rows<double>("grid:5:6", 3, {u, u + 1});
      CHECK(one.arcs() == g.degree(u));
    }
  }

  TEST_CASE("bad ranges and specs are clear errors") {
    CHECK_THROWS_WITH_AS(generate_rows<float>("grid:4:4", 1, {5, 3}),
                         doctest::Contains("first > last"), error);
    CHECK_THROWS_WITH_AS(generate_rows<float>("kron:5", 1, {0, 33}),
                         doctest::Contains("ends past the graph's 32 rows"), error);
    CHECK_THROWS_WITH_AS(generate_rows<float>("uniform:10:4", 1, {11, 11}),
                         doctest::Contains("graph spec 'uniform:10:4'"), error);
    CHECK_THROWS_WITH_AS(generate_rows<float>("uniform:10:10", 1, {0, 1}),
                         doctest::Contains("out-degree 10"), error);
    CHECK_THROWS_WITH_AS(generate_rows<float>("mesh:4", 1, {0, 1}),
                         doctest::Contains("unknown family"), error);
    CHECK_THROWS_AS(graph_spec_vertices("grid:70000:70000"), error);
    CHECK_THROWS_AS(partition_vertices(10, 0), error);
  }

  TEST_CASE("partition_vertices: sizes differ by at most one, every row once") {
    for (vertex n : {0u, 1u, 5u, 64u, 1000u}) {
      for (std::size_t parts : {1, 2, 3, 7, 2000}) {
        CAPTURE(n);
        CAPTURE(parts);
        const auto ranges = partition_vertices(n, parts);
        REQUIRE(ranges.size() == parts);
        vertex next = 0;
        for (const row_range& r : ranges) {
          CHECK(r.begin == next);
          CHECK(r.size() >= n / parts);
          CHECK(r.size() <= n / parts + 1);
          next = r.end;
        }
        CHECK(next == n);
      }
    }
  }
}
