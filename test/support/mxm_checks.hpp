// The many-source operators (tropic/mxm.hpp) against their naive host spec (operator_spec.hpp)
// on one graph: rounds of random mxm calls -- k from 1 to 130 (a few lanes per arc, a warp, two
// passes of a pull's lanes), every mask kind, complement, replace, accumulator and row part, U of
// no column, one, a tenth or every column -- each compared with spec::mxm and spec::write, the
// improved columns with spec::improved_columns; the column selections, gathers, assigns and the
// transpose of a batched bucket loop; mxm_closure against vxm_closure's spec, row by row.
// test/semiring/test_operator_spec.cu runs them over many graphs and every weight type. GPU
// builds.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "operator_checks.hpp"
#include "operator_spec.hpp"
#include "random_graphs.hpp"
#include "test_helpers.hpp"
#include "tropic/device_loop.hpp"
#include "tropic/mxm.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

namespace tropic::testing {

inline std::size_t random_k(test_rng& rng) {
  constexpr std::size_t ks[] = {1, 2, 3, 8, 9, 33, 64, 130};
  return ks[rng.below(sizeof ks / sizeof ks[0])];
}

// U's columns: none, one, a tenth or every column, each at most once, in random order.
inline std::vector<vertex> random_columns(test_rng& rng, vertex n) {
  const int shape = int(rng.below(4));
  std::vector<vertex> columns;
  if (shape == 1 && n > 0) columns.push_back(vertex(rng.below(n)));
  for (vertex v = 0; v < n && shape >= 2; ++v)
    if (shape == 3 || rng.chance(0.1)) columns.push_back(v);
  tropic::testing::detail::shuffle_ids(columns, rng);
  return columns;
}

template <class S, class W = typename S::value_type>
void check_mxm(const csr<W>& g, std::uint64_t seed, bool exact, std::optional<direction> dir,
               int rounds) {
  test_rng rng(seed);
  const double inf_share = S::is_min_monoid ? 1.0 : 0.0;  // plus-times: 0 is "no entry"
  cuda_stream stream;
  gpu_context ctx(stream);
  device_matrix<W> a(g, upload_options{transpose_policy::required}, stream);
  const vertex n = g.n;
  const double delta = double(rng.between(0, 40));
  light_heavy_split<W> split(a, delta, ctx);
  const W wdelta = spec::split_point<W>(delta);
  for (int round = 0; round < rounds; ++round) {
    const std::size_t k = random_k(rng);
    const auto mask = static_cast<mask_kind>(rng.below(3));
    const bool complement = rng.chance(0.3);
    const accumulator accum = random_accumulator<S>(rng);
    const auto part = static_cast<row_part>(rng.below(3));
    descriptor d;
    d.replace = rng.chance(0.3);
    d.dir = dir ? *dir : static_cast<direction>(rng.below(3));
    if (d.dir == direction::automatic) d.pull_ratio = unsigned(rng.between(1, 64));
    // A product may list a column on its way below the range's lower end (tropic/mxm.hpp):
    // ranges start at 0.
    const value_range<W> range{W(0), rng.chance(0.2) ? infinity<W>() : W(rng.between(1, 90))};
    const std::vector<vertex> uc = random_columns(rng, n);
    std::vector<W> uv(uc.size() * k);
    for (auto& x : uv) x = random_value<W>(rng, 0.3 * inf_share);
    const std::vector<W> w0 = random_dense<W>(rng, vertex(k * n), 0.4 * inf_share);
    std::vector<W> m = random_dense<W>(rng, vertex(k * n), 0.3);
    if (rng.chance(0.15)) std::fill(m.begin(), m.end(), W(1));
    if (rng.chance(0.15)) std::fill(m.begin(), m.end(), infinity<W>());
    CAPTURE(round);
    CAPTURE(k);
    CAPTURE(int(mask));
    CAPTURE(complement);
    CAPTURE(d.replace);
    CAPTURE(int(accum));
    CAPTURE(int(part));
    CAPTURE(int(d.dir));
    CAPTURE(d.pull_ratio);
    CAPTURE(uc.size());

    dense_matrix<W> c(k, n, stream), mask_values(k, n, stream);
    c.upload(w0);
    mask_values.upload(m);
    column_matrix<W> u(k, n, stream);
    u.upload(uc, uv);
    sparse_vector<W> improved(n, stream);
    const matrix_mask<W> mv{mask == mask_kind::none ? nullptr : mask_values.data(), mask,
                            complement};
    const bool track = accum == accumulator::min && S::is_min_monoid;
    mxm(c, mv, accum, S{}, u, matrix_operand<W>{&a, part, &split}, d, ctx,
        track ? &improved : nullptr, range);
    std::vector<W> want = w0;
    spec::write<S>(want, spec::mxm<S>(g, k, uc, uv, part, wdelta), &m, mask, complement, accum,
                   d.replace);
    check_same_vector(c.to_host(), want, exact);
    if (track) {
      std::vector<vertex> listed = improved.indices_to_host();
      std::sort(listed.begin(), listed.end());
      CHECK(listed == spec::improved_columns(w0, want, k, n, range));
    }
  }
}

// select_columns with the least entry of another range in one round trip, gather_columns,
// assign and assign_rows, select in place, to_row_major.
template <class W>
void check_column_ops(std::uint64_t seed) {
  test_rng rng(seed);
  cuda_stream stream;
  gpu_context ctx(stream);
  const std::size_t k = random_k(rng);
  const vertex n = vertex(rng.chance(0.2) ? rng.between(1, 5) : rng.between(6, 3000));
  const std::vector<W> x = random_dense<W>(rng, vertex(k * n), 0.5);
  dense_matrix<W> dx(k, n, stream);
  dx.upload(x);
  const W lo = W(rng.between(0, 40));
  const value_range<W> r{lo, rng.chance(0.2) ? infinity<W>() : W(lo + rng.between(0, 20))};
  const value_range<W> least_range{W(rng.between(0, 60)), infinity<W>()};
  CAPTURE(k);
  CAPTURE(n);
  CAPTURE(double(r.lo));
  CAPTURE(double(r.hi));
  CAPTURE(double(least_range.lo));

  sparse_vector<W> columns(n, stream);
  const std::uint64_t trips = ctx.round_trips;
  const W least = select_columns(columns, dx, r, least_range, ctx);
  CHECK(ctx.round_trips == trips + 1);
  CHECK(least == spec::reduce_min(x, least_range));
  std::vector<vertex> listed = columns.indices_to_host();
  std::sort(listed.begin(), listed.end());
  const std::vector<vertex> want = spec::select_columns(x, k, n, r);
  CHECK(listed == want);

  // gather_columns over the selection in its (device) order.
  const std::vector<vertex> order = columns.indices_to_host();
  column_matrix<W> u(k, n, stream);
  const std::size_t kept = gather_columns(u, dx, columns, r, ctx);
  const std::vector<W> gathered = spec::gather_columns(x, k, n, order, r);
  CHECK(u.ncols() == order.size());
  CHECK(u.indices_to_host() == order);
  CHECK(u.values_to_host() == gathered);
  CHECK(kept == std::size_t(std::count_if(gathered.begin(), gathered.end(),
                                          [](W y) { return y != infinity<W>(); })));

  // to_row_major: the device's transpose is the host's row-major copy.
  device_buffer<W> rows(k * n, stream);
  to_row_major(rows.data(), dx, ctx);
  CHECK(rows.to_host() == x);

  // select in place: entries outside the range become infinity.
  select(dx, r, ctx);
  std::vector<W> inside = x;
  for (auto& y : inside)
    if (!spec::in_range(y, r)) y = infinity<W>();
  CHECK(dx.to_host() == inside);

  // assign everywhere, then one entry per row (sources may repeat a column).
  const W value = W(rng.between(0, 60));
  assign(dx, value, ctx);
  std::vector<vertex> starts(k);
  for (auto& v : starts) v = vertex(rng.below(std::min<vertex>(n, 3)));
  device_buffer<vertex> dstarts(k, stream);
  dstarts.upload(starts.data(), k);
  assign_rows(dx, dstarts.data(), W(0), ctx);
  std::vector<W> assigned(k * n, value);
  for (std::size_t s = 0; s < k; ++s) assigned[s * n + starts[s]] = W(0);
  CHECK(dx.to_host() == assigned);
}

// mxm_closure from random starts: C random (half ∞), the range random, the listed columns every
// column with an entry in the range (its precondition), or those with columns of nothing in range
// added; each row's fixed point is vxm_closure's spec from that row's entries in the range.
// Both worklists end empty.
template <class W>
void check_mxm_closure(const csr<W>& g, std::uint64_t seed, int rounds) {
  test_rng rng(seed);
  cuda_stream stream;
  gpu_context ctx(stream);
  device_matrix<W> a(g, upload_options{}, stream);
  const vertex n = g.n;
  const W delta = W(rng.between(0, 40));
  light_heavy_split<W> split(a, double(delta), ctx);
  device_worklist in(n, stream), spare(n, stream);
  auto length = [&](const device_worklist& list) {
    unsigned long long count = 0;
    TROPIC_CUDA_CHECK(
        cudaMemcpyAsync(&count, list.count(), sizeof count, cudaMemcpyDeviceToHost, stream));
    TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
    return count;
  };
  for (int round = 0; round < rounds; ++round) {
    const std::size_t k = random_k(rng);
    const auto part = static_cast<row_part>(rng.below(3));
    const W lo = W(rng.between(0, 30));
    const value_range<W> range{lo, rng.chance(0.2) ? infinity<W>() : W(lo + rng.between(1, 200))};
    std::vector<W> w0(k * n);
    for (auto& x : w0) x = rng.chance(0.5) ? infinity<W>() : W(rng.between(0, 120));
    const bool extras = rng.chance(0.5);  // columns with nothing in range listed too
    std::vector<vertex> columns;
    for (vertex v = 0; v < n; ++v) {
      bool hit = false;
      for (std::size_t s = 0; s < k; ++s) hit = hit || spec::in_range(w0[s * n + v], range);
      if (hit || (extras && rng.chance(0.2))) columns.push_back(v);
    }
    CAPTURE(round);
    CAPTURE(k);
    CAPTURE(int(part));
    CAPTURE(double(range.lo));
    CAPTURE(double(range.hi));
    CAPTURE(columns.size());
    dense_matrix<W> c(k, n, stream);
    c.upload(w0);
    if (!columns.empty())
      TROPIC_CUDA_CHECK(cudaMemcpyAsync(in.indices(), columns.data(),
                                        columns.size() * sizeof(vertex), cudaMemcpyHostToDevice,
                                        stream));
    const unsigned long long size = columns.size();
    TROPIC_CUDA_CHECK(
        cudaMemcpyAsync(in.count(), &size, sizeof size, cudaMemcpyHostToDevice, stream));
    const std::uint64_t steps =
        mxm_closure(c, min_plus<W>{}, in, matrix_operand<W>{&a, part, &split}, ctx, spare, range);
    CHECK(steps >= 1);
    std::vector<W> want(k * n);
    for (std::size_t s = 0; s < k; ++s) {
      const std::vector<W> row(w0.begin() + std::ptrdiff_t(s * n),
                               w0.begin() + std::ptrdiff_t((s + 1) * n));
      std::vector<vertex> frontier;
      for (vertex v : columns)
        if (spec::in_range(row[v], range)) frontier.push_back(v);
      const std::vector<W> done = spec::vxm_closure(g, row, frontier, part, delta, range);
      std::copy(done.begin(), done.end(), want.begin() + std::ptrdiff_t(s * n));
    }
    check_same_vector(c.to_host(), want, true);
    CHECK(length(in) == 0);
    CHECK(length(spare) == 0);
  }
}

}  // namespace tropic::testing
