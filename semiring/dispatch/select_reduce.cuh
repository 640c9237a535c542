// Dispatch of the CUB-based select and reduce: temporary storage from the context, counts and
// results read back in one round trip.
#pragma once

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "../kernels/elementwise.cuh"

namespace tropic::detail {

// ⊕ (S's monoid) of `count` items of `in`, read back by the host: CUB's reduce on the context's
// temporary storage, the result after it, one copy and one wait (a round trip). reduce and
// reduce_min; select_reduce_min keeps its reduce on the device beside the select.
template <class S, class In>
typename S::value_type reduce_to_host(In in, std::size_t count, gpu_context& ctx) {
  using W = typename S::value_type;
  std::size_t bytes = 0;
  W* out = nullptr;
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, in, out, count, monoid_op<S>{},
                                              S::identity(), ctx.stream()));
  const std::size_t offset = (bytes + 255) / 256 * 256;
  char* temp = static_cast<char*>(ctx.temp(offset + sizeof(W)));
  out = reinterpret_cast<W*>(temp + offset);
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, bytes, in, out, count, monoid_op<S>{},
                                              S::identity(), ctx.stream()));
  W h{};
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(&h, out, sizeof(W), cudaMemcpyDeviceToHost, ctx.stream()));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  ctx.round_trips++;
  return h;
}

// select's kernels, up to its count on the device; with `least`, reduce_min's over least_range
// into *least after them (on the same temporary storage: CUB's calls run in stream order).
template <class W>
void select_on_device(sparse_vector<W>& out, const dense_vector<W>& in, value_range<W> range,
                      std::uint64_t* count, W* least, value_range<W> least_range,
                      gpu_context& ctx) {
  cudaStream_t s = ctx.stream();
  const vertex n = in.size();
  in_range_pred<W> pred{in.data(), range};
  std::size_t bytes = 0;
  TROPIC_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, thrust::counting_iterator<vertex>(0),
                                          out.indices(), count, n, pred, s));
  auto values = thrust::make_transform_iterator(thrust::counting_iterator<vertex>(0),
                                                range_or_identity<W>{in.data(), least_range});
  std::size_t reduce_bytes = 0;
  if (least)
    TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, reduce_bytes, values, least, n,
                                                monoid_op<min_plus<W>>{}, infinity<W>(), s));
  void* temp = ctx.temp(std::max(bytes, reduce_bytes));
  TROPIC_CUDA_CHECK(cub::DeviceSelect::If(temp, bytes, thrust::counting_iterator<vertex>(0),
                                          out.indices(), count, n, pred, s));
  if (least)
    TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, reduce_bytes, values, least, n,
                                                monoid_op<min_plus<W>>{}, infinity<W>(), s));
}

// The values of a selected list: out's k indices read from in.
template <class W>
void select_values(sparse_vector<W>& out, const dense_vector<W>& in, std::size_t k,
                   gpu_context& ctx) {
  out.set_nvals(k);
  if (k) {
    gather_values<<<blocks_for(k), tuning::block_threads, 0, ctx.stream()>>>(
        out.indices(), k, in.data(), out.indices(), out.values());
    check_launch();
  }
}

}  // namespace tropic::detail
