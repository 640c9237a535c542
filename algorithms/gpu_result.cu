// The epilogue every GPU algorithm shares: overflow detection and parents in one pass over the
// arcs, then the download.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include <cuda/atomic>

#include "tropic/detail/cutoff.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/detail/host_pages.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {

namespace {

constexpr unsigned long long no_parent = ~0ull;

// Both passes below visit every arc u -> v of a reached u once. A thread per row made them as
// slow as the longest row (a Kronecker hub's: 4x the solve on kron-22). Instead each thread
// takes a run of arcs_per_thread consecutive arcs, finds the row of its first arc by binary
// search over the row offsets (their upper levels stay in cache), and walks on through the rows
// its run crosses: every thread does the same work whatever the degrees.
constexpr unsigned arcs_per_thread = 8;

template <class W, class Visit>
__device__ __forceinline__ void for_each_arc_of_reached_rows(const csr_view<W>& a, const W* dist,
                                                             Visit&& visit) {
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  for (arc_index first = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) * arcs_per_thread;
       first < a.arcs; first += threads * arcs_per_thread) {
    // u = the last row with row_offsets[u] <= first: the row holding arc `first` (rows without
    // arcs share their offset with the next row and are passed over).
    vertex lo = 0, hi = a.n;  // row_offsets[lo] <= first < row_offsets[hi] = arcs
    while (hi - lo > 1) {
      const vertex mid = lo + (hi - lo) / 2;
      if (a.row_offsets[mid] <= first)
        lo = mid;
      else
        hi = mid;
    }
    vertex u = lo;
    arc_index row_end = a.row_offsets[u + 1];
    W du = dist[u];
    const arc_index last = first + arcs_per_thread < a.arcs ? first + arcs_per_thread : a.arcs;
    for (arc_index e = first; e < last; ++e) {
      while (e >= row_end) {
        ++u;
        row_end = a.row_offsets[u + 1];
        du = dist[u];
      }
      if (du != infinity<W>()) visit(u, du, a.columns[e], a.weights[e]);
    }
  }
}

inline unsigned arc_pass_blocks(arc_index arcs) {
  const std::size_t threads = (std::size_t(arcs) + arcs_per_thread - 1) / arcs_per_thread;
  return static_cast<unsigned>(std::clamp<std::size_t>((threads + 255) / 256, 1, 1u << 20));
}

// For a reached u and each arc u -> v:
//  - a sum that saturates while v is unreached means the true distance of v is >= infinity<W>():
//    it cannot be represented (see sssp.hpp); record v.
//  - dist[u] + w == dist[v] with dist[u] < dist[v] is a tight arc that cannot close a cycle: u
//    is a valid parent; atomicMin keeps the smallest such u, so the answer is deterministic.
// With negative arcs (`rising_only` off) a tight arc may run downhill and tight cycles of zero
// total weight may mix signs: every parent is adopted in rounds instead (below).
template <class W>
__global__ void tight_arcs(csr_view<W> a, const W* dist, vertex source, bool want_parents,
                           bool rising_only, unsigned long long* parent,
                           unsigned long long* overflow_vertex) {
  for_each_arc_of_reached_rows(a, dist, [&](vertex u, W du, vertex v, W w) {
    const W sum = saturating_add(du, w);
    const W dv = dist[v];
    if (sum == infinity<W>() && dv == infinity<W>()) atomicMin(overflow_vertex, v);
    if (want_parents && rising_only && v != source && dv != infinity<W>() && sum == dv &&
        du < dv)
      atomicMin(&parent[v], static_cast<unsigned long long>(u));
  });
}

// Tight arcs between vertices of equal distance (zero weights, or a weight absorbed by float
// rounding) can form cycles, so those vertices are adopted in rounds: a vertex without a parent
// takes one from a neighbour that already has one (or is the source). A parent is always
// adopted before its child, so the parent pointers form a tree. With negative arcs
// (`any_tight`) every tight arc counts: a breadth-first tree over the tight arcs from the source.
// `settled` is the parents the round reads: `parent` itself on one GPU; on several, a copy of the
// parents every part agreed on before the round, so that a vertex adopted by one part in this
// round is never a parent in another's (their choices are then merged by a min).
template <class W>
__global__ void adopt_equal_distance(csr_view<W> a, const W* dist, vertex source, bool any_tight,
                                     const unsigned long long* settled, unsigned long long* parent,
                                     unsigned long long* adopted) {
  for_each_arc_of_reached_rows(a, dist, [&](vertex u, W du, vertex v, W w) {
    if (v == source || saturating_add(du, w) != dist[v] || (!any_tight && dist[v] != du)) return;
    if (u != source &&
        cuda::atomic_ref<const unsigned long long, cuda::thread_scope_device>(settled[u])
                .load(cuda::memory_order_relaxed) == no_parent)
      return;
    if (atomicCAS(&parent[v], no_parent, static_cast<unsigned long long>(u)) == no_parent)
      atomicAdd(adopted, 1ull);
  });
}

}  // namespace

template <class W>
void tight_arc_pass(const csr_view<W>& a, const W* distances, vertex source, bool parents,
                    bool rising_only, unsigned long long* parent, unsigned long long* overflow,
                    cudaStream_t stream) {
  tight_arcs<<<arc_pass_blocks(a.arcs), 256, 0, stream>>>(a, distances, source, parents,
                                                          rising_only, parent, overflow);
  TROPIC_CUDA_CHECK(cudaGetLastError());
}

template <class W>
void adoption_round(const csr_view<W>& a, const W* distances, vertex source, bool any_tight,
                    const unsigned long long* settled, unsigned long long* parent,
                    unsigned long long* adopted, cudaStream_t stream) {
  TROPIC_CUDA_CHECK(cudaMemsetAsync(adopted, 0, sizeof(unsigned long long), stream));
  adopt_equal_distance<<<arc_pass_blocks(a.arcs), 256, 0, stream>>>(a, distances, source,
                                                                    any_tight, settled, parent,
                                                                    adopted);
  TROPIC_CUDA_CHECK(cudaGetLastError());
}

template <class W>
bool needs_adoption(const graph_stats& s) noexcept {
  return s.arcs > 0 && (s.min_weight <= 0 || std::is_floating_point_v<W>);
}

namespace {

// Whether a finite distance can reach infinity<W>(): a shortest path has at most n - 1 arcs and,
// under a cutoff, a reported distance is at most the cutoff.
template <class W>
bool overflow_possible(const device_matrix<W>& a, W cutoff) {
  const double longest = std::min(double(a.rows()) * a.stats().max_weight,
                                  double(cutoff) + a.stats().max_weight);
  return !(longest < double(std::numeric_limits<W>::max()) / 2);
}

template <class W>
[[noreturn]] void throw_overflow(unsigned long long v) {
  throw error(error_code::overflow,
              "the shortest distance to vertex " + std::to_string(v) + " does not fit in " +
                  weight_type_name<W>() +
                  " (it reaches the type's maximum, which stands for 'unreachable'); use a "
                  "wider weight type such as uint64 or double");
}

}  // namespace

template <class W>
void finish_result(const device_matrix<W>& a, const W* distances, vertex source,
                   const options& opts, result<W>& out, cudaStream_t stream) {
  const vertex n = a.rows();
  unsigned long long overflow_vertex = no_parent;
  // The pass over every arc finds parents and overflowed sums: with neither possible it is
  // skipped (1.25 ms against a 3.5 ms solve on kron-22, bench/results/h200-run46/).
  if (!opts.parents && !overflow_possible(a, cutoff_limit<W>(opts.cutoff))) {
    finish_download(n, distances, nullptr, overflow_vertex, opts, out, stream);
    return;
  }
  device_buffer<unsigned long long> overflow(1, stream);
  device_buffer<unsigned long long> parent(opts.parents ? n : 0, stream);
  TROPIC_CUDA_CHECK(cudaMemsetAsync(overflow.data(), 0xff, sizeof(unsigned long long), stream));
  if (opts.parents)
    TROPIC_CUDA_CHECK(cudaMemsetAsync(parent.data(), 0xff, n * sizeof(unsigned long long), stream));
  const bool negative = a.stats().has_negative_weight;
  tight_arc_pass(a.view(), distances, source, opts.parents, !negative, parent.data(),
                 overflow.data(), stream);
  if (opts.parents && needs_adoption<W>(a.stats())) {
    // Only graphs with zero weights (or float absorption) need adoption rounds; one round per
    // hop of the longest equal-distance chain, each ending in a counter read.
    device_buffer<unsigned long long> adopted(1, stream);
    for (;;) {
      adoption_round(a.view(), distances, source, negative, parent.data(), parent.data(),
                     adopted.data(), stream);
      unsigned long long count = 0;
      TROPIC_CUDA_CHECK(cudaMemcpyAsync(&count, adopted.data(), sizeof count, cudaMemcpyDeviceToHost, stream));
      TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
      if (count == 0) break;
    }
  }
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(&overflow_vertex, overflow.data(), sizeof overflow_vertex,
                                    cudaMemcpyDeviceToHost, stream));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  finish_download(n, distances, opts.parents ? parent.data() : nullptr, overflow_vertex, opts,
                  out, stream);
}

template <class W>
void finish_download(vertex n, const W* distances, const unsigned long long* parent,
                     unsigned long long overflow_vertex, const options& opts, result<W>& out,
                     cudaStream_t stream) {
  // copy_to_host, not a pageable cudaMemcpy (which the driver stages on one host thread), into
  // vectors whose pages are advised huge: a large row is downloaded at the link's speed.
  std::vector<W> dist;
  resize_fresh(dist, n);
  copy_to_host(dist.data(), distances, n * sizeof(W), stream);
  std::vector<unsigned long long> par;
  if (parent) {
    resize_fresh(par, n);
    copy_to_host(par.data(), parent, n * sizeof(unsigned long long), stream);
  }
  const W cut = cutoff_limit<W>(opts.cutoff);
  if (overflow_vertex != no_parent && cut == infinity<W>())
    throw_overflow<W>(overflow_vertex);
  if (cut != infinity<W>())
    for (vertex v = 0; v < n; ++v)
      if (dist[v] > cut) {
        dist[v] = infinity<W>();
        if (parent) par[v] = no_parent;
      }
  out.distances = std::move(dist);
  if (parent) {
    resize_fresh(out.parents, n);
    for (vertex v = 0; v < n; ++v)
      out.parents[v] = par[v] == no_parent ? -1 : static_cast<std::int64_t>(par[v]);
  } else {
    out.parents.clear();
  }
}

template <class W>
void check_many_sources(const device_matrix<W>& a, const vertex* sources, std::size_t k,
                        const options& opts, const char* what) {
  const vertex n = a.rows();
  if (n == 0) throw error(error_code::invalid_value, "the graph has no vertices: no source");
  for (std::size_t s = 0; s < k; ++s)
    if (sources[s] >= n)
      throw error(error_code::invalid_index,
                  "source vertex " + std::to_string(sources[s]) + " (sources[" +
                      std::to_string(s) + "]) is out of range: the graph has " +
                      std::to_string(n) + " vertices (0-based)");
  if (a.stats().has_negative_weight)
    throw error(error_code::invalid_value,
                std::string(what) + " needs non-negative weights and the matrix has a negative "
                "one (least " + std::to_string(a.stats().min_weight) + ")");
  if (!(opts.delta >= 0))
    throw error(error_code::invalid_value, "delta must be positive (or 0 for automatic)");
}

template <class W>
void finish_rows(const device_matrix<W>& a, const W* rows, const vertex* sources, std::size_t k,
                 const options& opts, W cutoff, W* distances, std::int64_t* parents,
                 cudaStream_t stream) {
  const std::size_t n = a.rows();
  if (parents) {
    options row_opts = opts;
    row_opts.parents = parents != nullptr;
    for (std::size_t s = 0; s < k; ++s) {
      result<W> r;
      finish_result(a, rows + s * n, sources[s], row_opts, r, stream);
      std::copy(r.distances.begin(), r.distances.end(), distances + s * n);
      if (parents) std::copy(r.parents.begin(), r.parents.end(), parents + s * n);
    }
    return;
  }
  if (cutoff == infinity<W>() && overflow_possible(a, cutoff)) {
    // finish_result's overflow test, every row's on the device, then one read of the k answers
    // and one download of all rows: with a finish_result per row, sssp_into of 64 rows of
    // USA-road-NY took 43-74 ms against 20 (bench/results/h200-run46/).
    device_buffer<unsigned long long> overflow(k, stream);
    TROPIC_CUDA_CHECK(
        cudaMemsetAsync(overflow.data(), 0xff, k * sizeof(unsigned long long), stream));
    for (std::size_t s = 0; s < k; ++s)
      tight_arc_pass(a.view(), rows + s * n, sources[s], false, true, nullptr,
                     overflow.data() + s, stream);
    std::vector<unsigned long long> vertex_of(k);
    copy_to_host(vertex_of.data(), overflow.data(), k * sizeof(unsigned long long), stream);
    for (const unsigned long long v : vertex_of)
      if (v != no_parent) throw_overflow<W>(v);
  }
  copy_to_host(distances, rows, k * n * sizeof(W), stream);
}

// A's arcs back on the host, rows in the matrix's weight order (the CPU reference and the
// certificate need no column order).
template <class W>
csr<W> download_csr(const device_matrix<W>& A) {
  const csr_view<W> view = A.view();
  csr<W> g;
  g.n = view.n;
  g.row_offsets.resize(std::size_t(view.n) + 1);
  g.columns.resize(view.arcs);
  g.weights.resize(view.arcs);
  TROPIC_CUDA_CHECK(cudaMemcpy(g.row_offsets.data(), view.row_offsets,
                               g.row_offsets.size() * sizeof(arc_index), cudaMemcpyDeviceToHost));
  if (view.arcs > 0) {
    TROPIC_CUDA_CHECK(cudaMemcpy(g.columns.data(), view.columns, view.arcs * sizeof(vertex),
                                 cudaMemcpyDeviceToHost));
    TROPIC_CUDA_CHECK(
        cudaMemcpy(g.weights.data(), view.weights, view.arcs * sizeof(W), cudaMemcpyDeviceToHost));
  }
  return g;
}

template <class W>
double resolve_delta(const device_matrix<W>& a, const options& opts) {
  return opts.delta > 0 ? opts.delta : choose_delta(a.stats());
}

#define TROPIC_INSTANTIATE(W)                                                                  \
  template void finish_result<W>(const device_matrix<W>&, const W*, vertex, const options&,   \
                                 result<W>&, cudaStream_t);                                    \
  template void tight_arc_pass<W>(const csr_view<W>&, const W*, vertex, bool, bool,            \
                                  unsigned long long*, unsigned long long*, cudaStream_t);      \
  template void adoption_round<W>(const csr_view<W>&, const W*, vertex, bool,                  \
                                  const unsigned long long*, unsigned long long*,               \
                                  unsigned long long*, cudaStream_t);                           \
  template bool needs_adoption<W>(const graph_stats&) noexcept;                                 \
  template void finish_download<W>(vertex, const W*, const unsigned long long*,                 \
                                   unsigned long long, const options&, result<W>&, cudaStream_t); \
  template double resolve_delta<W>(const device_matrix<W>&, const options&);                   \
  template csr<W> download_csr<W>(const device_matrix<W>&);                                   \
  template void check_many_sources<W>(const device_matrix<W>&, const vertex*, std::size_t,     \
                                      const options&, const char*);                          \
  template void finish_rows<W>(const device_matrix<W>&, const W*, const vertex*, std::size_t,  \
                               const options&, W, W*, std::int64_t*, cudaStream_t);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
