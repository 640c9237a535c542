// The operators of device-driven loops (tropic/device_loop.hpp) and their grid-wide device
// forms, which persistent kernels call between grid barriers (the light closure here, the whole
// bucket loop of delta-stepping in algorithms/delta_stepping.cu).
#pragma once

#include <cooperative_groups.h>
#include <cstring>

#include "agents/push_row.cuh"
#include "operators.cuh"
#include "tropic/device_loop.hpp"

namespace tropic {

namespace detail {

// How many rows of a step's global frontier longer than the block each block sets aside (the
// rest stay with their groups).
inline constexpr unsigned closure_long_rows = 64;

// A block's shared memory for the closure: its two queues and the rows set aside.
template <class W>
struct closure_shared {
  closure_item<W> queue[2][tuning::closure_queue_items];
  unsigned queued[2];
  closure_item<W> long_rows[closure_long_rows];
  unsigned long_count;
};

// What a thread carries from one closure to the next inside one kernel: the queue its block
// appends to (queued[out] is 0 between steps), the next unused stamp (stamps count down, one per
// list written, as ctx.device_stamp() keeps them), and the tallies for the statistics, added up
// once at the end (closure_tally): a counter that every row pushed adds to is one word of L2
// that every block's atomics queue at.
struct closure_state {
  int out = 0;
  std::uint32_t stamp = 0;
  std::uint64_t steps = 0, frontier_rows = 0, local_rows = 0, arcs = 0;
};

template <class W>
__device__ void closure_begin(closure_shared<W>& sh, closure_state& st, std::uint32_t stamp) {
  if (threadIdx.x == 0) sh.queued[0] = sh.queued[1] = sh.long_count = 0;
  st.out = 0;
  st.stamp = stamp;
  __syncthreads();
}

// Pushes rows list[0 .. size) by every thread of a cooperative grid, grid-stride, a group of
// lanes per row, with the cheap filter (a frontier can hold millions of rows, most of whose
// candidates do not improve); hands each improvement into `range` to hold(). Rows longer than
// the block (hubs: a group of 2 or 4 lanes walks a 2,700-arc row of a web graph in ~700 trips
// while the grid waits at its next barrier) are set aside by their group, up to
// closure_long_rows of them per block, and pushed by the whole block after the pass. Ends with
// a block barrier; the rows set aside are free again after the caller's next one.
template <class S, class W, int Group, class Hold>
__device__ void push_list(const closure_args<W>& c, closure_shared<W>& sh, closure_state& st,
                          const vertex* list, std::size_t size, const value_range<W>& range,
                          Hold&& hold) {
  const unsigned lane = threadIdx.x % Group;
  // The group's lanes within the warp, for agreeing on a row set aside.
  const unsigned group_mask =
      (Group == 32 ? ~0u : ((1u << Group) - 1u)) << (threadIdx.x % 32 / Group * Group);
  const std::size_t groups = std::size_t(gridDim.x) * blockDim.x / Group;
  const std::size_t group_in_block = threadIdx.x / Group;
  // A frontier of fewer rows than the grid has groups is dealt out over every block (row k to
  // block k mod gridDim.x): each block then keeps a few of the rows its pushes improve for its
  // local rounds, instead of the first blocks holding the whole wavefront (grid-stride, a grid's
  // ~1,000 rows filled 16 blocks of 64 groups, whose queues held ~88 rows a round while the
  // other blocks ran dry) and every round waiting for their second pass. H100, CLI A/B, two
  // passes (2026-11-25): grid 2048^2 12.6 -> 9.9 ms, USA-road-NY 3.3-3.4 -> 2.3, mdual 1.19-1.25
  // -> 1.06, the others within noise. Larger frontiers go grid-stride.
  std::size_t k = size < groups ? blockIdx.x + gridDim.x * group_in_block
                                : blockIdx.x * std::size_t(blockDim.x / Group) + group_in_block;
  for (; k < size; k += groups) {
    const vertex u = list[k];
    const closure_item<W> item{u, c.w[u], c.ranges.first(u), c.ranges.last(u)};
    if (lane == 0) st.arcs += item.last - item.first;
    if (item.last - item.first > blockDim.x) {  // the same test in every lane of the group
      unsigned slot = 0;
      if (lane == 0) slot = atomicAdd(&sh.long_count, 1u);
      slot = __shfl_sync(group_mask, slot, 0, Group);
      if (slot < closure_long_rows) {
        if (lane == 0) sh.long_rows[slot] = item;
        continue;
      }
    }
    push_row<S>(c, item, item.x, true, lane, Group, range, hold);
  }
  __syncthreads();  // the rows set aside are written
  const unsigned set_aside = min(sh.long_count, closure_long_rows);
  if (set_aside > 0) {  // the same in every thread of the block
    for (unsigned j = 0; j < set_aside; ++j)
      push_row<S>(c, sh.long_rows[j], sh.long_rows[j].x, true, threadIdx.x, blockDim.x, range,
                  hold);
    __syncthreads();  // every thread has read them and the count
    if (threadIdx.x == 0) sh.long_count = 0;
  }
}

// The closure's steps from frontier 0 (lists[0], its length counts[0]) until a frontier is
// empty, by every thread of a cooperative grid. Steps: every block takes its share of frontier k
// (grid-stride, a group of lanes per row), then a grid barrier (cooperative groups' grid sync:
// 1.1 µs on the H100 with 132 blocks, against 1.8 µs for a barrier of an arrival count and a
// generation word, bench/tune/grid_barrier.cu) before frontier k + 1. Frontier k is
// lists[k % 2] with its length in counts[k % 3]: step k reads it and appends frontier k + 1; a
// length is last read right after the barrier that ends the step before its own, so
// counts[(k + 2) % 3] (frontier k - 1's) is free during step k and block 0 zeroes it there for
// step k + 1 to append to. Each step lists with its own stamp. On return every count is zero
// or will be by block 0 before its next grid barrier (the last non-empty one's is zeroed
// after the loop), so both worklists are empty for whatever follows a barrier -- and other
// blocks may still be reading the empty one's length: a caller that goes on to append to a
// worklist in the same kernel passes a grid barrier first.
//
// Local rounds: a long, thin search (a grid's wavefront, ~1,000 rows a step) spends a step's
// time in its chain of dependent loads and the barrier, not in bandwidth (~5 µs a step,
// bench/RESULTS.md run 5). So what a block improves during a step goes to a queue in its
// shared memory, as (vertex, value, row bounds), and the block pushes those rows itself, round
// after round with only a block barrier between them, until its queue runs dry or
// `local_rounds` rounds have passed; then the rest, and whatever did not fit the queue, is
// listed for step k + 1 (once per stamp). Correctness needs no order: the fixed point of
// min-plus relaxation inside the range is the same whichever block pushes a row when, as long
// as every index is pushed after its last decrease (the improver holds it: in its queue, or
// listed for the next step, which reads w). A queued row whose w has fallen below its value
// since is dropped: that fall was made by a push inside this closure (values only grow along
// arcs, so it fell into the range) and its maker holds the index with the newer value.
//
// Rows of a step's frontier longer than the block (hubs) are pushed by their whole block
// (push_list). Rows found in the local rounds stay with their groups: setting them aside there
// too, in rounds of the block's groups with barriers between them, cost grids and roads more
// than it saved (H100, CLI, median of 9, 2026-11-23: grid-4M 17.3 -> 20.7 ms, cnr-2000 4.5 ->
// 6.1), and so did listing them for the next step instead (cnr-2000 4.1 -> 5.3 ms, 2026-11-24).
template <class S, class W, int Group>
__device__ void closure_steps(const closure_args<W>& c, closure_shared<W>& sh,
                              const value_range<W> range, closure_state& st) {
  const unsigned capacity = c.limits.queue_items;
  const unsigned lane = threadIdx.x % Group;
  int& out = st.out;  // the queue the block's improvements go to
  std::uint64_t step = 0;
  for (;; ++step) {
    const std::size_t size = *c.counts[step % 3];  // final since the last barrier
    if (size == 0) break;                          // the same value in every block: all leave
    if (blockIdx.x == 0 && threadIdx.x == 0) *c.counts[(step + 2) % 3] = 0;
    const std::uint32_t stamp = st.stamp--;
    vertex* next = c.lists[(step + 1) % 2];
    unsigned long long* next_count = c.counts[(step + 1) % 3];
    // An improvement into the range: to this block's queue while it has room, else listed for
    // the next step.
    auto hold = [&](const closure_item<W>& item) {
      const unsigned slot = atomicAdd(&sh.queued[out], 1u);
      if (slot < capacity) {
        sh.queue[out][slot] = item;
        if (c.limits.prefetch_queued_rows && item.first < item.last) {
          asm volatile("prefetch.global.L2 [%0];" ::"l"(c.a.columns + item.first));
          asm volatile("prefetch.global.L2 [%0];" ::"l"(c.a.weights + item.first));
        }
      } else {
        list_once(item.v, c.stamps, stamp, next, next_count);
      }
    };
    // Frontier k, grid-stride, a group of lanes per row (hubs by their block).
    push_list<S, W, Group>(c, sh, st, c.lists[step % 2], size, range, hold);
    st.frontier_rows += size;
    for (unsigned round = 0;; ++round) {
      __syncthreads();  // the queue's rows are written, the other queue's read
      const unsigned filled = min(sh.queued[out], capacity);
      if (filled == 0) break;
      const int in = out;
      out ^= 1;
      if (threadIdx.x == 0) sh.queued[out] = 0;
      __syncthreads();  // every thread has read queued[in] and sees queued[out] == 0
      // Enough rounds, or a frontier wide enough to fill the GPU by itself (local rounds would
      // only push rows before their values settle): the rest waits for the next step.
      if (round == c.limits.local_rounds || size > c.limits.local_frontier) {
        for (unsigned k = threadIdx.x; k < filled; k += blockDim.x)
          list_once(sh.queue[in][k].v, c.stamps, stamp, next, next_count);
        break;
      }
      for (unsigned k = threadIdx.x / Group; k < filled; k += blockDim.x / Group) {
        const closure_item<W> item = sh.queue[in][k];
        const W now = c.w[item.v];
        if (lane == 0 && !(now < item.x)) {
          ++st.local_rows;
          st.arcs += item.last - item.first;
        }
        push_row<S>(c, item, now, false, lane, Group, range, hold);
      }
    }
    cooperative_groups::this_grid().sync();
  }
  // Every block has read the empty frontier's length; the last non-empty one's is zeroed here
  // (the third was zeroed during the last step), so both worklists end empty.
  if (blockIdx.x == 0 && threadIdx.x == 0 && step > 0) *c.counts[(step - 1) % 3] = 0;
  st.steps += step;
}

// The statistics of a cooperative kernel's closures: [0] += steps, [1] += rows pushed, and the
// arcs read. Every thread of the grid calls it.
__device__ inline void closure_tally(const closure_state& st, unsigned long long* statistics,
                                     unsigned long long* arcs_scanned) {
  if (arcs_scanned) add_block_sum(arcs_scanned, st.arcs);
  if (!statistics) return;
  add_block_sum(&statistics[1], st.local_rows);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    atomicAdd(&statistics[0], st.steps);
    atomicAdd(&statistics[1], st.frontier_rows);
  }
}

// vxm_closure's kernel: one closure; the stamps go on from *device_stamp, left after the last.
template <class S, class W, int Group>
__global__ void __launch_bounds__(tuning::block_threads)
push_closure(closure_args<W> c, const value_range<W>* range, std::uint32_t* device_stamp,
             unsigned long long* statistics) {
  __shared__ closure_shared<W> sh;
  closure_state st;
  closure_begin(sh, st, *device_stamp);
  closure_steps<S, W, Group>(c, sh, *range, st);
  closure_tally(st, statistics, c.arcs_scanned);
  // After a step's grid barrier every block has read the stamp; without a step it is unchanged.
  if (blockIdx.x == 0 && threadIdx.x == 0) *device_stamp = st.stamp;
}

// Launches a kernel whose blocks wait for each other at grid barriers: cooperatively (all its
// blocks resident at once, or the launch fails), with `blocks` blocks (0: tuning::
// device_loop_blocks_per_sm per SM) capped by what the occupancy API says fits.
template <class... Params, class... Args>
void launch_cooperative(void (*kernel)(Params...), unsigned blocks, cudaStream_t stream,
                        Args&&... args) {
  const unsigned resident = resident_blocks(kernel, tuning::block_threads);
  cudaLaunchConfig_t config{};
  config.gridDim =
      dim3(std::min(blocks ? blocks : tuning::device_loop_blocks_per_sm * sm_count(), resident));
  config.blockDim = dim3(tuning::block_threads);
  config.stream = stream;
  cudaLaunchAttribute cooperative{};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  config.attrs = &cooperative;
  config.numAttrs = 1;
  TROPIC_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}

// `limits` with the device-sized defaults filled in (closure_limits::per_device).
inline closure_limits for_this_device(closure_limits limits) {
  if (limits.local_frontier == closure_limits::per_device)
    limits.local_frontier = tuning::closure_local_frontier_per_sm * sm_count();
  return limits;
}

// Lanes per row of the closure's pushes: the requested number, or by the mean row length (a
// warp for Kronecker-like rows, 8 lanes for meshes and web graphs, 4 for roads and grids).
inline unsigned closure_lanes(unsigned requested, double mean_degree) {
  return requested ? requested : mean_degree >= 16 ? 32 : mean_degree >= 4 ? 8 : 4;
}

// f(std::integral_constant<int, lanes>{}) for lanes 1, 2, 4, 8 or 32 (anything else: 32).
template <class F>
void with_lanes(unsigned lanes, F&& f) {
  switch (lanes) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    default: f(std::integral_constant<int, 32>{}); break;
  }
}

// A grid-wide pass over a dense vector, for kernels that keep a whole loop on the device, by
// every thread of the grid. Each block takes tiles of consecutive entries, grid-stride; each
// thread loads grid_pass_loads vectors of 16 bytes of its tile before it looks at any, each
// load of a warp 512 consecutive bytes, so that a grid of one block per SM keeps enough bytes
// in flight to stream t. A pass over 4M entries then costs ~4 µs: a first version with 16
// scalar loads per thread took ~12 µs (twice CUB's DeviceSelect), one with each thread's
// entries consecutive (cub::LoadDirectBlockedVectorized) ~6 µs (the chain of the grid anatomy
// case, H100, 2026-11-24). A selection is therefore not in index order; nothing needs it to be.
inline constexpr unsigned grid_pass_loads = 8;

// One pass over t: appends { i : t[i] in `range` } to out (one atomic per block and tile, where
// the tile has any: a block scan places each thread's entries) and, when `lowest` is given,
// *lowest = min(*lowest, min{ t[i] : t[i] >= above }) (one atomic per block). Delta-stepping's
// select of a bucket, and the reduction for the next non-empty bucket fused with the select of
// the bucket after this one (nearly always the next non-empty one on roads and grids).
template <class W>
__device__ void grid_select_min(const W* t, vertex n, const value_range<W> range, vertex* out,
                                unsigned long long* count, const W above, W* lowest) {
  static_assert(16 % sizeof(W) == 0, "weights of 4 or 8 bytes");
  constexpr unsigned per_load = 16 / sizeof(W);
  constexpr unsigned items = grid_pass_loads * per_load;
  constexpr std::size_t tile = std::size_t(tuning::block_threads) * items;
  using scan = cub::BlockScan<unsigned, tuning::block_threads>;
  using reduce = cub::BlockReduce<W, tuning::block_threads>;
  __shared__ union {
    typename scan::TempStorage scan;
    typename reduce::TempStorage reduce;
  } storage;
  __shared__ unsigned long long base;
  W least = infinity<W>();
  for (std::size_t first = blockIdx.x * tile; first < n; first += std::size_t(gridDim.x) * tile) {
    // Entry k * per_load + e of this thread is t[first + (k * block_threads + threadIdx.x) *
    // per_load + e].
    W x[items];
    if (first + tile <= n) {
      const uint4* vectors = reinterpret_cast<const uint4*>(t + first);
#pragma unroll
      for (unsigned k = 0; k < grid_pass_loads; ++k) {
        const uint4 v = vectors[k * tuning::block_threads + threadIdx.x];
        memcpy(&x[k * per_load], &v, sizeof v);
      }
    } else {
#pragma unroll
      for (unsigned k = 0; k < grid_pass_loads; ++k)
#pragma unroll
        for (unsigned e = 0; e < per_load; ++e) {
          const std::size_t i = first + (k * tuning::block_threads + threadIdx.x) * per_load + e;
          x[k * per_load + e] = i < n ? t[i] : infinity<W>();
        }
    }
    unsigned mine = 0;
#pragma unroll
    for (unsigned j = 0; j < items; ++j) {
      mine += in_range(x[j], range);
      if (!(x[j] < above) && x[j] < least) least = x[j];
    }
    unsigned offset = 0, total = 0;
    scan(storage.scan).ExclusiveSum(mine, offset, total);
    if (total > 0) {  // the same in every thread of the block
      if (threadIdx.x == 0) base = atomicAdd(count, (unsigned long long)total);
      __syncthreads();
#pragma unroll
      for (unsigned k = 0; k < grid_pass_loads; ++k)
#pragma unroll
        for (unsigned e = 0; e < per_load; ++e)
          if (in_range(x[k * per_load + e], range))
            out[base + offset++] =
                vertex(first + (k * tuning::block_threads + threadIdx.x) * per_load + e);
    }
    __syncthreads();  // the scan's storage and base are free for the next tile
  }
  if (lowest) {
    least = reduce(storage.reduce).Reduce(least, monoid_op<min_plus<W>>{});
    if (threadIdx.x == 0 && least < infinity<W>()) atomic_min(lowest, least);
    __syncthreads();  // the storage is free
  }
}

}  // namespace detail

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
  limits = detail::for_this_device(limits);
  const device_matrix<W>& A = *a.a;
  const csr_view<W> view = A.view();
  const double avg = view.n ? double(view.arcs) / view.n : 0;
  detail::closure_args<W> c{view,
                            detail::ranges_of(view, a, false),
                            w.data(),
                            {in.indices(), spare.indices()},
                            {in.count(), spare.count(), ctx.closure_scratch()},
                            ctx.stamps(w.size()),
                            ctx.arcs_scanned(),
                            limits};
  std::uint32_t* device_stamp = ctx.device_stamp();
  unsigned long long* statistics = ctx.loop_statistics();
  detail::with_lanes(detail::closure_lanes(g, avg), [&](auto lanes) {
    constexpr int G = decltype(lanes)::value;
    detail::launch_cooperative(detail::push_closure<S, W, G>, limits.blocks, ctx.stream(), c,
                               range, device_stamp, statistics);
  });
  detail::check_launch();
}

}  // namespace tropic

#define TROPIC_INSTANTIATE_DEVICE_LOOP(W)                                                        \
  template void vxm_closure<min_plus<W>, W>(dense_vector<W>&, min_plus<W>, device_worklist&,     \
                                            const matrix_operand<W>&, gpu_context&,            \
                                            device_worklist&, const value_range<W>*,           \
                                            closure_limits);
