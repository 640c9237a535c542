// Delta-stepping over the GPUs of one host (issue 38; tropic/distributed.hpp): the algebra of
// delta_stepping.cu on each part of a 1D row partition (CombBLAS's layout), with the improved
// distances sent to the vertices' owners through NCCL after every step.
//
// Rank p owns the vertices of ranges()[p] and the rows of A that leave them. Its dense t holds
// every vertex: exact for its own, for the others the least value it has sent their owner (it
// sends a value only when it improves on that, so a stale view costs traffic, never exactness).
// A step on every rank at once:
//   tB = t .* B;  t = min(t, AL' min.+ tB), I = the entries of t it improved  (tropic's vxm)
//   to each owner q != p, the entries of I that q owns, as (v, t[v])           (route_improved)
//   NCCL send/receive with every peer; t[v] = min(t[v], d) for each received   (apply_received)
//   B = this rank's improved vertices inside bucket i; the light loop ends when B is empty on
//   every rank (the counts meet at the ranks' rendezvous, distributed_ranks.hpp).
// The heavy step and the step to the next non-empty bucket are the same shape, the bucket's lower
// end the least of the ranks' minima. A step pulls instead when its frontier is large and A is
// symmetric (a part's rows are then its vertices' in-arcs): every rank's frontier is gathered
// by NCCL, and each rank's pull improves only its own vertices. Such a step, and any step on one
// part, lists its improved entries inside the bucket straight into B, as one GPU's does: no
// route, no exchange.
// On graphs of short rows and thin borders (roads, grids: thousands of dependent steps, each
// too small to pay for a host round trip and an exchange) a light step is a closure round
// instead: each rank runs the bucket's light loop on its own part to a fixed point inside one
// GPU-driven kernel (vxm_closure, as one GPU's device loop does), then only its ghosts (the
// vertices its arcs reach and another rank owns) whose value fell are sent; the next round
// starts, on the device, from what they improved. Rounds per bucket: how often its shortest
// paths cross a part's border, not its hops. Behind thick borders (a random graph, a badly
// ordered mesh) a round reaches hardly further than a step: steps run first, handing over to
// rounds once they are small, as one GPU hands its loop to the GPU. opts.loop forces steps
// (host) or rounds (device). test/support/distributed_model.hpp runs this protocol on the CPU over
// simulated ranks (CI has no GPU); test_distributed.cu checks this solver against one GPU's.
#include <mutex>
#include <string>
#include <vector>

#include "distributed_finish.cuh"
#include "distributed_nccl.hpp"
#include "distributed_rank_solver.cuh"
#include "policy.hpp"
#include "tropic/detail/cutoff.hpp"
#include "tropic/distributed.hpp"

namespace tropic {

template <class W>
result<W> sssp(const distributed_matrix<W>& a, vertex source, const options& opts) {
  return sssp(a, source, opts, nullptr);
}

template <class W>
result<W> sssp(const distributed_matrix<W>& a, vertex source, const options& opts,
               distributed_profile* profile) {
  if (profile) *profile = distributed_profile{};
  if (a.rows() == 0)
    throw error(error_code::invalid_value, "the graph has no vertices: there is no source");
  if (source >= a.rows())
    throw error(error_code::invalid_index, "source vertex " + std::to_string(source) +
                                               " is out of range: the graph has " +
                                               std::to_string(a.rows()) + " vertices (0-based)");
  if (opts.algorithm != algorithm::automatic && opts.algorithm != algorithm::delta_stepping)
    throw error(error_code::invalid_value,
                std::string("on several GPUs only delta_stepping runs (asked: ") +
                    algorithm_name(opts.algorithm) + ")");
  if (a.stats().has_negative_weight)
    throw error(error_code::invalid_value,
                "delta_stepping on several GPUs needs non-negative weights and the matrix has a "
                "negative one (least " + std::to_string(a.stats().min_weight) +
                    "); solve it on one GPU with bellman_ford");
  if (!(opts.delta >= 0))
    throw error(error_code::invalid_value, "delta must be positive (or 0 for automatic)");
  detail::check_cutoff(opts.cutoff);
  if (a.parts() > detail::distributed::max_parts)
    throw error(error_code::invalid_value, "at most " + std::to_string(detail::distributed::max_parts) +
                                               " GPUs take part in one solve");
  // Δ as one GPU's delta-stepping starts it (delta_stepping_schedule's initial width, without
  // its later narrowing or widening: those are one device's schedule); the ranks widen it for
  // closure rounds.
  const graph_stats& s = a.stats();
  namespace p = policy::delta_stepping;
  const double factor = s.avg_degree >= p::automatic_delta_max_degree ? 1.0
                        : s.max_degree > p::closure_local_rounds_max_degree
                            ? p::automatic_delta_factor
                            : p::automatic_delta_factor_rounds;
  const detail::bucket_bounds<W> buckets(opts.delta > 0 ? opts.delta : factor * choose_delta(s));
  // One solve at a time per matrix (its communicators), and the caller's thread, which runs
  // rank 0, back on its own device afterwards.
  std::lock_guard<std::mutex> one_at_a_time(a.comms().solving());
  const detail::current_device_guard keep_device;
  a.comms().ensure();
  result<W> out;
  std::vector<std::vector<detail::step_sample>> logs(profile ? a.parts() : 0);
  detail::rank_group group(a.parts());
  detail::run_ranks(
      a.parts(), group,
      [&](std::size_t rank) {
        TROPIC_CUDA_CHECK(cudaSetDevice(a.devices()[rank]));
        detail::rank_solver<W> solver(a, rank, group, opts, buckets, source);
        if (rank == 0) solver.account.p = profile;
        if (profile) solver.log = &logs[rank];
        try {
          statistics st = solver.solve();
          result<W> r = detail::finish(solver, st);
          if (rank == 0) out = std::move(r);
        } catch (...) {
          // Before the solver's buffers are freed: the peers are released, this rank's NCCL
          // calls are aborted and its stream drained, so no queued copy or kernel writes into
          // memory already given back.
          group.fail();
          a.comms().abort(rank);
          cudaStreamSynchronize(solver.stream);
          cudaGetLastError();
          throw;
        }
      },
      [&](std::size_t rank) { a.comms().abort(rank); });
  if (profile) detail::merge_step_logs(*profile, logs);
  return out;
}

#define TROPIC_INSTANTIATE(W)                                                                 \
  template result<W> sssp<W>(const distributed_matrix<W>&, vertex, const options&);          \
  template result<W> sssp<W>(const distributed_matrix<W>&, vertex, const options&,            \
                             distributed_profile*);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic
