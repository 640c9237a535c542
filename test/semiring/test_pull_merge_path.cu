// The pull's kernels (semiring/kernels/pull_*.cuh) against the host spec, with masks,
// accumulators, replace, light/heavy parts and the `improved` list:
// - merge path with small tiles and few path items per block (by blocks) or per warp (by warps:
//   the whole matrix with no mask), so that small graphs put rows across tiles, blocks and
//   warps: every split-row case (a row across tiles of one run, across runs, a run that starts
//   on a row's end, a run of one item), the warps' starts kept with the matrix or searched;
// - a group per row with every group size from one lane to a warp: rows shorter and longer than
//   a group's loads, rows past the last full warp, a long row walked by one group.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "gpu_test.hpp"
#include "operator_spec.hpp"
#include "operators.cuh"
#include "test_helpers.hpp"

using namespace tropic;
using tropic::testing::random_value;
using tropic::testing::rows_of_lengths;
using tropic::testing::same;
using tropic::testing::test_rng;

namespace {

// detail::pull_dispatch with kernel `method`, merge-path tile shape Policy and `block_items`
// path items per block (group per row: 2^group_log2 lanes per row, negative for the automatic
// size; block_items unused), against spec::mxv + spec::write, a few random operator cases per
// block size and one with neither mask nor part.
template <class S, class Policy, class W = typename S::value_type>
void check_pull(const csr<W>& g, std::uint64_t seed, bool exact,
                const std::vector<arc_index>& block_sizes,
                pull_method method = pull_method::merge_path, int group_log2 = -1) {
  test_rng rng(seed);
  const double inf_share = S::is_min_monoid ? 1.0 : 0.0;
  cuda_stream stream;
  gpu_context ctx(stream);
  device_matrix<W> a(g, upload_options{}, stream);
  const vertex n = g.n;
  const double delta = double(rng.between(0, 10));
  light_heavy_split<W> split(a, delta, ctx);
  for (arc_index block_items : block_sizes) {
    for (int round = 0; round < 5; ++round) {
      auto kind = static_cast<mask_kind>(rng.below(3));
      const bool complement = rng.chance(0.3), replace = rng.chance(0.3);
      const accumulator accum =
          rng.chance(0.5) ? accumulator::none
                          : (S::is_min_monoid ? accumulator::min : accumulator::plus);
      auto part = static_cast<row_part>(rng.below(3));
      if (round >= 3) {  // the whole matrix unmasked: the merge path by warps
        kind = mask_kind::none;
        part = row_part::all;
      }
      // Round 3: the warps' starts kept with the matrix; round 4: a view that does not carry
      // them, whose warps search.
      csr_view<W> view = a.view();
      if (round == 4) view.kept = nullptr;
      CAPTURE(block_items);
      CAPTURE(round);
      CAPTURE(int(kind));
      CAPTURE(complement);
      CAPTURE(replace);
      CAPTURE(int(accum));
      CAPTURE(int(part));

      std::vector<W> ud(n), w0(n), m(n);
      for (auto& x : ud) x = random_value<W>(rng, 0.3 * inf_share);
      for (auto& x : w0) x = random_value<W>(rng, 0.4 * inf_share);
      for (auto& x : m) x = random_value<W>(rng, 0.3);
      dense_vector<W> w(n, stream), mask(n, stream), u(n, stream);
      w.upload(w0);
      mask.upload(m);
      u.upload(ud);
      sparse_vector<W> improved(n, stream);
      const mask_view<W> mv{kind == mask_kind::none ? nullptr : mask.data(), kind, complement};
      descriptor d;
      d.replace = replace;
      d.pull = method;
      const matrix_operand<W> op{&a, part, &split};
      const value_range<W> range{W(0), W(30)};
      const std::uint64_t scanned_before = ctx.read_arcs_scanned();
      const detail::pull_operands<W> pull{&w, mv, accum, view,
                                          detail::pull_ranges_of(view, op, false, d, ctx),
                                          u.data(), &improved, range};
      detail::pull_dispatch<S, W, Policy>(pull, d, ctx, {block_items, group_log2});
      const std::vector<W> got = w.to_host();
      std::vector<W> want = w0;
      spec::write<S>(want, spec::mxv<S>(g, ud, part, W(delta)), &m, kind, complement, accum,
                     replace);
      for (vertex i = 0; i < n; ++i) {
        if (!same(got[i], want[i], exact)) {
          CAPTURE(i);
          CHECK(double(got[i]) == double(want[i]));
          break;
        }
      }
      // The statistics' arcs scanned: the part's arcs of every row the mask allows.
      std::uint64_t want_scanned = 0;
      for (vertex i = 0; i < n; ++i)
        if (spec::mask_allows(&m, kind, complement, i))
          for (arc_index e = g.row_offsets[i]; e < g.row_offsets[i + 1]; ++e)
            want_scanned += spec::in_part(g.weights[e], part, W(delta)) ? 1 : 0;
      CHECK(ctx.read_arcs_scanned() - scanned_before == want_scanned);
      if (S::is_min_monoid) {  // each strictly decreased entry now in [0, 30), once
        std::vector<vertex> listed = improved.indices_to_host();
        std::sort(listed.begin(), listed.end());
        std::vector<vertex> expect;
        for (vertex i = 0; i < n; ++i)
          if (want[i] < w0[i] && !(want[i] < range.lo) && want[i] < range.hi) expect.push_back(i);
        CHECK(listed == expect);
      }
    }
  }
}

// Tile 96 items (32 threads x 3): per block 1 item (every row end and arc its own block), a few,
// one short of a tile, a tile, one past, several tiles, and the device-sized default (0).
const std::vector<arc_index> small_blocks = {1, 2, 7, 95, 96, 97, 250, 0};

template <class S, bool Exact>
void check_all_shapes() {
  using W = typename S::value_type;
  using small = detail::pull_policy<32, 3>;
  using single = detail::pull_policy<64, 1>;
  for (const auto& c : tropic::testing::test_graph_cases(8, 2100)) {
    CAPTURE(c.name());
    check_pull<S, small>(c.graph<W>(), c.seed, Exact, small_blocks);
    check_pull<S, single>(c.graph<W>(), c.seed, Exact, {1, 63, 64, 65, 0});
  }
  // Rows of 95, 96, 97 arcs and their ends around the 96-item tile; empty rows between.
  INFO("tile edges");
  check_pull<S, small>(rows_of_lengths<W>(400, {0, 1, 2, 94, 95, 96, 0, 0, 191, 192, 193, 3}, 7),
                       7, Exact, small_blocks);
  INFO("all rows empty");
  check_pull<S, small>(rows_of_lengths<W>(1000, {}, 8), 8, Exact, {1, 5, 96, 97, 1000, 0});
  INFO("one row across many blocks");
  std::vector<arc_index> hub(3000, 0);
  hub[1500] = 2999;
  check_pull<S, small>(rows_of_lengths<W>(3000, hub, 9), 9, Exact, {1, 7, 96, 200, 0});
  INFO("a single vertex");
  check_pull<S, small>(rows_of_lengths<W>(1, {1}, 10), 10, Exact, {1, 0});
  // The production tiles (tuning.hpp: a block's, and a warp's for S and W) with blocks of a few
  // tiles.
  using tuned = detail::pull_default_policy_for<S, W>;
  const arc_index tile = arc_index(tuned::threads) * tuned::items;
  const arc_index warp_tile = 32 * arc_index(tuned::warp_items);
  std::vector<arc_index> edges = {tile - 1, 0, tile, 3, tile + 1, 2 * tile, 0, 0, tile - 2,
                                  warp_tile - 1, warp_tile, 1, warp_tile + 1, 2 * warp_tile};
  for (vertex i = vertex(edges.size()); i < 9000; ++i) edges.push_back(i % 4);
  INFO("production tile");
  check_pull<S, tuned>(rows_of_lengths<W>(9000, edges, 11), 11, Exact,
                       {100, warp_tile, warp_tile + 1, tile - 1, tile, tile + 1, 3 * tile, 0});
}

// A group of 1, 2, 4, 8, 16 and 32 lanes per row, and the automatic size: rows shorter and
// longer than a group's Items x lanes, rows past the last full warp, empty rows, and a row of
// 2,999 arcs (forced: the automatic choice never takes this kernel for it).
template <class S, bool Exact>
void check_group_per_row() {
  using W = typename S::value_type;
  using any = detail::pull_default_policy;
  const auto rows = pull_method::group_per_row;
  for (int log2 = -1; log2 <= 5; ++log2) {
    CAPTURE(log2);
    for (const auto& c : tropic::testing::test_graph_cases(3, 3100 + std::uint64_t(log2 + 1))) {
      CAPTURE(c.name());
      check_pull<S, any>(c.graph<W>(), c.seed, Exact, {0}, rows, log2);
    }
    INFO("rows around Items x lanes");
    check_pull<S, any>(rows_of_lengths<W>(400, {0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 0, 0, 65,
                                                128, 129, 3},
                                          17),
                       17, Exact, {0}, rows, log2);
    INFO("all rows empty");
    check_pull<S, any>(rows_of_lengths<W>(1000, {}, 18), 18, Exact, {0}, rows, log2);
    INFO("one long row");
    std::vector<arc_index> hub(3000, 0);
    hub[1500] = 2999;
    check_pull<S, any>(rows_of_lengths<W>(3000, hub, 19), 19, Exact, {0}, rows, log2);
    INFO("a single vertex, and a last warp of one row");
    check_pull<S, any>(rows_of_lengths<W>(1, {1}, 20), 20, Exact, {0}, rows, log2);
    check_pull<S, any>(rows_of_lengths<W>(129, {3, 0, 5}, 21), 21, Exact, {0}, rows, log2);
    INFO("short rows over many blocks");
    check_pull<S, any>(rows_of_lengths<W>(5000, {4, 3, 0, 7, 1, 32}, 22), 22, Exact, {0}, rows,
                       log2);
  }
}

}  // namespace

TEST_SUITE("operators") {
  TEST_CASE_TEMPLATE("pull group per row: every group size (min-plus)", W, std::uint32_t,
                     std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    check_group_per_row<min_plus<W>, true>();
  }

  TEST_CASE_TEMPLATE("pull group per row: every group size (plus-times)", W, float, double) {
    TROPIC_REQUIRE_GPU();
    check_group_per_row<plus_times<W>, false>();
  }

  TEST_CASE("pull: the automatic kernel choice follows the longest row") {
    descriptor d;
    csr_view<float> v;
    v.max_row_length = 0;  // unknown
    CHECK_FALSE(pull_by_group_per_row(v, d));
    v.max_row_length = tuning::pull_group_max_row;
    CHECK(pull_by_group_per_row(v, d));
    v.max_row_length = tuning::pull_group_max_row + 1;
    CHECK_FALSE(pull_by_group_per_row(v, d));
    d.pull = pull_method::group_per_row;
    CHECK(pull_by_group_per_row(v, d));
    d.pull = pull_method::merge_path;
    v.max_row_length = 1;
    CHECK_FALSE(pull_by_group_per_row(v, d));
  }

  TEST_CASE("pull: the group per row has about tuning::pull_group_items arcs per lane") {
    csr_view<float> v;
    auto lanes = [&](vertex n, arc_index arcs) {
      v.n = n;
      v.arcs = arcs;
      return 1u << pull_group_log2(v);
    };
    const arc_index items = tuning::pull_group_items;
    CHECK(lanes(0, 0) == 1);
    CHECK(lanes(100, 0) == 1);
    CHECK(lanes(100, 100 * items) == 1);
    CHECK(lanes(100, 100 * items + 1) == 2);
    CHECK(lanes(100, 200 * items) == 2);
    CHECK(lanes(100, 800 * items) == 8);
    CHECK(lanes(100, 100000 * items) == 32);
  }

  TEST_CASE("pull merge path: the starts kept with the matrix are the search's") {
    TROPIC_REQUIRE_GPU();
    // Directed, so that A' has offsets of its own; a hub row, empty rows.
    std::vector<arc_index> lengths(500, 3);
    lengths[7] = 400;
    lengths[8] = lengths[9] = 0;
    const csr<float> g = rows_of_lengths<float>(500, lengths, 12);
    cuda_stream stream;
    device_matrix<float> a(g, upload_options{transpose_policy::required}, stream);
    for (const bool transposed : {false, true}) {
      const csr_view<float> v = transposed ? a.transpose_view() : a.view();
      std::vector<arc_index> offsets(v.n + 1);
      TROPIC_CUDA_CHECK(cudaMemcpy(offsets.data(), v.row_offsets,
                                   offsets.size() * sizeof(arc_index), cudaMemcpyDeviceToHost));
      for (const arc_index run : {arc_index(1), arc_index(2), arc_index(97), arc_index(1000),
                                  arc_index(v.n) + v.arcs, arc_index(5000)}) {
        CAPTURE(transposed);
        CAPTURE(run);
        const vertex* kept = merge_path_starts(v, run);
        REQUIRE(kept != nullptr);
        CHECK(merge_path_starts(v, run) == kept);  // built once
        const std::size_t count = std::size_t((arc_index(v.n) + v.arcs + run - 1) / run);
        std::vector<vertex> got(count);
        TROPIC_CUDA_CHECK(
            cudaMemcpy(got.data(), kept, count * sizeof(vertex), cudaMemcpyDeviceToHost));
        for (std::size_t k = 0; k < count; ++k) {
          // The rows that end before path position k · run.
          vertex want = 0;
          while (want < v.n && arc_index(want) + offsets[want + 1] < arc_index(k) * run) ++want;
          if (got[k] != want) {
            CAPTURE(k);
            CHECK(got[k] == want);
            break;
          }
        }
      }
    }
    // A window of the rows, or a run of 0: nothing kept.
    csr_view<float> window = a.view();
    window.n -= 1;
    CHECK(merge_path_starts(window, 64) == nullptr);
    window = a.view();
    window.row_offsets += 1;
    CHECK(merge_path_starts(window, 64) == nullptr);
    CHECK(merge_path_starts(a.view(), 0) == nullptr);
    // A view taken before the matrix moves keeps its starts.
    const csr_view<float> before = a.view();
    const vertex* kept = merge_path_starts(before, 97);
    device_matrix<float> moved(std::move(a));
    CHECK(merge_path_starts(before, 97) == kept);
    CHECK(merge_path_starts(moved.view(), 97) == kept);
  }

  TEST_CASE_TEMPLATE("pull merge path: split rows, tiny tiles and blocks (min-plus)", W,
                     std::uint32_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    check_all_shapes<min_plus<W>, true>();
  }

  TEST_CASE_TEMPLATE("pull merge path: split rows, tiny tiles and blocks (plus-times)", W, float,
                     double) {
    TROPIC_REQUIRE_GPU();
    check_all_shapes<plus_times<W>, false>();
  }
}
