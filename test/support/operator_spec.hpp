// The naive, obviously-correct GraphBLAS semantics of the device operators (the "spec"
// implementation, after SuiteSparse's test style). Vectors are dense with entries present unless
// they equal the semiring identity, the same encoding the device operators use.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/operators.hpp"

namespace tropic::spec {

template <class W>
bool mask_allows(const std::vector<W>* m, mask_kind kind, bool complement, vertex i) {
  if (kind == mask_kind::none) return true;
  const W x = (*m)[i];
  const bool set = kind == mask_kind::value ? x != W(0) : x != infinity<W>();
  return set != complement;
}

// Arcs of row u in `part` of A for delta: light = w <= delta, heavy = w > delta.
template <class W>
bool in_part(W w, row_part part, W delta) {
  if (part == row_part::all) return true;
  return part == row_part::light ? !(delta < w) : delta < w;
}

// w<mask> = accum(w, T): the GraphBLAS write rule.
template <class S, class W>
void write(std::vector<W>& w, const std::vector<std::optional<W>>& t, const std::vector<W>* m,
           mask_kind kind, bool complement, accumulator accum, bool replace) {
  for (std::size_t i = 0; i < w.size(); ++i) {
    const bool present = w[i] != S::identity();
    std::optional<W> z;
    if (accum == accumulator::none) {
      z = t[i];
    } else if (present && t[i]) {
      z = accum == accumulator::min ? std::min(w[i], *t[i]) : W(w[i] + *t[i]);
    } else if (present) {
      z = w[i];
    } else {
      z = t[i];
    }
    if (mask_allows(m, kind, complement, vertex(i))) w[i] = z ? *z : S::identity();
    else if (replace) w[i] = S::identity();
  }
}

// T = u' ⊕.⊗ A(part), u given as (index, value) entries.
template <class S, class W>
std::vector<std::optional<W>> vxm(const csr<W>& a, const std::vector<vertex>& ui,
                                  const std::vector<W>& uv, row_part part, W delta) {
  std::vector<std::optional<W>> t(a.n);
  for (std::size_t k = 0; k < ui.size(); ++k)
    for (arc_index e = a.row_offsets[ui[k]]; e < a.row_offsets[ui[k] + 1]; ++e) {
      if (!in_part(a.weights[e], part, delta)) continue;
      const W x = S::mul(uv[k], a.weights[e]);
      auto& y = t[a.columns[e]];
      y = y ? S::add(*y, x) : x;
    }
  return t;
}

// T = A(part) ⊕.⊗ u for a dense u (absent = identity).
template <class S, class W>
std::vector<std::optional<W>> mxv(const csr<W>& a, const std::vector<W>& u, row_part part, W delta) {
  std::vector<std::optional<W>> t(a.n);
  for (vertex i = 0; i < a.n; ++i)
    for (arc_index e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) {
      if (!in_part(a.weights[e], part, delta) || u[a.columns[e]] == S::identity()) continue;
      const W x = S::mul(u[a.columns[e]], a.weights[e]);
      t[i] = t[i] ? S::add(*t[i], x) : x;
    }
  return t;
}

}  // namespace tropic::spec
