// Internal: options::cutoff as a bound of the weight type, so every algorithm compares distances
// the same exact way (a double cutoff against a uint64 distance would round).
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/error.hpp"
#include "tropic/sssp.hpp"

namespace tropic::detail {

// Throws invalid_value for a negative or NaN cutoff (+inf is "none").
inline void check_cutoff(double cutoff) {
  if (!(cutoff >= 0))
    throw error(error_code::invalid_value,
                "cutoff must be >= 0 (or +inf for none), got " + std::to_string(cutoff));
}

// The largest W not above `cutoff`: for a distance d of type W, d > cutoff exactly when
// d > cutoff_limit<W>(cutoff). infinity<W>() when the cutoff excludes nothing finite, so
// `d > limit` is then never true.
template <class W>
W cutoff_limit(double cutoff) {
  if constexpr (std::is_floating_point_v<W>) {
    if (!(cutoff < double(std::numeric_limits<W>::max()))) return infinity<W>();
    W f = static_cast<W>(cutoff);
    if (double(f) > cutoff) f = std::nextafter(f, -infinity<W>());
    return f;
  } else {
    // double(max()) rounds up to a power of two: every cutoff below it floors into W.
    if (!(cutoff < double(std::numeric_limits<W>::max()))) return infinity<W>();
    return static_cast<W>(std::floor(cutoff));
  }
}

template <class W>
bool cutoff_active(double cutoff) {
  return cutoff_limit<W>(cutoff) != infinity<W>();
}

// Reports every distance beyond the cutoff unreachable (and its parent -1). The parent of a kept
// vertex is never beyond: its distance is at most the child's (non-negative arcs), or, with
// negative arcs, the masked tree may lose a parent above the cutoff: then the child keeps it
// (a valid tight arc) only when the parent is kept; see mask_beyond's callers.
template <class W>
void mask_beyond(double cutoff, std::vector<W>& dist, std::vector<std::int64_t>* parents) {
  const W limit = cutoff_limit<W>(cutoff);
  if (limit == infinity<W>()) return;
  for (std::size_t v = 0; v < dist.size(); ++v)
    if (dist[v] > limit) {
      dist[v] = infinity<W>();
      if (parents && !parents->empty()) (*parents)[v] = -1;
    }
}

}  // namespace tropic::detail
