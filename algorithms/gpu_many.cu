// GPU side of many sources and origin-destination: one upload, then every source on it.
// solve_many_gpu is the one place the sources meet the GPU algorithms: today a loop over the
// single-source solve; the batched delta-stepping (min-plus SpMM over a k x n frontier) is to be
// routed from here for delta_stepping and automatic.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "tropic/detail/backends.hpp"
#include "tropic/detail/cutoff.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/error.hpp"

namespace tropic {

namespace detail {
namespace {

template <class W>
void check_many(const device_matrix<W>& a, const std::vector<vertex>& list, const options& opts,
                const char* what) {
  check_cutoff(opts.cutoff);
  if (!list.empty() && a.rows() == 0)
    throw error(error_code::invalid_value, "the graph has no vertices: there is no source");
  check_vertex_list(a.rows(), list, what);
}

// Rows [first, first + count) of `out` (already sized), source by source.
template <class W>
void solve_many_gpu(const device_matrix<W>& a, const std::vector<vertex>& sources,
                    const options& opts, multi_result<W>& out) {
  const std::size_t n = a.rows();
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const result<W> r = sssp(a, sources[i], opts);
    std::copy(r.distances.begin(), r.distances.end(), out.distances.begin() + i * n);
    if (opts.parents) std::copy(r.parents.begin(), r.parents.end(), out.parents.begin() + i * n);
    add_stats(out.stats, r.stats);
  }
}

}  // namespace
}  // namespace detail

template <class W>
multi_result<W> sssp(const device_matrix<W>& a, const std::vector<vertex>& sources,
                     const options& opts) {
  const auto start = std::chrono::steady_clock::now();
  detail::check_many(a, sources, opts, "source");
  multi_result<W> out;
  out.n = a.rows();
  out.sources = sources;
  const std::size_t k = sources.size(), n = a.rows();
  // The rows live on the host; one row at a time on the device (a batched solve sizes its
  // chunk with detail::batch_rows against cudaMemGetInfo's free bytes).
  out.distances.assign(k * n, infinity<W>());
  if (opts.parents) out.parents.assign(k * n, -1);
  detail::solve_many_gpu(a, sources, opts, out);
  out.stats.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

template <class W>
std::vector<W> sssp_od(const device_matrix<W>& a, const std::vector<vertex>& origins,
                       const std::vector<vertex>& destinations, const options& opts) {
  detail::check_many(a, origins, opts, "origin");
  detail::check_vertex_list(a.rows(), destinations, "destination");
  options o = opts;
  o.parents = false;
  const std::size_t k = origins.size(), d = destinations.size();
  std::vector<W> out(k * d, infinity<W>());
  if (k == 0 || d == 0) return out;
  const bool negative = a.stats().has_negative_weight;
  // Delta-stepping stops once every destination is settled (settle_targets); the others solve in
  // full and gather.
  const bool early = !negative && (o.algorithm == algorithm::delta_stepping ||
                                   o.algorithm == algorithm::automatic);
  cuda_stream stream;
  device_buffer<vertex> ids(early ? d : 0, stream);
  detail::settle_targets targets;
  if (early) {
    o.algorithm = algorithm::delta_stepping;
    if (!(o.delta >= 0))
      throw error(error_code::invalid_value, "delta must be positive (or 0 for automatic)");
    ids.upload(destinations.data(), d);
    stream.synchronize();
    targets = {ids.data(), d};
  }
  for (std::size_t i = 0; i < k; ++i) {
    const result<W> r =
        early ? detail::delta_stepping_sssp(a, origins[i], o, &targets) : sssp(a, origins[i], o);
    for (std::size_t j = 0; j < d; ++j) out[i * d + j] = r.distances[destinations[j]];
  }
  return out;
}

namespace detail {

template <class W>
multi_result<W> gpu_sssp_many(const csr<W>& g, const std::vector<vertex>& sources,
                              const options& opts) {
  TROPIC_CUDA_CHECK(cudaSetDevice(opts.device));
  auto start = std::chrono::steady_clock::now();
  device_matrix<W> a(g);
  if (opts.algorithm == algorithm::edge_wise) a.arc_sources();
  const double setup_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  multi_result<W> r = sssp(a, sources, opts);
  r.stats.setup_milliseconds = setup_ms;
  return r;
}

template <class W>
std::vector<W> gpu_sssp_od(const csr<W>& g, const std::vector<vertex>& origins,
                           const std::vector<vertex>& destinations, const options& opts) {
  TROPIC_CUDA_CHECK(cudaSetDevice(opts.device));
  device_matrix<W> a(g);
  if (opts.algorithm == algorithm::edge_wise) a.arc_sources();
  return sssp_od(a, origins, destinations, opts);
}

}  // namespace detail

#define TROPIC_INSTANTIATE(W)                                                                  \
  template multi_result<W> sssp<W>(const device_matrix<W>&, const std::vector<vertex>&,        \
                                   const options&);                                            \
  template std::vector<W> sssp_od<W>(const device_matrix<W>&, const std::vector<vertex>&,      \
                                     const std::vector<vertex>&, const options&);              \
  template multi_result<W> detail::gpu_sssp_many<W>(const csr<W>&, const std::vector<vertex>&, \
                                                    const options&);                           \
  template std::vector<W> detail::gpu_sssp_od<W>(const csr<W>&, const std::vector<vertex>&,    \
                                                 const std::vector<vertex>&, const options&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)
#undef TROPIC_INSTANTIATE

}  // namespace tropic
