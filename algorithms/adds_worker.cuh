// ADDS worker thread blocks (WTBs; Wang, Fussell, Lin, PPoPP'21, section 5): every block of the
// kernel but block 0. A WTB waits for an assignment (a chunk of one bucket), relaxes its rows,
// pushes every vertex it lowers into the bucket of its new distance, relaxes what it lowered
// into the chunk's own bucket itself for a few local rounds (ours), and reports the chunk
// complete. The queue and its protocol: adds_queue.cuh; the manager: adds_manager.cuh.
//
// A chunk is worked in rounds of one item per thread (worker()):
//   check_item    the item's vertex, skipped when its row was already relaxed at a distance no
//                 larger (`processed`: a load, then an atomic min only for the items that pass)
//   lay_out_round a block-wide scan of the row lengths lays the round's arcs out end to end
//                 (Davidson et al.'s load-balanced partitioning, within one block)
//   relax_arcs    the threads stride over them, arc_batch arcs in flight per thread
//   relax_hubs    rows of hub_row arcs or more, the whole block on each in turn
// then local_rounds() and report_complete(). Duplicates (a vertex queued again before its item
// is picked up) are skipped on arrival, not kept out of the queue: they are cheap to skip, and
// while they pass through the workers fewer real rows are in flight at once, which keeps a wide
// bucket's label-correcting rework down.
//
// Memory ordering: the assignment word is acquired (it carries the MTB's view of the chunk's
// items); pushes reserve relaxed, acquire the bucket's mapped[] and release the segment's WCC;
// the chunk's completion is a fence, a barrier and a release add on completed[], then the
// release of the idle word. Distances: relaxed loads and detail::atomic_min.
#pragma once

#include <cooperative_groups.h>

#include <cub/block/block_scan.cuh>
#include <limits>

#include "adds_queue.cuh"
#include "grid.cuh"
#include "persistent.cuh"
#include "tropic/semiring.hpp"

namespace tropic::detail::adds {

using namespace persistent;

// ---------------------------------------------------------------------------------------------
// Pushes.

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

// Appends v to bucket `slot` (section 5.2). Lanes of a warp pushing to the same bucket share one
// reservation.
__device__ __forceinline__ void push(const queue_ref& q, unsigned slot, vertex v) {
  // Relaxed: the reservation only has to be unique; its visibility to the termination test is
  // carried by the WTB's release on completed[] after the chunk (report_complete()).
  const unsigned long long p = reserve_grouped(&q.resv[slot], slot);
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
  device_atomic<unsigned>(
      q.wcc[static_cast<std::size_t>(blk) * segments_per_block + (p % block_items) / segment_items])
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

// ---------------------------------------------------------------------------------------------
// Local rounds (ours, not the paper's): the rows a WTB keeps to relax itself after its chunk.
// Two queues, one read while the other fills; held[q] counts every row offered to queue q, also
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

// After its chunk's rounds, the rows the chunk lowered into its own bucket (queue 0; also
// queued as usual) are relaxed by this block, and what those rows lower into the same bucket
// makes the next round, and so on: on a thin wavefront (a road network's, a mesh's) a hop then
// costs a block barrier and two round trips to memory instead of an MTB round trip (about two
// sweeps), a push and a row-length scan.
//
// A round is one push_row per kept row, a group of k.local_lanes lanes each (delta-stepping's
// light closure does the same, semiring/grid.cuh): each target's row bounds are loaded beside
// its atomic, so a target kept for the next round needs no further load. Rows lowered in the
// local rounds are held by this block alone (not queued) while they stay here; rows for other
// buckets, long rows and rows beyond the queue's capacity are pushed at once, and whatever is
// still held when the rounds stop is pushed then, unless its vertex has fallen further since
// (whoever lowered it holds it). The chunk is reported complete only after its local rounds, so
// its bucket, which the held rows belong to, is still the head or behind it: the chunk's view of
// the head files them.
//
// The rounds stop after adds_tuning::local_rounds rounds, or when a round offers more rows than
// adds_tuning::local_passes passes of the block's lane groups take: a wavefront widening
// faster than one block relaxes it (a Kronecker or random graph's) is spread better by the
// queue over the idle WTBs.
//
// A kept row is skipped when its vertex has fallen below the row's value (superseded: the one
// that lowered it holds it) or was relaxed at a distance no larger than the row's already (its
// queued copy, taken by another WTB first: `processed`); a relaxed row lowers `processed` to its
// value, so that its queued copies are skipped on arrival. The store is a reduction nobody
// waits for. The row's arcs are loaded only after the group has agreed on the two loads (one
// view for all its lanes, by a shuffle): three dependent round trips a hop where
// delta-stepping's closure has two (bench/results/h200-run54/NOTES.md, which also has an L1
// prefetch of the arcs that did not pay).
template <class W>
__device__ void local_rounds(const kernel_args<W>& k, local_queue<W>& lq, const head_view& h,
                             unsigned bucket, unsigned long long& my_vertices,
                             unsigned long long& my_arcs) {
  const unsigned tid = threadIdx.x, lanes = k.local_lanes, lane = tid % lanes;
  const unsigned group_mask =
      lanes == 32 ? ~0u : ((1u << lanes) - 1u) << (tid % 32 / lanes * lanes);
  const unsigned width = k.tuning.local_passes * (threads_per_block / lanes);
  constexpr W lowest = std::numeric_limits<W>::lowest();
  const closure_args<W> c{
      k.a, row_ranges{k.a.row_offsets, nullptr, row_part::all}, k.dist, {}, {}, nullptr, nullptr,
      {}};
  const value_range<W> any_value{};  // every improvement is kept or pushed
  const auto hold = [&](int q, const closure_item<W>& item) {
    if (item.x > k.cutoff) return;  // beyond the cutoff: never expanded (masked at the end)
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
          if (!(load_relaxed(&k.dist[item.v]) < item.x))
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
      const W relaxed_at = load_relaxed(&k.processed[item.v]);
      const W now = load_relaxed(&k.dist[item.v]);
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

// ---------------------------------------------------------------------------------------------
// The worker's phases.

// A WTB's shared memory.
template <class W>
struct worker_shared {
  typename cub::BlockScan<arc_index, threads_per_block>::TempStorage scan;
  unsigned state, bucket, count;  // the assignment word's fields
  unsigned long long start;
  head_view head;
  // The round's rows in scan order: their first arc's position in the round (first), the arc
  // index minus that position (shift), and the distance they are relaxed at.
  arc_index first[threads_per_block], shift[threads_per_block];
  W du[threads_per_block];
  // The round's hub rows: vertex and distance.
  unsigned hubs;
  vertex hub_u[threads_per_block];
  W hub_d[threads_per_block];
  local_queue<W> local;  // the rows kept for the local rounds
};

// The assignment a WTB works on, as every thread holds it.
struct chunk_view {
  unsigned bucket, count;
  unsigned long long start;
  head_view h;  // the head when the chunk was taken
  bool local;   // local rounds on
};

// Rows scanned and items skipped by one thread (published once, at the end).
struct worker_counts {
  unsigned long long vertices = 0, arcs = 0, skipped = 0;
};

// Thread 0 waits for the MTB's assignment word, then the block shares it. False: exit.
template <class W>
__device__ __forceinline__ bool wait_for_assignment(const kernel_args<W>& k, worker_shared<W>& s,
                                                    unsigned w, unsigned long long& wait_cycles) {
  if (threadIdx.x == 0) {
    const long long wait_start = clock64();
    device_atomic<unsigned long long> flag(k.af[w]);
    device_atomic<int> status(k.q.ctl->status);
    unsigned long long a;
    // Acquire pairs with the MTB's release of the assignment word: what the MTB saw before
    // handing out the chunk (the WCC counts of its items, so the items) is visible.
    for (unsigned spins = 0; af_state_of(a = flag.load(memory_order_acquire)) == af_idle; ++spins) {
      if ((spins & 63) == 63 && status.load(memory_order_relaxed) != status_running) {
        a = af_exit;
        break;
      }
      __nanosleep(spins < 64 ? 32 : 256);
    }
    wait_cycles += clock64() - wait_start;
    const unsigned st = af_state_of(a);
    s.state = st;
    if (st == af_assigned) {
      s.bucket = af_bucket_of(a);
      s.count = af_count_of(a);
      s.start = af_start_of(a);
      s.head = load_head(k.q.ctl, s.bucket);
      s.local.held[0] = s.local.held[1] = 0;
    }
  }
  __syncthreads();
  return s.state == af_assigned;
}

// x, just lowered to d by the chunk's rounds, is pushed into the bucket of d; when that is the
// chunk's own bucket it is also kept for the local rounds (without its row bounds: most of what
// a Kronecker graph's chunk keeps is never relaxed locally, local_rounds() loads them).
template <class W>
__device__ __forceinline__ void enqueue(const kernel_args<W>& k, const chunk_view& c,
                                        local_queue<W>& lq, W d, vertex x) {
  if (d > k.cutoff) return;  // beyond the cutoff: never expanded (masked at the end)
  const unsigned slot = bucket_for(d, c.h, k.q.ctl);
  push(k.q, slot, x);
  if (c.local && slot == c.bucket) keep(lq, 0, {x, d, 0, 0});
}

// One row of a round: the distance it is relaxed at, its first arc and its length (0: skipped,
// or a hub, set aside for relax_hubs()).
template <class W>
struct round_row {
  W du{};
  arc_index first = 0, length = 0;
};

// This thread's item of the round starting at `round`. Skipped when its row was (or is being)
// relaxed at du or less already: those relaxations cover everything this one would do, so
// duplicates at an equal distance go too. The relaxed load first spares most duplicates the
// atomic.
template <class W>
__device__ __forceinline__ round_row<W> check_item(const kernel_args<W>& k, worker_shared<W>& s,
                                                   const chunk_view& c, unsigned round,
                                                   worker_counts& n) {
  round_row<W> row;
  const unsigned tid = threadIdx.x;
  if (round + tid < c.count) {
    const unsigned long long p = c.start + round + tid;
    const vertex u = k.q.pool[static_cast<std::size_t>(k.q.block_of(c.bucket, p)) * block_items +
                              p % block_items];
    row.du = load_relaxed(&k.dist[u]);
    if (!(row.du < load_relaxed(&k.processed[u])) ||
        !(row.du < atomic_min(&k.processed[u], row.du))) {
      ++n.skipped;
    } else {
      row.first = k.a.row_offsets[u];
      row.length = k.a.row_offsets[u + 1] - row.first;
      ++n.vertices;
      n.arcs += row.length;
      if (row.length >= hub_row) {
        const unsigned slot = atomicAdd(&s.hubs, 1u);
        s.hub_u[slot] = u;
        s.hub_d[slot] = row.du;
        row.length = 0;
      }
    }
  }
  return row;
}

struct round_layout {
  arc_index total;  // arcs of the round's rows, hubs excluded
  unsigned hubs;    // hub rows set aside
};

// The block-wide scan of the row lengths: the round's arcs end to end in shared memory.
template <class W>
__device__ __forceinline__ round_layout lay_out_round(worker_shared<W>& s,
                                                      const round_row<W>& row) {
  using block_scan = cub::BlockScan<arc_index, threads_per_block>;
  const unsigned tid = threadIdx.x;
  arc_index offset, total;
  block_scan(s.scan).ExclusiveSum(row.length, offset, total);
  s.first[tid] = offset;
  s.shift[tid] = row.first - offset;  // modulo 2^64: arc = shift[r] + position
  s.du[tid] = row.du;
  __syncthreads();
  // Every thread has its copy of the hub count before thread 0 clears it for the next round
  // (whose first atomicAdd comes after the barrier that ends this round).
  const unsigned hubs = s.hubs;
  __syncthreads();
  if (tid == 0) s.hubs = 0;
  return {total, hubs};
}

// The threads stride over the round's arcs, arc_batch at a time each. Arc e of the round
// belongs to the last row r with first[r] <= e (empty rows share their position with the next
// row, which is the one found); a thread's e only grows. The batch's searches all start from the
// previous batch's row, so they run side by side; each thread issues the loads of its batch
// before it uses any of them: the loop is latency-bound.
template <class W>
__device__ __forceinline__ void relax_arcs(const kernel_args<W>& k, worker_shared<W>& s,
                                           const chunk_view& c, arc_index total) {
  const unsigned tid = threadIdx.x;
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
        if (s.first[mid] <= e)
          lo = mid;
        else
          hi = mid;
      }
      row[b] = lo;
    }
#pragma unroll
    for (int b = 0; b < arc_batch; ++b) {
      const arc_index e = e0 + arc_index(b) * threads_per_block;
      v[b] = 0;
      nd[b] = W{};
      if (e < total) {
        const arc_index arc = s.shift[row[b]] + e;
        v[b] = k.a.columns[arc];
        nd[b] = saturating_add(s.du[row[b]], k.a.weights[arc]);
        r = row[b];
      }
    }
#pragma unroll
    for (int b = 0; b < arc_batch; ++b)
      if (e0 + arc_index(b) * threads_per_block < total) seen[b] = load_relaxed(&k.dist[v[b]]);
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
      for (int c2 = 0; c2 < arc_batch; ++c2)  // registers, not a local-memory array index
        if (c2 == b) {
          d = nd[c2];
          x = v[c2];
        }
      enqueue(k, c, s.local, d, x);
    }
  }
}

// The round's hubs, one at a time, the block striding over each one's arcs.
template <class W>
__device__ __forceinline__ void relax_hubs(const kernel_args<W>& k, worker_shared<W>& s,
                                           const chunk_view& c, unsigned hubs) {
  const unsigned tid = threadIdx.x;
  for (unsigned x = 0; x < hubs; ++x) {
    const vertex hu = s.hub_u[x];
    const W hd = s.hub_d[x];
    const arc_index b = k.a.row_offsets[hu], e = k.a.row_offsets[hu + 1];
    for (arc_index arc = b + tid; arc < e; arc += threads_per_block) {
      const vertex v = k.a.columns[arc];
      const W nd = saturating_add(hd, k.a.weights[arc]);
      if (nd < load_relaxed(&k.dist[v]) && nd < atomic_min(&k.dist[v], nd))
        enqueue(k, c, s.local, nd, v);
    }
  }
}

// The chunk is complete after its local rounds, which are part of its work: the rows they hold
// are in no bucket, so the bucket must not retire before they are relaxed or pushed. Every
// thread's reservations and item stores happen before the CWC increment (fence + barrier + RMW
// by thread 0): when the MTB sees the count, it also sees every reservation the chunk made,
// which the termination test relies on; the idle word comes after the count. The barrier also
// orders every thread's last reads of the chunk's shared state before thread 0 writes the next
// chunk's.
template <class W>
__device__ __forceinline__ void report_complete(const kernel_args<W>& k, unsigned w,
                                                const chunk_view& c) {
  cuda::atomic_thread_fence(memory_order_release, cuda::thread_scope_device);
  __syncthreads();
  if (threadIdx.x == 0) {
    device_atomic<unsigned long long>(k.q.completed[c.bucket])
        .fetch_add(c.count, memory_order_release);
    device_atomic<unsigned long long>(k.af[w]).store(af_idle, memory_order_release);
  }
}

// Statistics: one atomic per warp; thread 0's cycle counts; the heartbeat's exit count.
template <class W>
__device__ __forceinline__ void publish_worker_counts(const kernel_args<W>& k, worker_counts n,
                                                      long long loop_start,
                                                      unsigned long long wait_cycles) {
  for (int o = 16; o; o >>= 1) {
    n.vertices += __shfl_down_sync(~0u, n.vertices, o);
    n.arcs += __shfl_down_sync(~0u, n.arcs, o);
    n.skipped += __shfl_down_sync(~0u, n.skipped, o);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(&k.q.ctl->vertices, n.vertices);
    atomicAdd(&k.q.ctl->arcs, n.arcs);
    atomicAdd(&k.q.ctl->skipped, n.skipped);
  }
  if (threadIdx.x == 0) {
    atomicAdd(&k.q.ctl->worker_cycles, static_cast<unsigned long long>(clock64() - loop_start));
    atomicAdd(&k.q.ctl->worker_wait_cycles, wait_cycles);
    atomicAdd(&k.q.ctl->workers_exited, 1u);  // heartbeat: this block is out
  }
}

// A WTB: assignments until the MTB says exit.
template <class W>
__device__ void worker(const kernel_args<W>& k) {
  __shared__ worker_shared<W> s;
  const unsigned w = blockIdx.x - 1;
  worker_counts n;
  // Thread 0's cycle counts: the whole loop and its waits for an assignment.
  const long long loop_start = clock64();
  unsigned long long wait_cycles = 0;
  if (threadIdx.x == 0) s.hubs = 0;

  while (wait_for_assignment(k, s, w, wait_cycles)) {
    const chunk_view c{s.bucket, s.count, s.start, s.head, k.tuning.local_rounds > 0};
    for (unsigned round = 0; round < c.count; round += threads_per_block) {
      const round_row<W> row = check_item(k, s, c, round, n);
      const round_layout l = lay_out_round(s, row);
      relax_arcs(k, s, c, l.total);
      relax_hubs(k, s, c, l.hubs);
      __syncthreads();  // the round's rows and hubs are consumed before the next
    }
    if (c.local) local_rounds(k, s.local, c.h, c.bucket, n.vertices, n.arcs);
    report_complete(k, w, c);
  }
  publish_worker_counts(k, n, loop_start, wait_cycles);
}

}  // namespace tropic::detail::adds
