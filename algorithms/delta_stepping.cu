// Delta-stepping in the min-plus algebra: Meyer & Sanders' buckets written as GraphBLAS
// operations (Sridhar et al., "Delta-stepping SSSP: from Vertices and Edges to GraphBLAS
// Implementations", 2019; LAGraph's LAGr_SingleSourceShortestPath). DESIGN.md quotes the
// pseudo-code; each operator call in the loop below carries its line of it.
//
// Limits: non-negative weights, a source in range and Δ > 0 or automatic (sssp() checks all
// three). Bellman-Ford is this code with Δ = ∞ (one bucket, every arc light); edge_wise is it
// with Hohne et al.'s edge-parallel push. Exact for floats too: a heavy arc that rounding brings
// back into bucket i is caught by the heavy step's output and relaxed by the light loop again.
//
// The host drives the loop (one counter read per light step, three per bucket) until its steps
// are too small to pay for a round trip; then one persistent kernel runs the same loop to the end
// (delta_stepping_device.cu). When to do so, which way a light step goes and which Δ holds are
// the schedule's (delta_stepping_schedule.cuh); the loop only acts on its answers.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include "bucket_bounds.cuh"
#include "delta_stepping_device.cuh"
#include "delta_stepping_schedule.cuh"
#include "policy.hpp"
#include "tropic/detail/cutoff.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {

namespace {
// flag = 1 when some target's distance is not below `below` (not settled yet).
template <class W>
__global__ void any_unsettled(const W* t, const vertex* ids, std::size_t count, W below,
                              unsigned* flag) {
  for (std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; j < count;
       j += std::size_t(gridDim.x) * blockDim.x)
    if (!(t[ids[j]] < below)) {
      *flag = 1;
      return;
    }
}

// Every target lies below `lowest`, the least distance of the buckets to come: all settled.
template <class W>
bool targets_settled(const settle_targets& targets, const dense_vector<W>& t, W lowest,
                     gpu_context& ctx) {
  device_buffer<unsigned> flag(1, ctx.stream());
  TROPIC_CUDA_CHECK(cudaMemsetAsync(flag.data(), 0, sizeof(unsigned), ctx.stream()));
  const unsigned blocks = unsigned(std::min<std::size_t>((targets.count + 255) / 256, 1024));
  any_unsettled<<<blocks, 256, 0, ctx.stream()>>>(t.data(), targets.ids, targets.count, lowest,
                                                  flag.data());
  TROPIC_CUDA_CHECK(cudaGetLastError());
  unsigned pending = 0;
  TROPIC_CUDA_CHECK(
      cudaMemcpyAsync(&pending, flag.data(), sizeof pending, cudaMemcpyDeviceToHost, ctx.stream()));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  ++ctx.round_trips;
  return pending == 0;
}
}  // namespace

template <class W>
result<W> delta_stepping_configured(const device_matrix<W>& A, vertex source, const options& opts,
                                    const closure_limits& closure, const descriptor& base,
                                    const settle_targets* targets) {
  using action = typename delta_stepping_schedule<W>::action;
  const vertex n = A.rows();
  cuda_stream stream;
  gpu_context ctx(stream);
  descriptor desc = base;  // push or pull chosen per call from the frontier's size
  if (opts.algorithm == algorithm::edge_wise) {
    // Hohne et al.: every request generated edge-parallel (semiring/kernels/push_edge_wise.cuh); the
    // paper never pulls. gpu_dispatch pins the host-driven loop and builds A.arc_sources().
    desc.balance = load_balance::edge_wise;
    desc.dir = direction::push;
  }
  delta_stepping_schedule<W> plan(A, opts, closure, desc.dir);
  // Cutoff: no bucket past it is processed (bucket i's vertices beyond it are masked at the end).
  const W cut = cutoff_limit<W>(opts.cutoff);
  if (targets && targets->count == 0) targets = nullptr;
  const bucket_bounds<W>& buckets = plan.buckets();  // [iΔ, (i+1)Δ) under the schedule's Δ
  const min_plus<W> tropical;
  descriptor step = desc;  // a light step's: its direction is the schedule's

  dense_vector<W> t(n, stream);
  // The host loop's lists, sized when it first runs: a solve that the GPU-driven loop takes
  // from the start never holds them beside that loop's own worklists (24 B a vertex for 4-byte
  // weights, what put deep graphs over issue 36's memory budget; bench/results/h200-run44/).
  sparse_vector<W> B, tB, S;
  result<W> out;
  statistics& st = out.stats;
  st.algorithm = algorithm_name(opts.algorithm);
  st.delta = buckets.delta;

  cuda_timer timer(stream);
  // AL = A .* (A <= Δ), AH = A .* (A > Δ): per-row split offsets, one pass over the rows
  std::optional<light_heavy_split<W>> split;
  split.emplace(A, buckets.delta, ctx);
  // t = ∞; t[s] = 0
  assign(t, no_mask<W>(), infinity<W>(), false, ctx);
  {
    sparse_vector<W> s(1, stream);
    s.upload({source}, {W(0)});
    assign(t, s, ctx);
  }

  std::uint64_t i = 0;
  bool selected = false;  // B holds bucket i already: selected with the step to it
  W stopped_at = infinity<W>();  // the targets were settled below it (sssp_od)
  // for i = 0, 1, ... while some t[v] >= iΔ is finite
  for (;;) {
    if (plan.device_driven()) {
      // buckets i, i+1, ... on the GPU; after a hand-over, bucket i's light loop goes on from B
      tB = sparse_vector<W>();
      S = sparse_vector<W>();
      if (!plan.handed_over()) B = sparse_vector<W>();
      stopped_at = device_driven_buckets(A, *split, buckets, plan.has_heavy(), i,
                                         plan.handed_over() ? &B : nullptr, t, ctx, closure, st,
                                         cut, targets);
      break;
    }
    if (B.size() != n) {
      B = sparse_vector<W>(n, stream);
      tB = sparse_vector<W>(n, stream);
    }
    const value_range<W> bucket = buckets.range(i);  // [iΔ, (i+1)Δ)
    ++st.buckets;
    // B = { v : iΔ <= t[v] < (i+1)Δ }
    if (!selected) select(B, t, bucket, ctx);
    selected = false;
    plan.begin_bucket();
    action decision = action::go_on;
    do {
      while (B.nvals() > 0 && decision == action::go_on) {
        // tB = t .* B
        gather(tB, t, B, ctx);
        st.vertices_relaxed += tB.nvals();
        step.dir = plan.light_direction(tB.nvals());
        // t = min(t, AL' min.+ tB);  B = { v : iΔ <= t[v] < (i+1)Δ, t[v] improved }
        vxm(t, no_mask<W>(), accumulator::min, tropical, tB, light(A, *split), step, ctx, &B,
            bucket, plan.counters());
        ++st.iterations;
        decision = plan.after_light_step(tB.nvals());
      }
      if (decision != action::go_on || !plan.has_heavy()) break;
      // S = { v : iΔ <= t[v] < (i+1)Δ }: bucket i, settled (S sized here: a solve without
      // heavy arcs, Bellman-Ford's infinite Δ among them, never needs it)
      if (S.size() != n) S = sparse_vector<W>(n, stream);
      select(S, t, bucket, ctx);
      st.vertices_relaxed += S.nvals();
      plan.settled_in_bucket(S.nvals());
      // t = min(t, AH' min.+ (t .* S));  B = { v : iΔ <= t[v] < (i+1)Δ, t[v] improved }
      vxm(t, no_mask<W>(), accumulator::min, tropical, S, heavy(A, *split), desc, ctx,
          bucket_bounds<W>::stragglers_possible(bucket) ? &B : nullptr, bucket, plan.counters());
    } while (B.nvals() > 0);
    if (decision == action::hand_over) {
      --st.buckets;  // counted again by the GPU-driven loop
      continue;
    }
    if (decision == action::narrow) {  // bucket i again from its lower end, under the new Δ
      i = buckets.index_of(bucket.lo);
      split.emplace(A, buckets.delta, ctx);
      st.delta = buckets.delta;
      --st.buckets;  // counted again when selected again
      continue;
    }
    // i = the bucket of min{ t[v] : t[v] >= (i+1)Δ } (empty buckets skipped); on the way
    // B = { v : (i+1)Δ <= t[v] < (i+2)Δ }, bucket i+1, kept when it is the next non-empty one
    if (bucket.hi == infinity<W>()) break;
    const W lowest = select_reduce_min(B, t, buckets.range(i + 1),
                                       value_range<W>{bucket.hi, infinity<W>()}, ctx);
    if (lowest == infinity<W>() || lowest > cut) break;
    if (targets && targets_settled(*targets, t, lowest, ctx)) {
      stopped_at = lowest;
      break;
    }
    const std::uint64_t following = buckets.index_of(lowest);
    selected = following == i + 1;
    if (plan.at_bucket_end(i, bucket.hi, selected ? B.nvals() : 0) == action::widen) {
      // one last bucket [(i+1)Δ, ∞): AL = A, Bellman-Ford from the settled vertices on
      split.emplace(A, buckets.delta, ctx);
      st.widened_at = double(bucket.hi);
      i = 0;
      selected = false;
      continue;
    }
    i = following;
  }
  st.milliseconds = timer.elapsed_ms();
  st.host_round_trips = ctx.round_trips;
  st.arcs_relaxed = ctx.read_arcs_scanned();
  // What the result's pass needs is t and A: the lists and the split go back to the pool first.
  B = sparse_vector<W>();
  tB = sparse_vector<W>();
  S = sparse_vector<W>();
  split.reset();
  // Stopped by the targets: what lies at or above `stopped_at` is tentative; reporting it as
  // beyond a cutoff just below keeps the result a valid truncated one (and the overflow check
  // off tentative sums).
  options finish = opts;
  if (stopped_at != infinity<W>()) {
    double below = 0;
    if constexpr (std::is_floating_point_v<W>)
      below = double(std::nextafter(stopped_at, W(0)));
    else
      below = double(stopped_at - 1);  // exact below 2^53; above, rounding may keep a tentative
                                       // distance, never a target's (sssp_od reads only those)
    finish.cutoff = std::min(finish.cutoff, below);
  }
  finish_result(A, t.data(), source, finish, out, stream);
  return out;
}

template <class W>
result<W> delta_stepping_sssp(const device_matrix<W>& A, vertex source, const options& opts,
                              const settle_targets* targets) {
  closure_limits closure;
  // Local rounds pay on graphs of short rows (roads, grids, meshes), not on web graphs with hubs.
  if (A.stats().max_degree > policy::delta_stepping::closure_local_rounds_max_degree)
    closure.local_rounds = 0;
  return delta_stepping_configured(A, source, opts, closure, descriptor{}, targets);
}

#define TROPIC_INSTANTIATE(W)                                                                      \
  template result<W> delta_stepping_configured<W>(const device_matrix<W>&, vertex, const options&, \
                                                  const closure_limits&, const descriptor&,        \
                                                  const settle_targets*);                          \
  template result<W> delta_stepping_sssp<W>(const device_matrix<W>&, vertex, const options&,       \
                                            const settle_targets*);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
