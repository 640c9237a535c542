// Element-wise kernels of the many-source operators (tropic/mxm.hpp) over k × n matrices laid
// out column-major (entry (s, v) at v·k + s): masked assign, the write of a product through an
// accumulator, a pull's dense input, the column selections of a batched bucket loop, and the
// transpose to row-major. Positions are 64-bit: k·n may pass 2^32.
#pragma once

#include <cub/block/block_reduce.cuh>

#include <cstddef>
#include <cstdint>

#include "mxm_push.cuh"

namespace tropic::detail {

// Grid-stride over [0, count) with 64-bit positions.
#define TROPIC_FOR_EACH_POSITION(p, count)                                                   \
  for (std::size_t p = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; p < (count); \
       p += std::size_t(gridDim.x) * blockDim.x)

// c<mask> = value; replace sets the rest to `cleared`.
template <class W>
__global__ void mxm_assign_masked(W* c, std::size_t count, matrix_mask<W> mask, W value,
                                  bool replace, W cleared) {
  TROPIC_FOR_EACH_POSITION(p, count) {
    if (matrix_mask_allows(mask, p)) c[p] = value;
    else if (replace) c[p] = cleared;
  }
}

// c(s, columns[s]) = value, s < k.
template <class W>
__global__ void mxm_assign_rows(W* c, std::size_t k, const vertex* columns, W value) {
  TROPIC_FOR_EACH_POSITION(s, k) { c[std::size_t(columns[s]) * k + s] = value; }
}

// c<mask> = accum(c, t) entry by entry (the write rule of operators.hpp, as ewise_kernel).
template <class S, class W>
__global__ void mxm_write(W* c, const W* t, std::size_t count, matrix_mask<W> mask,
                          accumulator accum, bool replace) {
  TROPIC_FOR_EACH_POSITION(p, count) {
    if (!matrix_mask_allows(mask, p)) {
      if (replace) c[p] = S::identity();
      continue;
    }
    const W x = t[p], old = c[p];
    if (accum == accumulator::none) c[p] = x;
    else if (x == S::identity()) continue;
    else if (old == S::identity()) c[p] = x;
    else if (accum == accumulator::min) c[p] = x < old ? x : old;
    else c[p] = old + x;
  }
}

// dense(s, columns[j]) = values[j·k + s] for j < column_count (dense filled with the identity
// before); when `least` is given, *least = min(*least, every value) (a floored pull's min(U),
// min monoids only). Launched with tuning::block_threads threads.
template <class S, class W>
__global__ void mxm_scatter_columns(const vertex* columns, const W* values,
                                    std::size_t column_count, std::size_t k, W* dense, W* least) {
  W mine = S::identity();
  TROPIC_FOR_EACH_POSITION(i, column_count * k) {
    const std::size_t j = i / k, s = i - j * k;
    const W x = values[i];
    dense[std::size_t(columns[j]) * k + s] = x;
    if (x < mine) mine = x;
  }
  if (!least) return;  // the same in every thread
  using reduce = cub::BlockReduce<W, tuning::block_threads>;
  __shared__ typename reduce::TempStorage storage;
  mine = reduce(storage).Reduce(mine, monoid_op<S>{});
  if (threadIdx.x == 0 && mine != S::identity()) S::atomic_add(least, mine);
}

// out lists each column of `in` with an entry inside `range` once (stamps over the n columns);
// *least = min(*least, the entries inside least_range). *least starts at infinity<W>() and
// *count at 0. Launched with tuning::block_threads threads.
template <class W>
__global__ void mxm_select_columns(const W* in, std::size_t k, std::size_t count,
                                   value_range<W> range, value_range<W> least_range,
                                   std::uint32_t* stamps, std::uint32_t stamp, vertex* out,
                                   unsigned long long* out_count, W* least) {
  W mine = infinity<W>();
  TROPIC_FOR_EACH_POSITION(p, count) {
    const W x = in[p];
    if (in_range(x, least_range) && x < mine) mine = x;
    if (in_range(x, range)) list_once(vertex(p / k), stamps, stamp, out, out_count);
  }
  using reduce = cub::BlockReduce<W, tuning::block_threads>;
  __shared__ typename reduce::TempStorage storage;
  mine = reduce(storage).Reduce(mine, monoid_op<min_plus<W>>{});
  if (threadIdx.x == 0 && mine != infinity<W>()) atomic_min(least, mine);
}

// *word = value (a word that a reduction min-combines into).
template <class W>
__global__ void mxm_set_word(W* word, W value) {
  *word = value;
}

// out(:, j) = in(:, pattern[j]) .* (in inside range), j < column_count; out_columns = pattern;
// *entries += the entries kept (when given).
template <class W>
__global__ void mxm_gather_columns(const vertex* pattern, std::size_t column_count,
                                   std::size_t k, const W* in, value_range<W> range,
                                   vertex* out_columns, W* out_values,
                                   unsigned long long* entries) {
  unsigned long long kept = 0;
  TROPIC_FOR_EACH_POSITION(i, column_count * k) {
    const std::size_t j = i / k, s = i - j * k;
    const vertex v = pattern[j];
    if (s == 0) out_columns[j] = v;
    const W x = in[std::size_t(v) * k + s];
    const bool inside = in_range(x, range);
    out_values[i] = inside ? x : infinity<W>();
    kept += inside;
  }
  if (entries) add_block_sum(entries, kept);  // the same in every thread
}

// c = c .* (c inside keep).
template <class W>
__global__ void mxm_select_in_place(W* c, std::size_t count, value_range<W> keep) {
  TROPIC_FOR_EACH_POSITION(p, count) {
    const W x = c[p];
    if (x != infinity<W>() && !in_range(x, keep)) c[p] = infinity<W>();
  }
}

// out[s·n + v] = in[v·k + s]: 32 × 32 tiles through shared memory, both sides coalesced; a block
// of 32 × 8 threads, grid-stride over the tiles (n / 32 may pass a grid's y limit).
template <class W>
__global__ void mxm_transpose(const W* in, std::size_t k, std::size_t n, W* out) {
  __shared__ W tile[32][33];
  const std::size_t tiles_s = (k + 31) / 32, tiles = tiles_s * ((n + 31) / 32);
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::size_t v0 = (t / tiles_s) * 32, s0 = (t % tiles_s) * 32;
    for (unsigned y = threadIdx.y; y < 32; y += blockDim.y) {
      const std::size_t v = v0 + y, s = s0 + threadIdx.x;
      if (v < n && s < k) tile[y][threadIdx.x] = in[v * k + s];
    }
    __syncthreads();
    for (unsigned y = threadIdx.y; y < 32; y += blockDim.y) {
      const std::size_t s = s0 + y, v = v0 + threadIdx.x;
      if (s < k && v < n) out[s * n + v] = tile[threadIdx.x][y];
    }
    __syncthreads();  // the tile is read before the next one is loaded
  }
}

#undef TROPIC_FOR_EACH_POSITION

}  // namespace tropic::detail
