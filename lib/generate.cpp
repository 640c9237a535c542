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

namespace tropic {

namespace {

constexpr std::uint64_t golden_gamma = 0x9e3779b97f4a7c15ULL;

// The splitmix64 finalizer (Steele, Lea, Flood 2014): a bijective 64-bit mixer.
inline std::uint64_t mix64(std::uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The i-th output of a splitmix64 sequence keyed by (seed, stream): splitmix64's state after i
// steps is key + i * gamma, so the sequence is random-access.
class counter_rng {
 public:
  counter_rng(std::uint64_t seed, std::uint64_t stream) noexcept
      : key_(mix64(seed ^ mix64(stream * golden_gamma + 0x5851f42d4c957f2dULL))) {}
  std::uint64_t operator()(std::uint64_t i) const noexcept {
    return mix64(key_ + (i + 1) * golden_gamma);
  }

 private:
  std::uint64_t key_;
};

// Streams, so that e.g. a Kronecker edge's weight is independent of its endpoints' bits.
enum : std::uint64_t {
  stream_rmat = 1,
  stream_permutation = 2,
  stream_weight = 3,
  stream_targets = 4,
};

// floor(r * bound / 2^64): an unbiased-enough draw in [0, bound) without a division.
inline std::uint64_t scale_to(std::uint64_t r, std::uint64_t bound) noexcept {
#if defined(__SIZEOF_INT128__)
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(r) * bound) >> 64);
#else
  return r % bound;
#endif
}

// Integer weights drawn uniformly from [min_weight, max_weight], stored as W. For floating W the
// integers are those in [ceil(min), floor(max)].
template <class W>
class weight_draw {
 public:
  weight_draw(W min_weight, W max_weight, const char* who) {
    if constexpr (std::is_floating_point_v<W>) {
      if (!std::isfinite(min_weight) || !std::isfinite(max_weight))
        throw error(error_code::invalid_value,
                    std::string(who) + ": weight bounds must be finite, got [" + weight_string(min_weight) +
                        ", " + weight_string(max_weight) + "]");
      lo_ = std::ceil(static_cast<double>(min_weight));
      const double hi = std::floor(static_cast<double>(max_weight));
      constexpr double exact = 9007199254740992.0;  // 2^53: beyond it doubles skip integers
      if (!(lo_ <= hi) || std::fabs(lo_) > exact || std::fabs(hi) > exact)
        throw error(error_code::invalid_value,
                    std::string(who) + ": the weight range [" + weight_string(min_weight) + ", " +
                        weight_string(max_weight) + "] must contain an integer and lie within +-2^53");
      span_ = static_cast<std::uint64_t>(hi - lo_);
    } else {
      if (min_weight > max_weight)
        throw error(error_code::invalid_value, std::string(who) + ": min_weight " +
                                                   weight_string(min_weight) + " > max_weight " +
                                                   weight_string(max_weight));
      lo_ = static_cast<std::uint64_t>(min_weight);
      // Modular arithmetic gives the width even for signed bounds of opposite signs.
      span_ = static_cast<std::uint64_t>(max_weight) - static_cast<std::uint64_t>(min_weight);
    }
  }

  W operator()(std::uint64_t r) const noexcept {
    const std::uint64_t offset =
        span_ == std::numeric_limits<std::uint64_t>::max() ? r : scale_to(r, span_ + 1);
    if constexpr (std::is_floating_point_v<W>) {
      return static_cast<W>(lo_ + static_cast<double>(offset));
    } else {
      return static_cast<W>(lo_ + offset);
    }
  }

 private:
  std::conditional_t<std::is_floating_point_v<W>, double, std::uint64_t> lo_{};
  std::uint64_t span_ = 0;
};

// A seeded bijection of [0, 2^bits): rounds of (multiply by an odd constant, add, mask) and
// (xor with the value shifted right), each invertible modulo 2^bits. Graph500 relabels the
// vertices so that the hubs R-MAT puts at low ids land anywhere; a bijection does that without a
// 2^scale-entry permutation table or a shuffle whose result would depend on the thread count.
class bit_permutation {
 public:
  bit_permutation(int bits, std::uint64_t seed) noexcept
      : mask_(bits >= 64 ? ~0ULL : (1ULL << bits) - 1), shift_(std::max(1, (bits + 1) / 2)) {
    const counter_rng rng(seed, stream_permutation);
    for (int r = 0; r < rounds; ++r) {
      mul_[r] = rng(2 * r) | 1;
      add_[r] = rng(2 * r + 1);
    }
  }
  std::uint64_t operator()(std::uint64_t x) const noexcept {
    for (int r = 0; r < rounds; ++r) {
      x = (x * mul_[r] + add_[r]) & mask_;
      x ^= x >> shift_;
    }
    return x;
  }

 private:
  static constexpr int rounds = 3;
  std::uint64_t mask_;
  int shift_;
  std::uint64_t mul_[rounds]{};
  std::uint64_t add_[rounds]{};
};

// Graph500 R-MAT: each of `scale` levels picks a quadrant with probabilities A = 0.57, B = 0.19,
// C = 0.19, D = 0.05 from 16 random bits, so one hash serves four levels.
class rmat_edges {
 public:
  rmat_edges(int scale, std::uint64_t seed) noexcept
      : scale_(scale), rng_(seed, stream_rmat), permute_(scale, seed) {}

  std::pair<vertex, vertex> operator()(std::uint64_t e) const noexcept {
    constexpr std::uint32_t a = 37356;    // round(0.57 * 2^16)
    constexpr std::uint32_t ab = 49807;   // round(0.76 * 2^16)
    constexpr std::uint32_t abc = 62259;  // round(0.95 * 2^16)
    std::uint64_t u = 0, v = 0, bits = 0;
    for (int level = 0; level < scale_; ++level) {
      if ((level & 3) == 0) bits = rng_(e * max_hashes + (level >> 2));
      const auto r = static_cast<std::uint32_t>(bits & 0xffff);
      bits >>= 16;
      const std::uint64_t row_bit = r >= ab;                         // quadrants C and D
      const std::uint64_t col_bit = (r >= a && r < ab) || r >= abc;  // quadrants B and D
      u |= row_bit << level;
      v |= col_bit << level;
    }
    return {static_cast<vertex>(permute_(u)), static_cast<vertex>(permute_(v))};
  }

 private:
  static constexpr std::uint64_t max_hashes = 8;  // 8 x 4 levels >= the largest scale, 31
  int scale_;
  counter_rng rng_;
  bit_permutation permute_;
};

// [first, last) of thread t's share of `count` items split over `threads`.
inline std::pair<std::uint64_t, std::uint64_t> share(std::uint64_t count, int threads, int t) {
  const std::uint64_t q = count / threads, r = count % threads;
  auto begin = [&](std::uint64_t i) { return q * i + std::min<std::uint64_t>(i, r); };
  return {begin(t), begin(t + 1)};
}

std::uint64_t parse_count(const std::string& spec, const std::string& field, const char* name,
                          std::uint64_t max) {
  std::uint64_t value = 0;
  const char* first = field.data();
  const char* last = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (field.empty() || ec != std::errc() || ptr != last || value > max)
    throw error(error_code::invalid_value, "graph spec '" + spec + "': " + name +
                                               " must be an integer in [0, " + std::to_string(max) +
                                               "], got '" + field + "'");
  return value;
}

}  // namespace

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

  TROPIC_OMP(parallel) {
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

  TROPIC_OMP(parallel) {
    std::vector<std::uint64_t> chosen;
    TROPIC_OMP(for schedule(static))
    for (std::int64_t su = 0; su < static_cast<std::int64_t>(n); ++su) {
      const auto u = static_cast<std::uint64_t>(su);
      // Floyd's sampling: d distinct targets out of the n - 1 other vertices in exactly d draws.
      // `chosen` stays sorted: the candidate j exceeds everything drawn before it.
      const std::uint64_t others = n - 1ULL;
      chosen.clear();
      for (std::uint64_t j = others - d; j < others; ++j) {
        const std::uint64_t t = scale_to(target_rng(u * d + (j - (others - d))), j + 1);
        const auto at = std::lower_bound(chosen.begin(), chosen.end(), t);
        if (at != chosen.end() && *at == t) {
          chosen.push_back(j);
        } else {
          chosen.insert(at, t);
        }
      }
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
  // The undirected edge right of vertex x has key 2x, the one below it 2x + 1: both arcs of an
  // edge read the same key, hence the same weight.
  auto right_weight = [&](std::uint64_t x) { return draw(weight_rng(2 * x)); };
  auto down_weight = [&](std::uint64_t x) { return draw(weight_rng(2 * x + 1)); };

  csr<W> g;
  g.n = static_cast<vertex>(n64);
  g.row_offsets.assign(n64 + 1, 0);
  TROPIC_OMP(parallel for schedule(static))
  for (std::int64_t sx = 0; sx < static_cast<std::int64_t>(n64); ++sx) {
    const auto x = static_cast<std::uint64_t>(sx);
    const std::uint64_t r = x / cols, c = x % cols;
    g.row_offsets[x + 1] = (r > 0) + (r + 1 < rows) + (c > 0) + (c + 1 < cols);
  }
  for (std::uint64_t x = 0; x < n64; ++x) g.row_offsets[x + 1] += g.row_offsets[x];
  g.columns.resize(g.row_offsets[n64]);
  g.weights.resize(g.row_offsets[n64]);

  TROPIC_OMP(parallel for schedule(static))
  for (std::int64_t sx = 0; sx < static_cast<std::int64_t>(n64); ++sx) {
    const auto x = static_cast<std::uint64_t>(sx);
    const std::uint64_t r = x / cols, c = x % cols;
    arc_index k = g.row_offsets[x];
    // Up, left, right, down: increasing column order.
    auto put = [&](std::uint64_t to, W w) {
      g.columns[k] = static_cast<vertex>(to);
      g.weights[k] = w;
      ++k;
    };
    if (r > 0) put(x - cols, down_weight(x - cols));
    if (c > 0) put(x - 1, right_weight(x - 1));
    if (c + 1 < cols) put(x + 1, right_weight(x));
    if (r + 1 < rows) put(x + cols, down_weight(x));
  }
  return g;
}

namespace {
template <class W>
csr<W> generate_from_spec(const std::string& spec, std::uint64_t seed) {
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
    return generate_kronecker<W>(static_cast<int>(scale), static_cast<int>(ef), seed, W(1), W(255));
  }
  if (family == "uniform") {
    if (parts.size() != 3) throw arity_error();
    const auto n = parse_count(spec, parts[1], "N", max_vertex);
    const auto deg = parse_count(spec, parts[2], "DEG", max_int);
    return generate_uniform<W>(static_cast<vertex>(n), static_cast<int>(deg), seed, W(1), W(10));
  }
  if (family == "grid") {
    if (parts.size() != 3) throw arity_error();
    const auto rows = parse_count(spec, parts[1], "ROWS", max_vertex);
    const auto cols = parse_count(spec, parts[2], "COLS", max_vertex);
    return generate_grid<W>(static_cast<vertex>(rows), static_cast<vertex>(cols), seed, W(1),
                            W(1000));
  }
  throw error(error_code::invalid_value,
              "graph spec '" + spec + "': unknown family '" + family + "'; " + usage);
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
