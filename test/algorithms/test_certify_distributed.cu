// The certificate checked on the GPUs (certify over a distributed_matrix, algorithms/
// certify_distributed.cu) says exactly what the host's says: on random graphs for every weight
// type (directed and undirected, zero weights, parallel arcs and self-loops, unreachable vertices,
// negative arcs for the signed types), for the exact answer and for answers damaged in every way
// the certificate must catch, with and without parents. Each part's verdict and marks equal
// certify_rows' on the same rows, for P = 1, 2, 3 parts side by side on one GPU (a distributed
// matrix puts each part on a device of its own), and the whole verdict equals certify(g, ...);
// the public entry and its host reference (certify_on_host) on one GPU and on every GPU.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "certify_checks.hpp"
#include "gpu_test.hpp"
#include "negative_graphs.hpp"
#include "random_graphs.hpp"
#include "tropic/detail/certify_part.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/distributed.hpp"
#include "tropic/partition.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;

using tropic::testing::answer;
using tropic::testing::make_csr;

namespace {

int gpu_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

// g's rows `rows` on the current device, all n rows with those outside the range empty: what
// distributed_matrix uploads for a part.
template <class W>
device_matrix<W> part_of(const csr<W>& g, row_range rows) {
  const arc_index first = g.row_offsets[rows.begin];
  std::vector<arc_index> offsets(std::size_t(g.n) + 1);
  for (vertex u = 0; u <= g.n; ++u) {
    const vertex inside = u < rows.begin ? rows.begin : u > rows.end ? rows.end : u;
    offsets[u] = g.row_offsets[inside] - first;
  }
  const csr_host_view<W> view{g.n, offsets.data(), g.columns.data() + first,
                              g.weights.data() + first};
  return device_matrix<W>(view, upload_options{transpose_policy::none});
}

// g split into 1, 2 and 3 parts, every part on the current device.
template <class W>
struct split_graph {
  std::vector<row_range> ranges;
  std::vector<device_matrix<W>> parts;
};

template <class W>
std::vector<split_graph<W>> splits_of(const csr<W>& g) {
  std::vector<split_graph<W>> out;
  for (std::size_t p : {1, 2, 3}) {
    split_graph<W> s;
    s.ranges = partition_rows(g, p);
    for (const row_range& rows : s.ranges) s.parts.push_back(part_of(g, rows));
    out.push_back(std::move(s));
  }
  return out;
}

struct tally {
  int answers = 0, rejected = 0, cycles = 0;
};

// Every split's parts on the device and on the host against certify_rows on g, and their
// combination against certify(g, s, r).
template <class W>
void check_same_text(const csr<W>& g, const std::vector<split_graph<W>>& splits, vertex s,
                     const result<W>& r, tally& t) {
  const std::string want = certify(g, s, r);
  for (const split_graph<W>& split : splits) {
    CAPTURE(split.parts.size());
    std::vector<certificate_part> on_device, on_host;
    for (std::size_t p = 0; p < split.parts.size(); ++p) {
      CAPTURE(p);
      const certificate_part host = certify_rows(g, s, r, split.ranges[p]);
      std::optional<certificate_part> got =
          detail::certify_part_on_device(split.parts[p], s, r, split.ranges[p]);
      REQUIRE(got.has_value());  // small graphs fit: the device path ran
      CHECK(got->violation == host.violation);
      if (host.violation.empty()) CHECK(got->marks == host.marks);  // all of them, bit for bit
      on_device.push_back(std::move(*got));
      on_host.push_back(detail::certify_part_on_host(split.parts[p], s, r, split.ranges[p]));
      CHECK(on_host.back().violation == host.violation);
    }
    CHECK(certify_combine(s, r, on_device) == want);
    CHECK(certify_combine(s, r, on_host) == want);
  }
  ++t.answers;
  t.rejected += !want.empty();
  t.cycles += want.find("cycle") != std::string::npos;
}

template <class W>
void check_damaged(const csr<W>& g, vertex s, tally& t) {
  const std::vector<split_graph<W>> splits = splits_of(g);
  for (const auto& damaged : testing::damaged_answers(g, s, reference_sssp(g, s, true), s + 1)) {
    CAPTURE(damaged.name);
    const result<W>& r = damaged.answer;
    check_same_text(g, splits, s, r, t);
  }
}

}  // namespace

TEST_SUITE("certify_distributed") {
  TEST_CASE_TEMPLATE("each part's verdict and marks on its GPU equal the host's, 1 to 3 parts", W,
                     std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    tally t;
    for (const auto& c : testing::test_graph_cases(48, 8100)) {
      CAPTURE(c.name());
      const csr<W> g = c.graph<W>();
      if (g.n == 0) continue;
      check_damaged(g, c.source(g.n), t);
      check_damaged(g, vertex(0), t);
      if constexpr (std::is_signed_v<W>) {  // negative arcs; a negative cycle off the source's
                                            // reach
        const auto k = testing::reweighted_case<W>(c);
        check_damaged(k.g, k.source, t);
        const auto island = testing::with_planted_cycle(k, 3, false);
        check_damaged(island.g, island.source, t);
      }
    }
    CHECK(t.answers > 48 * 2 * 10);
    CHECK(t.rejected > t.answers / 2);
    CHECK(t.cycles > 5);
  }

  TEST_CASE("sums beyond the type's range, a parent cycle, an island: the host's text") {
    TROPIC_REQUIRE_GPU();
    tally t;
    constexpr std::uint32_t top = infinity<std::uint32_t>() - 1, inf = infinity<std::uint32_t>();
    // d[1] + 5 wraps to 3 in uint32: exact sums see 2^32 + 3.
    const auto g = make_csr<std::uint32_t>(3, {{0, 1, top}, {0, 2, 4}, {1, 2, 5}});
    const auto h = make_csr<std::uint32_t>(3, {{0, 1, top}, {1, 2, 5}});
    for (const result<std::uint32_t>& r :
         {answer<std::uint32_t>({0, top, 4}, {-1, 0, 0}), answer<std::uint32_t>({0, top, 4}),
          answer<std::uint32_t>({0, top, 3}, {-1, 0, 1}), answer<std::uint32_t>({0, top, 3})}) {
      check_same_text(g, splits_of(g), 0, r, t);
      check_same_text(h, splits_of(h), 0, r, t);
    }
    check_same_text(h, splits_of(h), 0, answer<std::uint32_t>({0, top, inf}, {-1, 0, -1}), t);
    constexpr std::uint64_t top64 = infinity<std::uint64_t>() - 1;
    const auto g64 = make_csr<std::uint64_t>(3, {{0, 1, top64}, {1, 2, 5}});
    check_same_text(g64, splits_of(g64), 0, answer<std::uint64_t>({0, top64, 3}, {-1, 0, 1}), t);
    check_same_text(g64, splits_of(g64), 0, answer<std::uint64_t>({0, top64, 3}), t);
    constexpr std::int32_t low = std::numeric_limits<std::int32_t>::lowest() + 1;
    const auto k = make_csr<std::int32_t>(3, {{0, 1, low}, {1, 2, -5}});
    const auto wrapped =
        static_cast<std::int32_t>(static_cast<std::uint32_t>(low) + static_cast<std::uint32_t>(-5));
    check_same_text(k, splits_of(k), 0, answer<std::int32_t>({0, low, wrapped}), t);
    constexpr std::int64_t low64 = std::numeric_limits<std::int64_t>::lowest() + 1;
    const auto k64 = make_csr<std::int64_t>(3, {{0, 1, low64}, {1, 2, -5}});
    check_same_text(k64, splits_of(k64), 0, answer<std::int64_t>({0, low64, 7}), t);
    constexpr float big = std::numeric_limits<float>::max();
    const auto f = make_csr<float>(3, {{0, 1, big}, {0, 2, 1.0f}, {1, 2, big}});
    check_same_text(f, splits_of(f), 0, answer<float>({0, big, 1.0f}, {-1, 0, 0}), t);
    // 1 <-> 2 at weight 0 under 0 -> 1; 3 <-> 4 at weight 0, unreachable.
    const auto z =
        make_csr<std::uint32_t>(5, {{0, 1, 1}, {1, 2, 0}, {2, 1, 0}, {3, 4, 0}, {4, 3, 0}});
    for (const result<std::uint32_t>& r :
         {answer<std::uint32_t>({0, 1, 1, inf, inf}, {-1, 2, 1, -1, -1}),
          answer<std::uint32_t>({0, 1, 1, inf, inf}), answer<std::uint32_t>({0, 1, 1, 5, 5}),
          answer<std::uint32_t>({0, 1, 1, 5, 5}, {-1, 0, 1, 4, 3})})
      check_same_text(z, splits_of(z), 0, r, t);
    CHECK(t.rejected >= 10);
    CHECK(t.cycles >= 2);
  }

  TEST_CASE_TEMPLATE(
      "certify over a distributed matrix: certify's text, on the GPUs and on the host", W,
      std::uint32_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    std::vector<std::vector<int>> device_sets{{0}};
    if (gpu_count() >= 2 && multi_gpu_available()) {
      std::vector<int> all;
      for (int d = 0; d < gpu_count() && d < 4; ++d) all.push_back(d);
      device_sets.push_back(all);
    }
    int rejected = 0;
    for (const std::vector<int>& devices : device_sets) {
      CAPTURE(devices.size());
      for (const auto& c : testing::test_graph_cases(16, 8300)) {
        CAPTURE(c.name());
        const csr<W> g = c.graph<W>();
        if (g.n == 0) continue;
        const distributed_matrix<W> a(g, devices);
        const vertex s = c.source(g.n);
        REQUIRE(cudaSetDevice(devices.back()) == cudaSuccess);
        for (const auto& damaged :
             testing::damaged_answers(g, s, reference_sssp(g, s, true), c.seed)) {
          CAPTURE(damaged.name);
          const result<W>& r = damaged.answer;
          const std::string want = certify(g, s, r);
          CHECK(certify(a, s, r) == want);
          CHECK(certify_on_host(a, s, r) == want);
          rejected += !want.empty();
        }
        int now = -1;
        REQUIRE(cudaGetDevice(&now) == cudaSuccess);
        CHECK(now == devices.back());  // the caller's device, kept
      }
    }
    CHECK(rejected > 16 * 10);
    REQUIRE(cudaSetDevice(0) == cudaSuccess);
  }
}
