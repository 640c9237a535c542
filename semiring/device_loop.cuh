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

// The light closure (vxm_closure). Steps: every block takes its share of frontier k (grid-
// stride, a group of lanes per row), then a grid barrier (cooperative groups' grid sync: 1.1 µs
// on the H100 with 132 blocks, against 1.8 µs for a barrier of an arrival count and a generation
// word, bench/tune/grid_barrier.cu) before frontier k + 1. Frontier k is lists[k % 2] with its
// length in counts[k % 3]: step k reads it and appends frontier k + 1; a length is last read
// right after the barrier that ends the step before its own, so counts[(k + 2) % 3] (frontier
// k - 1's) is free during step k and block 0 zeroes it there for step k + 1 to append to. Each
// step lists with its own stamp, counting down from the device stamp as the graph-node steps do.
//
// Local rounds: a long, thin search (a grid's wavefront, ~1,000 rows a step) spends a step's
// time in its chain of dependent loads and the barrier, not in bandwidth (~5 µs a step,
// bench/RESULTS.md run 5). So what a block improves during a step goes to a queue in its
// shared memory, as (vertex, value, row bounds), and the block pushes those rows itself, round
// after round with only a block barrier between them, until its queue runs dry or
// `local_rounds` rounds have passed; then the rest, and whatever did not fit the queue, is
// listed for step k + 1 (once per stamp). Correctness needs no order: the fixed point of min-plus relaxation inside the range is
// the same whichever block pushes a row when, as long as every index is pushed after its last
// decrease (the improver holds it: in its queue, or listed for the next step, which reads w).
// A queued row whose w has fallen below its value since is dropped: that fall was made by a
// push inside this closure (values only grow along arcs, so it fell into the range) and its
// maker holds the index with the newer value.
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
  unsigned long long* statistics;  // [0] += steps, [1] += rows pushed
  closure_limits limits;
};

// A row waiting in a block's queue: the value its vertex fell to, and the bounds of its row
// in the operand's part (loaded by the push that improved it, alongside its atomic).
template <class W>
struct closure_item {
  vertex v;
  W x;
  arc_index first, last;
};

// How many rows of a step's global frontier longer than the block each block sets aside (the
// rest stay with their groups).
inline constexpr unsigned closure_long_rows = 64;

template <class S, class W, int Group>
__global__ void __launch_bounds__(tuning::block_threads) push_closure(closure_args<W> c) {
  __shared__ closure_item<W> queue[2][tuning::closure_queue_items];
  __shared__ unsigned queued[2];
  // Rows of the global frontier longer than the block (hubs: a group of 2 or 4 lanes walks a
  // 2,700-arc row of a web graph in ~700 trips while the grid waits at its barrier) are set aside
  // by their group, up to closure_long_rows of them, and pushed by the whole block after the
  // frontier pass. Rows found in the local rounds stay with their groups: setting them aside
  // there too, in rounds of the block's groups with barriers between them, cost grids and roads
  // more than it saved (H100, CLI, median of 9, 2026-11-23: grid-4M 17.3 -> 20.7 ms, cnr-2000
  // 4.5 -> 6.1; this way 16.8 -> 17.2 and 4.2 -> 3.8, Slashdot 1.57 -> 1.11).
  __shared__ closure_item<W> long_rows[closure_long_rows];
  __shared__ unsigned long_count;
  const unsigned capacity = c.limits.queue_items;
  const std::uint32_t first_stamp = *c.device_stamp;
  const value_range<W> range = *c.range;
  const unsigned lane = threadIdx.x % Group;
  // The group's lanes within the warp, for agreeing on a row set aside.
  const unsigned group_mask =
      (Group == 32 ? ~0u : ((1u << Group) - 1u)) << (threadIdx.x % 32 / Group * Group);
  if (threadIdx.x == 0) queued[0] = queued[1] = long_count = 0;
  __syncthreads();
  int out = 0;  // the queue the block's improvements go to; queued[out] is 0 when a step starts
  std::uint64_t step = 0, frontier_rows = 0, local_rows = 0;
  for (;; ++step) {
    const std::size_t size = *c.counts[step % 3];  // final since the last barrier
    if (size == 0) break;                          // the same value in every block: all leave
    if (blockIdx.x == 0 && threadIdx.x == 0) *c.counts[(step + 2) % 3] = 0;
    const std::uint32_t stamp = first_stamp - std::uint32_t(step);
    vertex* next = c.lists[(step + 1) % 2];
    unsigned long long* next_count = c.counts[(step + 1) % 3];
    // An improvement into the range: to this block's queue while it has room, else listed for
    // the next step.
    auto hold = [&](const closure_item<W>& item) {
      const unsigned slot = atomicAdd(&queued[out], 1u);
      if (slot < capacity) queue[out][slot] = item;
      else list_once(item.v, c.stamps, stamp, next, next_count);
    };
    // Push one row, Group lanes, its value `now` loaded with the row's first arcs. In the local
    // rounds latency comes first (a round waits for its slowest row; a grid's rows have 4
    // arcs): no cheap filter load before each atomic (two round trips where one does), and each
    // target's row bounds loaded alongside its atomic, so an improved target is pushed without
    // loading them later -- per hop the arcs, then the atomic, against five dependent loads and
    // atomics in push_rows. The global frontier, which can hold millions of rows, keeps the
    // filter: most of its candidates do not improve (bench run 6, without it and without
    // closure_limits::local_frontier: uniform-4M 28.6 ms against 13.0 in run 5).
    // A row whose vertex has fallen below item.x since it was queued is dropped (superseded).
    auto push = [&](const closure_item<W>& item, W now, bool filter, unsigned offset,
                    unsigned stride) {
      for (arc_index arc = item.first + offset; arc < item.last; arc += stride) {
        const vertex v = c.a.columns[arc];
        const W x = S::mul(item.x, c.a.weights[arc]);
        if (now < item.x) return;
        if (filter && !(x < c.w[v])) continue;
        const arc_index first = c.ranges.first(v), last = c.ranges.last(v);
        const W old = S::atomic_add(&c.w[v], x);
        if (x < old && in_range(x, range)) hold({v, x, first, last});
      }
    };
    // Frontier k, grid-stride, a group of lanes per row.
    const vertex* frontier = c.lists[step % 2];
    const std::size_t groups = std::size_t(gridDim.x) * blockDim.x / Group;
    for (std::size_t k = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / Group; k < size;
         k += groups) {
      const vertex u = frontier[k];
      const closure_item<W> item{u, c.w[u], c.ranges.first(u), c.ranges.last(u)};
      if (c.arcs_scanned && lane == 0 && item.last > item.first)
        atomicAdd(c.arcs_scanned, item.last - item.first);
      if (item.last - item.first > blockDim.x) {  // the same test in every lane of the group
        unsigned slot = 0;
        if (lane == 0) slot = atomicAdd(&long_count, 1u);
        slot = __shfl_sync(group_mask, slot, 0, Group);
        if (slot < closure_long_rows) {
          if (lane == 0) long_rows[slot] = item;
          continue;
        }
      }
      push(item, item.x, true, lane, Group);
    }
    frontier_rows += size;
    __syncthreads();  // the rows set aside are written
    const unsigned long_rows_set_aside = min(long_count, closure_long_rows);
    if (long_rows_set_aside > 0) {  // the same in every thread of the block
      for (unsigned j = 0; j < long_rows_set_aside; ++j)
        push(long_rows[j], long_rows[j].x, true, threadIdx.x, blockDim.x);
      __syncthreads();  // every thread has read them and the count
      if (threadIdx.x == 0) long_count = 0;  // the next write follows the rounds' barriers
    }
    for (unsigned round = 0;; ++round) {
      __syncthreads();  // the queue's rows are written, the other queue's read
      const unsigned filled = min(queued[out], capacity);
      if (filled == 0) break;
      const int in = out;
      out ^= 1;
      if (threadIdx.x == 0) queued[out] = 0;
      __syncthreads();  // every thread has read queued[in] and sees queued[out] == 0
      // Enough rounds, or a frontier wide enough to fill the GPU by itself (local rounds would
      // only push rows before their values settle): the rest waits for the next step.
      if (round == c.limits.local_rounds || size > c.limits.local_frontier) {
        for (unsigned k = threadIdx.x; k < filled; k += blockDim.x)
          list_once(queue[in][k].v, c.stamps, stamp, next, next_count);
        break;
      }
      for (unsigned k = threadIdx.x / Group; k < filled; k += blockDim.x / Group) {
        const closure_item<W> item = queue[in][k];
        const W now = c.w[item.v];
        if (lane == 0 && !(now < item.x)) {
          ++local_rows;
          if (c.arcs_scanned && item.last > item.first)
            atomicAdd(c.arcs_scanned, item.last - item.first);
        }
        push(item, now, false, lane, Group);
      }
    }
    cooperative_groups::this_grid().sync();
  }
  // Every block has read the empty frontier's length; the last non-empty one's is zeroed here
  // (the third was zeroed during the last step), so both worklists end empty.
  if (c.statistics && local_rows) atomicAdd(&c.statistics[1], local_rows);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    if (step > 0) *c.counts[(step - 1) % 3] = 0;
    *c.device_stamp = std::uint32_t(first_stamp - step);
    if (c.statistics) {
      c.statistics[0] += step;
      atomicAdd(&c.statistics[1], frontier_rows);
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
                 gpu_context& ctx, device_worklist& spare, const value_range<W>* range,
                 closure_limits limits) {
  static_assert(S::is_min_monoid, "the closure's fixed point needs an idempotent (min) monoid");
  if (limits.queue_items < 1 || limits.queue_items > tuning::closure_queue_items)
    throw error(error_code::invalid_value,
                "vxm_closure: queue_items must be 1.." +
                    std::to_string(tuning::closure_queue_items) + ", got " +
                    std::to_string(limits.queue_items));
  const unsigned g = limits.group_lanes;
  if (g != 0 && g != 1 && g != 2 && g != 4 && g != 8 && g != 32)
    throw error(error_code::invalid_value,
                "vxm_closure: group_lanes must be 0 (automatic), 1, 2, 4, 8 or 32, got " +
                    std::to_string(g));
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
                            ctx.loop_statistics(),
                            limits};
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
    config.gridDim = dim3(std::min(limits.blocks ? limits.blocks : tuning::device_loop_blocks,
                                   resident));
    config.blockDim = dim3(tuning::block_threads);
    config.stream = ctx.stream();
    cudaLaunchAttribute cooperative{};
    cooperative.id = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = 1;
    config.attrs = &cooperative;
    config.numAttrs = 1;
    TROPIC_CUDA_CHECK(cudaLaunchKernelEx(&config, detail::push_closure<S, W, G>, c));
  };
  const unsigned group = g ? g : avg >= 16 ? 32 : avg >= 4 ? 8 : 4;
  switch (group) {
    case 1: launch(std::integral_constant<int, 1>{}); break;
    case 2: launch(std::integral_constant<int, 2>{}); break;
    case 4: launch(std::integral_constant<int, 4>{}); break;
    case 8: launch(std::integral_constant<int, 8>{}); break;
    default: launch(std::integral_constant<int, 32>{}); break;
  }
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
                                            device_worklist&, const value_range<W>*,           \
                                            closure_limits);                                   \
  template void reduce_min<W>(W*, const dense_vector<W>&, const W*, gpu_context&);
