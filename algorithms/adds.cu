// ADDS: asynchronous dynamic delta-stepping (Wang, Fussell, Lin, "Asynchronous Dynamic
// Delta-Stepping", PPoPP'21, section 5), written from the paper for tropic's device matrix.
//
// One persistent cooperative kernel. Block 0 is the manager (MTB, adds_manager.cuh); every other
// block is a worker (WTB, adds_worker.cuh). Workers never read the queue metadata: the MTB finds
// written items (WCC scan), hands chunks of them to idle workers through per-worker assignment
// words, retires the head bucket when its completed-work counter reaches its reservation
// pointer, maps and frees pool blocks, and moves delta. Workers relax the rows of their chunk
// and push improved vertices straight into the bucket of their new distance. The queue and its
// protocol: adds_queue.cuh; the shared persistent-kernel scaffolding: persistent.cuh.
//
// Work item = vertex id. A worker reads the vertex's current distance d and skips the item when
// the vertex was already relaxed at a distance <= d (`processed`): the duplicates a
// label-correcting queue collects cost a load or one atomic instead of a row scan.
//
// Two additions of ours to the paper's scheme, both for the hop latency of high-diameter graphs
// (a pushed item waits for the MTB's next sweep, then for its assignment): the sweep is laid
// out as a few rounds of loads in flight together, with no device-scope fence on its path; and
// a WTB whose chunk lowered only a handful of vertices into its own bucket relaxes them itself,
// and what they lower, in up to adds_tuning::local_rounds further rounds of a block-local queue.
//
// Section 5.5's knobs (open buckets, utilisation limits, settling, clipping, chunk sizes) are
// run-time values, adds_tuning (adds_config.cuh), with their defaults in policy.hpp; an optional
// ring of adds_trace_entry records the MTB's delta decisions (adds_config::trace_capacity, or
// options.verbose).
//
// Memory ordering: every cross-block handshake is a release store / RMW paired with an acquire
// load at device scope (cuda::atomic_ref), or with relaxed loads followed by one acquire fence
// (where the MTB polls many flags at once); distances are read with relaxed atomic loads and
// lowered with detail::atomic_min. Comments at each site say which invariant the order protects.
//
// Limits: vertex ids are 32-bit (tropic::vertex); queue positions 64-bit (never wrap); weights
// must be non-negative (the dispatcher checks). The co-residency of all blocks is guaranteed by
// the cooperative launch, whose grid we size with the occupancy API.

// The MTB's warp reductions (__reduce_min_sync, __reduce_add_sync) need sm_80 or newer.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "algorithms/adds.cu needs sm_80 or newer (CMAKE_CUDA_ARCHITECTURES 80 or above)"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "adds_manager.cuh"
#include "adds_queue.cuh"
#include "adds_worker.cuh"
#include "persistent.cuh"
#include "tropic/detail/cutoff.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/error.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {

namespace adds {
namespace {

template <class W>
__global__ void __launch_bounds__(threads_per_block, min_blocks_per_sm)
    adds_kernel(kernel_args<W> k) {
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
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < workers; i += stride)
    busy_bucket[i] = -1;
}

// control::status as text, indexed by the status_* values.
constexpr const char* status_names[] = {"running",
                                        "done",
                                        "bucket pool exhausted",
                                        "device watchdog (total time bound)",
                                        "device watchdog (no completed work)",
                                        "host timeout",
                                        "queue position limit (2^40 items pushed into one bucket)"};
static_assert(status_done == 1 && status_pool_exhausted == 2 && status_watchdog == 3 &&
                  status_stalled == 4 && status_host_abort == 5 && status_positions == 6,
              "status_names follows the status values");

const char* status_text(int s) {
  return persistent::status_text(status_names, s);
}

// The kernel relies on these ranges (adds_tuning documents them) and does not clamp.
void check_tuning(const adds_tuning& tn) {
  if (tn.max_open_buckets < 1 || tn.max_open_buckets > num_buckets || tn.settle_switches < 1 ||
      !(tn.util_low < tn.util_high) || !(tn.delta_floor_ratio > 0 && tn.delta_floor_ratio <= 1) ||
      !(tn.delta_ceiling_ratio >= 1) || !(tn.util_raise_ratio >= 1) || tn.min_chunk < 1 ||
      tn.max_chunk < tn.min_chunk || tn.max_chunk >= af_count_limit || tn.local_rounds > 65536 ||
      tn.local_passes < 1 || tn.local_passes > 65536)
    throw error(error_code::invalid_value,
                "adds: tuning out of range (open buckets 1..32, settle_switches >= 1, "
                "util_low < util_high, 0 < delta_floor_ratio <= 1 <= delta_ceiling_ratio, "
                "util_raise_ratio >= 1, 1 <= min_chunk <= max_chunk < 131072, "
                "local_rounds <= 65536, 1 <= local_passes <= 65536)");
}

// The manager did not act on the host's abort flag: which side hangs, from two heartbeat
// snapshots 1 s apart (the heartbeat moves every poll_sweeps sweeps).
std::string diagnose_hang(const control* device_ctl, persistent::pinned_host_area<control>& pinned,
                          unsigned workers) {
  control s0{}, s1{};
  const bool got0 = persistent::peek_control(device_ctl, pinned.snapshot, 1000);
  if (got0) s0 = *pinned.snapshot;
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  const bool got1 = got0 && persistent::peek_control(device_ctl, pinned.snapshot, 1000);
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
          std::to_string(workers - s1.workers_exited) + " of " + std::to_string(workers) +
          " worker blocks never left their loop";
  }
  if (got1)
    why += "; last heartbeat: sweep " + std::to_string(s1.live_sweeps) + ", " +
           std::to_string(s1.live_progress) + " items completed, " +
           std::to_string(s1.live_queued) + " queued, " + std::to_string(s1.live_busy) +
           " workers busy, " + std::to_string(s1.workers_exited) + " of " +
           std::to_string(workers) + " worker blocks exited";
  return why;
}

// Where the time went: phase shares of the MTB's cycles, the mean sweep in wall time.
struct time_shares {
  double phase[5] = {};
  double sweep_us = 0, worker_wait = 0;
};

time_shares time_shares_of(const control& c, double ms) {
  time_shares where;
  double total = 0;
  for (unsigned long long x : c.manager_phase_cycles) total += double(x);
  for (int i = 0; i < 5; ++i)
    where.phase[i] = total > 0 ? double(c.manager_phase_cycles[i]) / total : 0;
  where.sweep_us = c.sweeps ? ms * 1e3 / double(c.sweeps) : 0;
  where.worker_wait = c.worker_cycles ? double(c.worker_wait_cycles) / double(c.worker_cycles) : 0;
  return where;
}

void print_trace(const control& c, const std::vector<adds_trace_entry>& trace, std::uint64_t kept) {
  std::fprintf(stderr,
               "adds: delta trace (%llu entries%s; util = arcs in flight / hardware threads, "
               "window means; decision 0 keep, 1 raise, 2 clip-raise, -1 lower, 3 end)\n"
               "  %10s %9s %8s %12s %12s %7s %6s %6s %4s %10s %10s %9s %3s\n",
               (unsigned long long)c.trace_n, c.trace_n > kept ? ", the last ones" : "", "ms",
               "sweep", "retires", "delta", "head_base", "util", "held", "clip", "open",
               "completed", "queued", "in_flight", "dec");
  for (const auto& e : trace)
    std::fprintf(stderr,
                 "  %10.3f %9llu %8llu %12.6g %12.6g %7.3f %6.2f %6.2f %4d %10llu %10llu %9llu "
                 "%3d\n",
                 e.ms, (unsigned long long)e.sweep, (unsigned long long)e.retires, e.delta,
                 e.head_base, e.avg_util, e.held_back_share, e.clip_share, e.open,
                 (unsigned long long)e.completed, (unsigned long long)e.queued,
                 (unsigned long long)e.in_flight, e.decision);
}

}  // namespace
}  // namespace adds

template <class W>
result<W> adds_sssp_configured(const device_matrix<W>& a, vertex source, const options& opts,
                               const adds_config& cfg, adds_report* report) {
  const vertex n = a.rows();
  cudaStream_t stream = a.stream();
  using namespace adds;
  const double delta0 =
      persistent::initial_delta("adds", a, source, opts, cfg.tuning.initial_delta_factor);
  check_tuning(cfg.tuning);

  // Every resident block, fewer on graphs of long rows (adds_config::wide_row_workers_per_sm).
  const auto rg = persistent::resident_grid::of(adds_kernel<W>, threads_per_block, "adds");
  const auto& gs = a.stats();
  const bool wide_rows = cfg.wide_row_workers_per_sm > 0 && gs.avg_degree >= cfg.wide_row_degree;
  const unsigned wide_bound =
      wide_rows ? cfg.wide_row_workers_per_sm * static_cast<unsigned>(rg.sms) : 0;
  const unsigned grid = rg.blocks({wide_bound, cfg.max_worker_blocks});
  const unsigned workers = grid - 1;

  unsigned pool_blocks = cfg.pool_blocks;
  if (pool_blocks == 0) {
    const double items = double(n) + double(a.arcs());
    pool_blocks = static_cast<unsigned>(
        std::min(std::ceil(items / block_items) + 2 * num_buckets, double(1u << 30)));
  }
  pool_blocks = std::max(pool_blocks, unsigned(num_buckets) + 1);

  // The host-abort flag (and control snapshots on the give-up path).
  persistent::pinned_host_area<control> pinned;
  int* const host_abort = pinned.abort_flag;
  result<W> out;
  device_buffer<W> dist(n, stream), processed(n, stream);
  device_buffer<unsigned> busy_count(workers, stream), idle_list(workers, stream);
  device_buffer<unsigned long long> af_words(workers, stream), busy_start(workers, stream);
  device_buffer<int> busy_bucket(workers, stream);
  device_buffer<unsigned long long> counters(3 * num_buckets, stream);
  device_buffer<control> ctl(1, stream);
  const unsigned trace_cap = cfg.trace_capacity > 0 ? cfg.trace_capacity
                             : opts.verbose         ? policy::adds::verbose_trace_capacity
                                                    : 0u;
  device_buffer<adds_trace_entry> trace(trace_cap, stream);

  // The solve, rerun with a larger pool while the pool runs out (adds_config::pool_retries).
  control h_ctl{};
  int retries = 0;
  double ms = 0;
  for (;;) {
    const std::size_t pool_items = std::size_t(pool_blocks) * block_items;
    const std::size_t table_entries = std::size_t(num_buckets) * pool_blocks;
    require_device_memory(
        pool_items * sizeof(vertex) +
            (std::size_t(pool_blocks) * segments_per_block + table_entries + pool_blocks) *
                sizeof(unsigned),
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
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(ctl.data(), &c0, sizeof c0, cudaMemcpyHostToDevice, stream));
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
    k.cutoff = cutoff_limit<W>(opts.cutoff);
    k.avg_degree = std::max(1.0, gs.avg_degree);
    k.local_lanes = tropic::grid::lanes_per_row(0, gs.avg_degree);
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
      persistent::launch_cooperative(adds_kernel<W>, grid, threads_per_block, k, stream);
      TROPIC_CUDA_CHECK(cudaEventRecord(done, stream));
      // Host-side timeout: past the limit, raise the pinned flag the MTB watches; when the
      // kernel still runs host_grace_ms later, say which side hangs, print it at once (stderr:
      // whatever the caller does next may block on the device), and leave without freeing what
      // the kernel still uses.
      const double limit_ms = cfg.host_timeout_ms > 0
                                  ? cfg.host_timeout_ms
                                  : cfg.watchdog_ms + policy::adds::host_grace_ms;
      persistent::wait_or_abort(done, limit_ms, policy::adds::host_grace_ms, host_abort, [&] {
        const std::string why = diagnose_hang(ctl.data(), pinned, workers);
        const std::string msg = "adds: the kernel ignored the host timeout of " +
                                std::to_string(limit_ms) + " ms and is still running: " + why +
                                " (the device stays busy until the process exits)";
        std::fprintf(stderr, "%s\n", msg.c_str());
        std::fflush(stderr);
        pinned.leak();
        cudaEventDestroy(done);
        throw error(error_code::cuda, msg);
      });
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
      throw error(error_code::cuda,
                  std::string("adds: stopped by the ") + status_text(h_ctl.status) + " after " +
                      std::to_string(ms) + " ms (" + std::to_string(h_ctl.sweeps) +
                      " manager sweeps, " + std::to_string(h_ctl.vertices) + " items processed)");
    break;
  }

  finish_result(a, dist.data(), source, opts, out, stream);
  const time_shares where = time_shares_of(h_ctl, ms);
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
                 grid, rg.per_sm, rg.sms, pool_blocks, delta0, h_ctl.delta, h_ctl.delta_changes,
                 h_ctl.delta_min_seen, h_ctl.delta_max_seen, h_ctl.sweeps, h_ctl.assignments,
                 h_ctl.retires, h_ctl.vertices, h_ctl.skipped, h_ctl.max_in_flight, ms,
                 where.sweep_us, 100 * where.phase[0], 100 * where.phase[1], 100 * where.phase[2],
                 100 * where.phase[3], 100 * where.phase[4], 100 * where.worker_wait);
  // The trace ring, oldest entry first.
  std::vector<adds_trace_entry> h_trace;
  const std::uint64_t trace_kept = std::min<std::uint64_t>(h_ctl.trace_n, trace_cap);
  if (trace_kept > 0) {
    std::vector<adds_trace_entry> ring(trace_cap);
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(ring.data(), trace.data(),
                                      trace_cap * sizeof(adds_trace_entry), cudaMemcpyDeviceToHost,
                                      stream));
    TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
    const std::uint64_t first = h_ctl.trace_n - trace_kept;
    for (std::uint64_t i = first; i < h_ctl.trace_n; ++i) h_trace.push_back(ring[i % trace_cap]);
  }
  if (opts.verbose && !h_trace.empty()) print_trace(h_ctl, h_trace, trace_kept);
  if (report) {
    report->trace = std::move(h_trace);
    report->trace_dropped = h_ctl.trace_n - trace_kept;
    report->assignments = h_ctl.assignments;
    report->retires = h_ctl.retires;
    report->status = h_ctl.status;
    report->pool_retries_used = retries;
    report->pool_blocks = pool_blocks;
    report->worker_blocks = workers;
    report->blocks_per_sm = static_cast<unsigned>(rg.per_sm);
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

TROPIC_PERSISTENT_DEFAULT_ENTRY(adds)  // adds_sssp: sssp()'s entry point, the defaults
#define TROPIC_INSTANTIATE(W) TROPIC_PERSISTENT_INSTANTIATE(adds, W)
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
