// Dispatch of the push (SpMSpV over A's rows from a sparse u): draws the stamp and the improved
// count, scans the frontier's row lengths for the merge path, sizes the grid from the device's
// SM count, and launches the kernel family descriptor::balance names.
#pragma once

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "../detail/args.cuh"
#include "../kernels/push_edge_wise.cuh"
#include "../kernels/push_group_per_row.cuh"
#include "../kernels/push_merge_path.cuh"

namespace tropic::detail {

// A push as the public operators call it: w = w ⊕ u' ⊕.⊗ A(part) over the view's rows, the
// mask tested at each target (the caller has applied the accumulator and replace), each target
// that improved into improved_range listed once in `improved`.
template <class W>
struct push_operands {
  dense_vector<W>* w;
  mask_view<W> mask;
  csr_view<W> view;   // rows = sources
  row_ranges ranges;  // each row's part (ranges_of)
  const sparse_vector<W>* u;
  sparse_vector<W>* improved = nullptr;  // null: no list
  value_range<W> improved_range = {};
  op_counters* counters = nullptr;
};

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

// scan[j] = the arcs of u's first j rows in `ranges`' part, j <= k (CUB's scan over the row
// lengths), in the context's temporary storage: the load-balanced push's partition. scan[k], the
// total, stays on the device (the push reads it there) unless the direction needs it.
// Over k listed rows (mxm's columns of U), or a sparse vector's indices (below).
template <class W>
arc_index* frontier_scan(const vertex* rows, std::size_t k, row_ranges ranges, gpu_context& ctx) {
  cudaStream_t s = ctx.stream();
  auto lengths = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0),
                                                 frontier_row_length<W>{rows, k, ranges});
  std::size_t scan_bytes = 0;
  TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, lengths,
                                                  static_cast<arc_index*>(nullptr), k + 1, s));
  const std::size_t scan_offset = (scan_bytes + 255) / 256 * 256;
  char* temp = static_cast<char*>(ctx.temp(scan_offset + (k + 1) * sizeof(arc_index)));
  arc_index* scan = reinterpret_cast<arc_index*>(temp + scan_offset);
  TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, scan_bytes, lengths, scan, k + 1, s));
  return scan;
}

template <class W>
arc_index* frontier_scan(const sparse_vector<W>& u, row_ranges ranges, gpu_context& ctx) {
  return frontier_scan<W>(u.indices(), u.nvals(), ranges, ctx);
}

// frontier_scan's total read back (one host round trip).
inline arc_index frontier_scan_total(const arc_index* scan, std::size_t k, gpu_context& ctx) {
  return ctx.read_word(scan + k);  // arc_index is std::uint64_t
}

// `scanned`: frontier_scan of op.u made earlier (vxm counts u's arcs to choose the direction),
// reused by the merge path; null: scanned here.
template <class S, class W = typename S::value_type>
void push_dispatch(const push_operands<W>& op, const descriptor& desc, gpu_context& ctx,
                   const arc_index* scanned = nullptr) {
  cudaStream_t s = ctx.stream();
  const sparse_vector<W>& u = *op.u;
  const csr_view<W>& view = op.view;
  const std::size_t k = u.nvals();
  const push_args<W> p{
      view,
      op.ranges,
      op.w->data(),
      op.mask,
      op.improved ? ctx.stamps(view.n) : nullptr,
      ctx.next_stamp(),
      op.improved ? op.improved->indices() : nullptr,
      op.improved ? reinterpret_cast<unsigned long long*>(ctx.zeroed_counter()) : nullptr,
      op.improved_range};
  if (k > 0) {
    if (desc.balance == load_balance::edge_wise) {
      push_edge_wise<S>(p, u, ctx);
    } else if (desc.balance == load_balance::warp_per_row) {
      push_group_per_row<S, W, 32><<<blocks_for(k * 32), tuning::block_threads, 0, s>>>(
          frontier_ref<W>{u.indices(), u.values(), nullptr, k}, view, p.ranges, p.w, p.mask,
          p.stamps, p.stamp, p.improved, p.improved_count, p.range, ctx.arcs_scanned());
      check_launch();
    } else {
      // scan[j] = arcs of the first j frontier rows; scan[k] = total, read by the kernel itself
      // so the host never waits for it (or the scan vxm made to choose the direction).
      const arc_index* scan = scanned ? scanned : frontier_scan(u, p.ranges, ctx);
      constexpr int threads = tuning::push_threads, items = tuning::push_items_per_thread;
      // The arcs are counted on the device (scan[k]), so the host sizes the grid for the worst
      // case, k rows of the longest length: a frontier of a few hubs gets the whole device, not
      // the blocks of k average rows; idle blocks cost their launch, a few µs at most.
      const std::size_t longest =
          view.max_row_length > 0 ? std::size_t(view.max_row_length)
                                  : std::max<std::size_t>(1, view.n ? view.arcs / view.n : 1);
      const std::size_t estimate = std::min<std::size_t>(k * longest, view.arcs);
      const unsigned blocks = static_cast<unsigned>(std::clamp<std::size_t>(
          (estimate + threads * items - 1) / (threads * items), 1,
          std::size_t(tuning::push_max_blocks_per_sm) * sm_count()));
      push_merge_path<S, W, threads, items><<<blocks, threads, 0, s>>>(
          u.indices(), u.values(), k, scan, view, p.ranges, p.w, p.mask, p.stamps, p.stamp,
          p.improved, p.improved_count, p.range, ctx.arcs_scanned());
      check_launch();
    }
  }
  if (op.counters) {
    op.counters->push_calls++;
    op.counters->rows += k;
  }
  finish_improved(op.improved, p.improved_count, ctx);
}

}  // namespace tropic::detail
