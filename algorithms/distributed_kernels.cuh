// The kernels of the several-GPU delta-stepping (delta_stepping_distributed.cu): who owns a
// vertex, routing a step's improved entries to their owners, applying received ones, the
// frontier's arc count for the direction rule, and the select of a rank's own bucket. Each
// appends to its lists with one atomic per warp and key.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {
namespace distributed {

constexpr std::size_t max_parts = 64;
constexpr unsigned block_threads = 256;

// Where the parts begin (begin[p], and begin[parts] = n), passed to kernels by value.
struct part_bounds {
  vertex begin[max_parts + 1];
  unsigned parts;
  __device__ unsigned owner(vertex v) const {
    unsigned p = 0;
    while (v >= begin[p + 1]) ++p;
    return p;
  }
};

inline unsigned blocks_for(std::size_t items) {
  return unsigned(std::clamp<std::size_t>((items + block_threads - 1) / block_threads, 1, 8192));
}

// A slot in the list counted by *counter: one atomic per warp and key instead of one per lane.
__device__ __forceinline__ unsigned long long append_slot(unsigned long long* counter,
                                                          unsigned key) {
  const unsigned active = __activemask();
  const unsigned peers = __match_any_sync(active, key);
  const int leader = __ffs(peers) - 1;
  const int lane = int(threadIdx.x & 31u);
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(counter, (unsigned long long)__popc(peers));
  base = __shfl_sync(peers, base, leader);
  return base + __popc(peers & ((1u << lane) - 1u));
}

template <class W>
__device__ __forceinline__ bool inside(W x, const value_range<W>& r) {
  return !(x < r.lo) && x < r.hi;
}

// The entries of I: this rank's own into `next` when inside the bucket (once per step: the stamp),
// the others into the send block of their owner q (at q's first vertex: q owns at most that many).
template <class W>
__global__ void route_improved(const vertex* improved, std::size_t count, const W* t,
                               part_bounds bounds, unsigned me, value_range<W> bucket,
                               vertex* send_ids, W* send_values, unsigned long long* send_counts,
                               vertex* next, unsigned long long* next_count, std::uint32_t* stamp,
                               std::uint32_t now) {
  const vertex own_begin = bounds.begin[me];
  for (std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; j < count;
       j += std::size_t(gridDim.x) * blockDim.x) {
    const vertex v = improved[j];
    const unsigned q = bounds.owner(v);
    const W d = t[v];
    if (q == me) {
      if (inside(d, bucket) && atomicExch(&stamp[v - own_begin], now) != now)
        next[append_slot(next_count, 0)] = v;
    } else {
      const std::size_t at = bounds.begin[q] + append_slot(&send_counts[q], q);
      send_ids[at] = v;
      send_values[at] = d;
    }
  }
}

// t[v] = min(t[v], d) for each received (v, d); v joins `next` when d improved it inside the bucket.
template <class W>
__global__ void apply_received(const vertex* ids, const W* values, std::size_t count, W* t,
                               vertex own_begin, value_range<W> bucket, vertex* next,
                               unsigned long long* next_count, std::uint32_t* stamp,
                               std::uint32_t now) {
  for (std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; j < count;
       j += std::size_t(gridDim.x) * blockDim.x) {
    const vertex v = ids[j];
    const W d = values[j];
    if (!(d < t[v])) continue;
    const W old = atomic_min(&t[v], d);
    if (d < old && inside(d, bucket) && atomicExch(&stamp[v - own_begin], now) != now)
      next[append_slot(next_count, 0)] = v;
  }
}

// *sum += the arcs [first[u], last[u]) of each listed row u (ids null: rows begin .. begin +
// count - 1): the frontier's arcs in one part of A, for the direction rule.
static __global__ void count_arcs(const vertex* ids, vertex begin, std::size_t count,
                           const arc_index* first, const arc_index* last,
                           unsigned long long* sum) {
  unsigned long long mine = 0;
  for (std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; j < count;
       j += std::size_t(gridDim.x) * blockDim.x) {
    const vertex u = ids ? ids[j] : begin + vertex(j);
    mine += last[u] - first[u];
  }
  for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_down_sync(0xffffffffu, mine, offset);
  if ((threadIdx.x & 31u) == 0 && mine) atomicAdd(sum, mine);
}

template <class W>
__device__ __forceinline__ W warp_min(W x) {
  for (int offset = 16; offset > 0; offset /= 2) {
    const W y = __shfl_down_sync(0xffffffffu, x, offset);
    x = y < x ? y : x;
  }
  return x;
}

// out = { (v, t[v]) : v owned, t[v] in range }, and *least = min of the owned t[v] in
// least_range (select_reduce_min of operators.hpp over the rank's own vertices).
template <class W>
__global__ void select_owned(const W* t, vertex begin, vertex end, value_range<W> range,
                             vertex* out_ids, W* out_values, unsigned long long* count,
                             value_range<W> least_range, W* least) {
  W mine = infinity<W>();
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t rows = end - begin;
  const std::size_t first = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  const std::size_t rounds = (rows + stride - 1) / stride;
  for (std::size_t r = 0; r < rounds; ++r) {  // every lane to the end: warp_min below
    const std::size_t j = first + r * stride;
    if (j >= rows) continue;
    const vertex v = begin + vertex(j);
    const W x = t[v];
    if (inside(x, range)) {
      const unsigned long long at = append_slot(count, 0);
      out_ids[at] = v;
      out_values[at] = x;
    }
    if (inside(x, least_range) && x < mine) mine = x;
  }
  mine = warp_min(mine);
  if ((threadIdx.x & 31u) == 0 && mine < infinity<W>()) atomic_min(least, mine);
}

}  // namespace distributed
}  // namespace tropic::detail
