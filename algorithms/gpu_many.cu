// GPU side of many sources and origin-destination: one upload, then every source on it.
// solve_many_gpu is the one place the sources meet the GPU algorithms: Near-Far on a thread block
// per source or batched delta-stepping (min-plus mxm over a k x n frontier) where they measured
// faster, else a loop over the single-source solve.
#include <algorithm>
#include <chrono>
#include <future>
#include <string>
#include <vector>

#include "policy.hpp"
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

// The k x n rows into the caller's memory, by the fastest measured path for the graph and the count:
//  - on graphs of short rows (roads, grids, meshes) with policy::many_sources::blocks_min_sources
//    or more sources, automatic and near_far run near_far_blocks (a thread block per source);
//    delta_stepping runs batched on the min-plus mxm (one arc read for all the chunk's sources)
//    from policy::delta_stepping::batch_min_sources on;
//  - anything else source by source (on graphs with hubs both measured slower).
// Both many-source paths take the sources in chunks of as many rows as device memory holds
// (options::max_batch when they do not all fit).
template <class W>
void solve_many_gpu(const device_matrix<W>& a, const std::vector<vertex>& sources,
                    const options& opts, W* distances, std::int64_t* parents, statistics& stats) {
  const std::size_t n = a.rows(), k = sources.size();
  const bool short_rows =
      a.stats().max_degree <= policy::delta_stepping::closure_local_rounds_max_degree &&
      !a.stats().has_negative_weight;
  const bool blocks = short_rows && k >= policy::many_sources::blocks_min_sources &&
                      (opts.algorithm == algorithm::near_far ||
                       opts.algorithm == algorithm::automatic);
  const bool batched = short_rows && k >= policy::delta_stepping::batch_min_sources &&
                       opts.algorithm == algorithm::delta_stepping;
  if (blocks || batched) {
    std::size_t free_bytes = 0, total_bytes = 0;
    TROPIC_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    // The batch: three k x n arrays of W (delta_stepping_batch checks its exact need); the
    // blocks: one, and their worklists. An eighth of the free memory is left for the per-vertex
    // arrays, the worklists and the operators' scratch.
    const std::size_t rows = batch_rows(k, n, (batched ? 3 : 1) * sizeof(W), free_bytes / 8 * 7,
                                        opts.max_batch, "device memory");
    for (std::size_t first = 0; first < k; first += rows) {
      const std::size_t count = std::min(rows, k - first);
      W* d = distances + first * n;
      std::int64_t* p = opts.parents ? parents + first * n : nullptr;
      statistics st;
      if (blocks)
        near_far_blocks(a, sources.data() + first, count, opts, d, p, st,
                        cutoff_limit<W>(opts.cutoff));
      else
        delta_stepping_batch(a, sources.data() + first, count, opts, d, p, st,
                             cutoff_limit<W>(opts.cutoff));
      add_stats(stats, st);
    }
    return;
  }
  // Row i goes into the caller's memory on another host thread while row i + 1 solves.
  std::future<void> placing;
  for (std::size_t i = 0; i < k; ++i) {
    result<W> r = sssp(a, sources[i], opts);
    add_stats(stats, r.stats);
    if (placing.valid()) placing.get();
    placing = std::async(std::launch::async, [&opts, distances, parents, n, i,
                                              row = std::move(r)] {
      std::copy(row.distances.begin(), row.distances.end(), distances + i * n);
      if (opts.parents) std::copy(row.parents.begin(), row.parents.end(), parents + i * n);
    });
  }
  if (placing.valid()) placing.get();
}

}  // namespace
}  // namespace detail

template <class W>
statistics sssp_into(const device_matrix<W>& a, const std::vector<vertex>& sources,
                     const options& opts, W* distances, std::int64_t* parents) {
  const auto start = std::chrono::steady_clock::now();
  detail::check_many(a, sources, opts, "source");
  return detail::into_caller_memory(start, sources.size(), opts, distances, parents,
                                    [&](statistics& stats) {
    detail::solve_many_gpu(a, sources, opts, distances, parents, stats);
  });
}

template <class W>
multi_result<W> sssp(const device_matrix<W>& a, const std::vector<vertex>& sources,
                     const options& opts) {
  detail::check_many(a, sources, opts, "source");
  return detail::rows_from<W>(a.rows(), sources, opts.parents, [&](W* d, std::int64_t* p) {
    return sssp_into(a, sources, opts, d, p);
  });
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
  template statistics sssp_into<W>(const device_matrix<W>&, const std::vector<vertex>&,        \
                                   const options&, W*, std::int64_t*);                         \
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
