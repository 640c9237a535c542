// The operators of device-driven loops (tropic/device_loop.hpp): the same kernels as the
// host-driven operators (operators.cuh), with lengths, ranges and stamps read on the device and
// grids sized for the device instead of the data.
#pragma once

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
         device_worklist& improved, const value_range<W>* improved_range,
         const loop_condition* loop) {
  const device_matrix<W>& A = *a.a;
  const csr_view<W> view = A.view();
  const detail::row_ranges ranges = detail::ranges_of(view, a, false);
  detail::loop_epilogue e;
  e.blocks_done = ctx.blocks_done();
  e.drain = in.count();
  e.stamp = ctx.device_stamp();
  e.condition_count = improved.count();
  e.set_condition = loop != nullptr;
  if (loop) e.condition = loop->handle;
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
                                    const value_range<W>*, const loop_condition*);               \
  template void reduce_min<W>(W*, const dense_vector<W>&, const W*, gpu_context&);
