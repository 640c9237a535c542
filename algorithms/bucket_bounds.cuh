// Delta-stepping's buckets (Meyer & Sanders, section 2): bucket i holds the tentative distances
// in [iΔ, (i+1)Δ). Shared by the host-driven loop and the device-driven one.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {

// Bucket i holds distances in [bound(i), bound(i + 1)). Integers use an integral width D >= 1
// in exact W arithmetic (saturating at infinity, which leaves the last bucket open above);
// floats round i·Δ to W, which is monotone in i, so consecutive buckets tile the line.
template <class W>
struct bucket_bounds {
  double delta;     // the width actually used (integral for integer W)
  W origin = W(0);  // with an infinite width, the one bucket's lower end (a widened tail's)

  // A width at or beyond the largest finite W is one bucket (Bellman-Ford).
  __host__ __device__ static double width_for(double requested) {
    if (!(requested < double(std::numeric_limits<W>::max())))
      return std::numeric_limits<double>::infinity();
    if constexpr (std::is_integral_v<W>)
      return std::max(1.0, std::floor(requested));
    else
      return requested;
  }
  explicit bucket_bounds(double requested) : delta(width_for(requested)) {}
  // One bucket, [origin, ∞): every distance below origin is settled.
  static bucket_bounds from(W origin) {
    bucket_bounds b(std::numeric_limits<double>::infinity());
    b.origin = origin;
    return b;
  }

  __host__ __device__ W bound(std::uint64_t i) const {
    if (std::isinf(delta)) return i == 0 ? origin : infinity<W>();
    if constexpr (std::is_integral_v<W>) {
      using U = std::make_unsigned_t<W>;
      const U d = static_cast<U>(delta);
      if (i != 0 && U(infinity<W>()) / i < d) return infinity<W>();
      const U b = U(i) * d;
      return b >= U(infinity<W>()) ? infinity<W>() : W(b);
    } else {
      const double b = double(i) * delta;
      return b >= double(std::numeric_limits<W>::max()) ? infinity<W>() : W(b);
    }
  }
  __host__ __device__ value_range<W> range(std::uint64_t i) const {
    return {bound(i), bound(i + 1)};
  }

  // Can a heavy arc (w > Δ) land back in `bucket`? Not with integer weights in a bucket closed
  // above: t[v] >= iΔ and w > Δ make t[v] + w > (i+1)Δ. With floats, through rounding; and in
  // the last bucket, open above (its bound saturated).
  static bool stragglers_possible(const value_range<W>& bucket) {
    return !std::is_integral_v<W> || bucket.hi == infinity<W>();
  }

  // The bucket holding the finite value x.
  __host__ __device__ std::uint64_t index_of(W x) const {
    if (std::isinf(delta)) return 0;
    double guess = std::floor(double(x) / delta);
    std::uint64_t i = guess > 0 ? static_cast<std::uint64_t>(guess) : 0;
    while (i > 0 && x < bound(i)) --i;
    while (!(x < bound(i + 1))) ++i;
    return i;
  }
};

// A bucket (or window) width in W, for the algorithms that keep their bounds in W (Near-Far's
// windows, RDBS's buckets): integral and >= 1 for integers, never 0 for floats; infinity (one
// bucket) when Δ reaches the largest finite W.
template <class W>
W bucket_width(double delta) {
  if (!(delta < double(std::numeric_limits<W>::max()))) return infinity<W>();
  if constexpr (std::is_integral_v<W>)
    return W(std::max(1.0, std::floor(delta)));
  else
    return std::max(W(delta), std::numeric_limits<W>::denorm_min());
}

}  // namespace tropic::detail
