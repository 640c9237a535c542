// RDBS: bucket-aware asynchronous delta-stepping (Zhang, Cao, Zhang, Sun, Dun, Huang, An, Ye,
// "A Bucket-aware Asynchronous Single-Source Shortest Path Algorithm on GPU", ICPP-W 2023),
// written from the paper for tropic's device matrix.
//
// How the paper's sections map onto this file:
//  - 4.1 property-driven reordering. Each row sorted by ascending weight, with the offset of its
//    first heavy arc: that is device_matrix's layout already (rows sorted on upload) plus the
//    shared split_light_heavy() (one binary search per row, redone whenever Delta changes, as
//    the paper allows). The vertex renumbering by descending degree is reorder_by_degree(): a
//    CUB radix sort of the degrees (stable, so equal degrees keep ascending ids and the result
//    is deterministic), a CUB scan for the new row offsets, and a copy of the rows with their
//    columns renamed; row order (by weight) is kept. Distances are mapped back to the caller's
//    numbering before the shared finish_result(), so parents and the overflow check run on the
//    caller's matrix. rdbs_config::reorder turns the renumbering off (see "measured" below).
//  - 4.2 adaptive load balancing. Light-phase work items go to one of three workload lists by
//    their light-arc count: small (<= beta = 32) one thread, middle (<= alpha = 256) one warp,
//    large one block; a row of more than 4096 light arcs becomes ceil(arcs / 4096) items of one
//    block each, the paper's "floor(n / 4096) Block threads". Instead of dynamic parallelism
//    (a parent thread launching child grids) we keep the worker blocks persistent and let them
//    take items of the three granularities from the lists: the child work runs in blocks that
//    are already resident, so there is no launch latency and no device-runtime (-rdc) build,
//    which tropic does not use. The heavy phase is the paper's static balancing, "the same
//    number of heavy edges per thread": the operator layer's merge-path push (push_dispatch
//    over the heavy part of every row), not new code.
//  - 4.3 bucket-aware asynchronous execution (Algorithm 2). Phase 1 (light arcs of the current
//    bucket) runs asynchronously in one cooperative persistent kernel: block 0 is the manager,
//    every other block a worker. A vertex improved into the current bucket is pushed at once
//    into the list of its class and may be relaxed again in the same phase; there is no barrier
//    between "iterations". Phases 2 and 3 (heavy arcs of the settled bucket, then the next
//    bucket) are synchronous operator calls: select, push over the heavy part, reduce_min.
//    The bucket width follows Eq. 1-2: eps_i = |(C_{i-2} - C_{i-1}) / (C_{i-2} + C_{i-1})| *
//    (T_{i-2} - T_{i-1}) / (T_{i-2} + T_{i-1}) * Delta_0 and Delta_i = Delta_{i-1} + eps_i, with
//    C = vertices settled in the bucket and T = threads the light phase used (the sum of the
//    group sizes of the items it processed).
//
// Where ours differs, and why:
//  - The manager does not hand items to workers one by one: workers take batches from the three
//    lists themselves (a compare-and-swap on a list's head), because a manager round trip per
//    item costs more than the CAS and serialises on one block (our ADDS kernel already shows the
//    manager-assigns design). The manager detects termination (every reserved item processed,
//    the same counting argument as ADDS's CWC test), stops the phase on a full list, and runs the
//    watchdog.
//  - A vertex is queued at most once at a time (a per-vertex flag, cleared by the worker before
//    it reads the distance), so the lists hold at most n flagged items at a time; items of split
//    rows (> 4096 light arcs) are queued on every improvement, since a half-scanned row must be
//    scanned again in full. A list that still fills up aborts the phase; the host grows the
//    lists 4x and redoes the phase from every vertex of the bucket, which is always correct
//    because distances only decrease.
//  - Eq. 1-2's Delta_i is computed after the heavy phase of bucket i-1, not between its light
//    and heavy phase (Algorithm 2, line 11): a bucket's light and heavy parts must be split at
//    one Delta, or arcs in between would be relaxed by neither. Delta_i is clamped to
//    [Delta_0 / 16, 16 Delta_0] (the paper gives no bound; without one, a run of negative eps
//    drives it to zero or below) and is integral and >= 1 for integer weights.
//  - Empty buckets are skipped: the next bucket starts at the smallest unsettled distance
//    (reduce_min), not at the previous end, so widths are not aligned to a grid.
//  - As in delta_stepping.cu, a heavy arc that lands back in the current bucket (float rounding
//    only) sends its target through another light phase.
//  - The renumbering runs inside every solve and is counted in stats.milliseconds (the paper
//    counts it as preprocessing); rdbs_report::reorder_ms gives its share. Not yet measured on a
//    GPU here: whether it pays for itself per solve is for the benchmark to say.
//
// Statistics: buckets = buckets processed; iterations = batches the light-phase workers took
// plus one per heavy push; vertices_relaxed = light items (rows or 4096-arc chunks) plus heavy
// frontier vertices; arcs_relaxed = light arcs scanned plus heavy arcs; delta = Delta_0.
//
// Memory ordering (cuda::atomic_ref, device scope): a pusher lowers dist[v] (relaxed atomicMin),
// takes v's flag (exchange, acq_rel), reserves a list position (relaxed fetch_add on the tail)
// and release-stores the item into its slot; a worker acquires the slot, clears the flag
// (exchange, acq_rel) and only then loads dist[v]. So an improvement either finds the flag clear
// and queues v, or finds it set, in which case the flag's clearing comes later in its
// modification order and the worker's distance load sees the improvement. Termination: a worker
// adds a batch to `done` (release, after a fence and a barrier) only after every push of the
// batch reserved its position; the manager acquires `done` before reading the tails, so
// done == sum(tails) proves that no item is outstanding and none can appear.
#include <cooperative_groups.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/atomic>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>

#include "../semiring/operators.cuh"
#include "rdbs_config.cuh"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/error.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {

namespace rdbs {
namespace {

namespace cg = cooperative_groups;
using cuda::memory_order_acq_rel;
using cuda::memory_order_acquire;
using cuda::memory_order_relaxed;
using cuda::memory_order_release;

template <class T>
using device_atomic = cuda::atomic_ref<T, cuda::thread_scope_device>;

// One home for the tuning constants (section 4.2's alpha and beta, and its 4096-arc block).
inline constexpr int threads_per_block = 256;
inline constexpr int min_blocks_per_sm = 4;
inline constexpr unsigned warps_per_block = threads_per_block / 32;
inline constexpr arc_index beta_arcs = 32;     // up to this many light arcs: one thread
inline constexpr arc_index alpha_arcs = 256;   // up to this many: one warp; more: one block
inline constexpr arc_index chunk_arcs = 4096;  // a block item covers at most this many arcs

// Light-phase outcome (phase_state::status); 0 so that a memset starts a phase.
inline constexpr int status_running = 0, status_finished = 1, status_overflow = 2,
                     status_watchdog = 3;

// What a worker block took: which list, or nothing left to do.
inline constexpr int kind_exit = 0, kind_small = 1, kind_middle = 2, kind_large = 3;

inline constexpr vertex empty_vertex = ~vertex(0);  // never a vertex id: n <= 2^32 - 1
inline constexpr unsigned long long empty_chunk = ~0ull;

// Reset before every light phase.
struct phase_state {
  int status;
  unsigned long long done;  // items fully processed
};

// Cumulative over the solve.
struct work_counters {
  unsigned long long items, arcs, threads, batches, small, middle, large;
};

// A workload list: positions only grow within a phase (no wrap-around), slots hold `empty` until
// written and are reset to `empty` by the worker that takes them, so the next phase finds the
// used prefix clean without a memset.
template <class T>
struct work_list {
  T* slots;
  unsigned long long capacity;
  unsigned long long* head;  // next position to take
  unsigned long long* tail;  // next position to reserve (may pass capacity: overflow)
};

// Small and middle items are vertex ids; a large item is (chunk << 32) | vertex.
template <class W>
struct phase_args {
  csr_view<W> a;
  const arc_index* split;  // first heavy arc of each row
  W* dist;
  unsigned* queued;  // 1 while the vertex has an item in a list (rows of <= chunk_arcs)
  work_list<vertex> small, middle;
  work_list<unsigned long long> large;
  phase_state* state;
  work_counters* counters;
  W hi;  // the current bucket's upper end (exclusive; infinity: open)
  unsigned long long watchdog_ns;
};

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

template <class W>
__device__ __forceinline__ W load_distance(W* p) {
  return device_atomic<W>(*p).load(memory_order_relaxed);
}

template <class T>
__device__ __forceinline__ void publish(const work_list<T>& l, unsigned long long p, T item,
                                        phase_state* state) {
  if (p >= l.capacity) {
    // The list is full: the item is lost, so the phase is void; the host redoes it.
    int expected = status_running;
    device_atomic<int>(state->status).compare_exchange_strong(expected, status_overflow,
                                                              memory_order_relaxed);
    return;
  }
  // Release: the pusher's distance update is visible to whoever acquires the item.
  device_atomic<T>(l.slots[p]).store(item, memory_order_release);
}

// Queues v (just lowered to a distance inside the current bucket) into the list of its class.
template <class W>
__device__ void push_vertex(const phase_args<W>& k, vertex v) {
  const arc_index light = k.split[v] - k.a.row_offsets[v];
  if (light == 0) return;  // no light arcs: only the heavy phase reads this row
  if (light > chunk_arcs) {
    // A split row: every improvement queues all its chunks (no flag; see the header).
    const unsigned long long chunks = (light + chunk_arcs - 1) / chunk_arcs;
    const unsigned long long p =
        device_atomic<unsigned long long>(*k.large.tail).fetch_add(chunks, memory_order_relaxed);
    for (unsigned long long c = 0; c < chunks; ++c)
      publish(k.large, p + c, (c << 32) | v, k.state);
    return;
  }
  // acq_rel: pairs with the worker's clearing exchange (see the header).
  if (device_atomic<unsigned>(k.queued[v]).exchange(1u, memory_order_acq_rel) != 0) return;
  const int cls = light <= beta_arcs ? kind_small : light <= alpha_arcs ? kind_middle : kind_large;
  // Lanes of a warp pushing to the same list share one reservation.
  cg::coalesced_group active = cg::coalesced_threads();
  cg::coalesced_group same = cg::labeled_partition(active, cls);
  unsigned long long* tail = cls == kind_small ? k.small.tail : cls == kind_middle ? k.middle.tail
                                                                                  : k.large.tail;
  unsigned long long base = 0;
  if (same.thread_rank() == 0)
    base = device_atomic<unsigned long long>(*tail).fetch_add(same.size(), memory_order_relaxed);
  base = same.shfl(base, 0);
  const unsigned long long p = base + same.thread_rank();
  if (cls == kind_small)
    publish(k.small, p, v, k.state);
  else if (cls == kind_middle)
    publish(k.middle, p, v, k.state);
  else
    publish(k.large, p, static_cast<unsigned long long>(v), k.state);
}

// Algorithm 1's relaxation, pushing the target when it improves into the current bucket.
template <class W>
__device__ __forceinline__ void relax(const phase_args<W>& k, W du, arc_index e) {
  const vertex v = k.a.columns[e];
  const W nd = saturating_add(du, k.a.weights[e]);
  if (nd < load_distance(&k.dist[v])) {
    const W old = atomic_min(&k.dist[v], nd);
    if (nd < old && nd < k.hi) push_vertex(k, v);
  }
}

// A batch of up to `most` positions of list l, sized so that the workers share what is there.
template <class T>
__device__ unsigned try_take(const work_list<T>& l, unsigned most, unsigned workers,
                             unsigned long long& first) {
  device_atomic<unsigned long long> head(*l.head), tail(*l.tail);
  unsigned long long h = head.load(memory_order_relaxed);
  for (;;) {
    const unsigned long long t = min(tail.load(memory_order_relaxed), l.capacity);
    if (h >= t) return 0;
    // An equal share, but never less than a quarter of a full batch while there is that much:
    // with hundreds of workers and a few dozen items, shares of one item each had every block
    // contend for the head to run one item on one thread (grid-4M: ~7 ms per bucket, H100).
    const unsigned long long share = (t - h + workers - 1) / workers;
    const unsigned long long floor = min(t - h, (unsigned long long)(most + 3) / 4);
    const unsigned long long want = share > floor ? share : floor;
    const unsigned long long count = want < 1 ? 1 : want > most ? most : want;
    // Relaxed: the position range only has to be ours; the items come through their slots.
    if (head.compare_exchange_weak(h, h + count, memory_order_relaxed)) {
      first = h;
      return static_cast<unsigned>(count);
    }
  }
}

// The item at position p, once its pusher has stored it (it reserved p, so it is about to);
// `empty` when the phase was stopped meanwhile.
template <class T>
__device__ T take_slot(const work_list<T>& l, unsigned long long p, phase_state* state, T empty) {
  device_atomic<T> slot(l.slots[p]);
  T x;
  for (unsigned spins = 0; (x = slot.load(memory_order_acquire)) == empty; ++spins) {
    if ((spins & 63) == 63 &&
        device_atomic<int>(state->status).load(memory_order_relaxed) != status_running)
      return empty;
    __nanosleep(32);
  }
  slot.store(empty, memory_order_relaxed);  // read by the next phase only, after this kernel
  return x;
}

// Takes v's flag down before its distance is read (acq_rel: see the header).
__device__ __forceinline__ void unqueue(unsigned* queued, vertex v) {
  device_atomic<unsigned>(queued[v]).exchange(0u, memory_order_acq_rel);
}

template <class W>
__device__ void worker(const phase_args<W>& k, unsigned workers) {
  __shared__ int s_kind;
  __shared__ unsigned s_count;
  __shared__ unsigned long long s_first;
  __shared__ W s_du;
  __shared__ arc_index s_begin, s_end;

  const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  unsigned long long my_arcs = 0;
  unsigned long long n_small = 0, n_middle = 0, n_large = 0, batches = 0;
  device_atomic<int> status(k.state->status);

  for (;;) {
    if (tid == 0) {
      int kind = kind_exit;
      unsigned count = 0;
      unsigned long long first = 0;
      // Block items first: they are the longest, starting them early shortens the phase's tail.
      for (unsigned spins = 0;; ++spins) {
        if (status.load(memory_order_relaxed) != status_running) break;
        if ((count = try_take(k.large, 1u, workers, first)) != 0) { kind = kind_large; break; }
        if ((count = try_take(k.middle, warps_per_block, workers, first)) != 0) {
          kind = kind_middle;
          break;
        }
        if ((count = try_take(k.small, unsigned(threads_per_block), workers, first)) != 0) {
          kind = kind_small;
          break;
        }
        __nanosleep(spins < 32 ? 32 : 256);
      }
      if (kind == kind_large) {
        const unsigned long long item = take_slot(k.large, first, k.state, empty_chunk);
        arc_index begin = 0, end = 0;
        W du{};
        if (item != empty_chunk) {
          const vertex v = static_cast<vertex>(item & 0xffffffffull);
          const unsigned long long chunk = item >> 32;
          const arc_index row = k.a.row_offsets[v], light_end = k.split[v];
          if (light_end - row <= chunk_arcs) unqueue(k.queued, v);
          du = load_distance(&k.dist[v]);
          begin = row + chunk * chunk_arcs;
          end = begin + chunk_arcs < light_end ? begin + chunk_arcs : light_end;
        }
        s_du = du;
        s_begin = begin;
        s_end = end;
      }
      s_kind = kind;
      s_count = count;
      s_first = first;
    }
    __syncthreads();
    const int kind = s_kind;
    const unsigned count = s_count;
    const unsigned long long first = s_first;
    if (kind == kind_exit) break;

    if (kind == kind_small) {
      if (tid < count) {
        const vertex v = take_slot(k.small, first + tid, k.state, empty_vertex);
        if (v != empty_vertex) {
          unqueue(k.queued, v);
          const W du = load_distance(&k.dist[v]);
          const arc_index b = k.a.row_offsets[v], e = k.split[v];
          for (arc_index x = b; x < e; ++x) relax(k, du, x);
          my_arcs += e - b;
        }
      }
      if (tid == 0) n_small += count;
    } else if (kind == kind_middle) {
      if (warp < count) {
        vertex v = empty_vertex;
        W du{};
        arc_index b = 0, e = 0;
        if (lane == 0) {
          v = take_slot(k.middle, first + warp, k.state, empty_vertex);
          if (v != empty_vertex) {
            unqueue(k.queued, v);
            du = load_distance(&k.dist[v]);
            b = k.a.row_offsets[v];
            e = k.split[v];
          }
        }
        du = __shfl_sync(~0u, du, 0);
        b = __shfl_sync(~0u, b, 0);
        e = __shfl_sync(~0u, e, 0);
        for (arc_index x = b + lane; x < e; x += 32) relax(k, du, x);
        if (lane == 0) my_arcs += e - b;
      }
      if (tid == 0) n_middle += count;
    } else {
      const W du = s_du;
      const arc_index b = s_begin, e = s_end;
      for (arc_index x = b + tid; x < e; x += threads_per_block) relax(k, du, x);
      if (tid == 0) {
        my_arcs += e - b;
        n_large += count;
      }
    }
    // Every push of this batch reserved its position before the batch counts as done: fence,
    // barrier, then one release RMW (the termination argument in the header).
    cuda::atomic_thread_fence(memory_order_release, cuda::thread_scope_device);
    __syncthreads();
    if (tid == 0) {
      device_atomic<unsigned long long>(k.state->done).fetch_add(count, memory_order_release);
      ++batches;
    }
  }

  // Statistics: one atomic per warp for the arcs, thread 0 for the rest.
  for (int o = 16; o; o >>= 1) my_arcs += __shfl_down_sync(~0u, my_arcs, o);
  if (lane == 0 && my_arcs) atomicAdd(&k.counters->arcs, my_arcs);
  if (tid == 0) {
    atomicAdd(&k.counters->items, n_small + n_middle + n_large);
    atomicAdd(&k.counters->threads, n_small + 32 * n_middle + threads_per_block * n_large);
    atomicAdd(&k.counters->batches, batches);
    atomicAdd(&k.counters->small, n_small);
    atomicAdd(&k.counters->middle, n_middle);
    atomicAdd(&k.counters->large, n_large);
  }
}

template <class W>
__device__ void manager(const phase_args<W>& k) {
  device_atomic<int> status(k.state->status);
  device_atomic<unsigned long long> done(k.state->done);
  device_atomic<unsigned long long> t_small(*k.small.tail), t_middle(*k.middle.tail),
      t_large(*k.large.tail);
  const unsigned long long start = global_ns();
  for (unsigned spins = 0;; ++spins) {
    if (status.load(memory_order_relaxed) != status_running) return;
    // done first (acquire), then the tails: see the termination argument in the header.
    const unsigned long long d = done.load(memory_order_acquire);
    const unsigned long long total = t_small.load(memory_order_relaxed) +
                                     t_middle.load(memory_order_relaxed) +
                                     t_large.load(memory_order_relaxed);
    int expected = status_running;
    if (d == total) {
      status.compare_exchange_strong(expected, status_finished, memory_order_relaxed);
      return;
    }
    if (global_ns() - start > k.watchdog_ns) {
      status.compare_exchange_strong(expected, status_watchdog, memory_order_relaxed);
      return;
    }
    __nanosleep(spins < 64 ? 64 : 256);
  }
}

// Section 4.3, phase 1: block 0 manages, the others work, until the bucket's light work is done.
template <class W>
__global__ void __launch_bounds__(threads_per_block, min_blocks_per_sm)
light_phase(phase_args<W> k) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) manager(k);
    return;
  }
  worker(k, gridDim.x - 1);
}

// The phase's first items: the bucket's vertices (or the heavy phase's stragglers).
template <class W>
__global__ void seed_lists(phase_args<W> k, const vertex* seeds, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    push_vertex(k, seeds[i]);
}

template <class W>
__global__ void init_distances(vertex n, W* dist, unsigned* queued, vertex source,
                               const vertex* perm) {
  const vertex s = perm ? perm[source] : source;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    dist[i] = i == s ? W(0) : infinity<W>();
    queued[i] = 0;
  }
}

template <class W>
__global__ void to_caller_numbering(vertex n, const W* dist, const vertex* perm, W* out) {
  for (std::size_t u = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; u < n;
       u += std::size_t(gridDim.x) * blockDim.x)
    out[u] = dist[perm[u]];
}

// Rows per class, for the lists' capacities: [0] longer than beta, [1] longer than alpha,
// [2] chunks of the rows longer than chunk_arcs.
template <class W>
__global__ void count_classes(csr_view<W> a, unsigned long long* counts) {
  unsigned long long c32 = 0, c256 = 0, chunks = 0;
  for (std::size_t u = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; u < a.n;
       u += std::size_t(gridDim.x) * blockDim.x) {
    const arc_index d = a.row_offsets[u + 1] - a.row_offsets[u];
    c32 += d > beta_arcs;
    c256 += d > alpha_arcs;
    if (d > chunk_arcs) chunks += (d + chunk_arcs - 1) / chunk_arcs;
  }
  for (int o = 16; o; o >>= 1) {
    c32 += __shfl_down_sync(~0u, c32, o);
    c256 += __shfl_down_sync(~0u, c256, o);
    chunks += __shfl_down_sync(~0u, chunks, o);
  }
  if ((threadIdx.x & 31) == 0) {
    if (c32) atomicAdd(&counts[0], c32);
    if (c256) atomicAdd(&counts[1], c256);
    if (chunks) atomicAdd(&counts[2], chunks);
  }
}

// ---------------------------------------------------------------------------------------------
// Section 4.1: vertices renumbered by descending degree.

template <class W>
__global__ void degree_keys(csr_view<W> a, unsigned* keys, vertex* ids) {
  for (std::size_t u = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; u < a.n;
       u += std::size_t(gridDim.x) * blockDim.x) {
    const arc_index d = a.row_offsets[u + 1] - a.row_offsets[u];
    keys[u] = d > 0xffffffffull ? 0xffffffffu : static_cast<unsigned>(d);
    ids[u] = static_cast<vertex>(u);
  }
}

// perm[order[r]] = r, and the new rows' lengths (lengths[n] = 0 for the exclusive scan).
template <class W>
__global__ void invert_order(csr_view<W> a, const vertex* order, vertex* perm,
                             arc_index* lengths) {
  for (std::size_t r = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; r <= a.n;
       r += std::size_t(gridDim.x) * blockDim.x) {
    if (r == a.n) {
      lengths[r] = 0;
      continue;
    }
    const vertex u = order[r];
    perm[u] = static_cast<vertex>(r);
    lengths[r] = a.row_offsets[u + 1] - a.row_offsets[u];
  }
}

// The new rows are sorted by descending length: the long ones (>= chunk_arcs) are a prefix.
__global__ void find_long_prefix(vertex n, const arc_index* offsets, vertex* long_rows) {
  for (std::size_t r = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; r < n;
       r += std::size_t(gridDim.x) * blockDim.x) {
    const bool long_here = offsets[r + 1] - offsets[r] >= chunk_arcs;
    const bool long_next = r + 1 < n && offsets[r + 2] - offsets[r + 1] >= chunk_arcs;
    if (long_here && !long_next) *long_rows = static_cast<vertex>(r + 1);
  }
}

// Arcs of the long prefix, one thread per arc (a binary search finds its row): a hub of a
// million arcs must not be copied by one warp.
template <class W>
__global__ void copy_long_rows(csr_view<W> a, const vertex* order, const vertex* perm,
                               const arc_index* offsets, const vertex* long_rows, vertex* columns,
                               W* weights) {
  const vertex rows = *long_rows;
  if (rows == 0) return;
  const arc_index total = offsets[rows];
  for (arc_index e = blockIdx.x * arc_index(blockDim.x) + threadIdx.x; e < total;
       e += arc_index(gridDim.x) * blockDim.x) {
    vertex lo = 0, hi = rows;  // the last row r with offsets[r] <= e
    while (hi - lo > 1) {
      const vertex mid = lo + (hi - lo) / 2;
      if (offsets[mid] <= e) lo = mid; else hi = mid;
    }
    const arc_index from = a.row_offsets[order[lo]] + (e - offsets[lo]);
    columns[e] = perm[a.columns[from]];
    weights[e] = a.weights[from];
  }
}

// The other rows, one warp each; each row keeps its order (ascending weight).
template <class W>
__global__ void copy_short_rows(csr_view<W> a, const vertex* order, const vertex* perm,
                                const arc_index* offsets, const vertex* long_rows,
                                vertex* columns, W* weights) {
  const std::size_t warps = std::size_t(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x & 31;
  for (std::size_t r = *long_rows + (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / 32;
       r < a.n; r += warps) {
    const arc_index from = a.row_offsets[order[r]], to = offsets[r],
                    len = offsets[r + 1] - offsets[r];
    for (arc_index j = lane; j < len; j += 32) {
      columns[to + j] = perm[a.columns[from + j]];
      weights[to + j] = a.weights[from + j];
    }
  }
}

inline unsigned grid_for(std::size_t items, unsigned threads = 256) {
  return static_cast<unsigned>(std::clamp<std::size_t>((items + threads - 1) / threads, 1, 1u << 20));
}

// The graph the kernels run on: A itself, or A renumbered (perm[old] = new).
template <class W>
struct working_graph {
  device_buffer<arc_index> offsets;
  device_buffer<vertex> columns, perm;
  device_buffer<W> weights;
  csr_view<W> view;
};

template <class W>
void reorder_by_degree(const device_matrix<W>& A, working_graph<W>& g, cudaStream_t stream) {
  const csr_view<W> a = A.view();
  const vertex n = a.n;
  require_device_memory((std::size_t(n) + 1) * sizeof(arc_index) +
                            a.arcs * (sizeof(vertex) + sizeof(W)) +
                            std::size_t(n) * (4 * sizeof(vertex) + 2 * sizeof(unsigned)),
                        "the degree-renumbered copy of the matrix (rdbs)");
  device_buffer<unsigned> keys(n, stream), sorted_keys(n, stream);
  device_buffer<vertex> ids(n, stream), order(n, stream);
  degree_keys<<<grid_for(n), 256, 0, stream>>>(a, keys.data(), ids.data());
  TROPIC_CUDA_CHECK(cudaGetLastError());
  // Descending and stable: equal degrees keep ascending ids.
  std::size_t bytes = 0;
  TROPIC_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(
      nullptr, bytes, keys.data(), sorted_keys.data(), ids.data(), order.data(), n, 0, 32, stream));
  {
    device_buffer<unsigned char> temp(bytes, stream);
    TROPIC_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(
        temp.data(), bytes, keys.data(), sorted_keys.data(), ids.data(), order.data(), n, 0, 32,
        stream));
  }
  g.perm = device_buffer<vertex>(n, stream);
  g.offsets = device_buffer<arc_index>(std::size_t(n) + 1, stream);
  device_buffer<arc_index> lengths(std::size_t(n) + 1, stream);
  invert_order<<<grid_for(std::size_t(n) + 1), 256, 0, stream>>>(a, order.data(), g.perm.data(),
                                                                  lengths.data());
  TROPIC_CUDA_CHECK(cudaGetLastError());
  bytes = 0;
  TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, lengths.data(),
                                                  g.offsets.data(), std::size_t(n) + 1, stream));
  {
    device_buffer<unsigned char> temp(bytes, stream);
    TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.data(), bytes, lengths.data(),
                                                    g.offsets.data(), std::size_t(n) + 1, stream));
  }
  g.columns = device_buffer<vertex>(a.arcs, stream);
  g.weights = device_buffer<W>(a.arcs, stream);
  if (a.arcs > 0) {
    device_buffer<vertex> long_rows(1, stream);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(long_rows.data(), 0, sizeof(vertex), stream));
    find_long_prefix<<<grid_for(n), 256, 0, stream>>>(n, g.offsets.data(), long_rows.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
    copy_long_rows<<<1024, 256, 0, stream>>>(a, order.data(), g.perm.data(), g.offsets.data(),
                                              long_rows.data(), g.columns.data(), g.weights.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
    copy_short_rows<<<grid_for(std::size_t(n) * 32), 256, 0, stream>>>(
        a, order.data(), g.perm.data(), g.offsets.data(), long_rows.data(), g.columns.data(),
        g.weights.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
  }
  g.view = {n, a.arcs, g.offsets.data(), g.columns.data(), g.weights.data()};
}

// ---------------------------------------------------------------------------------------------
// Bucket arithmetic in W.

// The bucket width in W: integral and >= 1 for integers, never 0 for floats; infinity (one
// bucket) when delta reaches the largest finite W.
template <class W>
W width_of(double delta) {
  if (!(delta < double(std::numeric_limits<W>::max()))) return infinity<W>();
  if constexpr (std::is_integral_v<W>)
    return W(std::max(1.0, std::floor(delta)));
  else
    return std::max(W(delta), std::numeric_limits<W>::denorm_min());
}

// lo + width, saturating; always above a finite lo (a float width lost in rounding still moves
// the end by one representable value).
template <class W>
W bucket_end(W lo, W width) {
  if (width == infinity<W>()) return infinity<W>();
  const W hi = saturating_add(lo, width);
  if constexpr (std::is_floating_point_v<W>) {
    if (!(lo < hi)) return std::nextafter(lo, infinity<W>());
  }
  return hi;
}

// Eq. 1-2: Delta_i = Delta_{i-1} + eps_i from the last two buckets' settled vertices (C) and
// light-phase threads (T); buckets 0 and 1 keep Delta_0.
struct delta_schedule {
  double delta0, delta;
  bool dynamic;
  double c[2] = {0, 0}, t[2] = {0, 0};  // [0] = bucket i-2, [1] = bucket i-1
  std::uint64_t finished = 0;

  delta_schedule(double d0, bool dyn) : delta0(d0), delta(d0), dynamic(dyn && std::isfinite(d0)) {}

  void bucket_done(double settled, double threads) {
    c[0] = c[1];
    t[0] = t[1];
    c[1] = settled;
    t[1] = threads;
    if (!dynamic || ++finished < 2) return;
    auto relative = [](double older, double newer) {
      return older + newer > 0 ? (older - newer) / (older + newer) : 0.0;
    };
    const double eps = std::fabs(relative(c[0], c[1])) * relative(t[0], t[1]) * delta0;
    delta = std::clamp(delta + eps, delta0 / 16, delta0 * 16);
  }
};

const char* status_text(int s) {
  switch (s) {
    case status_finished: return "finished";
    case status_overflow: return "full work list";
    case status_watchdog: return "device watchdog";
    default: return "unknown";
  }
}

}  // namespace
}  // namespace rdbs

template <class W>
result<W> rdbs_sssp_configured(const device_matrix<W>& A, vertex source, const options& opts,
                               const rdbs_config& cfg, rdbs_report* report) {
  using namespace rdbs;
  const vertex n = A.rows();
  if (n == 0) throw error(error_code::invalid_value, "rdbs: the graph has no vertices");
  if (source >= n)
    throw error(error_code::invalid_index, "rdbs: source vertex " + std::to_string(source) +
                                               " is out of range (n = " + std::to_string(n) + ")");
  const double delta0 = resolve_delta(A, opts);
  if (!(delta0 > 0)) throw error(error_code::invalid_value, "rdbs: delta must be positive");

  cuda_stream stream;
  gpu_context ctx(stream);
  const descriptor desc;  // the heavy push: merge-path, equal arcs per block (section 4.2)
  op_counters heavy_counters;
  rdbs_report rep;
  rep.initial_delta = rep.min_delta = rep.max_delta = delta0;

  int device = 0, sms = 0, coop = 0, per_sm = 0;
  TROPIC_CUDA_CHECK(cudaGetDevice(&device));
  TROPIC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TROPIC_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device));
  TROPIC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, light_phase<W>,
                                                                  threads_per_block, 0));
  if (per_sm < 1 || !coop)
    throw error(error_code::cuda, "rdbs: the device cannot keep the persistent kernel resident");
  unsigned grid = static_cast<unsigned>(per_sm) * static_cast<unsigned>(sms);
  if (cfg.max_worker_blocks > 0) grid = std::min(grid, cfg.max_worker_blocks + 1);
  grid = std::max(grid, 2u);
  rep.worker_blocks = grid - 1;

  result<W> out;
  statistics& st = out.stats;
  st.algorithm = algorithm_name(algorithm::rdbs);
  st.delta = delta0;

  cuda_timer timer(stream);
  working_graph<W> g;
  if (cfg.reorder) {
    cuda_timer reorder_timer(stream);
    reorder_by_degree(A, g, stream);
    rep.reorder_ms = reorder_timer.elapsed_ms();
    rep.reordered = true;
  } else {
    g.view = A.view();
  }
  const csr_view<W> view = g.view;
  const vertex* perm = cfg.reorder ? g.perm.data() : nullptr;

  // The lists: the small one can hold every vertex twice, the others their class twice over.
  std::size_t cap[3];
  {
    device_buffer<unsigned long long> counts(3, stream);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, counts.bytes(), stream));
    count_classes<<<std::min(grid_for(n), 2048u), 256, 0, stream>>>(view, counts.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
    unsigned long long h[3];
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(h, counts.data(), sizeof h, cudaMemcpyDeviceToHost, stream));
    TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
    cap[0] = 2 * std::size_t(n) + 1024;
    cap[1] = 2 * std::size_t(h[0]) + 1024;
    cap[2] = 2 * std::size_t(h[1] + h[2]) + 1024;
    if (cfg.list_capacity > 0) cap[0] = cap[1] = cap[2] = cfg.list_capacity;
  }
  device_buffer<vertex> small_slots, middle_slots;
  device_buffer<unsigned long long> large_slots;
  auto allocate_lists = [&] {
    require_device_memory((cap[0] + cap[1]) * sizeof(vertex) + cap[2] * sizeof(unsigned long long),
                          "the rdbs work lists (" + std::to_string(cap[0]) + ", " +
                              std::to_string(cap[1]) + " and " + std::to_string(cap[2]) +
                              " items)");
    small_slots = device_buffer<vertex>(0, stream);  // free the old lists first
    middle_slots = device_buffer<vertex>(0, stream);
    large_slots = device_buffer<unsigned long long>(0, stream);
    small_slots = device_buffer<vertex>(cap[0], stream);
    middle_slots = device_buffer<vertex>(cap[1], stream);
    large_slots = device_buffer<unsigned long long>(cap[2], stream);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(small_slots.data(), 0xff, small_slots.bytes(), stream));
    TROPIC_CUDA_CHECK(cudaMemsetAsync(middle_slots.data(), 0xff, middle_slots.bytes(), stream));
    TROPIC_CUDA_CHECK(cudaMemsetAsync(large_slots.data(), 0xff, large_slots.bytes(), stream));
  };
  allocate_lists();

  dense_vector<W> t(n, stream);
  sparse_vector<W> B(n, stream), S(n, stream);
  device_buffer<unsigned> queued(n, stream);
  device_buffer<arc_index> split(n, stream);
  device_buffer<unsigned long long> ends(6, stream);  // heads[3], tails[3]
  device_buffer<phase_state> state(1, stream);
  device_buffer<work_counters> counters(1, stream);
  pinned_buffer<phase_state> h_state(1);
  pinned_buffer<work_counters> h_counters(1);
  TROPIC_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, counters.bytes(), stream));
  *h_counters.data() = work_counters{};

  // t = ∞; t[s] = 0 (in the working numbering)
  init_distances<<<grid_for(n), 256, 0, stream>>>(n, t.data(), queued.data(), source, perm);
  TROPIC_CUDA_CHECK(cudaGetLastError());

  phase_args<W> k{};
  k.a = view;
  k.split = split.data();
  k.dist = t.data();
  k.queued = queued.data();
  k.state = state.data();
  k.counters = counters.data();
  k.watchdog_ns = static_cast<unsigned long long>(cfg.watchdog_ms * 1e6);
  auto bind_lists = [&] {
    k.small = {small_slots.data(), cap[0], ends.data() + 0, ends.data() + 3};
    k.middle = {middle_slots.data(), cap[1], ends.data() + 1, ends.data() + 4};
    k.large = {large_slots.data(), cap[2], ends.data() + 2, ends.data() + 5};
  };
  bind_lists();

  // Phase 1 of the current bucket, asynchronous, from the seeds in `seeds`; redone from the whole
  // bucket after a full list.
  auto light_phase_from = [&](sparse_vector<W>& seeds, value_range<W> bucket) {
    for (;;) {
      TROPIC_CUDA_CHECK(cudaMemsetAsync(ends.data(), 0, ends.bytes(), stream));
      TROPIC_CUDA_CHECK(cudaMemsetAsync(state.data(), 0, state.bytes(), stream));
      k.hi = bucket.hi;
      if (seeds.nvals() > 0) {
        seed_lists<<<grid_for(seeds.nvals()), 256, 0, stream>>>(k, seeds.indices(), seeds.nvals());
        TROPIC_CUDA_CHECK(cudaGetLastError());
      }
      void* params[] = {&k};
      TROPIC_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(light_phase<W>),
                                                    dim3(grid), dim3(threads_per_block), params, 0,
                                                    stream));
      TROPIC_CUDA_CHECK(cudaMemcpyAsync(h_state.data(), state.data(), sizeof(phase_state),
                                        cudaMemcpyDeviceToHost, stream));
      TROPIC_CUDA_CHECK(cudaMemcpyAsync(h_counters.data(), counters.data(), sizeof(work_counters),
                                        cudaMemcpyDeviceToHost, stream));
      TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
      ++rep.light_phases;
      const int status = h_state[0].status;
      if (status == status_finished) return;
      if (status != status_overflow)
        throw error(error_code::cuda, std::string("rdbs: a light phase was stopped by the ") +
                                          status_text(status) + " after " +
                                          std::to_string(cfg.watchdog_ms) + " ms");
      if (rep.overflow_retries >= std::uint64_t(std::max(cfg.overflow_retries, 0)))
        throw error(error_code::out_of_memory,
                    "rdbs: the work lists (" + std::to_string(cap[0]) + ", " +
                        std::to_string(cap[1]) + ", " + std::to_string(cap[2]) +
                        " items) were full after " + std::to_string(rep.overflow_retries) +
                        " retries");
      ++rep.overflow_retries;
      if (opts.verbose)
        std::fprintf(stderr, "rdbs: work list full, growing to %zu/%zu/%zu items\n", cap[0] * 4,
                     cap[1] * 4, cap[2] * 4);
      for (auto& c : cap) c *= 4;
      allocate_lists();
      bind_lists();
      // Flags of items that were lost or left in the lists; then every vertex of the bucket.
      TROPIC_CUDA_CHECK(cudaMemsetAsync(queued.data(), 0, queued.bytes(), stream));
      select(seeds, t, bucket, ctx);
    }
  };

  delta_schedule schedule(delta0, cfg.dynamic_delta);
  W lo = W(0);
  W width = width_of<W>(schedule.delta);
  split_light_heavy(view, double(width), split.data(), stream);
  for (;;) {
    const W hi = bucket_end(lo, width);
    const value_range<W> bucket{lo, hi};
    const bool has_heavy = width != infinity<W>();
    const std::uint64_t threads_before = h_counters[0].threads;
    ++st.buckets;
    // B = { v : lo <= t[v] < hi }
    select(B, t, bucket, ctx);
    std::size_t settled = B.nvals();
    for (;;) {
      // Phase 1: light arcs of the bucket, asynchronously to convergence.
      light_phase_from(B, bucket);
      if (!has_heavy) break;
      // S = { v : lo <= t[v] < hi }: the settled bucket (C_i of Eq. 1)
      select(S, t, bucket, ctx);
      settled = S.nvals();
      st.vertices_relaxed += S.nvals();
      // Phase 2: t = min(t, AH' min.+ (t .* S)); B = stragglers back in the bucket (rounding)
      const row_ranges heavy_rows{view.row_offsets, split.data(), row_part::heavy};
      push_dispatch<min_plus<W>>(
          push_operands<W>{&t, no_mask<W>(), view, heavy_rows, &S, &B, bucket, &heavy_counters},
          desc, ctx);
      ++rep.heavy_steps;
      if (B.nvals() == 0) break;
    }
    // Phase 3: the next bucket starts at the smallest unsettled distance.
    if (hi == infinity<W>()) break;
    const W next = reduce_min(t, value_range<W>{hi, infinity<W>()}, ctx);
    if (next == infinity<W>()) break;
    lo = next;
    // Eq. 1-2 for the next bucket; a new width moves every row's light/heavy offset.
    schedule.bucket_done(double(settled), double(h_counters[0].threads - threads_before));
    const W next_width = width_of<W>(schedule.delta);
    if (next_width != width) {
      width = next_width;
      ++rep.delta_changes;
      split_light_heavy(view, double(width), split.data(), stream);
    }
    rep.min_delta = std::min(rep.min_delta, schedule.delta);
    rep.max_delta = std::max(rep.max_delta, schedule.delta);
  }

  // Back to the caller's numbering.
  const W* final_dist = t.data();
  device_buffer<W> caller_dist;
  if (perm) {
    caller_dist = device_buffer<W>(n, stream);
    to_caller_numbering<<<grid_for(n), 256, 0, stream>>>(n, t.data(), perm, caller_dist.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
    final_dist = caller_dist.data();
  }
  st.milliseconds = timer.elapsed_ms();
  const work_counters& wc = h_counters[0];
  st.iterations = wc.batches + rep.heavy_steps;
  st.vertices_relaxed += wc.items;
  st.arcs_relaxed = wc.arcs + ctx.read_arcs_scanned();
  // The operators' counter reads, one status read per light phase, the class counts at setup.
  st.host_round_trips = ctx.round_trips + rep.light_phases + 1;
  rep.final_delta = schedule.delta;
  rep.threads_used = wc.threads;
  rep.small_items = wc.small;
  rep.middle_items = wc.middle;
  rep.large_items = wc.large;
  finish_result(A, final_dist, source, opts, out, stream);
  if (opts.verbose)
    std::fprintf(stderr,
                 "rdbs: grid %u (%d/SM x %d SMs), reorder %s (%.3f ms), delta %g -> %g (range "
                 "%g..%g, %llu changes), %llu buckets, %llu light phases (%llu redone), %llu "
                 "heavy steps, items small/middle/large %llu/%llu/%llu, %.3f ms\n",
                 grid, per_sm, sms, rep.reordered ? "on" : "off", rep.reorder_ms, delta0,
                 rep.final_delta, rep.min_delta, rep.max_delta,
                 static_cast<unsigned long long>(rep.delta_changes),
                 static_cast<unsigned long long>(st.buckets),
                 static_cast<unsigned long long>(rep.light_phases),
                 static_cast<unsigned long long>(rep.overflow_retries),
                 static_cast<unsigned long long>(rep.heavy_steps), wc.small, wc.middle, wc.large,
                 st.milliseconds);
  if (report) *report = rep;
  return out;
}

template <class W>
result<W> rdbs_sssp(const device_matrix<W>& a, vertex source, const options& opts) {
  return rdbs_sssp_configured(a, source, opts, rdbs_config{}, nullptr);
}

#define TROPIC_INSTANTIATE(W)                                                                \
  template result<W> rdbs_sssp<W>(const device_matrix<W>&, vertex, const options&);         \
  template result<W> rdbs_sssp_configured<W>(const device_matrix<W>&, vertex, const options&, \
                                             const rdbs_config&, rdbs_report*);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
