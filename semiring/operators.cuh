// Kernels and dispatch of the GraphBLAS-shaped operators (semiring/tropic/operators.hpp).
// Layered like CUB: public call -> dispatch (sizes temporaries, picks push/pull and the grid)
// -> __global__ kernel -> per-row / per-arc work. One kernel body per method, generic over the
// semiring; semiring/inst/*.cu instantiate it per weight type.
#pragma once

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"
#include "tropic/tuning.hpp"

namespace tropic {

namespace detail {

inline unsigned blocks_for(std::size_t items, unsigned threads = tuning::block_threads) {
  std::size_t b = (items + threads - 1) / threads;
  return static_cast<unsigned>(std::clamp<std::size_t>(b, 1, tuning::max_blocks));
}

template <class W>
__device__ __forceinline__ bool mask_allows(const mask_view<W>& m, vertex i) {
  if (m.kind == mask_kind::none) return true;
  const W x = m.values[i];
  const bool set = m.kind == mask_kind::value ? (x != W(0)) : (x != infinity<W>());
  return set != m.complement;
}

template <class W>
__device__ __forceinline__ bool in_range(W x, const value_range<W>& r) {
  return !(x < r.lo) && x < r.hi;
}

// Row ranges of one part of a matrix view: [first(u), last(u)).
struct row_ranges {
  const arc_index* offsets;  // row_offsets of the view
  const arc_index* split;    // null for row_part::all
  row_part part;
  __device__ __forceinline__ arc_index first(vertex u) const {
    return part == row_part::heavy ? split[u] : offsets[u];
  }
  __device__ __forceinline__ arc_index last(vertex u) const {
    return part == row_part::light ? split[u] : offsets[u + 1];
  }
};

// Records i in `list` once per call: the stamp array remembers the call that listed i last.
__device__ __forceinline__ void list_once(vertex i, std::uint32_t* stamps, std::uint32_t stamp,
                                          vertex* list, unsigned long long* count) {
  if (atomicExch(&stamps[i], stamp) != stamp) list[atomicAdd(count, 1ull)] = i;
}

// Combines x into w[v] for the push direction: the min-plus monoid atomically; an accumulator
// other than the semiring's monoid is handled by the caller through a scratch vector.
template <class S, class W>
__device__ __forceinline__ void push_combine(W* w, vertex v, W x, std::uint32_t* stamps,
                                             std::uint32_t stamp, vertex* improved,
                                             unsigned long long* improved_count,
                                             const value_range<W>& range) {
  if constexpr (S::is_min_monoid) {
    if (!(x < w[v])) return;  // cheap filter: most candidates do not improve
    const W old = S::atomic_add(&w[v], x);
    if (improved && x < old && in_range(x, range))
      list_once(v, stamps, stamp, improved, improved_count);
  } else {
    S::atomic_add(&w[v], x);
  }
}

// Push, load-balanced (Davidson et al. IV-B "load-balanced partitioning", merge-path style):
// the frontier's row lengths are scanned (CUB) into `scan`; each block takes a contiguous run
// of `tile` arcs, finds the frontier rows that cover it with two binary searches, and its
// threads walk the arcs. Work per block is equal whatever the degree skew.
template <class S, class W, int Threads, int ItemsPerThread>
__global__ void __launch_bounds__(Threads)
push_merge_path(const vertex* frontier, const W* frontier_values, std::size_t frontier_size,
                const arc_index* scan, csr_view<W> a, row_ranges ranges, W* w,
                mask_view<W> mask, std::uint32_t* stamps, std::uint32_t stamp, vertex* improved,
                unsigned long long* improved_count, value_range<W> range,
                unsigned long long* arcs_scanned) {
  constexpr int tile = Threads * ItemsPerThread;
  const arc_index total = scan[frontier_size];
  if (arcs_scanned && blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(arcs_scanned, total);
  __shared__ std::size_t tile_rows[2];
  for (arc_index tile_start = arc_index(blockIdx.x) * tile; tile_start < total;
       tile_start += arc_index(gridDim.x) * tile) {
    if (threadIdx.x < 2) {
      // The frontier rows covering the tile's first and last arc: the last k with scan[k] <= e.
      const arc_index e = threadIdx.x == 0 ? tile_start : std::min(tile_start + tile, total) - 1;
      std::size_t lo = 0, hi = frontier_size;
      while (hi - lo > 1) {
        std::size_t mid = (lo + hi) / 2;
        if (scan[mid] <= e) lo = mid; else hi = mid;
      }
      tile_rows[threadIdx.x] = lo;
    }
    __syncthreads();
    std::size_t k = tile_rows[0];
    const std::size_t k_last = tile_rows[1];
    __syncthreads();
    // Each thread handles arcs tile_start + threadIdx.x + j * Threads; its row index only grows,
    // so each search starts from the previous row and stops at the tile's last row.
    for (int j = 0; j < ItemsPerThread; ++j) {
      const arc_index e = tile_start + threadIdx.x + arc_index(j) * Threads;
      if (e >= total) break;
      std::size_t lo = k, hi = k_last + 1;
      while (hi - lo > 1) {
        std::size_t mid = (lo + hi) / 2;
        if (scan[mid] <= e) lo = mid; else hi = mid;
      }
      k = lo;
      const vertex u = frontier[k];
      const arc_index arc = ranges.first(u) + (e - scan[k]);
      const vertex v = a.columns[arc];
      if (!mask_allows(mask, v)) continue;
      const W x = S::mul(frontier_values[k], a.weights[arc]);
      push_combine<S>(w, v, x, stamps, stamp, improved, improved_count, range);
    }
  }
}

// Push, one warp per frontier row (the binned alternative: fine for even degrees).
template <class S, class W>
__global__ void push_warp_per_row(const vertex* frontier, const W* frontier_values,
                                  std::size_t frontier_size, csr_view<W> a, row_ranges ranges,
                                  W* w, mask_view<W> mask, std::uint32_t* stamps,
                                  std::uint32_t stamp, vertex* improved,
                                  unsigned long long* improved_count, value_range<W> range,
                                  unsigned long long* arcs_scanned) {
  const std::size_t warps = std::size_t(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x % 32;
  for (std::size_t k = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / 32;
       k < frontier_size; k += warps) {
    const vertex u = frontier[k];
    const W xu = frontier_values[k];
    if (arcs_scanned && lane == 0) atomicAdd(arcs_scanned, ranges.last(u) - ranges.first(u));
    for (arc_index arc = ranges.first(u) + lane; arc < ranges.last(u); arc += 32) {
      const vertex v = a.columns[arc];
      if (!mask_allows(mask, v)) continue;
      push_combine<S>(w, v, S::mul(xu, a.weights[arc]), stamps, stamp, improved, improved_count,
                      range);
    }
  }
}

// Row lengths of the frontier's rows (the input of the CUB scan).
template <class W>
struct frontier_row_length {
  const vertex* frontier;
  std::size_t size;
  row_ranges ranges;
  __host__ __device__ arc_index operator()(std::size_t k) const {
#if defined(__CUDA_ARCH__)
    if (k >= size) return 0;
    const vertex u = frontier[k];
    return ranges.last(u) - ranges.first(u);
#else
    return 0;
#endif
  }
};

// Pull: groups of Group threads per output row i (rows of the view are i's in-arcs for vxm over
// A'); w(i) = accum(w(i), ⊕_j u(j) ⊗ A(i, j)). One group owns a row, so no atomics; rows the mask
// excludes are skipped before any arc is read.
// The write of one pulled row: w(i) = accum(w(i), acc), listing i when it improved into range.
template <class S, class W>
__device__ __forceinline__ void pull_write(W* w, vertex i, W acc, accumulator accum,
                                           std::uint32_t* stamps, std::uint32_t stamp,
                                           vertex* improved, unsigned long long* improved_count,
                                           const value_range<W>& range) {
  const W old = w[i];
  W now;
  if (accum == accumulator::none) now = acc;
  else if (accum == accumulator::min) now = acc < old ? acc : old;
  else now = acc == S::identity() ? old : (old == S::identity() ? acc : old + acc);
  w[i] = now;
  if (improved && now < old && in_range(now, range))
    list_once(i, stamps, stamp, improved, improved_count);
}

// ⊕ over arcs [first, last) of one row, strided by `step` from `start`.
template <class S, class W>
__device__ __forceinline__ W pull_partial(const csr_view<W>& a, const W* u, arc_index first,
                                          arc_index last, unsigned start, unsigned step) {
  W acc = S::identity();
  for (arc_index arc = first + start; arc < last; arc += step) {
    const W x = u[a.columns[arc]];
    if (x != S::identity()) acc = S::add(acc, S::mul(x, a.weights[arc]));
  }
  return acc;
}

// Pull: groups of Group threads per output row i (rows of the view are i's in-arcs for vxm over
// A'); w(i) = accum(w(i), ⊕_j u(j) ⊗ A(i, j)). One group owns a row, so no atomics; rows the mask
// excludes are skipped before any arc is read. Rows of tuning::pull_long_row arcs or more are
// left to pull_long_rows: one warp on a row of a million arcs would hold the whole pass back
// (the skew of Kronecker graphs).
template <class S, class W, int Group>
__global__ void pull_rows(csr_view<W> a, row_ranges ranges, const W* u, W* w, mask_view<W> mask,
                          accumulator accum, std::uint32_t* stamps, std::uint32_t stamp,
                          vertex* improved, unsigned long long* improved_count,
                          value_range<W> range) {
  const std::size_t groups = std::size_t(gridDim.x) * blockDim.x / Group;
  const unsigned lane = threadIdx.x % Group;
  const unsigned group_mask = Group == 32 ? 0xffffffffu
                                          : (((1u << Group) - 1) << ((threadIdx.x % 32) / Group * Group));
  for (std::size_t i = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / Group; i < a.n;
       i += groups) {
    const arc_index first = ranges.first(vertex(i)), last = ranges.last(vertex(i));
    if (last - first >= tuning::pull_long_row) continue;  // pull_long_rows' row
    if (!mask_allows(mask, vertex(i))) continue;          // uniform within the group
    W acc = pull_partial<S>(a, u, first, last, lane, Group);
    for (int offset = Group / 2; offset > 0; offset /= 2)
      acc = S::add(acc, __shfl_xor_sync(group_mask, acc, offset, Group));
    if (lane == 0)
      pull_write<S>(w, vertex(i), acc, accum, stamps, stamp, improved, improved_count, range);
  }
}

// The long rows, a whole block each: the list and its length were selected on the device, so
// the host never waits for them.
template <class S, class W>
__global__ void __launch_bounds__(tuning::block_threads)
pull_long_rows(csr_view<W> a, row_ranges ranges, const vertex* rows,
               const std::uint64_t* row_count, const W* u, W* w, mask_view<W> mask,
               accumulator accum, std::uint32_t* stamps, std::uint32_t stamp, vertex* improved,
               unsigned long long* improved_count, value_range<W> range) {
  struct monoid_add {
    __device__ W operator()(W x, W y) const { return S::add(x, y); }
  };
  using reduce_t = cub::BlockReduce<W, tuning::block_threads>;
  __shared__ typename reduce_t::TempStorage temp;
  const std::uint64_t count = *row_count;
  for (std::uint64_t k = blockIdx.x; k < count; k += gridDim.x) {
    const vertex i = rows[k];
    if (!mask_allows(mask, i)) continue;  // uniform within the block
    const W partial = pull_partial<S>(a, u, ranges.first(i), ranges.last(i), threadIdx.x,
                                      tuning::block_threads);
    const W acc = reduce_t(temp).Reduce(partial, monoid_add{});
    if (threadIdx.x == 0)
      pull_write<S>(w, i, acc, accum, stamps, stamp, improved, improved_count, range);
    __syncthreads();  // temp is reused by the next row
  }
}

template <class W>
struct long_row_pred {
  row_ranges ranges;
  __device__ bool operator()(vertex i) const {
    return ranges.last(i) - ranges.first(i) >= tuning::pull_long_row;
  }
};

template <class W>
__global__ void assign_masked(W* w, vertex n, mask_view<W> mask, W value, bool replace, W cleared) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    if (mask_allows(mask, vertex(i))) w[i] = value;
    else if (replace) w[i] = cleared;
  }
}

template <class W>
__global__ void gather_values(const vertex* idx, std::size_t count, const W* in, vertex* out_idx,
                              W* out_val) {
  for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < count;
       k += std::size_t(gridDim.x) * blockDim.x) {
    const vertex i = idx[k];
    out_idx[k] = i;
    out_val[k] = in[i];
  }
}

// select over a listed pattern: each listed i whose value is in range is written once, with its
// value; the stamp array remembers the call that wrote i last (as list_once).
template <class W>
__global__ void select_listed(const vertex* pattern, std::size_t count, const W* in,
                              value_range<W> range, std::uint32_t* stamps, std::uint32_t stamp,
                              vertex* out_idx, W* out_val, unsigned long long* out_count) {
  for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < count;
       k += std::size_t(gridDim.x) * blockDim.x) {
    const vertex i = pattern[k];
    const W x = in[i];
    if (!in_range(x, range) || atomicExch(&stamps[i], stamp) == stamp) continue;
    const unsigned long long at = atomicAdd(out_count, 1ull);
    out_idx[at] = i;
    out_val[at] = x;
  }
}

template <class W>
__global__ void scatter_values(const vertex* idx, const W* val, std::size_t count, W* w) {
  for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < count;
       k += std::size_t(gridDim.x) * blockDim.x)
    w[idx[k]] = val[k];
}

// w<mask> = accum(w, t) elementwise, where t is produced per index by `make`.
template <class S, class W, class Make>
__global__ void ewise_kernel(W* w, vertex n, mask_view<W> mask, accumulator accum, Make make,
                             bool replace) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    if (!mask_allows(mask, vertex(i))) {
      if (replace) w[i] = S::identity();
      continue;
    }
    const W t = make(vertex(i));
    const W old = w[i];
    if (accum == accumulator::none) w[i] = t;
    else if (t == S::identity()) w[i] = old;
    else if (old == S::identity()) w[i] = t;
    else if (accum == accumulator::min) w[i] = t < old ? t : old;
    else w[i] = old + t;
  }
}

template <class S, class W>
struct ewise_add_op {
  const W* a;
  const W* b;
  __device__ W operator()(vertex i) const {
    const W x = a[i], y = b[i];
    if (x == S::identity()) return y;
    if (y == S::identity()) return x;
    return S::add(x, y);
  }
};
template <class S, class W>
struct ewise_mult_op {
  const W* a;
  const W* b;
  __device__ W operator()(vertex i) const {
    const W x = a[i], y = b[i];
    if (x == S::identity() || y == S::identity()) return S::identity();
    return S::mul(x, y);
  }
};
template <class W>
struct apply_op {
  const W* u;
  unary_op f;
  W s;
  __device__ W operator()(vertex i) const {
    const W x = u[i];
    if (x == infinity<W>()) return x;
    switch (f) {
      case unary_op::add_scalar: return saturating_add(x, s);
      case unary_op::min_scalar: return s < x ? s : x;
      case unary_op::max_scalar: return x < s ? s : x;
      default: return x;
    }
  }
};

template <class W>
struct in_range_pred {
  const W* values;
  value_range<W> range;
  __device__ bool operator()(vertex i) const { return in_range(values[i], range); }
};
template <class W>
struct range_or_identity {
  const W* values;
  value_range<W> range;
  __host__ __device__ W operator()(vertex i) const {
#if defined(__CUDA_ARCH__)
    const W x = values[i];
    return in_range(x, range) ? x : infinity<W>();
#else
    return infinity<W>();
#endif
  }
};
template <class S, class W>
struct present_or_identity {
  const W* values;
  __host__ __device__ W operator()(vertex i) const {
#if defined(__CUDA_ARCH__)
    return values[i];
#else
    return S::identity();
#endif
  }
};
template <class S>
struct monoid_op {
  template <class W>
  __host__ __device__ W operator()(W a, W b) const { return S::add(a, b); }
};
template <class W>
struct present_flag {
  const W* values;
  __host__ __device__ std::uint64_t operator()(vertex i) const {
#if defined(__CUDA_ARCH__)
    return values[i] != infinity<W>() ? 1 : 0;
#else
    return 0;
#endif
  }
};

template <class W>
row_ranges ranges_of(const csr_view<W>& view, const matrix_operand<W>& a, bool transposed) {
  const arc_index* split = nullptr;
  if (a.part != row_part::all)
    split = transposed ? a.split->transpose_rows() : a.split->rows();
  return {view.row_offsets, split, a.part};
}

inline void check_launch() { TROPIC_CUDA_CHECK(cudaGetLastError()); }

// Shared tail of vxm/mxv: read the improved count (the one host round trip of the call).
template <class W>
void finish_improved(sparse_vector<W>* improved, unsigned long long* count, gpu_context& ctx) {
  if (improved) improved->set_nvals(static_cast<std::size_t>(ctx.read_counter()));
  (void)count;
}

// Pull over `view` (rows = output positions) from dense u.
template <class S, class W>
void pull_dispatch(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum,
                   const csr_view<W>& view, row_ranges ranges, const W* u,
                   const descriptor& desc, gpu_context& ctx, sparse_vector<W>* improved,
                   value_range<W> improved_range, op_counters* counters) {
  cudaStream_t s = ctx.stream();
  const vertex n = view.n;
  if (desc.replace && mask.kind != mask_kind::none) {
    mask_view<W> inverse = mask;
    inverse.complement = !mask.complement;
    assign_masked<<<blocks_for(n), tuning::block_threads, 0, s>>>(w.data(), n, inverse,
                                                                 S::identity(), false, S::identity());
    check_launch();
  }
  std::uint32_t* stamps = improved ? ctx.stamps(n) : nullptr;
  const std::uint32_t stamp = ctx.next_stamp();
  unsigned long long* count =
      improved ? reinterpret_cast<unsigned long long*>(ctx.zeroed_counter()) : nullptr;
  vertex* list = improved ? improved->indices() : nullptr;
  // Group size from the average row length: a warp for long rows, fewer lanes for short ones.
  const double avg = n ? double(view.arcs) / n : 0;
  const unsigned blocks = blocks_for(std::size_t(n) * 32, tuning::block_threads);
  if (avg >= 16)
    pull_rows<S, W, 32><<<blocks, tuning::block_threads, 0, s>>>(view, ranges, u, w.data(), mask, accum,
                                                               stamps, stamp, list, count, improved_range);
  else if (avg >= 4)
    pull_rows<S, W, 8><<<blocks_for(std::size_t(n) * 8), tuning::block_threads, 0, s>>>(
        view, ranges, u, w.data(), mask, accum, stamps, stamp, list, count, improved_range);
  else
    pull_rows<S, W, 4><<<blocks_for(std::size_t(n) * 4), tuning::block_threads, 0, s>>>(
        view, ranges, u, w.data(), mask, accum, stamps, stamp, list, count, improved_range);
  check_launch();
  {
    // The long rows: selected on the device (count included), then a block each.
    device_buffer<vertex> long_rows(n, s);
    device_buffer<std::uint64_t> long_count(1, s);
    long_row_pred<W> pred{ranges};
    std::size_t bytes = 0;
    TROPIC_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, thrust::counting_iterator<vertex>(0),
                                            long_rows.data(), long_count.data(), n, pred, s));
    TROPIC_CUDA_CHECK(cub::DeviceSelect::If(ctx.temp(bytes), bytes, thrust::counting_iterator<vertex>(0),
                                            long_rows.data(), long_count.data(), n, pred, s));
    pull_long_rows<S, W><<<tuning::pull_long_row_blocks, tuning::block_threads, 0, s>>>(
        view, ranges, long_rows.data(), long_count.data(), u, w.data(), mask, accum, stamps, stamp,
        list, count, improved_range);
    check_launch();
  }
  if (counters) {
    counters->pull_calls++;
    counters->rows += n;
    counters->arcs += view.arcs;  // upper bound: rows of the part only are read
  }
  finish_improved(improved, count, ctx);
}

// Push over `view` (rows = sources) from the entries of u.
template <class S, class W>
void push_dispatch(dense_vector<W>& w, const mask_view<W>& mask, const csr_view<W>& view,
                   row_ranges ranges, const sparse_vector<W>& u, const descriptor& desc,
                   gpu_context& ctx, sparse_vector<W>* improved, value_range<W> improved_range,
                   op_counters* counters) {
  cudaStream_t s = ctx.stream();
  const std::size_t k = u.nvals();
  std::uint32_t* stamps = improved ? ctx.stamps(view.n) : nullptr;
  const std::uint32_t stamp = ctx.next_stamp();
  unsigned long long* count =
      improved ? reinterpret_cast<unsigned long long*>(ctx.zeroed_counter()) : nullptr;
  vertex* list = improved ? improved->indices() : nullptr;
  if (k > 0) {
    const bool warp_rows = desc.balance == load_balance::warp_per_row;
    if (warp_rows) {
      push_warp_per_row<S, W><<<blocks_for(k * 32), tuning::block_threads, 0, s>>>(
          u.indices(), u.values(), k, view, ranges, w.data(), mask, stamps, stamp, list, count,
          improved_range, ctx.arcs_scanned());
      check_launch();
    } else {
      // scan[j] = arcs of the first j frontier rows; scan[k] = total, read by the kernel itself
      // so the host never waits for it.
      auto lengths = thrust::make_transform_iterator(
          thrust::counting_iterator<std::size_t>(0),
          frontier_row_length<W>{u.indices(), k, ranges});
      std::size_t scan_bytes = 0;
      TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, lengths,
                                                      static_cast<arc_index*>(nullptr), k + 1, s));
      const std::size_t scan_offset = (scan_bytes + 255) / 256 * 256;
      char* temp = static_cast<char*>(ctx.temp(scan_offset + (k + 1) * sizeof(arc_index)));
      arc_index* scan = reinterpret_cast<arc_index*>(temp + scan_offset);
      TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, scan_bytes, lengths, scan, k + 1, s));
      constexpr int threads = tuning::push_threads, items = tuning::push_items_per_thread;
      // Enough blocks to fill the device for big frontiers; a few for small ones (grid-stride).
      const std::size_t estimate = k * std::max<std::size_t>(1, view.n ? view.arcs / view.n : 1);
      const unsigned blocks = static_cast<unsigned>(std::clamp<std::size_t>(
          (estimate + threads * items - 1) / (threads * items), 1, tuning::push_max_blocks));
      push_merge_path<S, W, threads, items><<<blocks, threads, 0, s>>>(
          u.indices(), u.values(), k, scan, view, ranges, w.data(), mask, stamps, stamp, list,
          count, improved_range, ctx.arcs_scanned());
      check_launch();
    }
  }
  if (counters) {
    counters->push_calls++;
    counters->rows += k;
  }
  finish_improved(improved, count, ctx);
}

}  // namespace detail

template <class S, class W>
void vxm(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, S semiring,
         const sparse_vector<W>& u, const matrix_operand<W>& a, const descriptor& desc,
         gpu_context& ctx, sparse_vector<W>* improved, value_range<W> improved_range,
         op_counters* counters) {
  (void)semiring;
  const device_matrix<W>& A = *a.a;
  const vertex n = A.rows();
  cudaStream_t s = ctx.stream();
  bool pull = desc.dir == direction::pull;
  if (desc.dir == direction::automatic)
    pull = A.has_transpose() && u.nvals() * std::size_t(desc.pull_ratio) > n;
  if (pull) {
    // Pull needs u densely: scatter its entries into an identity-filled scratch vector.
    dense_vector<W> dense_u(n, s);
    assign(dense_u, no_mask<W>(), S::identity(), false, ctx);
    assign(dense_u, u, ctx);
    detail::pull_dispatch<S>(w, mask, accum, A.transpose_view(),
                             detail::ranges_of(A.transpose_view(), a, true), dense_u.data(), desc,
                             ctx, improved, improved_range, counters);
    return;
  }
  const bool direct = accum == accumulator::min ? S::is_min_monoid
                      : accum == accumulator::plus ? !S::is_min_monoid
                                                   : true;
  if (direct) {
    if (accum == accumulator::none) {
      // w<mask> = T: the masked positions start from the identity; replace clears the rest.
      assign(w, mask, S::identity(), desc.replace, ctx);
    } else if (desc.replace && mask.kind != mask_kind::none) {
      mask_view<W> inverse = mask;
      inverse.complement = !mask.complement;
      assign(w, inverse, S::identity(), false, ctx);
    }
    detail::push_dispatch<S>(w, mask, A.view(), detail::ranges_of(A.view(), a, false), u, desc,
                             ctx, improved, improved_range, counters);
    return;
  }
  // An accumulator other than the semiring's monoid: T into scratch, then w<mask> = accum(w, T).
  dense_vector<W> t(n, s);
  assign(t, no_mask<W>(), S::identity(), false, ctx);
  detail::push_dispatch<S>(t, no_mask<W>(), A.view(), detail::ranges_of(A.view(), a, false), u,
                           desc, ctx, static_cast<sparse_vector<W>*>(nullptr), improved_range, counters);
  detail::ewise_kernel<S><<<detail::blocks_for(n), tuning::block_threads, 0, s>>>(
      w.data(), n, mask, accum, detail::present_or_identity<S, W>{t.data()}, desc.replace);
  detail::check_launch();
  if (improved) improved->set_nvals(0);
}

template <class S, class W>
void mxv(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, S semiring,
         const matrix_operand<W>& a, const dense_vector<W>& u, const descriptor& desc,
         gpu_context& ctx, sparse_vector<W>* improved, value_range<W> improved_range,
         op_counters* counters) {
  (void)semiring;
  const device_matrix<W>& A = *a.a;
  detail::pull_dispatch<S>(w, mask, accum, A.view(), detail::ranges_of(A.view(), a, false),
                           u.data(), desc, ctx, improved, improved_range, counters);
}

template <class S, class W>
void ewise_add(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, S,
               const dense_vector<W>& a, const dense_vector<W>& b, gpu_context& ctx) {
  detail::ewise_kernel<S><<<detail::blocks_for(w.size()), tuning::block_threads, 0, ctx.stream()>>>(
      w.data(), w.size(), mask, accum, detail::ewise_add_op<S, W>{a.data(), b.data()}, false);
  detail::check_launch();
}

template <class S, class W>
void ewise_mult(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, S,
                const dense_vector<W>& a, const dense_vector<W>& b, gpu_context& ctx) {
  detail::ewise_kernel<S><<<detail::blocks_for(w.size()), tuning::block_threads, 0, ctx.stream()>>>(
      w.data(), w.size(), mask, accum, detail::ewise_mult_op<S, W>{a.data(), b.data()}, false);
  detail::check_launch();
}

template <class S, class W>
W reduce(S, const dense_vector<W>& u, gpu_context& ctx) {
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<vertex>(0),
                                            detail::present_or_identity<S, W>{u.data()});
  std::size_t bytes = 0;
  W* out = nullptr;
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, in, out, u.size(),
                                              detail::monoid_op<S>{}, S::identity(), ctx.stream()));
  const std::size_t offset = (bytes + 255) / 256 * 256;
  char* temp = static_cast<char*>(ctx.temp(offset + sizeof(W)));
  out = reinterpret_cast<W*>(temp + offset);
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, bytes, in, out, u.size(),
                                              detail::monoid_op<S>{}, S::identity(), ctx.stream()));
  W h{};
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(&h, out, sizeof(W), cudaMemcpyDeviceToHost, ctx.stream()));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  return h;
}

template <class S, class W>
W reduce(S, const sparse_vector<W>& u, gpu_context& ctx) {
  const std::size_t k = u.nvals();
  if (k == 0) return S::identity();
  std::size_t bytes = 0;
  W* out = nullptr;
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, u.values(), out, k,
                                              detail::monoid_op<S>{}, S::identity(), ctx.stream()));
  const std::size_t offset = (bytes + 255) / 256 * 256;
  char* temp = static_cast<char*>(ctx.temp(offset + sizeof(W)));
  out = reinterpret_cast<W*>(temp + offset);
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, bytes, u.values(), out, k,
                                              detail::monoid_op<S>{}, S::identity(), ctx.stream()));
  W h{};
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(&h, out, sizeof(W), cudaMemcpyDeviceToHost, ctx.stream()));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  ctx.round_trips++;
  return h;
}

}  // namespace tropic

namespace tropic {

template <class W>
light_heavy_split<W>::light_heavy_split(const device_matrix<W>& a, double delta, gpu_context& ctx)
    : delta_(delta), same_(a.stats().symmetric), split_(a.rows(), ctx.stream()) {
  split_light_heavy(a.view(), delta, split_.data(), ctx.stream());
  if (!same_ && a.has_transpose()) {
    t_split_ = device_buffer<arc_index>(a.rows(), ctx.stream());
    split_light_heavy(a.transpose_view(), delta, t_split_.data(), ctx.stream());
  }
}

template <class W>
const arc_index* light_heavy_split<W>::transpose_rows() const noexcept {
  if (same_) return split_.data();
  return t_split_.size() ? t_split_.data() : nullptr;
}

template <class W>
void select(sparse_vector<W>& out, const dense_vector<W>& in, value_range<W> range,
            gpu_context& ctx) {
  cudaStream_t s = ctx.stream();
  const vertex n = in.size();
  std::uint64_t* count = ctx.zeroed_counter();
  detail::in_range_pred<W> pred{in.data(), range};
  std::size_t bytes = 0;
  TROPIC_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, thrust::counting_iterator<vertex>(0),
                                          out.indices(), count, n, pred, s));
  TROPIC_CUDA_CHECK(cub::DeviceSelect::If(ctx.temp(bytes), bytes, thrust::counting_iterator<vertex>(0),
                                          out.indices(), count, n, pred, s));
  const std::size_t k = ctx.read_counter();
  out.set_nvals(k);
  if (k) {
    detail::gather_values<<<detail::blocks_for(k), tuning::block_threads, 0, s>>>(
        out.indices(), k, in.data(), out.indices(), out.values());
    detail::check_launch();
  }
}

template <class W>
void gather(sparse_vector<W>& out, const dense_vector<W>& in, const sparse_vector<W>& pattern,
            gpu_context& ctx) {
  const std::size_t k = pattern.nvals();
  if (k) {
    detail::gather_values<<<detail::blocks_for(k), tuning::block_threads, 0, ctx.stream()>>>(
        pattern.indices(), k, in.data(), out.indices(), out.values());
    detail::check_launch();
  }
  out.set_nvals(k);
}

template <class W>
void select(sparse_vector<W>& out, const dense_vector<W>& in, const sparse_vector<W>& pattern,
            value_range<W> range, gpu_context& ctx) {
  const std::size_t k = pattern.nvals();
  if (out.size() < std::min<std::size_t>(k, in.size()))
    throw error(error_code::invalid_value,
                "select: the output holds " + std::to_string(out.size()) + " entries, up to " +
                    std::to_string(std::min<std::size_t>(k, in.size())) + " may be selected");
  if (k == 0) {
    out.set_nvals(0);
    return;
  }
  std::uint32_t* stamps = ctx.stamps(in.size());
  const std::uint32_t stamp = ctx.next_stamp();
  auto* count = reinterpret_cast<unsigned long long*>(ctx.zeroed_counter());
  detail::select_listed<<<detail::blocks_for(k), tuning::block_threads, 0, ctx.stream()>>>(
      pattern.indices(), k, in.data(), range, stamps, stamp, out.indices(), out.values(), count);
  detail::check_launch();
  out.set_nvals(static_cast<std::size_t>(ctx.read_counter()));
}

template <class W>
void append(sparse_vector<W>& w, const sparse_vector<W>& u, gpu_context& ctx) {
  const std::size_t at = w.nvals(), k = u.nvals();
  if (at + k > w.size())
    throw error(error_code::invalid_value, "append: " + std::to_string(at) + " + " +
                                               std::to_string(k) + " entries exceed the capacity " +
                                               std::to_string(w.size()));
  if (k) {
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(w.indices() + at, u.indices(), k * sizeof(vertex),
                                      cudaMemcpyDeviceToDevice, ctx.stream()));
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(w.values() + at, u.values(), k * sizeof(W),
                                      cudaMemcpyDeviceToDevice, ctx.stream()));
  }
  w.set_nvals(at + k);
}

template <class W>
W reduce_min(const dense_vector<W>& in, value_range<W> range, gpu_context& ctx) {
  auto values = thrust::make_transform_iterator(thrust::counting_iterator<vertex>(0),
                                                detail::range_or_identity<W>{in.data(), range});
  std::size_t bytes = 0;
  W* out = nullptr;
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, values, out, in.size(),
                                              detail::monoid_op<min_plus<W>>{}, infinity<W>(),
                                              ctx.stream()));
  const std::size_t offset = (bytes + 255) / 256 * 256;
  char* temp = static_cast<char*>(ctx.temp(offset + sizeof(W)));
  out = reinterpret_cast<W*>(temp + offset);
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, bytes, values, out, in.size(),
                                              detail::monoid_op<min_plus<W>>{}, infinity<W>(),
                                              ctx.stream()));
  W h{};
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(&h, out, sizeof(W), cudaMemcpyDeviceToHost, ctx.stream()));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  ctx.round_trips++;
  return h;
}

template <class W>
void assign(dense_vector<W>& w, const mask_view<W>& mask, W value, bool replace,
            gpu_context& ctx) {
  detail::assign_masked<<<detail::blocks_for(w.size()), tuning::block_threads, 0, ctx.stream()>>>(
      w.data(), w.size(), mask, value, replace, infinity<W>());
  detail::check_launch();
}

template <class W>
void assign(dense_vector<W>& w, const sparse_vector<W>& u, gpu_context& ctx) {
  const std::size_t k = u.nvals();
  if (!k) return;
  detail::scatter_values<<<detail::blocks_for(k), tuning::block_threads, 0, ctx.stream()>>>(
      u.indices(), u.values(), k, w.data());
  detail::check_launch();
}

template <class W>
void apply(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, unary_op f, W scalar,
           const dense_vector<W>& u, gpu_context& ctx) {
  detail::ewise_kernel<min_plus<W>><<<detail::blocks_for(w.size()), tuning::block_threads, 0,
                                      ctx.stream()>>>(w.data(), w.size(), mask, accum,
                                                      detail::apply_op<W>{u.data(), f, scalar}, false);
  detail::check_launch();
}

template <class W>
std::size_t nvals(const dense_vector<W>& u, gpu_context& ctx) {
  auto flags = thrust::make_transform_iterator(thrust::counting_iterator<vertex>(0),
                                               detail::present_flag<W>{u.data()});
  std::size_t bytes = 0;
  std::uint64_t* count = ctx.zeroed_counter();
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, flags, count, u.size(), ctx.stream()));
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Sum(ctx.temp(bytes), bytes, flags, count, u.size(), ctx.stream()));
  return ctx.read_counter();
}

}  // namespace tropic

// Explicit instantiation of every operator for one semiring and weight type.
#define TROPIC_INSTANTIATE_SEMIRING(S, W)                                                        \
  template void vxm<S, W>(dense_vector<W>&, const mask_view<W>&, accumulator, S,         \
                                  const sparse_vector<W>&, const matrix_operand<W>&,             \
                                  const descriptor&, gpu_context&, sparse_vector<W>*,            \
                                  value_range<W>, op_counters*);                                 \
  template void mxv<S, W>(dense_vector<W>&, const mask_view<W>&, accumulator, S,         \
                                  const matrix_operand<W>&, const dense_vector<W>&,              \
                                  const descriptor&, gpu_context&, sparse_vector<W>*,            \
                                  value_range<W>, op_counters*);                                 \
  template void ewise_add<S, W>(dense_vector<W>&, const mask_view<W>&, accumulator, S,   \
                                        const dense_vector<W>&, const dense_vector<W>&,          \
                                        gpu_context&);                                           \
  template void ewise_mult<S, W>(dense_vector<W>&, const mask_view<W>&, accumulator, S,  \
                                         const dense_vector<W>&, const dense_vector<W>&,         \
                                         gpu_context&);                                          \
  template W reduce<S, W>(S, const dense_vector<W>&, gpu_context&);                               \
  template W reduce<S, W>(S, const sparse_vector<W>&, gpu_context&);

#define TROPIC_INSTANTIATE_VECTOR_OPS(W)                                                         \
  template class light_heavy_split<W>;                                                   \
  template void select<W>(sparse_vector<W>&, const dense_vector<W>&, value_range<W>,     \
                                  gpu_context&);                                                 \
  template void gather<W>(sparse_vector<W>&, const dense_vector<W>&,                     \
                                  const sparse_vector<W>&, gpu_context&);                        \
  template void select<W>(sparse_vector<W>&, const dense_vector<W>&, const sparse_vector<W>&,     \
                          value_range<W>, gpu_context&);                                         \
  template void append<W>(sparse_vector<W>&, const sparse_vector<W>&, gpu_context&);             \
  template W reduce_min<W>(const dense_vector<W>&, value_range<W>, gpu_context&);        \
  template void assign<W>(dense_vector<W>&, const mask_view<W>&, W, bool, gpu_context&); \
  template void assign<W>(dense_vector<W>&, const sparse_vector<W>&, gpu_context&);      \
  template void apply<W>(dense_vector<W>&, const mask_view<W>&, accumulator, unary_op, W, \
                                 const dense_vector<W>&, gpu_context&);                          \
  template std::size_t nvals<W>(const dense_vector<W>&, gpu_context&);
