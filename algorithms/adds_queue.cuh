// The ADDS ordered work queue (Wang, Fussell, Lin, PPoPP'21, section 5) as a device "ref" object:
// a trivially copyable view of device arrays that the manager thread block (MTB) and the worker
// thread blocks (WTBs) of the ADDS kernel (adds_manager.cuh, adds_worker.cuh) share.
//
// Layout (section 5.3). 32 buckets, each a FIFO addressed by a 64-bit position that only grows
// (positions are never reset, so a writer holding a stale idea of which tier a slot stands for
// never corrupts anything: its item just lands in a bucket of another priority). Storage comes
// in blocks of `block_items` vertex ids from one pool; bucket b maps position p to
//   pool[table[b][(p / block_items) % table_size] * block_items + p % block_items].
// The MTB alone maps blocks (ahead of the reservation pointer) and frees them (behind the oldest
// item still being worked on); it keeps its free list private.
//
// SRMW protocol (section 5.2), per bucket b:
//   resv[b]       reservation pointer: writers fetch_add it (one RMW per group of lanes of a warp
//                 pushing to the same bucket).
//   mapped[b]     positions < mapped[b] have storage. MTB: table + WCC reset, then release-store;
//                 writers acquire-load it before touching the slot.
//   wcc[...]      write-completed counter of each `segment_items` segment, indexed by the
//                 physical pool block (a segment belongs to one block for the block's lifetime),
//                 reset to 0 by the MTB when the block is mapped. A writer stores its item, then
//                 fetch_add(1, release) on the segment's WCC.
//   completed[b]  completed-work counter (CWC, section 5.4): a WTB adds the size of its finished
//                 assignment with release, after every push of the assignment's rounds
//                 (its local rounds included).
// Assignment flags (AF, one 64-bit word per WTB): the MTB release-stores (assigned, bucket,
// count, start); the WTB acquire-loads it, works (its local rounds, adds_tuning::local_rounds,
// included), adds to completed[], then release-stores idle.
#pragma once

#include <cstdint>
#include <cuda/atomic>

#include "adds_config.cuh"
#include "policy.hpp"
#include "tropic/device_matrix.hpp"

namespace tropic::detail {

namespace adds {

inline constexpr int num_buckets = 32;  // section 5.4: a circular array of 32
// Slots wrap with `& (num_buckets - 1)`, and the MTB keeps per-bucket flags in one 32-bit mask.
static_assert(num_buckets <= 32 && (num_buckets & (num_buckets - 1)) == 0,
              "num_buckets: a power of two that fits a 32-bit mask");
// The kernel's shape, the pool's units, the worker's batches (their reasons: policy.hpp). The
// section 5.5 knobs are run-time values: adds_tuning (adds_config.cuh).
using policy::adds::block_items, policy::adds::min_blocks_per_sm, policy::adds::poll_sweeps,
    policy::adds::segment_items, policy::adds::threads_per_block, policy::adds::arc_batch,
    policy::adds::hub_row, policy::adds::local_capacity, policy::adds::local_row_limit,
    policy::adds::flags_per_thread;
inline constexpr unsigned segments_per_block = block_items / segment_items;

// Assignment-flag states.
inline constexpr unsigned af_idle = 0, af_assigned = 1, af_exit = 2;

// Kernel outcome, in control::status.
inline constexpr int status_running = 0, status_done = 1, status_pool_exhausted = 2,
                     status_watchdog = 3, status_stalled = 4, status_host_abort = 5,
                     status_positions = 6;

// Global control block: MTB-written scalars that WTBs read (relaxed: a stale head or delta only
// misplaces an item into a bucket of another priority, which costs order, never correctness),
// the status word, and counters gathered at the end.
struct control {
  int status;
  unsigned head_slot;
  double head_base;  // lower distance bound of the head bucket
  double delta;
  unsigned long long vertices;     // items whose row was scanned
  unsigned long long arcs;         // arcs scanned
  unsigned long long skipped;      // items dropped as already processed at their distance
  unsigned long long assignments;  // chunks handed to WTBs
  unsigned long long retires;      // head-bucket switches
  unsigned long long sweeps;       // MTB loop iterations
  unsigned long long delta_changes;
  unsigned long long max_in_flight;  // most items assigned at once
  double delta_min_seen, delta_max_seen;
  unsigned long long trace_n;  // trace entries written (the ring keeps the last trace_capacity)
  // Heartbeat, readable by the host while the kernel still runs (the statistics above are only
  // published at the end): the MTB stores these (relaxed) every poll_sweeps sweeps, and every
  // worker block counts itself out when it leaves its loop. When a run ignores the host timeout, a
  // snapshot of them says which side hangs: a manager stuck inside a sweep (live_sweeps frozen,
  // status running), a live manager (live_sweeps advancing), or a manager that stopped while
  // some worker never came back (status set, workers_exited < workers).
  unsigned long long live_sweeps, live_progress, live_queued;
  unsigned live_busy;
  unsigned workers_exited;
  // Where the time goes (SM clock cycles, clock64): the MTB's sweeps by phase (A+B: worker flags,
  // completed counters and reservation pointers; C: WCC scan; the per-bucket bookkeeping; D1:
  // thread 0's decisions; D2: assignment flags), and
  // the WTBs' cycles in their loop and, of those, waiting for an assignment.
  unsigned long long manager_phase_cycles[5];
  unsigned long long worker_cycles, worker_wait_cycles;
};

struct queue_ref {
  unsigned long long* resv;       // [num_buckets]
  unsigned long long* mapped;     // [num_buckets]
  unsigned long long* completed;  // [num_buckets]
  unsigned* table;                // [num_buckets * table_size] physical block ids
  unsigned table_size;            // = pool_blocks: a bucket can never hold more blocks
  vertex* pool;                   // [pool_blocks * block_items]
  unsigned* wcc;                  // [pool_blocks * segments_per_block]
  unsigned pool_blocks;
  control* ctl;

  __device__ unsigned block_of(int b, unsigned long long p) const {
    return table[static_cast<std::size_t>(b) * table_size + (p / block_items) % table_size];
  }
};

// Per-WTB assignment flag (AF): one 64-bit word holds the state and the assignment, so that
// one release store publishes an assignment and one acquire load reads it (no separate field
// stores for the MTB's fence to wait on, no second round trip for the worker). Bits 0-1 state,
// 2-6 bucket, 7-23 item count, 24-63 start position. The MTB stops with status_positions
// before a bucket's positions reach af_start_limit (2^40 items pushed into one bucket).
inline constexpr unsigned long long af_start_limit = 1ull << 40;
// Items per assignment: adds_tuning::max_chunk stays below it.
inline constexpr unsigned af_count_limit = 1u << 17;
static_assert(num_buckets <= 32, "the assignment word has 5 bits for the bucket");

__host__ __device__ constexpr unsigned long long af_pack(unsigned state, unsigned bucket,
                                                         unsigned count, unsigned long long start) {
  return state | static_cast<unsigned long long>(bucket) << 2 |
         static_cast<unsigned long long>(count) << 7 | start << 24;
}
__host__ __device__ constexpr unsigned af_state_of(unsigned long long a) {
  return unsigned(a & 3);
}
__host__ __device__ constexpr unsigned af_bucket_of(unsigned long long a) {
  return unsigned(a >> 2) & 31;
}
__host__ __device__ constexpr unsigned af_count_of(unsigned long long a) {
  return unsigned(a >> 7) & (af_count_limit - 1);
}
__host__ __device__ constexpr unsigned long long af_start_of(unsigned long long a) {
  return a >> 24;
}

// Everything the kernel's blocks share: the graph, the distances, the queue, and the MTB's
// private bookkeeping (global memory that only block 0 touches).
template <class W>
struct kernel_args {
  csr_view<W> a;
  W* dist;
  W* processed;  // smallest distance at which each vertex's row was scanned
  queue_ref q;
  unsigned long long* af;  // [workers] assignment words
  unsigned workers;        // gridDim.x - 1
  // MTB-private bookkeeping (global memory, touched by block 0 only).
  int* busy_bucket;                // bucket of each worker's outstanding assignment, -1 if none
  unsigned long long* busy_start;  // its first position
  unsigned* busy_count;            // its size
  unsigned* idle_list;
  unsigned* free_blocks;  // stack of free pool blocks; [0, initial_free) free at launch
  unsigned initial_free;
  vertex source;
  double avg_degree;
  unsigned local_lanes;     // lanes per row in the local rounds (1, 2, 4, 8 or 32)
  double delta0;            // the initial delta (the host also stores it in control::delta)
  bool dynamic_delta;       // false: delta0 throughout (the trace still records every window)
  adds_tuning tuning;       // validated by the host: every value within its documented range
  adds_trace_entry* trace;  // ring of trace_cap entries; null: no trace
  unsigned trace_cap;
  unsigned long long watchdog_ns, stall_ns;
  int* host_abort;  // pinned host memory, raised by the host-side timeout
  W cutoff;         // options::cutoff as a W bound: a vertex lowered beyond it is never queued
};

}  // namespace adds

}  // namespace tropic::detail
