// Internal: the functions sssp() dispatches to. Each lives in its own file under algorithms/.
#pragma once

#include <chrono>

#include "tropic/detail/host_pages.hpp"
#include "tropic/error.hpp"
#include "tropic/sssp.hpp"

namespace tropic::detail {

// algorithms/graphblas_cpu.cpp: delta-stepping on SuiteSparse:GraphBLAS (CPU, all cores).
template <class W>
result<W> graphblas_cpu_sssp(const csr<W>& g, vertex source, const options& opts);

#if defined(TROPIC_HAVE_CUDA)
// algorithms/gpu_dispatch.cu: uploads g and runs a GPU algorithm.
template <class W>
result<W> gpu_sssp(const csr<W>& g, vertex source, const options& opts);
#endif

#if defined(TROPIC_HAVE_CUDA)
// algorithms/delta_stepping_distributed.cu: g split over opts.devices and solved there (the
// split and upload timed as setup_milliseconds); the rows of many sources, one split for all
// (`out` sized by the caller).
template <class W>
result<W> distributed_sssp(const csr<W>& g, vertex source, const options& opts);
template <class W>
void distributed_rows(const csr<W>& g, const std::vector<vertex>& sources, const options& opts,
                      multi_result<W>& out);
// origin-destination: row i holds origin i's distances to the destinations (no k x n rows)
template <class W>
std::vector<W> distributed_od(const csr<W>& g, const std::vector<vertex>& origins,
                              const std::vector<vertex>& destinations, const options& opts);
#endif
// algorithms/sssp.cpp: with two or more options::devices only delta_stepping (or automatic)
// runs, on non-negative weights: invalid_value otherwise.
template <class W>
void check_several_devices(const csr<W>& g, vertex source, const options& opts);

// Throws invalid_index when source >= n, and invalid_value for negative weights when the
// algorithm needs non-negative ones (every one but bellman_ford, graphblas_cpu, automatic).
template <class W>
void check_sssp_arguments(const csr<W>& g, vertex source, algorithm a);

// algorithms/sssp.cpp: options with `automatic` resolved and delta and cutoff checked (and
// parents with a cutoff refused on graphs with a negative arc), as every CPU entry point uses.
template <class W>
options resolve_options(const csr<W>& g, const options& opts);
[[noreturn]] void throw_cutoff_parents_negative();
bool implemented_algorithm(algorithm a) noexcept;

// algorithms/dijkstra.cpp: Dijkstra that never reaches past `limit` (cutoff_limit) and, with
// `targets`, stops once every target is popped (the others keep tentative distances).
template <class W>
result<W> dijkstra_search(const csr<W>& g, vertex source, bool parents, W limit,
                          const std::vector<vertex>* targets);

// algorithms/graphblas_cpu_batch.cpp: batched delta-stepping, GrB_mxm over a k x n frontier;
// row i of the result is sources[i]'s. The sources are checked by the caller.
template <class W>
multi_result<W> graphblas_cpu_multi(const csr<W>& g, const std::vector<vertex>& sources,
                                    const options& opts);

#if defined(TROPIC_HAVE_CUDA)
// algorithms/gpu_many.cu: uploads g once and solves every source on the GPU.
template <class W>
multi_result<W> gpu_sssp_many(const csr<W>& g, const std::vector<vertex>& sources,
                              const options& opts);
template <class W>
std::vector<W> gpu_sssp_od(const csr<W>& g, const std::vector<vertex>& origins,
                           const std::vector<vertex>& destinations, const options& opts);
#endif

// algorithms/sssp_many.cpp: invalid_index naming the first source >= n (`what`: "source",
// "origin", "destination").
void check_vertex_list(vertex n, const std::vector<vertex>& list, const char* what);
// algorithms/sssp_many.cpp: sum += s, for a multi-source answer made of several solves (counts
// add up, the algorithm is the first one named, Δ the last).
void add_stats(statistics& sum, const statistics& s);
// Rows of n cells of `cell_bytes` each held at once: all k when they fit in `available` bytes;
// else max_batch when it is set, else out_of_memory naming k, n, the bytes needed and available
// (`where`: "host memory", "device memory").
std::size_t batch_rows(std::size_t k, std::size_t n, std::size_t cell_bytes, std::size_t available,
                       std::size_t max_batch, const char* where);
// sssp(matrix, sources)'s multi_result over any matrix: k rows of n, filled by
// into(distances, parents) (that matrix's sssp_into, returning the statistics).
template <class W, class Into>
multi_result<W> rows_from(std::size_t n, const std::vector<vertex>& sources, bool parents,
                          Into&& into) {
  multi_result<W> out;
  out.n = n;
  out.sources = sources;
  resize_fresh(out.distances, sources.size() * n);
  if (parents) resize_fresh(out.parents, out.distances.size());
  out.stats = into(out.distances.data(), parents ? out.parents.data() : nullptr);
  return out;
}
// sssp_into's frame over any matrix, after that matrix's own checks of its arguments: the
// caller's memory (distances, and parents when options.parents asks) given for a non-empty list,
// then solve(stats), then stats.milliseconds = the whole call's wall time since `start`.
template <class Solve>
statistics into_caller_memory(std::chrono::steady_clock::time_point start, std::size_t sources,
                              const options& opts, const void* distances, const void* parents,
                              Solve&& solve) {
  if (sources && (!distances || (opts.parents && !parents)))
    throw error(error_code::invalid_value,
                "sssp_into: no memory given for the distances (or the parents options.parents "
                "asks for)");
  statistics stats;
  solve(stats);
  stats.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return stats;
}
// algorithms/sssp_many.cpp: physical memory, what a k x n result must fit in whatever the
// chunking.
std::size_t host_memory_bytes();

// algorithms/sssp.cpp: whether g has an arc of negative weight.
template <class W>
bool has_negative_arc(const csr<W>& g) noexcept;

// Whether algorithm a gives exact distances with negative arcs.
bool accepts_negative_weights(algorithm a) noexcept;

// algorithms/bellman_ford_cpu.cpp: an algorithm found a reachable negative cycle (round n still
// improved); finds a vertex on it with the CPU reference and throws error_code::negative_cycle.
template <class W>
[[noreturn]] void throw_negative_cycle(const csr<W>& g, vertex source, const char* algorithm);

}  // namespace tropic::detail
