// algorithm::automatic's choice on a GPU (policy::automatic::prefers_adds) at the edges of the
// README's table, and on graphs whose measured winner chose the thresholds; the several-GPU
// solver's choice of closure rounds (policy::distributed) and options::loop by name.
#include <doctest/doctest.h>

#include <cstdint>

#include "policy.hpp"
#include "tropic/error.hpp"
#include "tropic/sssp.hpp"

using tropic::policy::automatic::prefers_adds;

TEST_SUITE("automatic_rule") {
  TEST_CASE("each threshold of the README's table turns the choice") {
    constexpr std::uint64_t M = std::uint64_t(1) << 20;
    // arcs: 2^23 on up to 2^19 vertices, 2^22 beyond
    CHECK(prefers_adds(M / 2, 8 * M, 1000, 10));
    CHECK_FALSE(prefers_adds(M / 2, 8 * M + 1, 1000, 10));
    CHECK(prefers_adds(M / 2 + 1, 4 * M, 1000, 10));
    CHECK_FALSE(prefers_adds(M / 2 + 1, 4 * M + 1, 1000, 10));
    // the longest row: 2^16 arcs
    CHECK(prefers_adds(M / 4, M, 65536, 10));
    CHECK_FALSE(prefers_adds(M / 4, M, 65537, 10));
    // the probe's depth: 50 levels
    CHECK(prefers_adds(M / 4, M, 4, 50));
    CHECK_FALSE(prefers_adds(M / 4, M, 4, 51));
  }

  TEST_CASE("the measured graphs that chose the thresholds go to their winner") {
    // n, arcs, longest row, probe levels (H200, median of 3 sources;
    // bench/results/h200-run47/NOTES.md)
    CHECK(prefers_adds(1048576, 3145728, 3, 9));             // uniform 2^20 x 3: adds 1.7x
    CHECK_FALSE(prefers_adds(1048576, 6291456, 9, 23));      // Watts-Strogatz 2^20: ds 1.18x
    CHECK_FALSE(prefers_adds(1048576, 8379824, 322, 3));     // R-MAT 20 (0.45): ds 1.34x
    CHECK_FALSE(prefers_adds(524288, 5272204, 92015, 1));    // Chung-Lu, gamma 2.1: ds 2.3x
    CHECK(prefers_adds(524288, 7968152, 25139, 1));          // R-MAT 19 (0.57): adds 1.06x
    CHECK(prefers_adds(262144, 2621422, 16, 6));             // Watts-Strogatz 2^18: adds 1.85x
    CHECK_FALSE(prefers_adds(264346, 730100, 8, 81));        // USA-road-d.NY: ds (local rounds)
    CHECK_FALSE(prefers_adds(524288, 3698100, 14, 59));      // geometric, degree 7: ds 1.63x
    CHECK(prefers_adds(110592, 649728, 6, 42));              // 3D mesh 48^3: adds 1.52x
  }

  TEST_CASE("several GPUs: rounds from the start for short rows behind thin borders") {
    namespace d = tropic::policy::distributed;
    CHECK(d::short_rows(256));
    CHECK_FALSE(d::short_rows(257));
    CHECK(d::thin_borders(100, 1000));  // 10% of the vertices
    CHECK_FALSE(d::thin_borders(101, 1000));
    CHECK(d::thin_borders(0, 0));  // one part: no ghosts
  }

  TEST_CASE("options::loop by name") {
    using tropic::loop_control;
    CHECK(tropic::parse_loop_control("auto") == loop_control::automatic);
    CHECK(tropic::parse_loop_control("host") == loop_control::host);
    CHECK(tropic::parse_loop_control("device") == loop_control::device);
    CHECK_THROWS_WITH_AS(tropic::parse_loop_control("gpu"),
                         "loop must be auto, host or device, got 'gpu'", tropic::error);
  }
}
