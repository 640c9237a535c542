// The counter-based draws the generators share (generate.cpp: whole graphs; generate_rows.cpp: a
// block of rows of the same graphs; generate_device.cu: a block built on a GPU). Private to lib/:
// one definition, so all compute the same edge, target and weight for the same counter; the
// draws are host and device functions alike.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/error.hpp"

#if defined(__CUDACC__)
#define TROPIC_DRAW __host__ __device__
#else
#define TROPIC_DRAW
#endif

namespace tropic {
namespace generate_detail {

constexpr std::uint64_t golden_gamma = 0x9e3779b97f4a7c15ULL;

// The splitmix64 finalizer (Steele, Lea, Flood 2014): a bijective 64-bit mixer.
TROPIC_DRAW inline std::uint64_t mix64(std::uint64_t z) noexcept {
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
  TROPIC_DRAW std::uint64_t operator()(std::uint64_t i) const noexcept {
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
TROPIC_DRAW inline std::uint64_t scale_to(std::uint64_t r, std::uint64_t bound) noexcept {
#if defined(__CUDA_ARCH__)
  return __umul64hi(r, bound);  // the same high word as the 128-bit product below
#elif defined(__SIZEOF_INT128__)
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
                    std::string(who) + ": weight bounds must be finite, got [" +
                        weight_string(min_weight) + ", " + weight_string(max_weight) + "]");
      lo_ = std::ceil(static_cast<double>(min_weight));
      const double hi = std::floor(static_cast<double>(max_weight));
      constexpr double exact = 9007199254740992.0;  // 2^53: beyond it doubles skip integers
      if (!(lo_ <= hi) || std::fabs(lo_) > exact || std::fabs(hi) > exact)
        throw error(error_code::invalid_value,
                    std::string(who) + ": the weight range [" + weight_string(min_weight) + ", " +
                        weight_string(max_weight) +
                        "] must contain an integer and lie within +-2^53");
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

  TROPIC_DRAW W operator()(std::uint64_t r) const noexcept { return value(offset(r)); }
  // The draw in two halves: its offset above the least weight (what orders weights), and the
  // weight of an offset.
  TROPIC_DRAW std::uint64_t offset(std::uint64_t r) const noexcept {
    return span_ == ~std::uint64_t{0} ? r : scale_to(r, span_ + 1);
  }
  TROPIC_DRAW W value(std::uint64_t offset) const noexcept {
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
  TROPIC_DRAW std::uint64_t operator()(std::uint64_t x) const noexcept {
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

  TROPIC_DRAW std::pair<vertex, vertex> operator()(std::uint64_t e) const noexcept {
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

inline std::uint64_t parse_count(const std::string& spec, const std::string& field,
                                 const char* name, std::uint64_t max) {
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

// Floyd's sampling: `chosen` <- d distinct targets of row u (sorted, as indices into the n - 1
// vertices other than u) in exactly d draws. `chosen` stays sorted: the candidate j exceeds
// everything drawn before it. Row u's draws are counters u*d.., so any row is drawn alone.
inline void uniform_targets(const counter_rng& target_rng, std::uint64_t n, std::uint64_t d,
                            std::uint64_t u, std::vector<std::uint64_t>& chosen) {
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
}

// Row x of a rows x cols grid, as put(column, weight) calls in increasing column order (up, left,
// right, down). The undirected edge right of vertex y has weight key 2y, the one below it 2y + 1:
// both arcs of an edge read the same key, hence the same weight, whichever row is drawn.
template <class W, class Put>
TROPIC_DRAW void grid_row(std::uint64_t x, std::uint64_t rows, std::uint64_t cols,
                          const weight_draw<W>& draw, const counter_rng& weight_rng, Put put) {
  auto right_weight = [&](std::uint64_t y) { return draw(weight_rng(2 * y)); };
  auto down_weight = [&](std::uint64_t y) { return draw(weight_rng(2 * y + 1)); };
  const std::uint64_t r = x / cols, c = x % cols;
  if (r > 0) put(x - cols, down_weight(x - cols));
  if (c > 0) put(x - 1, right_weight(x - 1));
  if (c + 1 < cols) put(x + 1, right_weight(x));
  if (r + 1 < rows) put(x + cols, down_weight(x));
}

// A parsed "kron:SCALE[:EF]", "uniform:N:DEG" or "grid:ROWS:COLS" (see generate()).
struct graph_spec {
  enum class family { kron, uniform, grid } kind;
  std::uint64_t a = 0, b = 0;  // (scale, ef), (n, degree) or (rows, cols)
  vertex vertices() const noexcept {
    switch (kind) {
      case family::kron:
        return static_cast<vertex>(std::uint64_t{1} << a);
      case family::uniform:
        return static_cast<vertex>(a);
      default:
        return static_cast<vertex>(a * b);  // generate_grid refuses products past 2^32
    }
  }
};
graph_spec parse_graph_spec(const std::string& spec);

}  // namespace generate_detail
}  // namespace tropic
