// vxm and mxv against the spec (operator_spec.hpp) on one graph: rounds of random operator calls
// -- every mask kind, complement, replace, accumulator and row part, inputs empty, of one entry,
// of a tenth, of every vertex, or (a push) a worklist that repeats indices -- each compared with
// spec::vxm / spec::mxv and spec::write, the improved list with spec::improved. The random-input
// harness (test/semiring/test_operator_spec.cu) runs it over many graphs and every weight type;
// test/semiring/test_operators.cu over graphs of chosen shapes. GPU builds.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "operator_spec.hpp"
#include "test_helpers.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

namespace tropic::testing {

// The first index where two vectors differ (same()), reported as a failed check.
template <class W>
void check_same_vector(const std::vector<W>& got, const std::vector<W>& want, bool exact) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!same(got[i], want[i], exact)) {
      CAPTURE(i);
      CHECK(double(got[i]) == double(want[i]));
      return;
    }
}

// What check_vxm_mxv draws for each call; an empty field is drawn at random each round.
struct vxm_choice {
  std::optional<direction> dir;
  std::optional<load_balance> balance;  // the push's
  std::optional<pull_method> pull;
  int rounds = 12;
  bool mxv = true;  // each round also calls mxv, with the same mask and accumulator
};

// The accumulators a semiring is checked with: none, its monoid's, and min-plus with plus.
// Left out: plus-times with min, whose pull takes min(w, T) where T has no entry (plus-times'
// identity 0) instead of keeping w (semiring/operators.cuh, pull_write).
template <class S>
accumulator random_accumulator(test_rng& rng) {
  const int r = int(rng.below(S::is_min_monoid ? 3 : 2));
  if (r == 0) return accumulator::none;
  if (r == 1) return S::is_min_monoid ? accumulator::min : accumulator::plus;
  return accumulator::plus;
}

template <class S, class W = typename S::value_type>
void check_vxm_mxv(const csr<W>& g, std::uint64_t seed, bool exact, const vxm_choice& choice = {}) {
  test_rng rng(seed);
  // min-plus vectors mix in ∞ ("no entry"); plus-times has 0 for that, and ∞ would make NaNs.
  const double inf_share = S::is_min_monoid ? 1.0 : 0.0;
  cuda_stream stream;
  gpu_context ctx(stream);
  device_matrix<W> a(g, upload_options{transpose_policy::required}, stream);
  a.arc_sources();  // load_balance::edge_wise reads it
  const vertex n = g.n;
  const double delta = double(rng.between(0, 40));
  light_heavy_split<W> split(a, delta, ctx);
  const W wdelta = spec::split_point<W>(delta);

  for (int round = 0; round < choice.rounds; ++round) {
    const auto mask = static_cast<mask_kind>(rng.below(3));
    const bool complement = rng.chance(0.3), replace = rng.chance(0.3);
    const accumulator accum = random_accumulator<S>(rng);
    const auto part = static_cast<row_part>(rng.below(3));
    descriptor d;
    d.replace = replace;
    d.dir = choice.dir ? *choice.dir : static_cast<direction>(rng.below(3));
    d.balance = choice.balance ? *choice.balance : static_cast<load_balance>(rng.below(4));
    d.pull = choice.pull ? *choice.pull : static_cast<pull_method>(rng.below(4));
    if (d.dir == direction::automatic && rng.chance(0.3)) {  // the direction rules at the edges
      d.pull_ratio = unsigned(rng.between(1, 64));
      d.pull_arc_ratio = unsigned(rng.below(5));
    }
    // A push lists an index that a product lowered into the range, and a later one may take it
    // below the lower end (spec::improved): push ranges start at 0.
    const W lo = d.dir == direction::pull ? W(rng.between(0, 30)) : W(0);
    const value_range<W> range{lo, rng.chance(0.2) ? infinity<W>() : W(lo + rng.between(1, 90))};
    CAPTURE(round);
    CAPTURE(int(mask));
    CAPTURE(complement);
    CAPTURE(replace);
    CAPTURE(int(accum));
    CAPTURE(int(part));
    CAPTURE(int(d.dir));
    CAPTURE(int(d.balance));
    CAPTURE(int(d.pull));
    CAPTURE(d.pull_ratio);
    CAPTURE(d.pull_arc_ratio);

    // u: empty, one entry, a tenth, every vertex, or (a push only) a worklist with repeats.
    std::vector<vertex> ui;
    std::vector<W> uv;
    const int shape = int(rng.below(d.dir == direction::push ? 5 : 4));
    CAPTURE(shape);
    if (shape == 4) {
      const std::size_t count = std::size_t(rng.between(1, n));
      for (std::size_t k = 0; k < count; ++k) ui.push_back(vertex(rng.below(n)));
    } else {
      for (vertex i = 0; i < n; ++i)
        if (shape == 3 || (shape == 1 && i == vertex(seed % n)) || (shape == 2 && rng.chance(0.1)))
          ui.push_back(i);
    }
    for (std::size_t k = 0; k < ui.size(); ++k)
      uv.push_back(random_value<W>(rng, 0.05 * inf_share));
    const std::vector<W> w0 = random_dense<W>(rng, n, 0.4 * inf_share);
    // Masks: sometimes everything set, sometimes nothing.
    std::vector<W> m = random_dense<W>(rng, n, 0.3);
    if (rng.chance(0.15)) std::fill(m.begin(), m.end(), W(1));
    if (rng.chance(0.15)) std::fill(m.begin(), m.end(), infinity<W>());

    dense_vector<W> w(n, stream), mask_values(n, stream);
    w.upload(w0);
    mask_values.upload(m);
    sparse_vector<W> u(n, stream), improved(n, stream);
    u.upload(ui, uv);
    const mask_view<W> mv{mask == mask_kind::none ? nullptr : mask_values.data(), mask, complement};
    const matrix_operand<W> op{&a, part, &split};
    const bool track = accum == accumulator::min && S::is_min_monoid;
    const std::uint64_t scanned = ctx.read_arcs_scanned();
    vxm(w, mv, accum, S{}, u, op, d, ctx, track ? &improved : nullptr, range);
    std::vector<W> want = w0;
    spec::write<S>(want, spec::vxm<S>(g, ui, uv, part, wdelta), &m, mask, complement, accum,
                   replace);
    check_same_vector(w.to_host(), want, exact);
    if (track) {
      std::vector<vertex> listed = improved.indices_to_host();
      std::sort(listed.begin(), listed.end());
      CHECK(listed == spec::improved(w0, want, range));  // each index once, sorted here
    }
    // The edge-wise push sweeps every arc once per call with a non-empty input.
    if (d.dir == direction::push && d.balance == load_balance::edge_wise)
      CHECK(ctx.read_arcs_scanned() - scanned == (ui.empty() ? 0 : g.arcs()));
    if (!choice.mxv) continue;

    // mxv (a pull over A's rows) from a dense u, then from the sparse u (no repeated index: a
    // dense u holds one value per vertex, its absent entries the identity; floored by min(u)
    // under the min accumulator), with the same mask and accumulator.
    const std::vector<W> ud = random_dense<W>(rng, n, 0.5 * inf_share);
    const value_range<W> pull_range{W(rng.between(0, 30)), infinity<W>()};
    auto check_mxv = [&](const std::vector<W>& dense_u, auto&& call) {
      w.upload(w0);
      call();
      want = w0;
      spec::write<S>(want, spec::mxv<S>(g, dense_u, part, wdelta), &m, mask, complement, accum,
                     replace);
      check_same_vector(w.to_host(), want, exact);
      if (track) {
        std::vector<vertex> listed = improved.indices_to_host();
        std::sort(listed.begin(), listed.end());
        CHECK(listed == spec::improved(w0, want, pull_range));
      }
    };
    dense_vector<W> udev(n, stream);
    udev.upload(ud);
    check_mxv(ud, [&] {
      mxv(w, mv, accum, S{}, op, udev, d, ctx, track ? &improved : nullptr, pull_range);
    });
    if (shape == 4) continue;
    std::vector<W> us(n, S::identity());
    for (std::size_t k = 0; k < ui.size(); ++k) us[ui[k]] = uv[k];
    check_mxv(us, [&] {
      mxv(w, mv, accum, S{}, op, u, d, ctx, track ? &improved : nullptr, pull_range);
    });
  }
}

}  // namespace tropic::testing
