// Host CSR construction and the whole-graph checks every algorithm relies on.
//
// build_csr is a counting sort by row (one pass to count, one to scatter), then a sort inside
// each row that also resolves parallel arcs. Rows are independent, so both the scatter and the
// per-row sorts run under OpenMP when the library is built with it. The scatter's order inside
// a row is nondeterministic in parallel; the row sort restores a deterministic order (by column,
// then weight, then input position where the duplicate policy depends on input order).
#include "tropic/csr.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "tropic/detail/openmp.hpp"
#include "tropic/error.hpp"

namespace tropic {

template <>
const char* weight_type_name<std::uint32_t>() noexcept {
  return "uint32";
}
template <>
const char* weight_type_name<std::int32_t>() noexcept {
  return "int32";
}
template <>
const char* weight_type_name<std::uint64_t>() noexcept {
  return "uint64";
}
template <>
const char* weight_type_name<std::int64_t>() noexcept {
  return "int64";
}
template <>
const char* weight_type_name<float>() noexcept {
  return "float";
}
template <>
const char* weight_type_name<double>() noexcept {
  return "double";
}

namespace {

using detail::parallel_threshold;

// The first position in columns[begin, end) (sorted) whose value is not below key; end when none
// is. Branch-free halving: the compare becomes a conditional move, which matters when it runs once
// per arc with unpredictable outcomes.
inline arc_index first_not_below(const vertex* columns, arc_index begin, arc_index end,
                                 vertex key) {
  arc_index base = begin, len = end - begin;
  if (len == 0) return begin;
  while (len > 1) {
    const arc_index half = len / 2;
    base = columns[base + half] < key ? base + half : base;
    len -= half;
  }
  return base + (columns[base] < key ? 1 : 0);
}

// One arc inside a row while that row is being sorted.
template <class W>
struct row_entry {
  vertex col;
  W w;
  arc_index order;  // position in the input: decides keep_first / keep_last / error messages
};

// Index of the first arc violating `bad`, or `none`. Runs in parallel but always reports the
// smallest index, so the error message does not depend on the thread count.
template <class Pred>
arc_index first_violation(arc_index m, Pred bad) {
  constexpr arc_index none = std::numeric_limits<arc_index>::max();
  arc_index first = none;
  const std::int64_t sm = static_cast<std::int64_t>(m);
  TROPIC_OMP(parallel for reduction(min : first) schedule(static) if (m > parallel_threshold))
  for (std::int64_t i = 0; i < sm; ++i) {
    if (bad(static_cast<arc_index>(i)) && static_cast<arc_index>(i) < first) {
      first = static_cast<arc_index>(i);
    }
  }
  return first;
}

}  // namespace

template <class W>
csr<W> build_csr(const arc_list<W>& arcs, const build_options& options) {
  static_assert(is_weight_type_v<W>, "build_csr: unsupported weight type");
  constexpr arc_index none = std::numeric_limits<arc_index>::max();
  const arc_index m = arcs.size();
  if (arcs.dst.size() != m || arcs.weight.size() != m) {
    throw error(error_code::invalid_value, "build_csr: arc list arrays differ in length (src " +
                                               std::to_string(m) + ", dst " +
                                               std::to_string(arcs.dst.size()) + ", weight " +
                                               std::to_string(arcs.weight.size()) + ")");
  }
  const vertex n = arcs.n;
  const vertex* src = arcs.src.data();
  const vertex* dst = arcs.dst.data();
  const W* wt = arcs.weight.data();

  arc_index bad = first_violation(m, [&](arc_index i) { return src[i] >= n || dst[i] >= n; });
  if (bad != none) {
    throw error(error_code::invalid_index,
                "build_csr: arc " + std::to_string(bad) + " (" + std::to_string(src[bad]) + " -> " +
                    std::to_string(dst[bad]) + ") has an endpoint outside [0, " +
                    std::to_string(n) + ")");
  }
  if constexpr (std::is_floating_point_v<W>) {
    bad = first_violation(m, [&](arc_index i) { return !std::isfinite(wt[i]); });
    if (bad != none) {
      throw error(error_code::invalid_value,
                  "build_csr: arc " + std::to_string(bad) + " (" + std::to_string(src[bad]) +
                      " -> " + std::to_string(dst[bad]) + ") has weight " + weight_string(wt[bad]) +
                      "; weights must be finite");
    }
  }

  const bool drop_loops = options.drop_self_loops;
  const bool sym = options.symmetrize;
  const duplicate_policy policy = options.duplicates;
  const bool need_order = policy == duplicate_policy::keep_first ||
                          policy == duplicate_policy::keep_last ||
                          policy == duplicate_policy::error;
  const bool par = m > parallel_threshold;
  const std::int64_t sm = static_cast<std::int64_t>(m);

  // Pass 1: out-degree of every row (mirrored arcs count toward the target's row).
  std::vector<arc_index> offsets(static_cast<std::size_t>(n) + 1, 0);
  arc_index* deg = offsets.data() + 1;
  TROPIC_OMP(parallel for schedule(static) if (par))
  for (std::int64_t i = 0; i < sm; ++i) {
    const vertex u = src[i], v = dst[i];
    if (u == v && drop_loops) continue;
    TROPIC_OMP(atomic)
    ++deg[u];
    if (sym && u != v) {
      TROPIC_OMP(atomic)
      ++deg[v];
    }
  }
  for (vertex u = 0; u < n; ++u) offsets[u + 1] += offsets[u];
  const arc_index total = offsets[n];

  // Pass 2: scatter into row segments.
  std::vector<vertex> cols(total);
  std::vector<W> ws(total);
  std::vector<arc_index> order(need_order ? total : 0);
  {
    std::vector<arc_index> cursor(offsets.begin(), offsets.end() - 1);
    arc_index* cur = cursor.data();
    vertex* c = cols.data();
    W* w = ws.data();
    arc_index* ord = order.data();
    TROPIC_OMP(parallel for schedule(static) if (par))
    for (std::int64_t i = 0; i < sm; ++i) {
      const vertex u = src[i], v = dst[i];
      if (u == v && drop_loops) continue;
      arc_index at;
      TROPIC_OMP(atomic capture)
      at = cur[u]++;
      c[at] = v;
      w[at] = wt[i];
      if (need_order) ord[at] = static_cast<arc_index>(i);
      if (sym && u != v) {
        TROPIC_OMP(atomic capture)
        at = cur[v]++;
        c[at] = u;
        w[at] = wt[i];
        if (need_order) ord[at] = static_cast<arc_index>(i);
      }
    }
  }

  // Pass 3: sort each row by column and resolve parallel arcs in place; `kept[u]` is the
  // row's length afterwards. A duplicate-policy violation records the smallest offending row.
  std::vector<arc_index> kept(n);
  vertex dup_row = std::numeric_limits<vertex>::max();
  arc_index dup_a = 0, dup_b = 0;
  const std::int64_t sn = static_cast<std::int64_t>(n);
  TROPIC_OMP(parallel if (par)) {
    std::vector<row_entry<W>> row;
    TROPIC_OMP(for schedule(dynamic, 1024))
    for (std::int64_t su = 0; su < sn; ++su) {
      const vertex u = static_cast<vertex>(su);
      const arc_index b = offsets[u], e = offsets[u + 1];
      bool strictly_sorted = true;
      for (arc_index k = b + 1; k < e; ++k) {
        if (cols[k - 1] >= cols[k]) {
          strictly_sorted = false;
          break;
        }
      }
      if (strictly_sorted) {
        kept[u] = e - b;
        continue;
      }
      row.resize(e - b);
      for (arc_index k = b; k < e; ++k) {
        row[k - b] = {cols[k], ws[k], need_order ? order[k] : 0};
      }
      if (need_order) {
        std::sort(row.begin(), row.end(), [](const row_entry<W>& x, const row_entry<W>& y) {
          return x.col != y.col ? x.col < y.col : x.order < y.order;
        });
      } else {
        std::sort(row.begin(), row.end(), [](const row_entry<W>& x, const row_entry<W>& y) {
          return x.col != y.col ? x.col < y.col : x.w < y.w;
        });
      }
      arc_index out = b;
      for (std::size_t k = 0; k < row.size();) {
        std::size_t j = k + 1;
        while (j < row.size() && row[j].col == row[k].col) ++j;
        // row[k, j) are the parallel arcs u -> col, sorted by weight or by input position.
        W w = row[k].w;
        switch (policy) {
          case duplicate_policy::keep_min:
            break;  // sorted by weight: the first is the lightest
          case duplicate_policy::keep_max:
            w = row[j - 1].w;
            break;
          case duplicate_policy::keep_first:
            break;
          case duplicate_policy::keep_last:
            w = row[j - 1].w;
            break;
          case duplicate_policy::error:
            if (j - k > 1) {
              TROPIC_OMP(critical(tropic_build_csr_dup))
              if (u < dup_row) {
                dup_row = u;
                dup_a = row[k].order;
                dup_b = row[k + 1].order;
              }
            }
            break;
        }
        cols[out] = row[k].col;
        ws[out] = w;
        ++out;
        k = j;
      }
      kept[u] = out - b;
    }
  }
  if (dup_row != std::numeric_limits<vertex>::max()) {
    // Both recorded input arcs are dup_row -> col, or (symmetrize) mirrors of col -> dup_row.
    const vertex a_src = src[dup_a], a_dst = dst[dup_a];
    const vertex col = a_src == dup_row ? a_dst : a_src;
    throw error(error_code::invalid_value,
                "build_csr: parallel arcs " + std::to_string(dup_row) + " -> " +
                    std::to_string(col) + " (input arcs " + std::to_string(dup_a) + " and " +
                    std::to_string(dup_b) + ") with duplicate_policy::error");
  }

  csr<W> g;
  g.n = n;
  g.row_offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  for (vertex u = 0; u < n; ++u) g.row_offsets[u + 1] = g.row_offsets[u] + kept[u];
  const arc_index final_total = g.row_offsets[n];
  if (final_total == total) {
    // Nothing was merged: the scattered arrays already are the CSR.
    g.columns = std::move(cols);
    g.weights = std::move(ws);
    return g;
  }
  g.columns.resize(final_total);
  g.weights.resize(final_total);
  TROPIC_OMP(parallel for schedule(dynamic, 4096) if (par))
  for (std::int64_t su = 0; su < sn; ++su) {
    const vertex u = static_cast<vertex>(su);
    std::copy_n(cols.begin() + static_cast<std::ptrdiff_t>(offsets[u]), kept[u],
                g.columns.begin() + static_cast<std::ptrdiff_t>(g.row_offsets[u]));
    std::copy_n(ws.begin() + static_cast<std::ptrdiff_t>(offsets[u]), kept[u],
                g.weights.begin() + static_cast<std::ptrdiff_t>(g.row_offsets[u]));
  }
  return g;
}

// graph_stats::probe_levels: a BFS from the vertex of most out-arcs (the first such), level by
// level, until stats_probe_vertices vertices are reached or the frontier empties; the levels
// that found a vertex. Reads at most the arcs of the vertices it reaches, whatever the graph's
// size.
template <class W>
std::uint32_t probe_levels(const csr_host_view<W>& g) {
  if (g.n == 0) return 0;
  const auto degree = [&](vertex u) { return g.row_offsets[u + 1] - g.row_offsets[u]; };
  vertex start = 0;
  for (vertex u = 1; u < g.n; ++u)
    if (degree(u) > degree(start)) start = u;
  std::unordered_set<vertex> seen{start};
  std::vector<vertex> frontier{start}, next;
  std::uint32_t levels = 0;
  while (!frontier.empty()) {
    next.clear();
    for (const vertex u : frontier)
      for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k)
        if (seen.insert(g.columns[k]).second) {
          next.push_back(g.columns[k]);
          if (seen.size() >= stats_probe_vertices) return levels + 1;  // a hub's level stops early
        }
    if (!next.empty()) ++levels;
    frontier.swap(next);
  }
  return levels;
}

template <class W>
graph_stats compute_stats(const csr_host_view<W>& g) {
  graph_stats s;
  s.n = g.n;
  s.arcs = g.arcs();
  const std::int64_t sn = static_cast<std::int64_t>(g.n);
  const std::int64_t sm = static_cast<std::int64_t>(s.arcs);
  const bool par = s.arcs > parallel_threshold;

  arc_index max_degree = 0;
  std::int64_t isolated = 0;
  TROPIC_OMP(parallel for reduction(max : max_degree) reduction(+ : isolated) if (par))
  for (std::int64_t u = 0; u < sn; ++u) {
    const arc_index d = g.row_offsets[u + 1] - g.row_offsets[u];
    max_degree = std::max(max_degree, d);
    if (d == 0) ++isolated;
  }
  s.max_degree = max_degree;
  s.isolated = static_cast<vertex>(isolated);
  s.avg_degree = g.n ? static_cast<double>(s.arcs) / g.n : 0.0;

  if (s.arcs > 0) {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    double sum = 0;
    const W* w = g.weights;
    TROPIC_OMP(parallel for reduction(min : lo) reduction(max : hi) reduction(+ : sum) if (par))
    for (std::int64_t i = 0; i < sm; ++i) {
      const double x = static_cast<double>(w[i]);
      lo = std::min(lo, x);
      hi = std::max(hi, x);
      sum += x;
    }
    s.min_weight = lo;
    s.max_weight = hi;
    s.avg_weight = sum / static_cast<double>(s.arcs);
    s.has_negative_weight = lo < 0;
  }

  // Symmetric: every u -> v has v -> u of the same weight (parallel arcs as a multiset of
  // weights: pull over A' = A relies on it). Only the runs above the diagonal (u < v) look up
  // their mirror; a matched run pairs its arcs one to one with the mirror's, so when the counts
  // above and below the diagonal are equal every arc below is someone's mirror too. Self-loops
  // mirror themselves. One branch-free search per run: the old three searches per arc, with their
  // mispredicted branches, took seconds on a Kronecker graph of 67M arcs.
  std::int64_t asymmetric = 0, above = 0, below = 0;
  const vertex* columns = g.columns;
  const W* weights = g.weights;
  const arc_index* offsets = g.row_offsets;
  TROPIC_OMP(parallel for reduction(+ : asymmetric, above, below) schedule(dynamic, 1024) if (par))
  for (std::int64_t su = 0; su < sn; ++su) {
    if (asymmetric) continue;  // one witness is enough; skip the rest cheaply
    const vertex u = static_cast<vertex>(su);
    const arc_index row_end = offsets[u + 1];
    const arc_index diagonal = first_not_below(columns, offsets[u], row_end, u);
    below += static_cast<std::int64_t>(diagonal - offsets[u]);
    arc_index k = diagonal;
    while (k < row_end && columns[k] == u) ++k;  // self-loops
    while (k < row_end) {
      const vertex v = columns[k];
      arc_index run_end = k + 1;
      while (run_end < row_end && columns[run_end] == v) ++run_end;
      const arc_index len = run_end - k;
      above += static_cast<std::int64_t>(len);
      const arc_index v_end = offsets[v + 1];
      const arc_index r = first_not_below(columns, offsets[v], v_end, u);
      bool same = r + len <= v_end && columns[r + len - 1] == u &&
                  (r + len == v_end || columns[r + len] != u);
      if (same && len == 1) {
        same = weights[k] == weights[r];
      } else if (same) {
        std::vector<W> mine(weights + k, weights + run_end);
        std::vector<W> theirs(weights + r, weights + r + len);
        std::sort(mine.begin(), mine.end());
        std::sort(theirs.begin(), theirs.end());
        same = mine == theirs;
      }
      if (!same) {
        ++asymmetric;
        break;
      }
      k = run_end;
    }
  }
  if (above != below) asymmetric = 1;
  s.symmetric = asymmetric == 0;
  s.probe_levels = probe_levels(g);
  return s;
}

template <class W>
graph_stats compute_stats(const csr<W>& g) {
  return compute_stats(host_view(g));
}

template <class W>
void require_non_negative(const csr<W>& g, const char* algorithm) {
  if constexpr (std::is_unsigned_v<W>) {
    (void)g;
    (void)algorithm;
  } else {
    constexpr arc_index none = std::numeric_limits<arc_index>::max();
    const W* w = g.weights.data();
    const arc_index k = first_violation(g.arcs(), [&](arc_index i) { return w[i] < W(0); });
    if (k == none) return;
    const auto it = std::upper_bound(g.row_offsets.begin(), g.row_offsets.end(), k);
    const vertex u = static_cast<vertex>(it - g.row_offsets.begin() - 1);
    throw error(error_code::invalid_value, "arc " + std::to_string(k) + " (" + std::to_string(u) +
                                               " -> " + std::to_string(g.columns[k]) +
                                               ") has negative weight " + weight_string(w[k]) +
                                               "; " + (algorithm ? algorithm : "this algorithm") +
                                               " needs non-negative weights");
  }
}

namespace {

// True when `x` converts to To and back without change (and keeps its sign).
template <class To, class From>
bool fits_exactly(From x) {
  if constexpr (std::is_floating_point_v<From>) {
    if (!std::isfinite(x)) return std::is_floating_point_v<To>;
    if constexpr (std::is_integral_v<To>) {
      // The range test must happen in floating point: casting an out-of-range float to an
      // integer is undefined. 2^digits is exact in every floating type.
      const From lo =
          std::is_signed_v<To> ? -std::ldexp(From(1), std::numeric_limits<To>::digits) : From(0);
      const From hi = std::ldexp(From(1), std::numeric_limits<To>::digits);
      if (!(x >= lo && x < hi)) return false;
      return static_cast<From>(static_cast<To>(x)) == x;
    } else {
      return static_cast<From>(static_cast<To>(x)) == x;
    }
  } else {
    if constexpr (std::is_floating_point_v<To>) {
      // Integers beyond the mantissa may round; compare through long double, which holds 64-bit
      // integers exactly on x86-64.
      const To t = static_cast<To>(x);
      return static_cast<long double>(t) == static_cast<long double>(x);
    } else {
      if (std::is_signed_v<From> && !std::is_signed_v<To> && x < From(0)) return false;
      if (!std::is_signed_v<From> && std::is_signed_v<To> &&
          static_cast<std::uint64_t>(x) >
              static_cast<std::uint64_t>(std::numeric_limits<To>::max())) {
        return false;
      }
      return static_cast<From>(static_cast<To>(x)) == x;
    }
  }
}

}  // namespace

template <class To, class From>
csr<To> convert_weights(const csr<From>& g) {
  csr<To> out;
  out.n = g.n;
  out.row_offsets = g.row_offsets;
  out.columns = g.columns;
  out.weights.resize(g.weights.size());
  constexpr arc_index none = std::numeric_limits<arc_index>::max();
  const From* w = g.weights.data();
  const arc_index k =
      first_violation(g.arcs(), [&](arc_index i) { return !fits_exactly<To, From>(w[i]); });
  if (k != none) {
    const auto it = std::upper_bound(g.row_offsets.begin(), g.row_offsets.end(), k);
    const vertex u = static_cast<vertex>(it - g.row_offsets.begin() - 1);
    throw error(error_code::invalid_value,
                "cannot convert weights from " + std::string(weight_type_name<From>()) + " to " +
                    weight_type_name<To>() + ": arc " + std::to_string(k) + " (" +
                    std::to_string(u) + " -> " + std::to_string(g.columns[k]) + ") has weight " +
                    weight_string(w[k]) + ", which " + weight_type_name<To>() +
                    " cannot hold exactly");
  }
  const std::int64_t sm = static_cast<std::int64_t>(g.weights.size());
  TROPIC_OMP(parallel for schedule(static) if (g.arcs() > parallel_threshold))
  for (std::int64_t i = 0; i < sm; ++i) out.weights[i] = static_cast<To>(w[i]);
  return out;
}

#define TROPIC_INSTANTIATE_CSR(W)                                         \
  template csr<W> build_csr<W>(const arc_list<W>&, const build_options&); \
  template graph_stats compute_stats<W>(const csr<W>&);                   \
  template graph_stats compute_stats<W>(const csr_host_view<W>&);         \
  template void require_non_negative<W>(const csr<W>&, const char*);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE_CSR)
#undef TROPIC_INSTANTIATE_CSR

#define TROPIC_INSTANTIATE_CONVERT_TO(To)                                         \
  template csr<To> convert_weights<To, std::uint32_t>(const csr<std::uint32_t>&); \
  template csr<To> convert_weights<To, std::int32_t>(const csr<std::int32_t>&);   \
  template csr<To> convert_weights<To, std::uint64_t>(const csr<std::uint64_t>&); \
  template csr<To> convert_weights<To, std::int64_t>(const csr<std::int64_t>&);   \
  template csr<To> convert_weights<To, float>(const csr<float>&);                 \
  template csr<To> convert_weights<To, double>(const csr<double>&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE_CONVERT_TO)
#undef TROPIC_INSTANTIATE_CONVERT_TO

}  // namespace tropic
