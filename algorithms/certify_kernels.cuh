// The certificate of one part's rows on its GPU (certify_distributed.cu launches them): what
// certify_rows computes for those rows, with the checks of certify_row.hpp. Two kernels, one over
// the rows (each row's own values: rows without arcs count too) and one over the arcs; together
// they leave `first` at the least violating row and, when none violates, every tight arc's bit in
// `marks`. Of a violating row only the row is found: the host words it (row_violation), so the
// text is certify_rows'. Marks may differ from the host's once a row violates (the host stops at
// a row's first fault); the combined verdict reads no marks then.
//
// Memory ordering: marks and `first` only grow (atomicOr) or shrink (atomicMin) and are read by
// the host after the kernels; the relaxed pre-read of a mark merely skips an atomic already done.
#pragma once

#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <cuda/atomic>
#include <cuda/functional>

#include "certify_row.hpp"
#include "tropic/device_matrix.hpp"

namespace tropic::detail::certificate {

// Block size of both kernels, and arcs per thread of a tile; unmeasured (a one-off O(arcs) pass
// whose cost is the gather of d[v], like one push over every arc).
inline constexpr unsigned block_threads = 256;
inline constexpr unsigned arcs_per_thread = 8;

template <class W>
struct check_args {
  csr_view<W> a;   // the part: all n rows, those outside `rows` empty
  row_range rows;  // the rows this part checks
  vertex source;
  const W* d;                   // n distances
  const std::int64_t* parents;  // n parents, or null for a result without parents
  unsigned* marks;              // n bytes of certificate_part::marks, as 32-bit words
  vertex* first;                // the least violating row; rows.end when none
};

// The least of every thread's `row` (rows.end for none) into *first: one atomic per block.
template <class W>
__device__ void report_first(const check_args<W>& k, vertex row) {
  using reduce = cub::BlockReduce<vertex, block_threads>;
  __shared__ typename reduce::TempStorage scratch;
  const vertex least = reduce(scratch).Reduce(row, cuda::minimum<>{});
  if (threadIdx.x == 0 && least < k.rows.end) atomicMin(k.first, least);
}

// Row u's own values (check_vertex), every row of the range.
template <class W>
__global__ void __launch_bounds__(block_threads) check_rows(check_args<W> k) {
  vertex row = k.rows.end;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = k.rows.begin + std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
       i < k.rows.end && row == k.rows.end; i += stride) {
    const auto u = static_cast<vertex>(i);
    if (check_vertex(k.a.n, k.source, k.d, k.parents, u) != vertex_fault::none) row = u;
  }
  report_first(k, row);
}

// The row holding arc e: the last u in [lo, hi) with offsets[u] <= e, given offsets[lo] <= e <
// offsets[hi].
__device__ inline vertex row_of(const arc_index* offsets, vertex lo, vertex hi, arc_index e) {
  while (hi - lo > 1) {
    const vertex mid = lo + (hi - lo) / 2;
    if (offsets[mid] <= e)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// Every arc of the range (check_arc), a tile of block_threads * arcs_per_thread arcs at a time:
// the tile's arcs are read coalesced, and each finds its row by a short search among the rows of
// the tile, which two threads find first in the whole range.
template <class W>
__global__ void __launch_bounds__(block_threads) check_arcs(check_args<W> k) {
  constexpr arc_index tile = arc_index(block_threads) * arcs_per_thread;
  const arc_index* offsets = k.a.row_offsets;
  const arc_index begin = offsets[k.rows.begin], end = offsets[k.rows.end];
  __shared__ vertex tile_rows[2];  // the rows of the tile's first and last arcs
  vertex row = k.rows.end;
  for (arc_index lo = begin + arc_index(blockIdx.x) * tile; lo < end;
       lo += arc_index(gridDim.x) * tile) {
    const arc_index hi = lo + tile < end ? lo + tile : end;
    __syncthreads();  // the previous tile's rows are read
    if (threadIdx.x < 2)
      tile_rows[threadIdx.x] =
          row_of(offsets, k.rows.begin, k.rows.end, threadIdx.x == 0 ? lo : hi - 1);
    __syncthreads();
    for (arc_index e = lo + threadIdx.x; e < hi; e += block_threads) {
      const vertex u = row_of(offsets, tile_rows[0], tile_rows[1] + 1, e);
      const W du = k.d[u];
      // Unreached rows have no arc condition; NaN or -inf is the row kernel's to report.
      if (du == infinity<W>() || !is_distance(du)) continue;
      const vertex v = k.a.columns[e];
      const arc_verdict verdict = check_arc(k.source, k.d, k.parents, u, du, v, k.a.weights[e]);
      if (verdict.fault != arc_fault::none) {
        if (u < row) row = u;
      } else if (verdict.mark != 0) {
        const unsigned bit = unsigned(static_cast<unsigned char>(verdict.mark)) << (8 * (v % 4));
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> word(k.marks[v / 4]);
        if ((word.load(cuda::memory_order_relaxed) & bit) == 0)
          word.fetch_or(bit, cuda::memory_order_relaxed);
      }
    }
  }
  report_first(k, row);
}

}  // namespace tropic::detail::certificate
