// generate_on_device (tropic/generate_device.hpp): a block of a generated graph built on the
// current GPU with the draws of generate_draw.hpp, so it equals generate_rows' block exactly.
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "generate_draw.hpp"
#include "tropic/device_memory.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/generate_device.hpp"

namespace tropic {

using namespace generate_detail;

namespace {

constexpr int threads = 256;

unsigned grid_for(std::uint64_t items) {
  const std::uint64_t blocks = (items + threads - 1) / threads;
  return unsigned(blocks < 1 ? 1 : blocks > (1u << 20) ? (1u << 20) : blocks);
}

// A CUB device call made twice: for its scratch size, then with the scratch.
template <class F>
void cub_call(F&& call, cudaStream_t stream) {
  std::size_t bytes = 0;
  TROPIC_CUDA_CHECK(call(nullptr, bytes));
  device_buffer<unsigned char> temp(bytes, stream);
  TROPIC_CUDA_CHECK(call(temp.data(), bytes));
}

// Kronecker, pass 1: each in-block endpoint's arc count (u -> v and v -> u of every non-loop
// edge), at degree[row - first + 1] so that a scan makes offsets.
__global__ void kron_count(rmat_edges edge, std::uint64_t edges, vertex first, vertex count,
                           unsigned long long* degree) {
  for (std::uint64_t e = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; e < edges;
       e += std::uint64_t(gridDim.x) * blockDim.x) {
    const auto [u, v] = edge(e);
    if (u == v) continue;
    if (u - first < count) atomicAdd(degree + (u - first) + 1, 1ull);
    if (v - first < count) atomicAdd(degree + (v - first) + 1, 1ull);
  }
}

// Pass 2: each arc as a key (column << 32 | the weight's offset), so that sorting a row's keys
// orders it by (column, weight) as generate_kronecker's row sort does.
template <class W>
__global__ void kron_fill(rmat_edges edge, counter_rng weight_rng, weight_draw<W> draw,
                          std::uint64_t edges, vertex first, vertex count,
                          unsigned long long* cursor, std::uint64_t* keys) {
  for (std::uint64_t e = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; e < edges;
       e += std::uint64_t(gridDim.x) * blockDim.x) {
    const auto [u, v] = edge(e);
    if (u == v || !(u - first < count || v - first < count)) continue;
    const std::uint64_t w = draw.offset(weight_rng(e));
    if (u - first < count) keys[atomicAdd(cursor + (u - first), 1ull)] = std::uint64_t(v) << 32 | w;
    if (v - first < count) keys[atomicAdd(cursor + (v - first), 1ull)] = std::uint64_t(u) << 32 | w;
  }
}

// A mark read as a count: the per-row sums must not add in bytes.
struct widen {
  __host__ __device__ arc_index operator()(unsigned char x) const { return x; }
};

// keep[k] = 1 for the first key of each (row, column) run: the lightest of parallel arcs.
__global__ void mark_distinct(const arc_index* offsets, vertex count, const std::uint64_t* keys,
                              unsigned char* keep) {
  const unsigned lane = threadIdx.x % 32;
  for (std::uint64_t r = (blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x) / 32; r < count;
       r += std::uint64_t(gridDim.x) * blockDim.x / 32)
    for (arc_index k = offsets[r] + lane; k < offsets[r + 1]; k += 32)
      keep[k] = k == offsets[r] || (keys[k] >> 32) != (keys[k - 1] >> 32);
}

template <class W>
__global__ void decode_keys(const std::uint64_t* keys, arc_index arcs, weight_draw<W> draw,
                            vertex* columns, W* weights) {
  for (std::uint64_t k = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; k < arcs;
       k += std::uint64_t(gridDim.x) * blockDim.x) {
    columns[k] = vertex(keys[k] >> 32);
    weights[k] = draw.value(keys[k] & 0xffffffffu);
  }
}

// The block's offsets placed in the n + 1 offsets of the whole matrix: rows before the block
// start at 0, rows after it at its arc count.
__global__ void place_offsets(const arc_index* local, vertex first, vertex count, vertex n,
                              arc_index* whole) {
  for (std::uint64_t u = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; u <= n;
       u += std::uint64_t(gridDim.x) * blockDim.x)
    whole[u] = u <= first ? 0 : u - first <= count ? local[u - first] : local[count];
}

template <class W>
struct grid_put {
  vertex* columns;
  W* weights;
  arc_index at;
  __device__ void operator()(std::uint64_t to, W w) {
    if (columns) {
      columns[at] = vertex(to);
      weights[at] = w;
    }
    ++at;
  }
};

// Grid rows: counted (columns null), then written, each row by a thread of its own.
template <class W>
__global__ void grid_rows(std::uint64_t grid_rows_, std::uint64_t grid_cols, vertex first,
                          vertex count, weight_draw<W> draw, counter_rng weight_rng,
                          arc_index* offsets, vertex* columns, W* weights) {
  for (std::uint64_t r = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; r < count;
       r += std::uint64_t(gridDim.x) * blockDim.x) {
    grid_put<W> put{columns, weights, columns ? offsets[r] : 0};
    grid_row(first + r, grid_rows_, grid_cols, draw, weight_rng, [&](std::uint64_t to, W w) {
      put(to, w);
    });
    if (!columns) offsets[r + 1] = put.at;
  }
}

// local[r + 1] holds row r's arc count (local[0] = 0): made offsets in place; returns the arcs.
arc_index scan_counts(device_buffer<arc_index>& local, vertex count, cudaStream_t stream) {
  if (count)
    cub_call([&](void* t, std::size_t& b) {
      return cub::DeviceScan::InclusiveSum(t, b, local.data() + 1, local.data() + 1, count,
                                           stream);
    }, stream);
  arc_index arcs = 0;
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(&arcs, local.data() + count, sizeof arcs,
                                    cudaMemcpyDeviceToHost, stream));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  return arcs;
}

// The block's arcs as the n-row matrix whose other rows are empty; the block's own offsets are
// freed before the matrix sorts its rows.
template <class W>
device_matrix<W> block_matrix(vertex n, vertex first, vertex count,
                              device_buffer<arc_index>&& local, device_buffer<vertex>&& columns,
                              device_buffer<W>&& weights, bool symmetric, cudaStream_t stream) {
  device_buffer<arc_index> whole(std::size_t(n) + 1, stream);
  place_offsets<<<grid_for(std::uint64_t(n) + 1), threads, 0, stream>>>(local.data(), first,
                                                                        count, n, whole.data());
  TROPIC_CUDA_CHECK(cudaGetLastError());
  local = device_buffer<arc_index>();
  return device_matrix<W>(n, std::move(whole), std::move(columns), std::move(weights), symmetric,
                          stream);
}

template <class W>
device_matrix<W> kronecker_block(int scale, int edge_factor, std::uint64_t seed, vertex n,
                                 row_range rows, bool symmetric, cudaStream_t stream) {
  const weight_draw<W> draw(W(1), W(255), "generate_kronecker");
  const rmat_edges edge(scale, seed);
  const counter_rng weight_rng(seed, stream_weight);
  const std::uint64_t edges = std::uint64_t(edge_factor) << scale;
  const vertex first = rows.begin, count = rows.size();
  const std::string what = "generating rows [" + std::to_string(rows.begin) + ", " +
                           std::to_string(rows.end) + ") of kron:" + std::to_string(scale) + ":" +
                           std::to_string(edge_factor);
  require_device_memory((std::size_t(count) + 1) * 16, what);
  device_buffer<unsigned long long> offsets(std::size_t(count) + 1, stream);
  TROPIC_CUDA_CHECK(cudaMemsetAsync(offsets.data(), 0, offsets.size() * 8, stream));
  kron_count<<<grid_for(edges), threads, 0, stream>>>(edge, edges, first, count, offsets.data());
  TROPIC_CUDA_CHECK(cudaGetLastError());
  cub_call([&](void* t, std::size_t& b) {
    return cub::DeviceScan::InclusiveSum(t, b, offsets.data(), offsets.data(), offsets.size(),
                                         stream);
  }, stream);
  unsigned long long drawn = 0;
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(&drawn, offsets.data() + count, 8, cudaMemcpyDeviceToHost,
                                    stream));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  // The keys twice (the sort's double buffer), a mark per arc: 17 bytes per drawn arc at most.
  require_device_memory(std::size_t(drawn) * 17 + std::size_t(count) * 8, what + " (" + std::to_string(drawn) +
                                                            " arcs drawn)");
  device_buffer<std::uint64_t> keys(drawn, stream), sorted(drawn, stream);
  {
    device_buffer<unsigned long long> cursor(count, stream);
    if (count)
      TROPIC_CUDA_CHECK(cudaMemcpyAsync(cursor.data(), offsets.data(), std::size_t(count) * 8,
                                        cudaMemcpyDeviceToDevice, stream));
    kron_fill<W><<<grid_for(edges), threads, 0, stream>>>(edge, weight_rng, draw, edges, first,
                                                          count, cursor.data(), keys.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
  }
  const arc_index* row_begin = reinterpret_cast<const arc_index*>(offsets.data());
  if (drawn) {
    cub::DoubleBuffer<std::uint64_t> buffers(keys.data(), sorted.data());
    cub_call([&](void* t, std::size_t& b) {
      return cub::DeviceSegmentedSort::SortKeys(t, b, buffers, std::int64_t(drawn),
                                                std::int64_t(count), row_begin, row_begin + 1,
                                                stream);
    }, stream);
    if (buffers.Current() != keys.data()) keys.swap(sorted);
  }
  // The lightest of each column run: marks, per-row counts, the kept keys in order.
  device_buffer<unsigned char> keep(drawn, stream);
  device_buffer<arc_index> local(std::size_t(count) + 1, stream);
  TROPIC_CUDA_CHECK(cudaMemsetAsync(local.data(), 0, sizeof(arc_index), stream));
  if (count) {
    mark_distinct<<<grid_for(std::uint64_t(count) * 32), threads, 0, stream>>>(
        row_begin, count, keys.data(), keep.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
    cub_call([&](void* t, std::size_t& b) {
      return cub::DeviceSegmentedReduce::Sum(
          t, b, thrust::make_transform_iterator(keep.data(), widen{}), local.data() + 1, count,
          row_begin, row_begin + 1, stream);
    }, stream);
  }
  const arc_index arcs = scan_counts(local, count, stream);
  if (drawn) {
    device_buffer<unsigned long long> kept(1, stream);
    cub_call([&](void* t, std::size_t& b) {
      return cub::DeviceSelect::Flagged(t, b, keys.data(), keep.data(), sorted.data(),
                                        kept.data(), std::int64_t(drawn), stream);
    }, stream);
  }
  keys = device_buffer<std::uint64_t>();
  keep = device_buffer<unsigned char>();
  offsets = device_buffer<unsigned long long>();
  device_buffer<vertex> columns(arcs, stream);
  device_buffer<W> weights(arcs, stream);
  if (arcs) {
    decode_keys<W><<<grid_for(arcs), threads, 0, stream>>>(sorted.data(), arcs, draw,
                                                           columns.data(), weights.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
  }
  sorted = device_buffer<std::uint64_t>();
  return block_matrix<W>(n, first, count, std::move(local), std::move(columns),
                         std::move(weights), symmetric, stream);
}

template <class W>
device_matrix<W> grid_block(vertex grid_rows_, vertex grid_cols, std::uint64_t seed, vertex n,
                            row_range rows, bool symmetric, cudaStream_t stream) {
  const weight_draw<W> draw(W(1), W(1000), "generate_grid");
  const counter_rng weight_rng(seed, stream_weight);
  const vertex first = rows.begin, count = rows.size();
  require_device_memory((std::size_t(count) * 4) * (sizeof(vertex) + sizeof(W)) * 2 +
           (std::size_t(n) + std::size_t(count) + 2) * sizeof(arc_index),
       "generating rows [" + std::to_string(rows.begin) + ", " + std::to_string(rows.end) +
           ") of grid:" + std::to_string(grid_rows_) + ":" + std::to_string(grid_cols));
  device_buffer<arc_index> local(std::size_t(count) + 1, stream);
  TROPIC_CUDA_CHECK(cudaMemsetAsync(local.data(), 0, sizeof(arc_index), stream));
  grid_rows<W><<<grid_for(count), threads, 0, stream>>>(grid_rows_, grid_cols, first, count, draw,
                                                        weight_rng, local.data(), nullptr,
                                                        static_cast<W*>(nullptr));
  TROPIC_CUDA_CHECK(cudaGetLastError());
  const arc_index arcs = scan_counts(local, count, stream);
  device_buffer<vertex> columns(arcs, stream);
  device_buffer<W> weights(arcs, stream);
  if (arcs) {
    grid_rows<W><<<grid_for(count), threads, 0, stream>>>(grid_rows_, grid_cols, first, count,
                                                          draw, weight_rng, local.data(),
                                                          columns.data(), weights.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
  }
  return block_matrix<W>(n, first, count, std::move(local), std::move(columns),
                         std::move(weights), symmetric, stream);
}

}  // namespace

template <class W>
device_matrix<W> generate_on_device(const std::string& spec, std::uint64_t seed, row_range rows,
                                    bool symmetric, cudaStream_t stream) {
  const vertex n = graph_spec_vertices(spec);  // checks the spec, as generate_rows does
  const graph_spec g = parse_graph_spec(spec);
  check_row_range(rows, n, "generate_on_device");
  switch (g.kind) {
    case graph_spec::family::kron:
      return kronecker_block<W>(int(g.a), int(g.b), seed, n, rows, symmetric, stream);
    case graph_spec::family::grid:
      return grid_block<W>(vertex(g.a), vertex(g.b), seed, n, rows, symmetric, stream);
    default:
      throw error(error_code::not_implemented,
                  "graph spec '" + spec + "': uniform graphs are not generated on the device; "
                  "build their blocks on the host (generate_rows)");
  }
}

#define TROPIC_INSTANTIATE(W)                                                                  \
  template device_matrix<W> generate_on_device<W>(const std::string&, std::uint64_t, row_range, \
                                                  bool, cudaStream_t);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic
