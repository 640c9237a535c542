// vxm and mxv against the host spec (test/support/operator_spec.hpp) on graphs of chosen shapes
// -- a vertex of degree 100k, rows at the pull's tile edges, every row empty, one huge row -- the
// pull's floor and row bounds, a push of more arcs than the grid holds tiles, and the device
// matrix and memory pool they stand on. The random inputs of every operator:
// test_operator_spec.cu.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu_test.hpp"
#include "operator_checks.hpp"
#include "operator_spec.hpp"
#include "test_helpers.hpp"
#include "tropic/generate.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"
#include "tropic/tuning.hpp"

using namespace tropic;
using tropic::testing::check_vxm_mxv;
using tropic::testing::random_dense;
using tropic::testing::rows_of_lengths;
using tropic::testing::star;
using tropic::testing::test_rng;

namespace {

// Rows past a list of lengths (rows_of_lengths): i % 5 arcs.
arc_index short_tail(vertex i) { return i % 5; }

// Rows whose path length (arcs + their end) is exactly at the pull tile's edges
// (tuning::pull_threads x pull_items_per_thread items), one short of them and one past them.
std::vector<arc_index> tile_edge_lengths() {
  const arc_index tile = arc_index(tuning::pull_threads) * tuning::pull_items_per_thread;
  std::vector<arc_index> base = {0, 1, 7, 8, 9, 31, 32, 33, tile - 2, tile - 1, tile,
                                 2 * tile - 1, 2 * tile, 2 * tile + 1, 3 * tile + 7};
  std::vector<arc_index> lengths;
  for (int rep = 0; rep < 6; ++rep) lengths.insert(lengths.end(), base.begin(), base.end());
  return lengths;
}

// A pull with the min accumulator skips the rows that no product can improve: those at or below
// min(u) ⊗ (a lower bound of the part's weights) (pull_floor, semiring/detail/args.cuh). Here u's
// entries lie far above zero and most of w lies around that floor, so a floor one too high
// leaves a row unimproved (w one above the floor, a product at it) and one that skipped the
// wrong rows changes the result. Weights weight_base + 0..9 (the least always present), u's
// values value_base + 0..5; vertex 7 takes an arc from every vertex, so its pulled row spans
// the merge path's blocks and is one of pull_live_rows' long rows (in chunks), and vertices 11
// and 13 from every 1000th and 100th (an 8-lane group's row, a warp's). Rows sorted by weight
// end where min(u) ⊗ weight reaches w (row_bound): with w around the floor that end falls
// inside these rows, and a bound one arc short leaves a row unimproved. With weights above
// 2^53 (64-bit integers) the least weight's double lies above it.
template <class W>
void check_pull_floor(W weight_base, W value_base, bool every_part, std::uint64_t seed) {
  test_rng rng(seed);
  const vertex n = 30000;
  arc_list<W> arcs;
  arcs.n = n;
  for (vertex v = 0; v < n; ++v) {
    for (int k = 0; k < 5; ++k)
      arcs.push_back(v, vertex(rng.below(n)), W(weight_base + W(rng.between(0, 9))));
    if (v != 7) arcs.push_back(v, 7, W(weight_base + W(rng.between(0, 9))));
    if (v % 1000 == 0 && v != 11) arcs.push_back(v, 11, W(weight_base + W(rng.between(0, 9))));
    if (v % 100 == 0 && v != 13) arcs.push_back(v, 13, W(weight_base + W(rng.between(0, 9))));
  }
  arcs.push_back(3, 5, weight_base);
  const csr<W> g = build_csr(arcs);
  cuda_stream stream;
  gpu_context ctx(stream);
  device_matrix<W> a(g, upload_options{transpose_policy::required}, stream);
  const W delta = W(weight_base + W(4));  // light: base + 0..4, heavy: base + 5..9
  light_heavy_split<W> split(a, double(delta), ctx);
  for (int round = 0; round < 12; ++round) {
    const row_part part = every_part ? static_cast<row_part>(round % 3) : row_part::all;
    // live_rows: a warp per live row, vertex 7's row by a block (pull_live_rows).
    const pull_method method = static_cast<pull_method>(round / 3 % 4);
    CAPTURE(round);
    CAPTURE(int(part));
    CAPTURE(int(method));
    std::vector<vertex> ui;
    std::vector<W> uv;
    for (vertex i = 0; i < n; ++i)
      if (rng.chance(0.3)) {
        ui.push_back(i);
        uv.push_back(W(value_base + W(rng.between(round % 2, 5))));
      }
    // The least product possible in the part: min(u) + the part's least weight.
    const W least_u = *std::min_element(uv.begin(), uv.end());
    const W least = W(least_u + weight_base + W(part == row_part::heavy ? 5 : 0));
    std::vector<W> w0(n);
    for (auto& x : w0)
      x = rng.chance(0.1) ? infinity<W>() : W(least - W(2) + W(rng.between(0, 14)));
    dense_vector<W> w(n, stream);
    w.upload(w0);
    sparse_vector<W> u(n, stream);
    auto improved = sparse_vector<W>::pattern(n, stream);  // indices alone suffice
    u.upload(ui, uv);
    descriptor d;
    d.dir = direction::pull;
    d.pull = method;
    const value_range<W> range{value_base, infinity<W>()};
    vxm(w, no_mask<W>(), accumulator::min, min_plus<W>{}, u, matrix_operand<W>{&a, part, &split},
        d, ctx, &improved, range);
    const std::vector<W> got = w.to_host();
    std::vector<W> want = w0;
    spec::write<min_plus<W>>(want, spec::vxm<min_plus<W>>(g, ui, uv, part, delta),
                             static_cast<const std::vector<W>*>(nullptr),
                             mask_kind::none, false, accumulator::min, false);
    vertex changed = 0;
    for (vertex i = 0; i < n; ++i) changed += want[i] < w0[i];
    CHECK(changed > n / 20);  // the case is not vacuous: many rows improve
    for (vertex i = 0; i < n; ++i)
      if (got[i] != want[i]) {
        CAPTURE(i);
        CAPTURE(double(w0[i]));
        CHECK(double(got[i]) == double(want[i]));
        break;
      }
    std::vector<vertex> listed = improved.indices_to_host();
    std::sort(listed.begin(), listed.end());
    std::vector<vertex> expect;
    for (vertex i = 0; i < n; ++i)
      if (want[i] < w0[i]) expect.push_back(i);
    CHECK(listed == expect);
  }
}

}  // namespace

TEST_SUITE("operators") {
  TEST_CASE_TEMPLATE("min-plus vxm pull: rows at or below the floor keep their value", W,
                     std::uint32_t, std::int32_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    check_pull_floor<W>(W(0), W(1000), true, 21);
    check_pull_floor<W>(W(1), W(1000), true, 22);
  }

  TEST_CASE_TEMPLATE("min-plus vxm pull floor: 64-bit weights whose doubles round up", W,
                     std::int64_t, std::uint64_t) {
    TROPIC_REQUIRE_GPU();
    // 2^55 + 5: its double is 2^55 + 8, above the weight.
    check_pull_floor<W>(W((std::uint64_t(1) << 55) + 5), W(std::uint64_t(1) << 58), false, 23);
  }
  TEST_CASE("device_matrix: transpose policies, the longest rows of A and A' (the pull's choice)") {
    TROPIC_REQUIRE_GPU();
    // Out-degrees 3, 1, 0, 1; in-degrees 0, 1, 3, 1 (vertex 2 from 0, 1 and 3).
    csr<std::uint32_t> g;
    g.n = 4;
    g.row_offsets = {0, 3, 4, 4, 5};
    g.columns = {1, 2, 3, 2, 2};
    g.weights = {5, 1, 2, 7, 3};
    cuda_stream stream;
    const device_matrix<std::uint32_t> a(g, upload_options{transpose_policy::required}, stream);
    CHECK(a.view().max_row_length == arc_index(3));
    CHECK(a.transpose_view().max_row_length == arc_index(3));  // vertex 2: from 0, 1 and 3
    // Each row's lightest weight (the pull's row test), infinity for an empty row: A's rows
    // {5, 1, 2}, {7}, {}, {3}; A''s (in-arcs) {}, {5}, {1, 7, 3}, {2}.
    auto lightest = [&](const csr_view<std::uint32_t>& v) {
      std::vector<std::uint32_t> h(v.n);
      TROPIC_CUDA_CHECK(cudaMemcpy(h.data(), v.row_least, v.n * sizeof(std::uint32_t),
                                   cudaMemcpyDeviceToHost));
      return h;
    };
    const std::uint32_t inf = infinity<std::uint32_t>();
    CHECK(lightest(a.view()) == std::vector<std::uint32_t>{1, 7, inf, 3});
    CHECK(lightest(a.transpose_view()) == std::vector<std::uint32_t>{inf, 5, 1, 2});
    const device_matrix<std::uint32_t> no_t(g, upload_options{transpose_policy::none}, stream);
    CHECK(no_t.view().max_row_length == arc_index(3));
    CHECK_FALSE(no_t.has_transpose());
    CHECK_THROWS_AS(no_t.transpose_view(), error);
    // The default builds A' when it fits (it does here): same in-degrees, twice the arcs' bytes.
    const device_matrix<std::uint32_t> fits(g, upload_options{}, stream);
    CHECK(fits.has_transpose());
    CHECK(fits.transpose_view().max_row_length == arc_index(3));
    CHECK(fits.device_bytes() > no_t.device_bytes());
    // A symmetric matrix is its own transpose.
    csr<std::uint32_t> s;
    s.n = 3;
    s.row_offsets = {0, 2, 3, 4};
    s.columns = {1, 2, 0, 0};
    s.weights = {4, 6, 4, 6};
    const device_matrix<std::uint32_t> sym(s, upload_options{transpose_policy::required}, stream);
    CHECK(sym.view().max_row_length == arc_index(2));
    CHECK(sym.transpose_view().max_row_length == arc_index(2));
    CHECK(sym.device_bytes() ==
          device_matrix<std::uint32_t>(s, upload_options{transpose_policy::none}, stream)
              .device_bytes());  // nothing extra for a symmetric matrix
  }

  TEST_CASE_TEMPLATE("min-plus vxm / mxv with a vertex of degree 100k", W, std::uint32_t, float) {
    TROPIC_REQUIRE_GPU();
    check_vxm_mxv<min_plus<W>>(star<W>(100000, 5), 5, true);
  }

  // push_merge_path stages each tile's improved targets in shared memory and appends them with
  // one atomic per tile: a frontier of more arcs than the grid's tiles makes blocks take several
  // tiles, each flushing and reusing the stage.
  TEST_CASE("min-plus vxm push: a frontier of more arcs than the grid holds tiles") {
    TROPIC_REQUIRE_GPU();
    using W = std::uint32_t;
    using S = min_plus<W>;
    const csr<W> g = generate_uniform<W>(vertex(1) << 16, 40, 7);
    int sms = 0;
    REQUIRE(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) == cudaSuccess);
    const std::size_t grid_tiles = std::size_t(tuning::push_max_blocks_per_sm) * unsigned(sms) *
                                   tuning::push_threads * tuning::push_items_per_thread;
    REQUIRE(g.arcs() > grid_tiles);
    cuda_stream stream;
    gpu_context ctx(stream);
    const device_matrix<W> a(g, upload_options{transpose_policy::none}, stream);
    test_rng rng(11);
    std::vector<vertex> ui;
    std::vector<W> uv;
    for (vertex i = 0; i < g.n; ++i) {
      ui.push_back(i);
      uv.push_back(W(rng.below(1000)));
    }
    const std::vector<W> w0 = random_dense<W>(rng, g.n, 0.5);
    dense_vector<W> w(g.n, stream);
    w.upload(w0);
    sparse_vector<W> u(g.n, stream);
    auto improved = sparse_vector<W>::pattern(g.n, stream);  // indices alone suffice
    u.upload(ui, uv);
    descriptor d;
    d.dir = direction::push;
    d.balance = load_balance::merge_path;
    const value_range<W> range{W(0), W(600)};
    vxm(w, no_mask<W>(), accumulator::min, S{}, u, all_of(a), d, ctx, &improved,
        range);
    std::vector<W> want = w0;
    spec::write<S>(want, spec::vxm<S>(g, ui, uv, row_part::all, W(0)),
                   static_cast<const std::vector<W>*>(nullptr), mask_kind::none,
                   false, accumulator::min, false);
    CHECK(w.to_host() == want);
    std::vector<vertex> listed = improved.indices_to_host();
    std::sort(listed.begin(), listed.end());
    std::vector<vertex> expect;
    for (vertex i = 0; i < g.n; ++i)
      if (want[i] < w0[i] && want[i] < range.hi) expect.push_back(i);
    CHECK(listed.size() > grid_tiles / 1024);  // improvements in many tiles
    CHECK(listed == expect);
  }

  // The pull is a merge-path SpMV over row ends and arcs (semiring/kernels/pull_merge_path.cuh):
  // rows at and around its tiles' edges, a path of row ends only, and one row across many blocks.
  TEST_CASE_TEMPLATE("min-plus vxm / mxv pull: rows at the tiles' edges", W, std::uint32_t,
                     std::int64_t, float) {
    TROPIC_REQUIRE_GPU();
    check_vxm_mxv<min_plus<W>>(rows_of_lengths<W>(6000, tile_edge_lengths(), 11, short_tail), 11,
                               true);
  }

  TEST_CASE_TEMPLATE("min-plus vxm / mxv pull: every row empty", W, std::uint32_t, double) {
    TROPIC_REQUIRE_GPU();
    check_vxm_mxv<min_plus<W>>(rows_of_lengths<W>(100000, std::vector<arc_index>(100000, 0), 12),
                               12, true);
  }

  TEST_CASE_TEMPLATE("min-plus vxm / mxv pull: one row of 300k arcs after 150k empty rows", W,
                     std::uint32_t, float) {
    TROPIC_REQUIRE_GPU();
    std::vector<arc_index> lengths(150001, 0);
    lengths[150000] = 300000;
    check_vxm_mxv<min_plus<W>>(rows_of_lengths<W>(300001, lengths, 13, short_tail), 13, true);
  }

  // Arcs in the middle rows only (a distributed part's shape): the min pull visits those rows
  // alone (pull_rows) and lists them in the whole matrix's numbering; the other accumulators
  // and masks still see every row.
  TEST_CASE_TEMPLATE("min-plus vxm / mxv pull: arcs in the middle rows only", W, std::uint32_t,
                     float) {
    TROPIC_REQUIRE_GPU();
    std::vector<arc_index> lengths(20000, 0);
    for (arc_index l : tile_edge_lengths()) lengths.push_back(l);
    for (vertex i = 0; i < 3000; ++i) lengths.push_back(i % 7);
    const vertex n = vertex(lengths.size()) + 30000;
    const csr<W> g = rows_of_lengths<W>(n, lengths, 16, [](vertex) { return arc_index(0); });
    vertex first = n, last = 0;
    for (vertex u = 0; u < n; ++u)
      if (g.row_offsets[u + 1] > g.row_offsets[u]) {
        first = std::min(first, u);
        last = u + 1;
      }
    REQUIRE(first > 0);
    REQUIRE(last < n);
    const device_matrix<W> a(g);
    CHECK(a.first_arc_row() == first);
    CHECK(a.last_arc_row() == last);
    // the same span from offsets already on the device
    device_buffer<arc_index> offsets(g.row_offsets.size(), cudaStream_t{});
    device_buffer<vertex> columns(g.columns.size(), cudaStream_t{});
    device_buffer<W> weights(g.weights.size(), cudaStream_t{});
    offsets.upload(g.row_offsets.data(), g.row_offsets.size());
    columns.upload(g.columns.data(), g.columns.size());
    weights.upload(g.weights.data(), g.weights.size());
    const device_matrix<W> moved(n, std::move(offsets), std::move(columns), std::move(weights),
                                 false);
    CHECK(moved.first_arc_row() == first);
    CHECK(moved.last_arc_row() == last);
    check_vxm_mxv<min_plus<W>>(g, 16, true);
    csr<W> none;
    none.n = 10;
    none.row_offsets.assign(11, 0);
    const device_matrix<W> empty(none);
    CHECK(empty.first_arc_row() == 0);
    CHECK(empty.last_arc_row() == 0);
  }

  TEST_CASE_TEMPLATE("plus-times vxm / mxv pull: rows at the tiles' edges, one huge row", W,
                     float, double) {
    TROPIC_REQUIRE_GPU();
    check_vxm_mxv<plus_times<W>>(rows_of_lengths<W>(6000, tile_edge_lengths(), 14, short_tail), 14,
                                 false);
    // Integer products, sums below 2^24: exact in float whatever the order of the additions.
    std::vector<arc_index> lengths(2, 0);
    lengths[1] = 50000;
    check_vxm_mxv<plus_times<W>>(rows_of_lengths<W>(100003, lengths, 15, short_tail), 15, false);
  }

  TEST_CASE("memory pool: freed memory stays cached for the next buffers, counts as free, and "
            "can be released") {
    TROPIC_REQUIRE_GPU();
    auto attribute = [](cudaMemPoolAttr which) {
      std::uint64_t v = 0;
      TROPIC_CUDA_CHECK(cudaMemPoolGetAttribute(memory_pool(), which, &v));
      return v;
    };
    const std::size_t bytes = std::size_t(64) << 20;
    cuda_stream stream;
    { device_buffer<unsigned char> a(bytes, stream); }
    stream.synchronize();  // a synchronisation: a pool with the default threshold gives it back
    CHECK(attribute(cudaMemPoolAttrReservedMemCurrent) >=
          attribute(cudaMemPoolAttrUsedMemCurrent) + bytes);
    // The driver's free bytes read before and after: other processes (ctest -j) may allocate
    // in between, and the lower of the two is what the pool's answer must exceed.
    std::size_t raw_before = 0, raw_after = 0, total = 0;
    TROPIC_CUDA_CHECK(cudaMemGetInfo(&raw_before, &total));
    const std::size_t free_with_cache = device_memory_info().first;
    TROPIC_CUDA_CHECK(cudaMemGetInfo(&raw_after, &total));
    CHECK(free_with_cache >= std::min(raw_before, raw_after) + bytes);
    {
      const std::uint64_t reserved = attribute(cudaMemPoolAttrReservedMemCurrent);
      device_buffer<unsigned char> b(bytes, stream);  // the cached memory again, no new mapping
      CHECK(attribute(cudaMemPoolAttrReservedMemCurrent) == reserved);
    }
    release_cached_device_memory();
    CHECK(attribute(cudaMemPoolAttrReservedMemCurrent) <=
          attribute(cudaMemPoolAttrUsedMemCurrent) + (std::size_t(2) << 20));
  }
}
