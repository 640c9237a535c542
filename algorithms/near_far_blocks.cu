// Many sources on graphs of short rows: Near-Far (Davidson et al., IPDPS 2014, IV-C) from each
// source on one thread block of its own, every block taking the next source when it finishes.
//
// A single solve on a road network or a grid is a chain of hundreds of dependent steps, each a
// grid-wide barrier (~1 µs) over a frontier far too small for the GPU; the batched mxm
// (delta_stepping_batch.cu) shares arc reads but keeps every source in one bucket order, so a
// step's columns are the union of k frontiers, each read for all k rows. Here the sources share
// nothing but the arcs (in L2 on such graphs): a block's steps end at __syncthreads, and a
// hundred-odd blocks progress at once, one source each. It is Near-Far as near_far.cu runs it,
// with the block for the grid:
//
//   d = ∞; d[s] = 0; near = {s}; far = ∅; window [lo, hi) = [0, Δ)
//   loop:
//     while near ≠ ∅:                                   # a round: relax every u in near
//       for u in near, arc u -> v: if d[u] + w < d[v]:
//         d[v] = d[u] + w; (d[v] < hi ? next : far) += v     # each v once per round / window
//       near = next
//     m = min { d[v] : v in far, d[v] >= hi };  if none: done
//     [lo, hi) = [m, m + Δ)                             # empty windows skipped (near_far.cu)
//     near = { v in far : lo <= d[v] < hi };  far = { v in far : d[v] >= hi }
//
// Arcs whose sum passes the cutoff are never relaxed (the rows' weights ascend, so the rest of
// the row is skipped): a distance above the cutoff is never written, and the row needs no mask.
// Limits: non-negative weights; a thread walks a whole row, so graphs with hubs are for the
// other paths (solve_many_gpu picks this one on short rows only).
#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include <cuda/atomic>

#include "bucket_bounds.cuh"
#include "operators.cuh"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {

namespace {

template <class W>
struct block_solves {
  csr_view<W> a;
  const vertex* sources;
  unsigned long long k;
  W* rows;                       // k x n, row i for sources[i]
  vertex* lists;                 // per block: near, next, far, kept (n each)
  std::uint32_t* stamps;         // per block: queued, piled (n each), zero at the start
  unsigned long long* taken;     // sources handed out so far; 0 at the start
  unsigned long long* counters;  // [0] += arcs read, [1] += rounds, [2] += windows
  W width, cutoff;
};

// A distance other threads may be lowering: read from L2, where the atomics land.
template <class W>
__device__ __forceinline__ W load(W* p) {
  return cuda::atomic_ref<W, cuda::thread_scope_device>(*p).load(cuda::memory_order_relaxed);
}

// x + width, saturating at infinity and always above a finite x (near_far.cu's `advance`).
template <class W>
__device__ __forceinline__ W window_end(W x, W width) {
  const W y = saturating_add(x, width);
  if constexpr (std::is_floating_point_v<W>) {
    if (!(x < y)) return nextafter(x, infinity<W>());
  }
  return y;
}

__device__ __forceinline__ void exchange(vertex*& a, vertex*& b) {
  vertex* t = a;
  a = b;
  b = t;
}

template <class W, int Threads>
__global__ void __launch_bounds__(Threads) near_far_per_block(block_solves<W> p) {
  using reduce = cub::BlockReduce<W, Threads>;
  __shared__ typename reduce::TempStorage reduce_storage;
  __shared__ unsigned long long source_index;
  // Round r appends to next_count[r % 3]; thread 0 zeroes the one round r + 1 appends to during
  // round r, which every thread last read before round r began (grid.cuh's three counts).
  __shared__ vertex next_count[3];
  __shared__ vertex far_count, split_near, split_kept;
  __shared__ W least;
  const vertex n = p.a.n;
  vertex* near = p.lists + 4 * std::size_t(n) * blockIdx.x;
  vertex* next = near + n;
  vertex* far = next + n;
  vertex* kept = far + n;
  std::uint32_t* queued = p.stamps + 2 * std::size_t(n) * blockIdx.x;  // the round v was queued
  std::uint32_t* piled = queued + n;                                    // the window v was piled
  std::uint32_t round = 0, window = 0;  // the same in every thread; stamps never repeat
  unsigned long long arcs = 0, rounds = 0, windows = 0;
  for (;;) {
    if (threadIdx.x == 0) source_index = atomicAdd(p.taken, 1ull);
    __syncthreads();
    const unsigned long long i = source_index;
    if (i >= p.k) break;
    W* d = p.rows + i * n;
    const vertex s = p.sources[i];
    for (vertex v = threadIdx.x; v < n; v += Threads) d[v] = infinity<W>();
    __syncthreads();
    if (threadIdx.x == 0) {
      d[s] = W(0);
      near[0] = s;
      far_count = 0;
      next_count[(round + 1) % 3] = 0;
    }
    vertex near_count = 1;
    W hi = window_end(W(0), p.width);  // the window [lo, hi); lo only matters at a split
    ++window;
    __syncthreads();
    for (;;) {
      while (near_count > 0) {
        ++round;
        ++rounds;
        if (threadIdx.x == 0) next_count[(round + 1) % 3] = 0;
        vertex* out = next;
        for (vertex j = threadIdx.x; j < near_count; j += Threads) {
          const vertex u = near[j];
          const W du = load(d + u);
          const arc_index begin = p.a.row_offsets[u], end = p.a.row_offsets[u + 1];
          for_each_arc(p.a.columns, p.a.weights, begin, end, arc_index(1), [&](vertex v, W w) {
            const W nd = saturating_add(du, w);
            if (!(nd <= p.cutoff)) return false;  // and every later arc of the row: weights ascend
            ++arcs;
            if (!(nd < load(d + v)) || !(nd < atomic_min(d + v, nd))) return true;
            if (nd < hi) {
              if (atomicExch(queued + v, round) != round)
                out[atomicAdd(&next_count[round % 3], 1u)] = v;
            } else if (atomicExch(piled + v, window) != window) {
              far[atomicAdd(&far_count, 1u)] = v;
            }
            return true;
          });
        }
        __syncthreads();
        near_count = next_count[round % 3];
        exchange(near, next);
      }
      // Split the far pile: m = its least distance at or above hi (below: relaxed since).
      const vertex piles = far_count;
      if (piles == 0) break;
      W mine = infinity<W>();
      for (vertex j = threadIdx.x; j < piles; j += Threads) {
        const W x = load(d + far[j]);
        if (!(x < hi) && x < mine) mine = x;
      }
      const W m = reduce(reduce_storage).Reduce(mine, [](W a, W b) { return b < a ? b : a; });
      if (threadIdx.x == 0) {
        least = m;
        split_near = split_kept = 0;
      }
      __syncthreads();
      if (least == infinity<W>()) break;
      const W lo = least;
      hi = window_end(lo, p.width);
      ++window;
      ++windows;
      for (vertex j = threadIdx.x; j < piles; j += Threads) {
        const vertex v = far[j];
        const W x = load(d + v);
        if (x < lo) continue;
        if (x < hi) {
          near[atomicAdd(&split_near, 1u)] = v;
        } else {
          kept[atomicAdd(&split_kept, 1u)] = v;
          piled[v] = window;
        }
      }
      __syncthreads();
      near_count = split_near;
      if (threadIdx.x == 0) far_count = split_kept;
      exchange(far, kept);
      __syncthreads();  // far_count set before the next round appends to it
    }
    __syncthreads();  // every thread is past this source's counts before the next one
  }
  using counter = unsigned long long;
  for (int off = 16; off > 0; off /= 2) {
    arcs += __shfl_down_sync(0xffffffffu, arcs, off);
  }
  if (threadIdx.x % 32 == 0) atomicAdd(p.counters, counter(arcs));
  if (threadIdx.x == 0) {
    atomicAdd(p.counters + 1, counter(rounds));
    atomicAdd(p.counters + 2, counter(windows));
  }
}

unsigned multiprocessors() {
  int device = 0, sms = 0;
  TROPIC_CUDA_CHECK(cudaGetDevice(&device));
  TROPIC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return unsigned(std::max(sms, 1));
}

template <class W, int Threads>
void launch_blocks(const device_matrix<W>& A, const vertex* sources, std::size_t k, W width,
                   W cutoff, W* rows, statistics& stats, cudaStream_t stream) {
  const vertex n = A.rows();
  const auto kernel = near_far_per_block<W, Threads>;
  // Blocks: one per source up to what the device holds at once, fewer when their worklists
  // (4 lists of n vertices and 2 stamps of n per block) would not fit beside the rows.
  const std::size_t per_block = std::size_t(n) * (4 * sizeof(vertex) + 2 * sizeof(std::uint32_t));
  std::size_t free_bytes = 0, total_bytes = 0;
  TROPIC_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t room = free_bytes / 8 * 7 > per_block ? free_bytes / 8 * 7 : per_block;
  int per_sm = 0;
  TROPIC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Threads, 0));
  const std::size_t resident = std::size_t(std::max(per_sm, 1)) * multiprocessors();
  const std::size_t blocks = std::max<std::size_t>(1, std::min({k, resident, room / per_block}));
  require_device_memory(blocks * per_block + 4 * sizeof(unsigned long long),
                        "near_far from " + std::to_string(k) + " sources: " +
                            std::to_string(blocks) + " blocks' worklists of 6 x " +
                            std::to_string(n) + " entries");
  device_buffer<vertex> lists(4 * std::size_t(n) * blocks, stream);
  device_buffer<std::uint32_t> stamps(2 * std::size_t(n) * blocks, stream);
  device_buffer<unsigned long long> counts(4, stream);
  TROPIC_CUDA_CHECK(cudaMemsetAsync(stamps.data(), 0, stamps.bytes(), stream));
  TROPIC_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, counts.bytes(), stream));
  block_solves<W> args{A.view(), sources,      k,           rows,  lists.data(), stamps.data(),
                       counts.data(), counts.data() + 1, width, cutoff};
  cuda_timer timer(stream);
  kernel<<<unsigned(blocks), Threads, 0, stream>>>(args);
  TROPIC_CUDA_CHECK(cudaGetLastError());
  stats.milliseconds = timer.elapsed_ms();
  unsigned long long host[3] = {};
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(host, counts.data() + 1, sizeof host, cudaMemcpyDeviceToHost,
                                    stream));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  stats.arcs_relaxed = host[0];
  stats.iterations = host[1];
  stats.buckets = host[2] + k;  // every source's first window too
}

}  // namespace

template <class W>
void near_far_blocks(const device_matrix<W>& A, const vertex* sources, std::size_t k,
                     const options& opts, W* distances, std::int64_t* parents,
                     statistics& stats, W cutoff, unsigned threads) {
  check_many_sources(A, sources, k, opts, "near_far from many sources");
  const vertex n = A.rows();
  if (threads != 0 && threads != 256 && threads != 1024)
    throw error(error_code::invalid_value,
                "near_far_blocks: threads must be 0 (automatic), 256 or 1024, got " +
                    std::to_string(threads));
  stats = statistics{};
  stats.algorithm = algorithm_name(algorithm::near_far);
  if (k == 0) return;
  const std::size_t size = k * std::size_t(n);
  require_device_memory(size * sizeof(W) + k * sizeof(vertex),
                        "near_far from " + std::to_string(k) + " sources x " + std::to_string(n) +
                            " vertices (a k x n array of " + std::to_string(sizeof(W)) +
                            "-byte distances)");
  cuda_stream stream;
  const double delta = resolve_delta(A, opts);
  stats.delta = delta;
  device_buffer<W> rows(size, stream);
  device_buffer<vertex> starts(k, stream);
  starts.upload(sources, k);
  const W width = bucket_width<W>(delta);
  // Fewer sources than SMs: wide blocks, each source's rounds spread over more lanes; else
  // narrow ones, more sources at once (64 sources of USA-road-d.NY: 1024 threads 1.26x faster
  // than 256; 10,000 of a 100 x 100 grid: 256 threads 2.6x faster than 1024;
  // bench/results/h200x4-run35/NOTES.md).
  if (threads == 0) threads = k < multiprocessors() ? 1024 : 256;
  if (threads == 1024)
    launch_blocks<W, 1024>(A, starts.data(), k, width, cutoff, rows.data(), stats, stream);
  else
    launch_blocks<W, 256>(A, starts.data(), k, width, cutoff, rows.data(), stats, stream);
  finish_rows(A, rows.data(), sources, k, opts, cutoff, distances, parents, stream);
}

#define TROPIC_INSTANTIATE(W)                                                                 \
  template void near_far_blocks<W>(const device_matrix<W>&, const vertex*, std::size_t,      \
                                   const options&, W*, std::int64_t*, statistics&, W, unsigned);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
