// A block of rows of a generated graph, built without the rest of it (issue 38: each GPU of a
// multi-GPU run generates its own row block). Every draw is the same counter-based one
// generate.cpp makes (generate_draw.hpp), so the block is exactly those rows of generate()'s CSR.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "generate_draw.hpp"
#include "tropic/detail/openmp.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"

namespace tropic {

using namespace generate_detail;

namespace {

// Kronecker: an edge's endpoints are hashes of its index, so no row can be drawn alone; every
// edge is drawn (twice: count, then fill) and the arcs whose source row lies in the block kept,
// both directions of each non-loop edge, as generate_kronecker keeps them. Then each row sorted by
// (column, weight) and the lightest of parallel arcs kept: generate_kronecker's step 3.
// O(all edges) time per block, O(the block) memory.
template <class W>
csr_rows<W> kronecker_rows(int scale, int edge_factor, std::uint64_t seed, row_range rows,
                           csr_rows<W> out) {
  const weight_draw<W> draw(W(1), W(255), "generate_kronecker");
  const rmat_edges edge(scale, seed);
  const counter_rng weight_rng(seed, stream_weight);
  const std::uint64_t edges = static_cast<std::uint64_t>(edge_factor) << scale;
  const vertex first = rows.begin, count = rows.size();
  auto in_block = [&](vertex x) { return x - first < count; };  // unsigned: x < first wraps
  const std::int64_t se = static_cast<std::int64_t>(edges);
  const bool par = 2 * edges > detail::parallel_threshold;  // arcs: both directions of each edge

  std::vector<arc_index> offsets(static_cast<std::size_t>(count) + 1, 0);
  arc_index* deg = offsets.data() + 1;
  TROPIC_OMP(parallel for schedule(static) if (par))
  for (std::int64_t e = 0; e < se; ++e) {
    const auto [u, v] = edge(static_cast<std::uint64_t>(e));
    if (u == v) continue;
    if (in_block(u)) {
      TROPIC_OMP(atomic)
      ++deg[u - first];
    }
    if (in_block(v)) {
      TROPIC_OMP(atomic)
      ++deg[v - first];
    }
  }
  for (vertex r = 0; r < count; ++r) offsets[r + 1] += offsets[r];

  // The fill order inside a row depends on the threads; the row sort below erases it.
  std::vector<std::pair<vertex, W>> arcs(offsets[count]);
  {
    std::vector<arc_index> cursor(offsets.begin(), offsets.end() - 1);
    arc_index* cur = cursor.data();
    TROPIC_OMP(parallel for schedule(static) if (par))
    for (std::int64_t e = 0; e < se; ++e) {
      const auto [u, v] = edge(static_cast<std::uint64_t>(e));
      if (u == v || !(in_block(u) || in_block(v))) continue;
      const W w = draw(weight_rng(static_cast<std::uint64_t>(e)));
      arc_index at;
      if (in_block(u)) {
        TROPIC_OMP(atomic capture)
        at = cur[u - first]++;
        arcs[at] = {v, w};
      }
      if (in_block(v)) {
        TROPIC_OMP(atomic capture)
        at = cur[v - first]++;
        arcs[at] = {u, w};
      }
    }
  }

  // Rows are independent: each sorted and its distinct columns counted in parallel, then copied
  // to their place (a serial loop here took most of a block's time on large graphs).
  const std::int64_t sc = static_cast<std::int64_t>(count);
  out.row_offsets.assign(static_cast<std::size_t>(count) + 1, 0);
  TROPIC_OMP(parallel for schedule(dynamic, 4096) if (par))
  for (std::int64_t r = 0; r < sc; ++r) {
    const auto b = arcs.begin() + static_cast<std::ptrdiff_t>(offsets[r]);
    const auto e = arcs.begin() + static_cast<std::ptrdiff_t>(offsets[r + 1]);
    std::sort(b, e);  // (column, weight): the lightest of each column run first
    arc_index distinct = 0;
    for (auto k = b; k != e; ++k) distinct += k == b || k->first != (k - 1)->first;
    out.row_offsets[r + 1] = distinct;
  }
  for (vertex r = 0; r < count; ++r) out.row_offsets[r + 1] += out.row_offsets[r];
  out.columns.resize(out.row_offsets[count]);
  out.weights.resize(out.row_offsets[count]);
  TROPIC_OMP(parallel for schedule(dynamic, 4096) if (par))
  for (std::int64_t r = 0; r < sc; ++r) {
    const auto b = arcs.begin() + static_cast<std::ptrdiff_t>(offsets[r]);
    const auto e = arcs.begin() + static_cast<std::ptrdiff_t>(offsets[r + 1]);
    arc_index at = out.row_offsets[r];
    for (auto k = b; k != e; ++k) {
      if (k != b && k->first == (k - 1)->first) continue;
      out.columns[at] = k->first;
      out.weights[at] = k->second;
      ++at;
    }
  }
  return out;
}

// Uniform: row u's targets and weights are draws u*d.., computed for the block's rows alone.
template <class W>
csr_rows<W> uniform_rows(vertex n, int degree, std::uint64_t seed, row_range rows,
                         csr_rows<W> out) {
  if (degree < 0 || static_cast<std::uint64_t>(degree) > n - 1ULL)
    throw error(error_code::invalid_value,
                "generate_uniform: out-degree " + std::to_string(degree) + " needs between 0 and " +
                    std::to_string(n - 1ULL) + " distinct targets among " + std::to_string(n) +
                    " vertices");
  const weight_draw<W> draw(W(1), W(10), "generate_uniform");
  const counter_rng target_rng(seed, stream_targets), weight_rng(seed, stream_weight);
  const auto d = static_cast<std::uint64_t>(degree);
  const std::uint64_t count = rows.size();
  out.row_offsets.resize(count + 1);
  for (std::uint64_t r = 0; r <= count; ++r) out.row_offsets[r] = r * d;
  out.columns.resize(count * d);
  out.weights.resize(count * d);
  std::vector<std::uint64_t> chosen;
  for (std::uint64_t r = 0; r < count; ++r) {
    const std::uint64_t u = rows.begin + r;
    uniform_targets(target_rng, n, d, u, chosen);
    for (std::uint64_t k = 0; k < d; ++k) {
      const std::uint64_t t = chosen[k];
      out.columns[r * d + k] = static_cast<vertex>(t < u ? t : t + 1);
      out.weights[r * d + k] = draw(weight_rng(u * d + k));  // the whole graph's arc index
    }
  }
  return out;
}

// Grid: a row's arcs and their weights depend on the row alone.
template <class W>
csr_rows<W> grid_rows(vertex rows_, vertex cols, std::uint64_t seed, row_range rows,
                      csr_rows<W> out) {
  const weight_draw<W> draw(W(1), W(1000), "generate_grid");
  const counter_rng weight_rng(seed, stream_weight);
  out.row_offsets.assign(static_cast<std::size_t>(rows.size()) + 1, 0);
  out.columns.reserve(std::uint64_t{4} * rows.size());
  out.weights.reserve(std::uint64_t{4} * rows.size());
  for (vertex r = 0; r < rows.size(); ++r) {
    grid_row(std::uint64_t{rows.begin} + r, rows_, cols, draw, weight_rng,
             [&](std::uint64_t to, W w) {
               out.columns.push_back(static_cast<vertex>(to));
               out.weights.push_back(w);
             });
    out.row_offsets[r + 1] = out.columns.size();
  }
  return out;
}

template <class W>
csr_rows<W> rows_from_spec(const std::string& spec, std::uint64_t seed, row_range rows) {
  const graph_spec g = parse_graph_spec(spec);
  if (g.kind == graph_spec::family::grid) {
    const std::uint64_t n64 = g.a * g.b;
    if (g.a == 0 || g.b == 0 || n64 > std::numeric_limits<vertex>::max())
      throw error(error_code::invalid_value,
                  "generate_grid: " + std::to_string(g.a) + " x " + std::to_string(g.b) +
                      " must have between 1 and " +
                      std::to_string(std::numeric_limits<vertex>::max()) + " vertices");
  }
  if (g.kind == graph_spec::family::uniform && g.a == 0)
    throw error(error_code::invalid_value, "generate_uniform: n must be at least 1");
  csr_rows<W> out;
  out.n = g.vertices();
  check_row_range(rows, out.n, "generate_rows");
  out.rows = rows;
  switch (g.kind) {
    case graph_spec::family::kron:
      return kronecker_rows<W>(static_cast<int>(g.a), static_cast<int>(g.b), seed, rows,
                               std::move(out));
    case graph_spec::family::uniform:
      return uniform_rows<W>(static_cast<vertex>(g.a), static_cast<int>(g.b), seed, rows,
                             std::move(out));
    default:
      return grid_rows<W>(static_cast<vertex>(g.a), static_cast<vertex>(g.b), seed, rows,
                          std::move(out));
  }
}

}  // namespace

template <class W>
csr_rows<W> generate_rows(const std::string& spec, std::uint64_t seed, row_range rows) {
  try {
    return rows_from_spec<W>(spec, seed, rows);
  } catch (const error& e) {
    // As generate(): every message quotes the spec.
    const std::string what = e.what();
    if (what.rfind("graph spec '", 0) == 0) throw;
    throw error(e.code(), "graph spec '" + spec + "': " + what);
  }
}

vertex graph_spec_vertices(const std::string& spec) {
  const graph_spec g = parse_graph_spec(spec);
  if (g.kind == graph_spec::family::grid && g.a * g.b > std::numeric_limits<vertex>::max())
    throw error(error_code::invalid_value, "graph spec '" + spec + "': " + std::to_string(g.a) +
                                               " x " + std::to_string(g.b) +
                                               " exceeds the 32-bit vertex limit");
  return g.vertices();
}

#define TROPIC_INSTANTIATE(W) \
  template csr_rows<W> generate_rows<W>(const std::string&, std::uint64_t, row_range);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)
#undef TROPIC_INSTANTIATE

}  // namespace tropic
