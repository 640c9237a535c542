// The random-input harness: every operator of semiring/tropic/operators.hpp and device_loop.hpp
// against its naive host spec (test/support/operator_spec.hpp), on many random graphs and
// vectors, in every weight type (min-plus) and in float and double (plus-times). Integers and
// min-plus (each value one path's sum) compare exactly, plus-times sums in floating point within
// 1e-5 (their order is the GPU's).
//   vxm: push by every load balance, pull by every kernel, the automatic direction; mxv by every
//   kernel; select by range and by pattern, select_reduce_min, reduce_min, gather, append;
//   assign (masked scalar, sparse), apply, ewise_add, ewise_mult; reduce (dense, sparse), nvals;
//   vxm_closure; mxm (push, pull, automatic; min-plus and plus-times) and the column operators of
//   tropic/mxm.hpp (test/support/mxm_checks.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu_test.hpp"
#include "mxm_checks.hpp"
#include "operator_checks.hpp"
#include "operator_spec.hpp"
#include "test_helpers.hpp"
#include "tropic/device_loop.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"
#include "tropic/tuning.hpp"

using namespace tropic;
using namespace tropic::testing;

namespace {

// f(g, seed) over the random test graphs (every shape of random_graphs.hpp, up to hundreds of
// vertices) and a few graphs of thousands, whose pushes and pulls span many blocks: a Kronecker
// graph (hubs), a directed uniform graph, a grid, a star of 3,000 leaves.
template <class W, class F>
void for_each_spec_graph(std::size_t random_graphs, std::uint64_t base_seed, F&& f) {
  for (const auto& c : test_graph_cases(random_graphs, base_seed)) {
    CAPTURE(c.name());
    f(c.graph<W>(), c.seed);
  }
  for (const char* spec : {"kron:11:8", "uniform:4000:6", "grid:50:40"}) {
    CAPTURE(spec);
    f(generate<W>(spec, base_seed), base_seed + 1);
  }
  INFO("star of 3000 leaves");
  f(star<W>(3000, base_seed), base_seed + 2);
}

constexpr load_balance every_balance[] = {load_balance::automatic, load_balance::merge_path,
                                          load_balance::warp_per_row, load_balance::edge_wise};
constexpr pull_method every_pull[] = {pull_method::automatic, pull_method::merge_path,
                                      pull_method::group_per_row, pull_method::live_rows};

// Indices and values of a sparse vector, sorted by index (for operators whose order is open).
template <class W>
std::vector<std::pair<vertex, W>> sorted_entries(const sparse_vector<W>& s) {
  const std::vector<vertex> idx = s.indices_to_host();
  const std::vector<W> val = s.values_to_host();
  std::vector<std::pair<vertex, W>> e(idx.size());
  for (std::size_t k = 0; k < e.size(); ++k) e[k] = {idx[k], val[k]};
  std::sort(e.begin(), e.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return e;
}

// The entries a selection of `in` must hold: each listed index with its value in `in`.
template <class W>
std::vector<std::pair<vertex, W>> entries_of(const std::vector<vertex>& idx,
                                             const std::vector<W>& in) {
  std::vector<std::pair<vertex, W>> e;
  for (vertex i : idx) e.push_back({i, in[i]});
  return e;
}

// A random range [lo, hi): mostly inside the values' span, sometimes open above, sometimes empty.
template <class W>
value_range<W> random_range(test_rng& rng) {
  const W lo = W(rng.between(0, 40));
  if (rng.chance(0.2)) return {lo, infinity<W>()};
  if (rng.chance(0.1)) return {lo, lo};
  return {lo, W(lo + rng.between(1, 40))};
}

// A mask over n entries of random kind and complement; its values live in `m`.
template <class W>
struct random_mask {
  mask_kind kind;
  bool complement;
  std::vector<W> m;
  random_mask(test_rng& rng, vertex n)
      : kind(static_cast<mask_kind>(rng.below(3))),
        complement(rng.chance(0.3)),
        m(random_dense<W>(rng, n, 0.3)) {
    if (rng.chance(0.15)) std::fill(m.begin(), m.end(), W(1));
    if (rng.chance(0.15)) std::fill(m.begin(), m.end(), infinity<W>());
  }
  mask_view<W> view(const dense_vector<W>& values) const {
    return {kind == mask_kind::none ? nullptr : values.data(), kind, complement};
  }
};

// A worklist over n vertices: up to n entries with repeats, drawn from a few hot indices and the
// rest (Near-Far's far pile).
inline std::vector<vertex> random_worklist(test_rng& rng, vertex n) {
  std::vector<vertex> list(rng.below(std::size_t(n) + 1));
  const vertex hot = vertex(rng.between(1, std::min<vertex>(n, 20)));
  for (auto& i : list) i = vertex(rng.chance(0.4) ? rng.below(hot) : rng.below(n));
  return list;
}

// select by range, select_reduce_min, reduce_min; select by a pattern that repeats indices,
// gather over it, reduce over a selection, append within and beyond the capacity.
template <class W>
void check_selections(std::uint64_t seed) {
  test_rng rng(seed);
  cuda_stream stream;
  gpu_context ctx(stream);
  const vertex n = vertex(rng.chance(0.2) ? rng.between(1, 5) : rng.between(6, 5000));
  const std::vector<W> x = random_dense<W>(rng, n, 0.3);
  dense_vector<W> dx(n, stream);
  dx.upload(x);
  const value_range<W> r = random_range<W>(rng);
  CAPTURE(n);
  CAPTURE(double(r.lo));
  CAPTURE(double(r.hi));

  sparse_vector<W> s(n, stream);
  select(s, dx, r, ctx);
  CHECK(sorted_entries(s) == entries_of(spec::select(x, r), x));
  CHECK(reduce_min(dx, r, ctx) == spec::reduce_min(x, r));

  // The next bucket and the least value of another range in one round trip.
  const value_range<W> least_range = random_range<W>(rng);
  sparse_vector<W> next(n, stream);
  const std::uint64_t trips = ctx.round_trips;
  const W least = select_reduce_min(next, dx, r, least_range, ctx);
  CHECK(ctx.round_trips == trips + 1);
  CHECK(least == spec::reduce_min(x, least_range));
  CHECK(sorted_entries(next) == entries_of(spec::select(x, r), x));

  // By a pattern: each listed index once, in any order.
  const std::vector<vertex> pattern = random_worklist(rng, n);
  CAPTURE(pattern.size());
  sparse_vector<W> p(n, stream), listed(n, stream);
  p.upload(pattern, std::vector<W>(pattern.size(), W(1)));
  select(listed, dx, p, r, ctx);
  const std::vector<vertex> want_listed = spec::select(x, pattern, r);
  CHECK(sorted_entries(listed) == entries_of(want_listed, x));
  if (pattern.size() >= 2 && n >= 2) {  // an output too small for what may be selected
    sparse_vector<W> small(vertex(std::min<std::size_t>(pattern.size(), n) - 1), stream);
    CHECK_THROWS_AS(select(small, dx, p, r, ctx), error);
  }

  // gather keeps the pattern's order and repeats (the implementation's; the header says "the
  // values of in at the indices of pattern").
  sparse_vector<W> gathered(n, stream);
  gather(gathered, dx, p, ctx);
  CHECK(gathered.indices_to_host() == pattern);
  CHECK(gathered.values_to_host() == spec::gather(x, pattern));

  // reduce over a sparse vector: the selection's least value (min-plus), ∞ when it is empty.
  CHECK(reduce(min_plus<W>{}, listed, ctx) ==
        spec::reduce<min_plus<W>>(spec::gather(x, want_listed)));

  // append: the pattern after the selection, as it is (repeats kept), within the capacity n;
  // beyond it an error that leaves w as it was.
  const std::size_t before = listed.nvals();
  const std::vector<vertex> before_idx = listed.indices_to_host();
  if (before + pattern.size() <= n) {
    append(listed, p, ctx);
    std::vector<vertex> want = before_idx;
    want.insert(want.end(), pattern.begin(), pattern.end());
    CHECK(listed.indices_to_host() == want);
    const std::vector<W> values = listed.values_to_host();
    CHECK(std::vector<W>(values.begin() + std::ptrdiff_t(before), values.end()) ==
          std::vector<W>(pattern.size(), W(1)));
  } else {
    CHECK_THROWS_AS(append(listed, p, ctx), error);
    CHECK(listed.nvals() == before);
    CHECK(listed.indices_to_host() == before_idx);
  }
  sparse_vector<W> empty(n, stream);
  append(next, empty, ctx);  // nothing to add
  CHECK(sorted_entries(next) == entries_of(spec::select(x, r), x));
}

// assign of a scalar under a random mask (with and without replace) and of a sparse vector of
// distinct indices; apply of every unary operator under a random mask and accumulator.
template <class W>
void check_assign_apply(std::uint64_t seed) {
  test_rng rng(seed);
  cuda_stream stream;
  gpu_context ctx(stream);
  const vertex n = vertex(rng.chance(0.2) ? rng.between(1, 5) : rng.between(6, 5000));
  const std::vector<W> x = random_dense<W>(rng, n, 0.3), w0 = random_dense<W>(rng, n, 0.4);
  const random_mask<W> mask(rng, n);
  dense_vector<W> dx(n, stream), dw(n, stream), dm(n, stream);
  dx.upload(x);
  dm.upload(mask.m);
  CAPTURE(n);
  CAPTURE(int(mask.kind));
  CAPTURE(mask.complement);

  const W value = rng.chance(0.2) ? infinity<W>() : W(rng.between(0, 60));
  const bool replace = rng.chance(0.5);
  CAPTURE(replace);
  dw.upload(w0);
  assign(dw, mask.view(dm), value, replace, ctx);
  std::vector<W> want = w0;
  spec::assign(want, &mask.m, mask.kind, mask.complement, value, replace);
  CHECK(dw.to_host() == want);

  // Distinct indices in random order (the header's "later entries win" on duplicates is not
  // what a parallel scatter promises, so the spec is not asked).
  std::vector<vertex> ui;
  for (vertex i = 0; i < n; ++i)
    if (rng.chance(0.3)) ui.push_back(i);
  tropic::testing::detail::shuffle_ids(ui, rng);
  std::vector<W> uv;
  for (std::size_t k = 0; k < ui.size(); ++k) uv.push_back(random_value<W>(rng, 0.1));
  sparse_vector<W> u(n, stream);
  u.upload(ui, uv);
  dw.upload(w0);
  assign(dw, u, ctx);
  want = w0;
  spec::assign(want, ui, uv);
  CHECK(dw.to_host() == want);

  for (unary_op f :
       {unary_op::identity, unary_op::add_scalar, unary_op::min_scalar, unary_op::max_scalar}) {
    const W scalar = W(rng.between(0, 60));
    const auto accum = static_cast<accumulator>(rng.below(3));
    CAPTURE(int(f));
    CAPTURE(double(scalar));
    CAPTURE(int(accum));
    dw.upload(w0);
    apply(dw, mask.view(dm), accum, f, scalar, dx, ctx);
    want = w0;
    spec::write<min_plus<W>>(want, spec::apply(x, f, scalar), &mask.m, mask.kind, mask.complement,
                             accum, false);
    CHECK(dw.to_host() == want);
  }
}

// ewise_add and ewise_mult under a random mask, with every accumulator.
template <class S, class W = typename S::value_type>
void check_ewise(std::uint64_t seed, bool exact) {
  test_rng rng(seed);
  cuda_stream stream;
  gpu_context ctx(stream);
  const double inf_share = S::is_min_monoid ? 1.0 : 0.0;  // plus-times: 0 is "no entry"
  const vertex n = vertex(rng.chance(0.2) ? rng.between(1, 5) : rng.between(6, 5000));
  const std::vector<W> x = random_dense<W>(rng, n, 0.3 * inf_share),
                       y = random_dense<W>(rng, n, 0.3 * inf_share),
                       w0 = random_dense<W>(rng, n, 0.4 * inf_share);
  dense_vector<W> dx(n, stream), dy(n, stream), dw(n, stream), dm(n, stream);
  dx.upload(x);
  dy.upload(y);
  CAPTURE(n);
  for (int round = 0; round < 4; ++round) {
    const random_mask<W> mask(rng, n);
    dm.upload(mask.m);
    const auto accum = static_cast<accumulator>(rng.below(3));
    CAPTURE(round);
    CAPTURE(int(mask.kind));
    CAPTURE(mask.complement);
    CAPTURE(int(accum));
    dw.upload(w0);
    ewise_add(dw, mask.view(dm), accum, S{}, dx, dy, ctx);
    std::vector<W> want = w0;
    spec::write<S>(want, spec::ewise_add<S>(x, y), &mask.m, mask.kind, mask.complement, accum,
                   false);
    check_same_vector(dw.to_host(), want, exact);
    dw.upload(w0);
    ewise_mult(dw, mask.view(dm), accum, S{}, dx, dy, ctx);
    want = w0;
    spec::write<S>(want, spec::ewise_mult<S>(x, y), &mask.m, mask.kind, mask.complement, accum,
                   false);
    check_same_vector(dw.to_host(), want, exact);
  }
}

// reduce over a dense vector and over a sparse one (a selection of it, or nothing), and nvals.
template <class S, class W = typename S::value_type>
void check_reduce(std::uint64_t seed, bool exact) {
  test_rng rng(seed);
  cuda_stream stream;
  gpu_context ctx(stream);
  const double inf_share = S::is_min_monoid ? 1.0 : 0.0;
  const vertex n = vertex(rng.chance(0.2) ? rng.between(1, 5) : rng.between(6, 20000));
  std::vector<W> x = random_dense<W>(rng, n, 0.3 * inf_share);
  if (rng.chance(0.1)) std::fill(x.begin(), x.end(), S::identity());  // no entry at all
  dense_vector<W> dx(n, stream);
  dx.upload(x);
  CAPTURE(n);
  CHECK(same(reduce(S{}, dx, ctx), spec::reduce<S>(x), exact));
  if (S::is_min_monoid) CHECK(nvals(dx, ctx) == spec::nvals(x));
  std::vector<vertex> ui;
  for (vertex i = 0; i < n; ++i)
    if (rng.chance(0.3)) ui.push_back(i);
  if (rng.chance(0.1)) ui.clear();
  sparse_vector<W> u(n, stream);
  u.upload(ui, spec::gather(x, ui));
  CHECK(same(reduce(S{}, u, ctx), spec::reduce<S>(spec::gather(x, ui)), exact));
}

unsigned long long length_of(const device_worklist& list, cudaStream_t stream) {
  unsigned long long count = 0;
  TROPIC_CUDA_CHECK(
      cudaMemcpyAsync(&count, list.count(), sizeof count, cudaMemcpyDeviceToHost, stream));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  return count;
}

// vxm_closure from random starts: w0 random (some ∞), the range [lo, hi) random, B the indices
// whose w0 is in the range (as delta-stepping's select makes it) or a random part of them; the
// closure's limits drawn from their whole span. Both worklists end empty.
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
    TROPIC_CUDA_CHECK(
        cudaMemcpyAsync(B.count(), &size, sizeof size, cudaMemcpyHostToDevice, stream));
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

    check_same_vector(w.to_host(), spec::vxm_closure(g, w0, frontier, part, delta, range), true);
    CHECK(length_of(B, stream) == 0);
    CHECK(length_of(spare, stream) == 0);
  }
}

}  // namespace

TEST_SUITE("operators") {
  TEST_CASE_TEMPLATE("spec: min-plus vxm push, every load balance", W, std::uint32_t, std::int32_t,
                     std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (load_balance balance : every_balance) {
      CAPTURE(int(balance));
      vxm_choice choice;
      choice.dir = direction::push;
      choice.balance = balance;
      choice.rounds = 6;
      choice.mxv = false;
      for_each_spec_graph<W>(16, 700, [&](const csr<W>& g, std::uint64_t seed) {
        check_vxm_mxv<min_plus<W>>(g, seed, true, choice);
      });
    }
  }

  TEST_CASE_TEMPLATE("spec: min-plus vxm and mxv pull, every kernel", W, std::uint32_t,
                     std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (pull_method method : every_pull) {
      CAPTURE(int(method));
      vxm_choice choice;
      choice.dir = direction::pull;
      choice.pull = method;
      choice.rounds = 6;
      for_each_spec_graph<W>(16, 800, [&](const csr<W>& g, std::uint64_t seed) {
        check_vxm_mxv<min_plus<W>>(g, seed, true, choice);
      });
    }
  }

  TEST_CASE_TEMPLATE("spec: min-plus vxm and mxv, the automatic direction", W, std::uint32_t,
                     std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    vxm_choice choice;
    choice.dir = direction::automatic;
    for_each_spec_graph<W>(24, 900, [&](const csr<W>& g, std::uint64_t seed) {
      check_vxm_mxv<min_plus<W>>(g, seed, true, choice);
    });
  }

  TEST_CASE_TEMPLATE("spec: plus-times vxm and mxv, every direction and kernel", W, float, double) {
    TROPIC_REQUIRE_GPU();
    for_each_spec_graph<W>(24, 1000, [&](const csr<W>& g, std::uint64_t seed) {
      check_vxm_mxv<plus_times<W>>(g, seed, false);
    });
  }

  TEST_CASE_TEMPLATE("spec: select, gather, append, select_reduce_min, reduce_min", W,
                     std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      CAPTURE(seed);
      check_selections<W>(seed);
    }
  }

  TEST_CASE_TEMPLATE("spec: assign (masked scalar, sparse) and apply", W, std::uint32_t,
                     std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
      CAPTURE(seed);
      check_assign_apply<W>(seed);
    }
  }

  TEST_CASE_TEMPLATE("spec: ewise_add and ewise_mult", W, std::uint32_t, std::int32_t,
                     std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      CAPTURE(seed);
      check_ewise<min_plus<W>>(seed, true);
      if constexpr (std::is_floating_point_v<W>) check_ewise<plus_times<W>>(seed, false);
    }
  }

  TEST_CASE_TEMPLATE("spec: reduce (dense, sparse) and nvals", W, std::uint32_t, std::int32_t,
                     std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      CAPTURE(seed);
      check_reduce<min_plus<W>>(seed, true);
      if constexpr (std::is_floating_point_v<W>) check_reduce<plus_times<W>>(seed, false);
    }
  }

  TEST_CASE_TEMPLATE("spec: vxm_closure, a bucket's light loop as one operator", W, std::uint32_t,
                     std::int32_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : test_graph_cases(18, 4100)) {
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

  TEST_CASE_TEMPLATE("spec: min-plus mxm push and pull, every k", W, std::uint32_t, std::int32_t,
                     std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (direction dir : {direction::push, direction::pull, direction::automatic}) {
      CAPTURE(int(dir));
      for_each_spec_graph<W>(12, 1100, [&](const csr<W>& g, std::uint64_t seed) {
        check_mxm<min_plus<W>>(g, seed, true, dir, 4);
      });
    }
  }

  TEST_CASE_TEMPLATE("spec: plus-times mxm, every direction", W, float, double) {
    TROPIC_REQUIRE_GPU();
    for_each_spec_graph<W>(12, 1200, [&](const csr<W>& g, std::uint64_t seed) {
      check_mxm<plus_times<W>>(g, seed, false, std::nullopt, 6);
    });
  }

  TEST_CASE_TEMPLATE("spec: select_columns, gather_columns, assign, select, to_row_major", W,
                     std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      CAPTURE(seed);
      check_column_ops<W>(seed);
    }
  }

  TEST_CASE_TEMPLATE("spec: mxm_closure, a batched bucket's light loop", W, std::uint32_t,
                     std::int32_t, std::uint64_t, std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : test_graph_cases(12, 4400)) {
      CAPTURE(c.name());
      check_mxm_closure(c.graph<W>(), c.seed, 4);
    }
    // Hundreds of steps (a grid's wavefront): many rounds of launched steps and rotations.
    INFO("grid 60 x 60");
    check_mxm_closure(generate<W>("grid:60:60", 3), 4500, 3);
  }
}
