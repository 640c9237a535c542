// RDBS: bucket-aware asynchronous delta-stepping (Zhang, Cao, Zhang, Sun, Dun, Huang, An, Ye,
// "A Bucket-aware Asynchronous Single-Source Shortest Path Algorithm on GPU", ICPP-W 2023),
// written from the paper for tropic's device matrix. This file is Algorithm 2's bucket loop;
// the paper's sections live in:
//  - 4.1 property-driven reordering: rdbs_reorder.cuh (vertices by descending degree); each
//    row's edges by weight and its light/heavy split offset are device_matrix's layout plus the
//    shared split_light_heavy(), redone whenever Delta changes, as the paper allows.
//    It is off by default (rdbs_config::reorder turns it on): per solve it cost more than the
//    light phase gained from it on every graph tried, and it holds a second CSR.
//  - 4.2 adaptive load balancing: rdbs_light_phase.cuh (three workload lists, one thread, one
//    warp or one block per item). The heavy phase is the paper's static balancing, "the same
//    number of heavy edges per thread": the operator layer's merge-path push over the heavy part
//    of every row, not new code (or a pull: below).
//  - 4.3 bucket-aware asynchronous execution (Algorithm 2). Phase 1 (light arcs of the current
//    bucket) runs asynchronously in one cooperative persistent kernel (rdbs_light_phase.cuh).
//    Phases 2 and 3 (heavy arcs of the settled bucket, then the next bucket) are synchronous
//    operator calls: select, vxm over the heavy part, reduce_min. The bucket width follows
//    Eq. 1-2 (delta_schedule below): eps_i = |(C_{i-2} - C_{i-1}) / (C_{i-2} + C_{i-1})| *
//    (T_{i-2} - T_{i-1}) / (T_{i-2} + T_{i-1}) * Delta_0 and Delta_i = Delta_{i-1} + eps_i,
//    with C = vertices settled in the bucket and T = threads the light phase used (the sum of
//    the group sizes of the items it processed).
//
// Where ours differs, and why:
//  - The manager does not hand items to workers one by one: workers take batches from the three
//    lists themselves (fetch-and-adds on a list's counters), because a manager round trip per
//    item serialises on one block (our ADDS kernel shows the manager-assigns design); a
//    compare-and-swap on a list's head let one block through per round trip to L2. The manager
//    detects termination (every reserved item processed, the same counting argument as ADDS's
//    CWC test), stops the phase on a full list, and runs the watchdog.
//  - Small items (<= beta light arcs) are taken a thread each, as the paper's parent thread
//    takes them, but relaxed by the warp together, a lane per arc (rdbs_light_phase.cuh).
//  - A vertex is not queued again while an item of it waits (a flag; a split row's chunks share
//    it), which bounds how often the lists see it. A list that still fills up aborts the phase;
//    the host grows the lists 4x and redoes the phase from every vertex of the bucket, which is
//    always correct because distances only decrease.
//  - Eq. 1-2's Delta_i is computed after the heavy phase of bucket i-1, not between its light
//    and heavy phase (Algorithm 2, line 11): a bucket's light and heavy parts must be split at
//    one Delta, or arcs in between would be relaxed by neither. Delta_i is clamped to
//    [Delta_0 / 16, 16 Delta_0] (policy::rdbs::delta_range; the paper gives no bound; without
//    one, a run of negative eps drives it to zero or below) and is integral and >= 1 for integer
//    weights. The buckets' width follows it in steps of 2^(1/2): every new width re-splits every
//    row, which cost more than the finer width saved (policy::rdbs::delta_steps_per_octave).
//  - The automatic Delta_0 (Davidson et al.'s, as every algorithm's) shrinks by
//    sqrt(2^25 / arcs) on shallow graphs of more arcs, to a quarter at most and never below the
//    lightest arc: their buckets keep the GPU busy at a narrower width, and the light phase then
//    repeats less work (policy::rdbs::delta0_*). delta_range bounds Eq. 2 around this Delta_0.
//  - The heavy phase pulls when the settled bucket is large, by the direction rule of
//    delta_stepping's heavy step (vxm's, Beamer et al.): on a scale-free graph one bucket settles
//    most vertices, and a push of all their heavy arcs pays an atomic per arc. It needs A' (A
//    itself when symmetric), so over the renumbered copy (4.1) the phase always pushes.
//  - Empty buckets are skipped: the next bucket starts at the smallest unsettled distance
//    (reduce_min), not at the previous end, so widths are not aligned to a grid.
//  - As in delta_stepping.cu, a heavy arc that lands back in the current bucket (float rounding
//    only) sends its target through another light phase.
//  - The renumbering, when asked for, runs inside every solve and is counted in
//    stats.milliseconds (the paper counts it as preprocessing); rdbs_report::reorder_ms gives its
//    share.
//
// Statistics: buckets = buckets processed; iterations = batches the light-phase workers took
// plus one per heavy push; vertices_relaxed = light items (rows or 4096-arc chunks) plus heavy
// frontier vertices; arcs_relaxed = light arcs scanned plus heavy arcs; delta = Delta_0.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "bucket_bounds.cuh"
#include "operators.cuh"
#include "persistent.cuh"
#include "rdbs_config.cuh"
#include "rdbs_light_phase.cuh"
#include "rdbs_reorder.cuh"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/error.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {

namespace rdbs {
namespace {

// t = infinity; t[s] = 0 (in the working numbering).
template <class W>
__global__ void init_distances(vertex n, W* dist, vertex source, const vertex* perm) {
  const vertex s = perm ? perm[source] : source;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    dist[i] = i == s ? W(0) : infinity<W>();
  }
}

// Bucket arithmetic in W.

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
// light-phase threads (T); buckets 0 and 1 keep Delta_0. The buckets' width is Delta_i rounded
// to a step of 2^(1 / steps) times Delta_0 (steps 0: Delta_i itself).
struct delta_schedule {
  double delta0, delta;
  bool dynamic;
  unsigned steps;
  double c[2] = {0, 0}, t[2] = {0, 0};  // [0] = bucket i-2, [1] = bucket i-1
  std::uint64_t finished = 0;

  delta_schedule(double d0, bool dyn, unsigned steps_per_octave)
      : delta0(d0), delta(d0), dynamic(dyn && std::isfinite(d0)), steps(steps_per_octave) {}

  double width() const { return dynamic ? rdbs_stepped_delta(delta, delta0, steps) : delta; }

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
    delta = std::clamp(delta + eps, delta0 / policy::rdbs::delta_range,
                       delta0 * policy::rdbs::delta_range);
  }
};

// phase_state::status as text, indexed by the status_* values.
constexpr const char* status_names[] = {"running", "finished", "full work list", "device watchdog"};
static_assert(status_finished == 1 && status_overflow == 2 && status_watchdog == 3,
              "status_names follows the status values");

const char* status_text(int s) {
  return persistent::status_text(status_names, s);
}

// The work lists' capacities: the small one can hold every vertex list_headroom times, the
// others their class as often (rows longer than beta; rows longer than alpha and the chunks of
// split rows), each with list_slack more; or cfg.list_capacity each.
template <class W>
std::array<std::size_t, 3> list_capacities(const csr_view<W>& view, vertex n,
                                           const rdbs_config& cfg, cudaStream_t stream) {
  using policy::rdbs::list_headroom;
  using policy::rdbs::list_slack;
  std::array<std::size_t, 3> cap;
  device_buffer<unsigned long long> counts(3, stream);
  TROPIC_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, counts.bytes(), stream));
  count_classes<<<std::min(grid_for(n), 2048u), 256, 0, stream>>>(view, counts.data());
  TROPIC_CUDA_CHECK(cudaGetLastError());
  unsigned long long h[3];
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(h, counts.data(), sizeof h, cudaMemcpyDeviceToHost, stream));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  cap[0] = list_headroom * std::size_t(n) + list_slack;
  cap[1] = list_headroom * std::size_t(h[0]) + list_slack;
  cap[2] = list_headroom * std::size_t(h[1] + h[2]) + list_slack;
  if (cfg.list_capacity > 0) cap[0] = cap[1] = cap[2] = cfg.list_capacity;
  return cap;
}

// The three work lists' slots (their heads and tails live in one array of six counters).
struct work_lists {
  std::array<std::size_t, 3> cap;
  device_buffer<vertex> small_slots, middle_slots;
  device_buffer<unsigned long long> large_slots;

  explicit work_lists(const std::array<std::size_t, 3>& capacities) : cap(capacities) {}

  // Every slot `empty` (all ones), the old lists freed first.
  void allocate(cudaStream_t stream) {
    require_device_memory((cap[0] + cap[1]) * sizeof(vertex) + cap[2] * sizeof(unsigned long long),
                          "the rdbs work lists (" + std::to_string(cap[0]) + ", " +
                              std::to_string(cap[1]) + " and " + std::to_string(cap[2]) +
                              " items)");
    small_slots = device_buffer<vertex>(0, stream);
    middle_slots = device_buffer<vertex>(0, stream);
    large_slots = device_buffer<unsigned long long>(0, stream);
    small_slots = device_buffer<vertex>(cap[0], stream);
    middle_slots = device_buffer<vertex>(cap[1], stream);
    large_slots = device_buffer<unsigned long long>(cap[2], stream);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(small_slots.data(), 0xff, small_slots.bytes(), stream));
    TROPIC_CUDA_CHECK(cudaMemsetAsync(middle_slots.data(), 0xff, middle_slots.bytes(), stream));
    TROPIC_CUDA_CHECK(cudaMemsetAsync(large_slots.data(), 0xff, large_slots.bytes(), stream));
  }

  // ends: heads[3], tails[3], then ready[3], each on a 128-byte line of its own (ends_stride
  // words): the takers' atomics on one do not queue behind the pushers' on another.
  static constexpr std::size_t ends_stride = 16, ends_words = 9 * ends_stride;
  template <class W>
  void bind(phase_args<W>& k, unsigned long long* ends) {
    const std::size_t e = ends_stride;
    k.small = {small_slots.data(), cap[0], ends + 0 * e, ends + 3 * e, ends + 6 * e};
    k.middle = {middle_slots.data(), cap[1], ends + 1 * e, ends + 4 * e, ends + 7 * e};
    k.large = {large_slots.data(), cap[2], ends + 2 * e, ends + 5 * e, ends + 8 * e};
  }
};

}  // namespace
}  // namespace rdbs

template <class W>
result<W> rdbs_sssp_configured(const device_matrix<W>& A, vertex source, const options& opts,
                               const rdbs_config& cfg, rdbs_report* report) {
  using namespace rdbs;
  const vertex n = A.rows();
  // A delta the caller gave is taken as it is.
  double delta0 = persistent::initial_delta("rdbs", A, source, opts);
  if (!(opts.delta > 0))
    delta0 = rdbs_scaled_delta0(delta0, double(A.arcs()), A.stats().probe_levels,
                                A.stats().min_weight, cfg.delta0_reference_arcs);

  cuda_stream stream;
  gpu_context ctx(stream);
  descriptor desc;  // the heavy phase: vxm's direction rule, a push by merge path (4.2)
  desc.dir = cfg.heavy_direction;
  op_counters heavy_counters;
  rdbs_report rep;
  rep.initial_delta = rep.min_delta = rep.max_delta = delta0;

  const auto rg = persistent::resident_grid::of(light_phase<W>, threads_per_block, "rdbs");
  const unsigned grid = rg.blocks({cfg.max_worker_blocks});
  rep.worker_blocks = grid - 1;

  result<W> out;
  statistics& st = out.stats;
  st.algorithm = algorithm_name(algorithm::rdbs);
  st.delta = delta0;

  cuda_timer timer(stream);
  // With a report or verbose, the parts of the solve timed one by one (each then waited for).
  const bool timing = report || opts.verbose;
  auto timed = [&](double& total, auto&& part) {
    if (!timing) return part();
    cuda_timer clock(stream);
    part();
    total += clock.elapsed_ms();
  };
  // Section 4.1: the graph the kernels run on, renumbered by descending degree.
  working_graph<W> g;
  if (cfg.reorder) {
    timed(rep.reorder_ms, [&] { reorder_by_degree(A, g, stream); });
    rep.reordered = true;
  } else {
    g.view = A.view();
  }
  const csr_view<W> view = g.view;
  const vertex* perm = cfg.reorder ? g.perm.data() : nullptr;

  // Section 4.2's workload lists.
  std::optional<work_lists> made;
  timed(rep.setup_ms, [&] {
    made.emplace(list_capacities(view, n, cfg, stream));
    made->allocate(stream);
  });
  work_lists& lists = *made;

  dense_vector<W> t(n, stream);
  // S: the bucket (the light phase's seeds at its start, the settled set C_i before the heavy
  // phase); B: the heavy phase's stragglers, indices alone (issue 36's memory budget).
  sparse_vector<W> S(n, stream);
  sparse_vector<W> B = sparse_vector<W>::pattern(n, stream);
  device_buffer<unsigned> queued((std::size_t(n) + 31) / 32, stream);  // a bit a vertex
  device_buffer<unsigned long long> ends(work_lists::ends_words, stream);  // bind()
  device_buffer<phase_state> state(1, stream);
  device_buffer<work_counters> counters(1, stream);
  pinned_buffer<phase_state> h_state(1);
  pinned_buffer<work_counters> h_counters(1);
  TROPIC_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, counters.bytes(), stream));
  *h_counters.data() = work_counters{};

  // t = ∞; t[s] = 0 (in the working numbering)
  init_distances<<<grid_for(n), 256, 0, stream>>>(n, t.data(), source, perm);
  TROPIC_CUDA_CHECK(cudaGetLastError());
  TROPIC_CUDA_CHECK(cudaMemsetAsync(queued.data(), 0, queued.bytes(), stream));  // none queued

  // Phase 1's arguments: the graph, the distances and their flags, the lists, the phase's state.
  phase_args<W> k{};
  k.a = view;
  k.watchdog_ns = static_cast<unsigned long long>(cfg.watchdog_ms * 1e6);
  k.idle_sleep_ns = std::max(cfg.idle_sleep_ns, 32u);
  k.dist = t.data();
  k.queued = queued.data();
  lists.bind(k, ends.data());
  k.state = state.data();
  k.counters = counters.data();

  // Phase 1 of the current bucket, asynchronous, from the seeds in `from` (their indices); redone
  // from the whole bucket, selected into S, after a full list.
  auto light_phase_from = [&](const sparse_vector<W>& from, value_range<W> bucket) {
    const sparse_vector<W>* seeds = &from;
    for (;;) {
      TROPIC_CUDA_CHECK(cudaMemsetAsync(ends.data(), 0, ends.bytes(), stream));
      TROPIC_CUDA_CHECK(cudaMemsetAsync(state.data(), 0, state.bytes(), stream));
      k.hi = bucket.hi;
      timed(rep.light_ms, [&] {
        if (seeds->nvals() > 0) {
          seed_lists<<<grid_for(seeds->nvals()), 256, 0, stream>>>(k, seeds->indices(),
                                                                   seeds->nvals());
          TROPIC_CUDA_CHECK(cudaGetLastError());
        }
        persistent::launch_cooperative(light_phase<W>, grid, threads_per_block, k, stream);
        TROPIC_CUDA_CHECK(cudaMemcpyAsync(h_state.data(), state.data(), sizeof(phase_state),
                                          cudaMemcpyDeviceToHost, stream));
        TROPIC_CUDA_CHECK(cudaMemcpyAsync(h_counters.data(), counters.data(),
                                          sizeof(work_counters), cudaMemcpyDeviceToHost, stream));
        TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
      });
      ++rep.light_phases;
      const int status = h_state[0].status;
      if (status == status_finished) return;
      if (status != status_overflow)
        throw error(error_code::cuda, std::string("rdbs: a light phase was stopped by the ") +
                                          status_text(status) + " after " +
                                          std::to_string(cfg.watchdog_ms) + " ms");
      const auto& cap = lists.cap;
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
      for (auto& c : lists.cap) c *= 4;
      lists.allocate(stream);
      lists.bind(k, ends.data());
      // Flags of items that were lost or left in the lists; then every vertex of the bucket.
      TROPIC_CUDA_CHECK(cudaMemsetAsync(queued.data(), 0, queued.bytes(), stream));
      select(S, t, bucket, ctx);
      seeds = &S;
    }
  };

  // Each row's first heavy arc at the bucket width. Over A, the operator layer's split (A''s as
  // well, when A has a transpose of its own), which lets the heavy phase pull; over the
  // renumbered copy, a split of its own.
  std::optional<light_heavy_split<W>> parts;
  device_buffer<arc_index> copy_split(perm ? n : 0, stream);
  auto split_at = [&](W w) {
    timed(rep.split_ms, [&] {
      if (perm) {
        split_light_heavy(view, double(w), copy_split.data(), stream);
        k.split = copy_split.data();
      } else {
        parts.emplace(A, double(w), ctx);
        k.split = parts->rows();
      }
    });
  };

  delta_schedule schedule(delta0, cfg.dynamic_delta, cfg.delta_steps_per_octave);
  W lo = W(0);
  W width = bucket_width<W>(schedule.width());
  split_at(width);
  for (;;) {
    const W hi = bucket_end(lo, width);
    const value_range<W> bucket{lo, hi};
    const bool has_heavy = width != infinity<W>();
    const std::uint64_t threads_before = h_counters[0].threads;
    ++st.buckets;
    // S = { v : lo <= t[v] < hi }
    timed(rep.select_ms, [&] { select(S, t, bucket, ctx); });
    std::size_t settled = S.nvals();
    for (const sparse_vector<W>* seeds = &S;; seeds = &B) {
      // Phase 1: light arcs of the bucket, asynchronously to convergence.
      light_phase_from(*seeds, bucket);
      if (!has_heavy) break;
      // S = { v : lo <= t[v] < hi }: the settled bucket (C_i of Eq. 1)
      timed(rep.select_ms, [&] { select(S, t, bucket, ctx); });
      settled = S.nvals();
      st.vertices_relaxed += S.nvals();
      // Phase 2: t = min(t, AH' min.+ (t .* S)); B = stragglers back in the bucket (rounding)
      timed(rep.heavy_ms, [&] {
        if (parts) {
          vxm(t, no_mask<W>(), accumulator::min, min_plus<W>(), S, heavy(A, *parts), desc, ctx,
              &B, bucket, &heavy_counters);
        } else {
          const row_ranges heavy_rows{view.row_offsets, copy_split.data(), row_part::heavy};
          push_dispatch<min_plus<W>>(
              push_operands<W>{&t, no_mask<W>(), view, heavy_rows, &S, &B, bucket,
                               &heavy_counters},
              desc, ctx);
        }
      });
      ++rep.heavy_steps;
      if (B.nvals() == 0) break;
    }
    // Phase 3: the next bucket starts at the smallest unsettled distance.
    if (hi == infinity<W>()) break;
    W next{};
    timed(rep.select_ms, [&] { next = reduce_min(t, value_range<W>{hi, infinity<W>()}, ctx); });
    if (next == infinity<W>()) break;
    lo = next;
    // Eq. 1-2 for the next bucket; a new width moves every row's light/heavy offset.
    schedule.bucket_done(double(settled), double(h_counters[0].threads - threads_before));
    const W next_width = bucket_width<W>(schedule.width());
    if (next_width != width) {
      width = next_width;
      ++rep.delta_changes;
      split_at(width);
    }
    rep.min_delta = std::min(rep.min_delta, schedule.delta);
    rep.max_delta = std::max(rep.max_delta, schedule.delta);
  }

  // The lists, flags, vectors and splits are done with: freed before the result's pass allocates
  // (issue 36's memory budget).
  made.reset();
  parts.reset();
  B = sparse_vector<W>();
  S = sparse_vector<W>();
  queued = device_buffer<unsigned>();
  copy_split = device_buffer<arc_index>();

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
  rep.heavy_pulls = heavy_counters.pull_calls;
  rep.threads_used = wc.threads;
  rep.small_items = wc.small;
  rep.middle_items = wc.middle;
  rep.large_items = wc.large;
  rep.batches = wc.batches;
  rep.wait_share = wc.wait_ns + wc.work_ns ? double(wc.wait_ns) / double(wc.wait_ns + wc.work_ns) : 0;
  finish_result(A, final_dist, source, opts, out, stream);
  if (opts.verbose)
    std::fprintf(stderr,
                 "rdbs: grid %u (%d/SM x %d SMs), reorder %s (%.3f ms), delta %g -> %g (range "
                 "%g..%g, %llu changes), %llu buckets, %llu light phases (%llu redone), %llu "
                 "heavy steps (%llu pulls), items small/middle/large %llu/%llu/%llu, %.3f ms\n",
                 grid, rg.per_sm, rg.sms, rep.reordered ? "on" : "off", rep.reorder_ms, delta0,
                 rep.final_delta, rep.min_delta, rep.max_delta,
                 static_cast<unsigned long long>(rep.delta_changes),
                 static_cast<unsigned long long>(st.buckets),
                 static_cast<unsigned long long>(rep.light_phases),
                 static_cast<unsigned long long>(rep.overflow_retries),
                 static_cast<unsigned long long>(rep.heavy_steps),
                 static_cast<unsigned long long>(rep.heavy_pulls), wc.small, wc.middle, wc.large,
                 st.milliseconds);
  if (opts.verbose)
    std::fprintf(stderr,
                 "rdbs: time (ms): setup %.3f, light phases %.3f, heavy steps %.3f, selects and "
                 "minima %.3f, light/heavy splits %.3f; %llu batches, workers waiting %.0f%%\n",
                 rep.setup_ms, rep.light_ms, rep.heavy_ms, rep.select_ms, rep.split_ms,
                 static_cast<unsigned long long>(rep.batches), 100 * rep.wait_share);
  if (report) *report = rep;
  return out;
}

TROPIC_PERSISTENT_DEFAULT_ENTRY(rdbs)  // rdbs_sssp: sssp()'s entry point, the defaults
#define TROPIC_INSTANTIATE(W) TROPIC_PERSISTENT_INSTANTIATE(rdbs, W)
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
