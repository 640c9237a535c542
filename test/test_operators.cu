// Every device operator against the host spec (test/operator_spec.hpp) on random inputs: empty
// rows, a vertex of degree 100k, explicit zero weights, ∞ entries, all-masked and none-masked
// vectors, every weight type, push (both load balancers) and pull.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu_test.hpp"
#include "operator_spec.hpp"
#include "random_graphs.hpp"
#include "tropic/generate.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"
#include "tropic/tuning.hpp"

using namespace tropic;
using tropic::testing::test_rng;

namespace {

template <class W>
W random_value(test_rng& rng, double infinity_chance) {
  if (rng.chance(infinity_chance)) return infinity<W>();
  return W(rng.between(0, 60));
}

template <class W>
std::vector<W> random_dense(test_rng& rng, vertex n, double infinity_chance) {
  std::vector<W> v(n);
  for (auto& x : v) x = random_value<W>(rng, infinity_chance);
  return v;
}

// A star whose hub has `leaves` out-arcs (and every leaf an arc back): the skew case.
template <class W>
csr<W> star(vertex leaves, std::uint64_t seed) {
  test_rng rng(seed);
  arc_list<W> a;
  a.n = leaves + 1;
  for (vertex v = 1; v <= leaves; ++v) {
    const W w = W(rng.between(0, 9));
    a.push_back(0, v, w);
    a.push_back(v, 0, w);
  }
  return build_csr(a);
}

// Row i has lengths[i] arcs (rows past the list: i % 5), distinct columns from a random start,
// weights 0..9: rows whose path length (arcs + their end) is exactly at the pull tile's edges
// (tuning::pull_threads x pull_items_per_thread items), one short of them and one past them.
template <class W>
csr<W> rows_of_lengths(vertex n, const std::vector<arc_index>& lengths, std::uint64_t seed) {
  test_rng rng(seed);
  csr<W> g;
  g.n = n;
  g.row_offsets.assign(1, 0);
  for (vertex i = 0; i < n; ++i) {
    const arc_index len = i < lengths.size() ? lengths[i] : i % 5;
    const vertex start = vertex(rng.below(n));
    std::vector<vertex> cols;
    for (arc_index k = 0; k < len; ++k) cols.push_back(vertex((start + k) % n));
    std::sort(cols.begin(), cols.end());
    for (vertex c : cols) {
      g.columns.push_back(c);
      g.weights.push_back(W(rng.between(0, 9)));
    }
    g.row_offsets.push_back(g.columns.size());
  }
  return g;
}

std::vector<arc_index> tile_edge_lengths() {
  const arc_index tile = arc_index(tuning::pull_threads) * tuning::pull_items_per_thread;
  std::vector<arc_index> base = {0, 1, 7, 8, 9, 31, 32, 33, tile - 2, tile - 1, tile,
                                 2 * tile - 1, 2 * tile, 2 * tile + 1, 3 * tile + 7};
  std::vector<arc_index> lengths;
  for (int rep = 0; rep < 6; ++rep) lengths.insert(lengths.end(), base.begin(), base.end());
  return lengths;
}

template <class W>
bool same(W a, W b, bool exact) {
  if (exact || a == b) return a == b;
  const double x = double(a), y = double(b);
  return std::fabs(x - y) <= 1e-4 * std::max(1.0, std::max(std::fabs(x), std::fabs(y)));
}

struct op_case {
  mask_kind mask;
  bool complement, replace;
  accumulator accum;
  row_part part;
  direction dir;
  load_balance balance;
  pull_method pull;
};

template <class S, class W = typename S::value_type>
void check_vxm_mxv(const csr<W>& g, std::uint64_t seed, bool exact) {
  test_rng rng(seed);
  // min-plus vectors mix in ∞ ("no entry"); plus-times has 0 for that, and ∞ would make NaNs.
  const double inf_share = S::is_min_monoid ? 1.0 : 0.0;
  cuda_stream stream;
  gpu_context ctx(stream);
  device_matrix<W> a(g, upload_options{transpose_policy::required}, stream);
  const vertex n = g.n;
  const double delta = double(rng.between(0, 40));
  light_heavy_split<W> split(a, delta, ctx);
  const W wdelta = W(delta);

  for (int round = 0; round < 12; ++round) {
    op_case c;
    c.mask = static_cast<mask_kind>(rng.below(3));
    c.complement = rng.chance(0.3);
    c.replace = rng.chance(0.3);
    c.accum = S::is_min_monoid ? (rng.chance(0.5) ? accumulator::min : accumulator::none)
                               : (rng.chance(0.5) ? accumulator::plus : accumulator::none);
    c.part = static_cast<row_part>(rng.below(3));
    c.dir = static_cast<direction>(rng.below(3));  // automatic (the row and arc rules), push, pull
    c.balance = rng.chance(0.5) ? load_balance::merge_path : load_balance::warp_per_row;
    c.pull = static_cast<pull_method>(rng.below(4));  // automatic, merge_path, group_per_row, live_rows
    CAPTURE(round);
    CAPTURE(int(c.mask));
    CAPTURE(c.complement);
    CAPTURE(c.replace);
    CAPTURE(int(c.accum));
    CAPTURE(int(c.part));
    CAPTURE(int(c.dir));
    CAPTURE(int(c.balance));
    CAPTURE(int(c.pull));

    // u: empty, one entry, a fraction, or every vertex.
    std::vector<vertex> ui;
    std::vector<W> uv;
    const int shape = int(rng.below(4));
    for (vertex i = 0; i < n; ++i) {
      const bool take = shape == 0 ? false : shape == 1 ? i == vertex(seed % n) : shape == 2 ? rng.chance(0.1) : true;
      if (take) {
        ui.push_back(i);
        uv.push_back(random_value<W>(rng, 0.05 * inf_share));
      }
    }
    std::vector<W> w0 = random_dense<W>(rng, n, 0.4 * inf_share);
    // Masks: sometimes everything set, sometimes nothing.
    std::vector<W> m = random_dense<W>(rng, n, 0.3);
    if (rng.chance(0.15)) std::fill(m.begin(), m.end(), W(1));
    if (rng.chance(0.15)) std::fill(m.begin(), m.end(), infinity<W>());

    dense_vector<W> w(n, stream), mask(n, stream);
    w.upload(w0);
    mask.upload(m);
    sparse_vector<W> u(n, stream), improved(n, stream);
    u.upload(ui, uv);
    const mask_view<W> mv{c.mask == mask_kind::none ? nullptr : mask.data(), c.mask, c.complement};
    descriptor d;
    d.replace = c.replace;
    d.dir = c.dir;
    d.balance = c.balance;
    d.pull = c.pull;
    matrix_operand<W> op{&a, c.part, &split};
    const bool track = c.accum == accumulator::min && S::is_min_monoid;
    const value_range<W> range{W(0), W(30)};
    vxm(w, mv, c.accum, S{}, u, op, d, ctx, track ? &improved : nullptr, range);
    const std::vector<W> got = w.to_host();

    std::vector<W> want = w0;
    spec::write<S>(want, spec::vxm<S>(g, ui, uv, c.part, wdelta), &m, c.mask, c.complement,
                   c.accum, c.replace);
    for (vertex i = 0; i < n; ++i) {
      if (!same(got[i], want[i], exact)) {
        CAPTURE(i);
        CHECK(double(got[i]) == double(want[i]));
        break;
      }
    }
    if (track) {
      std::vector<vertex> listed = improved.indices_to_host();
      std::sort(listed.begin(), listed.end());
      CHECK(std::adjacent_find(listed.begin(), listed.end()) == listed.end());  // each once
      std::vector<vertex> expect;
      for (vertex i = 0; i < n; ++i)
        if (want[i] < w0[i] && want[i] < range.hi) expect.push_back(i);
      CHECK(listed == expect);
    }

    // mxv (pull over A's rows) from a dense u with the same mask and accumulator.
    std::vector<W> ud = random_dense<W>(rng, n, 0.5 * inf_share);
    dense_vector<W> udev(n, stream);
    udev.upload(ud);
    w.upload(w0);
    mxv(w, mv, c.accum, S{}, op, udev, d, ctx);
    const std::vector<W> got2 = w.to_host();
    std::vector<W> want2 = w0;
    spec::write<S>(want2, spec::mxv<S>(g, ud, c.part, wdelta), &m, c.mask, c.complement, c.accum,
                   c.replace);
    for (vertex i = 0; i < n; ++i) {
      if (!same(got2[i], want2[i], exact)) {
        CAPTURE(i);
        CHECK(double(got2[i]) == double(want2[i]));
        break;
      }
    }
  }
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
    sparse_vector<W> u(n, stream), improved(n, stream);
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
  TEST_CASE_TEMPLATE("min-plus vxm / mxv match the spec on random graphs", W, std::uint32_t,
                     std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : tropic::testing::test_graph_cases(24, 700)) {
      CAPTURE(c.name());
      check_vxm_mxv<min_plus<W>>(c.graph<W>(), c.seed, true);
    }
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
    sparse_vector<W> u(g.n, stream), improved(g.n, stream);
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
    check_vxm_mxv<min_plus<W>>(rows_of_lengths<W>(6000, tile_edge_lengths(), 11), 11, true);
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
    check_vxm_mxv<min_plus<W>>(rows_of_lengths<W>(300001, lengths, 13), 13, true);
  }

  TEST_CASE_TEMPLATE("plus-times vxm / mxv pull: rows at the tiles' edges, one huge row", W,
                     float, double) {
    TROPIC_REQUIRE_GPU();
    check_vxm_mxv<plus_times<W>>(rows_of_lengths<W>(6000, tile_edge_lengths(), 14), 14, false);
    // Integer products, sums below 2^24: exact in float whatever the order of the additions.
    std::vector<arc_index> lengths(2, 0);
    lengths[1] = 50000;
    check_vxm_mxv<plus_times<W>>(rows_of_lengths<W>(100003, lengths, 15), 15, false);
  }

  TEST_CASE_TEMPLATE("plus-times vxm / mxv match the spec", W, float, double) {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : tropic::testing::test_graph_cases(16, 900)) {
      CAPTURE(c.name());
      check_vxm_mxv<plus_times<W>>(c.graph<W>(), c.seed, false);
    }
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
    std::size_t raw_free = 0, total = 0;
    TROPIC_CUDA_CHECK(cudaMemGetInfo(&raw_free, &total));
    CHECK(device_memory_info().first >= raw_free + bytes);
    {
      const std::uint64_t reserved = attribute(cudaMemPoolAttrReservedMemCurrent);
      device_buffer<unsigned char> b(bytes, stream);  // the cached memory again, no new mapping
      CHECK(attribute(cudaMemPoolAttrReservedMemCurrent) == reserved);
    }
    release_cached_device_memory();
    CHECK(attribute(cudaMemPoolAttrReservedMemCurrent) <=
          attribute(cudaMemPoolAttrUsedMemCurrent) + (std::size_t(2) << 20));
  }

  TEST_CASE_TEMPLATE("select, gather, reduce_min, assign, ewise, apply, reduce, nvals", W,
                     std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    cuda_stream stream;
    gpu_context ctx(stream);
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      CAPTURE(seed);
      test_rng rng(seed);
      const vertex n = vertex(rng.between(1, 5000));
      const std::vector<W> x = random_dense<W>(rng, n, 0.3), y = random_dense<W>(rng, n, 0.3);
      dense_vector<W> dx(n, stream), dy(n, stream), dw(n, stream);
      dx.upload(x);
      dy.upload(y);
      const value_range<W> r{W(rng.between(0, 20)), rng.chance(0.2) ? infinity<W>() : W(rng.between(20, 50))};

      sparse_vector<W> s(n, stream), g2(n, stream);
      select(s, dx, r, ctx);
      std::vector<vertex> si = s.indices_to_host();
      std::vector<W> sv = s.values_to_host();
      std::vector<vertex> want_i;
      W want_min = infinity<W>();
      for (vertex i = 0; i < n; ++i)
        if (!(x[i] < r.lo) && x[i] < r.hi) {
          want_i.push_back(i);
          want_min = std::min(want_min, x[i]);
        }
      std::vector<std::size_t> order(si.size());
      for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
      std::sort(order.begin(), order.end(), [&](auto a, auto b) { return si[a] < si[b]; });
      std::vector<vertex> sorted_i;
      for (auto k : order) {
        sorted_i.push_back(si[k]);
        CHECK(sv[k] == x[si[k]]);
      }
      CHECK(sorted_i == want_i);
      CHECK(reduce_min(dx, r, ctx) == want_min);

      // select_reduce_min: the select of one range and the minimum over another, one round trip
      // (a bucket loop's step: the next bucket's entries and the least value above this one).
      {
        const value_range<W> above{r.hi, infinity<W>()};
        sparse_vector<W> next(n, stream);
        const std::uint64_t trips = ctx.round_trips;
        const W least = select_reduce_min(next, dx, above, r, ctx);
        CHECK(ctx.round_trips == trips + 1);
        CHECK(least == want_min);
        std::vector<vertex> ni = next.indices_to_host(), want_next;
        const std::vector<W> nv = next.values_to_host();
        for (std::size_t k = 0; k < ni.size(); ++k) CHECK(nv[k] == x[ni[k]]);
        for (vertex i = 0; i < n; ++i)
          if (!(x[i] < above.lo) && x[i] < above.hi) want_next.push_back(i);
        std::sort(ni.begin(), ni.end());
        CHECK(ni == want_next);
      }

      gather(g2, dy, s, ctx);
      const auto gi = g2.indices_to_host();
      const auto gv = g2.values_to_host();
      for (std::size_t k = 0; k < gi.size(); ++k) CHECK(gv[k] == y[gi[k]]);

      // assign: scalar under a structural mask with replace, then scatter.
      dw.upload(y);
      assign(dw, structural_mask(dx), W(7), true, ctx);
      auto aw = dw.to_host();
      for (vertex i = 0; i < n; ++i) CHECK(aw[i] == (x[i] != infinity<W>() ? W(7) : infinity<W>()));
      assign(dw, s, ctx);
      aw = dw.to_host();
      for (std::size_t k = 0; k < si.size(); ++k) CHECK(aw[si[k]] == sv[k]);

      // ewise_add / ewise_mult in min-plus with a complemented value mask and min accumulator.
      std::vector<W> w0 = random_dense<W>(rng, n, 0.5);
      dw.upload(w0);
      ewise_add(dw, value_mask(dy, true), accumulator::min, min_plus<W>{}, dx, dy, ctx);
      auto e1 = dw.to_host();
      dw.upload(w0);
      ewise_mult(dw, no_mask<W>(), accumulator::none, min_plus<W>{}, dx, dy, ctx);
      auto e2 = dw.to_host();
      dw.upload(w0);
      apply(dw, no_mask<W>(), accumulator::min, unary_op::add_scalar, W(3), dx, ctx);
      auto e3 = dw.to_host();
      for (vertex i = 0; i < n; ++i) {
        const W inf = infinity<W>();
        std::vector<std::optional<W>> t(1);
        // ewise_add: union under min
        W add = x[i] == inf ? y[i] : (y[i] == inf ? x[i] : std::min(x[i], y[i]));
        const bool allowed = !(y[i] != W(0));
        W expect1 = allowed ? (w0[i] == inf ? add : (add == inf ? w0[i] : std::min(w0[i], add))) : w0[i];
        CHECK(e1[i] == expect1);
        W mult = (x[i] == inf || y[i] == inf) ? inf : saturating_add(x[i], y[i]);
        CHECK(e2[i] == mult);
        W ap = x[i] == inf ? inf : saturating_add(x[i], W(3));
        W expect3 = w0[i] == inf ? ap : (ap == inf ? w0[i] : std::min(w0[i], ap));
        CHECK(e3[i] == expect3);
      }
      std::size_t present = 0;
      for (W v : x) present += v != infinity<W>();
      CHECK(nvals(dx, ctx) == present);
      W mn = infinity<W>();
      for (W v : x) mn = std::min(mn, v);
      CHECK(reduce(min_plus<W>{}, dx, ctx) == mn);
    }
  }
}
