// The ADDS manager's phases (adds_manager.cuh calls them in order, one sweep after another) and
// the state they share. Phases run by the whole MTB or one warp take the block's shared state;
// the decisions of D1 and D2 run on thread 0 alone and touch only shared memory and a few global
// words per sweep.
#pragma once

#include "adds_queue.cuh"
#include "persistent.cuh"

namespace tropic::detail::adds {

using namespace persistent;

// Phase C: warp w scans the w-th, (w + manager_warps)-th, ... bucket with new reservations.
inline constexpr int manager_warps = threads_per_block / 32;
static_assert(num_buckets == 32, "phase B and the bookkeeping give each bucket a lane of warp 0");

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

// What the whole MTB shares, per bucket and per sweep.
struct manager_shared {
  // Per bucket: the next position to assign (read), the positions below which every item is
  // written (written), freed up to (freed), storage mapped up to (mapped), this sweep's
  // reservation pointer, at least `written` (resv), its completed-work counter (cwc), and the
  // oldest position still assigned, in whole pool blocks (minout).
  unsigned long long read[num_buckets], written[num_buckets], freed[num_buckets],
      mapped[num_buckets], resv[num_buckets], cwc[num_buckets], minout[num_buckets];
  unsigned long long resv_now[num_buckets];  // phase B's reservation pointers
  // The pool block holding each bucket's `written` position (block index, block id): phase C's
  // scan mostly reads WCCs of that block, and this spares it a table load (a round trip) first.
  unsigned long long wblock_index[num_buckets];
  unsigned wblock_id[num_buckets];
  // The assignment plan of this sweep: plan j hands chunks [first[j], first[j+1]) of the idle
  // list items [start[j], start[j] + items[j]) of bucket bucket[j], `chunk` items each.
  unsigned plan_bucket[num_buckets], plan_first[num_buckets + 1];
  unsigned long long plan_start[num_buckets], plan_items[num_buckets];
  unsigned plan_n, plan_chunk;
  unsigned idle_n, busy_n, need_map, scan_mask, waiting_mask, positions_out;
  unsigned long long in_flight, queued, progress;
  int stop;
};

// Thread 0's totals of this sweep, from D1 to D2.
struct sweep_totals {
  unsigned long long now = 0, queued = 0, progress = 0, in_flight = 0;
  unsigned idle = 0, assigned = 0;
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

// ---------------------------------------------------------------------------------------------
// Start and end.

// Thread 0: the initial state, one pool block per bucket (the host sized the pool for at least
// that), and the source item at position 0 of the head bucket, written as a WTB would write it.
template <class W>
__device__ __forceinline__ void start(const kernel_args<W>& k, manager_shared& s, manager_state& m,
                                      double hw_threads) {
  if (threadIdx.x != 0) return;
  const queue_ref& q = k.q;
  const adds_tuning& t = k.tuning;
  m = manager_state{};
  m.open = 1;
  m.delta = k.delta0;
  m.delta_floor = k.delta0 * t.delta_floor_ratio;
  m.delta_ceiling = k.delta0 * t.delta_ceiling_ratio;
  m.raise_limit = k.delta0 * t.util_raise_ratio;
  m.delta_min_seen = m.delta_max_seen = k.delta0;
  m.free_top = k.initial_free;
  m.start_ns = m.last_progress_ns = global_ns();
  s.stop = 0;
  s.plan_n = 0;
  s.plan_first[0] = 0;
  for (int b = 0; b < num_buckets; ++b) {
    const unsigned blk = k.free_blocks[--m.free_top];
    for (unsigned g = 0; g < segments_per_block; ++g) q.wcc[blk * segments_per_block + g] = 0;
    q.table[static_cast<std::size_t>(b) * q.table_size] = blk;
    s.read[b] = s.written[b] = s.freed[b] = 0;
    s.mapped[b] = block_items;
    s.wblock_index[b] = 0;
    s.wblock_id[b] = blk;
  }
  q.pool[static_cast<std::size_t>(q.table[0]) * block_items] = k.source;
  q.wcc[static_cast<std::size_t>(q.table[0]) * segments_per_block] = 1;
  q.resv[0] = 1;
  for (int b = 0; b < num_buckets; ++b)
    device_atomic<unsigned long long>(q.mapped[b]).store(block_items, memory_order_release);
  // Nothing completed or in flight yet; one item (the source) queued.
  trace_append(k, m, m.start_ns, 0, 1, 0, hw_threads, adds_trace_entry::keep);
}

__device__ __forceinline__ void begin_sweep(manager_shared& s) {
  const unsigned tid = threadIdx.x;
  if (tid == 0) {
    s.idle_n = 0;
    s.busy_n = 0;
    s.in_flight = 0;
  }
  if (tid < num_buckets) s.minout[tid] = ~0ull;
}

// Wakes idle workers now instead of at their next status poll. A stop decided in phase D1
// handed out no work; one decided by map_blocks (an error: the run is void) may overwrite this
// sweep's assignments, whose workers then leave without them.
template <class W>
__device__ __forceinline__ void wake_workers(const kernel_args<W>& k) {
  for (unsigned w = threadIdx.x; w < k.workers; w += blockDim.x)
    device_atomic<unsigned long long>(k.af[w]).store(af_exit, memory_order_relaxed);
}

// Publishes the statistics; the host reads them after the kernel. (control::delta needs no
// store here: the MTB stored every change as it made it, and workers may still be reading it.)
// The heartbeat gets the final sweep count, for a host that snapshots a hang on the worker side.
template <class W>
__device__ __forceinline__ void publish_manager_statistics(const kernel_args<W>& k,
                                                           const manager_state& m) {
  if (threadIdx.x != 0) return;
  control& ctl = *k.q.ctl;
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

// ---------------------------------------------------------------------------------------------
// Phases A, B, C and the bookkeeping: the whole block, or warp 0.

// Phase A (warps 1 and up): which workers finished. Each thread loads the words and the MTB's
// records of flags_per_thread workers at once (relaxed); a worker seen idle is loaded again with
// acquire, which pairs with the worker's release of af_idle: its CWC increment, its pushes and
// its reads of its chunk are then visible to (happen before) this thread, and after the barrier
// to the whole MTB (phase C, the bookkeeping that frees the chunk's blocks). Same-address shared
// atomics serialise, so a warp first combines its lanes' counts (and the minimum chunk start per
// bucket, in whole pool blocks: only the free-block test reads it, and rounding down only frees
// later) and one lane per warp or bucket group adds them.
template <class W>
__device__ __forceinline__ void find_finished_workers(const kernel_args<W>& k, manager_shared& s) {
  const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
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
        if (lane == 0) first = atomicAdd(&s.idle_n, __popc(idle_lanes));
        first = __shfl_sync(~0u, first, 0);
        if (idle) k.idle_list[first + __popc(idle_lanes & ((1u << lane) - 1))] = w;
      }
      const unsigned group = __match_any_sync(~0u, busy ? bb[j] : -1);
      if (busy) {
        const unsigned oldest =
            __reduce_min_sync(group, static_cast<unsigned>(bs[j] / block_items));
        if (lane == __ffs(group) - 1)
          atomicMin(&s.minout[bb[j]], static_cast<unsigned long long>(oldest) * block_items);
        ++busy_n;
        busy_items += bc[j];
      }
    }
  }
  busy_n = __reduce_add_sync(~0u, busy_n);
  for (int o = 16; o; o >>= 1) busy_items += __shfl_down_sync(~0u, busy_items, o);
  if (warp > 0 && lane == 0 && busy_n != 0) {
    atomicAdd(&s.busy_n, busy_n);
    atomicAdd(&s.in_flight, busy_items);
  }
}

// Phase B (warp 0): the completed-work counters, then the reservation pointers. A completed
// item's pushes were reserved before its CWC increment (release, paired with the acquire loads
// here), and __syncwarp orders every lane's counter load before every lane's pointer load: so
// every reservation made by the items counted is visible to the pointer loads, and
// sum(completed) == sum(resv) proves no item is outstanding and none can appear.
template <class W>
__device__ __forceinline__ void read_counters(const kernel_args<W>& k, manager_shared& s) {
  const unsigned lane = threadIdx.x & 31;
  if (threadIdx.x >> 5 != 0) return;
  s.cwc[lane] = device_atomic<unsigned long long>(k.q.completed[lane]).load(memory_order_acquire);
  __syncwarp();
  const unsigned long long r =
      device_atomic<unsigned long long>(k.q.resv[lane]).load(memory_order_relaxed);
  s.resv_now[lane] = r;
  // Buckets with reserved slots past `written` whose blocks are mapped: phase C scans them.
  const unsigned scan = __ballot_sync(~0u, s.written[lane] < min(r, s.mapped[lane]));
  if (lane == 0) s.scan_mask = scan;
}

// Phase C: the warps share the buckets that have new reservations, one warp per bucket, and
// advance `written` over WCC segments (section 5.2). `limit`, and so the trip count of the loop
// below, whose every pass runs __ballot_sync/__shfl_sync over the full warp, is warp-uniform: it
// comes from the one pointer value phase B stored in shared memory. (With one load per lane,
// lanes that reach the loop at different times could read different values of a pointer that
// writers bump constantly, disagree on `wr < limit`, and meet a full-mask ballot in some lanes
// and the __syncwarp below in others: undefined behaviour, which can deadlock the manager.)
template <class W>
__device__ __forceinline__ void scan_written(const kernel_args<W>& k, manager_shared& s) {
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const queue_ref& q = k.q;
  const unsigned scan_mask = s.scan_mask;
  unsigned pending = scan_mask;
  for (unsigned skip = warp; skip > 0 && pending; --skip) pending &= pending - 1;
  while (pending) {
    const unsigned b = __ffs(pending) - 1;
    for (unsigned skip = manager_warps; skip > 0 && pending; --skip) pending &= pending - 1;
    device_atomic<unsigned long long> resv(q.resv[b]);
    const unsigned long long r = s.resv_now[b];
    unsigned long long wr = s.written[b];
    // Segments at or past mapped[] have no block yet: their WCC slot is not theirs.
    const unsigned long long limit = min(r, s.mapped[b]);
    while (wr < limit) {
      const unsigned long long seg0 = wr / segment_items;
      const unsigned long long seg_start = (seg0 + lane) * segment_items;
      unsigned c = 0;
      if (seg_start < limit) {
        const unsigned blk = seg_start / block_items == s.wblock_index[b]
                                 ? s.wblock_id[b]
                                 : q.block_of(b, seg_start);
        // Acquire pairs with the writers' release increments: items counted are visible.
        c = device_atomic<unsigned>(q.wcc[static_cast<std::size_t>(blk) * segments_per_block +
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
    // Every lane read s.written[b] above; lane 0 overwrites it below. Lanes of a warp are not
    // in lockstep (independent thread scheduling since Volta): without the warp barrier, the
    // read of a lagging lane and lane 0's write race (harmless, the loop's result is
    // warp-uniform, but a race under the memory model, which compute-sanitizer's racecheck
    // reports).
    __syncwarp();
    if (lane == 0) s.written[b] = wr;
  }
}

// Per-bucket bookkeeping, warp 0, a lane per bucket (it would otherwise be a serial loop of
// thread 0's in phase D1): the queue totals, the blocks behind the oldest item still assigned or
// unassigned (section 5.3; s.read[b] is the read pointer before this sweep's assignments) pushed
// onto the free stack (pushes only: thread 0 pops after the barrier), the buckets short of a
// spare block, and those holding unassigned items.
template <class W>
__device__ __forceinline__ void bookkeeping(const kernel_args<W>& k, manager_shared& s,
                                            manager_state& m) {
  if (threadIdx.x >> 5 != 0) return;
  const unsigned lane = threadIdx.x & 31;
  const queue_ref& q = k.q;
  const unsigned b = lane;
  const unsigned long long wr = s.written[b], rv = max(s.resv_now[b], wr);
  s.resv[b] = rv;
  unsigned long long queued = rv - s.cwc[b], progress = s.cwc[b];
  for (int o = 16; o; o >>= 1) {
    queued += __shfl_down_sync(~0u, queued, o);
    progress += __shfl_down_sync(~0u, progress, o);
  }
  const unsigned long long oldest = min(s.minout[b], s.read[b]);
  while (s.freed[b] + block_items <= oldest) {
    k.free_blocks[atomicAdd(&m.free_top, 1u)] = q.block_of(b, s.freed[b]);
    s.freed[b] += block_items;
  }
  if (wr / block_items != s.wblock_index[b] && wr < s.mapped[b]) {
    s.wblock_index[b] = wr / block_items;
    s.wblock_id[b] = q.block_of(b, wr);
  }
  const unsigned need_map = __ballot_sync(~0u, s.mapped[b] < rv + block_items);
  const unsigned waiting = __ballot_sync(~0u, rv > s.read[b]);
  const unsigned past_limit = __ballot_sync(~0u, rv >= af_start_limit);
  if (lane == 0) {
    s.queued = queued;
    s.progress = progress;
    s.need_map = need_map;
    s.waiting_mask = waiting;
    s.positions_out = past_limit != 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Phase D2: the whole block writes the planned assignment words, one chunk per thread (thread 0,
// after its share, turns the knobs and maps memory: adds_manager_decisions.cuh).

template <class W>
__device__ __forceinline__ void write_assignments(const kernel_args<W>& k,
                                                  const manager_shared& s) {
  const unsigned plans = s.plan_n;
  const unsigned total = s.plan_first[plans];
  const unsigned long long chunk = s.plan_chunk;
  for (unsigned i = threadIdx.x; i < total; i += blockDim.x) {
    unsigned j = 0;
    while (s.plan_first[j + 1] <= i) ++j;
    const unsigned long long off = (i - s.plan_first[j]) * chunk;
    const unsigned c = static_cast<unsigned>(min(chunk, s.plan_items[j] - off));
    const unsigned long long start = s.plan_start[j] + off;
    const unsigned b = s.plan_bucket[j];
    const unsigned w = k.idle_list[i];
    // Release: what this MTB acquired (the WCCs counting the chunk's items) before the worker
    // that acquires the word reads the items.
    device_atomic<unsigned long long>(k.af[w]).store(af_pack(af_assigned, b, c, start),
                                                     memory_order_release);
    k.busy_bucket[w] = static_cast<int>(b);
    k.busy_start[w] = start;
    k.busy_count[w] = c;
  }
}

}  // namespace tropic::detail::adds
