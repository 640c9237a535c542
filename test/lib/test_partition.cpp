// partition_rows: contiguous ranges covering every row once, balanced by arcs plus rows.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "random_graphs.hpp"
#include "tropic/error.hpp"
#include "tropic/partition.hpp"

using namespace tropic;

TEST_SUITE("partition_rows") {
  TEST_CASE("covers every row once, in order, balanced by arcs plus rows") {
    int with_empty_ranges = 0;
    for (const auto& c : testing::test_graph_cases(64, 500)) {
      CAPTURE(c.name());
      const csr<float> g = c.graph<float>();
      const arc_index total = g.arcs() + g.n;
      arc_index heaviest_row = 1;
      for (vertex u = 0; u < g.n; ++u) heaviest_row = std::max(heaviest_row, g.degree(u) + 1);
      for (std::size_t parts : {1, 2, 3, 7, 64, static_cast<int>(g.n) + 5}) {
        CAPTURE(parts);
        const std::vector<row_range> ranges = partition_rows(g, parts);
        REQUIRE(ranges.size() == parts);
        vertex next = 0;
        for (const row_range& r : ranges) {
          CHECK(r.begin == next);
          CHECK(r.begin <= r.end);
          next = r.end;
          with_empty_ranges += r.empty();
          // A range overshoots its share by less than one row: the boundary is the first row
          // whose prefix reaches the target.
          const arc_index cost = g.row_offsets[r.end] - g.row_offsets[r.begin] + r.size();
          CHECK(cost <= total / parts + heaviest_row + 1);
        }
        CHECK(next == g.n);
      }
    }
    CHECK(with_empty_ranges > 0);  // more parts than rows happened
  }

  TEST_CASE("rows without arcs still spread, and zero parts is an error") {
    csr<std::uint32_t> g;
    g.n = 10;
    g.row_offsets.assign(11, 0);
    const auto ranges = partition_rows(g, 5);
    for (const row_range& r : ranges) CHECK(r.size() == 2);
    CHECK_THROWS_AS(partition_rows(g, 0), error);
    csr<std::uint32_t> none;
    none.row_offsets = {0};
    for (const row_range& r : partition_rows(none, 3)) CHECK(r.empty());
  }
}
