// Synthetic graphs: Graph500 Kronecker (R-MAT), uniform fixed out-degree, 2D grid.
//
// Every random number is a pure function of (seed, stream, counter): a splitmix64 hash of a
// counter, not a shared generator state. Edge e of a Kronecker graph is therefore the same edge
// whichever thread draws it and however many threads there are, and the graph can be drawn twice
// (once to count degrees, once to scatter) instead of being stored as an edge list: at scale 24
// that list alone would be 268M edges x 12 bytes, more than the CSR's columns.
#include "tropic/generate.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tropic/error.hpp"

#include "tropic/detail/openmp.hpp"

#include "generate_draw.hpp"

namespace tropic {

using namespace generate_detail;

// Assembly is a two-level counting sort, so that no arc is ever written to a random address of
// the whole CSR (at scale 24 such scattered writes cost more than generating the edges):
//  1. each thread counts its share of the edges per bucket of 2^row_bits consecutive rows;
//  2. it draws them again and appends each arc to its own slice of its bucket, a few thousand
//     sequential streams, with the row inside the bucket in a 16-bit side array;
//  3. each bucket, now a few MB, is sorted by row in cache, each row by (column, weight), and the
//     lightest of parallel arcs kept;
//  4. one sequential pass closes the gaps the dropped duplicates left.
// No atomics: the thread's share of the edges and its slices are fixed before step 2. Which thread
// wrote an arc where never shows: every row ends sorted and deduplicated.
template <class W>
csr<W> generate_kronecker(int scale, int edge_factor, std::uint64_t seed, W min_weight,
                          W max_weight) {
  // 2^scale vertices must fit the 32-bit vertex type.
  if (scale < 0 || scale > 31)
    throw error(error_code::invalid_value,
                "generate_kronecker: scale must be in [0, 31], got " + std::to_string(scale));
  if (edge_factor < 0)
    throw error(error_code::invalid_value,
                "generate_kronecker: edge factor must be >= 0, got " + std::to_string(edge_factor));
  const weight_draw<W> draw(min_weight, max_weight, "generate_kronecker");
  const rmat_edges edge(scale, seed);
  const counter_rng weight_rng(seed, stream_weight);

  csr<W> g;
  g.n = static_cast<vertex>(std::uint64_t{1} << scale);
  const std::uint64_t edges = static_cast<std::uint64_t>(edge_factor) << scale;
  // About 1024 buckets; the row inside a bucket must fit the 16-bit side array.
  const int row_bits = std::min(16, std::max(0, scale - 10));
  const std::size_t buckets = std::size_t{1} << (scale - row_bits);
  const vertex row_mask = (vertex{1} << row_bits) - 1;

  std::vector<std::vector<arc_index>> slice;  // [thread][bucket]: next free position
  std::vector<arc_index> bucket_begin(buckets + 1, 0), bucket_kept(buckets, 0);
  std::vector<std::uint16_t> row_in_bucket;
  g.row_offsets.assign(static_cast<std::size_t>(g.n) + 1, 0);

  TROPIC_OMP(parallel if (2 * edges > detail::parallel_threshold)) {
    int threads = 1, t = 0;
#if defined(_OPENMP)
    threads = omp_get_num_threads();
    t = omp_get_thread_num();
#endif
    TROPIC_OMP(single)
    slice.assign(threads, std::vector<arc_index>(buckets, 0));
    const auto [first, last] = share(edges, threads, t);
    std::vector<arc_index>& mine = slice[t];

    // 1. Arcs per bucket in this thread's share: both directions of every non-loop edge.
    for (std::uint64_t e = first; e < last; ++e) {
      const auto [u, v] = edge(e);
      if (u == v) continue;
      ++mine[u >> row_bits];
      ++mine[v >> row_bits];
    }
    TROPIC_OMP(barrier)
    TROPIC_OMP(single) {
      arc_index at = 0;
      for (std::size_t b = 0; b < buckets; ++b) {
        bucket_begin[b] = at;
        for (auto& counts : slice) at += std::exchange(counts[b], at);
      }
      bucket_begin[buckets] = at;
      g.columns.resize(at);
      g.weights.resize(at);
      row_in_bucket.resize(at);
    }

    // 2. The same edges again, appended to this thread's slices.
    for (std::uint64_t e = first; e < last; ++e) {
      const auto [u, v] = edge(e);
      if (u == v) continue;
      const W w = draw(weight_rng(e));
      const arc_index at_u = mine[u >> row_bits]++, at_v = mine[v >> row_bits]++;
      g.columns[at_u] = v;
      g.weights[at_u] = w;
      row_in_bucket[at_u] = static_cast<std::uint16_t>(u & row_mask);
      g.columns[at_v] = u;
      g.weights[at_v] = w;
      row_in_bucket[at_v] = static_cast<std::uint16_t>(v & row_mask);
    }
    TROPIC_OMP(barrier)

    // 3. Per bucket: rows, then (column, weight) within a row; the deduplicated degree of row u
    // goes to row_offsets[u + 1] (each bucket owns its rows' entries).
    std::vector<arc_index> row_start;
    std::vector<std::pair<vertex, W>> by_row;
    TROPIC_OMP(for schedule(dynamic, 1))
    for (std::int64_t sb = 0; sb < static_cast<std::int64_t>(buckets); ++sb) {
      const auto b = static_cast<std::size_t>(sb);
      const arc_index begin = bucket_begin[b], end = bucket_begin[b + 1];
      row_start.assign(static_cast<std::size_t>(row_mask) + 2, 0);
      for (arc_index k = begin; k < end; ++k) ++row_start[row_in_bucket[k] + 1];
      for (std::size_t r = 0; r <= row_mask; ++r) row_start[r + 1] += row_start[r];
      by_row.resize(end - begin);
      for (arc_index k = begin; k < end; ++k)
        by_row[row_start[row_in_bucket[k]]++] = {g.columns[k], g.weights[k]};
      // row_start[r] now is the end of row r, i.e. the start of row r + 1.
      arc_index out = begin, row_begin = 0;
      for (std::size_t r = 0; r <= row_mask; ++r) {
        const arc_index row_end = row_start[r];
        // (column, weight) order puts the lightest of each column run first.
        std::sort(by_row.begin() + row_begin, by_row.begin() + row_end);
        const arc_index row_out = out;
        for (arc_index k = row_begin; k < row_end; ++k) {
          if (k > row_begin && by_row[k].first == by_row[k - 1].first) continue;
          g.columns[out] = by_row[k].first;
          g.weights[out] = by_row[k].second;
          ++out;
        }
        g.row_offsets[(b << row_bits) + r + 1] = out - row_out;
        row_begin = row_end;
      }
      bucket_kept[b] = out - begin;
    }
  }
  std::vector<std::uint16_t>().swap(row_in_bucket);

  // 4. Buckets only move left (their new start is at most their old one), so copying them in
  // order is safe in place.
  arc_index write = 0;
  for (std::size_t b = 0; b < buckets; ++b) {
    const arc_index begin = bucket_begin[b], count = bucket_kept[b];
    if (write != begin) {
      std::copy(g.columns.begin() + begin, g.columns.begin() + begin + count,
                g.columns.begin() + write);
      std::copy(g.weights.begin() + begin, g.weights.begin() + begin + count,
                g.weights.begin() + write);
    }
    write += count;
  }
  g.columns.resize(write);
  g.weights.resize(write);
  for (std::size_t u = 0; u < g.n; ++u) g.row_offsets[u + 1] += g.row_offsets[u];
  return g;
}

template <class W>
csr<W> generate_uniform(vertex n, int degree, std::uint64_t seed, W min_weight, W max_weight) {
  if (n == 0) throw error(error_code::invalid_value, "generate_uniform: n must be at least 1");
  if (degree < 0 || static_cast<std::uint64_t>(degree) > n - 1ULL)
    throw error(error_code::invalid_value,
                "generate_uniform: out-degree " + std::to_string(degree) + " needs between 0 and " +
                    std::to_string(n - 1ULL) + " distinct targets among " + std::to_string(n) +
                    " vertices");
  const weight_draw<W> draw(min_weight, max_weight, "generate_uniform");
  const counter_rng target_rng(seed, stream_targets), weight_rng(seed, stream_weight);
  const auto d = static_cast<std::uint64_t>(degree);

  csr<W> g;
  g.n = n;
  g.row_offsets.resize(static_cast<std::size_t>(n) + 1);
  for (std::uint64_t u = 0; u <= n; ++u) g.row_offsets[u] = u * d;
  g.columns.resize(n * d);
  g.weights.resize(n * d);

  TROPIC_OMP(parallel if (n * d > detail::parallel_threshold)) {
    std::vector<std::uint64_t> chosen;
    TROPIC_OMP(for schedule(static))
    for (std::int64_t su = 0; su < static_cast<std::int64_t>(n); ++su) {
      const auto u = static_cast<std::uint64_t>(su);
      uniform_targets(target_rng, n, d, u, chosen);
      const arc_index begin = u * d;
      for (std::uint64_t k = 0; k < d; ++k) {
        // Skipping u itself keeps the order: targets >= u shift up by one.
        const std::uint64_t t = chosen[k];
        g.columns[begin + k] = static_cast<vertex>(t < u ? t : t + 1);
        g.weights[begin + k] = draw(weight_rng(begin + k));
      }
    }
  }
  return g;
}

template <class W>
csr<W> generate_grid(vertex rows, vertex cols, std::uint64_t seed, W min_weight, W max_weight) {
  const std::uint64_t n64 = static_cast<std::uint64_t>(rows) * cols;
  if (rows == 0 || cols == 0 || n64 > std::numeric_limits<vertex>::max())
    throw error(error_code::invalid_value, "generate_grid: " + std::to_string(rows) + " x " +
                                               std::to_string(cols) + " must have between 1 and " +
                                               std::to_string(std::numeric_limits<vertex>::max()) +
                                               " vertices");
  const weight_draw<W> draw(min_weight, max_weight, "generate_grid");
  const counter_rng weight_rng(seed, stream_weight);
  csr<W> g;
  g.n = static_cast<vertex>(n64);
  g.row_offsets.assign(n64 + 1, 0);
  TROPIC_OMP(parallel for schedule(static) if (4 * n64 > detail::parallel_threshold))
  for (std::int64_t sx = 0; sx < static_cast<std::int64_t>(n64); ++sx) {
    const auto x = static_cast<std::uint64_t>(sx);
    const std::uint64_t r = x / cols, c = x % cols;
    g.row_offsets[x + 1] = (r > 0) + (r + 1 < rows) + (c > 0) + (c + 1 < cols);
  }
  for (std::uint64_t x = 0; x < n64; ++x) g.row_offsets[x + 1] += g.row_offsets[x];
  g.columns.resize(g.row_offsets[n64]);
  g.weights.resize(g.row_offsets[n64]);

  TROPIC_OMP(parallel for schedule(static) if (4 * n64 > detail::parallel_threshold))
  for (std::int64_t sx = 0; sx < static_cast<std::int64_t>(n64); ++sx) {
    const auto x = static_cast<std::uint64_t>(sx);
    arc_index k = g.row_offsets[x];
    grid_row(x, rows, cols, draw, weight_rng, [&](std::uint64_t to, W w) {
      g.columns[k] = static_cast<vertex>(to);
      g.weights[k] = w;
      ++k;
    });
  }
  return g;
}

namespace generate_detail {
graph_spec parse_graph_spec(const std::string& spec) {
  const char* usage = "expected \"kron:SCALE[:EF]\", \"uniform:N:DEG\" or \"grid:ROWS:COLS\"";
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const std::size_t colon = spec.find(':', start);
    parts.push_back(spec.substr(start, colon == std::string::npos ? colon : colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  const std::string& family = parts[0];
  auto arity_error = [&]() {
    return error(error_code::invalid_value,
                 "graph spec '" + spec + "': wrong number of fields; " + usage);
  };
  constexpr std::uint64_t max_int = std::numeric_limits<int>::max();
  constexpr std::uint64_t max_vertex = std::numeric_limits<vertex>::max();
  if (family == "kron") {
    if (parts.size() != 2 && parts.size() != 3) throw arity_error();
    const auto scale = parse_count(spec, parts[1], "SCALE", 31);
    const auto ef = parts.size() == 3 ? parse_count(spec, parts[2], "EF", max_int) : 16;
    return {graph_spec::family::kron, scale, ef};
  }
  if (family == "uniform") {
    if (parts.size() != 3) throw arity_error();
    const auto n = parse_count(spec, parts[1], "N", max_vertex);
    const auto deg = parse_count(spec, parts[2], "DEG", max_int);
    return {graph_spec::family::uniform, n, deg};
  }
  if (family == "grid") {
    if (parts.size() != 3) throw arity_error();
    const auto rows = parse_count(spec, parts[1], "ROWS", max_vertex);
    const auto cols = parse_count(spec, parts[2], "COLS", max_vertex);
    return {graph_spec::family::grid, rows, cols};
  }
  throw error(error_code::invalid_value,
              "graph spec '" + spec + "': unknown family '" + family + "'; " + usage);
}
}  // namespace generate_detail

namespace {
template <class W>
csr<W> generate_from_spec(const std::string& spec, std::uint64_t seed) {
  const graph_spec g = parse_graph_spec(spec);
  switch (g.kind) {
    case graph_spec::family::kron:
      return generate_kronecker<W>(static_cast<int>(g.a), static_cast<int>(g.b), seed, W(1),
                                   W(255));
    case graph_spec::family::uniform:
      return generate_uniform<W>(static_cast<vertex>(g.a), static_cast<int>(g.b), seed, W(1),
                                 W(10));
    default:
      return generate_grid<W>(static_cast<vertex>(g.a), static_cast<vertex>(g.b), seed, W(1),
                              W(1000));
  }
}
}  // namespace

template <class W>
csr<W> generate(const std::string& spec, std::uint64_t seed) {
  try {
    return generate_from_spec<W>(spec, seed);
  } catch (const error& e) {
    // The generators' own checks (degree too large, too many vertices) should quote the spec.
    const std::string what = e.what();
    if (what.rfind("graph spec '", 0) == 0) throw;
    throw error(e.code(), "graph spec '" + spec + "': " + what);
  }
}

#define TROPIC_INSTANTIATE(W)                                            \
  template csr<W> generate_kronecker<W>(int, int, std::uint64_t, W, W);  \
  template csr<W> generate_uniform<W>(vertex, int, std::uint64_t, W, W); \
  template csr<W> generate_grid<W>(vertex, vertex, std::uint64_t, W, W); \
  template csr<W> generate<W>(const std::string&, std::uint64_t);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)
#undef TROPIC_INSTANTIATE

}  // namespace tropic
