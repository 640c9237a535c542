// The operators of device-driven loops (tropic/device_loop.hpp): the same kernels as the
// host-driven operators (operators.cuh), with lengths, ranges and stamps read on the device and
// grids sized for the device instead of the data.
#pragma once

#include <cooperative_groups.h>

#include "operators.cuh"
#include "tropic/device_loop.hpp"

namespace tropic {

namespace detail {

template <class W>
struct in_device_range_pred {
  const W* values;
  const value_range<W>* range;
  __device__ bool operator()(vertex i) const { return in_range(values[i], *range); }
};

template <class W>
struct at_or_above_or_identity {
  const W* values;
  const W* above;
  __host__ __device__ W operator()(vertex i) const {
#if defined(__CUDA_ARCH__)
    const W x = values[i];
    return x < *above ? infinity<W>() : x;
#else
    return infinity<W>();
#endif
  }
};

// The light closure (vxm_closure): every block steps through the frontiers together, a grid
// barrier between steps (cooperative groups' grid sync: 1.1 µs per step on the H100 with 132
// blocks, against 1.8 µs for a barrier of an arrival count and a generation word,
// bench/tune/grid_barrier.cu). Frontier k is lists[k % 2] with its length in counts[k % 3]:
// step k reads it and appends frontier k + 1; a length is last read right after the barrier
// that ends the step before its own, so counts[(k + 2) % 3] (frontier k - 1's) is free during
// step k and block 0 zeroes it there for step k + 1 to append to. Each step lists with its own
// stamp, counting down from the device stamp as the graph-node steps do.
template <class W>
struct closure_args {
  csr_view<W> a;
  row_ranges ranges;
  W* w;
  vertex* lists[2];
  unsigned long long* counts[3];
  std::uint32_t* stamps;
  std::uint32_t* device_stamp;
  const value_range<W>* range;
  unsigned long long* arcs_scanned;
  unsigned long long* statistics;  // [0] += steps, [1] += frontier entries
};

template <class S, class W, int Group>
__global__ void __launch_bounds__(tuning::block_threads) push_closure(closure_args<W> c) {
  const std::uint32_t first_stamp = *c.device_stamp;
  const value_range<W> range = *c.range;
  std::uint64_t step = 0, entries = 0;
  for (;; ++step) {
    const std::size_t size = *c.counts[step % 3];  // final since the last barrier
    if (size == 0) break;                          // the same value in every block: all leave
    if (blockIdx.x == 0 && threadIdx.x == 0) *c.counts[(step + 2) % 3] = 0;
    const frontier_ref<W> frontier{c.lists[step % 2], nullptr, c.w, size, nullptr};
    push_rows<S, W, Group>(frontier, size, c.a, c.ranges, c.w, mask_view<W>{}, c.stamps,
                           std::uint32_t(first_stamp - step), c.lists[(step + 1) % 2],
                           c.counts[(step + 1) % 3], range, c.arcs_scanned);
    entries += size;
    cooperative_groups::this_grid().sync();
  }
  // Every block has read the empty frontier's length; the last non-empty one's is zeroed here
  // (the third was zeroed during the last step), so both worklists end empty.
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    if (step > 0) *c.counts[(step - 1) % 3] = 0;
    *c.device_stamp = std::uint32_t(first_stamp - step);
    if (c.statistics) {
      c.statistics[0] += step;
      c.statistics[1] += entries;
    }
  }
}

}  // namespace detail

template <class W>
std::size_t device_loop_temp_bytes(vertex n) {
  std::size_t select_bytes = 0, reduce_bytes = 0;
  detail::in_device_range_pred<W> pred{nullptr, nullptr};
  TROPIC_CUDA_CHECK(cub::DeviceSelect::If(nullptr, select_bytes,
                                          thrust::counting_iterator<vertex>(0),
                                          static_cast<vertex*>(nullptr),
                                          static_cast<unsigned long long*>(nullptr), n, pred));
  auto values = thrust::make_transform_iterator(thrust::counting_iterator<vertex>(0),
                                                detail::at_or_above_or_identity<W>{nullptr, nullptr});
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, reduce_bytes, values,
                                              static_cast<W*>(nullptr), n,
                                              detail::monoid_op<min_plus<W>>{}, infinity<W>()));
  return std::max(select_bytes, reduce_bytes);
}

template <class W>
void select(device_worklist& out, const dense_vector<W>& in, const value_range<W>* range,
            gpu_context& ctx) {
  const vertex n = in.size();
  detail::in_device_range_pred<W> pred{in.data(), range};
  std::size_t bytes = 0;
  TROPIC_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, thrust::counting_iterator<vertex>(0),
                                          out.indices(), out.count(), n, pred, ctx.stream()));
  TROPIC_CUDA_CHECK(cub::DeviceSelect::If(ctx.temp(bytes), bytes,
                                          thrust::counting_iterator<vertex>(0), out.indices(),
                                          out.count(), n, pred, ctx.stream()));
}

template <class S, class W>
void vxm(dense_vector<W>& w, S, device_worklist& in, const matrix_operand<W>& a, gpu_context& ctx,
         device_worklist& improved, const value_range<W>* improved_range) {
  const device_matrix<W>& A = *a.a;
  const csr_view<W> view = A.view();
  const detail::row_ranges ranges = detail::ranges_of(view, a, false);
  detail::loop_epilogue e;
  e.blocks_done = ctx.blocks_done();
  e.drain = in.count();
  e.stamp = ctx.device_stamp();
  e.statistics = ctx.loop_statistics();
  e.count_iteration = a.part != row_part::heavy;  // as the host-driven loop counts
  const detail::frontier_ref<W> frontier{in.indices(), nullptr, w.data(), 0, in.count()};
  std::uint32_t* stamps = ctx.stamps(w.size());
  const unsigned blocks = tuning::device_loop_blocks;
  const double avg = view.n ? double(view.arcs) / view.n : 0;
  // Group size from the average row length, as the pull does.
  auto launch = [&](auto group) {
    constexpr int G = decltype(group)::value;
    detail::push_group_per_row<S, W, G><<<blocks, tuning::block_threads, 0, ctx.stream()>>>(
        frontier, view, ranges, w.data(), no_mask<W>(), stamps, 0, ctx.device_stamp(),
        improved.indices(), improved.count(), value_range<W>{}, improved_range,
        ctx.arcs_scanned(), e);
  };
  if (avg >= 16) launch(std::integral_constant<int, 32>{});
  else if (avg >= 4) launch(std::integral_constant<int, 8>{});
  else launch(std::integral_constant<int, 4>{});
  detail::check_launch();
}

template <class S, class W>
void vxm_closure(dense_vector<W>& w, S, device_worklist& in, const matrix_operand<W>& a,
                 gpu_context& ctx, device_worklist& spare, const value_range<W>* range) {
  static_assert(S::is_min_monoid, "the closure's fixed point needs an idempotent (min) monoid");
  const device_matrix<W>& A = *a.a;
  const csr_view<W> view = A.view();
  const double avg = view.n ? double(view.arcs) / view.n : 0;
  detail::closure_args<W> c{view,
                            detail::ranges_of(view, a, false),
                            w.data(),
                            {in.indices(), spare.indices()},
                            {in.count(), spare.count(), ctx.closure_scratch()},
                            ctx.stamps(w.size()),
                            ctx.device_stamp(),
                            range,
                            ctx.arcs_scanned(),
                            ctx.loop_statistics()};
  // Group size from the average row length, as the graph-node push does. A cooperative launch
  // (its blocks resident at once, or the launch fails): tuning::device_loop_blocks, capped by
  // the occupancy API.
  auto launch = [&](auto group) {
    constexpr int G = decltype(group)::value;
    static const unsigned resident = [] {
      int per_sm = 0, device = 0, sms = 0;
      TROPIC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_sm, detail::push_closure<S, W, G>, tuning::block_threads, 0));
      TROPIC_CUDA_CHECK(cudaGetDevice(&device));
      TROPIC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
      return unsigned(std::max(per_sm, 1) * std::max(sms, 1));
    }();
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(std::min(tuning::device_loop_blocks, resident));
    config.blockDim = dim3(tuning::block_threads);
    config.stream = ctx.stream();
    cudaLaunchAttribute cooperative{};
    cooperative.id = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = 1;
    config.attrs = &cooperative;
    config.numAttrs = 1;
    TROPIC_CUDA_CHECK(cudaLaunchKernelEx(&config, detail::push_closure<S, W, G>, c));
  };
  if (avg >= 16) launch(std::integral_constant<int, 32>{});
  else if (avg >= 4) launch(std::integral_constant<int, 8>{});
  else launch(std::integral_constant<int, 4>{});
  detail::check_launch();
}

template <class W>
void reduce_min(W* out, const dense_vector<W>& in, const W* above, gpu_context& ctx) {
  auto values = thrust::make_transform_iterator(
      thrust::counting_iterator<vertex>(0), detail::at_or_above_or_identity<W>{in.data(), above});
  std::size_t bytes = 0;
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, values, out, in.size(),
                                              detail::monoid_op<min_plus<W>>{}, infinity<W>(),
                                              ctx.stream()));
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(ctx.temp(bytes), bytes, values, out, in.size(),
                                              detail::monoid_op<min_plus<W>>{}, infinity<W>(),
                                              ctx.stream()));
}

}  // namespace tropic

#define TROPIC_INSTANTIATE_DEVICE_LOOP(W)                                                        \
  template std::size_t device_loop_temp_bytes<W>(vertex);                                       \
  template void select<W>(device_worklist&, const dense_vector<W>&, const value_range<W>*,       \
                          gpu_context&);                                                         \
  template void vxm<min_plus<W>, W>(dense_vector<W>&, min_plus<W>, device_worklist&,             \
                                    const matrix_operand<W>&, gpu_context&, device_worklist&,    \
                                    const value_range<W>*);                                      \
  template void vxm_closure<min_plus<W>, W>(dense_vector<W>&, min_plus<W>, device_worklist&,     \
                                            const matrix_operand<W>&, gpu_context&,            \
                                            device_worklist&, const value_range<W>*);          \
  template void reduce_min<W>(W*, const dense_vector<W>&, const W*, gpu_context&);
