// ADDS: asynchronous dynamic delta-stepping (Wang, Fussell, Lin, "Asynchronous Dynamic
// Delta-Stepping", PPoPP'21, section 5), written from the paper for tropic's device matrix.
//
// One persistent cooperative kernel. Block 0 is the manager (MTB); every other block is a worker
// (WTB). Workers never read the queue metadata: the MTB finds written items (WCC scan), hands
// chunks of them to idle workers through per-worker assignment flags, retires the head bucket
// when its completed-work counter reaches its reservation pointer, maps and frees pool blocks,
// and moves delta. Workers relax the rows of their chunk and push improved vertices straight
// into the bucket of their new distance. See adds_queue.cuh for the queue and its protocol.
//
// Work item = vertex id. A worker reads the vertex's current distance d and skips the item when
// the vertex was already relaxed at a distance <= d (`processed`: a load, then an atomic min only
// for the items that pass it): the duplicates a label-correcting queue collects cost a load or
// one atomic instead of a row scan. (Keeping them out of the queue instead, with a per-vertex
// mark of the item waiting, doubled the rows scanned on Kronecker graphs: see worker().)
// Inside a WTB, a block-wide scan of the row lengths spreads a round's arcs evenly over the
// threads whatever the degrees (worker()).
//
// Two additions of ours to the paper's scheme, both for the hop latency of high-diameter graphs
// (a pushed item waits for the MTB's next sweep, then for its assignment): the sweep is laid
// out as a few rounds of loads in flight together, with no device-scope fence on its path
// (manager()); and a WTB whose chunk lowered only a handful of vertices into its own bucket
// relaxes them itself, and what they lower, in up to adds_tuning::local_rounds further rounds
// of a block-local queue (local_rounds()), which cut USA-road-NY from 10.0 to 2.8 ms and the
// 2048^2 grid from 46.8 to 12.0 (H100; two versions, each measured against the one before).
//
// Section 5.5's knobs (open buckets, utilisation limits, settling, clipping, chunk sizes) are
// run-time values, adds_tuning in adds_config.cuh (defaults in policy.hpp); an optional ring of
// adds_trace_entry records the MTB's delta decisions (adds_config::trace_capacity, or
// options.verbose).
//
// Memory ordering: every cross-block handshake is a release store / RMW paired with an acquire
// load at device scope (cuda::atomic_ref), or with relaxed loads followed by one acquire fence
// (cuda::atomic_thread_fence, where the MTB polls many flags at once); distances are read with
// relaxed atomic loads and lowered with detail::atomic_min. Comments at each site say which
// invariant the order protects.
//
// Limits: vertex ids are 32-bit (tropic::vertex); queue positions 64-bit (never wrap); weights
// must be non-negative (the dispatcher checks). The co-residency of all blocks is guaranteed by
// the cooperative launch, whose grid we size with the occupancy API.
#include <cooperative_groups.h>

// The MTB's warp reductions (__reduce_min_sync, __reduce_add_sync) need sm_80 or newer.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "algorithms/adds.cu needs sm_80 or newer (CMAKE_CUDA_ARCHITECTURES 80 or above)"
#endif
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "adds_queue.cuh"
#include "device_loop.cuh"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/error.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {

namespace adds {
namespace {

namespace cg = cooperative_groups;
using cuda::memory_order_acquire;
using cuda::memory_order_relaxed;
using cuda::memory_order_release;

template <class T>
using device_atomic = cuda::atomic_ref<T, cuda::thread_scope_device>;

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

template <class W>
__device__ __forceinline__ W load_distance(W* p) {
  return device_atomic<W>(*p).load(memory_order_relaxed);
}

// ---------------------------------------------------------------------------------------------
// Worker side.

struct head_view {
  unsigned slot;
  double base, delta;
  // The assignment's bucket, as an offset from slot. The head can not pass it before the chunk
  // is reported complete, after its local rounds (worker()).
  unsigned span;
};

// Bucket offset of distance d from the head, clipped into the last bucket. NaN (infinite delta
// and base) and negatives land in the head.
template <class W>
__device__ __forceinline__ unsigned bucket_offset(W d, const head_view& h) {
  const double rel = (static_cast<double>(d) - h.base) / h.delta;
  return !(rel > 0) ? 0u : rel >= num_buckets - 1 ? num_buckets - 1 : unsigned(rel);
}

// Bucket for distance d relative to the head.
//
// h is the head when the assignment was handed out; the MTB may retire buckets while the chunk
// runs (up to, never past, the chunk's own bucket, whose CWC still lacks this chunk). A
// distance below the chunk's bucket (a vertex lowered since it was queued, the rework that
// several open buckets cause) can map to such a retired slot, which is now the far end of the
// ring: the item would wait ~num_buckets - max_open_buckets head switches while its
// descendants are reached by worse paths and redone. Those few pushes (offset < span only)
// check the current head and go to it instead. Only the bucket changes, never the protocol:
// any bucket is correct, and a stale or racing load just files the item as before.
template <class W>
__device__ __forceinline__ unsigned bucket_for(W d, const head_view& h, control* ctl) {
  const unsigned r = bucket_offset(d, h);
  if (r < h.span) {
    const unsigned cur = device_atomic<unsigned>(ctl->head_slot).load(memory_order_relaxed);
    const unsigned adv = (cur - h.slot) & (num_buckets - 1);  // head switches since the view
    if (r < adv && adv <= h.span) return cur;
  }
  return (h.slot + r) & (num_buckets - 1);
}

// Appends v to bucket `slot`. Lanes of a warp pushing to the same bucket share one reservation.
__device__ __forceinline__ void push(const queue_ref& q, unsigned slot, vertex v) {
  cg::coalesced_group active = cg::coalesced_threads();
  cg::coalesced_group same = cg::labeled_partition(active, slot);
  unsigned long long base = 0;
  // Relaxed: the reservation only has to be unique; its visibility to the termination test is
  // carried by the WTB's release on completed[] after the chunk (see worker()).
  if (same.thread_rank() == 0)
    base = device_atomic<unsigned long long>(q.resv[slot]).fetch_add(same.size(),
                                                                    memory_order_relaxed);
  base = same.shfl(base, 0);
  const unsigned long long p = base + same.thread_rank();
  // Acquire pairs with the MTB's release of mapped[]: the table entry and the zeroed WCCs of the
  // block holding p are visible before we use them.
  device_atomic<unsigned long long> mapped(q.mapped[slot]);
  device_atomic<int> status(q.ctl->status);
  for (unsigned spins = 0; mapped.load(memory_order_acquire) <= p; ++spins) {
    if ((spins & 31) == 31 && status.load(memory_order_relaxed) != status_running) return;
    __nanosleep(200);
  }
  const unsigned blk = q.block_of(slot, p);
  q.pool[static_cast<std::size_t>(blk) * block_items + p % block_items] = v;
  // Release: the item store above is visible to whoever acquires this count (the MTB's scan)
  // before it counts the slot as written.
  device_atomic<unsigned>(q.wcc[static_cast<std::size_t>(blk) * segments_per_block +
                                (p % block_items) / segment_items])
      .fetch_add(1, memory_order_release);
}


// The head as the MTB last published it, and `bucket`'s offset from it. Three relaxed loads: a
// view torn by a concurrent retire or delta change only files items in another bucket, which
// any bucket allows (the order suffers, never the answer).
__device__ __forceinline__ head_view load_head(control* ctl, unsigned bucket) {
  head_view h;
  h.slot = device_atomic<unsigned>(ctl->head_slot).load(memory_order_relaxed);
  h.base = device_atomic<double>(ctl->head_base).load(memory_order_relaxed);
  h.delta = device_atomic<double>(ctl->delta).load(memory_order_relaxed);
  h.span = (bucket - h.slot) & (num_buckets - 1);
  return h;
}

// Local rounds: the rows a WTB keeps to relax itself after its chunk (local_rounds()). Two
// queues, one read while the other fills; held[q] counts every row offered to queue q, also
// those beyond its capacity (the stopping rule reads it).

template <class W>
struct local_queue {
  closure_item<W> items[2][local_capacity];
  unsigned held[2];
};

// Offers `item` to queue q; false when the queue is full (the caller pushes it instead).
template <class W>
__device__ __forceinline__ bool keep(local_queue<W>& lq, int q, const closure_item<W>& item) {
  const unsigned slot = append_slot(&lq.held[q]);
  if (slot >= local_capacity) return false;
  lq.items[q][slot] = item;
  return true;
}

// A WTB's local rounds (ours, not the paper's), after its chunk's rounds: the rows its chunk
// lowered into the chunk's own bucket (queue 0; also queued as usual) are relaxed by this
// block, and what those rows lower into the same bucket makes the next round, and so on: on a
// thin wavefront (a road network's, a mesh's) a hop then costs a block barrier and two round
// trips to memory instead of an MTB round trip (about two sweeps), a push and a row-length scan.
//
// A round is one push_row per kept row, a group of k.local_lanes lanes each (delta-stepping's
// light closure does the same, semiring/device_loop.cuh): the row's arcs are loaded beside its
// vertex's distance, and each target's row bounds beside its atomic, so a target kept for the
// next round needs no further load. Rows lowered in the local rounds are held by this block
// alone (not queued) while they stay here; rows for other buckets, long rows and rows beyond
// the queue's capacity are pushed at once, and whatever is still held when the rounds stop is
// pushed then, unless its vertex has fallen further since (whoever lowered it holds it). The
// chunk is reported complete only after its local rounds (worker()), so its bucket, which the
// held rows belong to, is still the head or behind it: the chunk's view of the head files them.
//
// The rounds stop after adds_tuning::local_rounds rounds, or when a round offers more rows than
// adds_tuning::local_passes passes of the block's lane groups take: a wavefront widening
// faster than one block relaxes it (a Kronecker or random graph's) is spread better by the
// queue over the idle WTBs.
//
// A kept row is skipped when its vertex has fallen below the row's value (superseded: the one
// that lowered it holds it) or was relaxed at a distance no larger than the row's already (its
// queued copy, taken by another WTB first: `processed`); a relaxed row lowers `processed` to its
// value, so that its queued copies are skipped on arrival. The two loads go beside the row's
// arcs; the store is a reduction nobody waits for.
template <class W>
__device__ void local_rounds(const kernel_args<W>& k, local_queue<W>& lq, const head_view& h,
                             unsigned bucket, unsigned long long& my_vertices,
                             unsigned long long& my_arcs) {
  const unsigned tid = threadIdx.x, lanes = k.local_lanes, lane = tid % lanes;
  const unsigned group_mask = lanes == 32 ? ~0u : ((1u << lanes) - 1u) << (tid % 32 / lanes * lanes);
  const unsigned width = k.tuning.local_passes * (threads_per_block / lanes);
  constexpr W lowest = std::numeric_limits<W>::lowest();
  const closure_args<W> c{k.a, row_ranges{k.a.row_offsets, nullptr, row_part::all}, k.dist,
                          {},  {}, nullptr, nullptr, {}};
  const value_range<W> any_value{};  // every improvement is kept or pushed
  const auto hold = [&](int q, const closure_item<W>& item) {
    const unsigned slot = bucket_for(item.x, h, k.q.ctl);
    if (slot == bucket && item.last - item.first <= local_row_limit && keep(lq, q, item)) return;
    push(k.q, slot, item.v);
  };
  int out = 0;
  for (unsigned round = 0;; ++round) {
    __syncthreads();  // queue `out` is written; the other one, read last round, is free
    const unsigned held = lq.held[out];
    if (held == 0) break;
    const unsigned filled = min(held, local_capacity);
    const int in = out;
    out ^= 1;
    if (tid == 0) lq.held[out] = 0;
    __syncthreads();  // every thread has read held[in] and sees held[out] == 0
    if (round == k.tuning.local_rounds || held > width) {
      // Round 0's rows (the chunk's) are queued already; a later round's are held here only.
      if (round > 0) {
        for (unsigned i = tid; i < filled; i += threads_per_block) {
          const closure_item<W> item = lq.items[in][i];
          if (!(load_distance(&k.dist[item.v]) < item.x))
            push(k.q, bucket_for(item.x, h, k.q.ctl), item.v);
        }
      }
      break;
    }
    for (unsigned i = tid / lanes; i < filled; i += threads_per_block / lanes) {
      closure_item<W> item = lq.items[in][i];
      if (round == 0) {  // the chunk's rows come without their bounds
        item.first = k.a.row_offsets[item.v];
        item.last = k.a.row_offsets[item.v + 1];
      }
      const W relaxed_at = load_distance(&k.processed[item.v]);
      const W now = load_distance(&k.dist[item.v]);
      // push_row skips the row when `now` is below its value: a row relaxed at or below the
      // value already is skipped the same way, and so is a long row of the chunk's (its queued
      // copy goes to a whole WTB). The group takes its first lane's view: its lanes need not
      // run together (a push waits for storage), and a lane that loaded `processed` after the
      // first lane's reduction below would skip its arcs of the row.
      const bool relax = item.x < relaxed_at && item.last - item.first <= local_row_limit;
      const W gate = __shfl_sync(group_mask, relax ? now : lowest, 0, lanes);
      // `lowest` skips only rows above it: a row at distance 0 of an unsigned W asks the flag
      // itself (the test on item.x comes first, so other rows never wait for the shuffle).
      if (item.x == lowest && !__shfl_sync(group_mask, relax, 0, lanes)) continue;
      push_row<min_plus<W>>(c, item, gate, false, lane, lanes, any_value,
                            [&](const closure_item<W>& next) { hold(out, next); });
      if (lane == 0 && !(gate < item.x)) {
        atomic_min(&k.processed[item.v], item.x);
        ++my_vertices;
        my_arcs += item.last - item.first;
      }
    }
  }
}

// A WTB waits for an assignment (a chunk of one bucket), then works it in rounds of one item
// per thread: each thread checks its item (skipping a vertex already relaxed at its current
// distance), a block-wide scan of the row lengths lays the round's arcs out end to end, and the
// threads stride over them (Davidson et al.'s load-balanced partitioning, within one block), so
// that rows of any length keep every lane busy. Each thread issues the loads of arc_batch arcs
// before it uses any of them: the loop is latency-bound. Hub rows go last, the whole block on
// each in turn, after the rest of the round.
//
// Measured on the H100 (2026-11-24; bench/results/2026-11-24-h100-run15/sweeps/ab-6-push-order.txt,
// the variants in the run14 folder's sweeps): against the former worker (a thread per short
// row, a warp per row of 32+ arcs, the block per row of 2048+) cnr-2000 4.15 -> 2.41 ms,
// soc-Slashdot 1.26 -> 0.79, kron-20 7.5 -> 5.3, grid 2048^2 71.7 -> 65.7, USA-road-NY 16.0 ->
// 14.7, kron-22 21.9 -> 21.2, kron-24 85 -> 85, uniform-4M 8.4 -> 8.2. Without the per-lane push
// order below, kron-22 took 23.4 and uniform-4M 8.9.
// Rounds of 4 items per thread with the hubs in scan order among the rest scanned 20% more rows
// on kron-22 (4.0-4.3M against 3.4M; 32-34 ms).
//
// Local rounds (adds_tuning::local_rounds; local_rounds() above): without them, a road
// network's wavefront advanced one hop per MTB round trip, about two sweeps (USA-road-NY: ~2000
// sweeps at any delta from 1x to 8x the heuristic's). Their first version (bench/results/
// 2026-11-24-h100-run16/sweeps/ab-local-rounds.txt) queued every vertex it lowered as well and
// ran each local round like a chunk's (the checks, a row-length scan, pushes): USA-road-NY 10.0
// -> 5.4 ms, grid 2048^2 46.8 -> 26.9, mdual 2.53 -> 1.64. The second (run17/sweeps/
// ab-local-closure-*.txt, H100, one call) holds what the rounds lower in shared memory only,
// with the row bounds, and relaxes it like delta-stepping's light closure: USA-road-NY 5.40 ->
// 2.83 ms, grid 2048^2 24.8 -> 12.0, mdual 1.47 -> 0.72, kron-22 18.6 -> 18.2, uniform-4M 6.36
// -> 6.17, cnr-2000 1.29 -> 1.35, soc-Slashdot 0.64 -> 0.67; delta-stepping took 3.39, 12.8 and
// 1.28 ms on the first three in the same call. Two things it needed: the chunk is reported
// complete after its local rounds (reported before them, the MTB retired buckets whose rows a
// WTB held: uniform-4M 6.4 -> 14 ms), and the chunk's rows are kept without their bounds
// (loading them for every row kept cost kron-22 10%: most are never relaxed locally).
//
// Duplicates (a vertex queued again before its item is picked up) are skipped on arrival, not
// kept out of the queue. A per-vertex mark of the item waiting, which dropped a lowering whose
// vertex already had an item in the same bucket, cut kron-22's queued items from 15M to 8M but
// scanned 6.2-6.6M rows instead of 3.4M (22 -> 30-35 ms; grid 71 -> 76): the duplicates are
// cheap to skip, and while they pass through the workers, fewer real rows are in flight at
// once, which is what keeps a wide bucket's label-correcting rework down.
template <class W>
__device__ void worker(const kernel_args<W>& k) {
  using block_scan = cub::BlockScan<arc_index, threads_per_block>;
  __shared__ typename block_scan::TempStorage s_scan;
  __shared__ unsigned s_state, s_bucket, s_count;
  __shared__ unsigned long long s_start;
  __shared__ head_view s_head;
  // The round's rows in scan order: their first arc's position in the round (s_first), the
  // arc index minus that position (s_shift), and the distance they are relaxed at.
  __shared__ arc_index s_first[threads_per_block], s_shift[threads_per_block];
  __shared__ W s_du[threads_per_block];
  // The round's hub rows: vertex and distance.
  __shared__ unsigned s_hubs;
  __shared__ vertex s_hub_u[threads_per_block];
  __shared__ W s_hub_d[threads_per_block];
  // The rows kept for the local rounds.
  __shared__ local_queue<W> s_local;

  const unsigned w = blockIdx.x - 1;
  const unsigned tid = threadIdx.x, lane = tid & 31;
  unsigned long long my_vertices = 0, my_arcs = 0, my_skipped = 0;
  // Thread 0's cycle counts: the whole loop and its waits for an assignment.
  const long long loop_start = clock64();
  unsigned long long wait_cycles = 0;
  if (tid == 0) s_hubs = 0;

  for (;;) {
    if (tid == 0) {
      const long long wait_start = clock64();
      device_atomic<unsigned long long> flag(k.af[w]);
      device_atomic<int> status(k.q.ctl->status);
      unsigned long long a;
      // Acquire pairs with the MTB's release of the assignment word: what the MTB saw before
      // handing out the chunk (the WCC counts of its items, so the items) is visible.
      for (unsigned spins = 0; af_state_of(a = flag.load(memory_order_acquire)) == af_idle;
           ++spins) {
        if ((spins & 63) == 63 && status.load(memory_order_relaxed) != status_running) {
          a = af_exit;
          break;
        }
        __nanosleep(spins < 64 ? 32 : 256);
      }
      wait_cycles += clock64() - wait_start;
      const unsigned st = af_state_of(a);
      s_state = st;
      if (st == af_assigned) {
        s_bucket = af_bucket_of(a);
        s_count = af_count_of(a);
        s_start = af_start_of(a);
        s_head = load_head(k.q.ctl, s_bucket);
        s_local.held[0] = s_local.held[1] = 0;
      }
    }
    __syncthreads();
    if (s_state != af_assigned) break;
    const unsigned bucket = s_bucket, count = s_count;
    const unsigned long long start = s_start;
    const head_view h = s_head;
    const bool local = k.tuning.local_rounds > 0;
    // x, just lowered to d by the chunk's rounds, is pushed into the bucket of d; when that is
    // the chunk's own bucket it is also kept for the local rounds (its row bounds are loaded
    // there: most of what a Kronecker graph's chunk keeps is never relaxed locally, and loading
    // them here cost kron-22 10%).
    const auto enqueue = [&](W d, vertex x) {
      const unsigned slot = bucket_for(d, h, k.q.ctl);
      push(k.q, slot, x);
      if (local && slot == bucket) keep(s_local, 0, {x, d, 0, 0});
    };

    // The chunk's rounds: one item per thread, a block-wide scan of the row lengths, the arcs
    // spread over the threads (see above).
    for (unsigned round = 0; round < count; round += threads_per_block) {
      W du{};
      arc_index first = 0, length = 0;
      if (round + tid < count) {
        const unsigned long long p = start + round + tid;
        const vertex u = k.q.pool[static_cast<std::size_t>(k.q.block_of(bucket, p)) *
                                      block_items + p % block_items];
        du = load_distance(&k.dist[u]);
        // Skip when u's row was (or is being) relaxed at du or less already: those relaxations
        // cover everything this one would do, so duplicates at an equal distance go too. The
        // relaxed load first spares most duplicates the atomic.
        if (!(du < load_distance(&k.processed[u])) ||
            !(du < atomic_min(&k.processed[u], du))) {
          ++my_skipped;
        } else {
          first = k.a.row_offsets[u];
          length = k.a.row_offsets[u + 1] - first;
          ++my_vertices;
          my_arcs += length;
          if (length >= hub_row) {
            const unsigned slot = atomicAdd(&s_hubs, 1u);
            s_hub_u[slot] = u;
            s_hub_d[slot] = du;
            length = 0;
          }
        }
      }
      arc_index offset, total;
      block_scan(s_scan).ExclusiveSum(length, offset, total);
      s_first[tid] = offset;
      s_shift[tid] = first - offset;  // modulo 2^64: arc = s_shift[r] + position
      s_du[tid] = du;
      __syncthreads();
      // Every thread has its copy of the hub count before thread 0 clears it for the next round
      // (whose first atomicAdd comes after the barrier that ends this round).
      const unsigned hubs = s_hubs;
      __syncthreads();
      if (tid == 0) s_hubs = 0;

      // Arc e of the round belongs to the last row r with s_first[r] <= e (empty rows share
      // their position with the next row, which is the one found); a thread's e only grows.
      // The batch's searches all start from the previous batch's row, so they run side by side.
      unsigned r = 0;
      for (arc_index e0 = tid; e0 < total; e0 += arc_batch * threads_per_block) {
        unsigned row[arc_batch];
        vertex v[arc_batch];
        W nd[arc_batch], seen[arc_batch];
#pragma unroll
        for (int b = 0; b < arc_batch; ++b) {
          const arc_index e = e0 + arc_index(b) * threads_per_block;
          unsigned lo = r, hi = threads_per_block;
          while (hi - lo > 1) {
            const unsigned mid = (lo + hi) / 2;
            if (s_first[mid] <= e) lo = mid; else hi = mid;
          }
          row[b] = lo;
        }
#pragma unroll
        for (int b = 0; b < arc_batch; ++b) {
          const arc_index e = e0 + arc_index(b) * threads_per_block;
          v[b] = 0;
          nd[b] = W{};
          if (e < total) {
            const arc_index arc = s_shift[row[b]] + e;
            v[b] = k.a.columns[arc];
            nd[b] = saturating_add(s_du[row[b]], k.a.weights[arc]);
            r = row[b];
          }
        }
#pragma unroll
        for (int b = 0; b < arc_batch; ++b)
          if (e0 + arc_index(b) * threads_per_block < total) seen[b] = load_distance(&k.dist[v[b]]);
        // The batch's atomics all in flight at once; then its pushes, each lane's first one in
        // one warp-wide push, its second (if any) in the next, and so on: a warp pushes as many
        // times as its busiest lane has items, not once per arc of the batch with an item.
        unsigned lowered = 0;
#pragma unroll
        for (int b = 0; b < arc_batch; ++b) {
          if (e0 + arc_index(b) * threads_per_block < total && nd[b] < seen[b])
            seen[b] = atomic_min(&k.dist[v[b]], nd[b]);
          else
            seen[b] = nd[b];
        }
#pragma unroll
        for (int b = 0; b < arc_batch; ++b)
          if (nd[b] < seen[b]) lowered |= 1u << b;
        while (lowered) {
          const int b = __ffs(lowered) - 1;
          lowered &= lowered - 1;
          W d{};
          vertex x{};
#pragma unroll
          for (int c = 0; c < arc_batch; ++c)  // registers, not a local-memory array index
            if (c == b) {
              d = nd[c];
              x = v[c];
            }
          enqueue(d, x);
        }
      }
      // The hubs, one at a time, the block striding over each one's arcs.
      for (unsigned x = 0; x < hubs; ++x) {
        const vertex hu = s_hub_u[x];
        const W hd = s_hub_d[x];
        const arc_index b = k.a.row_offsets[hu], e = k.a.row_offsets[hu + 1];
        for (arc_index arc = b + tid; arc < e; arc += threads_per_block) {
          const vertex v = k.a.columns[arc];
          const W nd = saturating_add(hd, k.a.weights[arc]);
          if (nd < load_distance(&k.dist[v]) && nd < atomic_min(&k.dist[v], nd)) enqueue(nd, v);
        }
      }
      __syncthreads();  // the round's rows and hubs are consumed before the next
    }

    if (local) local_rounds(k, s_local, h, bucket, my_vertices, my_arcs);

    // The chunk is reported complete after its local rounds, which are part of its work: the
    // rows they hold are in no bucket, so the bucket must not retire before they are relaxed
    // or pushed (without that wait, uniform-4M's MTB saw the head bucket empty, retired it and
    // the next ones while a WTB held their rows, and took 14 ms instead of 6.4). Every
    // thread's reservations and item stores happen before the CWC increment (fence + barrier +
    // RMW by thread 0): when the MTB sees the count, it also sees every reservation the chunk
    // made, which the termination test relies on; the idle flag comes after the count. The
    // barrier also orders every thread's last reads of the chunk's shared state before thread
    // 0 writes the next chunk's.
    cuda::atomic_thread_fence(memory_order_release, cuda::thread_scope_device);
    __syncthreads();
    if (tid == 0) {
      device_atomic<unsigned long long>(k.q.completed[bucket]).fetch_add(count,
                                                                      memory_order_release);
      device_atomic<unsigned long long>(k.af[w]).store(af_idle, memory_order_release);
    }
  }

  // Statistics: one atomic per warp.
  for (int o = 16; o; o >>= 1) {
    my_vertices += __shfl_down_sync(~0u, my_vertices, o);
    my_arcs += __shfl_down_sync(~0u, my_arcs, o);
    my_skipped += __shfl_down_sync(~0u, my_skipped, o);
  }
  if (lane == 0) {
    atomicAdd(&k.q.ctl->vertices, my_vertices);
    atomicAdd(&k.q.ctl->arcs, my_arcs);
    atomicAdd(&k.q.ctl->skipped, my_skipped);
  }
  if (tid == 0) {
    atomicAdd(&k.q.ctl->worker_cycles, static_cast<unsigned long long>(clock64() - loop_start));
    atomicAdd(&k.q.ctl->worker_wait_cycles, wait_cycles);
    atomicAdd(&k.q.ctl->workers_exited, 1u);  // heartbeat: this block is out
  }
}

// ---------------------------------------------------------------------------------------------
// Manager side. All MTB threads share the parallel phases (polling the assignment flags,
// scanning WCCs, writing assignment flags); thread 0 alone runs the sequential decisions, which
// touch only shared memory and a few global words per sweep.
//
// The sweep is the latency of the whole queue: an item pushed now is assigned at the earliest
// in the next sweep, and on a high-diameter graph the run is (hops on the longest shortest path)
// x (sweep + chunk) long whatever delta is. So the sweep keeps global round trips off thread 0's
// serial path: the statistics live in shared memory until the end, and thread 0 only plans the
// assignments (which buckets, how many chunks) while the whole block writes the flags, one
// release store per thread in parallel instead of one after another: a release store is a
// device-scope fence, and a serial loop pays one per chunk, hundreds per sweep. (Issue 6: with
// that loop, the 2048^2 grid took ~120 us per hop of its ~5000-hop critical path.)
//
// The phases, timed with clock64 (adds_report::manager_phase_share; bench/results/
// 2026-11-24-h100-run16/sweeps/ab-mtb-sweep.txt): A+B (which workers finished; completed
// counters, then reservation pointers), C (WCC scan of the buckets with new reservations), the
// per-bucket bookkeeping, D1 (thread 0's plan) and D2 (the flags, beside thread 0's knobs and
// memory map). Laid out so that each phase's loads are in flight together, with no same-address
// shared atomics and no device-scope fence (~1 us each on the H100, against ~0.3 us for a load):
// USA-road-NY's sweep 8.0 -> 4.9 us, kron-22's 53 -> 19 us.

// Thread 0's state (a plain aggregate: it lives in __shared__). Only free_top is shared: in
// the bookkeeping, the lanes of warp 0 push freed blocks with atomicAdd on it.
struct manager_state {
  unsigned head;
  int open;
  int idle_sweeps;
  double head_base, delta, delta_floor, delta_ceiling, raise_limit;
  int switches;
  double util_sum;
  unsigned long long util_n, clip_n, held_n;
  unsigned long long last_progress_value, last_progress_ns, start_ns;
  unsigned long long starving_since;
  unsigned free_top;
  // Statistics, published to control at the end.
  unsigned long long sweeps, assignments, retires, delta_changes, max_in_flight, trace_n;
  double delta_min_seen, delta_max_seen;
  unsigned long long phase_cycles[5];  // per sweep phase (control::manager_phase_cycles)
};

// Appends one delta-trace entry (thread 0 only; the ring keeps the last trace_cap).
template <class W>
__device__ void trace_append(const kernel_args<W>& k, manager_state& m, unsigned long long now,
                             unsigned long long progress, unsigned long long queued,
                             unsigned long long in_flight, double hw_threads, int decision) {
  if (k.trace == nullptr) return;
  adds_trace_entry& e = k.trace[m.trace_n % k.trace_cap];
  e.ms = double(now - m.start_ns) * 1e-6;
  e.delta = m.delta;
  e.head_base = m.head_base;
  e.avg_util = m.util_n ? m.util_sum / double(m.util_n) / hw_threads : 0;
  e.held_back_share = m.util_n ? double(m.held_n) / double(m.util_n) : 0;
  e.clip_share = m.util_n ? double(m.clip_n) / double(m.util_n) : 0;
  e.sweep = m.sweeps;
  e.retires = m.retires;
  e.completed = progress;
  e.queued = queued;
  e.in_flight = in_flight;
  e.open = m.open;
  e.decision = decision;
  ++m.trace_n;
}

// Phase C: warp w scans the w-th, (w + manager_warps)-th, ... bucket with new reservations.
inline constexpr int manager_warps = threads_per_block / 32;
static_assert(num_buckets == 32, "phase B and the bookkeeping give each bucket a lane of warp 0");

// ceil(a / b), b > 0. Thread 0's plan divides on every sweep: with 32-bit operands (the common
// case) a short instruction sequence, where a 64-bit division is a long serial one.
__device__ __forceinline__ unsigned long long ceil_div(unsigned long long a, unsigned long long b) {
  if (a < (1ull << 31) && b < (1ull << 31)) return (unsigned(a) + unsigned(b) - 1) / unsigned(b);
  return (a + b - 1) / b;
}

template <class W>
__device__ void manager(const kernel_args<W>& k) {
  __shared__ unsigned long long s_read[num_buckets], s_written[num_buckets], s_freed[num_buckets],
      s_mapped[num_buckets], s_resv[num_buckets], s_cwc[num_buckets], s_minout[num_buckets];
  // The assignment plan of this sweep: plan j hands chunks [first[j], first[j+1]) of the idle
  // list items [start[j], start[j] + items[j]) of bucket bucket[j], `chunk` items each.
  __shared__ unsigned s_plan_bucket[num_buckets], s_plan_first[num_buckets + 1];
  __shared__ unsigned long long s_plan_start[num_buckets], s_plan_items[num_buckets];
  __shared__ unsigned s_plan_n, s_plan_chunk;
  __shared__ unsigned s_idle_n, s_busy_n, s_need_map, s_scan_mask, s_waiting_mask,
      s_positions_out;
  __shared__ unsigned long long s_resv_now[num_buckets];  // phase B's reservation pointers
  // The pool block holding each bucket's `written` position (block index, block id): phase C's
  // scan mostly reads WCCs of that block, and this spares it a table load (a round trip) first.
  __shared__ unsigned long long s_wblock_index[num_buckets];
  __shared__ unsigned s_wblock_id[num_buckets];
  __shared__ unsigned long long s_in_flight, s_queued, s_progress;
  __shared__ int s_stop;
  __shared__ manager_state m;

  const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const queue_ref& q = k.q;
  control& ctl = *q.ctl;
  const adds_tuning& t = k.tuning;
  const double hw_threads = double(k.workers) * threads_per_block;

  if (tid == 0) {
    m = manager_state{};
    m.open = 1;
    m.delta = k.delta0;
    m.delta_floor = k.delta0 * t.delta_floor_ratio;
    m.delta_ceiling = k.delta0 * t.delta_ceiling_ratio;
    m.raise_limit = k.delta0 * t.util_raise_ratio;
    m.delta_min_seen = m.delta_max_seen = k.delta0;
    m.free_top = k.initial_free;
    m.start_ns = m.last_progress_ns = global_ns();
    s_stop = 0;
    s_plan_n = 0;
    s_plan_first[0] = 0;
    // One block per bucket to start with (the host sized the pool for at least that).
    for (int b = 0; b < num_buckets; ++b) {
      const unsigned blk = k.free_blocks[--m.free_top];
      for (unsigned s = 0; s < segments_per_block; ++s) q.wcc[blk * segments_per_block + s] = 0;
      q.table[static_cast<std::size_t>(b) * q.table_size] = blk;
      s_read[b] = s_written[b] = s_freed[b] = 0;
      s_mapped[b] = block_items;
      s_wblock_index[b] = 0;
      s_wblock_id[b] = blk;
    }
    // The source item, at position 0 of the head bucket, written as a WTB would write it.
    q.pool[static_cast<std::size_t>(q.table[0]) * block_items] = k.source;
    q.wcc[static_cast<std::size_t>(q.table[0]) * segments_per_block] = 1;
    q.resv[0] = 1;
    for (int b = 0; b < num_buckets; ++b)
      device_atomic<unsigned long long>(q.mapped[b]).store(block_items, memory_order_release);
    // Nothing completed or in flight yet; one item (the source) queued.
    trace_append(k, m, m.start_ns, 0, 1, 0, hw_threads, adds_trace_entry::keep);
  }
  __syncthreads();

  // Thread 0 charges the cycles since the previous phase boundary to phase i.
  long long phase_mark = clock64();
  const auto end_phase = [&](int i) {
    if (tid == 0) {
      const long long now = clock64();
      m.phase_cycles[i] += static_cast<unsigned long long>(now - phase_mark);
      phase_mark = now;
    }
  };

  for (;;) {
    if (tid == 0) {
      s_idle_n = 0;
      s_busy_n = 0;
      s_in_flight = 0;
    }
    if (tid < num_buckets) s_minout[tid] = ~0ull;
    __syncthreads();

    // The sweep is a chain of global round trips and barriers; its phases are laid out so that
    // every load a phase needs is in flight at once, and with no device-scope fence on the way
    // (on the H100 a fence cost ~1 us of a ~8 us sweep, a load ~0.3 us: issue 6's phase timers,
    // adds_report::manager_phase_share).

    // Phases A (warps 1 and up) and B (warp 0) run side by side: nothing in B needs A's
    // acquires. (A worker seen idle whose CWC increment B missed leaves its items counted as
    // queued: no retire and no termination is concluded from a count that lags.)
    //
    // Phase A: which workers finished. Each thread loads the flags and the MTB's records of
    // flags_per_thread workers at once (relaxed); a worker seen idle is loaded again with
    // acquire, which pairs with the worker's release of af_idle: its CWC increment, its pushes
    // and its reads of its chunk are then visible to (happen before) this thread, and after the
    // barrier to the whole MTB (phase C, the bookkeeping that frees the chunk's blocks).
    // Same-address shared atomics serialise, so a warp first combines its lanes' counts (and
    // the minimum chunk start per bucket, in whole pool blocks: only the free-block test reads
    // it, and rounding down only frees later) and one lane per warp or bucket group adds them.
    unsigned busy_n = 0;
    unsigned long long busy_items = 0;
    constexpr unsigned a_threads = threads_per_block - 32;
    const unsigned a_tid = tid - 32;  // warps 1 and up
    for (unsigned base = 0; warp > 0 && base < k.workers; base += flags_per_thread * a_threads) {
      int bb[flags_per_thread];
      unsigned st[flags_per_thread], bc[flags_per_thread];
      unsigned long long bs[flags_per_thread];
#pragma unroll
      for (int j = 0; j < flags_per_thread; ++j) {
        const unsigned w = base + j * a_threads + a_tid;
        bb[j] = -1;
        st[j] = af_idle;
        bc[j] = 0;
        bs[j] = 0;
        if (w < k.workers) {
          bb[j] = k.busy_bucket[w];
          st[j] = af_state_of(device_atomic<unsigned long long>(k.af[w]).load(memory_order_relaxed));
          bs[j] = k.busy_start[w];
          bc[j] = k.busy_count[w];
        }
      }
#pragma unroll
      for (int j = 0; j < flags_per_thread; ++j) {
        const unsigned w = base + j * a_threads + a_tid;
        const bool busy = bb[j] >= 0 && st[j] != af_idle;
        const bool idle = w < k.workers && !busy;
        if (idle && bb[j] >= 0) {  // finished since the last sweep
          (void)device_atomic<unsigned long long>(k.af[w]).load(memory_order_acquire);
          k.busy_bucket[w] = -1;
        }
        const unsigned idle_lanes = __ballot_sync(~0u, idle);
        if (idle_lanes != 0) {
          unsigned first = 0;
          if (lane == 0) first = atomicAdd(&s_idle_n, __popc(idle_lanes));
          first = __shfl_sync(~0u, first, 0);
          if (idle) k.idle_list[first + __popc(idle_lanes & ((1u << lane) - 1))] = w;
        }
        const unsigned group = __match_any_sync(~0u, busy ? bb[j] : -1);
        if (busy) {
          const unsigned oldest = __reduce_min_sync(group, static_cast<unsigned>(bs[j] / block_items));
          if (lane == __ffs(group) - 1)
            atomicMin(&s_minout[bb[j]], static_cast<unsigned long long>(oldest) * block_items);
          ++busy_n;
          busy_items += bc[j];
        }
      }
    }
    busy_n = __reduce_add_sync(~0u, busy_n);
    for (int o = 16; o; o >>= 1) busy_items += __shfl_down_sync(~0u, busy_items, o);
    if (warp > 0 && lane == 0 && busy_n != 0) {
      atomicAdd(&s_busy_n, busy_n);
      atomicAdd(&s_in_flight, busy_items);
    }
    // Phase B, warp 0: the completed-work counters, then the reservation pointers. A completed
    // item's pushes were reserved before its CWC increment (release, paired with the acquire
    // loads here), and __syncwarp orders every lane's counter load before every lane's pointer
    // load: so every reservation made by the items counted is visible to the pointer loads, and
    // sum(completed) == sum(resv) proves no item is outstanding and none can appear.
    if (warp == 0) {
      s_cwc[lane] = device_atomic<unsigned long long>(q.completed[lane]).load(memory_order_acquire);
      __syncwarp();
      const unsigned long long r = device_atomic<unsigned long long>(q.resv[lane])
                                       .load(memory_order_relaxed);
      s_resv_now[lane] = r;
      // Buckets with reserved slots past `written` whose blocks are mapped: phase C scans them.
      const unsigned scan = __ballot_sync(~0u, s_written[lane] < min(r, s_mapped[lane]));
      if (lane == 0) s_scan_mask = scan;
    }
    __syncthreads();
    end_phase(0);

    // Phase C: the warps share the buckets that have new reservations, one warp per bucket,
    // and advance `written` over WCC segments (section 5.2). `limit`, and so the trip count of
    // the loop below, whose every pass runs __ballot_sync/__shfl_sync over the full warp, is
    // warp-uniform: it comes from the one pointer value phase B stored in shared memory. (With
    // one load per lane, lanes that reach the loop at different times could read different
    // values of a pointer that writers bump constantly, disagree on `wr < limit`, and meet a
    // full-mask ballot in some lanes and the __syncwarp below in others: undefined behaviour,
    // which can deadlock the manager.)
    const unsigned scan_mask = s_scan_mask;
    unsigned pending = scan_mask;
    for (unsigned skip = warp; skip > 0 && pending; --skip) pending &= pending - 1;
    while (pending) {
      const unsigned b = __ffs(pending) - 1;
      for (unsigned skip = manager_warps; skip > 0 && pending; --skip) pending &= pending - 1;
      device_atomic<unsigned long long> resv(q.resv[b]);
      const unsigned long long r = s_resv_now[b];
      unsigned long long wr = s_written[b];
      // Segments at or past mapped[] have no block yet: their WCC slot is not theirs.
      const unsigned long long limit = min(r, s_mapped[b]);
      while (wr < limit) {
        const unsigned long long seg0 = wr / segment_items;
        const unsigned long long seg_start = (seg0 + lane) * segment_items;
        unsigned c = 0;
        if (seg_start < limit) {
          const unsigned blk = seg_start / block_items == s_wblock_index[b]
                                   ? s_wblock_id[b]
                                   : q.block_of(b, seg_start);
          // Acquire pairs with the writers' release increments: items counted are visible.
          c = device_atomic<unsigned>(
                  q.wcc[static_cast<std::size_t>(blk) * segments_per_block +
                        (seg_start % block_items) / segment_items])
                  .load(memory_order_acquire);
        }
        const unsigned not_full = __ballot_sync(~0u, !(seg_start < limit && c == segment_items));
        if (not_full == 0) {
          wr = (seg0 + 32) * segment_items;
          continue;
        }
        const int first = __ffs(not_full) - 1;
        const unsigned cf = __shfl_sync(~0u, c, first);
        const unsigned long long fstart = (seg0 + first) * segment_items;
        if (fstart >= limit) {
          wr = max(wr, min(fstart, limit));
        } else {
          // The WCC was loaded (acquire) before this fresh reservation pointer: when the
          // segment's start plus its count equals it, every slot reserved in the segment so
          // far is written (section 5.2); otherwise only the segments before it are. The WCC
          // that matters was loaded by lane `first`: __syncwarp orders that load before lane
          // 0's load of the pointer, which the warp then shares (uniform `wr`, as above).
          __syncwarp();
          unsigned long long r2 = 0;
          if (lane == 0) r2 = resv.load(memory_order_acquire);
          r2 = __shfl_sync(~0u, r2, 0);
          wr = (fstart + cf == r2) ? r2 : max(wr, fstart);
        }
        break;
      }
      // Every lane read s_written[b] above; lane 0 overwrites it below. Lanes of a warp are not
      // in lockstep (independent thread scheduling since Volta): without the warp barrier, the
      // read of a lagging lane and lane 0's write race (harmless, the loop's result is
      // warp-uniform, but a race under the memory model, and one compute-sanitizer racecheck
      // reported in issue 6).
      __syncwarp();
      if (lane == 0) s_written[b] = wr;
    }
    __syncthreads();
    end_phase(1);

    // Per-bucket bookkeeping, warp 0, a lane per bucket (it would otherwise be a serial loop of
    // thread 0's in phase D1): the queue totals, the blocks behind the oldest item still
    // assigned or unassigned (section 5.3; s_read[b] is the read pointer before this sweep's
    // assignments) pushed onto the free stack (pushes only: thread 0 pops after the barrier),
    // the buckets short of a spare block, and those holding unassigned items.
    if (warp == 0) {
      const unsigned b = lane;
      const unsigned long long wr = s_written[b], rv = max(s_resv_now[b], wr);
      s_resv[b] = rv;
      unsigned long long queued = rv - s_cwc[b], progress = s_cwc[b];
      for (int o = 16; o; o >>= 1) {
        queued += __shfl_down_sync(~0u, queued, o);
        progress += __shfl_down_sync(~0u, progress, o);
      }
      const unsigned long long oldest = min(s_minout[b], s_read[b]);
      while (s_freed[b] + block_items <= oldest) {
        k.free_blocks[atomicAdd(&m.free_top, 1u)] = q.block_of(b, s_freed[b]);
        s_freed[b] += block_items;
      }
      if (wr / block_items != s_wblock_index[b] && wr < s_mapped[b]) {
        s_wblock_index[b] = wr / block_items;
        s_wblock_id[b] = q.block_of(b, wr);
      }
      const unsigned need_map = __ballot_sync(~0u, s_mapped[b] < rv + block_items);
      const unsigned waiting = __ballot_sync(~0u, rv > s_read[b]);
      const unsigned past_limit = __ballot_sync(~0u, rv >= af_start_limit);
      if (lane == 0) {
        s_queued = queued;
        s_progress = progress;
        s_need_map = need_map;
        s_waiting_mask = waiting;
        s_positions_out = past_limit != 0;
      }
    }
    __syncthreads();
    end_phase(2);

    // Phase D1, thread 0: termination, watchdogs, the head and the assignment plan -- what the
    // flags of this sweep depend on. The rest of thread 0's work (section 5.5's knobs, the
    // memory map) runs in phase D2, beside the other threads' flag stores.
    unsigned long long now = 0, queued = 0, progress = 0, in_flight = 0;
    unsigned idle = 0, assigned = 0;
    if (tid == 0) {
      now = global_ns();
      queued = s_queued;
      progress = s_progress;
      ++m.sweeps;

      // Termination (section 5.4): two consecutive sweeps with nothing outstanding.
      if (s_busy_n == 0 && queued == 0) {
        if (++m.idle_sweeps >= 2) {
          device_atomic<int>(ctl.status).store(status_done, memory_order_relaxed);
          s_stop = 1;
        }
      } else {
        m.idle_sweeps = 0;
      }

      // Watchdogs: a bound on the whole run and on time without a completed item.
      if (progress != m.last_progress_value) {
        m.last_progress_value = progress;
        m.last_progress_ns = now;
      }
      if (m.sweeps % poll_sweeps == 0) {  // heartbeat for the host (see control::live_sweeps)
        device_atomic<unsigned long long>(ctl.live_sweeps).store(m.sweeps, memory_order_relaxed);
        device_atomic<unsigned long long>(ctl.live_progress).store(progress, memory_order_relaxed);
        device_atomic<unsigned long long>(ctl.live_queued).store(queued, memory_order_relaxed);
        device_atomic<unsigned>(ctl.live_busy).store(s_busy_n, memory_order_relaxed);
      }
      if (!s_stop) {
        int why = status_running;
        if (now - m.start_ns > k.watchdog_ns) why = status_watchdog;
        else if (s_positions_out) why = status_positions;  // no assignment word could name them
        else if (now - m.last_progress_ns > k.stall_ns) why = status_stalled;
        else if (m.sweeps % poll_sweeps == 0 &&
                 cuda::atomic_ref<int, cuda::thread_scope_system>(*k.host_abort)
                         .load(memory_order_relaxed) != 0)
          why = status_host_abort;
        if (why != status_running) {
          device_atomic<int>(ctl.status).store(why, memory_order_relaxed);
          s_stop = 1;
        }
      }

      // Retire empty head buckets (section 5.4): all reserved items of the head completed.
      // Never while nothing at all is queued: then we are terminating, and the base would run.
      for (int r = 0; r < num_buckets && queued > 0 && s_cwc[m.head] == s_resv[m.head]; ++r) {
        m.head = (m.head + 1) & (num_buckets - 1);
        m.head_base += m.delta;
        ++m.retires;
        ++m.switches;
      }
      device_atomic<unsigned>(ctl.head_slot).store(m.head, memory_order_relaxed);
      device_atomic<double>(ctl.head_base).store(m.head_base, memory_order_relaxed);

      // Assignment plan (section 5.4): open buckets in priority order, chunks sized to spread
      // the open work over the idle workers; phase D2 writes the flags.
      idle = s_stop ? 0 : s_idle_n;
      unsigned long long open_avail = 0;
      for (int o = 0; o < m.open; ++o) {
        const unsigned b = (m.head + o) & (num_buckets - 1);
        open_avail += s_written[b] - s_read[b];
      }
      unsigned long long chunk = idle ? ceil_div(open_avail, idle) : 0;
      chunk = min(max(chunk, (unsigned long long)t.min_chunk), (unsigned long long)t.max_chunk);
      unsigned plans = 0;
      in_flight = s_in_flight;
      for (int o = 0; o < m.open && assigned < idle; ++o) {
        const unsigned b = (m.head + o) & (num_buckets - 1);
        const unsigned long long avail = s_written[b] - s_read[b];
        if (avail == 0) continue;
        const unsigned chunks = static_cast<unsigned>(
            min(ceil_div(avail, chunk), (unsigned long long)(idle - assigned)));
        const unsigned long long items = min(avail, chunks * chunk);
        s_plan_bucket[plans] = b;
        s_plan_first[plans] = assigned;
        s_plan_start[plans] = s_read[b];
        s_plan_items[plans] = items;
        ++plans;
        assigned += chunks;
        s_read[b] += items;
        in_flight += items;
      }
      s_plan_first[plans] = assigned;
      s_plan_n = plans;
      s_plan_chunk = static_cast<unsigned>(chunk);
      m.assignments += assigned;
      if (in_flight > m.max_in_flight) m.max_in_flight = in_flight;
    }
    __syncthreads();
    end_phase(3);

    // Phase D2: the whole block writes the planned assignment flags, one chunk per thread.
    const unsigned plans = s_plan_n;
    const unsigned total = s_plan_first[plans];
    const unsigned long long chunk = s_plan_chunk;
    for (unsigned i = tid; i < total; i += blockDim.x) {
      unsigned j = 0;
      while (s_plan_first[j + 1] <= i) ++j;
      const unsigned long long off = (i - s_plan_first[j]) * chunk;
      const unsigned c = static_cast<unsigned>(min(chunk, s_plan_items[j] - off));
      const unsigned long long start = s_plan_start[j] + off;
      const unsigned b = s_plan_bucket[j];
      const unsigned w = k.idle_list[i];
      // Release: what this MTB acquired (the WCCs counting the chunk's items) before the worker
      // that acquires the word reads the items.
      device_atomic<unsigned long long>(k.af[w]).store(af_pack(af_assigned, b, c, start),
                                                       memory_order_release);
      k.busy_bucket[w] = static_cast<int>(b);
      k.busy_start[w] = start;
      k.busy_count[w] = c;
    }
    // Thread 0, after its share of the flags: the knobs and the memory map.
    if (tid == 0) {
      // Section 5.5. Utilisation = arcs in flight (items x average degree) against the hardware
      // threads of the workers. Work is "held back" when workers stay idle while queued items
      // wait outside the open buckets: only then do more open buckets, or a wider delta, give
      // the hardware more to do. When every queued item is already assigned, the frontier
      // itself is small (a road network's wavefront) and widening buckets would only trade
      // order for rework at the same parallelism.
      const double util = double(in_flight) * k.avg_degree;
      const double low = t.util_low * hw_threads, high = t.util_high * hw_threads;
      // Buckets past the open ones with unassigned items (the plan changed s_read only for the
      // open ones): bit o of `waiting` is bucket head + o.
      const unsigned waiting = __funnelshift_r(s_waiting_mask, s_waiting_mask, m.head);
      const bool held_back = idle > assigned && m.open < num_buckets && (waiting >> m.open) != 0;
      const bool starved = t.raise_only_when_held_back ? held_back : idle > assigned;
      // The fast knob: how many head buckets are open.
      if (starved && util < low && m.open < t.max_open_buckets) ++m.open;
      else if (util > high && m.open > 1) --m.open;
      if (queued > 0) {
        m.util_sum += util;
        ++m.util_n;
        m.held_n += starved;
        const unsigned tail = (m.head + num_buckets - 1) & (num_buckets - 1);
        if (queued >= 4ull * t.max_chunk &&
            double(s_resv[tail] - s_cwc[tail]) >= t.clip_share * double(queued))
          ++m.clip_n;
      }
      // The slow knob, delta, after settle_switches head switches (section 5.5): clipping sets
      // a floor and raises it; otherwise low utilisation raises it (only when starved, that
      // is, held back by the buckets: see adds_tuning), high utilisation lowers it.
      if (m.switches >= t.settle_switches && m.util_n > 0) {
        const double avg = m.util_sum / m.util_n;
        double nd = m.delta;
        int decision = adds_trace_entry::keep;
        if (k.dynamic_delta) {
          if (2 * m.clip_n > m.util_n) {
            // Clipping: the tail holds most of the queue. Delta below here loses order.
            m.delta_floor = max(m.delta_floor, 2 * m.delta);
            nd = 2 * m.delta;
            decision = adds_trace_entry::clip_raise;
          } else if (avg < low && (!t.raise_only_when_held_back || 2 * m.held_n > m.util_n) &&
                     2 * m.delta <= m.raise_limit) {
            // Bounded (adds_tuning::util_raise_ratio): a small frontier never fills the GPU,
            // so this rule alone would double delta all the way to the ceiling.
            nd = 2 * m.delta;
            decision = adds_trace_entry::raise;
          } else if (avg > high) {
            nd = max(m.delta / 2, m.delta_floor);
            decision = adds_trace_entry::lower;
          }
          nd = min(nd, m.delta_ceiling);
        }
        if (nd != m.delta) {
          m.delta = nd;
          ++m.delta_changes;
          m.delta_min_seen = min(m.delta_min_seen, nd);
          m.delta_max_seen = max(m.delta_max_seen, nd);
          device_atomic<double>(ctl.delta).store(nd, memory_order_relaxed);
        } else {
          decision = adds_trace_entry::keep;  // a change the ceiling or the floor absorbed
        }
        trace_append(k, m, now, progress, queued, in_flight, hw_threads, decision);
        m.switches = 0;
        m.util_sum = 0;
        m.util_n = m.clip_n = m.held_n = 0;
      }

      // Memory (section 5.3): map one spare block ahead of every reservation pointer (phase C
      // freed the blocks behind the oldest unfinished item and marked the buckets short of one).
      bool starving = false;
      for (unsigned need = s_need_map; need; need &= need - 1) {
        const int b = __ffs(need) - 1;
        const unsigned long long want = s_resv[b] + block_items;
        bool grew = false;
        while (s_mapped[b] < want) {
          if (m.free_top == 0) {
            if (s_mapped[b] <= s_resv[b]) starving = true;  // a writer is waiting on this
            break;
          }
          const unsigned blk = k.free_blocks[--m.free_top];
          for (unsigned s = 0; s < segments_per_block; ++s)
            q.wcc[static_cast<std::size_t>(blk) * segments_per_block + s] = 0;
          q.table[static_cast<std::size_t>(b) * q.table_size +
                  (s_mapped[b] / block_items) % q.table_size] = blk;
          s_mapped[b] += block_items;
          grew = true;
        }
        // Release: the table entries and zeroed WCCs above before writers use the positions.
        if (grew)
          device_atomic<unsigned long long>(q.mapped[b]).store(s_mapped[b], memory_order_release);
      }
      if (!starving) {
        m.starving_since = 0;
      } else if (m.starving_since == 0) {
        m.starving_since = now;
      } else if (now - m.starving_since > k.stall_ns / 4 && !s_stop) {
        // Writers wait on blocks that only finishing work could free, and nothing finishes.
        device_atomic<int>(ctl.status).store(status_pool_exhausted, memory_order_relaxed);
        s_stop = 1;
      }
      if (s_stop)
        trace_append(k, m, now, progress, queued, in_flight, hw_threads, adds_trace_entry::end);
    }
    __syncthreads();
    end_phase(4);
    if (s_stop) {
      // Wake idle workers now instead of at their next status poll. A stop decided in phase D1
      // handed out no work; one decided by the pool check above (an error: the run is void)
      // may overwrite this sweep's assignments, whose workers then leave without them.
      for (unsigned w = tid; w < k.workers; w += blockDim.x)
        device_atomic<unsigned long long>(k.af[w]).store(af_exit, memory_order_relaxed);
      break;
    }
  }

  // Publish the statistics; the host reads them after the kernel. (control::delta needs no
  // store here: the MTB stored every change as it made it, and workers may still be reading it.)
  // The heartbeat gets the final sweep count, for a host that snapshots a hang on the worker side.
  if (tid == 0) {
    ctl.sweeps = m.sweeps;
    ctl.assignments = m.assignments;
    ctl.retires = m.retires;
    ctl.delta_changes = m.delta_changes;
    ctl.max_in_flight = m.max_in_flight;
    ctl.delta_min_seen = m.delta_min_seen;
    ctl.delta_max_seen = m.delta_max_seen;
    ctl.trace_n = m.trace_n;
    for (int i = 0; i < 5; ++i) ctl.manager_phase_cycles[i] = m.phase_cycles[i];
    device_atomic<unsigned long long>(ctl.live_sweeps).store(m.sweeps, memory_order_relaxed);
  }
}

template <class W>
__global__ void __launch_bounds__(threads_per_block, min_blocks_per_sm) adds_kernel(kernel_args<W> k) {
  if (blockIdx.x == 0)
    manager(k);
  else
    worker(k);
}

template <class W>
__global__ void init_kernel(vertex n, W* dist, W* processed, vertex source, unsigned* free_blocks,
                            unsigned pool_blocks, int* busy_bucket, unsigned workers) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
    dist[i] = i == source ? W(0) : infinity<W>();
    processed[i] = infinity<W>();
  }
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < pool_blocks;
       i += stride)
    free_blocks[i] = static_cast<unsigned>(i);
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < workers;
       i += stride)
    busy_bucket[i] = -1;
}

// Pinned host memory for the host-abort flag and for control snapshots. Not a pinned_buffer:
// its destructor (cudaFreeHost) synchronises the device, so when a kernel ignores the host
// timeout, unwinding past it would hang the caller -- the error the timeout exists to raise
// would never arrive (a test then hits the ctest timeout instead of failing with a message).
// On that path the memory is leaked instead: the kernel still reads the flag anyway.
struct pinned_host_area {
  struct layout {
    control snapshot;
    int abort_flag;
  };
  int* abort_flag = nullptr;
  control* snapshot = nullptr;
  layout* base = nullptr;
  pinned_host_area() {
    void* p = nullptr;
    TROPIC_CUDA_CHECK(cudaMallocHost(&p, sizeof(layout)));
    base = static_cast<layout*>(p);
    snapshot = &base->snapshot;
    abort_flag = &base->abort_flag;
  }
  pinned_host_area(const pinned_host_area&) = delete;
  pinned_host_area& operator=(const pinned_host_area&) = delete;
  ~pinned_host_area() {
    if (base) cudaFreeHost(base);
  }
  void leak() noexcept { base = nullptr; }
};

// Copies the control block while the kernel may still be running: on a stream of its own (no
// dependency on the kernel's stream), with a bounded wait. False if the copy did not complete.
bool peek_control(const control* device_ctl, control* host, double wait_ms) {
  cudaStream_t s = nullptr;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return false;
  bool ok = cudaMemcpyAsync(host, device_ctl, sizeof(control), cudaMemcpyDeviceToHost, s) ==
            cudaSuccess;
  const auto t0 = std::chrono::steady_clock::now();
  while (ok) {
    const cudaError_t st = cudaStreamQuery(s);
    if (st == cudaSuccess) break;
    if (st != cudaErrorNotReady ||
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count() > wait_ms)
      ok = false;
    else
      std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  cudaStreamDestroy(s);  // returns at once; a copy still pending is released when it completes
  return ok;
}

const char* status_text(int s) {
  switch (s) {
    case status_done: return "done";
    case status_pool_exhausted: return "bucket pool exhausted";
    case status_watchdog: return "device watchdog (total time bound)";
    case status_stalled: return "device watchdog (no completed work)";
    case status_host_abort: return "host timeout";
    case status_positions: return "queue position limit (2^40 items pushed into one bucket)";
    default: return "unknown";
  }
}

}  // namespace
}  // namespace adds

template <class W>
result<W> adds_sssp_configured(const device_matrix<W>& a, vertex source, const options& opts,
                               const adds_config& cfg, adds_report* report) {
  using namespace adds;
  const vertex n = a.rows();
  if (n == 0) throw error(error_code::invalid_value, "adds: the graph has no vertices");
  if (source >= n)
    throw error(error_code::invalid_index, "adds: source vertex " + std::to_string(source) +
                                               " is out of range (n = " + std::to_string(n) + ")");
  cudaStream_t stream = a.stream();
  const double delta0 = resolve_delta(a, opts) * cfg.tuning.initial_delta_factor;
  if (!(delta0 > 0)) throw error(error_code::invalid_value, "adds: delta must be positive");
  // The kernel relies on these ranges (adds_tuning documents them) and does not clamp.
  const adds_tuning& tn = cfg.tuning;
  if (tn.max_open_buckets < 1 || tn.max_open_buckets > num_buckets || tn.settle_switches < 1 ||
      !(tn.util_low < tn.util_high) || !(tn.delta_floor_ratio > 0 && tn.delta_floor_ratio <= 1) ||
      !(tn.delta_ceiling_ratio >= 1) || !(tn.util_raise_ratio >= 1) || tn.min_chunk < 1 ||
      tn.max_chunk < tn.min_chunk || tn.max_chunk >= af_count_limit || tn.local_rounds > 65536 ||
      tn.local_passes < 1 || tn.local_passes > 65536)
    throw error(error_code::invalid_value,
                "adds: tuning out of range (open buckets 1..32, settle_switches >= 1, "
                "util_low < util_high, 0 < delta_floor_ratio <= 1 <= delta_ceiling_ratio, "
                "util_raise_ratio >= 1, 1 <= min_chunk <= max_chunk < 131072, local_rounds <= 65536, "
                "1 <= local_passes <= 65536)");

  int device = 0, sms = 0, coop = 0, per_sm = 0;
  TROPIC_CUDA_CHECK(cudaGetDevice(&device));
  TROPIC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TROPIC_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device));
  TROPIC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, adds_kernel<W>,
                                                                  threads_per_block, 0));
  if (per_sm < 1 || !coop)
    throw error(error_code::cuda, "adds: the device cannot keep the persistent kernel resident");
  const auto& gs = a.stats();
  unsigned grid = static_cast<unsigned>(per_sm) * static_cast<unsigned>(sms);
  if (cfg.wide_row_workers_per_sm > 0 && gs.avg_degree >= cfg.wide_row_degree)
    grid = std::min(grid, cfg.wide_row_workers_per_sm * static_cast<unsigned>(sms) + 1);
  if (cfg.max_worker_blocks > 0) grid = std::min(grid, cfg.max_worker_blocks + 1);
  grid = std::max(grid, 2u);
  const unsigned workers = grid - 1;

  unsigned pool_blocks = cfg.pool_blocks;
  if (pool_blocks == 0) {
    const double items = double(n) + double(a.arcs());
    pool_blocks = static_cast<unsigned>(
        std::min(std::ceil(items / block_items) + 2 * num_buckets, double(1u << 30)));
  }
  pool_blocks = std::max(pool_blocks, unsigned(num_buckets) + 1);

  pinned_host_area pinned;  // the host-abort flag (and control snapshots on the give-up path)
  int* const host_abort = pinned.abort_flag;
  result<W> out;
  device_buffer<W> dist(n, stream), processed(n, stream);
  device_buffer<unsigned> busy_count(workers, stream), idle_list(workers, stream);
  device_buffer<unsigned long long> af_words(workers, stream), busy_start(workers, stream);
  device_buffer<int> busy_bucket(workers, stream);
  device_buffer<unsigned long long> counters(3 * num_buckets, stream);
  device_buffer<control> ctl(1, stream);
  const unsigned trace_cap =
      cfg.trace_capacity > 0 ? cfg.trace_capacity
      : opts.verbose        ? policy::adds::verbose_trace_capacity
                            : 0u;
  device_buffer<adds_trace_entry> trace(trace_cap, stream);

  control h_ctl{};
  int retries = 0;
  double ms = 0;
  for (;;) {
    const std::size_t pool_items = std::size_t(pool_blocks) * block_items;
    const std::size_t table_entries = std::size_t(num_buckets) * pool_blocks;
    require_device_memory(pool_items * sizeof(vertex) +
                              (std::size_t(pool_blocks) * segments_per_block + table_entries +
                               pool_blocks) * sizeof(unsigned),
                          "the ADDS bucket pool (" + std::to_string(pool_blocks) + " blocks of " +
                              std::to_string(block_items) + " items)");
    device_buffer<vertex> pool(pool_items, stream);
    device_buffer<unsigned> wcc(std::size_t(pool_blocks) * segments_per_block, stream),
        table(table_entries, stream), free_blocks(pool_blocks, stream);

    host_abort[0] = 0;
    control c0{};
    c0.status = status_running;
    c0.delta = delta0;
    c0.delta_min_seen = c0.delta_max_seen = delta0;
    TROPIC_CUDA_CHECK(
        cudaMemcpyAsync(ctl.data(), &c0, sizeof c0, cudaMemcpyHostToDevice, stream));
    TROPIC_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, counters.bytes(), stream));
    TROPIC_CUDA_CHECK(cudaMemsetAsync(af_words.data(), 0, af_words.bytes(), stream));

    kernel_args<W> k{};
    k.a = a.view();
    k.dist = dist.data();
    k.processed = processed.data();
    k.q.resv = counters.data();
    k.q.mapped = counters.data() + num_buckets;
    k.q.completed = counters.data() + 2 * num_buckets;
    k.q.table = table.data();
    k.q.table_size = pool_blocks;
    k.q.pool = pool.data();
    k.q.wcc = wcc.data();
    k.q.pool_blocks = pool_blocks;
    k.q.ctl = ctl.data();
    k.af = af_words.data();
    k.workers = workers;
    k.busy_bucket = busy_bucket.data();
    k.busy_start = busy_start.data();
    k.busy_count = busy_count.data();
    k.idle_list = idle_list.data();
    k.free_blocks = free_blocks.data();
    k.initial_free = pool_blocks;
    k.source = source;
    k.avg_degree = std::max(1.0, gs.avg_degree);
    k.local_lanes = closure_lanes(0, gs.avg_degree);
    k.delta0 = delta0;
    k.dynamic_delta = cfg.dynamic_delta && std::isfinite(delta0);
    k.tuning = cfg.tuning;
    k.trace = trace_cap > 0 ? trace.data() : nullptr;
    k.trace_cap = trace_cap;
    k.watchdog_ns = static_cast<unsigned long long>(cfg.watchdog_ms * 1e6);
    k.stall_ns = static_cast<unsigned long long>(cfg.stall_ms * 1e6);
    k.host_abort = host_abort;

    cudaEvent_t done;
    TROPIC_CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    {
      cuda_timer timer(stream);  // the solve: initialisation and the persistent kernel
      const unsigned init_blocks = static_cast<unsigned>(
          std::min<std::size_t>((std::max<std::size_t>(n, pool_blocks) + 255) / 256, 4096));
      init_kernel<W><<<init_blocks, 256, 0, stream>>>(n, dist.data(), processed.data(), source,
                                                       free_blocks.data(), pool_blocks,
                                                       busy_bucket.data(), workers);
      TROPIC_CUDA_CHECK(cudaGetLastError());
      void* params[] = {&k};
      TROPIC_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(adds_kernel<W>),
                                                    dim3(grid), dim3(threads_per_block), params,
                                                    0, stream));
      TROPIC_CUDA_CHECK(cudaEventRecord(done, stream));
      // Host-side timeout: poll, and past the limit raise the pinned flag the MTB watches.
      const double limit_ms =
          cfg.host_timeout_ms > 0 ? cfg.host_timeout_ms
                                  : cfg.watchdog_ms + policy::adds::host_grace_ms;
      const auto t0 = std::chrono::steady_clock::now();
      bool raised = false;
      for (;;) {
        const cudaError_t st = cudaEventQuery(done);
        if (st == cudaSuccess) break;
        if (st != cudaErrorNotReady) {
          cudaEventDestroy(done);
          TROPIC_CUDA_CHECK(st);
        }
        const double waited =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        if (!raised && waited > limit_ms) {
          cuda::atomic_ref<int, cuda::thread_scope_system>(host_abort[0])
              .store(1, cuda::memory_order_release);
          raised = true;
        }
        if (raised && waited > limit_ms + policy::adds::host_grace_ms) {
          // The manager did not act on the flag. Say which side hangs (two heartbeat snapshots
          // 1 s apart: the heartbeat moves every poll_sweeps sweeps), print it at once (stderr:
          // whatever the caller does next may block on the device), and leave without freeing
          // what the kernel still uses.
          control s0{}, s1{};
          const bool got0 = peek_control(ctl.data(), pinned.snapshot, 1000);
          if (got0) s0 = *pinned.snapshot;
          std::this_thread::sleep_for(std::chrono::milliseconds(1000));
          const bool got1 = got0 && peek_control(ctl.data(), pinned.snapshot, 1000);
          if (got1) s1 = *pinned.snapshot;
          std::string why;
          if (!got1) {
            why = "the control block could not be read back";
          } else if (s1.status == status_running) {
            why = s1.live_sweeps != s0.live_sweeps
                      ? "the manager is alive (heartbeat advancing) yet ignores the flag"
                      : "the manager is stuck inside a sweep (heartbeat frozen at sweep " +
                            std::to_string(s1.live_sweeps) + ")";
          } else {
            why = std::string("the manager stopped (") + status_text(s1.status) + ") but " +
                  std::to_string(workers - s1.workers_exited) + " of " +
                  std::to_string(workers) + " worker blocks never left their loop";
          }
          if (got1)
            why += "; last heartbeat: sweep " + std::to_string(s1.live_sweeps) + ", " +
                   std::to_string(s1.live_progress) + " items completed, " +
                   std::to_string(s1.live_queued) + " queued, " + std::to_string(s1.live_busy) +
                   " workers busy, " + std::to_string(s1.workers_exited) + " of " +
                   std::to_string(workers) + " worker blocks exited";
          const std::string msg = "adds: the kernel ignored the host timeout of " +
                                  std::to_string(limit_ms) + " ms and is still running: " + why +
                                  " (the device stays busy until the process exits)";
          std::fprintf(stderr, "%s\n", msg.c_str());
          std::fflush(stderr);
          pinned.leak();
          cudaEventDestroy(done);
          throw error(error_code::cuda, msg);
        }
        std::this_thread::sleep_for(std::chrono::microseconds(waited < 5 ? 5 : 50));
      }
      ms = timer.elapsed_ms();
    }
    TROPIC_CUDA_CHECK(cudaEventDestroy(done));
    TROPIC_CUDA_CHECK(
        cudaMemcpyAsync(&h_ctl, ctl.data(), sizeof h_ctl, cudaMemcpyDeviceToHost, stream));
    TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));

    if (h_ctl.status == status_pool_exhausted && retries < cfg.pool_retries) {
      if (opts.verbose)
        std::fprintf(stderr, "adds: pool of %u blocks exhausted, retrying with %u\n", pool_blocks,
                     pool_blocks * 4);
      pool_blocks *= 4;
      ++retries;
      continue;
    }
    if (h_ctl.status == status_pool_exhausted)
      throw error(error_code::out_of_memory,
                  "adds: the bucket pool of " + std::to_string(pool_blocks) + " blocks (" +
                      std::to_string(pool_items) + " items) was exhausted after " +
                      std::to_string(retries) + " retries");
    if (h_ctl.status != status_done)
      throw error(error_code::cuda, std::string("adds: stopped by the ") +
                                        status_text(h_ctl.status) + " after " +
                                        std::to_string(ms) + " ms (" +
                                        std::to_string(h_ctl.sweeps) + " manager sweeps, " +
                                        std::to_string(h_ctl.vertices) + " items processed)");
    break;
  }

  finish_result(a, dist.data(), source, opts, out, stream);
  // Where the time went: phase shares of the MTB's cycles, the mean sweep in wall time.
  struct {
    double phase[5] = {};
    double sweep_us = 0, worker_wait = 0;
  } where;
  {
    double total = 0;
    for (unsigned long long c : h_ctl.manager_phase_cycles) total += double(c);
    for (int i = 0; i < 5; ++i)
      where.phase[i] = total > 0 ? double(h_ctl.manager_phase_cycles[i]) / total : 0;
    where.sweep_us = h_ctl.sweeps ? ms * 1e3 / double(h_ctl.sweeps) : 0;
    where.worker_wait =
        h_ctl.worker_cycles ? double(h_ctl.worker_wait_cycles) / double(h_ctl.worker_cycles) : 0;
  }
  out.stats.algorithm = "adds";
  out.stats.delta = h_ctl.delta;  // the final delta; the initial one is resolve_delta's
  out.stats.buckets = h_ctl.retires;
  out.stats.iterations = h_ctl.assignments;
  out.stats.vertices_relaxed = h_ctl.vertices;
  out.stats.arcs_relaxed = h_ctl.arcs;
  out.stats.milliseconds = ms;
  if (opts.verbose)
    std::fprintf(stderr,
                 "adds: grid %u (%d/SM fit x %d SMs), pool %u blocks, delta %g -> %g "
                 "(%llu changes, range %g..%g), %llu sweeps, %llu assignments, %llu retires, "
                 "%llu items processed, %llu skipped, max in flight %llu, %.3f ms\n"
                 "adds: %.2f us per sweep (A+B flags and pointers %.0f%%, C WCC scan %.0f%%, "
                 "bookkeeping %.0f%%, D1 plan %.0f%%, D2 assignments and knobs %.0f%%); workers "
                 "waiting %.0f%% of their "
                 "cycles\n",
                 grid, per_sm, sms, pool_blocks, delta0, h_ctl.delta, h_ctl.delta_changes,
                 h_ctl.delta_min_seen, h_ctl.delta_max_seen, h_ctl.sweeps, h_ctl.assignments,
                 h_ctl.retires, h_ctl.vertices, h_ctl.skipped, h_ctl.max_in_flight, ms,
                 where.sweep_us, 100 * where.phase[0], 100 * where.phase[1],
                 100 * where.phase[2], 100 * where.phase[3], 100 * where.phase[4],
                 100 * where.worker_wait);
  // The trace ring, oldest entry first.
  std::vector<adds_trace_entry> h_trace;
  const std::uint64_t trace_kept = std::min<std::uint64_t>(h_ctl.trace_n, trace_cap);
  if (trace_kept > 0) {
    std::vector<adds_trace_entry> ring(trace_cap);
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(ring.data(), trace.data(),
                                      trace_cap * sizeof(adds_trace_entry),
                                      cudaMemcpyDeviceToHost, stream));
    TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
    const std::uint64_t first = h_ctl.trace_n - trace_kept;
    for (std::uint64_t i = first; i < h_ctl.trace_n; ++i) h_trace.push_back(ring[i % trace_cap]);
  }
  if (opts.verbose && !h_trace.empty()) {
    std::fprintf(stderr,
                 "adds: delta trace (%llu entries%s; util = arcs in flight / hardware threads, "
                 "window means; decision 0 keep, 1 raise, 2 clip-raise, -1 lower, 3 end)\n"
                 "  %10s %9s %8s %12s %12s %7s %6s %6s %4s %10s %10s %9s %3s\n",
                 (unsigned long long)h_ctl.trace_n,
                 h_ctl.trace_n > trace_kept ? ", the last ones" : "", "ms", "sweep", "retires",
                 "delta", "head_base", "util", "held", "clip", "open", "completed", "queued",
                 "in_flight", "dec");
    for (const auto& e : h_trace)
      std::fprintf(stderr,
                   "  %10.3f %9llu %8llu %12.6g %12.6g %7.3f %6.2f %6.2f %4d %10llu %10llu %9llu "
                   "%3d\n",
                   e.ms, (unsigned long long)e.sweep, (unsigned long long)e.retires, e.delta,
                   e.head_base, e.avg_util, e.held_back_share, e.clip_share, e.open,
                   (unsigned long long)e.completed, (unsigned long long)e.queued,
                   (unsigned long long)e.in_flight, e.decision);
  }
  if (report) {
    report->trace = std::move(h_trace);
    report->trace_dropped = h_ctl.trace_n - trace_kept;
    report->assignments = h_ctl.assignments;
    report->retires = h_ctl.retires;
    report->status = h_ctl.status;
    report->pool_retries_used = retries;
    report->pool_blocks = pool_blocks;
    report->worker_blocks = workers;
    report->blocks_per_sm = static_cast<unsigned>(per_sm);
    report->initial_delta = delta0;
    report->final_delta = h_ctl.delta;
    report->min_delta = h_ctl.delta_min_seen;
    report->max_delta = h_ctl.delta_max_seen;
    report->delta_changes = h_ctl.delta_changes;
    report->sweeps = h_ctl.sweeps;
    report->skipped = h_ctl.skipped;
    report->max_in_flight = h_ctl.max_in_flight;
    for (int i = 0; i < 5; ++i) report->manager_phase_share[i] = where.phase[i];
    report->sweep_us = where.sweep_us;
    report->worker_wait_share = where.worker_wait;
  }
  return out;
}

template <class W>
result<W> adds_sssp(const device_matrix<W>& a, vertex source, const options& opts) {
  return adds_sssp_configured(a, source, opts, adds_config{}, nullptr);
}

#define TROPIC_INSTANTIATE(W)                                                                \
  template result<W> adds_sssp<W>(const device_matrix<W>&, vertex, const options&);         \
  template result<W> adds_sssp_configured<W>(const device_matrix<W>&, vertex, const options&, \
                                             const adds_config&, adds_report*);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
