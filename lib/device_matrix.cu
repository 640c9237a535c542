// device_matrix: upload, per-row weight sort, transpose, light/heavy split.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include <thrust/iterator/transform_iterator.h>

#include "tropic/device_matrix.hpp"

namespace tropic {

namespace {

constexpr int block_threads = 256;

inline unsigned grid_for(std::size_t items, int threads = block_threads) {
  std::size_t blocks = (items + threads - 1) / threads;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > (1u << 30) ? (1u << 30) : blocks));
}

// Every row sorted by weight; stable, so equal weights keep ascending column order.
template <class W>
void sort_rows_by_weight(vertex n, arc_index arcs, const arc_index* offsets, device_buffer<vertex>& cols,
                         device_buffer<W>& weights, cudaStream_t stream) {
  if (arcs == 0) return;
  device_buffer<vertex> cols_alt(arcs, stream);
  device_buffer<W> weights_alt(arcs, stream);
  cub::DoubleBuffer<W> keys(weights.data(), weights_alt.data());
  cub::DoubleBuffer<vertex> values(cols.data(), cols_alt.data());
  std::size_t temp_bytes = 0;
  TROPIC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(
      nullptr, temp_bytes, keys, values, static_cast<std::int64_t>(arcs), n, offsets,
      offsets + 1, stream));
  device_buffer<unsigned char> temp(temp_bytes, stream);
  TROPIC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(
      temp.data(), temp_bytes, keys, values, static_cast<std::int64_t>(arcs), n, offsets,
      offsets + 1, stream));
  if (keys.Current() != weights.data()) weights.swap(weights_alt);
  if (values.Current() != cols.data()) cols.swap(cols_alt);
}

// Writes the source row of every arc (one thread per row is fine: this runs once per upload).
__global__ void expand_rows(vertex n, const arc_index* offsets, vertex* row_of_arc) {
  for (std::size_t u = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; u < n;
       u += std::size_t(gridDim.x) * blockDim.x)
    for (arc_index e = offsets[u]; e < offsets[u + 1]; ++e) row_of_arc[e] = vertex(u);
}

// The arc->source array: a warp per row, so a hub row of millions of arcs is not one thread's.
__global__ void write_arc_sources(vertex n, const arc_index* offsets, vertex* sources) {
  const unsigned lane = threadIdx.x % 32;
  for (std::size_t u = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / 32; u < n;
       u += std::size_t(gridDim.x) * blockDim.x / 32)
    for (arc_index e = offsets[u] + lane; e < offsets[u + 1]; e += 32) sources[e] = vertex(u);
}

// merge_path_starts: starts[k] = the first r with r + offsets[r + 1] >= k · run, n when there
// is none (the rows that end before path position k · run), a binary search each.
__global__ void find_run_starts(const arc_index* offsets, vertex n, arc_index run,
                                std::size_t count, vertex* starts) {
  for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < count;
       k += std::size_t(gridDim.x) * blockDim.x) {
    const arc_index begin = arc_index(k) * run;
    vertex lo = 0, hi = n;
    while (lo < hi) {
      const vertex mid = lo + (hi - lo) / 2;
      if (arc_index(mid) + offsets[mid + 1] < begin) lo = mid + 1;
      else hi = mid;
    }
    starts[k] = lo;
  }
}

__global__ void fill_sequence(arc_index count, arc_index* out) {
  for (std::size_t e = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; e < count;
       e += std::size_t(gridDim.x) * blockDim.x)
    out[e] = e;
}

__global__ void count_in_degrees(arc_index arcs, const vertex* cols, arc_index* in_degree) {
  for (std::size_t e = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; e < arcs;
       e += std::size_t(gridDim.x) * blockDim.x)
    atomicAdd(reinterpret_cast<unsigned long long*>(&in_degree[cols[e]]), 1ull);
}

template <class W>
__global__ void gather_transposed(arc_index arcs, const arc_index* order, const vertex* row_of_arc,
                                  const W* weights, vertex* t_cols, W* t_weights) {
  for (std::size_t e = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; e < arcs;
       e += std::size_t(gridDim.x) * blockDim.x) {
    arc_index k = order[e];
    t_cols[e] = row_of_arc[k];
    t_weights[e] = weights[k];
  }
}

template <class W>
__global__ void split_rows(csr_view<W> a, W delta, bool all_light, arc_index* split) {
  for (std::size_t u = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; u < a.n;
       u += std::size_t(gridDim.x) * blockDim.x) {
    arc_index lo = a.row_offsets[u], hi = a.row_offsets[u + 1];
    if (!all_light) {
      // First arc with weight > delta: the row is sorted by weight.
      while (lo < hi) {
        arc_index mid = lo + (hi - lo) / 2;
        if (a.weights[mid] <= delta) lo = mid + 1; else hi = mid;
      }
    } else {
      lo = hi;
    }
    split[u] = lo;
  }
}

// The row statistics of a device CSR: the longest row, the rows without arcs, the first row
// of the longest length (second pass, `longest` known).
__global__ void row_stats(vertex n, const arc_index* offsets, unsigned long long* longest,
                          unsigned long long* empty_rows) {
  unsigned long long most = 0, empty = 0;
  for (std::size_t u = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; u < n;
       u += std::size_t(gridDim.x) * blockDim.x) {
    const unsigned long long d = offsets[u + 1] - offsets[u];
    most = d > most ? d : most;
    empty += d == 0;
  }
  for (int o = 16; o > 0; o /= 2) {
    const unsigned long long m = __shfl_down_sync(0xffffffffu, most, o);
    most = m > most ? m : most;
    empty += __shfl_down_sync(0xffffffffu, empty, o);
  }
  if (threadIdx.x % 32 == 0) {
    atomicMax(longest, most);
    atomicAdd(empty_rows, empty);
  }
}

__global__ void first_of_length(vertex n, const arc_index* offsets, const unsigned long long* length,
                                unsigned long long* first) {
  for (std::size_t u = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; u < n;
       u += std::size_t(gridDim.x) * blockDim.x)
    if (offsets[u + 1] - offsets[u] == *length) atomicMin(first, u);
}

template <class W>
struct as_double {
  __host__ __device__ double operator()(W w) const { return static_cast<double>(w); }
};

// compute_stats (lib/csr.cpp) for a CSR on the device: the same fields but `symmetric`, which
// the caller gives; probe_levels by the same BFS, each reached row copied to the host alone.
template <class W>
graph_stats device_stats(vertex n, arc_index arcs, const arc_index* offsets, const vertex* columns,
                         const W* weights, cudaStream_t stream) {
  graph_stats s;
  s.n = n;
  s.arcs = arcs;
  s.avg_degree = n ? double(arcs) / n : 0.0;
  if (n == 0) return s;
  device_buffer<unsigned long long> counts(3, stream);
  const unsigned long long init[3] = {0, 0, ~0ull};
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(counts.data(), init, sizeof init, cudaMemcpyHostToDevice,
                                    stream));
  row_stats<<<grid_for(n), block_threads, 0, stream>>>(n, offsets, counts.data(),
                                                       counts.data() + 1);
  first_of_length<<<grid_for(n), block_threads, 0, stream>>>(n, offsets, counts.data(),
                                                             counts.data() + 2);
  TROPIC_CUDA_CHECK(cudaGetLastError());
  unsigned long long host[3];
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(host, counts.data(), sizeof host, cudaMemcpyDeviceToHost,
                                    stream));
  if (arcs > 0) {
    device_buffer<W> extremes(2, stream);
    device_buffer<double> sum(1, stream);
    const auto doubles = thrust::make_transform_iterator(weights, as_double<W>{});
    std::size_t a = 0, b = 0, c = 0;
    TROPIC_CUDA_CHECK(cub::DeviceReduce::Min(nullptr, a, weights, extremes.data(), arcs, stream));
    TROPIC_CUDA_CHECK(cub::DeviceReduce::Max(nullptr, b, weights, extremes.data(), arcs, stream));
    TROPIC_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, c, doubles, sum.data(), arcs, stream));
    device_buffer<unsigned char> temp(std::max({a, b, c}), stream);
    TROPIC_CUDA_CHECK(cub::DeviceReduce::Min(temp.data(), a, weights, extremes.data(), arcs,
                                             stream));
    TROPIC_CUDA_CHECK(cub::DeviceReduce::Max(temp.data(), b, weights, extremes.data() + 1, arcs,
                                             stream));
    TROPIC_CUDA_CHECK(cub::DeviceReduce::Sum(temp.data(), c, doubles, sum.data(), arcs, stream));
    W w[2];
    double total = 0;
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(w, extremes.data(), sizeof w, cudaMemcpyDeviceToHost,
                                      stream));
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(&total, sum.data(), sizeof total, cudaMemcpyDeviceToHost,
                                      stream));
    TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
    s.min_weight = double(w[0]);
    s.max_weight = double(w[1]);
    s.avg_weight = total / double(arcs);
    s.has_negative_weight = s.min_weight < 0;
  }
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  s.max_degree = arc_index(host[0]);
  s.isolated = vertex(host[1]);
  // probe_levels: compute_stats' BFS from the first vertex of most arcs
  auto row = [&](vertex u, std::vector<vertex>& out) {
    arc_index range[2];
    TROPIC_CUDA_CHECK(cudaMemcpy(range, offsets + u, sizeof range, cudaMemcpyDeviceToHost));
    out.resize(range[1] - range[0]);
    if (!out.empty())
      TROPIC_CUDA_CHECK(cudaMemcpy(out.data(), columns + range[0], out.size() * sizeof(vertex),
                                   cudaMemcpyDeviceToHost));
  };
  const vertex start = vertex(host[2]);
  std::unordered_set<vertex> seen{start};
  std::vector<vertex> frontier{start}, next, arcs_of;
  std::uint32_t levels = 0;
  while (!frontier.empty()) {
    next.clear();
    for (const vertex u : frontier) {
      row(u, arcs_of);
      for (const vertex v : arcs_of)
        if (seen.insert(v).second) {
          next.push_back(v);
          if (seen.size() >= stats_probe_vertices) {
            s.probe_levels = levels + 1;
            return s;
          }
        }
    }
    if (!next.empty()) ++levels;
    frontier.swap(next);
  }
  s.probe_levels = levels;
  return s;
}

}  // namespace

void detail::kept_starts::own(const arc_index* rows, const arc_index* t_rows, vertex n,
                              arc_index arcs, cudaStream_t stream) noexcept {
  rows_ = rows;
  t_rows_ = t_rows;
  n_ = n;
  arcs_ = arcs;
  stream_ = stream;
}

const vertex* detail::kept_starts::find(const arc_index* offsets, vertex n, arc_index arcs,
                                        arc_index run) {
  const bool mine =
      offsets && n == n_ && arcs == arcs_ && (offsets == rows_ || offsets == t_rows_);
  if (!mine || run == 0) return nullptr;
  std::lock_guard<std::mutex> hold(guard_);
  for (const entry& e : entries_)
    if (e.offsets == offsets && e.run == run) return e.starts.data();
  const std::size_t count = std::size_t((arc_index(n) + arcs + run - 1) / run);
  require_device_memory(count * sizeof(vertex),
                        "the merge-path starts of a " + std::to_string(n) + "-row matrix");
  device_buffer<vertex> starts(count, stream_);
  find_run_starts<<<grid_for(count), block_threads, 0, stream_>>>(offsets, n, run, count,
                                                                   starts.data());
  TROPIC_CUDA_CHECK(cudaGetLastError());
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream_));
  entries_.push_back({offsets, run, std::move(starts)});
  bytes_ += count * sizeof(vertex);
  return entries_.back().starts.data();
}

// The rows [span[0], span[1]) outside which every row is empty, by two binary searches of the
// offsets (device_matrix::first_arc_row): span[0] = the last u with offsets[u] = 0, span[1] =
// the first u with offsets[u] = arcs; both 0 without arcs.
__host__ __device__ inline void arc_row_span(vertex n, const arc_index* offsets, vertex* span) {
  const arc_index arcs = offsets[n];
  if (arcs == 0) {
    span[0] = span[1] = 0;
    return;
  }
  vertex lo = 0, hi = n;  // offsets[lo] = 0 < offsets[hi]
  while (hi - lo > 1) {
    const vertex mid = lo + (hi - lo) / 2;
    if (offsets[mid] == 0) lo = mid;
    else hi = mid;
  }
  span[0] = lo;
  lo = 0, hi = n;  // offsets[lo] < arcs = offsets[hi]
  while (hi - lo > 1) {
    const vertex mid = lo + (hi - lo) / 2;
    if (offsets[mid] < arcs) lo = mid;
    else hi = mid;
  }
  span[1] = hi;
}

__global__ void arc_row_span_kernel(vertex n, const arc_index* offsets, vertex* span) {
  arc_row_span(n, offsets, span);
}

// least[u] = the weight of u's first arc (rows sorted by weight: its lightest), infinity for an
// empty row.
template <class W>
__global__ void first_weights(vertex n, const arc_index* offsets, const W* weights, W* least) {
  for (std::size_t u = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; u < n;
       u += std::size_t(gridDim.x) * blockDim.x)
    least[u] = offsets[u] < offsets[u + 1] ? weights[offsets[u]] : infinity<W>();
}

template <class W>
std::size_t device_matrix<W>::bytes_needed(vertex n, arc_index arcs, bool transpose) noexcept {
  std::size_t one = (std::size_t(n) + 1) * sizeof(arc_index) + std::size_t(n) * sizeof(W) +
                    arcs * (sizeof(vertex) + sizeof(W));
  // The weight sort needs a second copy of columns and weights while it runs.
  std::size_t sort_scratch = arcs * (sizeof(vertex) + sizeof(W));
  // The transpose additionally needs row-of-arc, arc order (64-bit) and the radix sort buffers.
  std::size_t transpose_scratch = transpose ? arcs * (sizeof(vertex) * 3 + 2 * sizeof(arc_index)) : 0;
  return one * (transpose ? 2 : 1) + std::max(sort_scratch, transpose_scratch);
}

template <class W>
device_matrix<W>::device_matrix(const csr<W>& g, const upload_options& opts, cudaStream_t stream)
    : device_matrix(host_view(g), opts, stream) {}

template <class W>
device_matrix<W>::device_matrix(const csr_host_view<W>& g, const upload_options& opts,
                                cudaStream_t stream)
    : n_(g.n), arcs_(g.arcs()), stats_(compute_stats(g)), stream_(stream) {
  bool build_transpose = opts.transpose != transpose_policy::none && !stats_.symmetric;
  if (build_transpose && opts.transpose == transpose_policy::if_fits) {
    const std::size_t free_b = device_memory_info().first;
    const std::size_t want = bytes_needed(n_, arcs_, true) +
                             std::size_t(n_) * transpose_headroom_per_vertex +
                             (std::size_t(256) << 20);  // require_device_memory's reserve
    build_transpose = want <= free_b;
  }
  require_device_memory(bytes_needed(n_, arcs_, build_transpose),
                        "a " + std::to_string(n_) + "-vertex, " + std::to_string(arcs_) +
                            "-arc " + weight_type_name<W>() + " matrix" +
                            (build_transpose ? " with its transpose" : ""));
  row_offsets_ = device_buffer<arc_index>(std::size_t(n_) + 1, stream);
  columns_ = device_buffer<vertex>(arcs_, stream);
  weights_ = device_buffer<W>(arcs_, stream);
  row_offsets_.upload(g.row_offsets, std::size_t(n_) + 1);
  if (g.row_offsets) arc_row_span(n_, g.row_offsets, arc_rows_);  // a view may hold no offsets
  columns_.upload(g.columns, arcs_);
  weights_.upload(g.weights, arcs_);

  if (build_transpose && arcs_ > 0) {
    // A' by a stable radix sort of the arcs by column: in-arcs grouped by target, sources in
    // ascending order within each group, then sorted by weight like A.
    device_buffer<vertex> row_of_arc(arcs_, stream);
    expand_rows<<<grid_for(n_), block_threads, 0, stream>>>(n_, row_offsets_.data(), row_of_arc.data());
    device_buffer<arc_index> identity(arcs_, stream), order(arcs_, stream);
    device_buffer<vertex> sorted_cols(arcs_, stream);
    t_row_offsets_ = device_buffer<arc_index>(std::size_t(n_) + 1, stream);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(t_row_offsets_.data(), 0, (std::size_t(n_) + 1) * sizeof(arc_index), stream));
    count_in_degrees<<<grid_for(arcs_), block_threads, 0, stream>>>(arcs_, columns_.data(), t_row_offsets_.data());
    // A''s longest row (the largest in-degree) before the counts become offsets: the pull's
    // kernel choice reads it.
    device_buffer<arc_index> longest(1, stream);
    {
      std::size_t max_bytes = 0;
      TROPIC_CUDA_CHECK(cub::DeviceReduce::Max(nullptr, max_bytes, t_row_offsets_.data(),
                                               longest.data(), std::size_t(n_) + 1, stream));
      device_buffer<unsigned char> temp(max_bytes, stream);
      TROPIC_CUDA_CHECK(cub::DeviceReduce::Max(temp.data(), max_bytes, t_row_offsets_.data(),
                                               longest.data(), std::size_t(n_) + 1, stream));
      TROPIC_CUDA_CHECK(cudaMemcpyAsync(&t_max_row_length_, longest.data(), sizeof(arc_index),
                                        cudaMemcpyDeviceToHost, stream));
    }
    std::size_t scan_bytes = 0;
    TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, t_row_offsets_.data(),
                                                    t_row_offsets_.data(), std::size_t(n_) + 1, stream));
    {
      device_buffer<unsigned char> temp(scan_bytes, stream);
      TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.data(), scan_bytes, t_row_offsets_.data(),
                                                      t_row_offsets_.data(), std::size_t(n_) + 1, stream));
    }
    fill_sequence<<<grid_for(arcs_), block_threads, 0, stream>>>(arcs_, identity.data());
    std::size_t sort_bytes = 0;
    TROPIC_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, columns_.data(), sorted_cols.data(),
                                                      identity.data(), order.data(), arcs_, 0,
                                                      32, stream));
    {
      device_buffer<unsigned char> temp(sort_bytes, stream);
      TROPIC_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.data(), sort_bytes, columns_.data(),
                                                        sorted_cols.data(), identity.data(), order.data(),
                                                        arcs_, 0, 32, stream));
    }
    t_columns_ = device_buffer<vertex>(arcs_, stream);
    t_weights_ = device_buffer<W>(arcs_, stream);
    gather_transposed<<<grid_for(arcs_), block_threads, 0, stream>>>(
        arcs_, order.data(), row_of_arc.data(), weights_.data(), t_columns_.data(), t_weights_.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
  }
  sort_rows_by_weight(n_, arcs_, row_offsets_.data(), columns_, weights_, stream);
  if (t_columns_.size() > 0)
    sort_rows_by_weight(n_, arcs_, t_row_offsets_.data(), t_columns_, t_weights_, stream);
  if (n_ > 0) {
    row_least_ = device_buffer<W>(n_, stream);
    first_weights<<<grid_for(n_), block_threads, 0, stream>>>(n_, row_offsets_.data(),
                                                              weights_.data(), row_least_.data());
    if (t_columns_.size() > 0) {
      t_row_least_ = device_buffer<W>(n_, stream);
      first_weights<<<grid_for(n_), block_threads, 0, stream>>>(
          n_, t_row_offsets_.data(), t_weights_.data(), t_row_least_.data());
    }
    TROPIC_CUDA_CHECK(cudaGetLastError());
  }
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  kept_->own(row_offsets_.data(), t_row_offsets_.size() ? t_row_offsets_.data() : nullptr, n_,
             arcs_, stream_);
}

template <class W>
device_matrix<W>::device_matrix(vertex n, device_buffer<arc_index>&& row_offsets,
                                device_buffer<vertex>&& columns, device_buffer<W>&& weights,
                                bool symmetric, cudaStream_t stream)
    : n_(n), arcs_(columns.size()), stream_(stream), row_offsets_(std::move(row_offsets)),
      columns_(std::move(columns)), weights_(std::move(weights)) {
  if (row_offsets_.size() != std::size_t(n_) + 1 || weights_.size() != columns_.size())
    throw error(error_code::invalid_value,
                "device_matrix: " + std::to_string(row_offsets_.size()) + " row offsets, " +
                    std::to_string(columns_.size()) + " columns and " +
                    std::to_string(weights_.size()) + " weights do not form a CSR of " +
                    std::to_string(n_) + " rows");
  stats_ = device_stats<W>(n_, arcs_, row_offsets_.data(), columns_.data(), weights_.data(),
                           stream);
  stats_.symmetric = symmetric;
  {
    device_buffer<vertex> span(2, stream);
    arc_row_span_kernel<<<1, 1, 0, stream>>>(n_, row_offsets_.data(), span.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(arc_rows_, span.data(), sizeof arc_rows_,
                                      cudaMemcpyDeviceToHost, stream));
    TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  require_device_memory(arcs_ * (sizeof(vertex) + sizeof(W)) + std::size_t(n_) * sizeof(W),
                        "sorting the rows of a " + std::to_string(n_) + "-vertex, " +
                            std::to_string(arcs_) + "-arc " + weight_type_name<W>() +
                            " matrix by weight");
  sort_rows_by_weight(n_, arcs_, row_offsets_.data(), columns_, weights_, stream);
  if (n_ > 0) {
    row_least_ = device_buffer<W>(n_, stream);
    first_weights<<<grid_for(n_), block_threads, 0, stream>>>(n_, row_offsets_.data(),
                                                              weights_.data(), row_least_.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
  }
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  kept_->own(row_offsets_.data(), t_row_offsets_.size() ? t_row_offsets_.data() : nullptr, n_,
             arcs_, stream_);
}

template <class W>
csr_view<W> device_matrix<W>::view() const noexcept {
  const vertex* sources = arc_sources_ ? arc_sources_->ready.load(std::memory_order_acquire) : nullptr;
  return {n_, arcs_, row_offsets_.data(), columns_.data(), weights_.data(), sources,
          stats_.max_degree, row_least_.data(), kept_.get()};
}

template <class W>
csr_view<W> device_matrix<W>::transpose_view() const {
  if (stats_.symmetric) return view();
  if (t_columns_.size() == 0 && arcs_ > 0)
    throw error(error_code::invalid_value,
                "the matrix was uploaded without its transpose (upload_options.transpose was none, or "
                "if_fits and it did not fit) and is not symmetric, so pull (A' x) is not available");
  if (t_row_offsets_.size() == 0) return view();  // no arcs: A' = A = empty
  return {n_, arcs_, t_row_offsets_.data(), t_columns_.data(), t_weights_.data(), nullptr,
          t_max_row_length_, t_row_least_.data(), kept_.get()};
}

template <class W>
const vertex* device_matrix<W>::arc_sources() const {
  if (arcs_ == 0 || !arc_sources_) return nullptr;  // no arcs, or a moved-from matrix
  arc_source_cache& cache = *arc_sources_;
  if (const vertex* built = cache.ready.load(std::memory_order_acquire)) return built;
  std::lock_guard<std::mutex> hold(cache.building);
  if (const vertex* built = cache.ready.load(std::memory_order_acquire)) return built;
  require_device_memory(arcs_ * sizeof(vertex), "the arc->source array of a " +
                                                    std::to_string(arcs_) + "-arc matrix");
  device_buffer<vertex> sources(arcs_, stream_);
  write_arc_sources<<<grid_for(std::size_t(n_) * 32), block_threads, 0, stream_>>>(
      n_, row_offsets_.data(), sources.data());
  TROPIC_CUDA_CHECK(cudaGetLastError());
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream_));
  cache.sources = std::move(sources);
  cache.ready.store(cache.sources.data(), std::memory_order_release);
  return cache.sources.data();
}

template <class W>
std::size_t device_matrix<W>::device_bytes() const noexcept {
  const bool sources = arc_sources_ && arc_sources_->ready.load(std::memory_order_acquire);
  return row_offsets_.bytes() + columns_.bytes() + weights_.bytes() + row_least_.bytes() +
         t_row_offsets_.bytes() + t_columns_.bytes() + t_weights_.bytes() +
         t_row_least_.bytes() + (sources ? arcs_ * sizeof(vertex) : 0) +
         (kept_ ? kept_->bytes() : 0);
}

template <class W>
void split_light_heavy(const csr_view<W>& a, double delta, arc_index* split, cudaStream_t stream) {
  if (a.n == 0) return;
  // Arcs with w <= delta are light. For integer W a fractional delta floors: w <= 2.5 <=> w <= 2.
  const bool all_light = !(delta < double(infinity<W>()));
  W d = all_light ? infinity<W>() : W(std::is_integral_v<W> ? std::floor(delta) : delta);
  split_rows<<<grid_for(a.n), block_threads, 0, stream>>>(a, d, all_light, split);
  TROPIC_CUDA_CHECK(cudaGetLastError());
}

#define TROPIC_INSTANTIATE(W)                                                                \
  template class device_matrix<W>;                                                           \
  template void split_light_heavy<W>(const csr_view<W>&, double, arc_index*, cudaStream_t);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic
