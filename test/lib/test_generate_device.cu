// Blocks generated on the GPU (tropic/generate_device.hpp) against the host's: for every weight
// type, the device matrix of a block built on the device has exactly the arrays and statistics
// of the one uploaded from generate_rows' block (and, for the whole range, from generate()).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "device_download.hpp"
#include "gpu_test.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/generate_device.hpp"
#include "tropic/partition.hpp"

using namespace tropic;
using tropic::testing::download;

namespace {

template <class W>
void check_same(const device_matrix<W>& got, const device_matrix<W>& want) {
  const csr_view<W> a = got.view(), b = want.view();
  REQUIRE(a.n == b.n);
  REQUIRE(a.arcs == b.arcs);
  CHECK(download(a.row_offsets, std::size_t(a.n) + 1) ==
        download(b.row_offsets, std::size_t(b.n) + 1));
  CHECK(download(a.columns, a.arcs) == download(b.columns, b.arcs));
  CHECK(download(a.weights, a.arcs) == download(b.weights, b.arcs));
  CHECK(download(a.row_least, a.n) == download(b.row_least, b.n));
  CHECK(a.max_row_length == b.max_row_length);
  const graph_stats& s = got.stats();
  const graph_stats& t = want.stats();
  CHECK(s.n == t.n);
  CHECK(s.arcs == t.arcs);
  CHECK(s.min_weight == t.min_weight);
  CHECK(s.max_weight == t.max_weight);
  CHECK(std::fabs(s.avg_weight - t.avg_weight) <= 1e-9 * std::fabs(t.avg_weight));
  CHECK(s.avg_degree == t.avg_degree);
  CHECK(s.max_degree == t.max_degree);
  CHECK(s.isolated == t.isolated);
  CHECK(s.has_negative_weight == t.has_negative_weight);
  CHECK(s.probe_levels == t.probe_levels);
}

// The host's part: generate_rows' block as an n-row matrix, rows outside it empty.
template <class W>
device_matrix<W> host_part(const std::string& spec, std::uint64_t seed, row_range r) {
  const csr_rows<W> b = generate_rows<W>(spec, seed, r);
  std::vector<arc_index> offsets(std::size_t(b.n) + 1, 0);
  for (vertex u = r.begin; u < r.end; ++u) offsets[u + 1] = b.row_offsets[u - r.begin + 1];
  for (std::size_t u = std::size_t(r.end) + 1; u <= b.n; ++u) offsets[u] = b.arcs();
  const csr_host_view<W> view{b.n, offsets.data(), b.columns.data(), b.weights.data()};
  return device_matrix<W>(view, upload_options{transpose_policy::none});
}

}  // namespace

TEST_SUITE("generate_device") {
  TEST_CASE_TEMPLATE("blocks generated on the device equal the host's", W, std::uint32_t,
                     std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (const char* spec : {"kron:1:4", "kron:4:64", "kron:8:16", "kron:11:4", "kron:12:16",
                             "grid:1:1", "grid:7:9", "grid:40:33"}) {
      for (std::uint64_t seed : {1ULL, 12345ULL}) {
        CAPTURE(std::string(spec));
        CAPTURE(seed);
        const vertex n = graph_spec_vertices(spec);
        // The whole graph: generate()'s matrix, symmetric.
        const device_matrix<W> whole = generate_on_device<W>(spec, seed, {0, n}, true);
        const device_matrix<W> want(generate<W>(spec, seed), upload_options{transpose_policy::none});
        check_same(whole, want);
        CHECK(whole.stats().symmetric == want.stats().symmetric);
        // Blocks: the parts of 3, an empty one, a single row.
        std::vector<row_range> ranges = partition_vertices(n, 3);
        ranges.push_back({n / 2, n / 2});
        ranges.push_back({n - 1, n});
        for (const row_range r : ranges) {
          CAPTURE(r.begin);
          CAPTURE(r.end);
          check_same(generate_on_device<W>(spec, seed, r, false), host_part<W>(spec, seed, r));
        }
      }
    }
  }

  TEST_CASE("the device generator refuses what it cannot build, naming it") {
    TROPIC_REQUIRE_GPU();
    CHECK_THROWS_WITH(generate_on_device<float>("uniform:100:4", 1, {0, 100}, false),
                      doctest::Contains("uniform"));
    CHECK_THROWS_WITH(generate_on_device<float>("kron:4", 1, {3, 20}, false),
                      doctest::Contains("16"));
    CHECK_THROWS_AS(generate_on_device<float>("kron:x", 1, {0, 1}, false), error);
  }
}
