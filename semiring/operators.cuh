// The GraphBLAS-shaped operators of tropic/operators.hpp: their public bodies, and the include
// of every layer below them. Layered like CUB, one folder per layer:
//   operators.cuh     public calls: vxm picks push or pull, select / reduce / ewise / assign ...
//   dispatch/         sizes temporaries, picks the kernel family and the grid: push_dispatch and
//                     pull_dispatch take one operand struct (push_operands, pull_operands);
//                     select_reduce
//   kernels/          one file per kernel family: push_merge_path, push_group_per_row,
//                     push_edge_wise, pull_merge_path (by blocks, with its fixup),
//                     pull_warp_path (by warps), pull_group_per_row, pull_live_rows (choice,
//                     live rows, long rows), elementwise
//   agents/           per-tile and per-row work: merge_path_tile, pull_row
//   detail/           what every family shares: common.cuh (row ranges, mask, list appends,
//                     launch helpers), args.cuh (parameter types: frontier, push_args, floor)
// One kernel body per method, generic over the semiring; semiring/inst/*.cu instantiate them per
// weight type (TROPIC_INSTANTIATE_SEMIRING, TROPIC_INSTANTIATE_VECTOR_OPS below). Kernels take
// their parameters one by one, not as one struct: detail/args.cuh says why.
#pragma once

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "dispatch/pull.cuh"
#include "dispatch/push.cuh"
#include "dispatch/select_reduce.cuh"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"
#include "tropic/tuning.hpp"

namespace tropic {

namespace detail {

// w<mask> = accum(w, A ⊕.⊗ u) for a dense u over A's rows, or A''s when `transposed`: every
// pull, dense or sparse, vxm or mxv, reaches pull_dispatch here. Where an empty row leaves w as
// it is (the min accumulator of a min monoid, no mask), the pull visits only the rows of A that
// hold arcs: a part of a distributed matrix, n rows of which it holds |part|, reads its own.
template <class S, class W>
void pull_rows(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum,
               const matrix_operand<W>& a, bool transposed, const W* u, pull_floor<W> floor,
               const descriptor& desc, gpu_context& ctx, sparse_vector<W>* improved,
               value_range<W> improved_range, op_counters* counters) {
  csr_view<W> view = transposed ? a.a->transpose_view() : a.a->view();
  row_ranges ranges = pull_ranges_of(view, a, transposed, desc, ctx);
  vertex first = 0;
  const vertex last = a.a->last_arc_row();
  if (!transposed && accum == accumulator::min && S::is_min_monoid &&
      mask.kind == mask_kind::none && (a.a->first_arc_row() > 0 || last < view.n)) {
    first = a.a->first_arc_row();
    view.n = last - first;
    view.row_offsets += first;
    if (view.row_least) view.row_least += first;
    ranges.offsets = view.row_offsets;
    if (ranges.split) ranges.split += first;
    if (ranges.light_before) ranges.light_before += first;
  }
  const pull_operands<W> op{&w, mask, accum, view, ranges, u, improved, improved_range,
                            counters, floor, first};
  pull_dispatch<S>(op, desc, ctx);
}

// A pull from a sparse u over A's rows (mxv) or A''s (vxm, `transposed`). The pull needs u
// densely: its entries are scattered into an identity-filled vector, the context's scratch (no
// allocation per call inside a solve's loop), whose entry n receives min(u): the floor's first
// operand (pull_floor, for the min accumulator only), which lets the pull skip every row and
// arc tail that no entry of u can improve.
template <class S, class W>
void pull_sparse(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum,
                 const sparse_vector<W>& u, const matrix_operand<W>& a, bool transposed,
                 const descriptor& desc, gpu_context& ctx, sparse_vector<W>* improved,
                 value_range<W> improved_range, op_counters* counters) {
  const device_matrix<W>& A = *a.a;
  const vertex n = A.rows();
  cudaStream_t s = ctx.stream();
  const bool floored = accum == accumulator::min && S::is_min_monoid && S::monotone_mul;
  W* dense_u = static_cast<W*>(ctx.pull_dense_input((std::size_t(n) + 1) * sizeof(W)));
  assign_masked<<<blocks_for(std::size_t(n) + 1), tuning::block_threads, 0, s>>>(
      dense_u, n + 1, no_mask<W>(), S::identity(), false, S::identity());
  check_launch();
  if (u.nvals()) {
    scatter_values<<<blocks_for(u.nvals()), tuning::block_threads, 0, s>>>(
        u.indices(), u.values(), u.nvals(), dense_u, floored ? dense_u + n : nullptr);
    check_launch();
  }
  pull_floor<W> floor;
  if (floored) {
    floor.least_input = dense_u + n;
    floor.least_weight = least_weight_of(A, a);
  }
  pull_rows<S>(w, mask, accum, a, transposed, dense_u, floor, desc, ctx, improved, improved_range,
               counters);
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
  const arc_index* scanned = nullptr;  // the push's scan, made early to count u's arcs
  if (desc.dir == direction::automatic && A.has_transpose()) {
    const std::size_t k = u.nvals();
    pull = k * std::size_t(desc.pull_ratio) > n;
    const graph_stats& g = A.stats();
    if (!pull && desc.pull_arc_ratio > 0 && k * tuning::arc_count_rows_ratio > n &&
        double(g.max_degree) >= tuning::skewed_degree_ratio * g.avg_degree) {
      // u's arcs: the total of the load-balanced push's scan, which the push then reuses (a
      // separate reduce cost more; bench/results/h100-run22/sweeps/).
      scanned = detail::frontier_scan(u, detail::ranges_of(A.view(), a, false), ctx);
      const arc_index arcs = detail::frontier_scan_total(scanned, k, ctx);
      pull = arcs * desc.pull_arc_ratio > A.transpose_view().arcs;
    }
  }
  if (pull) {
    detail::pull_sparse<S>(w, mask, accum, u, a, true, desc, ctx, improved, improved_range,
                           counters);
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
    const detail::push_operands<W> op{&w, mask, A.view(), detail::ranges_of(A.view(), a, false),
                                      &u, improved, improved_range, counters};
    detail::push_dispatch<S>(op, desc, ctx, scanned);
    return;
  }
  // An accumulator other than the semiring's monoid: T into scratch, then w<mask> = accum(w, T).
  dense_vector<W> t(n, s);
  assign(t, no_mask<W>(), S::identity(), false, ctx);
  const detail::push_operands<W> op{&t, no_mask<W>(), A.view(),
                                    detail::ranges_of(A.view(), a, false), &u, nullptr,
                                    improved_range, counters};
  detail::push_dispatch<S>(op, desc, ctx);
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
  detail::pull_rows<S>(w, mask, accum, a, false, u.data(), detail::pull_floor<W>{}, desc, ctx,
                       improved, improved_range, counters);
}

template <class S, class W>
void mxv(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, S semiring,
         const matrix_operand<W>& a, const sparse_vector<W>& u, const descriptor& desc,
         gpu_context& ctx, sparse_vector<W>* improved, value_range<W> improved_range,
         op_counters* counters) {
  (void)semiring;
  detail::pull_sparse<S>(w, mask, accum, u, a, false, desc, ctx, improved, improved_range,
                         counters);
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
  return detail::reduce_to_host<S>(in, u.size(), ctx);
}

template <class S, class W>
W reduce(S, const sparse_vector<W>& u, gpu_context& ctx) {
  const std::size_t k = u.nvals();
  if (k == 0) return S::identity();
  return detail::reduce_to_host<S>(u.values(), k, ctx);
}

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

namespace detail {
// Row u's light arcs (0 for u = n: the scan's last entry is the total).
struct light_length {
  const arc_index* offsets;
  const arc_index* split;
  vertex n;
  __host__ __device__ arc_index operator()(vertex u) const {
#if defined(__CUDA_ARCH__)
    return u < n ? split[u] - offsets[u] : 0;
#else
    (void)u;
    return 0;
#endif
  }
};
}  // namespace detail

template <class W>
const arc_index* light_heavy_split<W>::light_before(const csr_view<W>& view, bool transposed,
                                                    arc_index& light_arcs,
                                                    gpu_context& ctx) const {
  prefix& p = transposed && !same_ ? t_light_before_ : light_before_;
  if (!p.ready) {
    cudaStream_t s = ctx.stream();
    const vertex n = view.n;
    p.before = device_buffer<arc_index>(std::size_t(n) + 1, s);
    arc_index* before = p.before.data();
    auto lengths = thrust::make_transform_iterator(
        thrust::counting_iterator<vertex>(0),
        detail::light_length{view.row_offsets, transposed ? transpose_rows() : rows(), n});
    std::size_t bytes = 0;
    TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, lengths, before,
                                                    std::size_t(n) + 1, s));
    TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(ctx.temp(bytes), bytes, lengths, before,
                                                    std::size_t(n) + 1, s));
    p.total = ctx.read_word(before + n);
    p.ready = true;
  }
  light_arcs = p.total;
  return p.before.data();
}

template <class W>
void select(sparse_vector<W>& out, const dense_vector<W>& in, value_range<W> range,
            gpu_context& ctx) {
  std::uint64_t* count = ctx.zeroed_counter();
  detail::select_on_device(out, in, range, count, static_cast<W*>(nullptr), range, ctx);
  detail::select_values(out, in, std::size_t(ctx.read_counter()), ctx);
}

template <class W>
W select_reduce_min(sparse_vector<W>& out, const dense_vector<W>& in, value_range<W> range,
                    value_range<W> least_range, gpu_context& ctx) {
  // The count and the minimum share the context's pair of counter words: one copy, one wait.
  static_assert(sizeof(W) <= sizeof(std::uint64_t), "a weight fits a counter word");
  std::uint64_t* words = ctx.zeroed_counters(2);
  W* least = reinterpret_cast<W*>(words + 1);
  detail::select_on_device(out, in, range, words, least, least_range, ctx);
  const std::uint64_t* read = ctx.read_counters(2);
  W lowest;
  std::memcpy(&lowest, read + 1, sizeof lowest);
  detail::select_values(out, in, std::size_t(read[0]), ctx);
  return lowest;
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
  return detail::reduce_to_host<min_plus<W>>(values, in.size(), ctx);
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
  detail::ewise_kernel<min_plus<W>>
      <<<detail::blocks_for(w.size()), tuning::block_threads, 0, ctx.stream()>>>(
          w.data(), w.size(), mask, accum, detail::apply_op<W>{u.data(), f, scalar}, false);
  detail::check_launch();
}

template <class W>
std::size_t nvals(const dense_vector<W>& u, gpu_context& ctx) {
  auto flags = thrust::make_transform_iterator(thrust::counting_iterator<vertex>(0),
                                               detail::present_flag<W>{u.data()});
  std::size_t bytes = 0;
  std::uint64_t* count = ctx.zeroed_counter();
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, flags, count, u.size(), ctx.stream()));
  TROPIC_CUDA_CHECK(
      cub::DeviceReduce::Sum(ctx.temp(bytes), bytes, flags, count, u.size(), ctx.stream()));
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
  template void mxv<S, W>(dense_vector<W>&, const mask_view<W>&, accumulator, S,         \
                                  const matrix_operand<W>&, const sparse_vector<W>&,             \
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
  template W select_reduce_min<W>(sparse_vector<W>&, const dense_vector<W>&, value_range<W>,     \
                                  value_range<W>, gpu_context&);                                 \
  template void assign<W>(dense_vector<W>&, const mask_view<W>&, W, bool, gpu_context&); \
  template void assign<W>(dense_vector<W>&, const sparse_vector<W>&, gpu_context&);      \
  template void apply<W>(dense_vector<W>&, const mask_view<W>&, accumulator, unary_op, W, \
                                 const dense_vector<W>&, gpu_context&);                          \
  template std::size_t nvals<W>(const dense_vector<W>&, gpu_context&);
