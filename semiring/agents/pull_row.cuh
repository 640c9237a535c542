// Per-row agents of the pull kernels: a row's bound (the floor, arc by arc), one lane's share of
// a row (pull_arcs), and the write that finishes a row (pull_write).
#pragma once

#include "../detail/args.cuh"

namespace tropic::detail {

// The write of one pulled row: w(i) = accum(w(i), acc), listing i when it improved into range.
// A pull finishes each row exactly once per call (in its tile, or in pull_fixup), so the list
// takes i without the stamp that a push's arcs into one target need: one atomic exchange fewer
// per improved row (bench/results/h100-run12/sweeps/
// ab-2-arc-rule-and-stampless-pull.txt).
template <class S, class W>
__device__ __forceinline__ void pull_write(W* w, vertex i, W acc, accumulator accum,
                                           vertex* improved, unsigned long long* improved_count,
                                           const value_range<W>& range) {
  if (accum == accumulator::none && !improved) {  // w(i) = T(i): no need to read w(i)
    w[i] = acc;
    return;
  }
  const W old = w[i];
  W now;
  if (accum == accumulator::none) now = acc;
  else if (accum == accumulator::min) now = acc < old ? acc : old;
  else now = acc == S::identity() ? old : (old == S::identity() ? acc : old + acc);
  if (now != old) w[i] = now;  // most rows of a min-accumulated pull keep their value
  if (improved && now < old && in_range(now, range))
    improved[append_slot(improved_count)] = i;
}

// The floor of one row, arc by arc. A row's arcs are sorted by weight (csr_view's contract) and
// ⊗ grows with the weight, so once an arc's least_input ⊗ weight reaches w(i), neither it nor any
// later arc can improve w(i): a pull reads the row's prefix up to there (the bottom-up step's
// early exit of direction-optimising BFS, by weight; bench/tune/pull_bound_model.cpp models it,
// bench/results/h100-run23/sweeps/ab-1-row-bound.txt measures it).
template <class S, class W>
struct row_bound {
  W least;  // min_j u(j)
  W limit;  // w(i)
  bool on;  // a floored pull; otherwise every arc is read
  __device__ __forceinline__ bool keeps(W weight) const {
    return !on || S::mul(least, weight) < limit;
  }
};
template <class S, class W>
__device__ __forceinline__ row_bound<S, W> bound_of(const pull_floor<W>& floor, W least,
                                                    W current) {
  return {least, current, floor.least_input != nullptr};
}
// Whether row i may change, from the view's lightest weights (csr_view::row_least, read beside
// w(i)): a row whose lightest arc lies past its bound -- an empty row too -- reads nothing more.
// The row's lightest arc is at most its part's, so the test holds for a light or heavy part
// (bench/results/h100-run24/sweeps/ab-1-rowleast.txt).
template <class S, class W>
__device__ __forceinline__ bool opens(const csr_view<W>& a, const row_bound<S, W>& bound,
                                      vertex i) {
  return !bound.on || !a.row_least || bound.keeps(a.row_least[i]);
}

// One lane's share of a row's pull: its ⊕ so far, the arcs it loaded (the statistics' arcs
// scanned), and whether one of them lay past the row's bound (row_bound: so do the row's later
// arcs, and the lane stops).
template <class W>
struct lane_pull {
  W acc;
  unsigned long long read = 0;
  bool past_bound = false;
};

// ⊕ of u(col) ⊗ weight over the arcs first + k * stride < last, k < Items, within the row's
// bound: the loads first, then the gathers of u (Items independent chains in flight per thread).
// With a bound the weights come first and only the arcs within it load their columns (most arcs
// of a late pull lie past it; bench/results/h100-run23/sweeps/ab-3-wfirst.txt);
// without one the columns load beside the weights.
template <class S, class W, unsigned Items>
__device__ __forceinline__ void pull_arcs(const csr_view<W>& a, const W* u, arc_index first,
                                          arc_index last, arc_index stride,
                                          const row_bound<S, W>& bound, lane_pull<W>& p) {
  vertex col[Items];
  W weight[Items];
  bool kept[Items];
  if (bound.on) {
#pragma unroll
    for (unsigned c = 0; c < Items; ++c) {
      kept[c] = first + stride * c < last;
      if (kept[c]) {
        weight[c] = read_once(a.weights + first + stride * c);
        ++p.read;
      }
    }
#pragma unroll
    for (unsigned c = 0; c < Items; ++c)
      if (kept[c] && !bound.keeps(weight[c])) {
        kept[c] = false;
        p.past_bound = true;
      }
#pragma unroll
    for (unsigned c = 0; c < Items; ++c)
      if (kept[c]) col[c] = read_once(a.columns + first + stride * c);
  } else {
#pragma unroll
    for (unsigned c = 0; c < Items; ++c) {
      kept[c] = first + stride * c < last;
      if (kept[c]) {
        col[c] = read_once(a.columns + first + stride * c);
        weight[c] = read_once(a.weights + first + stride * c);
        ++p.read;
      }
    }
  }
#pragma unroll
  for (unsigned c = 0; c < Items; ++c)
    if (kept[c]) {
      const W x = u[col[c]];
      if (x != S::identity()) p.acc = S::add(p.acc, S::mul(x, weight[c]));
    }
}

}  // namespace tropic::detail
