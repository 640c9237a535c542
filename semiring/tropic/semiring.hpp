// Semiring policy types: stateless, passed by value, one kernel body serves them all.
//
// A semiring provides value_type, identity() (the additive identity, which is also "no entry"
// in our dense vectors), add (the monoid), mul, and atomic_add, the monoid applied atomically to
// a device location. Usable from plain C++ (the device parts compile only under nvcc).
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "tropic/csr.hpp"

#if defined(__CUDACC__)
#define TROPIC_HD __host__ __device__ __forceinline__
#else
#define TROPIC_HD inline
#endif

namespace tropic {

// a + b saturating at infinity<W>(): a finite sum that would reach or pass the largest value
// becomes infinity (for integers max() means "no path", see sssp.hpp on overflow detection).
template <class W>
TROPIC_HD W saturating_add(W a, W b) {
  if constexpr (std::is_floating_point_v<W>) {
    return a + b;  // IEEE: overflow goes to +inf
  } else {
    using U = std::make_unsigned_t<W>;
    constexpr W inf = std::numeric_limits<W>::max();
    if (a == inf || b == inf) return inf;
    if constexpr (std::is_signed_v<W>) {
      // A negative operand (Bellman-Ford with negative arcs) cannot overflow upwards with the
      // other one non-negative; two negative ones clamp at lowest() instead of wrapping (only a
      // negative cycle's rounds, or a distance W cannot hold, go that low).
      constexpr W lowest = std::numeric_limits<W>::lowest();
      if (a < 0 && b < 0) return a < lowest - b ? lowest : W(a + b);
      if (a < 0 || b < 0) return a + b;
    }
    U s = U(a) + U(b);
    return (s >= U(inf) || s < U(a)) ? inf : W(s);
  }
}

#if defined(__CUDACC__)
namespace detail {
// atomicMin for every weight type. Floats go through the order-preserving integer view: for
// x >= 0 the IEEE bits compare like signed integers, for x < 0 reversed like unsigned ones.
// Mixed signs order right too (negative distances, Bellman-Ford with negative arcs): a v < 0
// takes atomicMax over unsigned bits, where every negative float (sign bit set) lies above every
// non-negative one and a more negative one above a less negative one; a v >= 0 takes atomicMin
// over signed bits, where every negative float is a negative integer and stays.
// -0.0 is canonicalised to +0.0 first, or its bit pattern (the sign bit alone) would order below
// every positive value as a signed integer.
__device__ __forceinline__ float atomic_min(float* p, float v) {
  if (v == 0.0f) v = 0.0f;
  if (!(v < 0.0f))
    return __int_as_float(atomicMin(reinterpret_cast<int*>(p), __float_as_int(v)));
  return __uint_as_float(atomicMax(reinterpret_cast<unsigned*>(p), __float_as_uint(v)));
}
__device__ __forceinline__ double atomic_min(double* p, double v) {
  if (v == 0.0) v = 0.0;
  if (!(v < 0.0))
    return __longlong_as_double(
        atomicMin(reinterpret_cast<long long*>(p), __double_as_longlong(v)));
  return __longlong_as_double(static_cast<long long>(atomicMax(
      reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(__double_as_longlong(v)))));
}
__device__ __forceinline__ std::uint32_t atomic_min(std::uint32_t* p, std::uint32_t v) {
  return atomicMin(reinterpret_cast<unsigned*>(p), v);
}
__device__ __forceinline__ std::int32_t atomic_min(std::int32_t* p, std::int32_t v) {
  return atomicMin(reinterpret_cast<int*>(p), v);
}
__device__ __forceinline__ std::uint64_t atomic_min(std::uint64_t* p, std::uint64_t v) {
  return atomicMin(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}
__device__ __forceinline__ std::int64_t atomic_min(std::int64_t* p, std::int64_t v) {
  return atomicMin(reinterpret_cast<long long*>(p), static_cast<long long>(v));
}

template <class W>
__device__ __forceinline__ W atomic_plus(W* p, W v) {
  if constexpr (std::is_same_v<W, std::uint64_t> || std::is_same_v<W, std::int64_t>) {
    return W(atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
  } else if constexpr (std::is_same_v<W, std::int32_t>) {
    return atomicAdd(reinterpret_cast<int*>(p), v);
  } else if constexpr (std::is_same_v<W, std::uint32_t>) {
    return atomicAdd(reinterpret_cast<unsigned*>(p), v);
  } else {
    return atomicAdd(p, v);
  }
}
}  // namespace detail
#endif

// The tropical semiring: (min, +) over W with identity infinity<W>().
template <class W>
struct min_plus {
  using value_type = W;
  static constexpr bool is_min_monoid = true;
  // a ⊗ b grows with both operands (saturating addition; float rounding is monotone): the least
  // entry of u ⊗ the least weight bounds every product from below (vxm's pull uses it).
  static constexpr bool monotone_mul = true;
  TROPIC_HD static constexpr W identity() { return infinity<W>(); }
  TROPIC_HD static W add(W a, W b) { return b < a ? b : a; }
  TROPIC_HD static W mul(W a, W b) { return saturating_add(a, b); }
#if defined(__CUDACC__)
  __device__ static W atomic_add(W* p, W v) { return detail::atomic_min(p, v); }
#endif
};

// (min, second): the path's last arc weight; (any, pair)-like uses build on it.
template <class W>
struct min_second {
  using value_type = W;
  static constexpr bool is_min_monoid = true;
  static constexpr bool monotone_mul = true;
  TROPIC_HD static constexpr W identity() { return infinity<W>(); }
  TROPIC_HD static W add(W a, W b) { return b < a ? b : a; }
  TROPIC_HD static W mul(W, W b) { return b; }
#if defined(__CUDACC__)
  __device__ static W atomic_add(W* p, W v) { return detail::atomic_min(p, v); }
#endif
};

// The ordinary arithmetic semiring, to compare one SpMV with cuSPARSE's.
template <class W>
struct plus_times {
  using value_type = W;
  static constexpr bool is_min_monoid = false;
  static constexpr bool monotone_mul = false;  // not with negative operands
  TROPIC_HD static constexpr W identity() { return W(0); }
  TROPIC_HD static W add(W a, W b) { return a + b; }
  TROPIC_HD static W mul(W a, W b) { return a * b; }
#if defined(__CUDACC__)
  __device__ static W atomic_add(W* p, W v) { return detail::atomic_plus(p, v); }
#endif
};

}  // namespace tropic
