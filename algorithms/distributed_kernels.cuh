// The kernels of the several-GPU delta-stepping (delta_stepping_distributed.cu): who owns a
// vertex, routing a step's improved entries (or a closure round's ghosts) to their owners,
// applying received ones, the frontier's arc count for the direction rule, and the select of a
// rank's own bucket. Route and apply stage a tile's appends in shared memory and reserve each
// list's slots with one atomic per tile (tile_append); the select appends with one atomic per
// warp.
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
template <class Count>  // unsigned long long in global memory, unsigned in shared memory
__device__ __forceinline__ Count append_slot(Count* counter, unsigned key) {
  const unsigned active = __activemask();
  const unsigned peers = __match_any_sync(active, key);
  const int leader = __ffs(peers) - 1;
  const int lane = int(threadIdx.x & 31u);
  Count base = 0;
  if (lane == leader) base = atomicAdd(counter, Count(__popc(peers)));
  base = __shfl_sync(peers, base, leader);
  return base + Count(__popc(peers & ((1u << lane) - 1u)));
}

// A block's tiles of tile_items entries, each item appended to one of `keys` lists (or none):
// ranks within the tile by warp-aggregated shared atomics, then one global atomic per list and
// tile: one atomic per warp on a handful of global counters serialised the kernels
// (bench/results/h200-run39/).
constexpr int tile_items_per_thread = 8;
constexpr unsigned no_key = ~0u;
struct tile_append {
  unsigned count[max_parts + 1];
  unsigned long long base[max_parts + 1];

  // Every thread of the block calls this for each tile, with key[c] for its item c (no_key:
  // none); slot[c] becomes item c's position in its list, counted by *counter(key).
  template <class CounterOf>
  __device__ __forceinline__ void reserve(const unsigned (&key)[tile_items_per_thread],
                                          unsigned long long (&slot)[tile_items_per_thread],
                                          unsigned keys, CounterOf counter) {
    for (unsigned k = threadIdx.x; k < keys; k += blockDim.x) count[k] = 0;
    __syncthreads();
#pragma unroll
    for (int c = 0; c < tile_items_per_thread; ++c)
      if (key[c] != no_key) slot[c] = append_slot(&count[key[c]], key[c]);
    __syncthreads();
    for (unsigned k = threadIdx.x; k < keys; k += blockDim.x)
      if (count[k]) base[k] = atomicAdd(counter(k), (unsigned long long)count[k]);
    __syncthreads();
#pragma unroll
    for (int c = 0; c < tile_items_per_thread; ++c)
      if (key[c] != no_key) slot[c] += base[key[c]];
    // The next tile's zeroing of `count` and writes of `base` come after its first barrier,
    // which every thread reaches only after reading `base` here.
  }
};

// Grid size for `items` entries in tiles: a block per tile up to the 8192 of blocks_for.
inline unsigned tile_blocks_for(std::size_t items) {
  return blocks_for((items + tile_items_per_thread - 1) / tile_items_per_thread);
}

template <class W>
__device__ __forceinline__ bool inside(W x, const value_range<W>& r) {
  return !(x < r.lo) && x < r.hi;
}

// Item c of this thread's share of the tile at tile_start (consecutive threads, consecutive
// items: coalesced reads).
__device__ __forceinline__ std::size_t tile_item(std::size_t tile_start, int c) {
  return tile_start + std::size_t(c) * blockDim.x + threadIdx.x;
}

// The block's tiles of items [0, count): take(j, c) reads item j into this thread's slot c and
// returns its list's key (no_key: none); put(c, key, at) writes item c at position `at` of that
// list, whose length is *counter(key).
template <class Take, class CounterOf, class Put>
__device__ __forceinline__ void append_tiles(std::size_t count, unsigned keys, CounterOf counter,
                                             Take take, Put put) {
  __shared__ tile_append lists;
  const std::size_t tile = std::size_t(blockDim.x) * tile_items_per_thread;
  for (std::size_t tile_start = blockIdx.x * tile; tile_start < count;
       tile_start += std::size_t(gridDim.x) * tile) {
    unsigned key[tile_items_per_thread];
    unsigned long long slot[tile_items_per_thread];
#pragma unroll
    for (int c = 0; c < tile_items_per_thread; ++c) {
      const std::size_t j = tile_item(tile_start, c);
      key[c] = j < count ? take(j, c) : no_key;
    }
    lists.reserve(key, slot, keys, counter);
#pragma unroll
    for (int c = 0; c < tile_items_per_thread; ++c)
      if (key[c] != no_key) put(c, key[c], slot[c]);
  }
}

// The entries of I: this rank's own into `next` when inside the bucket (once per step: the stamp),
// the others into the send block of their owner q (at q's first vertex: q owns at most that many).
// Lists: key q < parts, q's send block (key me unused); key parts, `next`.
template <class W>
__global__ void route_improved(const vertex* improved, std::size_t count, const W* t,
                               part_bounds bounds, unsigned me, value_range<W> bucket,
                               vertex* send_ids, W* send_values, unsigned long long* send_counts,
                               vertex* next, unsigned long long* next_count, std::uint32_t* stamp,
                               std::uint32_t now) {
  const vertex own_begin = bounds.begin[me];
  vertex v[tile_items_per_thread];
  W d[tile_items_per_thread];
  append_tiles(
      count, bounds.parts + 1,
      [&](unsigned k) { return k == bounds.parts ? next_count : send_counts + k; },
      [&](std::size_t j, int c) {
        v[c] = improved[j];
        d[c] = t[v[c]];
        const unsigned q = bounds.owner(v[c]);
        if (q != me) return q;
        if (inside(d[c], bucket) && atomicExch(&stamp[v[c] - own_begin], now) != now)
          return bounds.parts;
        return no_key;
      },
      [&](int c, unsigned key, unsigned long long at) {
        if (key == bounds.parts) {
          next[at] = v[c];
        } else {
          send_ids[bounds.begin[key] + at] = v[c];
          send_values[bounds.begin[key] + at] = d[c];
        }
      });
}

// t[v] = min(t[v], d) for each received (v, d); v joins `next` when d improved it inside the bucket.
template <class W>
__global__ void apply_received(const vertex* ids, const W* values, std::size_t count, W* t,
                               vertex own_begin, value_range<W> bucket, vertex* next,
                               unsigned long long* next_count, std::uint32_t* stamp,
                               std::uint32_t now) {
  vertex v[tile_items_per_thread];
  append_tiles(
      count, 1, [&](unsigned) { return next_count; },
      [&](std::size_t j, int c) {
        v[c] = ids[j];
        const W d = values[j];
        if (!(d < t[v[c]])) return no_key;
        const W old = atomic_min(&t[v[c]], d);
        return d < old && inside(d, bucket) && atomicExch(&stamp[v[c] - own_begin], now) != now
                   ? 0u
                   : no_key;
      },
      [&](int c, unsigned, unsigned long long at) { next[at] = v[c]; });
}

// flag[v] = 1 for each column v of the rows [begin, end) outside them: the vertices this rank's
// arcs reach and another rank owns (its ghosts, for the closure rounds' route_ghosts).
template <class W>
__global__ void mark_ghosts(csr_view<W> a, vertex begin, vertex end, std::uint8_t* flag) {
  const arc_index first = a.row_offsets[begin], last = a.row_offsets[end];
  for (arc_index k = first + blockIdx.x * arc_index(blockDim.x) + threadIdx.x; k < last;
       k += arc_index(gridDim.x) * blockDim.x) {
    const vertex v = a.columns[k];
    if (v < begin || v >= end) flag[v] = 1;
  }
}

// After a closure round: each ghost whose value fell below what was last sent its owner goes
// into that owner's send block (at its first vertex), and `sent` follows. Lists: key q < parts.
template <class W>
__global__ void route_ghosts(const vertex* ghosts, std::size_t count, W* sent, const W* t,
                             part_bounds bounds, vertex* send_ids, W* send_values,
                             unsigned long long* send_counts) {
  vertex v[tile_items_per_thread];
  W d[tile_items_per_thread];
  append_tiles(
      count, bounds.parts, [&](unsigned k) { return send_counts + k; },
      [&](std::size_t j, int c) {
        v[c] = ghosts[j];
        d[c] = t[v[c]];
        if (!(d[c] < sent[j])) return no_key;
        sent[j] = d[c];
        return bounds.owner(v[c]);
      },
      [&](int c, unsigned key, unsigned long long at) {
        send_ids[bounds.begin[key] + at] = v[c];
        send_values[bounds.begin[key] + at] = d[c];
      });
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
