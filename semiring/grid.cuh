// Grid-scope primitives of the operator layer, for persistent kernels: what CUB's block-level
// primitives are to a block, one scope up. Every thread of a cooperative grid (launch_cooperative)
// calls each device function below, and the grid waits between them at grid::sync(), a grid
// barrier, which also orders memory: a worklist length read after one is final. Between
// barriers, w (the values) is lowered with atomics and read with plain loads; a stale read costs
// work, never an answer, since whoever lowers an index holds it until it is pushed again.
//
// The algebra is delta-stepping's (Sridhar et al., IPDPSW 2019, in the min-plus semiring; Meyer
// & Sanders' light and heavy phases): select a bucket B (select), `while B ≠ ∅: t = min(t, AL'
// min.+ (t .* B)); B = improved ∩ bucket` (closure), the heavy push of the settled set
// (push_list_to), the next non-empty bucket (select_min_above). algorithms/
// delta_stepping_device.cu is that loop; kernels/push_closure.cuh is vxm_closure's kernel.
#pragma once

#include <cooperative_groups.h>

#include <cstring>

#include "agents/push_row.cuh"

namespace tropic::grid {

using detail::closure_args;  // the operand of the pushes (agents/push_row.cuh)
using detail::closure_item;  // a row to push: vertex, value, row bounds
using detail::list_once;     // appends an index to a list once per stamp (operators.cuh)

// The threads of every persistent kernel's block, and the blocks an SM runs of it (what
// launch_cooperative starts): __launch_bounds__(grid::block_threads, grid::blocks_per_sm).
// Without the second, ptxas held bucket_loop to 80 registers, room for a third block never
// launched, and USA-road-NY, mdual and kron-20 took 2-5% longer (bench/results/h200-run57).
inline constexpr unsigned block_threads = tuning::block_threads;
inline constexpr unsigned blocks_per_sm = tuning::device_loop_blocks_per_sm;

// Hubs a block sets aside per push_list for all its threads (more stay with a group); unmeasured
inline constexpr unsigned long_rows_per_block = 64;
// 16-byte loads per thread per select tile: bytes in flight; bench/results/h100-run10
inline constexpr unsigned select_vector_loads = 8;

// The grid barrier: every block arrives before any leaves; memory written before it is visible
// after it (cooperative groups' grid sync, ~1 µs on the H100: bench/tune/grid_barrier.cu).
__device__ __forceinline__ void sync() {
  cooperative_groups::this_grid().sync();
}

// A block's shared memory for the pushes: the two queues of rows it improved (one read while
// the other fills; queued[q] counts every row offered, also beyond capacity) and the hubs of the
// current push_list set aside for the whole block.
template <class W>
struct block_queues {
  closure_item<W> queue[2][tuning::closure_queue_items];
  unsigned queued[2];
  closure_item<W> long_rows[long_rows_per_block];
  unsigned long_count;
};

// What a thread carries from one closure to the next within one kernel: the queue its block
// appends to (queued[out] is 0 between steps), the next unused stamp (stamps count down, one per
// list written, as gpu_context::device_stamp() keeps them), and its share of the statistics,
// added up once by tally_loop (a counter every row adds to is one word of L2 that every block's
// atomics queue at).
struct loop_state {
  int out = 0;
  std::uint32_t stamp = 0;
  std::uint64_t steps = 0, frontier_rows = 0, local_rows = 0, arcs = 0;
  // A stamp of its own for the next list written (list_once); the same in every thread.
  __device__ __forceinline__ std::uint32_t take_stamp() { return stamp--; }
};

// Starts a persistent kernel: empty queues, stamps from `stamp` on (the kernel hands the last
// one back, loop_state::stamp, for the next). Ends with a block barrier.
template <class W>
__device__ void begin_loop(block_queues<W>& sh, loop_state& st, std::uint32_t stamp) {
  if (threadIdx.x == 0) sh.queued[0] = sh.queued[1] = sh.long_count = 0;
  st.out = 0;
  st.stamp = stamp;
  __syncthreads();
}

// Adds up a persistent kernel's statistics: statistics[0] += closure steps, [1] += rows pushed,
// *arcs_scanned += arcs read (either may be null). Block barriers inside; no grid barrier needed.
__device__ inline void tally_loop(const loop_state& st, unsigned long long* statistics,
                                  unsigned long long* arcs_scanned) {
  if (arcs_scanned) detail::add_block_sum(arcs_scanned, st.arcs);
  if (!statistics) return;
  detail::add_block_sum(&statistics[1], st.local_rows);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    atomicAdd(&statistics[0], st.steps);
    atomicAdd(&statistics[1], st.frontier_rows);
  }
}

// w = min(w, (w .* list)' min.+ A(part)) for list[0 .. size), final since the caller's last grid
// barrier; each improvement into `range` goes to hold(const closure_item<W>&). A group of Group
// lanes per row, with push_row's filter (a frontier may hold millions of rows, most of whose
// candidates do not improve). A frontier smaller than the grid's groups is dealt out over every
// block (row k to block k mod gridDim.x), so that every block keeps a share of the wavefront for
// its local rounds (grid 2048^2 12.6 -> 9.9 ms: bench/results/h100-run27/sweeps/
// ab-3-spread-frontier.txt); a larger one goes grid-stride. Rows longer than the block (hubs) are
// set aside, up to long_rows_per_block per block, and pushed by the whole block after the pass.
// Ends with a block barrier; the rows set aside are free again after the caller's next one.
// Counts the rows in st.frontier_rows and their arcs in st.arcs.
template <class S, int Group, class W, class Hold>
__device__ void push_list(const closure_args<W>& c, block_queues<W>& sh, loop_state& st,
                          const vertex* list, std::size_t size, const value_range<W>& range,
                          Hold&& hold) {
  const unsigned lane = threadIdx.x % Group;
  // The group's lanes within the warp, for agreeing on a row set aside.
  const unsigned group_mask = (Group == 32 ? ~0u : ((1u << Group) - 1u))
                              << (threadIdx.x % 32 / Group * Group);
  const std::size_t groups = std::size_t(gridDim.x) * blockDim.x / Group;
  const std::size_t group_in_block = threadIdx.x / Group;
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
      if (slot < long_rows_per_block) {
        if (lane == 0) sh.long_rows[slot] = item;
        continue;
      }
    }
    detail::push_row<S>(c, item, item.x, true, lane, Group, range, hold);
  }
  __syncthreads();  // the rows set aside are written
  const unsigned set_aside = min(sh.long_count, long_rows_per_block);
  if (set_aside > 0) {  // the same in every thread of the block
    for (unsigned j = 0; j < set_aside; ++j)
      detail::push_row<S>(c, sh.long_rows[j], sh.long_rows[j].x, true, threadIdx.x, blockDim.x,
                          range, hold);
    __syncthreads();  // every thread has read them and the count
    if (threadIdx.x == 0) sh.long_count = 0;
  }
  st.frontier_rows += size;
}

// push_list whose improvements into `range` are appended to `out`, each index once (a stamp of
// its own): out += { v improved : w[v] in range }. *out_count is final after a grid barrier.
template <class S, int Group, class W>
__device__ __forceinline__ void push_list_to(const closure_args<W>& c, block_queues<W>& sh,
                                             loop_state& st, const vertex* list, std::size_t size,
                                             const value_range<W>& range, vertex* out,
                                             unsigned long long* out_count) {
  const std::uint32_t stamp = st.take_stamp();
  push_list<S, Group>(c, sh, st, list, size, range, [&](const closure_item<W>& item) {
    list_once(item.v, c.stamps, stamp, out, out_count);
  });
}

// while B ≠ ∅: w = min(w, (w .* B)' min.+ A(part)); B = { v improved : w[v] in range } -- the
// light phase of one bucket (Meyer & Sanders; Sridhar et al.'s "while B is not empty"), B
// starting as c.lists[0] with its length *c.counts[0], final since the caller's last grid barrier.
//
// Step k reads frontier k (lists[k % 2], its length counts[k % 3]), appends frontier k + 1, then
// passes a grid barrier. A length is last read right after the barrier that ends the step before
// its own, so counts[(k + 2) % 3] is free during step k and block 0 zeroes it for step k + 1.
// Each step lists with a stamp of its own (loop_state::take_stamp). On return both worklists
// are empty, but other blocks may still be reading the empty one's length: a caller that
// appends to a worklist next must pass a grid barrier first ("lengths read"; without it a fast
// block's appends can send a slow block down another path to a different barrier: a hang).
//
// Local rounds: a long, thin search (a grid's wavefront, ~1,000 rows a step) spends a step in its
// chain of dependent loads and the barrier, not in bandwidth. So what a block improves during a
// step goes to its shared queue, and the block pushes those rows itself, round after round with
// a block barrier between them, until the queue runs dry or limits.local_rounds have passed; the
// rest, and what did not fit, is listed for step k + 1. Correct in any order: the fixed point of
// min-plus relaxation inside the range is the same as long as every index is pushed after its
// last decrease (its improver holds it, queued or listed). Hubs of a step's frontier go to their
// whole block (push_list); those found in the local rounds stay with their groups (setting them
// aside there, or listing them, lost: bench/results/h100-run9).
template <class S, int Group, class W>
__device__ void closure(const closure_args<W>& c, block_queues<W>& sh, const value_range<W> range,
                        loop_state& st) {
  const unsigned capacity = c.limits.queue_items;
  const unsigned lane = threadIdx.x % Group;
  int& out = st.out;  // the queue the block's improvements go to
  std::uint64_t step = 0;
  for (;; ++step) {
    const std::size_t size = *c.counts[step % 3];  // final since the last barrier
    if (size == 0) break;                          // the same value in every block: all leave
    if (blockIdx.x == 0 && threadIdx.x == 0) *c.counts[(step + 2) % 3] = 0;
    const std::uint32_t stamp = st.take_stamp();
    vertex* next = c.lists[(step + 1) % 2];
    unsigned long long* next_count = c.counts[(step + 1) % 3];
    // An improvement into the range: to this block's queue while it has room, else listed for
    // the next step.
    auto hold = [&](const closure_item<W>& row) {
      const unsigned slot = atomicAdd(&sh.queued[out], 1u);
      if (slot < capacity) {
        sh.queue[out][slot] = row;
        if (c.limits.prefetch_queued_rows && row.first < row.last) {
          asm volatile("prefetch.global.L2 [%0];" ::"l"(c.a.columns + row.first));
          asm volatile("prefetch.global.L2 [%0];" ::"l"(c.a.weights + row.first));
        }
      } else {
        list_once(row.v, c.stamps, stamp, next, next_count);
      }
    };
    // Frontier k, a group of lanes per row (hubs by their block).
    push_list<S, Group>(c, sh, st, c.lists[step % 2], size, range, hold);
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
        // The entry in registers before the push: its holds write the other queue, which the
        // compiler cannot tell from this one, and it would load the entry again after each hold
        // (a single path's hop 1.08 -> 0.80 µs: bench/results/h200-run56/NOTES.md).
        const closure_item<W> row = sh.queue[in][k];
        const vertex u = row.v;
        const W x = row.x;
        const arc_index length = row.last - row.first;
        bool live = detail::push_row<S>(c, row, static_cast<const W*>(c.w + u), false, lane, Group,
                                        range, hold);
        if (lane == 0 && length == 0) live = !(c.w[u] < x);
        if (lane == 0 && live) {
          ++st.local_rows;
          st.arcs += length;
        }
      }
    }
    sync();
  }
  // Every block has read the empty frontier's length; the last non-empty one's is zeroed here
  // (the third was zeroed during the last step), so both worklists end empty.
  if (blockIdx.x == 0 && threadIdx.x == 0 && step > 0) *c.counts[(step - 1) % 3] = 0;
  st.steps += step;
}

// out += { i : t[i] in range } (appended; not in index order) and, when `lowest` is given,
// *lowest = min(*lowest, min{ t[i] : t[i] >= above }): a bucket's select fused with the search
// for the next non-empty bucket. t must not change during the pass; *count and *lowest are
// final after the caller's next grid barrier. One atomic per block and tile that has entries
// (a block scan places them), one per block for `lowest`; each thread loads
// select_vector_loads vectors of 16 bytes (a warp's load: 512 consecutive bytes) before it looks
// at any, so that a grid of a few blocks per SM keeps enough bytes in flight to stream t.
template <class W>
__device__ void select_min_above(const W* t, vertex n, const value_range<W> range, vertex* out,
                                 unsigned long long* count, const W above, W* lowest) {
  static_assert(16 % sizeof(W) == 0, "weights of 4 or 8 bytes");
  constexpr unsigned per_load = 16 / sizeof(W);
  constexpr unsigned items = select_vector_loads * per_load;
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
      for (unsigned k = 0; k < select_vector_loads; ++k) {
        const uint4 v = vectors[k * tuning::block_threads + threadIdx.x];
        memcpy(&x[k * per_load], &v, sizeof v);
      }
    } else {
#pragma unroll
      for (unsigned k = 0; k < select_vector_loads; ++k)
#pragma unroll
        for (unsigned e = 0; e < per_load; ++e) {
          const std::size_t i = first + (k * tuning::block_threads + threadIdx.x) * per_load + e;
          x[k * per_load + e] = i < n ? t[i] : infinity<W>();
        }
    }
    unsigned mine = 0;
#pragma unroll
    for (unsigned j = 0; j < items; ++j) {
      mine += detail::in_range(x[j], range);
      if (!(x[j] < above) && x[j] < least) least = x[j];
    }
    unsigned offset = 0, total = 0;
    scan(storage.scan).ExclusiveSum(mine, offset, total);
    if (total > 0) {  // the same in every thread of the block
      if (threadIdx.x == 0) base = atomicAdd(count, (unsigned long long)total);
      __syncthreads();
#pragma unroll
      for (unsigned k = 0; k < select_vector_loads; ++k)
#pragma unroll
        for (unsigned e = 0; e < per_load; ++e)
          if (detail::in_range(x[k * per_load + e], range))
            out[base + offset++] =
                vertex(first + (k * tuning::block_threads + threadIdx.x) * per_load + e);
    }
    __syncthreads();  // the scan's storage and base are free for the next tile
  }
  if (lowest) {
    least = reduce(storage.reduce).Reduce(least, detail::monoid_op<min_plus<W>>{});
    if (threadIdx.x == 0 && least < infinity<W>()) detail::atomic_min(lowest, least);
    __syncthreads();  // the storage is free
  }
}

// out += { i : t[i] in range }: select_min_above without the minimum (a bucket's select).
template <class W>
__device__ __forceinline__ void select(const W* t, vertex n, const value_range<W> range,
                                       vertex* out, unsigned long long* count) {
  select_min_above(t, n, range, out, count, W(), static_cast<W*>(nullptr));
}

// The operand of a persistent kernel's pushes of `a`'s part into w, with `in` (the first
// frontier) and `spare` as its worklists, and `limits` with the device-sized defaults filled in.
template <class W>
closure_args<W> closure_args_of(const matrix_operand<W>& a, dense_vector<W>& w, device_worklist& in,
                                device_worklist& spare, gpu_context& ctx, closure_limits limits) {
  if (limits.local_frontier == closure_limits::per_device)
    limits.local_frontier = tuning::closure_local_frontier_per_sm * detail::sm_count();
  const csr_view<W> view = a.a->view();
  return closure_args<W>{view,
                         detail::ranges_of(view, a, false),
                         w.data(),
                         {in.indices(), spare.indices()},
                         {in.count(), spare.count(), ctx.closure_scratch()},
                         ctx.stamps(w.size()),
                         ctx.arcs_scanned(),
                         limits};
}

// Launches a kernel whose blocks meet at grid barriers: cooperatively (all its blocks resident
// at once, or the launch fails), `blocks` blocks (0: PerSm per SM, the kernel's launch bound)
// capped at what the occupancy API says fits. Throws on a failed launch.
template <unsigned PerSm = blocks_per_sm, class... Params, class... Args>
void launch_cooperative(void (*kernel)(Params...), unsigned blocks, cudaStream_t stream,
                        Args&&... args) {
  const unsigned resident = detail::resident_blocks(kernel, tuning::block_threads);
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(std::min(blocks ? blocks : PerSm * detail::sm_count(), resident));
  config.blockDim = dim3(tuning::block_threads);
  config.stream = stream;
  cudaLaunchAttribute cooperative{};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  config.attrs = &cooperative;
  config.numAttrs = 1;
  TROPIC_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
  detail::check_launch();
}

// Lanes per row of the pushes: `requested`, or by the mean row length (a warp for Kronecker-like
// rows, 8 for meshes and web graphs, 4 for roads and grids; 1 or 2 lanes lose 1.5-2.4x on the
// grid: bench/results/h100-run11/sweeps/closure-sweep-2-factor-rounds-lanes.txt).
inline unsigned lanes_per_row(unsigned requested, double mean_degree) {
  return requested ? requested : mean_degree >= 16 ? 32 : mean_degree >= 4 ? 8 : 4;
}

// f(std::integral_constant<int, lanes>{}) for lanes 1, 2, 4, 8 or 32 (anything else: 32): picks
// the kernel instance of a lane count chosen at run time.
template <class F>
void with_lanes(unsigned lanes, F&& f) {
  switch (lanes) {
    case 1:
      f(std::integral_constant<int, 1>{});
      break;
    case 2:
      f(std::integral_constant<int, 2>{});
      break;
    case 4:
      f(std::integral_constant<int, 4>{});
      break;
    case 8:
      f(std::integral_constant<int, 8>{});
      break;
    default:
      f(std::integral_constant<int, 32>{});
      break;
  }
}

}  // namespace tropic::grid
