// Element-wise kernels and functors: assign, gather, select over a listed pattern, scatter,
// ewise_add / ewise_mult / apply (one kernel with a per-index functor), and the transform
// functors the CUB-based select and reduce read through.
#pragma once

#include <cub/block/block_reduce.cuh>

#include <cstddef>
#include <cstdint>

#include "../detail/common.cuh"

namespace tropic::detail {

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
    const unsigned long long at = append_slot(out_count);
    out_idx[at] = i;
    out_val[at] = x;
  }
}

// w[idx[k]] = val[k]; and, when `least` is given, *least = min(*least, min_k val[k]) (a pull's
// floor, pull_floor). Launched with tuning::block_threads threads.
template <class W>
__global__ void scatter_values(const vertex* idx, const W* val, std::size_t count, W* w,
                               W* least = nullptr) {
  W mine = infinity<W>();
  for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < count;
       k += std::size_t(gridDim.x) * blockDim.x) {
    const W x = val[k];
    w[idx[k]] = x;
    if (x < mine) mine = x;
  }
  if (!least) return;  // the same in every thread
  using reduce = cub::BlockReduce<W, tuning::block_threads>;
  __shared__ typename reduce::TempStorage storage;
  mine = reduce(storage).Reduce(mine, monoid_op<min_plus<W>>{});
  if (threadIdx.x == 0 && mine < infinity<W>()) atomic_min(least, mine);
}

// list[k] += by for every k < count: a pull over a window of rows lists them from the window's
// first row (pull_operands::first_row).
__global__ inline void offset_indices(vertex* list, std::size_t count, vertex by) {
  for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < count;
       k += std::size_t(gridDim.x) * blockDim.x)
    list[k] += by;
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

}  // namespace tropic::detail
