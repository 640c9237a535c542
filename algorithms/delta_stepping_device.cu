// Delta-stepping's bucket loop driven by the GPU: the host loop of algorithms/delta_stepping.cu
// as one persistent kernel, each line the grid-wide form of its operator (semiring/grid.cuh), the
// grid kept in step by grid barriers where the host loop waits for a counter. For graphs of
// small frontiers and long paths (roads, grids), where host round trips, not arcs, set the
// time: a bucket costs one pass over t and a few barriers, against host round trips or a CUDA
// graph's nodes (bench/results/h100-run10/sweeps/anatomy-2-bucket-kernel.txt against
// anatomy-1-graph-loop.txt there).
#include <cstdint>
#include <cuda/atomic>
#include <type_traits>

#include "delta_stepping_device.cuh"
#include "grid.cuh"
#include "policy.hpp"
#include "tropic/detail/gpu_backends.hpp"

namespace tropic::detail {

namespace {

template <class W>
struct bucket_loop_args {
  grid::closure_args<W> light, heavy;  // the same t, worklists and stamps; AL's and AH's rows
  vertex n;
  bool has_heavy;
  bool resume;  // light.lists[0] holds bucket `first`'s frontier already: no select first
  bucket_bounds<W> buckets;
  std::uint64_t first;             // i at the start
  W* next;                         // [3], infinity at the start: one per bucket in turn
  vertex* S;                       // bucket i's settled vertices for the heavy step
  unsigned long long* S_count;     // 0 at the start; 0 at the end
  std::uint32_t* device_stamp;     // the next unused stamp, in and out
  unsigned long long* statistics;  // [0] += light steps, [1] += rows pushed, [2] += buckets
  W cutoff;                        // stop before a bucket above it (infinity<W>(): never)
  const vertex* targets;           // stop once each of these is settled (sssp_od); may be null
  std::size_t target_count;
  W* stopped_at;  // set to the next bucket's least distance when the targets stop the loop
};

// Sridhar et al.'s bucket loop (IPDPSW 2019) from bucket b.first on. A worklist's length is
// read after a grid barrier only, and appended to only after every block has read it: the
// barriers marked "lengths read" keep a fast block's appends from sending a slow block down
// another path to a different barrier (a hang).
// BlocksPerSm: the blocks an SM runs of it (launch_cooperative starts that many), which bounds
// its registers.
template <class W, int Group, unsigned BlocksPerSm>
__global__ void __launch_bounds__(grid::block_threads, BlocksPerSm)
    bucket_loop(bucket_loop_args<W> b) {
  using S = min_plus<W>;
  __shared__ grid::block_queues<W> sh;
  grid::loop_state st;
  grid::begin_loop(sh, st, *b.device_stamp);
  const W* t = b.light.w;
  vertex* B = b.light.lists[0];
  unsigned long long* B_count = b.light.counts[0];
  std::uint64_t i = b.first, buckets = 0;
  value_range<W> bucket = b.buckets.range(i);  // [iΔ, (i+1)Δ)
  bool select_bucket = !b.resume;
  for (;; ++buckets) {
    // The next bucket's minimum starts at ∞: its slot's last readers read it two buckets ago.
    if (blockIdx.x == 0 && threadIdx.x == 0) b.next[(buckets + 1) % 3] = infinity<W>();
    if (select_bucket) {
      // B = { v : iΔ <= t[v] < (i+1)Δ }
      grid::select(t, b.n, bucket, B, B_count);
      grid::sync();
    }
    // while B ≠ ∅: t = min(t, AL' min.+ (t .* B)); B = { v improved : iΔ <= t[v] < (i+1)Δ }
    grid::closure<S, Group>(b.light, sh, bucket, st);
    if (b.has_heavy) {
      // S = { v : iΔ <= t[v] < (i+1)Δ }   (S is not a worklist of the closure)
      grid::select(t, b.n, bucket, b.S, b.S_count);
      grid::sync();
      // t = min(t, AH' min.+ (t .* S)); B = { v improved : iΔ <= t[v] < (i+1)Δ }
      // (stragglers back in bucket i: float rounding only)
      grid::push_list_to<S, Group>(b.heavy, sh, st, b.S, *b.S_count, bucket, B, B_count);
      grid::sync();
      const bool stragglers = *B_count > 0;
      // Every block has read S's length: free it for the next bucket.
      if (blockIdx.x == 0 && threadIdx.x == 0) *b.S_count = 0;
      grid::sync();  // lengths read
      if (stragglers) {
        select_bucket = false;  // bucket i again, from its stragglers
        continue;
      }
    } else {
      grid::sync();  // lengths read
    }
    if (bucket.hi == infinity<W>()) break;
    // next = min{ t[v] : t[v] >= (i+1)Δ }, fused with B = { v : (i+1)Δ <= t[v] < (i+2)Δ }
    // (right when bucket i+1 is the next non-empty one, as on roads and grids; else empty)
    W* next = &b.next[buckets % 3];
    grid::select_min_above(t, b.n, b.buckets.range(i + 1), B, B_count, bucket.hi, next);
    grid::sync();
    // i = floor(next / Δ) (empty buckets skipped), or stop
    const W lowest = *next;
    if (lowest == infinity<W>() || lowest > b.cutoff) break;
    if (b.target_count > 0) {
      // Every block decides alike without a barrier: a target below `lowest` is final, and the
      // closure only writes values >= lowest, so "t[d] < lowest" cannot change under its feet.
      int pending = 0;
      for (std::size_t j = threadIdx.x; j < b.target_count; j += blockDim.x)
        pending |= !(cuda::atomic_ref<W, cuda::thread_scope_device>(const_cast<W&>(t[b.targets[j]]))
                         .load(cuda::memory_order_relaxed) < lowest);
      if (!__syncthreads_or(pending)) {
        if (blockIdx.x == 0 && threadIdx.x == 0) *b.stopped_at = lowest;
        break;
      }
    }
    const std::uint64_t following = b.buckets.index_of(lowest);
    select_bucket = following != i + 1;
    i = following;
    bucket = b.buckets.range(i);
  }
  grid::tally_loop(st, b.statistics, b.light.arcs_scanned);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *b.device_stamp = st.stamp;
    if (b.statistics) b.statistics[2] += buckets + 1;
  }
}

}  // namespace

// Buckets i, i+1, ... to the end, driven by the GPU. Bucket i's light loop resumes from
// `frontier` (the host loop's B at the hand-over) when given, else from the whole bucket:
// re-selecting a wide bucket pushes every reached vertex once more (uniform-4M, Δ 50: 4.0 rows
// per vertex instead of 3.0; bench/results/h100-run9).
template <class W>
W device_driven_buckets(const device_matrix<W>& A, const light_heavy_split<W>& split,
                        const bucket_bounds<W>& buckets, bool has_heavy, std::uint64_t i,
                        const sparse_vector<W>* frontier, dense_vector<W>& t, gpu_context& ctx,
                        const closure_limits& closure, statistics& st, W cutoff,
                        const settle_targets* targets) {
  const vertex n = A.rows();
  cudaStream_t stream = ctx.stream();
  device_worklist B(n, stream), B_next(n, stream), S(n, stream);
  device_buffer<W> next(3, stream), stopped_at(1, stream);
  const W unset[3] = {infinity<W>(), infinity<W>(), infinity<W>()};
  next.upload(unset, 3);
  stopped_at.upload(unset, 1);
  if (frontier) {
    // B = the host loop's frontier (its entries' values are read from t as the closure goes)
    const unsigned long long k = frontier->nvals();
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(B.indices(), frontier->indices(), k * sizeof(vertex),
                                      cudaMemcpyDeviceToDevice, stream));
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(B.count(), &k, sizeof k, cudaMemcpyHostToDevice, stream));
  }
  // AL and AH: the light and heavy rows of A, pushed into t through the worklists B, B_next.
  auto operand = [&](row_part part) {
    return grid::closure_args_of(matrix_operand<W>{&A, part, &split}, t, B, B_next, ctx, closure);
  };
  bucket_loop_args<W> args{operand(row_part::light),
                           operand(row_part::heavy),
                           n,
                           has_heavy,
                           frontier != nullptr,
                           buckets,
                           i,
                           next.data(),
                           S.indices(),
                           S.count(),
                           ctx.device_stamp(),
                           ctx.loop_statistics(),
                           cutoff,
                           targets ? targets->ids : nullptr,
                           targets ? targets->count : 0,
                           stopped_at.data()};
  const double mean_degree = n ? double(A.arcs()) / n : 0;
  // A wide wavefront (a large grid) waits on its rows' loads: a third block an SM hides more of
  // them, but the register bound it takes costs the others.
  const bool wide = sizeof(W) <= 4 && closure.local_rounds > 0 &&
                    std::uint64_t(n) >= policy::delta_stepping::device_loop_wide_vertices;
  grid::with_lanes(grid::lanes_per_row(closure.group_lanes, mean_degree), [&](auto lanes) {
    constexpr int G = decltype(lanes)::value;
    constexpr unsigned wide_blocks =
        sizeof(W) <= 4 ? tuning::device_loop_wide_blocks_per_sm : grid::blocks_per_sm;
    auto launch = [&](auto per_sm) {
      constexpr unsigned P = decltype(per_sm)::value;
      grid::launch_cooperative<P>(bucket_loop<W, G, P>, closure.blocks, stream, args);
    };
    if (wide)
      launch(std::integral_constant<unsigned, wide_blocks>{});
    else
      launch(std::integral_constant<unsigned, grid::blocks_per_sm>{});
  });

  std::uint64_t iterations = 0, vertices = 0, device_buckets = 0;
  ctx.read_loop_statistics(iterations, vertices, &device_buckets);
  st.buckets += device_buckets;
  st.device_loop_buckets = device_buckets;
  st.iterations += iterations;
  st.vertices_relaxed += vertices;
  W stop = infinity<W>();
  if (targets) {
    TROPIC_CUDA_CHECK(
        cudaMemcpyAsync(&stop, stopped_at.data(), sizeof stop, cudaMemcpyDeviceToHost, stream));
    TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  return stop;
}

#define TROPIC_INSTANTIATE(W)                                                              \
  template W device_driven_buckets<W>(                                                     \
      const device_matrix<W>&, const light_heavy_split<W>&, const bucket_bounds<W>&, bool, \
      std::uint64_t, const sparse_vector<W>*, dense_vector<W>&, gpu_context&,              \
      const closure_limits&, statistics&, W, const settle_targets*);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
