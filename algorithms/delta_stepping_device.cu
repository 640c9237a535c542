// Delta-stepping's bucket loop run by one persistent kernel (the device-driven loop of
// algorithms/delta_stepping.cu): each line of the host loop is a grid-wide device form of the
// operator (semiring/device_loop.cuh), the grid kept in step by grid barriers.
#include <cstdint>

#include <cooperative_groups.h>

#include "delta_stepping_device.cuh"
#include "device_loop.cuh"
#include "tropic/detail/gpu_backends.hpp"

namespace tropic::detail {

namespace {

// The device-driven loop: the bucket loop below, run by one persistent kernel. Each line of the
// host loop is a grid-wide device operator here (semiring/device_loop.cuh), the grid kept in step
// by cooperative groups' grid barrier (~1 µs) where the host loop waits for a counter. A bucket
// then costs one pass over t and a few barriers: 7.9 µs per bucket, 11.3 µs with a t of 4M
// entries. The same loop as a CUDA graph of operator calls (select and reduce_min from CUB, a
// bucket step, the closure; a conditional WHILE node) took 18 and 31.5 µs (H100, 2026-11-24, the
// chain of the "grid anatomy" case in test/test_delta_stepping.cu), so ~3.7 ms of grid-4M's 19
// ms, plus 0.37 ms per solve to capture and instantiate the graph (bench/RESULTS.md, run 9).
template <class W>
struct bucket_loop_args {
  detail::closure_args<W> light, heavy;  // the same t, worklists and stamps; AL's and AH's rows
  vertex n;
  bool has_heavy;
  bool resume;  // light.lists[0] holds bucket `first`'s frontier already: no select first
  bucket_bounds<W> buckets;
  std::uint64_t first;            // i at the start
  W* next;                        // [3], infinity at the start: one per bucket in turn
  vertex* S;                      // bucket i's settled vertices for the heavy step
  unsigned long long* S_count;    // 0 at the start; 0 at the end
  std::uint32_t* device_stamp;    // the next unused stamp, in and out
  unsigned long long* statistics;  // [0] += light steps, [1] += rows pushed, [2] += buckets
};

template <class W, int Group>
__global__ void __launch_bounds__(tuning::block_threads) bucket_loop(bucket_loop_args<W> b) {
  using S = min_plus<W>;
  __shared__ detail::closure_shared<W> sh;
  detail::closure_state st;
  detail::closure_begin(sh, st, *b.device_stamp);
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const W* t = b.light.w;
  vertex* B = b.light.lists[0];
  unsigned long long* B_count = b.light.counts[0];
  std::uint64_t i = b.first, buckets = 0;
  value_range<W> bucket = b.buckets.range(i);  // [iΔ, (i+1)Δ)
  bool select_bucket = !b.resume;
  for (;; ++buckets) {
    // The slot the next bucket's reduction will use is cleared now: its last readers read it
    // two buckets ago, and a grid barrier has passed since.
    if (blockIdx.x == 0 && threadIdx.x == 0) b.next[(buckets + 1) % 3] = infinity<W>();
    if (select_bucket) {
      // B = { v : iΔ <= t[v] < (i+1)Δ }
      detail::grid_select_min(t, b.n, bucket, B, B_count, W(), static_cast<W*>(nullptr));
      grid.sync();
    }
    // while B is not empty: t = min(t, AL' min.+ (t .* B)); B = { v improved, iΔ <= t[v] < (i+1)Δ }
    // A block leaves the closure having read the empty frontier's length, and block 0 zeroes
    // the last non-empty one's there: no block may append to a worklist before every block is
    // out. (Without the barriers marked "lengths read", a fast block's appends made a slow
    // block see a non-empty list and take another path to a different barrier: a hang.)
    detail::closure_steps<S, W, Group>(b.light, sh, bucket, st);
    if (b.has_heavy) {
      // S = { v : iΔ <= t[v] < (i+1)Δ } (S is not a worklist of the closure)
      detail::grid_select_min(t, b.n, bucket, b.S, b.S_count, W(), static_cast<W*>(nullptr));
      grid.sync();
      // t = min(t, AH' min.+ (t .* S)); B = stragglers back in bucket i (float rounding only)
      const std::size_t settled = *b.S_count;
      st.frontier_rows += settled;
      const std::uint32_t stamp = st.stamp--;
      detail::push_list<S, W, Group>(b.heavy, sh, st, b.S, settled, bucket,
                                     [&](const detail::closure_item<W>& item) {
                                       detail::list_once(item.v, b.heavy.stamps, stamp, B,
                                                         B_count);
                                     });
      grid.sync();
      const bool stragglers = *B_count > 0;
      if (blockIdx.x == 0 && threadIdx.x == 0) *b.S_count = 0;  // every block has read it
      grid.sync();  // lengths read
      if (stragglers) {  // bucket i again, from its stragglers
        select_bucket = false;
        continue;
      }
    } else {
      grid.sync();  // lengths read
    }
    // next = min{ t[v] : t[v] >= (i+1)Δ }; i = the bucket of next (empty ones skipped), or stop.
    // The same pass selects B = { v : (i+1)Δ <= t[v] < (i+2)Δ }: right when bucket i+1 is the
    // next non-empty one, and empty (to be selected afresh) when it is not.
    if (bucket.hi == infinity<W>()) break;
    W* next = &b.next[buckets % 3];
    detail::grid_select_min(t, b.n, b.buckets.range(i + 1), B, B_count, bucket.hi, next);
    grid.sync();
    const W lowest = *next;
    if (lowest == infinity<W>()) break;
    const std::uint64_t following = b.buckets.index_of(lowest);
    select_bucket = following != i + 1;
    i = following;
    bucket = b.buckets.range(i);
  }
  detail::closure_tally(st, b.statistics, b.light.arcs_scanned);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *b.device_stamp = st.stamp;
    if (b.statistics) b.statistics[2] += buckets + 1;
  }
}

}  // namespace

// Buckets i, i+1, ... to the end, driven by the GPU. Bucket i's light loop resumes from
// `frontier` (the host loop's B at the hand-over) when given, else from the whole bucket.
// Resuming matters where the hand-over comes late in a wide bucket: on uniform-4M (Δ 50, one
// bucket holds nearly every vertex) re-selecting the bucket pushed every reached vertex once
// more (4.0 rows per vertex instead of 3.0, 16.9 against 13.6 ms; H100, 2026-11-23, CLI,
// median of 7).
template <class W>
void device_driven_buckets(const device_matrix<W>& A, const light_heavy_split<W>& split,
                           const bucket_bounds<W>& buckets, bool has_heavy, std::uint64_t i,
                           const sparse_vector<W>* frontier, dense_vector<W>& t,
                           gpu_context& ctx, const closure_limits& closure, statistics& st) {
  const vertex n = A.rows();
  cudaStream_t stream = ctx.stream();
  device_worklist B(n, stream), B_next(n, stream), S(n, stream);
  device_buffer<W> next(3, stream);
  const W unset[3] = {infinity<W>(), infinity<W>(), infinity<W>()};
  next.upload(unset, 3);
  if (frontier) {
    // B = the host loop's frontier (its entries' values are read from t as the closure goes)
    const unsigned long long k = frontier->nvals();
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(B.indices(), frontier->indices(), k * sizeof(vertex),
                                      cudaMemcpyDeviceToDevice, stream));
    TROPIC_CUDA_CHECK(
        cudaMemcpyAsync(B.count(), &k, sizeof k, cudaMemcpyHostToDevice, stream));
  }
  const csr_view<W> view = A.view();
  const closure_limits limits = for_this_device(closure);
  auto operand = [&](row_part part) {
    const matrix_operand<W> a{&A, part, &split};
    return detail::closure_args<W>{view,
                                   detail::ranges_of(view, a, false),
                                   t.data(),
                                   {B.indices(), B_next.indices()},
                                   {B.count(), B_next.count(), ctx.closure_scratch()},
                                   ctx.stamps(n),
                                   ctx.arcs_scanned(),
                                   limits};
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
                           ctx.loop_statistics()};
  // Lanes per row as vxm_closure chooses them.
  const double mean_degree = n ? double(A.arcs()) / n : 0;
  detail::with_lanes(detail::closure_lanes(closure.group_lanes, mean_degree), [&](auto lanes) {
    constexpr int G = decltype(lanes)::value;
    detail::launch_cooperative(bucket_loop<W, G>, closure.blocks, stream, args);
  });
  detail::check_launch();

  std::uint64_t iterations = 0, vertices = 0, device_buckets = 0;
  ctx.read_loop_statistics(iterations, vertices, &device_buckets);
  st.buckets += device_buckets;
  st.device_loop_buckets = device_buckets;
  st.iterations += iterations;
  st.vertices_relaxed += vertices;
}

#define TROPIC_INSTANTIATE(W)                                                                 \
  template void device_driven_buckets<W>(const device_matrix<W>&, const light_heavy_split<W>&, \
                                         const bucket_bounds<W>&, bool, std::uint64_t,         \
                                         const sparse_vector<W>*, dense_vector<W>&,            \
                                         gpu_context&, const closure_limits&, statistics&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
