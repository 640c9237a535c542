// RDBS section 4.1 (Zhang et al., ICPP-W'23), property-driven reordering: vertices renumbered
// by descending degree. Each row sorted by ascending weight, with the offset of its first heavy
// arc, is device_matrix's layout already (rows sorted on upload) plus the shared
// split_light_heavy(); this file adds the renumbering: a CUB radix sort of the degrees (stable,
// so equal degrees keep ascending ids and the result is deterministic), a CUB scan for the new
// row offsets, and a copy of the rows with their columns renamed; row order (by weight) is kept.
// Distances are mapped back to the caller's numbering (to_caller_numbering) before the shared
// finish_result(), so parents and the overflow check run on the caller's matrix.
#pragma once

#include <algorithm>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "policy.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/device_memory.hpp"

namespace tropic::detail::rdbs {

// Rows of chunk_arcs or more are copied one thread per arc, the rest one warp per row.
using policy::rdbs::chunk_arcs;

// The grid of a grid-stride kernel over `items`, `threads` a block.
inline unsigned grid_for(std::size_t items, unsigned threads = 256) {
  return static_cast<unsigned>(
      std::clamp<std::size_t>((items + threads - 1) / threads, 1, 1u << 20));
}

template <class W>
__global__ void degree_keys(csr_view<W> a, unsigned* keys, vertex* ids) {
  for (std::size_t u = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; u < a.n;
       u += std::size_t(gridDim.x) * blockDim.x) {
    const arc_index d = a.row_offsets[u + 1] - a.row_offsets[u];
    keys[u] = d > 0xffffffffull ? 0xffffffffu : static_cast<unsigned>(d);
    ids[u] = static_cast<vertex>(u);
  }
}

// perm[order[r]] = r, and the new rows' lengths (lengths[n] = 0 for the exclusive scan).
template <class W>
__global__ void invert_order(csr_view<W> a, const vertex* order, vertex* perm, arc_index* lengths) {
  for (std::size_t r = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; r <= a.n;
       r += std::size_t(gridDim.x) * blockDim.x) {
    if (r == a.n) {
      lengths[r] = 0;
      continue;
    }
    const vertex u = order[r];
    perm[u] = static_cast<vertex>(r);
    lengths[r] = a.row_offsets[u + 1] - a.row_offsets[u];
  }
}

// The new rows are sorted by descending length: the long ones (>= chunk_arcs) are a prefix.
static __global__ void find_long_prefix(vertex n, const arc_index* offsets, vertex* long_rows) {
  for (std::size_t r = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; r < n;
       r += std::size_t(gridDim.x) * blockDim.x) {
    const bool long_here = offsets[r + 1] - offsets[r] >= chunk_arcs;
    const bool long_next = r + 1 < n && offsets[r + 2] - offsets[r + 1] >= chunk_arcs;
    if (long_here && !long_next) *long_rows = static_cast<vertex>(r + 1);
  }
}

// Arcs of the long prefix, one thread per arc (a binary search finds its row): a hub of a
// million arcs must not be copied by one warp.
template <class W>
__global__ void copy_long_rows(csr_view<W> a, const vertex* order, const vertex* perm,
                               const arc_index* offsets, const vertex* long_rows, vertex* columns,
                               W* weights) {
  const vertex rows = *long_rows;
  if (rows == 0) return;
  const arc_index total = offsets[rows];
  for (arc_index e = blockIdx.x * arc_index(blockDim.x) + threadIdx.x; e < total;
       e += arc_index(gridDim.x) * blockDim.x) {
    vertex lo = 0, hi = rows;  // the last row r with offsets[r] <= e
    while (hi - lo > 1) {
      const vertex mid = lo + (hi - lo) / 2;
      if (offsets[mid] <= e)
        lo = mid;
      else
        hi = mid;
    }
    const arc_index from = a.row_offsets[order[lo]] + (e - offsets[lo]);
    columns[e] = perm[a.columns[from]];
    weights[e] = a.weights[from];
  }
}

// The other rows, one warp each; each row keeps its order (ascending weight).
template <class W>
__global__ void copy_short_rows(csr_view<W> a, const vertex* order, const vertex* perm,
                                const arc_index* offsets, const vertex* long_rows, vertex* columns,
                                W* weights) {
  const std::size_t warps = std::size_t(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x & 31;
  for (std::size_t r = *long_rows + (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / 32;
       r < a.n; r += warps) {
    const arc_index from = a.row_offsets[order[r]], to = offsets[r],
                    len = offsets[r + 1] - offsets[r];
    for (arc_index j = lane; j < len; j += 32) {
      columns[to + j] = perm[a.columns[from + j]];
      weights[to + j] = a.weights[from + j];
    }
  }
}

// The graph the kernels run on: A itself, or A renumbered (perm[old] = new).
template <class W>
struct working_graph {
  device_buffer<arc_index> offsets;
  device_buffer<vertex> columns, perm;
  device_buffer<W> weights;
  csr_view<W> view;
};

template <class W>
void reorder_by_degree(const device_matrix<W>& A, working_graph<W>& g, cudaStream_t stream) {
  const csr_view<W> a = A.view();
  const vertex n = a.n;
  require_device_memory((std::size_t(n) + 1) * sizeof(arc_index) +
                            a.arcs * (sizeof(vertex) + sizeof(W)) +
                            std::size_t(n) * (4 * sizeof(vertex) + 2 * sizeof(unsigned)),
                        "the degree-renumbered copy of the matrix (rdbs)");
  device_buffer<unsigned> keys(n, stream), sorted_keys(n, stream);
  device_buffer<vertex> ids(n, stream), order(n, stream);
  degree_keys<<<grid_for(n), 256, 0, stream>>>(a, keys.data(), ids.data());
  TROPIC_CUDA_CHECK(cudaGetLastError());
  // Descending and stable: equal degrees keep ascending ids.
  std::size_t bytes = 0;
  TROPIC_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(
      nullptr, bytes, keys.data(), sorted_keys.data(), ids.data(), order.data(), n, 0, 32, stream));
  {
    device_buffer<unsigned char> temp(bytes, stream);
    TROPIC_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(temp.data(), bytes, keys.data(),
                                                                sorted_keys.data(), ids.data(),
                                                                order.data(), n, 0, 32, stream));
  }
  g.perm = device_buffer<vertex>(n, stream);
  g.offsets = device_buffer<arc_index>(std::size_t(n) + 1, stream);
  device_buffer<arc_index> lengths(std::size_t(n) + 1, stream);
  invert_order<<<grid_for(std::size_t(n) + 1), 256, 0, stream>>>(a, order.data(), g.perm.data(),
                                                                 lengths.data());
  TROPIC_CUDA_CHECK(cudaGetLastError());
  bytes = 0;
  TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, lengths.data(), g.offsets.data(),
                                                  std::size_t(n) + 1, stream));
  {
    device_buffer<unsigned char> temp(bytes, stream);
    TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.data(), bytes, lengths.data(),
                                                    g.offsets.data(), std::size_t(n) + 1, stream));
  }
  g.columns = device_buffer<vertex>(a.arcs, stream);
  g.weights = device_buffer<W>(a.arcs, stream);
  if (a.arcs > 0) {
    device_buffer<vertex> long_rows(1, stream);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(long_rows.data(), 0, sizeof(vertex), stream));
    find_long_prefix<<<grid_for(n), 256, 0, stream>>>(n, g.offsets.data(), long_rows.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
    copy_long_rows<<<1024, 256, 0, stream>>>(a, order.data(), g.perm.data(), g.offsets.data(),
                                             long_rows.data(), g.columns.data(), g.weights.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
    copy_short_rows<<<grid_for(std::size_t(n) * 32), 256, 0, stream>>>(
        a, order.data(), g.perm.data(), g.offsets.data(), long_rows.data(), g.columns.data(),
        g.weights.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
  }
  g.view = {n, a.arcs, g.offsets.data(), g.columns.data(), g.weights.data()};
}

// dist back in the caller's numbering: out[u] = dist[perm[u]].
template <class W>
__global__ void to_caller_numbering(vertex n, const W* dist, const vertex* perm, W* out) {
  for (std::size_t u = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; u < n;
       u += std::size_t(gridDim.x) * blockDim.x)
    out[u] = dist[perm[u]];
}

}  // namespace tropic::detail::rdbs
