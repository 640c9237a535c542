// RDBS phase 1 (Zhang et al., ICPP-W'23, sections 4.2 and 4.3, Algorithm 2): the light arcs of
// the current bucket, relaxed asynchronously to convergence by one cooperative persistent
// kernel. Block 0's thread 0 manages (termination, watchdog); every other block works.
//
// Adaptive load balancing (4.2): an item goes to one of three workload lists by its light-arc
// count: small (<= beta) one thread (whose warp relaxes its 32 rows' arcs together), middle
// (<= alpha) one warp, large one block; a row of more
// than chunk_arcs light arcs becomes ceil(arcs / chunk_arcs) items of one block each, the
// paper's "floor(n / 4096) Block threads". Instead of dynamic parallelism the worker blocks stay
// resident and take batches of the three granularities from the lists themselves (fetch-and-adds
// on a list's counters, try_take): the child work runs in blocks that are already resident,
// with no launch latency and no device-runtime (-rdc) build.
//
// Bucket-aware asynchrony (4.3): a vertex improved into the current bucket is pushed at once
// into the list of its class and may be relaxed again in the same phase; there is no barrier
// between "iterations". A per-vertex flag keeps a vertex from being queued again while an item
// of it waits: the pusher sets it, the worker clears it before it reads the distance. A split
// row's chunks are queued together under the one flag, which each chunk's worker clears (an older
// batch's chunk may clear a newer batch's: that only queues the row again). The invariant: an
// improvement that finds the flag set is read by every chunk of the batch queued by the flag's
// last setting, none of which has cleared it yet. It needs every access to the flag to be a
// read-modify-write (fetch_or, fetch_and), so that the clears read from the improvement's; a
// half-scanned row is otherwise scanned again in full. A full list stops the phase
// (status_overflow); the host grows the lists and redoes it.
//
// Memory ordering (cuda::atomic_ref, device scope): a pusher lowers dist[v] (relaxed
// atomicMin), takes v's flag (fetch_or, acq_rel), reserves a list position (relaxed fetch_adds on
// the tail and `ready`) and release-stores the item into its slot; a worker acquires the slot,
// clears the flag (fetch_and, acq_rel) and only then loads dist[v]. So an improvement either
// finds the flag clear and queues v, or finds it set, in which case the flag's clearing comes
// later in its modification order and the worker's distance load sees the improvement. Termination: a worker
// adds a batch to `done` (release, after a fence and a barrier) only after every push of the
// batch reserved its position; the manager acquires `done` before reading the tails, so
// done == sum(tails) proves that no item is outstanding and none can appear.
#pragma once

#include <cuda/atomic>

#include "operators.cuh"
#include "persistent.cuh"
#include "policy.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail::rdbs {

using namespace persistent;

// Section 4.2's alpha and beta, its 4096-arc block, and the kernel's shape (policy.hpp).
using policy::rdbs::alpha_arcs, policy::rdbs::beta_arcs, policy::rdbs::chunk_arcs,
    policy::rdbs::min_blocks_per_sm, policy::rdbs::threads_per_block;
inline constexpr unsigned warps_per_block = threads_per_block / 32;

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

// Cumulative over the solve. wait_ns / work_ns: worker blocks' time looking for a batch / relaxing
// one (thread 0's global timer, summed over blocks).
struct work_counters {
  unsigned long long items, arcs, threads, batches, small, middle, large;
  unsigned long long wait_ns, work_ns;
};

// A workload list: positions only grow within a phase (no wrap-around), slots hold `empty` until
// written and are reset to `empty` by the worker that takes them, so the next phase finds the
// used prefix clean without a memset. Takers claim a count from `ready` before they take
// positions from `head`: both are fetch-and-adds, which always succeed, where a compare-and-swap
// on the head let one of hundreds of contending blocks through per round trip to L2.
template <class T>
struct work_list {
  T* slots;
  unsigned long long capacity;
  unsigned long long* head;   // next position to take
  unsigned long long* tail;   // next position to reserve (may pass capacity: overflow)
  unsigned long long* ready;  // reserved positions not yet claimed (as a signed count)
};

// Small and middle items are vertex ids; a large item is (chunk << 32) | vertex.
template <class W>
struct phase_args {
  csr_view<W> a;
  const arc_index* split;  // first heavy arc of each row
  W* dist;
  // Bit v % 32 of word v / 32: set by a push of v, cleared by each of its items' workers (a bit,
  // not a word, a vertex: issue 36's memory budget on road networks).
  unsigned* queued;
  work_list<vertex> small, middle;
  work_list<unsigned long long> large;
  phase_state* state;
  work_counters* counters;
  W hi;  // the current bucket's upper end (exclusive; infinity: open)
  unsigned long long watchdog_ns;
  unsigned idle_sleep_ns;  // a worker that found nothing sleeps up to this long between looks
};

// ---------------------------------------------------------------------------------------------
// Pushes (section 4.3: straight into the list of the vertex's class).

template <class T>
__device__ __forceinline__ void publish(const work_list<T>& l, unsigned long long p, T item,
                                        phase_state* state) {
  if (p >= l.capacity) {
    // The list is full: the item is lost, so the phase is void; the host redoes it.
    int expected = status_running;
    device_atomic<int>(state->status)
        .compare_exchange_strong(expected, status_overflow, memory_order_relaxed);
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
  // acq_rel: pairs with the worker's clearing fetch_and (see the header).
  const unsigned bit = 1u << (v % 32);
  if (device_atomic<unsigned>(k.queued[v / 32]).fetch_or(bit, memory_order_acq_rel) & bit) return;
  if (light > chunk_arcs) {
    // A split row: all its chunks, under the one flag (see the header).
    const unsigned long long chunks = (light + chunk_arcs - 1) / chunk_arcs;
    const unsigned long long p =
        device_atomic<unsigned long long>(*k.large.tail).fetch_add(chunks, memory_order_relaxed);
    device_atomic<unsigned long long>(*k.large.ready).fetch_add(chunks, memory_order_relaxed);
    for (unsigned long long c = 0; c < chunks; ++c) publish(k.large, p + c, (c << 32) | v, k.state);
    return;
  }
  const int cls = light <= beta_arcs ? kind_small : light <= alpha_arcs ? kind_middle : kind_large;
  // Lanes of a warp pushing to the same list share one reservation.
  const work_list<vertex>& fine = cls == kind_small ? k.small : k.middle;
  unsigned long long* tail = cls == kind_large ? k.large.tail : fine.tail;
  unsigned long long* ready = cls == kind_large ? k.large.ready : fine.ready;
  const unsigned long long p = reserve_grouped(tail, cls, ready);
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
  if (nd < load_relaxed(&k.dist[v])) {
    const W old = atomic_min(&k.dist[v], nd);
    if (nd < old && nd < k.hi) push_vertex(k, v);
  }
}

// ---------------------------------------------------------------------------------------------
// Taking work (section 4.2: each list at its own granularity).

// A batch of up to `most` positions of list l, sized so that the workers share what is there:
// a claim on `ready` (given back in part when less was there), then as many positions from the
// head, every one of them reserved by a pusher (it counted it in `ready`). Relaxed: the items
// come through their slots (take_slot).
template <class T>
__device__ unsigned try_take(const work_list<T>& l, unsigned most, unsigned workers,
                             unsigned long long& first) {
  device_atomic<long long> ready(*reinterpret_cast<long long*>(l.ready));
  const long long there = ready.load(memory_order_relaxed);
  if (there <= 0) return 0;
  // An equal share, but never less than a quarter of a full batch while there is that much:
  // with hundreds of workers and a few dozen items, shares of one item each had every block
  // contend for the lists to run one item on one thread.
  const long long share = (there + workers - 1) / workers;
  const long long floor = min(there, (long long)(most + 3) / 4);
  const long long want = min(max(max(share, floor), 1ll), (long long)most);
  const long long before = ready.fetch_sub(want, memory_order_relaxed);
  const long long got = before <= 0 ? 0 : min(before, want);
  if (got < want) ready.fetch_add(want - got, memory_order_relaxed);
  if (got == 0) return 0;
  first = device_atomic<unsigned long long>(*l.head).fetch_add(got, memory_order_relaxed);
  // Positions past the capacity held items that were lost: their pusher stops the phase
  // (status_overflow, publish), which the caller's loop sees soon.
  if (first >= l.capacity) return 0;
  return static_cast<unsigned>(min((unsigned long long)got, l.capacity - first));
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
  device_atomic<unsigned>(queued[v / 32]).fetch_and(~(1u << (v % 32)), memory_order_acq_rel);
}

// ---------------------------------------------------------------------------------------------
// The worker's phases.

// A worker block's shared memory: its batch, and for a block item its row's chunk.
template <class W>
struct worker_shared {
  int kind;
  unsigned count;
  unsigned long long first;
  W du;
  arc_index begin, end;
};

// Items and batches one worker block took (thread 0), and arcs one thread scanned.
struct worker_tally {
  unsigned long long arcs = 0;
  unsigned long long small = 0, middle = 0, large = 0, batches = 0;
  unsigned long long wait_ns = 0, work_ns = 0;
};

// Thread 0 takes a batch, block items first (they are the longest: starting them early
// shortens the phase's tail), then middle, then small, and for a block item reads its chunk;
// the block shares it. kind_exit: the phase is over.
template <class W>
__device__ __forceinline__ void take_batch(const phase_args<W>& k, unsigned workers,
                                           worker_shared<W>& s) {
  if (threadIdx.x != 0) return;
  device_atomic<int> status(k.state->status);
  int kind = kind_exit;
  unsigned count = 0;
  unsigned long long first = 0;
  for (unsigned spins = 0;; ++spins) {
    if (status.load(memory_order_relaxed) != status_running) break;
    if ((count = try_take(k.large, 1u, workers, first)) != 0) {
      kind = kind_large;
      break;
    }
    if ((count = try_take(k.middle, warps_per_block, workers, first)) != 0) {
      kind = kind_middle;
      break;
    }
    if ((count = try_take(k.small, unsigned(threads_per_block), workers, first)) != 0) {
      kind = kind_small;
      break;
    }
    // Doubling sleeps: hundreds of idle blocks reading the lists' ends would otherwise keep
    // their cache line busy for the pushers and takers that have work.
    __nanosleep(min(32u << min(spins, 16u), k.idle_sleep_ns));
  }
  if (kind == kind_large) {
    const unsigned long long item = take_slot(k.large, first, k.state, empty_chunk);
    arc_index begin = 0, end = 0;
    W du{};
    if (item != empty_chunk) {
      const vertex v = static_cast<vertex>(item & 0xffffffffull);
      const unsigned long long chunk = item >> 32;
      const arc_index row = k.a.row_offsets[v], light_end = k.split[v];
      unqueue(k.queued, v);
      du = load_relaxed(&k.dist[v]);
      begin = row + chunk * chunk_arcs;
      end = begin + chunk_arcs < light_end ? begin + chunk_arcs : light_end;
    }
    s.du = du;
    s.begin = begin;
    s.end = end;
  }
  s.kind = kind;
  s.count = count;
  s.first = first;
}

// Small items: one thread per row takes it, and its warp relaxes the 32 rows' arcs together, a
// lane per arc of their concatenation. The paper's parent thread walks its row alone; rows of a
// few arcs each then leave most lanes idle for the longest row's loop, with a load per lane
// scattered over 32 rows.
template <class W>
__device__ __forceinline__ void relax_small_rows(const phase_args<W>& k, unsigned long long first,
                                                 unsigned count, worker_tally& n) {
  const unsigned tid = threadIdx.x, lane = tid & 31;
  W du{};
  arc_index b = 0, e = 0;
  if (tid < count) {
    const vertex v = take_slot(k.small, first + tid, k.state, empty_vertex);
    if (v != empty_vertex) {
      unqueue(k.queued, v);
      du = load_relaxed(&k.dist[v]);
      b = k.a.row_offsets[v];
      e = k.split[v];
    }
  }
  n.arcs += e - b;
  // end = the lanes' arcs up to and including this lane's row (an inclusive warp scan)
  const unsigned length = unsigned(e - b);  // <= beta_arcs: the list of rows that short
  unsigned end = length;
  for (unsigned o = 1; o < 32; o *= 2) {
    const unsigned before = __shfl_up_sync(~0u, end, o);
    if (lane >= o) end += before;
  }
  const unsigned total = __shfl_sync(~0u, end, 31);
  for (unsigned base = 0; base < total; base += 32) {
    const unsigned j = base + lane;
    unsigned r = 0;  // the first lane whose rows end past arc j
    for (unsigned step = 16; step; step >>= 1)
      if (__shfl_sync(~0u, end, r + step - 1) <= j) r += step;
    const arc_index row_begin = __shfl_sync(~0u, b, r);
    const unsigned row_first = __shfl_sync(~0u, end - length, r);
    const W d = __shfl_sync(~0u, du, r);
    if (j < total) relax(k, d, row_begin + (j - row_first));
  }
  if (tid == 0) n.small += count;
}

// Middle items: one warp per row, lane 0 taking the item.
template <class W>
__device__ __forceinline__ void relax_middle_rows(const phase_args<W>& k, unsigned long long first,
                                                  unsigned count, worker_tally& n) {
  const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  if (warp < count) {
    vertex v = empty_vertex;
    W du{};
    arc_index b = 0, e = 0;
    if (lane == 0) {
      v = take_slot(k.middle, first + warp, k.state, empty_vertex);
      if (v != empty_vertex) {
        unqueue(k.queued, v);
        du = load_relaxed(&k.dist[v]);
        b = k.a.row_offsets[v];
        e = k.split[v];
      }
    }
    du = __shfl_sync(~0u, du, 0);
    b = __shfl_sync(~0u, b, 0);
    e = __shfl_sync(~0u, e, 0);
    for (arc_index x = b + lane; x < e; x += 32) relax(k, du, x);
    if (lane == 0) n.arcs += e - b;
  }
  if (tid == 0) n.middle += count;
}

// A large item: the whole block over one chunk of a row.
template <class W>
__device__ __forceinline__ void relax_row_chunk(const phase_args<W>& k, const worker_shared<W>& s,
                                                unsigned count, worker_tally& n) {
  const unsigned tid = threadIdx.x;
  const W du = s.du;
  const arc_index b = s.begin, e = s.end;
  for (arc_index x = b + tid; x < e; x += threads_per_block) relax(k, du, x);
  if (tid == 0) {
    n.arcs += e - b;
    n.large += count;
  }
}

// Every push of this batch reserved its position before the batch counts as done: fence,
// barrier, then one release RMW (the termination argument in the header).
template <class W>
__device__ __forceinline__ void batch_done(const phase_args<W>& k, unsigned count,
                                           worker_tally& n) {
  cuda::atomic_thread_fence(memory_order_release, cuda::thread_scope_device);
  __syncthreads();
  if (threadIdx.x == 0) {
    device_atomic<unsigned long long>(k.state->done).fetch_add(count, memory_order_release);
    ++n.batches;
  }
}

// Statistics: one atomic per warp for the arcs, thread 0 for the rest.
template <class W>
__device__ __forceinline__ void publish_tally(const phase_args<W>& k, worker_tally n) {
  for (int o = 16; o; o >>= 1) n.arcs += __shfl_down_sync(~0u, n.arcs, o);
  if ((threadIdx.x & 31) == 0 && n.arcs) atomicAdd(&k.counters->arcs, n.arcs);
  if (threadIdx.x == 0) {
    atomicAdd(&k.counters->items, n.small + n.middle + n.large);
    atomicAdd(&k.counters->threads, n.small + 32 * n.middle + threads_per_block * n.large);
    atomicAdd(&k.counters->batches, n.batches);
    atomicAdd(&k.counters->small, n.small);
    atomicAdd(&k.counters->middle, n.middle);
    atomicAdd(&k.counters->large, n.large);
    atomicAdd(&k.counters->wait_ns, n.wait_ns);
    atomicAdd(&k.counters->work_ns, n.work_ns);
  }
}

// A worker block: batches until the phase is over.
template <class W>
__device__ void worker(const phase_args<W>& k, unsigned workers) {
  __shared__ worker_shared<W> s;
  worker_tally n;
  unsigned long long clock = threadIdx.x == 0 ? global_ns() : 0;
  for (;;) {
    take_batch(k, workers, s);
    __syncthreads();
    const int kind = s.kind;
    const unsigned count = s.count;
    const unsigned long long first = s.first;
    if (threadIdx.x == 0) {
      const unsigned long long now = global_ns();
      n.wait_ns += now - clock;
      clock = now;
    }
    if (kind == kind_exit) break;
    if (kind == kind_small)
      relax_small_rows(k, first, count, n);
    else if (kind == kind_middle)
      relax_middle_rows(k, first, count, n);
    else
      relax_row_chunk(k, s, count, n);
    batch_done(k, count, n);
    if (threadIdx.x == 0) {
      const unsigned long long now = global_ns();
      n.work_ns += now - clock;
      clock = now;
    }
  }
  publish_tally(k, n);
}

// The manager (block 0, thread 0): the phase is finished when every reserved item is done,
// stopped by the watchdog past watchdog_ns.
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

}  // namespace tropic::detail::rdbs
