// The entry points built on one distributed solve (delta_stepping_distributed.cu): many sources
// over a split, one after another, their rows into the caller's memory or a multi_result; and
// the host CSR's several-GPU paths of sssp, sssp(sources) and sssp_od, each splitting the graph
// once for the call.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "tropic/detail/backends.hpp"
#include "tropic/detail/cutoff.hpp"
#include "tropic/distributed.hpp"
#include "tropic/error.hpp"

namespace tropic {

template <class W>
statistics sssp_into(const distributed_matrix<W>& a, const std::vector<vertex>& sources,
                     const options& opts, W* distances, std::int64_t* parents) {
  const auto start = std::chrono::steady_clock::now();
  detail::check_vertex_list(a.rows(), sources, "source");
  detail::check_cutoff(opts.cutoff);
  const std::size_t n = a.rows();
  return detail::into_caller_memory(start, sources.size(), opts, distances, parents,
                                    [&](statistics& stats) {
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const result<W> r = sssp(a, sources[i], opts);
      std::copy(r.distances.begin(), r.distances.end(), distances + i * n);
      if (opts.parents) std::copy(r.parents.begin(), r.parents.end(), parents + i * n);
      detail::add_stats(stats, r.stats);
    }
  });
}

template <class W>
multi_result<W> sssp(const distributed_matrix<W>& a, const std::vector<vertex>& sources,
                     const options& opts) {
  detail::check_vertex_list(a.rows(), sources, "source");
  const std::size_t cell = sizeof(W) + (opts.parents ? sizeof(std::int64_t) : 0);
  detail::batch_rows(sources.size(), a.rows(), cell, detail::host_memory_bytes(), 0,
                     "host memory");
  return detail::rows_from<W>(a.rows(), sources, opts.parents, [&](W* d, std::int64_t* p) {
    return sssp_into(a, sources, opts, d, p);
  });
}

namespace detail {
template <class W>
result<W> distributed_sssp(const csr<W>& g, vertex source, const options& opts) {
  const auto start = std::chrono::steady_clock::now();
  const distributed_matrix<W> a(g, opts.devices);
  const double setup_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  result<W> r = sssp(a, source, opts);
  r.stats.setup_milliseconds = setup_ms;
  return r;
}

template <class W>
void distributed_rows(const csr<W>& g, const std::vector<vertex>& sources, const options& opts,
                      multi_result<W>& out) {
  const distributed_matrix<W> a(g, opts.devices);
  out.stats = sssp_into(a, sources, opts, out.distances.data(),
                        opts.parents ? out.parents.data() : nullptr);
}

template <class W>
std::vector<W> distributed_od(const csr<W>& g, const std::vector<vertex>& origins,
                              const std::vector<vertex>& destinations, const options& opts) {
  std::vector<W> out(origins.size() * destinations.size(), infinity<W>());
  if (origins.empty() || destinations.empty()) return out;
  const distributed_matrix<W> a(g, opts.devices);
  options o = opts;
  o.parents = false;
  for (std::size_t i = 0; i < origins.size(); ++i) {
    const result<W> r = sssp(a, origins[i], o);
    for (std::size_t j = 0; j < destinations.size(); ++j)
      out[i * destinations.size() + j] = r.distances[destinations[j]];
  }
  return out;
}

}  // namespace detail

#define TROPIC_INSTANTIATE(W)                                                                 \
  template multi_result<W> sssp<W>(const distributed_matrix<W>&, const std::vector<vertex>&,  \
                                   const options&);                                          \
  template statistics sssp_into<W>(const distributed_matrix<W>&, const std::vector<vertex>&,  \
                                   const options&, W*, std::int64_t*);                       \
  template result<W> detail::distributed_sssp<W>(const csr<W>&, vertex, const options&);     \
  template void detail::distributed_rows<W>(const csr<W>&, const std::vector<vertex>&,       \
                                            const options&, multi_result<W>&);               \
  template std::vector<W> detail::distributed_od<W>(                                          \
      const csr<W>&, const std::vector<vertex>&, const std::vector<vertex>&, const options&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic
