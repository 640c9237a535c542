// Many sources and origin-destination: sssp(g, sources) and sssp_od(g, origins, destinations).
// graphblas_cpu solves the sources together (graphblas_cpu_batch.cpp); dijkstra runs them one by
// one, in parallel over the sources; the GPU algorithms go through gpu_many.cu (one upload).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tropic/detail/backends.hpp"
#include "tropic/detail/cutoff.hpp"
#include "tropic/detail/openmp.hpp"
#include "tropic/error.hpp"
#include "tropic/sssp.hpp"

namespace tropic {

namespace detail {

void check_vertex_list(vertex n, const std::vector<vertex>& list, const char* what) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i] >= n)
      throw error(error_code::invalid_index, std::string(what) + " " + std::to_string(list[i]) +
                                                 " (entry " + std::to_string(i) +
                                                 " of the list) is out of range: the graph has " +
                                                 std::to_string(n) + " vertices (0-based)");
}

std::size_t batch_rows(std::size_t k, std::size_t n, std::size_t cell_bytes, std::size_t available,
                       std::size_t max_batch, const char* where) {
  if (k == 0) return 0;
  std::size_t need = 0;
  const bool overflows =
      __builtin_mul_overflow(k, n, &need) || __builtin_mul_overflow(need, cell_bytes, &need);
  if (!overflows && need <= available) return k;
  if (max_batch > 0) return std::min(max_batch, k);
  throw error(error_code::out_of_memory,
              std::to_string(k) + " sources x " + std::to_string(n) + " vertices need " +
                  (overflows ? std::string("more than 2^64") : std::to_string(need)) +
                  " bytes of " + where + " at once, " + std::to_string(available) +
                  " available; set options::max_batch to solve the sources in chunks");
}

// Sums the statistics of the solves that make one multi-source answer.
void add_stats(statistics& sum, const statistics& s) {
  if (sum.algorithm.empty()) sum.algorithm = s.algorithm;
  sum.delta = s.delta;
  sum.buckets += s.buckets;
  sum.iterations += s.iterations;
  sum.vertices_relaxed += s.vertices_relaxed;
  sum.arcs_relaxed += s.arcs_relaxed;
  sum.host_round_trips += s.host_round_trips;
  sum.device_loop_buckets += s.device_loop_buckets;
  sum.widened_at = std::min(sum.widened_at, s.widened_at);
  sum.setup_milliseconds += s.setup_milliseconds;
}

std::size_t host_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return std::numeric_limits<std::size_t>::max();
  return std::size_t(pages) * std::size_t(page);
}

namespace {

template <class W>
void put_row(multi_result<W>& out, std::size_t i, const result<W>& r) {
  std::copy(r.distances.begin(), r.distances.end(), out.distances.begin() + i * out.n);
  if (!out.parents.empty())
    std::copy(r.parents.begin(), r.parents.end(), out.parents.begin() + i * out.n);
}

// The checks every many-source entry point makes; returns the resolved options.
template <class W>
options prepare(const csr<W>& g, const std::vector<vertex>& sources, const options& opts,
                const char* what) {
  options o = resolve_options(g, opts);
  if (!sources.empty()) check_sssp_arguments(g, sources.front(), o.algorithm);
  check_vertex_list(g.n, sources, what);
  return o;
}

template <class W>
void dijkstra_rows(const csr<W>& g, const std::vector<vertex>& sources, const options& o,
                   multi_result<W>& out) {
  const W limit = cutoff_limit<W>(o.cutoff);
  std::vector<statistics> stats(sources.size());
  std::string failure;
  error_code code = error_code::invalid_value;
  // One source per thread: each search is serial and they share nothing but g.
  TROPIC_OMP(parallel for schedule(dynamic, 1))
  for (std::int64_t i = 0; i < std::int64_t(sources.size()); ++i) {
    try {
      result<W> r = dijkstra_search(g, sources[i], o.parents, limit, nullptr);
      put_row(out, std::size_t(i), r);
      stats[i] = std::move(r.stats);
    } catch (const error& e) {
      TROPIC_OMP(critical)
      if (failure.empty()) failure = e.what(), code = e.code();
    }
  }
  if (!failure.empty()) throw error(code, failure);
  for (const statistics& s : stats) add_stats(out.stats, s);
}

}  // namespace
}  // namespace detail

template <class W>
multi_result<W> sssp(const csr<W>& g, const std::vector<vertex>& sources, const options& opts) {
  if (opts.devices.size() == 1) {
    options one = opts;
    one.device = opts.devices[0];
    one.devices.clear();
    return sssp(g, sources, one);
  }
  const bool several = !opts.devices.empty();
  const auto start = std::chrono::steady_clock::now();
  options o;
  if (several) {
    detail::check_vertex_list(g.n, sources, "source");
    if (!sources.empty()) detail::check_several_devices(g, sources.front(), opts);
    detail::check_cutoff(opts.cutoff);
    o = opts;
  } else {
    o = detail::prepare(g, sources, opts, "source");
  }
  multi_result<W> out;
  out.n = g.n;
  out.sources = sources;
  const std::size_t k = sources.size();
  const std::size_t cell = sizeof(W) + (o.parents ? sizeof(std::int64_t) : 0);
  // The result holds every row whatever the chunks: it must fit (max_batch cannot help it).
  detail::batch_rows(k, g.n, cell, detail::host_memory_bytes(), 0, "host memory");
  out.distances.assign(k * std::size_t(g.n), infinity<W>());
  if (o.parents) out.parents.assign(k * std::size_t(g.n), -1);
  if (k == 0) return out;

  if (several) {
    // One split of A over the devices, then the sources one after another.
#if defined(TROPIC_HAVE_CUDA)
    detail::distributed_rows(g, sources, o, out);
#else
    throw error(error_code::no_device, "several GPUs were asked for; this build has no CUDA");
#endif
    out.stats.milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    return out;
  }

  // With no GPU, `auto` from at least one source per CPU thread runs Dijkstra per source in
  // parallel over the sources: every thread busy and Dijkstra's work, where graphblas_cpu's batch
  // relaxes about twice the arcs (bench/results/h200-run31) and was 2.5-13x slower on 2 cores
  // (bench/results/h200x4-run35/NOTES.md)
  if (opts.algorithm == algorithm::automatic && o.algorithm == algorithm::graphblas_cpu &&
      k >= std::size_t(detail::worker_threads()) && !detail::has_negative_arc(g))
    o.algorithm = algorithm::dijkstra;
  switch (o.algorithm) {
    case algorithm::dijkstra:
      detail::dijkstra_rows(g, sources, o, out);
      break;
    case algorithm::graphblas_cpu: {
      // The batch's GraphBLAS matrices (t dense, the frontier, R, S, r sparse) hold up to about
      // four k x n values with their indices: the working set set against half the memory.
      const std::size_t rows =
          detail::batch_rows(k, g.n, 4 * (sizeof(W) + 8), detail::host_memory_bytes() / 2,
                             o.max_batch, "host memory (graphblas_cpu's batch)");
      for (std::size_t first = 0; first < k; first += rows) {
        const std::vector<vertex> chunk(sources.begin() + first,
                                        sources.begin() + std::min(k, first + rows));
        multi_result<W> part = detail::graphblas_cpu_multi(g, chunk, o);
        std::copy(part.distances.begin(), part.distances.end(),
                  out.distances.begin() + first * g.n);
        if (o.parents)
          std::copy(part.parents.begin(), part.parents.end(), out.parents.begin() + first * g.n);
        detail::add_stats(out.stats, part.stats);
      }
      break;
    }
    default: {
#if defined(TROPIC_HAVE_CUDA)
      if (!gpu_available())
        throw error(error_code::no_device, std::string("algorithm '") +
                                               algorithm_name(o.algorithm) +
                                               "' needs a CUDA device and none is usable");
      multi_result<W> r = detail::gpu_sssp_many(g, sources, o);
      out.distances = std::move(r.distances);
      out.parents = std::move(r.parents);
      out.stats = std::move(r.stats);
      break;
#else
      throw error(error_code::no_device, std::string("algorithm '") + algorithm_name(o.algorithm) +
                                             "' needs CUDA; this build has none");
#endif
    }
  }
  out.stats.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

template <class W>
std::vector<W> sssp_od(const csr<W>& g, const std::vector<vertex>& origins,
                       const std::vector<vertex>& destinations, const options& opts) {
  if (opts.devices.size() == 1) {
    options one = opts;
    one.device = opts.devices[0];
    one.devices.clear();
    return sssp_od(g, origins, destinations, one);
  }
  if (!opts.devices.empty()) {
    // Several GPUs: one split of A, the origins in turn, each keeping its destinations' entries.
    detail::check_vertex_list(g.n, origins, "origin");
    detail::check_vertex_list(g.n, destinations, "destination");
    if (!origins.empty()) detail::check_several_devices(g, origins.front(), opts);
    detail::check_cutoff(opts.cutoff);
#if defined(TROPIC_HAVE_CUDA)
    return detail::distributed_od(g, origins, destinations, opts);
#else
    throw error(error_code::no_device, "several GPUs were asked for; this build has no CUDA");
#endif
  }
  options o = detail::prepare(g, origins, opts, "origin");
  detail::check_vertex_list(g.n, destinations, "destination");
  o.parents = false;
  const std::size_t k = origins.size(), d = destinations.size();
  std::vector<W> out(k * d, infinity<W>());
  if (k == 0 || d == 0) return out;
  switch (o.algorithm) {
    case algorithm::dijkstra: {
      // Each search stops once every destination is popped (dijkstra_search's targets).
      const W limit = detail::cutoff_limit<W>(o.cutoff);
      std::string failure;
      error_code code = error_code::invalid_value;
      TROPIC_OMP(parallel for schedule(dynamic, 1))
      for (std::int64_t i = 0; i < std::int64_t(k); ++i) {
        try {
          const result<W> r = detail::dijkstra_search(g, origins[i], false, limit, &destinations);
          for (std::size_t j = 0; j < d; ++j) out[i * d + j] = r.distances[destinations[j]];
        } catch (const error& e) {
          TROPIC_OMP(critical)
          if (failure.empty()) failure = e.what(), code = e.code();
        }
      }
      if (!failure.empty()) throw error(code, failure);
      return out;
    }
#if defined(TROPIC_HAVE_CUDA)
    case algorithm::graphblas_cpu:
      break;
    default:
      if (!gpu_available())
        throw error(error_code::no_device, std::string("algorithm '") +
                                               algorithm_name(o.algorithm) +
                                               "' needs a CUDA device and none is usable");
      return detail::gpu_sssp_od(g, origins, destinations, o);
#else
    default:
      break;
#endif
  }
  // graphblas_cpu (and, without CUDA, the GPU algorithms' refusal): the full rows, gathered.
  const multi_result<W> all = sssp(g, origins, o);
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < d; ++j) out[i * d + j] = all.distance(i, destinations[j]);
  return out;
}

#define TROPIC_INSTANTIATE(W)                                                                  \
  template multi_result<W> sssp<W>(const csr<W>&, const std::vector<vertex>&, const options&); \
  template std::vector<W> sssp_od<W>(const csr<W>&, const std::vector<vertex>&,                \
                                     const std::vector<vertex>&, const options&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)
#undef TROPIC_INSTANTIATE

}  // namespace tropic
