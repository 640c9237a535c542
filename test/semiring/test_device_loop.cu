// The device-driven loops' closure operator (semiring/tropic/device_loop.hpp, vxm_closure): its
// argument checks and an empty frontier. Against the spec on random inputs:
// test_operator_spec.cu.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu_test.hpp"
#include "tropic/device_loop.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

using namespace tropic;

namespace {

// An 8 x 8 grid on one context with empty worklists: the closure's small cases.
struct small_grid {
  cuda_stream stream;
  gpu_context ctx{stream};
  csr<std::uint32_t> g = generate<std::uint32_t>("grid:8:8", 1);
  device_matrix<std::uint32_t> a{g, upload_options{}, stream};
  device_worklist B{g.n, stream}, spare{g.n, stream};
  dense_vector<std::uint32_t> w{g.n, stream};
  device_buffer<value_range<std::uint32_t>> range{1, stream};
};

}  // namespace

TEST_SUITE("operators") {
  TEST_CASE("vxm_closure: a queue size or group outside its range is an error") {
    TROPIC_REQUIRE_GPU();
    small_grid t;
    closure_limits bad[5];
    bad[0].queue_items = 0;
    bad[1].queue_items = tuning::closure_queue_items + 1;
    bad[2].group_lanes = 3;
    bad[3].group_lanes = 16;
    bad[4].group_lanes = 64;
    for (const closure_limits& limits : bad)
      CHECK_THROWS_AS(vxm_closure(t.w, min_plus<std::uint32_t>{}, t.B, all_of(t.a), t.ctx, t.spare,
                                  t.range.data(), limits),
                      error);
  }

  TEST_CASE("vxm_closure: an empty frontier changes nothing") {
    TROPIC_REQUIRE_GPU();
    small_grid t;
    const std::vector<std::uint32_t> w0(t.g.n, 5);
    t.w.upload(w0);
    const value_range<std::uint32_t> range{0, 100};
    t.range.upload(&range, 1);
    vxm_closure(t.w, min_plus<std::uint32_t>{}, t.B, all_of(t.a), t.ctx, t.spare, t.range.data());
    CHECK(t.w.to_host() == w0);
  }
}
