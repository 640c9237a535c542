// Batched delta-stepping: k sources at once, as k × n min-plus matrix products (DESIGN.md, "many
// sources"; Sridhar et al.'s algebraic delta-stepping with the frontier vector widened to a k × n
// matrix). Every source advances bucket i in lock step -- bucket i of source s holds the v with
// iΔ <= D(s, v) < (i+1)Δ -- and the rows of D are independent data, so this is exactly k
// single-source runs of delta_stepping.cu's loop that share their arc reads: a step reads each
// arc of its frontier columns once for every source whose row holds its tail (mxm, semiring/
// tropic/mxm.hpp). A source whose bucket i is empty contributes nothing to it; the loop ends when
// every source's remaining buckets are empty, or at the first bucket past the cutoff.
//
// Limits: non-negative weights, sources in range (checked here). Δ as delta_stepping's initial
// one (no narrowing or widening); on graphs of short rows a bucket's light loop runs as
// mxm_closure (steps launched back to back), else the host drives every step. Memory: three
// k × n arrays of W (D, the frontier's columns, a pull's dense input) must fit, else
// out_of_memory naming the sizes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bucket_bounds.cuh"
#include "policy.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/device_loop.hpp"
#include "tropic/mxm.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {

namespace {

// delta_stepping_schedule's initial width: a multiple of the Near-Far heuristic.
double batch_delta(const graph_stats& s, const options& opts) {
  namespace p = policy::delta_stepping;
  if (opts.algorithm == algorithm::bellman_ford) return std::numeric_limits<double>::infinity();
  if (opts.delta > 0) return opts.delta;
  const double factor = s.avg_degree >= p::automatic_delta_max_degree ? 1.0
                        : s.max_degree <= p::closure_local_rounds_max_degree
                            ? p::automatic_delta_factor_rounds
                            : p::automatic_delta_factor;
  return factor * choose_delta(s);
}

// The least W above x (the end of the range a cutoff keeps), infinity<W>() when there is none.
template <class W>
W just_above(W x) {
  if constexpr (std::is_integral_v<W>)
    return x >= infinity<W>() - 1 ? infinity<W>() : W(x + 1);
  else
    return std::nextafter(x, infinity<W>());
}

}  // namespace

template <class W>
void delta_stepping_batch(const device_matrix<W>& A, const vertex* sources, std::size_t k,
                          const options& opts, W* distances, std::int64_t* parents,
                          statistics& stats, W cutoff) {
  check_many_sources(A, sources, k, opts, "batched delta-stepping");
  const vertex n = A.rows();
  stats = statistics{};
  stats.algorithm = algorithm_name(algorithm::delta_stepping);
  if (k == 0) return;
  const std::size_t size = k * std::size_t(n);
  const std::size_t words = (A.has_transpose() ? 3 : 2) * size + 1;
  require_device_memory(words * sizeof(W) + std::size_t(n) * (3 * sizeof(vertex) + 2 * sizeof(W) +
                                                              sizeof(std::uint32_t) +
                                                              sizeof(arc_index)),
                        "batched delta-stepping of " + std::to_string(k) + " sources x " +
                            std::to_string(n) + " vertices (" + std::to_string(words / size) +
                            " k x n arrays of " + std::to_string(sizeof(W)) + "-byte distances)");

  cuda_stream stream;
  gpu_context ctx(stream);
  const bucket_bounds<W> buckets(batch_delta(A.stats(), opts));  // [iΔ, (i+1)Δ)
  const bool has_heavy =
      !std::isinf(buckets.delta) && !(A.stats().max_weight < buckets.delta);
  const min_plus<W> tropical;
  // A step pulls when U holds more than k·n / batch_pull_ratio entries (and A' exists): vxm's
  // rule with U's entries for u's, since a pull reads every arc of its rows for all k sources
  // while a push combines only the entries a column holds (one source's, or all k).
  descriptor push;
  push.dir = direction::push;
  auto step_for = [&](std::size_t entries) {
    descriptor d = push;
    if (A.has_transpose() && entries * policy::delta_stepping::batch_pull_ratio > size)
      d.dir = direction::pull;
    return d;
  };
  op_counters counters;
  stats.delta = buckets.delta;

  dense_matrix<W> D(k, n, stream);
  column_matrix<W> U(k, n, stream);
  sparse_vector<W> B(n, stream), S(n, stream);
  // Short rows (roads, grids, meshes): a bucket's light loop is one mxm_closure, its steps
  // launched back to back with a round trip per round of steps, not per step; hubs (Kronecker
  // graphs) take host-driven steps, each free to pull. The single-source loop's local-rounds
  // rule; loop_control::host pins the host-driven steps.
  const bool closure =
      opts.loop != loop_control::host &&
      A.stats().max_degree <= policy::delta_stepping::closure_local_rounds_max_degree;
  device_worklist in(closure ? n : 0, stream), spare(closure ? n : 0, stream);
  device_buffer<vertex> starts(k, stream);
  starts.upload(sources, k);

  cuda_timer timer(stream);
  // AL = A .* (A <= Δ), AH = A .* (A > Δ)
  const light_heavy_split<W> split(A, buckets.delta, ctx);
  // D = ∞; D(s, sources[s]) = 0
  assign(D, infinity<W>(), ctx);
  assign_rows(D, starts.data(), W(0), ctx);

  std::uint64_t i = 0;
  bool selected = false;  // B holds bucket i's columns already
  for (;;) {
    const value_range<W> bucket = buckets.range(i);  // [iΔ, (i+1)Δ)
    if (cutoff < bucket.lo) break;  // every distance up to the cutoff is settled
    ++stats.buckets;
    // B = { v : iΔ <= D(s, v) < (i+1)Δ for some s }
    if (!selected) select_columns(B, D, bucket, value_range<W>{infinity<W>(), infinity<W>()}, ctx);
    selected = false;
    do {
      if (closure && B.nvals() > 0) {
        // repeat { D = min(D, (D(:, B) .* (D in bucket i)) min.+ AL); B = improved } until B = ∅
        const unsigned long long columns = B.nvals();
        TROPIC_CUDA_CHECK(cudaMemcpyAsync(in.indices(), B.indices(), columns * sizeof(vertex),
                                          cudaMemcpyDeviceToDevice, stream));
        TROPIC_CUDA_CHECK(cudaMemcpyAsync(in.count(), &columns, sizeof columns,
                                          cudaMemcpyHostToDevice, stream));
        stats.iterations += mxm_closure(D, tropical, in, light(A, split), ctx, spare, bucket);
        B.set_nvals(0);
      }
      while (B.nvals() > 0) {
        // U = D(:, B) .* (D in bucket i)
        const std::size_t entries = gather_columns(U, D, B, bucket, ctx);
        stats.vertices_relaxed += entries;  // (source, vertex) pairs
        // D = min(D, U min.+ AL);  B = { v : some D(s, v) improved into bucket i }
        mxm(D, no_matrix_mask<W>(), accumulator::min, tropical, U, light(A, split),
            step_for(entries), ctx, &B, bucket, &counters);
        ++stats.iterations;
      }
      if (!has_heavy) break;
      // S = { v : iΔ <= D(s, v) < (i+1)Δ for some s }: bucket i, settled;  U = D(:, S) .* bucket
      select_columns(S, D, bucket, value_range<W>{infinity<W>(), infinity<W>()}, ctx);
      // (counted, a round trip, where a step may pull; the closure's graphs always push)
      const std::size_t settled = gather_columns(U, D, S, bucket, ctx, !closure);
      stats.vertices_relaxed += closure ? S.nvals() : settled;
      // D = min(D, U min.+ AH);  B = stragglers back in bucket i (float rounding, open end)
      mxm(D, no_matrix_mask<W>(), accumulator::min, tropical, U, heavy(A, split),
          closure ? push : step_for(settled), ctx,
          bucket_bounds<W>::stragglers_possible(bucket) ? &B : nullptr, bucket, &counters);
    } while (B.nvals() > 0);
    // i = the bucket of min{ D(s, v) >= (i+1)Δ } (empty buckets skipped); on the way
    // B = bucket i+1's columns, kept when it is the next non-empty one
    if (bucket.hi == infinity<W>()) break;
    const W lowest = select_columns(B, D, buckets.range(i + 1),
                                    value_range<W>{bucket.hi, infinity<W>()}, ctx);
    if (lowest == infinity<W>()) break;
    const std::uint64_t following = buckets.index_of(lowest);
    selected = following == i + 1;
    i = following;
  }
  // A cutoff: the distances past it are reported unreachable (D .* (D <= cutoff)).
  if (cutoff != infinity<W>())
    select(D, value_range<W>{std::numeric_limits<W>::lowest(), just_above(cutoff)}, ctx);
  stats.milliseconds = timer.elapsed_ms();
  stats.host_round_trips = ctx.round_trips;
  stats.arcs_relaxed = ctx.read_arcs_scanned() + counters.arcs;

  // The rows, row-major, into U's values (n·k entries: room for them).
  W* rows = U.values();
  to_row_major(rows, D, ctx);
  finish_rows(A, rows, sources, k, opts, cutoff, distances, parents, stream);
}

#define TROPIC_INSTANTIATE(W)                                                                  \
  template void delta_stepping_batch<W>(const device_matrix<W>&, const vertex*, std::size_t,  \
                                        const options&, W*, std::int64_t*, statistics&, W);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
