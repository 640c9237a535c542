// sssp(): resolves `automatic`, checks the arguments once, and dispatches.
#include "tropic/sssp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "tropic/detail/backends.hpp"
#include "tropic/detail/cutoff.hpp"
#include "tropic/error.hpp"

#if defined(TROPIC_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tropic {

namespace {
struct named_algorithm {
  algorithm value;
  const char* name;
  bool gpu;
};
constexpr named_algorithm all_algorithms[] = {
    {algorithm::automatic, "auto", false},
    {algorithm::dijkstra, "dijkstra", false},
    {algorithm::delta_stepping, "delta_stepping", true},
    {algorithm::bellman_ford, "bellman_ford", true},
    {algorithm::graphblas_cpu, "graphblas_cpu", false},
    {algorithm::adds, "adds", true},
    {algorithm::near_far, "near_far", true},
    {algorithm::workfront, "workfront", true},
    {algorithm::rdbs, "rdbs", true},
    {algorithm::da2cf, "da2cf", true},
    {algorithm::edge_wise, "edge_wise", true},
};

// GPU algorithms that exist in this source tree (later issues add to this list).
bool implemented(algorithm a) noexcept {
  switch (a) {
    case algorithm::automatic:
    case algorithm::dijkstra:
    case algorithm::graphblas_cpu:
    case algorithm::bellman_ford:  // bellman_ford_cpu where no GPU is usable
      return true;
    case algorithm::delta_stepping:
    case algorithm::adds:
    case algorithm::near_far:
    case algorithm::workfront:
    case algorithm::da2cf:
    case algorithm::edge_wise:
    case algorithm::rdbs:
#if defined(TROPIC_HAVE_CUDA)
      return true;
#else
      return false;
#endif
    default:
      return false;
  }
}

std::string available_list() {
  std::string s;
  for (algorithm a : available_algorithms()) {
    if (!s.empty()) s += ", ";
    s += algorithm_name(a);
  }
  return s;
}
}  // namespace

const char* algorithm_name(algorithm a) noexcept {
  for (const auto& e : all_algorithms)
    if (e.value == a) return e.name;
  return "unknown";
}

bool is_gpu_algorithm(algorithm a) noexcept {
  for (const auto& e : all_algorithms)
    if (e.value == a) return e.gpu;
  return false;
}

std::vector<algorithm> available_algorithms() {
  std::vector<algorithm> out;
  for (const auto& e : all_algorithms)
    if (implemented(e.value)) out.push_back(e.value);
  return out;
}

algorithm parse_algorithm(std::string_view name) {
  for (const auto& e : all_algorithms)
    if (name == e.name && implemented(e.value)) return e.value;
  for (const auto& e : all_algorithms)
    if (name == e.name)
      throw error(error_code::not_implemented,
                  "algorithm '" + std::string(name) + "' is not available in this build" +
                      (e.gpu ? " (it needs CUDA)" : "") + "; available: " + available_list());
  throw error(error_code::invalid_value, "unknown algorithm '" + std::string(name) +
                                             "'; available: " + available_list());
}

loop_control parse_loop_control(std::string_view name) {
  if (name == "auto") return loop_control::automatic;
  if (name == "host") return loop_control::host;
  if (name == "device") return loop_control::device;
  throw error(error_code::invalid_value,
              "loop must be auto, host or device, got '" + std::string(name) + "'");
}

bool gpu_available() noexcept {
#if defined(TROPIC_HAVE_CUDA)
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return false;
  }
  return count > 0;
#else
  return false;
#endif
}

double choose_delta(const graph_stats& s) {
  if (s.arcs == 0 || s.max_weight <= 0) return 1;
  // Davidson et al. IV-C: delta = 32 * mean weight / mean degree (cuGraph uses the same).
  double delta = 32.0 * s.avg_weight / std::max(1.0, s.avg_degree);
  // A bucket narrower than the lightest positive arc only adds empty buckets.
  if (s.min_weight > 0) delta = std::max(delta, s.min_weight);
  return std::max(delta, std::numeric_limits<double>::min());
}

namespace detail {
template <class W>
bool has_negative_arc(const csr<W>& g) noexcept {
  if constexpr (std::is_signed_v<W> || std::is_floating_point_v<W>) {
    for (W w : g.weights)
      if (w < W(0)) return true;
  }
  return false;
}

bool implemented_algorithm(algorithm a) noexcept {
  return implemented(a);
}

bool accepts_negative_weights(algorithm a) noexcept {
  return a == algorithm::bellman_ford || a == algorithm::graphblas_cpu ||
         a == algorithm::automatic;
}

template <class W>
void check_sssp_arguments(const csr<W>& g, vertex source, algorithm a) {
  if (g.n == 0)
    throw error(error_code::invalid_value, "the graph has no vertices: there is no source");
  if (source >= g.n)
    throw error(error_code::invalid_index, "source vertex " + std::to_string(source) +
                                               " is out of range: the graph has " +
                                               std::to_string(g.n) + " vertices (0-based)");
  if constexpr (std::is_signed_v<W> || std::is_floating_point_v<W>) {
    if (!accepts_negative_weights(a)) require_non_negative(g, algorithm_name(a));
  }
}
template <class W>
options resolve_options(const csr<W>& g, const options& opts) {
  options resolved = opts;
  if (resolved.algorithm == algorithm::automatic) {
    // Negative arcs: Bellman-Ford's rounds (delta-stepping's buckets assume weights >= 0). On a
    // GPU the uploaded matrix's statistics choose between ADDS and delta-stepping
    // (algorithms/gpu_dispatch.cu).
    const bool gpu = implemented(algorithm::delta_stepping) && gpu_available();
    resolved.algorithm = !gpu                   ? algorithm::graphblas_cpu
                         : has_negative_arc(g) ? algorithm::bellman_ford
                                               : algorithm::automatic;
  }
  if (!implemented(resolved.algorithm)) parse_algorithm(algorithm_name(resolved.algorithm));
  if (!(resolved.delta >= 0))
    throw error(error_code::invalid_value,
                "delta must be positive (or 0 for automatic), got " + std::to_string(opts.delta));
  check_cutoff(resolved.cutoff);
  if (resolved.parents && has_negative_arc(g) && cutoff_active<W>(resolved.cutoff))
    throw_cutoff_parents_negative();
  return resolved;
}

template <class W>
void check_several_devices(const csr<W>& g, vertex source, const options& opts) {
  // Several GPUs: delta-stepping only; the CPU algorithms do not take a device list.
  if (opts.algorithm != algorithm::automatic && opts.algorithm != algorithm::delta_stepping)
    throw error(error_code::invalid_value,
                std::string("on several GPUs only delta_stepping runs (asked: ") +
                    algorithm_name(opts.algorithm) + ")");
  check_sssp_arguments(g, source, algorithm::delta_stepping);
}

void throw_cutoff_parents_negative() {
  // A shortest path that climbs above the cutoff and comes back below it through a negative arc
  // would leave its vertex a parent reported unreachable: no tree to give.
  throw error(error_code::invalid_value,
              "parents with a finite cutoff need non-negative weights (the graph has a negative "
              "arc); ask for distances only, or drop the cutoff");
}
}  // namespace detail

template <class W>
result<W> sssp(const csr<W>& g, vertex source, const options& opts) {
  if (opts.devices.size() == 1) {
    options one = opts;
    one.device = opts.devices[0];
    one.devices.clear();
    return sssp(g, source, one);
  }
  if (!opts.devices.empty()) {
    detail::check_several_devices(g, source, opts);
#if defined(TROPIC_HAVE_CUDA)
    return detail::distributed_sssp(g, source, opts);
#else
    throw error(error_code::no_device, "several GPUs were asked for; this build has no CUDA");
#endif
  }
  const options resolved = detail::resolve_options(g, opts);
  detail::check_sssp_arguments(g, source, resolved.algorithm);

  switch (resolved.algorithm) {
    case algorithm::dijkstra:
      return detail::dijkstra_search(g, source, resolved.parents,
                                     detail::cutoff_limit<W>(resolved.cutoff), nullptr);
    case algorithm::graphblas_cpu:
      return detail::graphblas_cpu_sssp(g, source, resolved);
    case algorithm::bellman_ford:
      // Without a usable GPU, the CPU's Bellman-Ford-Moore rounds: the same answers, negative
      // arcs and the negative-cycle report included, on every build (stats.algorithm says
      // bellman_ford_cpu ran).
#if defined(TROPIC_HAVE_CUDA)
      if (gpu_available()) return detail::gpu_sssp(g, source, resolved);
#endif
      return bellman_ford_cpu(g, source, resolved.parents);
    default:
#if defined(TROPIC_HAVE_CUDA)
      if (!gpu_available())
        throw error(error_code::no_device, std::string("algorithm '") +
                                               algorithm_name(resolved.algorithm) +
                                               "' needs a CUDA device and none is usable");
      return detail::gpu_sssp(g, source, resolved);
#else
      throw error(error_code::no_device, std::string("algorithm '") +
                                             algorithm_name(resolved.algorithm) +
                                             "' needs CUDA; this build has none");
#endif
  }
}

#define TROPIC_INSTANTIATE(W)                                                 \
  template result<W> sssp<W>(const csr<W>&, vertex, const options&);          \
  template options detail::resolve_options<W>(const csr<W>&, const options&); \
  template bool detail::has_negative_arc<W>(const csr<W>&) noexcept;         \
  template void detail::check_sssp_arguments<W>(const csr<W>&, vertex, algorithm);     \
  template void detail::check_several_devices<W>(const csr<W>&, vertex, const options&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic
