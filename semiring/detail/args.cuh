// Parameter types the dispatch layer hands the kernels: a push's frontier, its common parameters
// (push_args), and a pull's floor. Trivially copyable views, passed by value.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common.cuh"

namespace tropic::detail {

// A push's frontier: indices with values, or (device-driven loops) indices whose values are read
// from the dense vector being updated, and a length known to the host or kept on the device.
template <class W>
struct frontier_ref {
  const vertex* indices;
  const W* values;  // null: the value of entry k is dense[indices[k]]
  const W* dense;
  std::size_t size;
  __device__ __forceinline__ W value(std::size_t k, vertex u) const {
    return values ? values[k] : dense[u];
  }
};

// A push's kernel parameters, as push_dispatch draws them (the edge-wise launcher takes them in
// one piece). The kernels themselves keep separate parameters: as one struct parameter, nvcc
// reads its fields where they are used rather than once at entry, and the registers of the
// kernels change (pull_merge_path: 72 -> 90 at 4-byte weights, fewer blocks per SM).
template <class W>
struct push_args {
  csr_view<W> a;  // rows = sources
  row_ranges ranges;
  W* w;
  mask_view<W> mask;
  std::uint32_t* stamps;  // null when nothing is listed
  std::uint32_t stamp;
  vertex* improved;  // null: no list
  unsigned long long* improved_count;
  value_range<W> range;
};

// Rows no product of a pull can improve. With the min accumulator and a ⊗ that grows with both
// operands (S::monotone_mul), every product u(j) ⊗ A(i, j) is at least min_j u(j) ⊗ (a lower
// bound of the part's weights), so a row whose w(i) is already at or below that floor keeps its
// value and its arcs are not read: the bottom-up step's "skip the visited" of direction-
// optimising BFS (Beamer et al., SC'12), derived from the operands alone, so the result is the
// same with or without it. In delta-stepping these are the vertices settled in earlier buckets.
template <class W>
struct pull_floor {
  const W* least_input = nullptr;  // min over u's entries, on the device; null: no floor
  W least_weight{};                // at most every weight of the view's part
  // Set by pull_live_choice on the device: 1 when pull_live_rows runs this pull, 0 when the
  // merge path does (each kernel leaves at once when it is not its turn); null: merge path.
  const unsigned* by_live_rows = nullptr;

  // The floor (every thread of a kernel reads the same word), or nothing when there is none.
  template <class S>
  __device__ __forceinline__ W value() const {
    return least_input ? S::mul(*least_input, least_weight) : S::identity();
  }
  // Whether row i may change: always without a floor.
  __device__ __forceinline__ bool above(W floor, const W* w, vertex i) const {
    return !least_input || floor < w[i];
  }
  // The same, from w(i) as read by current().
  __device__ __forceinline__ bool above(W floor, W current) const {
    return !least_input || floor < current;
  }
  // w(i) where there is a floor (read once per row: the floor's and the row bound's operand).
  __device__ __forceinline__ W current(const W* w, vertex i) const {
    return least_input ? w[i] : W();
  }
  // min_j u(j) (every thread of a kernel reads the same word), or the identity without a floor.
  template <class S>
  __device__ __forceinline__ W least() const {
    return least_input ? *least_input : S::identity();
  }
};

}  // namespace tropic::detail
