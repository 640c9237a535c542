// The naive, obviously right semantics of every device operator of semiring/tropic/operators.hpp
// and device_loop.hpp (the "spec" implementation, after SuiteSparse's test style): loops over
// host vectors, written for clarity alone. Vectors are dense, an entry present unless it equals
// the identity -- the encoding the device operators use: "no entry" is the semiring's identity,
// and for the operators without a semiring (assign, apply, select, reduce_min, nvals) min-plus's,
// infinity<W>(). The write rule is the GraphBLAS C API's w<mask> = accum(w, T); where the header
// leaves a point open, the spec follows the implementation and says so.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <set>
#include <type_traits>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/device_loop.hpp"
#include "tropic/mxm.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

namespace tropic::spec {

// A result T: an entry per index, or none.
template <class W>
using result_vector = std::vector<std::optional<W>>;

// --- masks, ranges, parts -------------------------------------------------------------------

// value: m[i] != 0; structural: m[i] present (not infinity<W>(), min-plus's identity, whatever
// the semiring); complement flips either.
template <class W>
bool mask_allows(const std::vector<W>* m, mask_kind kind, bool complement, vertex i) {
  if (kind == mask_kind::none) return true;
  const W x = (*m)[i];
  const bool set = kind == mask_kind::value ? x != W(0) : x != infinity<W>();
  return set != complement;
}

// x in [lo, hi); infinity ("no entry") never is.
template <class W>
bool in_range(W x, value_range<W> r) {
  return !(x < r.lo) && x < r.hi && x != infinity<W>();
}

// The weight Δ splits A at (light_heavy_split): an integer W floors a fractional Δ; a Δ at or
// past infinity<W>() makes every arc light.
template <class W>
W split_point(double delta) {
  if (!(delta < double(infinity<W>()))) return infinity<W>();
  return std::is_integral_v<W> ? W(std::floor(delta)) : W(delta);
}

// Arcs of row u in `part` of A: light = w <= Δ, heavy = w > Δ (Δ as split_point gives it).
template <class W>
bool in_part(W w, row_part part, W delta) {
  if (part == row_part::all) return true;
  return part == row_part::light ? !(delta < w) : delta < w;
}

// --- the write rule -------------------------------------------------------------------------

// w<mask> = accum(w, T). An entry of T equal to S's identity is no entry (the dense encoding:
// a product that saturates to infinity in min-plus, a zero in plus-times). accum min and plus
// combine two present entries (plus without saturation, as the device does); where only one is
// present it is the result. Outside the mask, replace deletes and no replace keeps.
template <class S, class W>
void write(std::vector<W>& w, const result_vector<W>& t, const std::vector<W>* m, mask_kind kind,
           bool complement, accumulator accum, bool replace) {
  for (std::size_t i = 0; i < w.size(); ++i) {
    const bool present = w[i] != S::identity();
    std::optional<W> ti = t[i];
    if (ti && *ti == S::identity()) ti.reset();
    std::optional<W> z;
    if (accum == accumulator::none) {
      z = ti;
    } else if (present && ti) {
      z = accum == accumulator::min ? std::min(w[i], *ti) : W(w[i] + *ti);
    } else if (present) {
      z = w[i];
    } else {
      z = ti;
    }
    if (mask_allows(m, kind, complement, vertex(i)))
      w[i] = z ? *z : S::identity();
    else if (replace)
      w[i] = S::identity();
  }
}

// The indices the `improved` output of vxm / mxv lists: w strictly decreased from w0 into the
// range, each once, ascending. The header's rule; the implementation keeps it for the min
// accumulator under a min monoid, the only use (with accum none a push lists every entry of T in
// the range, a pull those below w0; with an accumulator other than the semiring's a push lists
// none), and a push lists an index when some product lowered it into the range, so a range whose
// lower end a later product can pass is left open by the header (the tests' push ranges start
// at 0).
template <class W>
std::vector<vertex> improved(const std::vector<W>& w0, const std::vector<W>& w, value_range<W> r) {
  std::vector<vertex> out;
  for (vertex i = 0; i < w.size(); ++i)
    if (w[i] < w0[i] && in_range(w[i], r)) out.push_back(i);
  return out;
}

// --- matrix operators -----------------------------------------------------------------------

// T = u' ⊕.⊗ A(part), u given as (index, value) entries (an index may repeat: a push combines
// every entry; a pull sees u densely, so its u never repeats one).
template <class S, class W>
result_vector<W> vxm(const csr<W>& a, const std::vector<vertex>& ui, const std::vector<W>& uv,
                     row_part part, W delta) {
  result_vector<W> t(a.n);
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
result_vector<W> mxv(const csr<W>& a, const std::vector<W>& u, row_part part, W delta) {
  result_vector<W> t(a.n);
  for (vertex i = 0; i < a.n; ++i)
    for (arc_index e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) {
      if (!in_part(a.weights[e], part, delta) || u[a.columns[e]] == S::identity()) continue;
      const W x = S::mul(u[a.columns[e]], a.weights[e]);
      t[i] = t[i] ? S::add(*t[i], x) : x;
    }
  return t;
}

// vxm_closure's fixed point: repeat { w = min(w, (w .* in)' min.+ A(part)); in = the indices
// whose w decreased into the range } until in is empty, as a FIFO of the indices to push, each
// listed again whenever it falls into the range. The device pushes whole frontiers and reads
// values as they fall, but every index that fell into the range is pushed after its last
// decrease, and each value is one path's sum: the fixed point is the same, exactly.
template <class W>
std::vector<W> vxm_closure(const csr<W>& g, std::vector<W> w, std::vector<vertex> frontier,
                           row_part part, W delta, value_range<W> range) {
  std::vector<char> queued(g.n, 0);
  for (vertex u : frontier) queued[u] = 1;
  for (std::size_t k = 0; k < frontier.size(); ++k) {
    const vertex u = frontier[k];
    queued[u] = 0;
    for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      if (!in_part(g.weights[e], part, delta)) continue;
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

// --- many-source operators (tropic/mxm.hpp) -------------------------------------------------
// k × n matrices on the host are row-major, entry (s, v) at s·n + v; a column list is U's
// columns uc with their k values each, column after column (uv[j·k + s]).

// T = U ⊕.⊗ A(part): row s of T is vxm of row s of U. Entries of U equal to S's identity are no
// entries.
template <class S, class W>
result_vector<W> mxm(const csr<W>& a, std::size_t k, const std::vector<vertex>& uc,
                     const std::vector<W>& uv, row_part part, W delta) {
  result_vector<W> t(k * a.n);
  for (std::size_t j = 0; j < uc.size(); ++j)
    for (arc_index e = a.row_offsets[uc[j]]; e < a.row_offsets[uc[j] + 1]; ++e) {
      if (!in_part(a.weights[e], part, delta)) continue;
      for (std::size_t s = 0; s < k; ++s) {
        if (uv[j * k + s] == S::identity()) continue;
        const W x = S::mul(uv[j * k + s], a.weights[e]);
        auto& y = t[s * a.n + a.columns[e]];
        y = y ? S::add(*y, x) : x;
      }
    }
  return t;
}

// The columns with an entry that strictly decreased from w0 into the range, ascending.
template <class W>
std::vector<vertex> improved_columns(const std::vector<W>& w0, const std::vector<W>& w,
                                     std::size_t k, vertex n, value_range<W> r) {
  std::vector<vertex> out;
  for (vertex v = 0; v < n; ++v)
    for (std::size_t s = 0; s < k; ++s)
      if (w[s * n + v] < w0[s * n + v] && in_range(w[s * n + v], r)) {
        out.push_back(v);
        break;
      }
  return out;
}

// The columns with an entry inside the range, ascending (select_columns).
template <class W>
std::vector<vertex> select_columns(const std::vector<W>& in, std::size_t k, vertex n,
                                   value_range<W> range) {
  std::vector<vertex> out;
  for (vertex v = 0; v < n; ++v)
    for (std::size_t s = 0; s < k; ++s)
      if (in_range(in[s * n + v], range)) {
        out.push_back(v);
        break;
      }
  return out;
}

// in(:, pattern) .* (in inside range), column after column.
template <class W>
std::vector<W> gather_columns(const std::vector<W>& in, std::size_t k, vertex n,
                              const std::vector<vertex>& pattern, value_range<W> range) {
  std::vector<W> out;
  for (vertex v : pattern)
    for (std::size_t s = 0; s < k; ++s)
      out.push_back(in_range(in[s * n + v], range) ? in[s * n + v] : infinity<W>());
  return out;
}

// --- element-wise operators -----------------------------------------------------------------

// T = a ⊕ b: the union; where both are present, S's add.
template <class S, class W>
result_vector<W> ewise_add(const std::vector<W>& a, const std::vector<W>& b) {
  result_vector<W> t(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const bool x = a[i] != S::identity(), y = b[i] != S::identity();
    if (x && y)
      t[i] = S::add(a[i], b[i]);
    else if (x)
      t[i] = a[i];
    else if (y)
      t[i] = b[i];
  }
  return t;
}

// T = a ⊗ b: the intersection, S's mul.
template <class S, class W>
result_vector<W> ewise_mult(const std::vector<W>& a, const std::vector<W>& b) {
  result_vector<W> t(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != S::identity() && b[i] != S::identity()) t[i] = S::mul(a[i], b[i]);
  return t;
}

// T = f(u) over u's entries (min-plus encoding: infinity is no entry; add_scalar saturates).
template <class W>
result_vector<W> apply(const std::vector<W>& u, unary_op f, W s) {
  result_vector<W> t(u.size());
  for (std::size_t i = 0; i < u.size(); ++i) {
    const W x = u[i];
    if (x == infinity<W>()) continue;
    switch (f) {
      case unary_op::identity:
        t[i] = x;
        break;
      case unary_op::add_scalar:
        t[i] = saturating_add(x, s);
        break;
      case unary_op::min_scalar:
        t[i] = std::min(x, s);
        break;
      case unary_op::max_scalar:
        t[i] = std::max(x, s);
        break;
    }
  }
  return t;
}

// w<mask> = value; replace sets the rest to infinity<W>().
template <class W>
void assign(std::vector<W>& w, const std::vector<W>* m, mask_kind kind, bool complement, W value,
            bool replace) {
  for (vertex i = 0; i < w.size(); ++i) {
    if (mask_allows(m, kind, complement, i))
      w[i] = value;
    else if (replace)
      w[i] = infinity<W>();
  }
}

// w[ui[k]] = uv[k] in order (the header: later entries win on duplicates).
template <class W>
void assign(std::vector<W>& w, const std::vector<vertex>& ui, const std::vector<W>& uv) {
  for (std::size_t k = 0; k < ui.size(); ++k) w[ui[k]] = uv[k];
}

// --- selections and reductions --------------------------------------------------------------

// The entries of `in` inside the range, as ascending indices (the header leaves the order
// open; the tests compare sets).
template <class W>
std::vector<vertex> select(const std::vector<W>& in, value_range<W> range) {
  std::vector<vertex> out;
  for (vertex i = 0; i < in.size(); ++i)
    if (in_range(in[i], range)) out.push_back(i);
  return out;
}

// The indices listed in `pattern` whose value is inside the range, each once, ascending.
template <class W>
std::vector<vertex> select(const std::vector<W>& in, const std::vector<vertex>& pattern,
                           value_range<W> range) {
  std::set<vertex> out;
  for (vertex i : pattern)
    if (in_range(in[i], range)) out.insert(i);
  return {out.begin(), out.end()};
}

// in .* pattern: pattern's indices in its order with in's values. The implementation keeps an
// index whose value is infinity (t .* B where B lists only present entries, as delta-stepping's
// does, needs no test): the spec does too.
template <class W>
std::vector<W> gather(const std::vector<W>& in, const std::vector<vertex>& pattern) {
  std::vector<W> out;
  for (vertex i : pattern) out.push_back(in[i]);
  return out;
}

// The least entry inside the range, infinity<W>() when there is none.
template <class W>
W reduce_min(const std::vector<W>& in, value_range<W> range) {
  W least = infinity<W>();
  for (W x : in)
    if (in_range(x, range)) least = std::min(least, x);
  return least;
}

// ⊕ of the present entries (S's identity when none); over a sparse vector's values, all of them.
template <class S, class W>
W reduce(const std::vector<W>& values) {
  W acc = S::identity();
  for (W x : values)
    if (x != S::identity()) acc = S::add(acc, x);
  return acc;
}

// Entries that are not infinity<W>().
template <class W>
std::size_t nvals(const std::vector<W>& u) {
  return std::size_t(std::count_if(u.begin(), u.end(), [](W x) { return x != infinity<W>(); }));
}

}  // namespace tropic::spec
