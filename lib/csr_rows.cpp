// build_csr_rows: one row block of build_csr's CSR from the arcs that reach it (issue 38: each
// part of a 1D row partition builds its own rows). The rules are build_csr's (lib/csr.cpp), row
// by row: self-loops dropped when asked, mirrors with symmetrize, each row sorted by column and
// parallel arcs resolved by weight or by input position.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "tropic/error.hpp"
#include "tropic/partition.hpp"

namespace tropic {

namespace {

template <class W>
struct block_entry {
  vertex col;
  W w;
  arc_index order;  // input position: keep_first / keep_last and the duplicate error
};

}  // namespace

template <class W>
csr_rows<W> build_csr_rows(const arc_list<W>& arcs, row_range rows, const build_options& options) {
  static_assert(is_weight_type_v<W>, "build_csr_rows: unsupported weight type");
  const arc_index m = arcs.size();
  if (arcs.dst.size() != m || arcs.weight.size() != m)
    throw error(error_code::invalid_value, "build_csr_rows: arc list arrays differ in length");
  check_row_range(rows, arcs.n, "build_csr_rows");
  const vertex first = rows.begin, count = rows.size();
  auto in_block = [&](vertex x) { return x - first < count; };  // unsigned: x < first wraps
  const bool sym = options.symmetrize, drop_loops = options.drop_self_loops;
  const duplicate_policy policy = options.duplicates;

  // Pass 1: every arc checked as build_csr checks it; the block's rows counted.
  std::vector<arc_index> offsets(static_cast<std::size_t>(count) + 1, 0);
  for (arc_index i = 0; i < m; ++i) {
    const vertex u = arcs.src[i], v = arcs.dst[i];
    if (u >= arcs.n || v >= arcs.n)
      throw error(error_code::invalid_index, "build_csr_rows: arc " + std::to_string(i) + " (" +
                                                 std::to_string(u) + " -> " + std::to_string(v) +
                                                 ") has an endpoint outside [0, " +
                                                 std::to_string(arcs.n) + ")");
    if constexpr (std::is_floating_point_v<W>) {
      if (!std::isfinite(arcs.weight[i]))
        throw error(error_code::invalid_value, "build_csr_rows: arc " + std::to_string(i) + " (" +
                                                   std::to_string(u) + " -> " + std::to_string(v) +
                                                   ") has weight " + weight_string(arcs.weight[i]) +
                                                   "; weights must be finite");
    }
    if (u == v && drop_loops) continue;
    if (in_block(u)) ++offsets[u - first + 1];
    if (sym && u != v && in_block(v)) ++offsets[v - first + 1];
  }
  for (vertex r = 0; r < count; ++r) offsets[r + 1] += offsets[r];

  // Pass 2: scatter in input order, so a row's entries are already in input order.
  std::vector<block_entry<W>> entries(offsets[count]);
  {
    std::vector<arc_index> cursor(offsets.begin(), offsets.end() - 1);
    for (arc_index i = 0; i < m; ++i) {
      const vertex u = arcs.src[i], v = arcs.dst[i];
      if (u == v && drop_loops) continue;
      if (in_block(u)) entries[cursor[u - first]++] = {v, arcs.weight[i], i};
      if (sym && u != v && in_block(v)) entries[cursor[v - first]++] = {u, arcs.weight[i], i};
    }
  }

  // Pass 3: per row, by column then weight (keep_min / keep_max) or input position (the rest),
  // as build_csr sorts; each column run becomes one arc.
  const bool by_order = policy == duplicate_policy::keep_first ||
                        policy == duplicate_policy::keep_last || policy == duplicate_policy::error;
  csr_rows<W> out;
  out.n = arcs.n;
  out.rows = rows;
  out.row_offsets.assign(static_cast<std::size_t>(count) + 1, 0);
  out.columns.reserve(entries.size());
  out.weights.reserve(entries.size());
  for (vertex r = 0; r < count; ++r) {
    const auto b = entries.begin() + static_cast<std::ptrdiff_t>(offsets[r]);
    const auto e = entries.begin() + static_cast<std::ptrdiff_t>(offsets[r + 1]);
    std::sort(b, e, [by_order](const block_entry<W>& x, const block_entry<W>& y) {
      if (x.col != y.col) return x.col < y.col;
      return by_order ? x.order < y.order : x.w < y.w;
    });
    for (auto k = b; k != e;) {
      auto j = k + 1;
      while (j != e && j->col == k->col) ++j;
      // [k, j) are the parallel arcs of row first + r to column k->col.
      if (policy == duplicate_policy::error && j - k > 1)
        throw error(error_code::invalid_value,
                    "build_csr_rows: parallel arcs " + std::to_string(first + r) + " -> " +
                        std::to_string(k->col) + " (input arcs " + std::to_string(k->order) +
                        " and " + std::to_string((k + 1)->order) +
                        ") with duplicate_policy::error");
      const bool take_last =
          policy == duplicate_policy::keep_max || policy == duplicate_policy::keep_last;
      out.columns.push_back(k->col);
      out.weights.push_back(take_last ? (j - 1)->w : k->w);
      k = j;
    }
    out.row_offsets[r + 1] = out.columns.size();
  }
  return out;
}

#define TROPIC_INSTANTIATE(W) \
  template csr_rows<W> build_csr_rows<W>(const arc_list<W>&, row_range, const build_options&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)
#undef TROPIC_INSTANTIATE

}  // namespace tropic
