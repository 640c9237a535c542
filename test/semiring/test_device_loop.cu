// The device-driven loops' closure operator (semiring/tropic/device_loop.hpp, vxm_closure)
// against a host loop of the step it repeats: w = min(w, (w .* B)' min.+ A(part));
// B = { v whose w decreased into [lo, hi) } until B is empty. The order of relaxations differs
// (the host goes one arc at a time, the GPU pushes a whole frontier per step and reads values
// as they fall), but the fixed point does not: every index that fell into the range is pushed
// after its last decrease, and each value is the sum along one path, so integers and floats
// must match exactly. Both worklists must end empty, and the stamps stay usable afterwards.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu_test.hpp"
#include "operator_spec.hpp"
#include "random_graphs.hpp"
#include "tropic/device_loop.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

using namespace tropic;
using tropic::testing::test_rng;

namespace {

// The host loop: a FIFO of the indices to push, each listed again whenever it falls into range.
template <class W>
std::vector<W> host_closure(const csr<W>& g, std::vector<W> w, std::vector<vertex> frontier,
                            row_part part, W delta, value_range<W> range) {
  std::vector<char> queued(g.n, 0);
  for (vertex u : frontier) queued[u] = 1;
  for (std::size_t k = 0; k < frontier.size(); ++k) {
    const vertex u = frontier[k];
    queued[u] = 0;
    for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      if (!spec::in_part(g.weights[e], part, delta)) continue;
      const vertex v = g.columns[e];
      const W x = min_plus<W>::mul(w[u], g.weights[e]);
      if (!(x < w[v])) continue;
      w[v] = x;
      if (!(x < range.lo) && x < range.hi && !queued[v]) {
        queued[v] = 1;
        frontier.push_back(v);
      }
    }
  }
  return w;
}

unsigned long long length_of(const device_worklist& list, cudaStream_t stream) {
  unsigned long long count = 0;
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(&count, list.count(), sizeof count, cudaMemcpyDeviceToHost,
                                    stream));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  return count;
}

// One closure from a random start: w0 random (some ∞), the range [lo, hi) random, B the indices
// whose w0 is in the range (as delta-stepping's select makes it), or a random part of them.
template <class W>
void check_closure(const csr<W>& g, std::uint64_t seed, int rounds) {
  test_rng rng(seed);
  cuda_stream stream;
  gpu_context ctx(stream);
  device_matrix<W> a(g, upload_options{}, stream);
  const vertex n = g.n;
  const W delta = W(rng.between(0, 40));
  light_heavy_split<W> split(a, double(delta), ctx);
  device_worklist B(n, stream), spare(n, stream);
  device_buffer<value_range<W>> range_on_device(1, stream);
  for (int round = 0; round < rounds; ++round) {
    const auto part = static_cast<row_part>(rng.below(3));
    const W lo = W(rng.between(0, 30));
    const value_range<W> range{lo, rng.chance(0.2) ? infinity<W>() : W(lo + rng.between(1, 200))};
    std::vector<W> w0(n);
    for (auto& x : w0) x = rng.chance(0.5) ? infinity<W>() : W(rng.between(0, 120));
    std::vector<vertex> frontier;
    const bool all_in_range = rng.chance(0.7);
    for (vertex i = 0; i < n; ++i)
      if (!(w0[i] < range.lo) && w0[i] < range.hi && (all_in_range || rng.chance(0.5)))
        frontier.push_back(i);
    CAPTURE(round);
    CAPTURE(int(part));
    CAPTURE(double(range.lo));
    CAPTURE(double(range.hi));
    CAPTURE(frontier.size());

    dense_vector<W> w(n, stream);
    w.upload(w0);
    if (!frontier.empty())
      TROPIC_CUDA_CHECK(cudaMemcpyAsync(B.indices(), frontier.data(),
                                        frontier.size() * sizeof(vertex), cudaMemcpyHostToDevice,
                                        stream));
    const unsigned long long size = frontier.size();
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(B.count(), &size, sizeof size, cudaMemcpyHostToDevice, stream));
    range_on_device.upload(&range, 1);
    // Local rounds: none (level-synchronous), one, a few, the default, until dry; the queue from
    // one pair (nearly everything spills to the next step) to full.
    closure_limits limits;
    const unsigned rounds_choice[] = {0u, 1u, 3u, tuning::closure_local_rounds, ~0u};
    const unsigned queue_choice[] = {1u, 7u, 64u, tuning::closure_queue_items};
    limits.local_rounds = rounds_choice[rng.below(5)];
    limits.queue_items = queue_choice[rng.below(4)];
    const unsigned lanes_choice[] = {0u, 1u, 2u, 4u, 8u, 32u};
    limits.group_lanes = lanes_choice[rng.below(6)];
    limits.blocks = rng.chance(0.5) ? 0u : unsigned(rng.between(1, 600));
    if (rng.chance(0.3)) limits.local_frontier = rng.below(40);  // wide frontiers spill at once
    CAPTURE(limits.local_rounds);
    CAPTURE(limits.queue_items);
    CAPTURE(limits.group_lanes);
    CAPTURE(limits.blocks);
    CAPTURE(limits.local_frontier);
    const matrix_operand<W> op{&a, part, &split};
    vxm_closure(w, min_plus<W>{}, B, op, ctx, spare, range_on_device.data(), limits);

    const std::vector<W> got = w.to_host();
    const std::vector<W> want = host_closure(g, w0, frontier, part, delta, range);
    for (vertex i = 0; i < n; ++i) {
      if (got[i] != want[i]) {
        CAPTURE(i);
        CHECK(double(got[i]) == double(want[i]));
        break;
      }
    }
    CHECK(length_of(B, stream) == 0);
    CHECK(length_of(spare, stream) == 0);
  }
}

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
  TEST_CASE_TEMPLATE("vxm_closure: a bucket's light loop as one operator, against the host loop", W,
                     std::uint32_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : tropic::testing::test_graph_cases(18, 4100)) {
      CAPTURE(c.name());
      check_closure(c.graph<W>(), c.seed, 4);
    }
    // Hundreds of steps (a grid's wavefront), so the barrier and the three rotating lengths turn
    // over many times, and the closure called again and again on one context.
    INFO("grid 80 x 80");
    check_closure(generate<W>("grid:80:80", 3), 4200, 6);
    // Hub rows of hundreds to thousands of arcs, longer than the closure's block: set aside by
    // their group and pushed by the whole block.
    INFO("kron 12");
    check_closure(generate<W>("kron:12:16", 5), 4300, 4);
  }

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
