// Near-Far (Davidson, Baxter, Garland & Owens, "Work-Efficient Parallel GPU Methods for
// Single-Source Shortest Paths", IPDPS 2014, section IV-C), written on the min-plus operators.
//
// Work is split by a moving threshold: the near set holds updated vertices below it, the far pile
// every updated vertex at or above it. The near set is relaxed until it is empty; then the window
// moves up by Δ (default 32·w̄/d̄, the paper's heuristic) and the far pile is split into a new near
// set and the rest. The far pile is only appended to while the near set has work, and read when
// it runs out, as in the paper:
//
//   t = ∞; t[s] = 0; near = {s}; far = ∅; window [lo, hi) = [0, Δ)
//   loop:
//     while near ≠ ∅:
//       t = min(t, A' min.+ near);  I = { v : t[v] decreased }         # push, each v once
//       near = { v ∈ I : t[v] < hi };  far = far ++ { v ∈ I : t[v] >= hi }
//     if far = ∅: done
//     [lo, hi) = [hi, hi + Δ)
//     near = { v ∈ far : lo <= t[v] < hi };  far = { v ∈ far : t[v] >= hi }
//
// The split drops stale entries (t[v] < lo: v improved again after it was piled and was relaxed
// from the near set since) and repeats (a vertex piled by several sweeps): the select over a
// listed pattern keeps each index once. That is the paper's "compact all duplicates" step.
//
// Differences from the paper, and why:
//  - Empty windows are skipped: when the split leaves the near set empty, the window restarts at
//    the far pile's minimum (one reduce over the pile), instead of stepping by Δ until it reaches
//    it -- with large weights and a small Δ that would be millions of empty steps.
//  - The pile is a buffer of n entries. Appends that would overflow it (a pile full of repeats)
//    rebuild it from t in one pass instead: { v : t[v] >= hi, finite } is exactly the pile's valid
//    content, since a vertex relaxed from a near set has t < hi for every later hi.
//  - A large near set may be relaxed as a pull over A' (vxm's automatic direction, when the matrix
//    has its transpose); the paper always pushes.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "algebraic_epilogue.cuh"
#include "bucket_bounds.cuh"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {

namespace {

// x + width, saturating at infinity, and always above a finite x: a float width lost in x's
// rounding (or rounded to 0) still moves the window by one representable value.
template <class W>
W advance(W x, W width) {
  const W y = saturating_add(x, width);
  if constexpr (std::is_floating_point_v<W>) {
    if (!(x < y)) return std::nextafter(x, infinity<W>());
  }
  return y;
}

}  // namespace

template <class W>
result<W> near_far_sssp(const device_matrix<W>& A, vertex source, const options& opts) {
  const vertex n = A.rows();
  cuda_stream stream;
  gpu_context ctx(stream);
  const W width = bucket_width<W>(resolve_delta(A, opts));
  const min_plus<W> min_plus_semiring;
  const descriptor desc;  // push (merge-path) for small near sets, pull for large ones
  op_counters counters;
  constexpr W inf = infinity<W>();

  dense_vector<W> t(n, stream);
  sparse_vector<W> near(n, stream), improved(n, stream);
  sparse_vector<W> pile_a(n, stream), pile_b(n, stream);
  sparse_vector<W>* far = &pile_a;    // the far pile
  // The split's output, swapped in; between splits, the improved vertices bound for the far
  // pile. A list of its own for those held 8 B a vertex more, over issue 36's memory budget on
  // road networks (bench/results/h200-run44/NOTES.md).
  sparse_vector<W>* spare = &pile_b;

  result<W> out;
  statistics& st = out.stats;
  st.algorithm = algorithm_name(opts.algorithm);
  st.delta = width == inf ? std::numeric_limits<double>::infinity() : double(width);

  cuda_timer timer(stream);
  // t = ∞; t[s] = 0; near = {s}
  assign(t, no_mask<W>(), inf, false, ctx);
  near.upload({source}, {W(0)});
  assign(t, near, ctx);

  W lo = W(0), hi = width;
  // near = { (v, t[v]) : v ∈ far, lo <= t[v] < hi }; far = { (v, t[v]) : v ∈ far, t[v] >= hi }
  auto split_far_pile = [&] {
    select(near, t, *far, value_range<W>{lo, hi}, ctx);
    select(*spare, t, *far, value_range<W>{hi, inf}, ctx);
    std::swap(far, spare);
  };

  for (;;) {
    if (near.nvals() > 0) ++st.buckets;
    while (near.nvals() > 0) {
      st.vertices_relaxed += near.nvals();
      // t = min(t, A' min.+ near);  I = { v : t[v] decreased } (each v once)
      vxm(t, no_mask<W>(), accumulator::min, min_plus_semiring, near, all_of(A), desc, ctx,
          &improved, value_range<W>{}, &counters);
      ++st.iterations;
      // near = { (v, t[v]) : v ∈ I, t[v] < hi }
      select(near, t, improved, value_range<W>{W(0), hi}, ctx);
      if (improved.nvals() == near.nvals()) continue;  // nothing for the far pile
      // far = far ++ { (v, t[v]) : v ∈ I, t[v] >= hi }
      sparse_vector<W>& far_new = *spare;
      select(far_new, t, improved, value_range<W>{hi, inf}, ctx);
      if (far->nvals() + far_new.nvals() <= far->size())
        append(*far, far_new, ctx);
      else  // far = { (v, t[v]) : hi <= t[v] < ∞ }: the pile's valid content, without repeats
        select(*far, t, value_range<W>{hi, inf}, ctx);
    }
    if (far->nvals() == 0) break;
    // The next window [hi, hi + Δ), filled from the far pile
    lo = hi;
    hi = advance(hi, width);
    split_far_pile();
    if (near.nvals() == 0 && far->nvals() > 0) {
      // Skip empty windows: [lo, hi) = [min{ t[v] : v ∈ far }, that + Δ)
      lo = reduce(min_plus_semiring, *far, ctx);
      hi = advance(lo, width);
      split_far_pile();
    }
  }
  return finish_algebraic_solve(A, t, source, opts, timer, ctx, counters, out);
}

#define TROPIC_INSTANTIATE(W) \
  template result<W> near_far_sssp<W>(const device_matrix<W>&, vertex, const options&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
