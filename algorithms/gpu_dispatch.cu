// GPU side of sssp(): the device-matrix entry point and the host one that uploads first.
#include <chrono>
#include <string>

#include "policy.hpp"
#include "tropic/detail/backends.hpp"
#include "tropic/detail/cutoff.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/error.hpp"
#include "tropic/operators.hpp"

namespace tropic {

template <class W>
result<W> sssp(const device_matrix<W>& a, vertex source, const options& opts) {
  if (a.rows() == 0)
    throw error(error_code::invalid_value, "the graph has no vertices: there is no source");
  if (source >= a.rows())
    throw error(error_code::invalid_index, "source vertex " + std::to_string(source) +
                                               " is out of range: the graph has " +
                                               std::to_string(a.rows()) + " vertices (0-based)");
  const bool negative = a.stats().has_negative_weight;
  if (negative && !detail::accepts_negative_weights(opts.algorithm))
    throw error(error_code::invalid_value,
                std::string(algorithm_name(opts.algorithm)) +
                    " needs non-negative weights and the matrix has a negative one (least " +
                    std::to_string(a.stats().min_weight) +
                    "); bellman_ford, graphblas_cpu and auto take negative arcs");
  if (!(opts.delta >= 0))
    throw error(error_code::invalid_value, "delta must be positive (or 0 for automatic)");
  detail::check_cutoff(opts.cutoff);
  if (negative && opts.parents && detail::cutoff_active<W>(opts.cutoff))
    detail::throw_cutoff_parents_negative();
  // Cutoff: delta_stepping (both loops) and adds stop at it; bellman_ford, near_far, workfront,
  // rdbs and da2cf have no exit of their own before their frontier empties and are masked by
  // finish_result, which every GPU algorithm ends with.
  options o = opts;
  if (o.algorithm == algorithm::automatic) {
    const graph_stats& s = a.stats();
    // A loop_control asked for is delta-stepping's: it keeps delta-stepping.
    const bool small_and_shallow =
        policy::automatic::prefers_adds(s.n, s.arcs, s.max_degree, s.probe_levels) &&
        o.loop == loop_control::automatic;
    o.algorithm = negative            ? algorithm::bellman_ford
                  : small_and_shallow ? algorithm::adds
                                      : algorithm::delta_stepping;
  }
  // Negative arcs: Bellman-Ford's bounded rounds (delta-stepping's buckets start at 0).
  if (negative && o.algorithm == algorithm::bellman_ford)
    return detail::bellman_ford_sssp(a, source, o);
  switch (o.algorithm) {
    case algorithm::delta_stepping:
      return detail::delta_stepping_sssp(a, source, o);
    case algorithm::adds: return detail::adds_sssp(a, source, o);
    case algorithm::near_far: return detail::near_far_sssp(a, source, o);
    case algorithm::workfront:
      return detail::workfront_sssp(a, source, o, load_balance::automatic);
    case algorithm::da2cf: return detail::da2cf_sssp(a, source, o);
    case algorithm::rdbs: return detail::rdbs_sssp(a, source, o);
    case algorithm::edge_wise:
      // Hohne et al.'s delta-stepping is ours with every push in load_balance::edge_wise
      // (semiring/kernels/push_edge_wise.cuh says how the two map), driven by the host as theirs is (the
      // device-driven loop has no edge-wise push). The arc->source array is built once per
      // matrix, outside the solve's timer, like the weight sort of the upload.
      if (o.loop == loop_control::device)
        throw error(error_code::invalid_value,
                    "edge_wise runs host-driven (loop_control::host or automatic): its "
                    "edge-parallel push has no device-driven form");
      o.loop = loop_control::host;
      a.arc_sources();
      return detail::delta_stepping_sssp(a, source, o);
    case algorithm::bellman_ford:
      o.delta = std::numeric_limits<double>::infinity();
      return detail::delta_stepping_sssp(a, source, o);
    default:
      break;
  }
  throw error(error_code::not_implemented,
              std::string("algorithm '") + algorithm_name(o.algorithm) +
                  "' does not run on a device matrix; use sssp(csr, ...)");
}

namespace detail {
template <class W>
result<W> gpu_sssp(const csr<W>& g, vertex source, const options& opts) {
  TROPIC_CUDA_CHECK(cudaSetDevice(opts.device));
  auto start = std::chrono::steady_clock::now();
  device_matrix<W> a(g);
  if (opts.algorithm == algorithm::edge_wise) a.arc_sources();  // part of this call's setup
  double setup_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  result<W> r = sssp(a, source, opts);
  r.stats.setup_milliseconds = setup_ms;
  return r;
}
}  // namespace detail

#define TROPIC_INSTANTIATE(W)                                                              \
  template result<W> sssp<W>(const device_matrix<W>&, vertex, const options&);            \
  template result<W> detail::gpu_sssp<W>(const csr<W>&, vertex, const options&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic
