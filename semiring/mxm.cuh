// The bodies of the many-source operators (tropic/mxm.hpp) and their dispatch: mxm picks push or
// pull, applies the write rule (the accumulator and replace around a direct combine, or a
// product in scratch for an accumulator other than the semiring's monoid), sizes grids from the
// device; the column selections and conversions of a batched bucket loop. Kernels:
// kernels/mxm_push.cuh, kernels/mxm_pull.cuh, kernels/mxm_elementwise.cuh.
#pragma once

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

#include "kernels/mxm_closure.cuh"
#include "kernels/mxm_elementwise.cuh"
#include "kernels/mxm_pull.cuh"
#include "kernels/mxm_push.cuh"
#include "operators.cuh"
#include "tropic/mxm.hpp"

namespace tropic {

namespace detail {

// Blocks for `items` grid-stride positions (64-bit counts).
inline unsigned mxm_blocks(std::size_t items) { return blocks_for(items); }

// The lanes of a group over the k sources: a warp, or a few lanes when k is small.
inline bool mxm_small(std::size_t k) { return k <= std::size_t(tuning::mxm_small_group); }

template <class S, class W, int Group>
void mxm_push_launch(const column_matrix<W>& u, const csr_view<W>& view, const row_ranges& ranges,
                     W* c, const matrix_mask<W>& mask, std::uint32_t* stamps,
                     std::uint32_t stamp, vertex* list, unsigned long long* count,
                     value_range<W> range, gpu_context& ctx) {
  const std::size_t columns = u.ncols(), k = u.rows();
  const arc_index* scan = frontier_scan<W>(u.indices(), columns, ranges, ctx);
  constexpr int threads = tuning::push_threads, items = tuning::push_items_per_thread;
  constexpr std::size_t tile = std::size_t(threads / Group) * items;
  // Sized for the worst case as push_dispatch: the arcs are counted on the device (scan[columns]).
  const std::size_t longest =
      view.max_row_length > 0 ? std::size_t(view.max_row_length)
                              : std::max<std::size_t>(1, view.n ? view.arcs / view.n : 1);
  const std::size_t estimate = std::min<std::size_t>(columns * longest, view.arcs);
  const unsigned blocks = static_cast<unsigned>(std::clamp<std::size_t>(
      (estimate + tile - 1) / tile, 1, std::size_t(tuning::push_max_blocks_per_sm) * sm_count()));
  mxm_push_merge_path<S, W, threads, items, Group><<<blocks, threads, 0, ctx.stream()>>>(
      u.indices(), u.values(), columns, k, scan, view, ranges, c, mask, stamps, stamp, list, count,
      range, ctx.arcs_scanned());
  check_launch();
}

template <class S, class W, int Group>
void mxm_pull_launch(const column_matrix<W>& u, const device_matrix<W>& A,
                     const matrix_operand<W>& a, W* c, const matrix_mask<W>& mask, bool floored,
                     std::uint32_t* stamps, std::uint32_t stamp, vertex* list,
                     unsigned long long* count, value_range<W> range, gpu_context& ctx) {
  cudaStream_t s = ctx.stream();
  const std::size_t k = u.rows();
  const vertex n = A.rows();
  const csr_view<W> view = A.transpose_view();  // A''s rows: v's in-arcs
  const row_ranges ranges = ranges_of(view, a, true);
  // U densely, in the context's scratch; its entry k·n receives min(U), the floor's operand.
  const std::size_t size = k * std::size_t(n);
  W* dense = static_cast<W*>(ctx.pull_dense_input((size + 1) * sizeof(W)));
  mxm_assign_masked<<<mxm_blocks(size + 1), tuning::block_threads, 0, s>>>(
      dense, size + 1, matrix_mask<W>{}, S::identity(), false, S::identity());
  check_launch();
  mxm_scatter_columns<S><<<mxm_blocks(u.ncols() * k), tuning::block_threads, 0, s>>>(
      u.indices(), u.values(), u.ncols(), k, dense, floored ? dense + size : nullptr);
  check_launch();
  // chunks[v] = the chunks of the rows before v (CUB's scan), chunks[n] the total, read on the
  // device by the kernel.
  auto lengths = thrust::make_transform_iterator(thrust::counting_iterator<vertex>(0),
                                                 mxm_row_chunks{ranges, n});
  std::size_t scan_bytes = 0;
  TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, lengths,
                                                  static_cast<arc_index*>(nullptr),
                                                  std::size_t(n) + 1, s));
  const std::size_t scan_offset = (scan_bytes + 255) / 256 * 256;
  char* temp =
      static_cast<char*>(ctx.temp(scan_offset + (std::size_t(n) + 1) * sizeof(arc_index)));
  arc_index* chunks = reinterpret_cast<arc_index*>(temp + scan_offset);
  TROPIC_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(temp, scan_bytes, lengths, chunks, std::size_t(n) + 1, s));
  constexpr int per_lane = tuning::mxm_pull_per_lane;
  const auto kernel = mxm_pull_chunks<S, W, Group, per_lane>;
  static resident_cache cache;
  const unsigned resident = cache.blocks(kernel, tuning::block_threads);
  // At most n + arcs / chunk chunks, a group each, grid-stride over the resident blocks.
  const std::size_t most = std::size_t(n) + std::size_t(view.arcs / tuning::mxm_pull_chunk);
  const unsigned blocks = unsigned(std::clamp<std::size_t>(
      (most * Group + tuning::block_threads - 1) / tuning::block_threads, 1, resident));
  kernel<<<blocks, tuning::block_threads, 0, s>>>(
      view, ranges, chunks, k, dense, c, mask, floored ? dense + size : nullptr,
      least_weight_of(A, a), stamps, stamp, list, count, range, ctx.arcs_scanned());
  check_launch();
}

}  // namespace detail

template <class S, class W>
void mxm(dense_matrix<W>& c, const matrix_mask<W>& mask, accumulator accum, S semiring,
         const column_matrix<W>& u, const matrix_operand<W>& a, const descriptor& desc,
         gpu_context& ctx, sparse_vector<W>* improved, value_range<W> improved_range,
         op_counters* counters) {
  (void)semiring;
  const device_matrix<W>& A = *a.a;
  const vertex n = A.rows();
  const std::size_t k = c.rows(), size = c.size();
  if (c.cols() != n || u.cols() != n || u.rows() != k)
    throw error(error_code::invalid_value,
                "mxm: C is " + std::to_string(k) + " x " + std::to_string(c.cols()) + ", U " +
                    std::to_string(u.rows()) + " x " + std::to_string(u.cols()) + ", A " +
                    std::to_string(n) + " x " + std::to_string(n));
  if (improved && improved->size() < n)
    throw error(error_code::invalid_value, "mxm: the improved list holds " +
                                               std::to_string(improved->size()) +
                                               " columns, fewer than " + std::to_string(n));
  cudaStream_t s = ctx.stream();
  bool pull = desc.dir == direction::pull;
  if (desc.dir == direction::automatic && A.has_transpose())
    pull = u.ncols() * std::size_t(desc.pull_ratio) > n;
  // The accumulator is the semiring's monoid (or none): every product combines into C directly.
  const bool direct = accum == accumulator::min    ? S::is_min_monoid
                      : accum == accumulator::plus ? !S::is_min_monoid
                                                   : true;
  W* target = c.data();
  matrix_mask<W> m = mask;
  dense_matrix<W> t;  // the product, for another accumulator
  if (direct) {
    if (accum == accumulator::none) {
      // C<mask> = T: the masked entries start from the identity; replace clears the rest.
      detail::mxm_assign_masked<<<detail::mxm_blocks(size), tuning::block_threads, 0, s>>>(
          c.data(), size, mask, S::identity(), desc.replace, S::identity());
      detail::check_launch();
    } else if (desc.replace && mask.kind != mask_kind::none) {
      matrix_mask<W> inverse = mask;
      inverse.complement = !mask.complement;
      detail::mxm_assign_masked<<<detail::mxm_blocks(size), tuning::block_threads, 0, s>>>(
          c.data(), size, inverse, S::identity(), false, S::identity());
      detail::check_launch();
    }
  } else {
    t = dense_matrix<W>(k, n, s);
    detail::mxm_assign_masked<<<detail::mxm_blocks(size), tuning::block_threads, 0, s>>>(
        t.data(), size, matrix_mask<W>{}, S::identity(), false, S::identity());
    detail::check_launch();
    target = t.data();
    m = matrix_mask<W>{};
  }
  // Columns are listed for a min monoid combining directly (the only use: a bucket's B).
  const bool track = improved && direct && S::is_min_monoid;
  std::uint32_t* stamps = track ? ctx.stamps(n) : nullptr;
  const std::uint32_t stamp = ctx.next_stamp();
  vertex* list = track ? improved->indices() : nullptr;
  unsigned long long* count =
      track ? reinterpret_cast<unsigned long long*>(ctx.zeroed_counter()) : nullptr;
  if (k > 0 && n > 0 && u.ncols() > 0) {
    if (pull) {
      const bool floored =
          accum == accumulator::min && S::is_min_monoid && S::monotone_mul && direct;
      if (detail::mxm_small(k))
        detail::mxm_pull_launch<S, W, tuning::mxm_small_group>(
            u, A, a, target, m, floored, stamps, stamp, list, count, improved_range, ctx);
      else
        detail::mxm_pull_launch<S, W, 32>(u, A, a, target, m, floored, stamps, stamp, list,
                                          count, improved_range, ctx);
    } else {
      const csr_view<W> view = A.view();
      const detail::row_ranges ranges = detail::ranges_of(view, a, false);
      if (detail::mxm_small(k))
        detail::mxm_push_launch<S, W, tuning::mxm_small_group>(
            u, view, ranges, target, m, stamps, stamp, list, count, improved_range, ctx);
      else
        detail::mxm_push_launch<S, W, 32>(u, view, ranges, target, m, stamps, stamp, list, count,
                                          improved_range, ctx);
    }
  }
  if (!direct) {
    detail::mxm_write<S><<<detail::mxm_blocks(size), tuning::block_threads, 0, s>>>(
        c.data(), t.data(), size, mask, accum, desc.replace);
    detail::check_launch();
  }
  if (counters) {
    if (pull) {
      counters->pull_calls++;
      counters->rows += n;
      counters->arcs += A.transpose_view().arcs;  // upper bound: rows of the part, to bounds
    } else {
      counters->push_calls++;
      counters->rows += u.ncols();
    }
  }
  if (improved) improved->set_nvals(track ? std::size_t(ctx.read_counter()) : 0);
}

template <class S, class W>
std::uint64_t mxm_closure(dense_matrix<W>& c, S semiring, device_worklist& in,
                          const matrix_operand<W>& a, gpu_context& ctx, device_worklist& spare,
                          value_range<W> range) {
  (void)semiring;
  const device_matrix<W>& A = *a.a;
  const vertex n = A.rows();
  const std::size_t k = c.rows();
  if (c.cols() != n || in.capacity() < n || spare.capacity() < n)
    throw error(error_code::invalid_value,
                "mxm_closure: C is " + std::to_string(k) + " x " + std::to_string(c.cols()) +
                    ", A " + std::to_string(n) + " x " + std::to_string(n) +
                    ", the worklists hold " + std::to_string(in.capacity()) + " and " +
                    std::to_string(spare.capacity()) + " columns");
  cudaStream_t s = ctx.stream();
  const csr_view<W> view = A.view();
  const detail::row_ranges ranges = detail::ranges_of(view, a, false);
  // Three lengths rotate (step t reads counts[t % 3], appends to counts[(t + 1) % 3], zeroes
  // counts[(t + 2) % 3]); two lists alternate. The context's scratch word is zero on entry.
  unsigned long long* counts[3] = {in.count(), spare.count(), ctx.closure_scratch()};
  vertex* lists[2] = {in.indices(), spare.indices()};
  std::uint32_t* stamps = ctx.stamps(n);
  const unsigned blocks = tuning::device_loop_blocks_per_sm * detail::sm_count();
  constexpr int per_lane = tuning::mxm_pull_per_lane;
  const bool small = detail::mxm_small(k);
  std::uint64_t launched = 0;
  unsigned round = std::min(4u, tuning::mxm_closure_round_steps);
  for (;;) {
    for (unsigned r = 0; r < round; ++r, ++launched) {
      const unsigned t = unsigned(launched % 6);
      const auto step = small ? detail::mxm_closure_step<S, W, tuning::mxm_small_group, per_lane>
                              : detail::mxm_closure_step<S, W, 32, per_lane>;
      step<<<blocks, tuning::block_threads, 0, s>>>(
          view, ranges, c.data(), k, lists[t % 2], counts[t % 3], lists[(t + 1) % 2],
          counts[(t + 1) % 3], counts[(t + 2) % 3], range, stamps, ctx.next_stamp(),
          ctx.arcs_scanned());
      detail::check_launch();
    }
    // The next step's frontier length: the last step's output.
    const std::uint64_t next =
        ctx.read_word(reinterpret_cast<const std::uint64_t*>(counts[launched % 3]));
    if (next == 0) break;
    round = std::min(round * 2, tuning::mxm_closure_round_steps);
  }
  for (unsigned long long* count : counts)
    TROPIC_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof *count, s));
  return launched;
}

template <class W>
void assign(dense_matrix<W>& c, W value, gpu_context& ctx) {
  detail::mxm_assign_masked<<<detail::mxm_blocks(c.size()), tuning::block_threads, 0,
                              ctx.stream()>>>(c.data(), c.size(), matrix_mask<W>{}, value, false,
                                              value);
  detail::check_launch();
}

template <class W>
void assign_rows(dense_matrix<W>& c, const vertex* columns, W value, gpu_context& ctx) {
  if (c.rows() == 0) return;
  detail::mxm_assign_rows<<<detail::mxm_blocks(c.rows()), tuning::block_threads, 0,
                            ctx.stream()>>>(c.data(), c.rows(), columns, value);
  detail::check_launch();
}

template <class W>
W select_columns(sparse_vector<W>& out, const dense_matrix<W>& in, value_range<W> range,
                 value_range<W> least_range, gpu_context& ctx) {
  if (out.size() < in.cols())
    throw error(error_code::invalid_value,
                "select_columns: the output holds " + std::to_string(out.size()) +
                    " columns, fewer than " + std::to_string(in.cols()));
  static_assert(sizeof(W) <= sizeof(std::uint64_t), "a weight fits a counter word");
  cudaStream_t s = ctx.stream();
  // The count and the minimum share the context's pair of counter words: one copy, one wait.
  std::uint64_t* words = ctx.zeroed_counters(2);
  W* least = reinterpret_cast<W*>(words + 1);
  detail::mxm_set_word<<<1, 1, 0, s>>>(least, infinity<W>());
  detail::check_launch();
  if (in.size() > 0) {
    std::uint32_t* stamps = ctx.stamps(in.cols());
    const std::uint32_t stamp = ctx.next_stamp();
    detail::mxm_select_columns<<<detail::mxm_blocks(in.size()), tuning::block_threads, 0, s>>>(
        in.data(), in.rows(), in.size(), range, least_range, stamps, stamp, out.indices(),
        reinterpret_cast<unsigned long long*>(words), least);
    detail::check_launch();
  }
  const std::uint64_t* read = ctx.read_counters(2);
  W lowest;
  std::memcpy(&lowest, read + 1, sizeof lowest);
  out.set_nvals(std::size_t(read[0]));
  return lowest;
}

template <class W>
std::size_t gather_columns(column_matrix<W>& out, const dense_matrix<W>& in,
                           const sparse_vector<W>& pattern, value_range<W> range,
                           gpu_context& ctx, bool count_entries) {
  const std::size_t columns = pattern.nvals(), k = in.rows();
  if (out.rows() != k || out.cols() != in.cols() || columns > out.cols())
    throw error(error_code::invalid_value,
                "gather_columns: " + std::to_string(columns) + " columns of a " +
                    std::to_string(k) + " x " + std::to_string(in.cols()) + " matrix into a " +
                    std::to_string(out.rows()) + " x " + std::to_string(out.cols()) + " one");
  out.set_ncols(columns);
  if (columns * k == 0) return 0;
  std::uint64_t* entries = count_entries ? ctx.zeroed_counter() : nullptr;
  detail::mxm_gather_columns<<<detail::mxm_blocks(columns * k), tuning::block_threads, 0,
                               ctx.stream()>>>(pattern.indices(), columns, k, in.data(), range,
                                               out.indices(), out.values(),
                                               reinterpret_cast<unsigned long long*>(entries));
  detail::check_launch();
  return count_entries ? std::size_t(ctx.read_counter()) : 0;
}

template <class W>
void select(dense_matrix<W>& c, value_range<W> keep, gpu_context& ctx) {
  detail::mxm_select_in_place<<<detail::mxm_blocks(c.size()), tuning::block_threads, 0,
                                ctx.stream()>>>(c.data(), c.size(), keep);
  detail::check_launch();
}

template <class W>
void to_row_major(W* out, const dense_matrix<W>& c, gpu_context& ctx) {
  const std::size_t tiles = ((c.rows() + 31) / 32) * ((std::size_t(c.cols()) + 31) / 32);
  if (tiles == 0) return;
  const unsigned blocks = unsigned(std::min<std::size_t>(tiles, tuning::max_blocks));
  detail::mxm_transpose<<<blocks, dim3(32, 8), 0, ctx.stream()>>>(c.data(), c.rows(),
                                                                  std::size_t(c.cols()), out);
  detail::check_launch();
}

}  // namespace tropic

// Explicit instantiation of the many-source operators for one semiring and weight type, and of
// the semiring-free ones for one weight type.
#define TROPIC_INSTANTIATE_MXM(S, W)                                                          \
  template void mxm<S, W>(dense_matrix<W>&, const matrix_mask<W>&, accumulator, S,            \
                          const column_matrix<W>&, const matrix_operand<W>&, const descriptor&, \
                          gpu_context&, sparse_vector<W>*, value_range<W>, op_counters*);

// mxm_closure: min-monoid semirings only (its combine lists the columns that decreased).
#define TROPIC_INSTANTIATE_MXM_CLOSURE(S, W)                                                  \
  template std::uint64_t mxm_closure<S, W>(dense_matrix<W>&, S, device_worklist&,             \
                                           const matrix_operand<W>&, gpu_context&,            \
                                           device_worklist&, value_range<W>);

#define TROPIC_INSTANTIATE_MATRIX_OPS(W)                                                       \
  template void assign<W>(dense_matrix<W>&, W, gpu_context&);                                  \
  template void assign_rows<W>(dense_matrix<W>&, const vertex*, W, gpu_context&);              \
  template W select_columns<W>(sparse_vector<W>&, const dense_matrix<W>&, value_range<W>,      \
                               value_range<W>, gpu_context&);                                  \
  template std::size_t gather_columns<W>(column_matrix<W>&, const dense_matrix<W>&,            \
                                         const sparse_vector<W>&, value_range<W>,             \
                                         gpu_context&, bool);                                 \
  template void select<W>(dense_matrix<W>&, value_range<W>, gpu_context&);                     \
  template void to_row_major<W>(W*, const dense_matrix<W>&, gpu_context&);
