// Helpers every kernel family shares: the row ranges of an operand's part, the mask test, list
// appends, the block-summed counter, the push's combine, and the launch helpers (grid sizes from
// the device's SM count and occupancy, never one GPU's).
#pragma once

#include <cooperative_groups.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "tropic/device_matrix.hpp"
#include "tropic/error.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"
#include "tropic/tuning.hpp"
#include "tropic/vector.hpp"

namespace tropic::detail {

// Blocks of `threads` for `items` grid-stride items, at least one, at most tuning::max_blocks.
inline unsigned blocks_for(std::size_t items, unsigned threads = tuning::block_threads) {
  std::size_t b = (items + threads - 1) / threads;
  return static_cast<unsigned>(std::clamp<std::size_t>(b, 1, tuning::max_blocks));
}

inline void check_launch() { TROPIC_CUDA_CHECK(cudaGetLastError()); }

// The current device's SM count: grids are sized per SM, never for one GPU's count.
inline unsigned sm_count() {
  int device = 0, sms = 0;
  TROPIC_CUDA_CHECK(cudaGetDevice(&device));
  TROPIC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return unsigned(std::max(sms, 1));
}

// Programmatic dependent launch (CUDA's PDL, compute capability 9.0 and up): a kernel launched
// by launch_early may start while the kernel before it on the stream is still running, once
// every block of that kernel has called let_dependents_start; it must call
// wait_for_prerequisites before it reads anything that kernel writes (pull_fixup so took 1-2 us
// off a 17-33 us SpMV: bench/results/h200-run52/). Both are no-ops where the kernel was launched
// plainly or the device is older.
__device__ __forceinline__ void let_dependents_start() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;");
#endif
}
__device__ __forceinline__ void wait_for_prerequisites() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
template <class... Params, class... Args>
void launch_early(void (*kernel)(Params...), unsigned grid, unsigned threads, cudaStream_t stream,
                  Args&&... args) {
  int device = 0, major = 0;
  TROPIC_CUDA_CHECK(cudaGetDevice(&device));
  TROPIC_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(threads);
  config.stream = stream;
  cudaLaunchAttribute early{};
  early.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  early.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &early;
  config.numAttrs = major >= 9 ? 1 : 0;
  TROPIC_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
  check_launch();
}

// The shared tail of a push or pull: read the improved count (the one host round trip of a call).
template <class W>
void finish_improved(sparse_vector<W>* improved, unsigned long long* count, gpu_context& ctx) {
  if (improved) improved->set_nvals(static_cast<std::size_t>(ctx.read_counter()));
  (void)count;
}

// The blocks of `threads` threads that the current device holds at once running `kernel`.
template <class Kernel>
unsigned resident_blocks(Kernel kernel, int threads) {
  int per_sm = 0;
  TROPIC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  return unsigned(std::max(per_sm, 1)) * sm_count();
}

// resident_blocks for one kernel and block size, kept per device (a call site holds one in a
// function static): the GPUs of one host may differ in SMs and in occupancy.
class resident_cache {
 public:
  template <class Kernel>
  unsigned blocks(Kernel kernel, int threads) {
    int device = 0;
    TROPIC_CUDA_CHECK(cudaGetDevice(&device));
    if (device < 0 || device >= max_devices) return resident_blocks(kernel, threads);
    unsigned b = blocks_[device].load(std::memory_order_relaxed);
    if (b == 0) {  // a race computes the same value twice
      b = resident_blocks(kernel, threads);
      blocks_[device].store(b, std::memory_order_relaxed);
    }
    return b;
  }

 private:
  static constexpr int max_devices = 64;
  std::array<std::atomic<unsigned>, max_devices> blocks_{};  // 0: not yet asked
};

// A load of a matrix's arcs (columns, weights), which a pull reads once per call: evict-first
// in L1 and L2 (ld.global.cs), which leaves those caches to the gathered vector's lines, the hub
// columns that many rows read (bench/results/h100-run42/NOTES.md).
template <class T>
__device__ __forceinline__ T read_once(const T* p) {
  return __ldcs(p);
}

template <class W>
__device__ __forceinline__ bool mask_allows(const mask_view<W>& m, vertex i) {
  if (m.kind == mask_kind::none) return true;
  const W x = m.values[i];
  const bool set = m.kind == mask_kind::value ? (x != W(0)) : (x != infinity<W>());
  return set != m.complement;
}

template <class W>
__device__ __forceinline__ bool in_range(W x, const value_range<W>& r) {
  return !(x < r.lo) && x < r.hi;
}

// The semiring's ⊕ as a binary functor (CUB's reductions).
template <class S>
struct monoid_op {
  template <class W>
  __host__ __device__ W operator()(W a, W b) const { return S::add(a, b); }
};

// Row ranges of one part of a matrix view: [first(u), last(u)).
struct row_ranges {
  const arc_index* offsets;  // row_offsets of the view
  const arc_index* split;    // null for row_part::all
  row_part part;
  // For the merge-path pull, which walks the part's arcs alone (pull_ranges_of): light_before[u]
  // = the light arcs of rows before u (n + 1 entries; null for row_part::all), and the part's
  // arcs in all (host side; the view's arcs for row_part::all).
  const arc_index* light_before = nullptr;
  arc_index part_arcs = 0;
  __device__ __forceinline__ arc_index first(vertex u) const {
    return part == row_part::heavy ? split[u] : offsets[u];
  }
  __device__ __forceinline__ arc_index last(vertex u) const {
    return part == row_part::light ? split[u] : offsets[u + 1];
  }
  // The part's arcs in rows before u: where row u begins in the part, as if the part were a
  // matrix of its own.
  __device__ __forceinline__ arc_index part_offset(std::uint64_t u) const {
    if (part == row_part::all) return offsets[u];
    return part == row_part::light ? light_before[u] : offsets[u] - light_before[u];
  }
};

// The row ranges of operand a's part over `view` (A's rows, or A''s when transposed).
template <class W>
row_ranges ranges_of(const csr_view<W>& view, const matrix_operand<W>& a, bool transposed) {
  const arc_index* split = nullptr;
  if (a.part != row_part::all)
    split = transposed ? a.split->transpose_rows() : a.split->rows();
  return {view.row_offsets, split, a.part, nullptr, a.part == row_part::all ? view.arcs : 0};
}

// The next slot of a list whose length is *count. The lanes of a warp appending at once take
// consecutive slots with one atomic: a list's length is one word that every block of a kernel
// appends to.
template <class Count>  // unsigned long long in global memory, unsigned in shared memory
__device__ __forceinline__ Count append_slot(Count* count) {
  const cooperative_groups::coalesced_group lanes = cooperative_groups::coalesced_threads();
  Count base = 0;
  if (lanes.thread_rank() == 0) base = atomicAdd(count, static_cast<Count>(lanes.size()));
  return lanes.shfl(base, 0) + static_cast<Count>(lanes.thread_rank());
}

// Records i in `list` once per call: the stamp array remembers the call that listed i last.
__device__ __forceinline__ void list_once(vertex i, std::uint32_t* stamps, std::uint32_t stamp,
                                          vertex* list, unsigned long long* count) {
  if (atomicExch(&stamps[i], stamp) != stamp) list[append_slot(count)] = i;
}

// *total += the sum of every thread's `mine`: a shuffle sum per warp, one shared atomic per
// warp, one global atomic per block, for counters every block adds to (one word that every row
// adds to serialises its atomics in one L2 slice; one shared atomic per thread serialised a
// block's 256 threads and tripled a thread-per-row pull, bench/results/h200-run30/NOTES.md).
// Every thread of the block calls it (whole warps); it may be called again.
__device__ __forceinline__ void add_block_sum(unsigned long long* total, unsigned long long mine) {
  __shared__ unsigned long long block_sum;
  if (threadIdx.x == 0) block_sum = 0;
  for (int offset = 16; offset > 0; offset /= 2)
    mine += __shfl_down_sync(0xffffffffu, mine, offset);
  __syncthreads();
  if ((threadIdx.x & 31) == 0 && mine) atomicAdd(&block_sum, mine);
  __syncthreads();
  if (threadIdx.x == 0 && block_sum) atomicAdd(total, block_sum);
  // Every thread is past its read before a next call zeroes the word: the compiler may load it
  // in every thread, not only in thread 0 (racecheck flags that load against the next zeroing).
  __syncthreads();
}

// Combines x into w[v] for the push direction: the min-plus monoid atomically; an accumulator
// other than the semiring's monoid is handled by the caller through a scratch vector.
template <class S, class W>
__device__ __forceinline__ void push_combine(W* w, vertex v, W x, std::uint32_t* stamps,
                                             std::uint32_t stamp, vertex* improved,
                                             unsigned long long* improved_count,
                                             const value_range<W>& range) {
  if constexpr (S::is_min_monoid) {
    if (!(x < w[v])) return;  // cheap filter: most candidates do not improve
    const W old = S::atomic_add(&w[v], x);
    if (improved && x < old && in_range(x, range))
      list_once(v, stamps, stamp, improved, improved_count);
  } else {
    S::atomic_add(&w[v], x);
  }
}

// Calls f(v, weight) for the arcs first, first + stride, ... below last, in order, until f
// returns false. Each arc's column and weight are loaded before f runs on the arc before it:
// the compiler does not move a load across f's atomics, so without this a lane with several
// arcs waits for a load and an atomic per arc in a row (push_row's loop: cnr-2000 0.82x,
// bench/results/h200-run58/NOTES.md).
template <class W, class F>
__device__ __forceinline__ void for_each_arc(const vertex* columns, const W* weights,
                                             arc_index first, arc_index last, arc_index stride,
                                             F&& f) {
  if (first >= last) return;
  vertex v = columns[first];
  W weight = weights[first];
  for (arc_index arc = first;;) {
    const arc_index following = arc + stride;
    vertex v_next = 0;
    W weight_next{};
    if (following < last) {
      v_next = columns[following];
      weight_next = weights[following];
    }
    if (!f(v, weight) || following >= last) return;
    arc = following;
    v = v_next;
    weight = weight_next;
  }
}

}  // namespace tropic::detail
