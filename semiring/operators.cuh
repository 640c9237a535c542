// Kernels and dispatch of the GraphBLAS-shaped operators (semiring/tropic/operators.hpp).
// Layered like CUB: public call -> dispatch (sizes temporaries, picks push/pull and the grid)
// -> __global__ kernel -> per-row / per-arc work. One kernel body per method, generic over the
// semiring; semiring/inst/*.cu instantiate it per weight type.
#pragma once

#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"
#include "tropic/tuning.hpp"
#include "push_edge_wise.cuh"

namespace tropic {

namespace detail {

inline unsigned blocks_for(std::size_t items, unsigned threads = tuning::block_threads) {
  std::size_t b = (items + threads - 1) / threads;
  return static_cast<unsigned>(std::clamp<std::size_t>(b, 1, tuning::max_blocks));
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

// *total += the sum of every thread's `mine`: one shared atomic per thread, one global atomic
// per block. For counters every block adds to (the arcs a push or pull read): one word that
// every row of a step adds to serialises its atomics in one L2 slice. Every thread of the
// block calls it; it may be called again (the shared word is the same for every call).
__device__ __forceinline__ void add_block_sum(unsigned long long* total, unsigned long long mine) {
  __shared__ unsigned long long block_sum;
  if (threadIdx.x == 0) block_sum = 0;
  __syncthreads();
  if (mine) atomicAdd(&block_sum, mine);
  __syncthreads();
  if (threadIdx.x == 0 && block_sum) atomicAdd(total, block_sum);
  // Every thread is past its read before a next call zeroes the word: the compiler may load it
  // in every thread, not only in thread 0 (racecheck saw those loads race with the next call's
  // zeroing, 2026-11-24).
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

// Push, load-balanced (Davidson et al. IV-B "load-balanced partitioning", merge-path style):
// the frontier's row lengths are scanned (CUB) into `scan`; each block takes a contiguous run
// of `tile` arcs, finds the frontier rows that cover it with two binary searches, and its
// threads walk the arcs. Work per block is equal whatever the degree skew.
template <class S, class W, int Threads, int ItemsPerThread>
__global__ void __launch_bounds__(Threads)
push_merge_path(const vertex* frontier, const W* frontier_values, std::size_t frontier_size,
                const arc_index* scan, csr_view<W> a, row_ranges ranges, W* w,
                mask_view<W> mask, std::uint32_t* stamps, std::uint32_t stamp, vertex* improved,
                unsigned long long* improved_count, value_range<W> range,
                unsigned long long* arcs_scanned) {
  constexpr int tile = Threads * ItemsPerThread;
  const arc_index total = scan[frontier_size];
  if (arcs_scanned && blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(arcs_scanned, total);
  __shared__ std::size_t tile_rows[2];
  // A tile's improved targets are staged here and appended to `improved` with one atomic per
  // tile. Appended a warp's targets at a time (append_slot), the list's length -- one word --
  // was the limit of a hub frontier's push: kron-22's 13k-row push of 14.8M arcs took 641 us,
  // 323 us with the appends left out, 594 us with plain stores for the atomicMin; staged, 239 us
  // (the second source's 16k rows: 808 -> 269 us; ncu, H100, 2026-11-25).
  __shared__ vertex staged[tile];
  __shared__ unsigned long long staged_count, staged_base;
  if (threadIdx.x == 0) staged_count = 0;
  for (arc_index tile_start = arc_index(blockIdx.x) * tile; tile_start < total;
       tile_start += arc_index(gridDim.x) * tile) {
    if (threadIdx.x < 2) {
      // The frontier rows covering the tile's first and last arc: the last k with scan[k] <= e.
      const arc_index e = threadIdx.x == 0 ? tile_start : std::min(tile_start + tile, total) - 1;
      std::size_t lo = 0, hi = frontier_size;
      while (hi - lo > 1) {
        std::size_t mid = (lo + hi) / 2;
        if (scan[mid] <= e) lo = mid; else hi = mid;
      }
      tile_rows[threadIdx.x] = lo;
    }
    __syncthreads();
    std::size_t k = tile_rows[0];
    const std::size_t k_last = tile_rows[1];
    __syncthreads();
    // Each thread handles arcs tile_start + threadIdx.x + j * Threads; its row index only grows,
    // so each search starts from the previous row and stops at the tile's last row.
    for (int j = 0; j < ItemsPerThread; ++j) {
      const arc_index e = tile_start + threadIdx.x + arc_index(j) * Threads;
      if (e >= total) break;
      std::size_t lo = k, hi = k_last + 1;
      while (hi - lo > 1) {
        std::size_t mid = (lo + hi) / 2;
        if (scan[mid] <= e) lo = mid; else hi = mid;
      }
      k = lo;
      const vertex u = frontier[k];
      const arc_index arc = ranges.first(u) + (e - scan[k]);
      const vertex v = a.columns[arc];
      if (!mask_allows(mask, v)) continue;
      const W x = S::mul(frontier_values[k], a.weights[arc]);
      push_combine<S>(w, v, x, stamps, stamp, improved ? staged : nullptr, &staged_count, range);
    }
    if (improved) {
      __syncthreads();  // the tile's targets are staged
      if (threadIdx.x == 0 && staged_count) staged_base = atomicAdd(improved_count, staged_count);
      __syncthreads();
      for (unsigned long long i = threadIdx.x; i < staged_count; i += Threads)
        improved[staged_base + i] = staged[i];
      __syncthreads();  // every thread has read staged_count
      if (threadIdx.x == 0) staged_count = 0;
    }
  }
}

// A push's frontier: indices with values, or (device-driven loops) indices whose values are read
// from the dense vector being updated, and a length known to the host or kept on the device.
template <class W>
struct frontier_ref {
  const vertex* indices;
  const W* values;  // null: the value of entry k is dense[indices[k]]
  const W* dense;
  std::size_t size;
  __device__ __forceinline__ W value(std::size_t k, vertex u) const {
    return values ? values[k] : dense[u];
  }
};

// Push, a group of Group lanes per frontier row (Group 32: a warp, the binned alternative for
// even degrees; 4 or 8 for the short rows of road-like graphs), grid-stride, so the grid may be
// sized for the device rather than the frontier: w(v) = w(v) ⊕ (x_u ⊗ A(u, v)) for each arc
// u -> v of u's part the mask allows, listing each v that improved into `range` once per stamp.
template <class S, class W, int Group>
__global__ void push_group_per_row(frontier_ref<W> frontier, csr_view<W> a, row_ranges ranges,
                                   W* w, mask_view<W> mask, std::uint32_t* stamps,
                                   std::uint32_t stamp, vertex* improved,
                                   unsigned long long* improved_count, value_range<W> range,
                                   unsigned long long* arcs_scanned) {
  const std::size_t groups = std::size_t(gridDim.x) * blockDim.x / Group;
  const unsigned lane = threadIdx.x % Group;
  unsigned long long read = 0;
  for (std::size_t k = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / Group;
       k < frontier.size; k += groups) {
    const vertex u = frontier.indices[k];
    const W xu = frontier.value(k, u);
    const arc_index first = ranges.first(u), last = ranges.last(u);
    if (lane == 0 && last > first) read += last - first;
    for (arc_index arc = first + lane; arc < last; arc += Group) {
      const vertex v = a.columns[arc];
      if (!mask_allows(mask, v)) continue;
      push_combine<S>(w, v, S::mul(xu, a.weights[arc]), stamps, stamp, improved, improved_count,
                      range);
    }
  }
  if (arcs_scanned) add_block_sum(arcs_scanned, read);
}

// Row lengths of the frontier's rows (the input of the CUB scan).
template <class W>
struct frontier_row_length {
  const vertex* frontier;
  std::size_t size;
  row_ranges ranges;
  __host__ __device__ arc_index operator()(std::size_t k) const {
#if defined(__CUDA_ARCH__)
    if (k >= size) return 0;
    const vertex u = frontier[k];
    return ranges.last(u) - ranges.first(u);
#else
    return 0;
#endif
  }
};

// The write of one pulled row: w(i) = accum(w(i), acc), listing i when it improved into range.
// A pull finishes each row exactly once per call (in its tile, or in pull_fixup), so the list
// takes i without the stamp that a push's arcs into one target need: one atomic exchange per
// improved row fewer (uniform-4M, whose middle steps pull millions of improved rows, 7.5 -> 6.4
// ms; H100, 2026-11-24, bench/results/2026-11-24-h100-run12/sweeps/ab-2-*).
template <class S, class W>
__device__ __forceinline__ void pull_write(W* w, vertex i, W acc, accumulator accum,
                                           vertex* improved, unsigned long long* improved_count,
                                           const value_range<W>& range) {
  if (accum == accumulator::none && !improved) {  // w(i) = T(i): no need to read w(i)
    w[i] = acc;
    return;
  }
  const W old = w[i];
  W now;
  if (accum == accumulator::none) now = acc;
  else if (accum == accumulator::min) now = acc < old ? acc : old;
  else now = acc == S::identity() ? old : (old == S::identity() ? acc : old + acc);
  if (now != old) w[i] = now;  // most rows of a min-accumulated pull keep their value
  if (improved && now < old && in_range(now, range))
    improved[append_slot(improved_count)] = i;
}

// The semiring's ⊕ as a binary functor (CUB's reductions).
template <class S>
struct monoid_op {
  template <class W>
  __host__ __device__ W operator()(W a, W b) const { return S::add(a, b); }
};

// Rows no product of a pull can improve. With the min accumulator and a ⊗ that grows with both
// operands (S::monotone_mul), every product u(j) ⊗ A(i, j) is at least min_j u(j) ⊗ (a lower
// bound of the part's weights), so a row whose w(i) is already at or below that floor keeps its
// value, and its arcs are not read: the bottom-up step's "skip the visited" of direction-
// optimising BFS (Beamer et al., SC'12), derived from the operands alone, so the result is the
// same with or without it. In delta-stepping the rows below the floor are the vertices settled
// in earlier buckets (the current one too, for a heavy step), and on a Kronecker graph they hold
// nearly every arc: from one source of kron-22, 1.78M of its 2.39M reached vertices settle in
// bucket 0, and after it only 0.5% of the light arcs and 1.3% of the heavy arcs lie in rows that
// can still fall (Dijkstra's distances on the CPU, 2026-11-24).
template <class W>
struct pull_floor {
  const W* least_input = nullptr;  // min over u's entries, on the device; null: no floor
  W least_weight{};                // at most every weight of the view's part
  // Set by pull_live_choice on the device: 1 when pull_live_rows runs this pull, 0 when the
  // merge path does (each kernel leaves at once when it is not its turn); null: merge path.
  const unsigned* by_live_rows = nullptr;

  // The floor (every thread of a kernel reads the same word), or nothing when there is none.
  template <class S>
  __device__ __forceinline__ W value() const {
    return least_input ? S::mul(*least_input, least_weight) : S::identity();
  }
  // Whether row i may change: always without a floor.
  __device__ __forceinline__ bool above(W floor, const W* w, vertex i) const {
    return !least_input || floor < w[i];
  }
  // The same, from w(i) as read by current().
  __device__ __forceinline__ bool above(W floor, W current) const {
    return !least_input || floor < current;
  }
  // w(i) where there is a floor (read once per row: the floor's and the row bound's operand).
  __device__ __forceinline__ W current(const W* w, vertex i) const {
    return least_input ? w[i] : W();
  }
  // min_j u(j) (every thread of a kernel reads the same word), or the identity without a floor.
  template <class S>
  __device__ __forceinline__ W least() const {
    return least_input ? *least_input : S::identity();
  }
};

// The floor of one row, arc by arc. A row's arcs are sorted by weight (csr_view's contract) and
// ⊗ grows with the weight, so once an arc's least_input ⊗ weight reaches w(i), neither it nor any
// later arc of the row can improve w(i): the row's useful arcs are a prefix, and a pull reads up
// to its end (the bottom-up step's early exit of direction-optimising BFS, by weight). After
// delta-stepping's first steps nearly every vertex holds a tentative distance not far above the
// bucket, and few of a row's light arcs are light enough: in kron-22's light steps that pull
// (first source), 21%, 8% and 6% of the live rows' arcs lie within their bounds (12.9M of
// 62.4M, 3.2M of 39.4M, 1.2M of 20.9M; bench/tune/pull_bound_model.cpp, a CPU model of the
// steps). On the H100 that took its solve from 5.85 to 5.38 ms, the second source's from 7.67
// to 6.33 (2026-11-24, bench/results/2026-11-24-h100-run23/sweeps/).
template <class S, class W>
struct row_bound {
  W least;  // min_j u(j)
  W limit;  // w(i)
  bool on;  // a floored pull; otherwise every arc is read
  __device__ __forceinline__ bool keeps(W weight) const {
    return !on || S::mul(least, weight) < limit;
  }
};
template <class S, class W>
__device__ __forceinline__ row_bound<S, W> bound_of(const pull_floor<W>& floor, W least,
                                                    W current) {
  return {least, current, floor.least_input != nullptr};
}
// Whether row i may change, from the view's lightest weights (csr_view::row_least, read beside
// w(i)): a row whose lightest arc lies past its bound -- an empty row too -- reads nothing more.
// The row's lightest arc is at most its part's, so the test holds for a light or heavy part.
// Predicted (bench/tune/pull_bound_model.cpp): -2%, -8%, -30% of the bytes kron-22's first three
// pulls request; measured: kron-22 5.10 -> 4.96 ms on the first source, 5.93 -> 5.98 on the
// second (medians of four passes in one call, H100, 2026-11-25: within the calls' noise alone,
// it pays with the hysteresis of delta_stepping.cu that keeps the late steps pulling).
template <class S, class W>
__device__ __forceinline__ bool opens(const csr_view<W>& a, const row_bound<S, W>& bound,
                                      vertex i) {
  return !bound.on || !a.row_least || bound.keeps(a.row_least[i]);
}

// Pull: w(i) = accum(w(i), ⊕_j u(j) ⊗ A(i, j)) for every row i of the view that the mask allows
// (the view's rows are i's in-arcs for vxm over A'), as a merge-based SpMV (Merrill & Garland,
// "Merge-based Parallel Sparse Matrix-Vector Multiplication", SC'16, sections 4-5). The n row
// ends and the nnz arcs are merged into one path of n + nnz items: arc e of row i sits at
// position i + e, and row i's end at i + offsets[i + 1], after its arcs. Each block takes an
// equal run of the path, in tiles of Threads x Items items, and each thread Items consecutive
// items of a tile; a row of a million arcs (Kronecker hubs) and a million empty rows (roads)
// cost the same per item, every arc is read once, and the only search over global memory is
// one per block.
//
// Why not bins by row length (a warp per row chosen from the average length was 0.57x of
// cuSPARSE on kron-22 and 0.43x on grid-4M): most of a warp idled on kron's short rows; one
// dependent offsets -> columns -> x chain per row and warp left too few loads in flight (4M rows,
// ~8k warps resident); a block per hub still left one block reading 10^5 arcs alone; and the
// bins' selection costs a pass over the offsets per call (the light/heavy part changes row
// lengths with Δ, so bins cannot be kept). The path needs no selection and splits hubs.
//
// Light/heavy parts: the path runs over the part's arcs alone, as if the part were a matrix of
// its own (row_ranges::part_offset: a prefix of the light rows' lengths, kept by the split), so
// the balance, the walk and the traffic are all by the part. Rows the mask excludes, and rows
// at or below the floor, stay on the path but read nothing (the identity).
//
// A row is finished, and written once (pull_write: accumulator, `improved`), where its end lies:
// inside a tile, the threads' partials of an open row are combined by a reduce-by-key block scan
// whose running prefix carries it into the block's next tile; a row open at a block's start is
// finished by pull_fixup from the partials every earlier block left for it, so accumulator::none,
// the mask and the improved list always see the whole row.

// A partial of one row: the row open at the end of a run of path items, and its ⊕ over them.
template <class W>
struct pull_carry {
  vertex row;
  W value;
};

// Reduce-by-key over carries in path order: keys never decrease along the path, which makes
// this associative (segmented scan), as CUB's BlockScan requires.
template <class S, class W>
struct pull_carry_op {
  __device__ __forceinline__ pull_carry<W> operator()(const pull_carry<W>& a,
                                                      const pull_carry<W>& b) const {
    return {b.row, a.row == b.row ? S::add(a.value, b.value) : b.value};
  }
};

// CUB's block-prefix callback: the carry of the tiles of this block so far (lane 0 of warp 0
// keeps it).
template <class S, class W>
struct pull_running_carry {
  pull_carry<W> total;
  __device__ pull_carry<W> operator()(const pull_carry<W>& tile) {
    const pull_carry<W> before = total;
    total = pull_carry_op<S, W>{}(total, tile);
    return before;
  }
};

// What a block leaves for pull_fixup.
template <class W>
struct pull_block_record {
  vertex head_row;        // the row open at the block's start
  unsigned head_pending;  // 1: the row ends in this block, the mask allows it, head_value waits
  W head_value;           // ⊕ of the head row's arcs in this block
  W carry_value;          // ⊕ of the arcs, in this block, of the row open at the block's end
};

// The merge path's products of a tile: product[q] = u(columns[e]) ⊗ weights[e] for the tile's
// arc q < count at e = arc(q), the identity where arc(q) is no_arc (an arc of a masked-out row or
// of a row at or below the floor: never read) or u has no entry. Columns and weights first
// (coalesced: consecutive q of a row are consecutive arcs), then the gathers of u: Items
// independent loads per thread in flight, which is what an SpMV's time is. Returns how many
// arcs this thread read (the statistics' arcs scanned).
inline constexpr arc_index no_arc = ~arc_index(0);
template <class S, class W, int Threads, int Items, class Arc>
__device__ __forceinline__ unsigned tile_products(const csr_view<W>& a, int count, const W* u,
                                                  W* product, Arc arc) {
  vertex col[Items];
  W weight[Items];
  bool on[Items];
  unsigned read = 0;
#pragma unroll
  for (int c = 0; c < Items; ++c) {
    const int q = c * Threads + int(threadIdx.x);
    const arc_index e = q < count ? arc(q) : no_arc;
    on[c] = e != no_arc;
    if (on[c]) {
      col[c] = a.columns[e];
      weight[c] = a.weights[e];
      ++read;
    }
  }
#pragma unroll
  for (int c = 0; c < Items; ++c) {
    const int q = c * Threads + int(threadIdx.x);
    if (q >= count) continue;
    W x = S::identity();
    if (on[c]) {
      const W ux = u[col[c]];
      if (ux != S::identity()) x = S::mul(ux, weight[c]);
    }
    product[q] = x;
  }
  return read;
}

template <class S, class W, int Threads, int Items>
__global__ void __launch_bounds__(Threads)
pull_merge_path(csr_view<W> a, row_ranges ranges, const W* u, W* w, mask_view<W> mask,
                accumulator accum, vertex* improved, unsigned long long* improved_count,
                value_range<W> range, arc_index block_items, pull_block_record<W>* records,
                unsigned long long* arcs_scanned, pull_floor<W> floor) {
  constexpr int tile_items = Threads * Items;
  using scan_t = cub::BlockScan<pull_carry<W>, Threads>;
  // row_end[k]: the end of row i + k relative to the tile's first arc j (exact for the rows
  // that end in the tile, clamped to the tile's length beyond); product[q]: arc j + q's u ⊗ a.
  __shared__ std::uint32_t row_end[tile_items + 1];
  __shared__ W product[tile_items];
  __shared__ typename scan_t::TempStorage scan_temp;
  __shared__ int first_open;  // the tile's first row whose end lies past the tile
  __shared__ unsigned head_pending;
  __shared__ W head_value;
  // Step 2's map from the tile's arcs to the matrix's: bit q of starts is set where a row's
  // arcs in the tile begin, shift[q] there is what turns the row's part positions into arc
  // indices (no_arc: the row is skipped), last_start[b] the last row start in words 0 .. b.
  constexpr int start_words = (tile_items + 31) / 32;
  __shared__ std::uint32_t starts[start_words];
  __shared__ int last_start[start_words];
  __shared__ arc_index shift[tile_items];

  if (floor.by_live_rows && *floor.by_live_rows) return;  // pull_live_rows' turn
  const vertex n = a.n;
  const W floor_value = floor.template value<S>();
  const arc_index begin = arc_index(blockIdx.x) * block_items;
  const arc_index end = std::min(begin + block_items, arc_index(n) + ranges.part_arcs);
  if (threadIdx.x == 0) {
    first_open = tile_items + 1;
    head_pending = 0;
  }
  __syncthreads();

  // The block's first coordinate (Merrill & Garland's merge-path search, Threads-ary): i = the
  // rows whose end lies before `begin`, the first r with r + part_offset(r + 1) >= begin. Each
  // round samples Threads rows of [lo, hi) and keeps the gap where the predicate turns, so a
  // few rounds of one load per thread cover millions of rows.
  vertex lo = 0, hi = n;
  while (lo < hi) {
    const std::uint64_t span = hi - lo;
    const vertex r = lo + vertex(span * threadIdx.x / Threads);
    const int before =
        __syncthreads_count(arc_index(r) + ranges.part_offset(arc_index(r) + 1) < begin);
    if (before == 0) break;  // the answer is lo
    const vertex last_before = lo + vertex(span * unsigned(before - 1) / Threads);
    if (before < Threads) hi = lo + vertex(span * unsigned(before) / Threads);
    lo = last_before + 1;
  }
  vertex i = lo;
  arc_index j = begin - i;
  const vertex head_row = i;
  const bool head_split = i < n && ranges.part_offset(i) < j;  // it began in an earlier block

  pull_running_carry<S, W> running{{i, S::identity()}};
  unsigned long long read = 0;  // arcs this thread loaded
  for (arc_index d = begin; d < end; d += tile_items) {
    const int len = int(std::min<arc_index>(tile_items, end - d));

    // 1. The tile's row ends, rows i, i + 1, ... up to the first whose end lies past the tile
    // (m rows end in it, at most len). Rounds of Threads, 2 Threads, 4 Threads ... rows, so a
    // tile of long rows reads one round and a tile of empty rows at most a few.
    int m = 0;
    for (int base = 0, per = 1;; base += per * Threads, per *= 2) {
      bool open = false;
      for (int c = 0; c < per; ++c) {
        const int k = base + c * Threads + int(threadIdx.x);
        if (k > len) break;
        arc_index rel = arc_index(len);
        if (arc_index(i) + k < n) rel = std::min(ranges.part_offset(arc_index(i) + k + 1) - j, rel);
        row_end[k] = std::uint32_t(rel);
        if (!open && rel + k >= arc_index(len)) {  // row i + k's end lies past the tile
          open = true;
          atomicMin(&first_open, k);
        }
      }
      if (__syncthreads_or(open)) {
        m = first_open;
        break;
      }
    }
    const int arcs = len - m;  // the tile's arcs: j .. j + arcs - 1

    // 2. Products of the tile's arcs. Positions j .. j + arcs - 1 of the path count the part's
    // arcs only; row r's lie at [part_offset(r), part_offset(r + 1)) and its matrix arcs at
    // [first(r), last(r)), so arc index = position + shift(r). A thread per row with arcs in the
    // tile marks where they begin (a bit) and stores the row's shift there -- no_arc when the
    // mask excludes the row or it is at or below the floor -- and each arc finds its row's start
    // as the last marked bit at or before it. Walking the whole rows instead (the part's arcs
    // active, the rest marked off) made the path as long as the matrix's: kron-22's light pulls,
    // with half the arcs, took the whole matrix's time (1.30 against 1.25 ms, H100, ncu and
    // bench run 20, 2026-11-24).
    const bool check_rows = ranges.part != row_part::all || mask.kind != mask_kind::none ||
                            floor.least_input;
    if (check_rows) {
      for (int word = int(threadIdx.x); word < start_words; word += Threads) starts[word] = 0;
      __syncthreads();
      for (int k = int(threadIdx.x); k <= m; k += Threads) {
        // Row i + k's arcs in the tile: [start, end); row m is the one open past the tile.
        const int start = k == 0 ? 0 : int(row_end[k - 1]);
        const int end = k < m ? int(row_end[k]) : arcs;
        if (start >= end) continue;  // no arcs here (also: no row i + m past the last row)
        const vertex r = i + vertex(k);
        shift[start] = mask_allows(mask, r) && floor.above(floor_value, w, r)
                           ? ranges.first(r) - ranges.part_offset(r)
                           : no_arc;
        atomicOr(&starts[start >> 5], 1u << (start & 31));
      }
      __syncthreads();
      if (threadIdx.x < 32) {  // a max-scan of each word's last start, a warp's round at a time
        int carry = -1;
        for (int base = 0; base < start_words; base += 32) {
          const int word = base + int(threadIdx.x);
          const std::uint32_t bits = word < start_words ? starts[word] : 0u;
          int last = bits ? word * 32 + 31 - __clz(int(bits)) : -1;
          for (int offset = 1; offset < 32; offset *= 2) {
            const int before = __shfl_up_sync(~0u, last, offset);
            if (int(threadIdx.x) >= offset) last = max(last, before);
          }
          last = max(last, carry);
          if (word < start_words) last_start[word] = last;
          carry = __shfl_sync(~0u, last, 31);
        }
      }
      __syncthreads();
    }
    read += tile_products<S, W, Threads, Items>(a, arcs, u, product, [&](int q) -> arc_index {
      if (!check_rows) return j + arc_index(q);  // the whole matrix: the path's arcs are its arcs
      const int word = q >> 5;
      const std::uint32_t bits = starts[word] & (~0u >> (31 - (q & 31)));
      const int start = bits ? word * 32 + 31 - __clz(int(bits)) : last_start[word - 1];
      const arc_index by = shift[start];
      return by == no_arc ? no_arc : j + arc_index(q) + by;
    });
    __syncthreads();
    if (threadIdx.x == 0) first_open = tile_items + 1;  // every thread has read it (sync above)

    // 3. Each thread walks Items items of the path from its own coordinate (a search over the
    // tile's row ends in shared memory): an arc adds its product, a row end finishes a row.
    // Rows that begin and end within the thread are written at once; the first row it ends
    // needs the partials of earlier threads and tiles (the scan below).
    const int t0 = std::min(int(threadIdx.x) * Items, len);
    const int t1 = std::min(t0 + Items, len);
    int k = 0;
    {
      int k_hi = m;
      while (k < k_hi) {
        const int mid = (k + k_hi) / 2;
        if (mid + int(row_end[mid]) < t0) k = mid + 1;
        else k_hi = mid;
      }
    }
    int q = t0 - k;
    W acc = S::identity();
    int first_k = -1;
    W first_acc = S::identity();
    for (int p = t0; p < t1; ++p) {
      if (k < m && int(row_end[k]) <= q) {
        if (first_k < 0) {
          first_k = k;
          first_acc = acc;
        } else {
          const vertex r = i + vertex(k);
          if (mask_allows(mask, r))
            pull_write<S>(w, r, acc, accum, improved, improved_count, range);
        }
        acc = S::identity();
        ++k;
      } else {
        acc = S::add(acc, product[q]);
        ++q;
      }
    }

    // 4. Reduce-by-key over the threads' open rows, seeded with this block's earlier tiles:
    // thread t receives the partial of the row open at its start, which is the first row it
    // ends (keys are the same by construction: thread t starts where thread t - 1 stopped).
    pull_carry<W> carry_in;
    scan_t(scan_temp).ExclusiveScan(pull_carry<W>{i + vertex(k), acc}, carry_in,
                                    pull_carry_op<S, W>{}, running);
    if (first_k >= 0) {
      const vertex r = i + vertex(first_k);
      const W value = S::add(carry_in.value, first_acc);
      if (mask_allows(mask, r)) {
        if (r == head_row && head_split) {  // the rest of the row is in earlier blocks
          head_value = value;
          head_pending = 1;
        } else {
          pull_write<S>(w, r, value, accum, improved, improved_count, range);
        }
      }
    }
    __syncthreads();  // row_end, product and scan_temp are reused by the next tile
    i += vertex(m);
    j += arc_index(arcs);
  }

  if (threadIdx.x == 0) {  // thread 0 holds the running carry (and sees head_*: sync above)
    pull_block_record<W> record;
    record.head_row = head_row;
    record.head_pending = head_pending;
    record.head_value = head_pending ? head_value : S::identity();
    record.carry_value = running.total.value;
    records[blockIdx.x] = record;
  }
  if (arcs_scanned) add_block_sum(arcs_scanned, read);
}

// The rows that began in an earlier block, a warp each: the row open at block b's start began
// in block first = (r + part_offset(r)) / block_items (its first arc's path position), and every
// block from first to b - 1 ended with it open; their carries and block b's head partial, in
// path order, make the whole row, written once.
template <class S, class W>
__global__ void pull_fixup(row_ranges ranges, const pull_block_record<W>* records, unsigned blocks,
                           arc_index block_items, W* w, accumulator accum, vertex* improved,
                           unsigned long long* improved_count, value_range<W> range,
                           const unsigned* skip = nullptr) {
  if (skip && *skip) return;  // the merge path did not run
  const std::size_t b = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  if (b >= blocks || !records[b].head_pending) return;  // uniform within the warp
  const vertex r = records[b].head_row;
  const std::size_t first = std::size_t((arc_index(r) + ranges.part_offset(r)) / block_items);
  W acc = S::identity();
  for (std::size_t k = first + lane; k < b; k += 32) acc = S::add(acc, records[k].carry_value);
  for (int offset = 16; offset > 0; offset /= 2)
    acc = S::add(acc, __shfl_down_sync(0xffffffffu, acc, offset));
  if (lane == 0)
    pull_write<S>(w, r, S::add(acc, records[b].head_value), accum, improved, improved_count,
                  range);
}

// A tile shape for pull_merge_path (the default from tuning.hpp; tests use small ones so that
// small graphs cross tiles and blocks).
template <int Threads, int Items>
struct pull_policy {
  static constexpr int threads = Threads;
  static constexpr int items = Items;
};
using pull_default_policy = pull_policy<tuning::pull_threads, tuning::pull_items_per_thread>;

// One lane's share of a row's pull: its ⊕ so far, the arcs it loaded (the statistics' arcs
// scanned), and whether one of them lay past the row's bound (row_bound: so do the row's later
// arcs, and the lane stops).
template <class W>
struct lane_pull {
  W acc;
  unsigned long long read = 0;
  bool past_bound = false;
};

// ⊕ of u(col) ⊗ weight over the arcs first + k * stride < last, k < Items, within the row's
// bound: the loads first, then the gathers of u (Items independent chains in flight per thread).
// With a bound the weights come first and only the arcs within it load their columns (in
// kron-22's second bounded pull, first source, 3.2M of the 39.4M arcs read are within their
// bounds): kron-22's solves 4.97 -> 4.84 and 6.18 -> 5.71 ms in one A/B call (H100, 2026-11-24).
// Without a bound the columns load beside the weights, not after them.
template <class S, class W, unsigned Items>
__device__ __forceinline__ void pull_arcs(const csr_view<W>& a, const W* u, arc_index first,
                                          arc_index last, arc_index stride,
                                          const row_bound<S, W>& bound, lane_pull<W>& p) {
  vertex col[Items];
  W weight[Items];
  bool kept[Items];
  if (bound.on) {
#pragma unroll
    for (unsigned c = 0; c < Items; ++c) {
      kept[c] = first + stride * c < last;
      if (kept[c]) {
        weight[c] = a.weights[first + stride * c];
        ++p.read;
      }
    }
#pragma unroll
    for (unsigned c = 0; c < Items; ++c)
      if (kept[c] && !bound.keeps(weight[c])) {
        kept[c] = false;
        p.past_bound = true;
      }
#pragma unroll
    for (unsigned c = 0; c < Items; ++c)
      if (kept[c]) col[c] = a.columns[first + stride * c];
  } else {
#pragma unroll
    for (unsigned c = 0; c < Items; ++c) {
      kept[c] = first + stride * c < last;
      if (kept[c]) {
        col[c] = a.columns[first + stride * c];
        weight[c] = a.weights[first + stride * c];
        ++p.read;
      }
    }
  }
#pragma unroll
  for (unsigned c = 0; c < Items; ++c)
    if (kept[c]) {
      const W x = u[col[c]];
      if (x != S::identity()) p.acc = S::add(p.acc, S::mul(x, weight[c]));
    }
}

// Pull by a group of lanes per row, for views whose rows are all short (roads, grids, meshes,
// uniform random graphs): `group` consecutive lanes of a warp take one row -- CSR-vector (Bell &
// Garland, "Implementing Sparse Matrix-Vector Multiplication on Throughput-Oriented Processors",
// SC'09, section 4), with a group of one lane their CSR-scalar. The group is sized so that each
// lane reads about Items arcs (pull_group_log2: one lane on a degree-4 grid). Each lane loads its
// Items arcs before their Items gathers of u, so a warp keeps 32 independent offsets -> arcs -> u
// chains in flight, with no shared memory or barrier between them; the group ⊕-reduces by
// shuffles and its first lane writes the row. On the H100 this beat both CSR-stream row blocks
// (shared-memory tiles, two barriers per tile) and cuSPARSE's CSR SpMV on grids, and matched row
// blocks on degree-7 rows (bench/RESULTS.md, bench/tune/pull_short_rows.cu). A group's time is
// its row's length, so one long row stalls its warp: the automatic choice takes this kernel only
// when no row is longer than tuning::pull_group_max_row.
//
// The light/heavy part narrows each row to [first, last); a row the mask excludes, or that is at
// or below the floor, is skipped without reading its arcs.
template <class S, class W, int Items>
__global__ void __launch_bounds__(tuning::pull_group_threads)
pull_group_per_row(csr_view<W> a, row_ranges ranges, const W* u, W* w, mask_view<W> mask,
                   accumulator accum, unsigned group_log2, vertex* improved,
                   unsigned long long* improved_count, value_range<W> range,
                   unsigned long long* arcs_scanned, pull_floor<W> floor) {
  const unsigned group = 1u << group_log2;
  const std::uint64_t thread = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t row = thread >> group_log2;
  const unsigned lane = unsigned(thread) & (group - 1);
  const bool allowed = row < a.n && mask_allows(mask, vertex(row));
  const W current = allowed ? floor.current(w, vertex(row)) : W();
  const row_bound<S, W> bound = bound_of<S>(floor, floor.template least<S>(), current);
  const bool live = allowed && floor.above(floor.template value<S>(), current) &&
                    opens(a, bound, vertex(row));
  lane_pull<W> p{S::identity()};
  if (live) {
    const arc_index first = ranges.first(vertex(row)), last = ranges.last(vertex(row));
    for (arc_index run = first + lane; run < last && !p.past_bound;
         run += arc_index(Items) * group)
      pull_arcs<S, W, Items>(a, u, run, last, group, bound, p);
  }
  // Every lane of the warp takes part (rows past n and masked rows add the identity); a group
  // is `group` consecutive lanes, so width = group keeps the shuffles inside it.
  W acc = p.acc;
  for (unsigned s = group / 2; s > 0; s /= 2)
    acc = S::add(acc, __shfl_down_sync(0xffffffffu, acc, int(s), int(group)));
  if (live && lane == 0)
    pull_write<S>(w, vertex(row), acc, accum, improved, improved_count, range);
  if (arcs_scanned) add_block_sum(arcs_scanned, p.read);
}

// A floored pull (pull_floor) over a view with long rows, visiting only the rows that may
// change. The merge path walks every row end and arc of the view whatever the floor excludes,
// and its time is those instructions: kron-22's heavy pull with 1.3% of its arcs live took 1.04
// ms against 1.19 with none excluded (ncu, 2026-11-24: SM throughput 59%, L2 6%). Here the 32
// lanes of a warp test 32 consecutive rows (mask, floor, an empty part) at once; a lane pulls
// its row's first pull_live_short arcs alone (loads, then gathers), a group of 8 lanes the rest
// of a row with at most pull_live_group_row arcs left (four such rows at once), and the warp
// takes the longer rests in turn, each lane loading pull_live_items arcs before their gathers, a
// shuffle reduction, the row written by lane 0. A row longer than pull_live_long_row arcs (a hub:
// one warp would walk it alone) is listed for pull_long_rows. pull_live_choice decides on the
// device which of this and the merge path runs a pull: the merge path when nearly every arc is live
// (the first light pulls of kron-22's second source: 1.32 ms against 1.03 + 0.40 for the long
// rows here), this when fewer are (its first source's heavy pull: 0.20 ms against 1.19; ncu,
// 2026-11-24).
inline constexpr unsigned pull_live_items = 4;
inline constexpr arc_index pull_live_short = 8;
inline constexpr arc_index pull_live_group_row = 64;  // 8 lanes x 8 arcs
inline constexpr arc_index pull_live_long_row = 32 * pull_live_items * 8;
// A long row is pulled in chunks of this many arcs, a block each, which combine into the row's
// record (min monoids; other semirings keep a block per row: their ⊕ in another order could
// change a float sum). A block per whole row left the biggest hubs' blocks running alone at
// the end: 0.25-0.39 ms after the warps in kron-22's pulls where nearly every row is live.
inline constexpr arc_index pull_long_chunk = 4 * tuning::block_threads * pull_live_items;

// What pull_live_rows lists for pull_long_rows: a long row, its ⊕ so far and its chunks not yet
// combined; and each chunk, as (record, chunk index).
template <class W>
struct pull_long_row {
  vertex row;
  unsigned pending;  // chunks not yet combined; the block that takes it to 0 writes the row
  W value;
};
struct pull_long_part {
  unsigned record, chunk;
};
// The long rows' scratch of a pull: counts, then records and chunks (pull_dispatch sizes it).
template <class W>
struct pull_long_rows_list {
  unsigned long long* rows;    // [0]: records listed, [1]: chunks listed
  pull_long_row<W>* records;
  pull_long_part* parts;
};
// pull_live_choice samples one arc per thread of its block (a binary search each: 2,048 samples,
// eight searches per thread, took 89 us on kron-22, a tenth of the pull it chose), and picks
// pull_live_rows when at most pull_live_share of them lie in rows that may change. Views of
// fewer than pull_live_min_arcs arcs keep the merge path: their pulls take tens of
// microseconds, of which the choice would be a fair share (soc-Slashdot, 0.87M arcs: 35 us).
// The share: 0.5 / 0.75 / always, kron-22's two sources 7.01 / 6.82 / 6.73 and 8.64 / 8.18 /
// 8.54 ms, kron-20's 3.18 / 2.78 / 2.86 and 3.14 / 3.02 / 3.14 (H100, one call, 2026-11-24;
// bench/results/2026-11-24-h100-run19/sweeps/ab-pull-live-share.txt): where nearly every arc
// is live, the hubs' rows (a block each, after the warps) cost more than the merge path saves.
inline constexpr unsigned pull_live_samples = tuning::block_threads;
inline constexpr double pull_live_share = 0.75;
inline constexpr arc_index pull_live_min_arcs = arc_index(1) << 23;

// One block: the share of pull_live_samples arcs, evenly spaced over the view (each one's row
// found by a binary search over the row offsets), that lie in the part of a row that may change;
// *choice = 1 (pull_live_rows) when it is at most pull_live_share, or when `forced`
// (pull_method::live_rows).
template <class S, class W>
__global__ void __launch_bounds__(tuning::block_threads)
pull_live_choice(csr_view<W> a, row_ranges ranges, const W* w, mask_view<W> mask,
                 pull_floor<W> floor, bool forced, unsigned* choice) {
  if (forced) {
    if (threadIdx.x == 0) *choice = 1;
    return;
  }
  using reduce = cub::BlockReduce<unsigned, tuning::block_threads>;
  __shared__ typename reduce::TempStorage storage;
  const W least = floor.template least<S>();
  unsigned in_part = 0, live = 0;
  static_assert(pull_live_samples % tuning::block_threads == 0, "whole rounds of the block");
  for (unsigned k = threadIdx.x; k < pull_live_samples; k += blockDim.x) {
    const arc_index e = arc_index((double(k) + 0.5) * double(a.arcs) / pull_live_samples);
    vertex lo = 0, hi = a.n;  // the row of arc e: the last r with offsets[r] <= e
    while (hi - lo > 1) {
      const vertex mid = lo + (hi - lo) / 2;
      if (a.row_offsets[mid] <= e) lo = mid;
      else hi = mid;
    }
    if (e < a.arcs && ranges.first(lo) <= e && e < ranges.last(lo)) {
      ++in_part;
      live += mask_allows(mask, lo) &&
              bound_of<S>(floor, least, floor.current(w, lo)).keeps(a.weights[e]);
    }
  }
  __syncthreads();
  const unsigned parts = reduce(storage).Sum(in_part);
  __syncthreads();
  const unsigned lives = reduce(storage).Sum(live);
  if (threadIdx.x == 0) *choice = double(lives) <= pull_live_share * double(parts) ? 1u : 0u;
}

// pull_live_rows waits on chains of dependent loads, so warps in flight matter more than
// registers: four blocks per SM (64 registers, no spill) against three at the 79 registers
// ptxas takes unbounded, kron-22's second source's seven pulls 2.14 -> 1.97 ms and its solve
// 4.29 / 4.48 -> 4.07 / 4.29 ms; six blocks (40 registers, 340 bytes of spill stores) 3.77 ms
// of pulls (H100, one call, 2026-11-25, bench/results/2026-11-25-h100-run26/sweeps/). 64-bit
// values would spill at four (104-156 bytes, ptxas): they keep three.
template <class W>
inline constexpr int pull_live_min_blocks = sizeof(W) <= 4 ? 4 : 3;

template <class S, class W>
__global__ void __launch_bounds__(tuning::block_threads, pull_live_min_blocks<W>)
pull_live_rows(csr_view<W> a, row_ranges ranges, const W* u, W* w, mask_view<W> mask,
               accumulator accum, pull_floor<W> floor, vertex* improved,
               unsigned long long* improved_count, value_range<W> range,
               pull_long_rows_list<W> long_rows, unsigned long long* arcs_scanned) {
  if (!*floor.by_live_rows) return;  // the merge path's turn
  const W floor_value = floor.template value<S>();
  const W least = floor.template least<S>();
  const unsigned lane = threadIdx.x % 32;
  const std::uint64_t warps = std::uint64_t(gridDim.x) * blockDim.x / 32;
  unsigned long long read = 0;  // the arcs this thread loaded
  for (std::uint64_t base = (blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x) / 32 * 32;
       base < a.n; base += warps * 32) {
    const vertex row = vertex(base + lane);
    arc_index first = 0, last = 0;
    const bool in_view = base + lane < a.n && mask_allows(mask, row);
    const W current = in_view ? floor.current(w, row) : W();
    const bool allowed = in_view && floor.above(floor_value, current) &&
                         opens(a, bound_of<S>(floor, least, current), row);
    if (allowed) {
      first = ranges.first(row);
      last = ranges.last(row);
    }
    const arc_index length = last - first;
    W head = S::identity();  // the ⊕ of the row's arcs this lane read alone
    if (length > pull_live_long_row) {
      const arc_index chunk = S::is_min_monoid ? pull_long_chunk : length;
      const unsigned chunks = unsigned((length + chunk - 1) / chunk);
      const unsigned record = unsigned(atomicAdd(&long_rows.rows[0], 1ull));
      const unsigned part = unsigned(atomicAdd(&long_rows.rows[1], (unsigned long long)chunks));
      long_rows.records[record] = {row, chunks, S::identity()};
      for (unsigned c = 0; c < chunks; ++c) long_rows.parts[part + c] = {record, c};
    } else if (allowed) {
      // Every lane reads its row's first pull_live_short arcs alone. Where the bound ends
      // among them (nearly every row of a late pull: kron-22's last light pulls read 1.1 arcs
      // per open row, bench/tune/pull_bound_model.cpp), or the row has no more (an empty one
      // too: accumulator::none writes it), the lane writes the row; the rest of a longer row
      // goes to its group or the warp below, from arc first + pull_live_short on. A warp then
      // waits for one chain of dependent loads (weights, columns, u) per step of 32 rows where
      // it waited for one per group of four and per warp-shared row. kron-22's second source:
      // its seven pulls 2.54 -> 2.14 ms (ncu), solves 3.79 / 3.92 -> 3.47 / 3.65 ms and 4.93 /
      // 4.84 -> 4.39 / 4.45 on the two sources (H100, one call, two passes, 2026-11-25).
      lane_pull<W> p{S::identity()};
      pull_arcs<S, W, unsigned(pull_live_short)>(a, u, first, min(last, first + pull_live_short),
                                                 1, bound_of<S>(floor, least, current), p);
      read += p.read;
      if (p.past_bound || length <= pull_live_short) {
        pull_write<S>(w, row, p.acc, accum, improved, improved_count, range);
        last = first;  // finished
      } else {
        head = p.acc;
        first += pull_live_short;
      }
    }
    const arc_index rest = last - first;  // a long row's: listed above
    // Rows with up to pull_live_group_row arcs left: an 8-lane group each, four rows at once
    // (the warp's g-th group takes the g-th such row of the round).
    const bool grouped = rest > 0 && rest <= pull_live_group_row;
    for (unsigned pending = __ballot_sync(~0u, grouped); pending;) {
      const unsigned group = lane / 8, member = lane % 8;
      const unsigned k = __fns(pending, 0, int(group) + 1);  // ~0u: no row for this group
      const unsigned from = k < 32 ? k : 0;
      const arc_index f = __shfl_sync(~0u, first, int(from)), l = __shfl_sync(~0u, last, int(from));
      const W limit = __shfl_sync(~0u, current, int(from));
      const row_bound<S, W> bound = bound_of<S>(floor, least, limit);
      lane_pull<W> p{S::identity()};
      if (k < 32)
        for (arc_index run = f + member; run < l && !p.past_bound; run += 8 * pull_live_items)
          pull_arcs<S, W, pull_live_items>(a, u, run, l, 8, bound, p);
      read += p.read;
      W acc = p.acc;
      for (int offset = 4; offset > 0; offset /= 2)
        acc = S::add(acc, __shfl_down_sync(~0u, acc, offset, 8));
      acc = S::add(acc, __shfl_sync(~0u, head, int(from)));
      if (k < 32 && member == 0)
        pull_write<S>(w, vertex(base + k), acc, accum, improved, improved_count, range);
      for (int taken = 0; taken < 4 && pending; ++taken) pending &= pending - 1;
    }
    const bool shared = rest > pull_live_group_row && rest <= pull_live_long_row;
    for (unsigned pending = __ballot_sync(~0u, shared); pending; pending &= pending - 1) {
      const int k = __ffs(pending) - 1;
      const arc_index f = __shfl_sync(~0u, first, k), l = __shfl_sync(~0u, last, k);
      const row_bound<S, W> bound = bound_of<S>(floor, least, __shfl_sync(~0u, current, k));
      lane_pull<W> p{S::identity()};
      for (arc_index run = f + lane; run < l && !p.past_bound; run += 32 * pull_live_items)
        pull_arcs<S, W, pull_live_items>(a, u, run, l, 32, bound, p);
      read += p.read;
      W acc = p.acc;
      for (int offset = 16; offset > 0; offset /= 2)
        acc = S::add(acc, __shfl_down_sync(~0u, acc, offset));
      acc = S::add(acc, __shfl_sync(~0u, head, k));
      if (lane == 0)
        pull_write<S>(w, vertex(base + unsigned(k)), acc, accum, improved, improved_count, range);
    }
  }
  if (arcs_scanned) add_block_sum(arcs_scanned, read);
}

// The long rows pull_live_rows listed (known on the device only), in chunks of pull_long_chunk
// arcs, a block per chunk, grid-stride, each thread loading pull_live_items arcs before their
// gathers. A chunk's ⊕ goes into its row's record atomically; the block that combines a row's
// last chunk writes the row, once, as every pull does (pull_write).
template <class S, class W>
__global__ void __launch_bounds__(tuning::block_threads)
pull_long_rows(csr_view<W> a, row_ranges ranges, const W* u, W* w, accumulator accum,
               pull_floor<W> floor, pull_long_rows_list<W> long_rows, vertex* improved,
               unsigned long long* improved_count, value_range<W> range,
               unsigned long long* arcs_scanned) {
  constexpr unsigned threads = tuning::block_threads;
  using reduce = cub::BlockReduce<W, threads>;
  __shared__ typename reduce::TempStorage storage;
  const unsigned long long listed = long_rows.rows[1];  // 0 when the merge path ran the pull
  const W least = floor.template least<S>();
  unsigned long long read = 0;
  for (unsigned long long k = blockIdx.x; k < listed; k += gridDim.x) {
    const pull_long_part part = long_rows.parts[k];
    pull_long_row<W>* record = &long_rows.records[part.record];
    const vertex r = record->row;
    const arc_index row_first = ranges.first(r), row_last = ranges.last(r);
    const arc_index chunk = S::is_min_monoid ? pull_long_chunk : row_last - row_first;
    const arc_index first = row_first + arc_index(part.chunk) * chunk;
    const arc_index last = std::min(row_last, first + chunk);
    // w(r) is written only after every chunk has been combined (below), so each reads the
    // row's value before the pull. A chunk that begins past the row's bound reads nothing else.
    const row_bound<S, W> bound = bound_of<S>(floor, least, floor.current(w, r));
    lane_pull<W> p{S::identity()};
    if (bound.keeps(a.weights[first]))
      for (arc_index run = first + threadIdx.x; run < last && !p.past_bound;
           run += threads * pull_live_items)
        pull_arcs<S, W, pull_live_items>(a, u, run, last, threads, bound, p);
    read += p.read;
    const W acc = reduce(storage).Reduce(p.acc, monoid_op<S>{});
    if (threadIdx.x == 0) {
      if (acc != S::identity()) S::atomic_add(&record->value, acc);
      __threadfence();  // this chunk's ⊕ is in the record before its count goes down
      if (atomicSub(&record->pending, 1u) == 1u) {  // the row's last chunk
        __threadfence();
        const W value = *static_cast<volatile W*>(&record->value);
        pull_write<S>(w, r, value, accum, improved, improved_count, range);
      }
    }
    __syncthreads();  // the reduction's storage is free for the next chunk
  }
  if (arcs_scanned) add_block_sum(arcs_scanned, read);
}

template <class W>
__global__ void assign_masked(W* w, vertex n, mask_view<W> mask, W value, bool replace, W cleared) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    if (mask_allows(mask, vertex(i))) w[i] = value;
    else if (replace) w[i] = cleared;
  }
}

template <class W>
__global__ void gather_values(const vertex* idx, std::size_t count, const W* in, vertex* out_idx,
                              W* out_val) {
  for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < count;
       k += std::size_t(gridDim.x) * blockDim.x) {
    const vertex i = idx[k];
    out_idx[k] = i;
    out_val[k] = in[i];
  }
}

// select over a listed pattern: each listed i whose value is in range is written once, with its
// value; the stamp array remembers the call that wrote i last (as list_once).
template <class W>
__global__ void select_listed(const vertex* pattern, std::size_t count, const W* in,
                              value_range<W> range, std::uint32_t* stamps, std::uint32_t stamp,
                              vertex* out_idx, W* out_val, unsigned long long* out_count) {
  for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < count;
       k += std::size_t(gridDim.x) * blockDim.x) {
    const vertex i = pattern[k];
    const W x = in[i];
    if (!in_range(x, range) || atomicExch(&stamps[i], stamp) == stamp) continue;
    const unsigned long long at = append_slot(out_count);
    out_idx[at] = i;
    out_val[at] = x;
  }
}

// w[idx[k]] = val[k]; and, when `least` is given, *least = min(*least, min_k val[k]) (a pull's
// floor, pull_floor). Launched with tuning::block_threads threads.
template <class W>
__global__ void scatter_values(const vertex* idx, const W* val, std::size_t count, W* w,
                               W* least = nullptr) {
  W mine = infinity<W>();
  for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < count;
       k += std::size_t(gridDim.x) * blockDim.x) {
    const W x = val[k];
    w[idx[k]] = x;
    if (x < mine) mine = x;
  }
  if (!least) return;  // the same in every thread
  using reduce = cub::BlockReduce<W, tuning::block_threads>;
  __shared__ typename reduce::TempStorage storage;
  mine = reduce(storage).Reduce(mine, monoid_op<min_plus<W>>{});
  if (threadIdx.x == 0 && mine < infinity<W>()) atomic_min(least, mine);
}

// w<mask> = accum(w, t) elementwise, where t is produced per index by `make`.
template <class S, class W, class Make>
__global__ void ewise_kernel(W* w, vertex n, mask_view<W> mask, accumulator accum, Make make,
                             bool replace) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    if (!mask_allows(mask, vertex(i))) {
      if (replace) w[i] = S::identity();
      continue;
    }
    const W t = make(vertex(i));
    const W old = w[i];
    if (accum == accumulator::none) w[i] = t;
    else if (t == S::identity()) w[i] = old;
    else if (old == S::identity()) w[i] = t;
    else if (accum == accumulator::min) w[i] = t < old ? t : old;
    else w[i] = old + t;
  }
}

template <class S, class W>
struct ewise_add_op {
  const W* a;
  const W* b;
  __device__ W operator()(vertex i) const {
    const W x = a[i], y = b[i];
    if (x == S::identity()) return y;
    if (y == S::identity()) return x;
    return S::add(x, y);
  }
};
template <class S, class W>
struct ewise_mult_op {
  const W* a;
  const W* b;
  __device__ W operator()(vertex i) const {
    const W x = a[i], y = b[i];
    if (x == S::identity() || y == S::identity()) return S::identity();
    return S::mul(x, y);
  }
};
template <class W>
struct apply_op {
  const W* u;
  unary_op f;
  W s;
  __device__ W operator()(vertex i) const {
    const W x = u[i];
    if (x == infinity<W>()) return x;
    switch (f) {
      case unary_op::add_scalar: return saturating_add(x, s);
      case unary_op::min_scalar: return s < x ? s : x;
      case unary_op::max_scalar: return x < s ? s : x;
      default: return x;
    }
  }
};

template <class W>
struct in_range_pred {
  const W* values;
  value_range<W> range;
  __device__ bool operator()(vertex i) const { return in_range(values[i], range); }
};
template <class W>
struct range_or_identity {
  const W* values;
  value_range<W> range;
  __host__ __device__ W operator()(vertex i) const {
#if defined(__CUDA_ARCH__)
    const W x = values[i];
    return in_range(x, range) ? x : infinity<W>();
#else
    return infinity<W>();
#endif
  }
};
template <class S, class W>
struct present_or_identity {
  const W* values;
  __host__ __device__ W operator()(vertex i) const {
#if defined(__CUDA_ARCH__)
    return values[i];
#else
    return S::identity();
#endif
  }
};
template <class W>
struct present_flag {
  const W* values;
  __host__ __device__ std::uint64_t operator()(vertex i) const {
#if defined(__CUDA_ARCH__)
    return values[i] != infinity<W>() ? 1 : 0;
#else
    return 0;
#endif
  }
};

template <class W>
row_ranges ranges_of(const csr_view<W>& view, const matrix_operand<W>& a, bool transposed) {
  const arc_index* split = nullptr;
  if (a.part != row_part::all)
    split = transposed ? a.split->transpose_rows() : a.split->rows();
  return {view.row_offsets, split, a.part, nullptr, a.part == row_part::all ? view.arcs : 0};
}

// ranges_of with what the merge-path pull needs of a part: the light rows' prefix and the
// part's arcs, which the split computes on a pull's first call and keeps (a scan and a round
// trip). A pull by a group of lanes per row (pull_by_group_per_row) never reads them.
template <class W>
row_ranges pull_ranges_of(const csr_view<W>& view, const matrix_operand<W>& a, bool transposed,
                          const descriptor& desc, gpu_context& ctx) {
  row_ranges r = ranges_of(view, a, transposed);
  if (a.part != row_part::all && !pull_by_group_per_row(view, desc)) {
    arc_index light_arcs = 0;
    r.light_before = a.split->light_before(view, transposed, light_arcs, ctx);
    r.part_arcs = a.part == row_part::light ? light_arcs : view.arcs - light_arcs;
  }
  return r;
}

// The largest W at most x (x a double that need not be a W: a weight statistic, or Δ).
template <class W>
W round_down(double x) {
  if constexpr (std::is_integral_v<W>) {
    if (!(x < double(std::numeric_limits<W>::max()))) return std::numeric_limits<W>::max();
    if (!(x > double(std::numeric_limits<W>::lowest()))) return std::numeric_limits<W>::lowest();
    return static_cast<W>(std::floor(x));
  } else {
    W c = static_cast<W>(x);
    if (double(c) > x) c = std::nextafter(c, -std::numeric_limits<W>::infinity());
    return c;
  }
}

// A lower bound of the weights in operand a's part (a pull floor's second operand): the
// matrix's least weight, and for the heavy part Δ as well (its arcs have double(w) > Δ). The
// statistics are doubles, exact for every W but 64-bit integers, whose double may lie above the
// weight by half a step: one step below it is a bound.
template <class W>
W least_weight_of(const device_matrix<W>& A, const matrix_operand<W>& a) {
  double least = A.stats().min_weight;
  if constexpr (std::is_integral_v<W> && sizeof(W) == 8)
    least = std::nextafter(least, -std::numeric_limits<double>::infinity());
  if (a.part == row_part::heavy && a.split) least = std::max(least, a.split->delta());
  return round_down<W>(least);
}

inline void check_launch() { TROPIC_CUDA_CHECK(cudaGetLastError()); }

// The current device's SM count: grids are sized per SM, never for one GPU's count.
inline unsigned sm_count() {
  int device = 0, sms = 0;
  TROPIC_CUDA_CHECK(cudaGetDevice(&device));
  TROPIC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return unsigned(std::max(sms, 1));
}

// The blocks of `threads` threads that the current device holds at once running `kernel`.
template <class Kernel>
unsigned resident_blocks(Kernel kernel, int threads) {
  int per_sm = 0;
  TROPIC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  return unsigned(std::max(per_sm, 1)) * sm_count();
}

// scan[j] = the arcs of u's first j rows in `ranges`' part, j <= k (CUB's scan over the row
// lengths), in the context's temporary storage: the load-balanced push's partition. scan[k], the
// total, stays on the device (the push reads it there) unless the direction needs it.
template <class W>
arc_index* frontier_scan(const sparse_vector<W>& u, row_ranges ranges, gpu_context& ctx) {
  const std::size_t k = u.nvals();
  cudaStream_t s = ctx.stream();
  auto lengths = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0),
                                                 frontier_row_length<W>{u.indices(), k, ranges});
  std::size_t scan_bytes = 0;
  TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, lengths,
                                                  static_cast<arc_index*>(nullptr), k + 1, s));
  const std::size_t scan_offset = (scan_bytes + 255) / 256 * 256;
  char* temp = static_cast<char*>(ctx.temp(scan_offset + (k + 1) * sizeof(arc_index)));
  arc_index* scan = reinterpret_cast<arc_index*>(temp + scan_offset);
  TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, scan_bytes, lengths, scan, k + 1, s));
  return scan;
}

// frontier_scan's total read back (one host round trip).
inline arc_index frontier_scan_total(const arc_index* scan, std::size_t k, gpu_context& ctx) {
  return ctx.read_word(scan + k);  // arc_index is std::uint64_t
}

// Shared tail of vxm/mxv: read the improved count (the one host round trip of the call).
template <class W>
void finish_improved(sparse_vector<W>* improved, unsigned long long* count, gpu_context& ctx) {
  if (improved) improved->set_nvals(static_cast<std::size_t>(ctx.read_counter()));
  (void)count;
}

// Pull over `view` (rows = output positions) from dense u. Policy: the merge path's tile shape;
// block_items: its path items per block, 0 for one block per resident slot of the device;
// group_log2: log2 of pull_group_per_row's lanes per row, negative for pull_group_log2's choice
// (tests pass small tiles and blocks and every group size).
template <class S, class W, class Policy = pull_default_policy>
void pull_dispatch(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum,
                   const csr_view<W>& view, row_ranges ranges, const W* u,
                   const descriptor& desc, gpu_context& ctx, sparse_vector<W>* improved,
                   value_range<W> improved_range, op_counters* counters,
                   arc_index block_items = 0, int group_log2 = -1, pull_floor<W> floor = {}) {
  cudaStream_t s = ctx.stream();
  const vertex n = view.n;
  if (desc.replace && mask.kind != mask_kind::none) {
    mask_view<W> inverse = mask;
    inverse.complement = !mask.complement;
    assign_masked<<<blocks_for(n), tuning::block_threads, 0, s>>>(w.data(), n, inverse,
                                                                 S::identity(), false, S::identity());
    check_launch();
  }
  unsigned long long* count =
      improved ? reinterpret_cast<unsigned long long*>(ctx.zeroed_counter()) : nullptr;
  vertex* list = improved ? improved->indices() : nullptr;
  if (n > 0 && pull_by_group_per_row(view, desc)) {
    const unsigned log2 = group_log2 >= 0 ? unsigned(group_log2) : pull_group_log2(view);
    constexpr std::uint64_t threads = tuning::pull_group_threads;
    const std::uint64_t grid = ((std::uint64_t(n) << log2) + threads - 1) / threads;
    pull_group_per_row<S, W, tuning::pull_group_items><<<unsigned(grid), threads, 0, s>>>(
        view, ranges, u, w.data(), mask, accum, log2, list, count, improved_range,
        ctx.arcs_scanned(), floor);
    check_launch();
  } else if (n > 0) {
    if (ranges.part != row_part::all && !ranges.light_before)
      throw error(error_code::invalid_value, "pull: a light or heavy part without pull_ranges_of");
    const arc_index total = arc_index(n) + ranges.part_arcs;  // path items: row ends and arcs
    constexpr int threads = Policy::threads, items = Policy::items;
    constexpr arc_index tile = arc_index(threads) * items;
    if (block_items == 0) {
      // As many blocks as the device holds at once, each an equal run of whole tiles' worth of
      // items: one search per block, and no second wave to leave SMs idle at the end. The grid
      // size only balances the work; any value gives the same result.
      static const int per_sm = [] {
        int b = 0;
        TROPIC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &b, pull_merge_path<S, W, threads, items>, threads, 0));
        return std::max(b, 1);
      }();
      const arc_index slots = arc_index(sm_count()) * arc_index(per_sm);
      const arc_index blocks = std::min(slots, (total + tile - 1) / tile);
      block_items = (total + blocks - 1) / blocks;
    }
    const arc_index grid = (total + block_items - 1) / block_items;  // every block non-empty
    if (grid > arc_index(std::numeric_limits<int>::max()))
      throw error(error_code::invalid_value,
                  "pull: " + std::to_string(block_items) + " path items per block make " +
                      std::to_string(grid) + " blocks, more than a grid holds");
    // A floored pull may run as pull_live_rows instead, chosen on the device by
    // pull_live_choice: every kernel is launched, and those not chosen leave at once. Scratch:
    // the merge path's block records, then the long rows' counts, the choice, the long rows'
    // records and their chunks.
    const bool live_rows =
        desc.pull == pull_method::live_rows || (floor.least_input && view.arcs >= pull_live_min_arcs &&
                                                desc.pull == pull_method::automatic);
    const std::size_t record_bytes =
        (std::size_t(grid) * sizeof(pull_block_record<W>) + 7) / 8 * 8;
    // pull_live_rows' long rows: at most arcs / pull_live_long_row of them, with at most that
    // many chunks besides arcs / pull_long_chunk.
    const std::size_t long_records = std::size_t(view.arcs / pull_live_long_row) + 1;
    const std::size_t long_parts = long_records + std::size_t(view.arcs / pull_long_chunk);
    const std::size_t long_record_bytes = (long_records * sizeof(pull_long_row<W>) + 7) / 8 * 8;
    auto* scratch = static_cast<unsigned char*>(ctx.pull_blocks(
        record_bytes + (live_rows ? 3 * sizeof(unsigned long long) + long_record_bytes +
                                        long_parts * sizeof(pull_long_part)
                                  : 0)));
    auto* records = reinterpret_cast<pull_block_record<W>*>(scratch);
    if (live_rows) {
      auto* counts = reinterpret_cast<unsigned long long*>(scratch + record_bytes);
      auto* choice = reinterpret_cast<unsigned*>(counts + 2);
      unsigned char* lists = reinterpret_cast<unsigned char*>(counts + 3);
      const pull_long_rows_list<W> long_rows{
          counts, reinterpret_cast<pull_long_row<W>*>(lists),
          reinterpret_cast<pull_long_part*>(lists + long_record_bytes)};
      TROPIC_CUDA_CHECK(cudaMemsetAsync(counts, 0, 2 * sizeof *counts, s));
      pull_live_choice<S><<<1, tuning::block_threads, 0, s>>>(
          view, ranges, w.data(), mask, floor, desc.pull == pull_method::live_rows, choice);
      check_launch();
      floor.by_live_rows = choice;
      // Grid-stride over the rows with the blocks the device holds at once: when the merge path
      // runs the pull, this kernel's blocks only leave, and a block per 256 rows (16k on kron-22)
      // took 12.7 us to do so (ncu, H100, 2026-11-24).
      static const unsigned live_rows_blocks =
          resident_blocks(pull_live_rows<S, W>, tuning::block_threads);
      const unsigned live_grid = unsigned(std::min<std::size_t>(
          live_rows_blocks, blocks_for((std::size_t(n) + 31) / 32 * 32)));
      pull_live_rows<S><<<live_grid, tuning::block_threads, 0, s>>>(
          view, ranges, u, w.data(), mask, accum, floor, list, count, improved_range, long_rows,
          ctx.arcs_scanned());
      check_launch();
      pull_long_rows<S><<<tuning::pull_long_rows_blocks_per_sm * sm_count(), tuning::block_threads, 0, s>>>(
          view, ranges, u, w.data(), accum, floor, long_rows, list, count, improved_range,
          ctx.arcs_scanned());
      check_launch();
    }
    pull_merge_path<S, W, threads, items><<<unsigned(grid), threads, 0, s>>>(
        view, ranges, u, w.data(), mask, accum, list, count, improved_range, block_items,
        records, ctx.arcs_scanned(), floor);
    check_launch();
    if (grid > 1) {  // block 0 starts at row 0: a single block leaves no row to finish
      pull_fixup<S, W><<<blocks_for(std::size_t(grid) * 32), tuning::block_threads, 0, s>>>(
          ranges, records, unsigned(grid), block_items, w.data(), accum, list, count,
          improved_range, floor.by_live_rows);
      check_launch();
    }
  }
  if (counters) {
    counters->pull_calls++;
    counters->rows += n;
    counters->arcs += view.arcs;  // upper bound: rows of the part only are read
  }
  finish_improved(improved, count, ctx);
}

// Push over `view` (rows = sources) from the entries of u.
template <class S, class W>
void push_dispatch(dense_vector<W>& w, const mask_view<W>& mask, const csr_view<W>& view,
                   row_ranges ranges, const sparse_vector<W>& u, const descriptor& desc,
                   gpu_context& ctx, sparse_vector<W>* improved, value_range<W> improved_range,
                   op_counters* counters, const arc_index* scanned = nullptr) {
  cudaStream_t s = ctx.stream();
  const std::size_t k = u.nvals();
  std::uint32_t* stamps = improved ? ctx.stamps(view.n) : nullptr;
  const std::uint32_t stamp = ctx.next_stamp();
  unsigned long long* count =
      improved ? reinterpret_cast<unsigned long long*>(ctx.zeroed_counter()) : nullptr;
  vertex* list = improved ? improved->indices() : nullptr;
  if (k > 0) {
    const bool warp_rows = desc.balance == load_balance::warp_per_row;
    if (desc.balance == load_balance::edge_wise) {
      push_edge_wise<S>(w.data(), mask, view, ranges.split, ranges.part, u, ctx, stamps, stamp,
                        list, count, improved_range);
    } else if (warp_rows) {
      push_group_per_row<S, W, 32><<<blocks_for(k * 32), tuning::block_threads, 0, s>>>(
          frontier_ref<W>{u.indices(), u.values(), nullptr, k}, view, ranges, w.data(),
          mask, stamps, stamp, list, count, improved_range, ctx.arcs_scanned());
      check_launch();
    } else {
      // scan[j] = arcs of the first j frontier rows; scan[k] = total, read by the kernel itself
      // so the host never waits for it (or the scan vxm made to choose the direction).
      const arc_index* scan = scanned ? scanned : frontier_scan(u, ranges, ctx);
      constexpr int threads = tuning::push_threads, items = tuning::push_items_per_thread;
      // Enough blocks to fill the device for big frontiers; a few for small ones (grid-stride).
      // The arcs are counted on the device (scan[k]), so the host sizes the grid for the worst
      // case, k rows of the longest length: a frontier of a few hubs then gets the whole device,
      // not the blocks of k average rows (Slashdot: ~100 rows with hubs among them pushed in
      // 70 µs on 3 blocks; kron-22: a 13k-row frontier of hubs 0.68 ms on 390 blocks, H100,
      // ncu, 2026-11-23). Idle blocks cost their launch, a few µs at most.
      const std::size_t longest =
          view.max_row_length > 0 ? std::size_t(view.max_row_length)
                                  : std::max<std::size_t>(1, view.n ? view.arcs / view.n : 1);
      const std::size_t estimate = std::min<std::size_t>(k * longest, view.arcs);
      const unsigned blocks = static_cast<unsigned>(std::clamp<std::size_t>(
          (estimate + threads * items - 1) / (threads * items), 1,
          std::size_t(tuning::push_max_blocks_per_sm) * sm_count()));
      push_merge_path<S, W, threads, items><<<blocks, threads, 0, s>>>(
          u.indices(), u.values(), k, scan, view, ranges, w.data(), mask, stamps, stamp, list,
          count, improved_range, ctx.arcs_scanned());
      check_launch();
    }
  }
  if (counters) {
    counters->push_calls++;
    counters->rows += k;
  }
  finish_improved(improved, count, ctx);
}

}  // namespace detail

template <class S, class W>
void vxm(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, S semiring,
         const sparse_vector<W>& u, const matrix_operand<W>& a, const descriptor& desc,
         gpu_context& ctx, sparse_vector<W>* improved, value_range<W> improved_range,
         op_counters* counters) {
  (void)semiring;
  const device_matrix<W>& A = *a.a;
  const vertex n = A.rows();
  cudaStream_t s = ctx.stream();
  bool pull = desc.dir == direction::pull;
  const arc_index* scanned = nullptr;  // the push's scan, made early to count u's arcs
  if (desc.dir == direction::automatic && A.has_transpose()) {
    const std::size_t k = u.nvals();
    pull = k * std::size_t(desc.pull_ratio) > n;
    const graph_stats& g = A.stats();
    if (!pull && desc.pull_arc_ratio > 0 && k * tuning::arc_count_rows_ratio > n &&
        double(g.max_degree) >= tuning::skewed_degree_ratio * g.avg_degree) {
      // u's arcs: the total of the load-balanced push's scan, which the push then reuses (the
      // separate reduce before it: 0.16 ms of kernels in a kron-22 solve, ncu's sum at fc45837,
      // H100, 2026-11-24, bench/results/2026-11-24-h100-run22/sweeps/).
      scanned = detail::frontier_scan(u, detail::ranges_of(A.view(), a, false), ctx);
      const arc_index arcs = detail::frontier_scan_total(scanned, k, ctx);
      pull = arcs * desc.pull_arc_ratio > A.transpose_view().arcs;
    }
  }
  if (pull) {
    // Pull needs u densely: scatter its entries into an identity-filled vector, the context's
    // scratch (no allocation per call inside a solve's loop). Its entry n receives min(u), the
    // floor's first operand (pull_floor: for the min accumulator only).
    const bool floored = accum == accumulator::min && S::is_min_monoid && S::monotone_mul;
    W* dense_u = static_cast<W*>(ctx.pull_dense_input((std::size_t(n) + 1) * sizeof(W)));
    detail::assign_masked<<<detail::blocks_for(std::size_t(n) + 1), tuning::block_threads, 0, s>>>(
        dense_u, n + 1, no_mask<W>(), S::identity(), false, S::identity());
    detail::check_launch();
    if (u.nvals()) {
      detail::scatter_values<<<detail::blocks_for(u.nvals()), tuning::block_threads, 0, s>>>(
          u.indices(), u.values(), u.nvals(), dense_u, floored ? dense_u + n : nullptr);
      detail::check_launch();
    }
    detail::pull_floor<W> floor;
    if (floored) {
      floor.least_input = dense_u + n;
      floor.least_weight = detail::least_weight_of(A, a);
    }
    detail::pull_dispatch<S>(w, mask, accum, A.transpose_view(),
                             detail::pull_ranges_of(A.transpose_view(), a, true, desc, ctx),
                             dense_u, desc, ctx,
                             improved, improved_range, counters, 0, -1, floor);
    return;
  }
  const bool direct = accum == accumulator::min ? S::is_min_monoid
                      : accum == accumulator::plus ? !S::is_min_monoid
                                                   : true;
  if (direct) {
    if (accum == accumulator::none) {
      // w<mask> = T: the masked positions start from the identity; replace clears the rest.
      assign(w, mask, S::identity(), desc.replace, ctx);
    } else if (desc.replace && mask.kind != mask_kind::none) {
      mask_view<W> inverse = mask;
      inverse.complement = !mask.complement;
      assign(w, inverse, S::identity(), false, ctx);
    }
    detail::push_dispatch<S>(w, mask, A.view(), detail::ranges_of(A.view(), a, false), u, desc,
                             ctx, improved, improved_range, counters, scanned);
    return;
  }
  // An accumulator other than the semiring's monoid: T into scratch, then w<mask> = accum(w, T).
  dense_vector<W> t(n, s);
  assign(t, no_mask<W>(), S::identity(), false, ctx);
  detail::push_dispatch<S>(t, no_mask<W>(), A.view(), detail::ranges_of(A.view(), a, false), u,
                           desc, ctx, static_cast<sparse_vector<W>*>(nullptr), improved_range, counters);
  detail::ewise_kernel<S><<<detail::blocks_for(n), tuning::block_threads, 0, s>>>(
      w.data(), n, mask, accum, detail::present_or_identity<S, W>{t.data()}, desc.replace);
  detail::check_launch();
  if (improved) improved->set_nvals(0);
}

template <class S, class W>
void mxv(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, S semiring,
         const matrix_operand<W>& a, const dense_vector<W>& u, const descriptor& desc,
         gpu_context& ctx, sparse_vector<W>* improved, value_range<W> improved_range,
         op_counters* counters) {
  (void)semiring;
  const device_matrix<W>& A = *a.a;
  detail::pull_dispatch<S>(w, mask, accum, A.view(),
                           detail::pull_ranges_of(A.view(), a, false, desc, ctx), u.data(), desc,
                           ctx, improved, improved_range, counters);
}

template <class S, class W>
void ewise_add(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, S,
               const dense_vector<W>& a, const dense_vector<W>& b, gpu_context& ctx) {
  detail::ewise_kernel<S><<<detail::blocks_for(w.size()), tuning::block_threads, 0, ctx.stream()>>>(
      w.data(), w.size(), mask, accum, detail::ewise_add_op<S, W>{a.data(), b.data()}, false);
  detail::check_launch();
}

template <class S, class W>
void ewise_mult(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, S,
                const dense_vector<W>& a, const dense_vector<W>& b, gpu_context& ctx) {
  detail::ewise_kernel<S><<<detail::blocks_for(w.size()), tuning::block_threads, 0, ctx.stream()>>>(
      w.data(), w.size(), mask, accum, detail::ewise_mult_op<S, W>{a.data(), b.data()}, false);
  detail::check_launch();
}

namespace detail {
// ⊕ (S's monoid) of `count` items of `in`, read back by the host: CUB's reduce on the context's
// temporary storage, the result after it, one copy and one wait (a round trip). reduce and
// reduce_min; select_reduce_min keeps its reduce on the device beside the select.
template <class S, class In>
typename S::value_type reduce_to_host(In in, std::size_t count, gpu_context& ctx) {
  using W = typename S::value_type;
  std::size_t bytes = 0;
  W* out = nullptr;
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, in, out, count, monoid_op<S>{},
                                              S::identity(), ctx.stream()));
  const std::size_t offset = (bytes + 255) / 256 * 256;
  char* temp = static_cast<char*>(ctx.temp(offset + sizeof(W)));
  out = reinterpret_cast<W*>(temp + offset);
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, bytes, in, out, count, monoid_op<S>{},
                                              S::identity(), ctx.stream()));
  W h{};
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(&h, out, sizeof(W), cudaMemcpyDeviceToHost, ctx.stream()));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  ctx.round_trips++;
  return h;
}
}  // namespace detail

template <class S, class W>
W reduce(S, const dense_vector<W>& u, gpu_context& ctx) {
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<vertex>(0),
                                            detail::present_or_identity<S, W>{u.data()});
  return detail::reduce_to_host<S>(in, u.size(), ctx);
}

template <class S, class W>
W reduce(S, const sparse_vector<W>& u, gpu_context& ctx) {
  const std::size_t k = u.nvals();
  if (k == 0) return S::identity();
  return detail::reduce_to_host<S>(u.values(), k, ctx);
}

}  // namespace tropic

namespace tropic {

template <class W>
light_heavy_split<W>::light_heavy_split(const device_matrix<W>& a, double delta, gpu_context& ctx)
    : delta_(delta), same_(a.stats().symmetric), split_(a.rows(), ctx.stream()) {
  split_light_heavy(a.view(), delta, split_.data(), ctx.stream());
  if (!same_ && a.has_transpose()) {
    t_split_ = device_buffer<arc_index>(a.rows(), ctx.stream());
    split_light_heavy(a.transpose_view(), delta, t_split_.data(), ctx.stream());
  }
}

template <class W>
const arc_index* light_heavy_split<W>::transpose_rows() const noexcept {
  if (same_) return split_.data();
  return t_split_.size() ? t_split_.data() : nullptr;
}

namespace detail {
// Row u's light arcs (0 for u = n: the scan's last entry is the total).
struct light_length {
  const arc_index* offsets;
  const arc_index* split;
  vertex n;
  __host__ __device__ arc_index operator()(vertex u) const {
#if defined(__CUDA_ARCH__)
    return u < n ? split[u] - offsets[u] : 0;
#else
    (void)u;
    return 0;
#endif
  }
};
}  // namespace detail

template <class W>
const arc_index* light_heavy_split<W>::light_before(const csr_view<W>& view, bool transposed,
                                                    arc_index& light_arcs,
                                                    gpu_context& ctx) const {
  prefix& p = transposed && !same_ ? t_light_before_ : light_before_;
  if (!p.ready) {
    cudaStream_t s = ctx.stream();
    const vertex n = view.n;
    p.before = device_buffer<arc_index>(std::size_t(n) + 1, s);
    arc_index* before = p.before.data();
    auto lengths = thrust::make_transform_iterator(
        thrust::counting_iterator<vertex>(0),
        detail::light_length{view.row_offsets, transposed ? transpose_rows() : rows(), n});
    std::size_t bytes = 0;
    TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, lengths, before,
                                                    std::size_t(n) + 1, s));
    TROPIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(ctx.temp(bytes), bytes, lengths, before,
                                                    std::size_t(n) + 1, s));
    p.total = ctx.read_word(before + n);
    p.ready = true;
  }
  light_arcs = p.total;
  return p.before.data();
}

namespace detail {
// select's kernels, up to its count on the device; with `least`, reduce_min's over least_range
// into *least after them (on the same temporary storage: CUB's calls run in stream order).
template <class W>
void select_on_device(sparse_vector<W>& out, const dense_vector<W>& in, value_range<W> range,
                      std::uint64_t* count, W* least, value_range<W> least_range,
                      gpu_context& ctx) {
  cudaStream_t s = ctx.stream();
  const vertex n = in.size();
  in_range_pred<W> pred{in.data(), range};
  std::size_t bytes = 0;
  TROPIC_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, thrust::counting_iterator<vertex>(0),
                                          out.indices(), count, n, pred, s));
  auto values = thrust::make_transform_iterator(thrust::counting_iterator<vertex>(0),
                                                range_or_identity<W>{in.data(), least_range});
  std::size_t reduce_bytes = 0;
  if (least)
    TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, reduce_bytes, values, least, n,
                                                monoid_op<min_plus<W>>{}, infinity<W>(), s));
  void* temp = ctx.temp(std::max(bytes, reduce_bytes));
  TROPIC_CUDA_CHECK(cub::DeviceSelect::If(temp, bytes, thrust::counting_iterator<vertex>(0),
                                          out.indices(), count, n, pred, s));
  if (least)
    TROPIC_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, reduce_bytes, values, least, n,
                                                monoid_op<min_plus<W>>{}, infinity<W>(), s));
}

// The values of a selected list: out's k indices read from in.
template <class W>
void select_values(sparse_vector<W>& out, const dense_vector<W>& in, std::size_t k,
                   gpu_context& ctx) {
  out.set_nvals(k);
  if (k) {
    gather_values<<<blocks_for(k), tuning::block_threads, 0, ctx.stream()>>>(
        out.indices(), k, in.data(), out.indices(), out.values());
    check_launch();
  }
}
}  // namespace detail

template <class W>
void select(sparse_vector<W>& out, const dense_vector<W>& in, value_range<W> range,
            gpu_context& ctx) {
  std::uint64_t* count = ctx.zeroed_counter();
  detail::select_on_device(out, in, range, count, static_cast<W*>(nullptr), range, ctx);
  detail::select_values(out, in, std::size_t(ctx.read_counter()), ctx);
}

template <class W>
W select_reduce_min(sparse_vector<W>& out, const dense_vector<W>& in, value_range<W> range,
                    value_range<W> least_range, gpu_context& ctx) {
  // The count and the minimum share the context's pair of counter words: one copy, one wait.
  static_assert(sizeof(W) <= sizeof(std::uint64_t), "a weight fits a counter word");
  std::uint64_t* words = ctx.zeroed_counters(2);
  W* least = reinterpret_cast<W*>(words + 1);
  detail::select_on_device(out, in, range, words, least, least_range, ctx);
  const std::uint64_t* read = ctx.read_counters(2);
  W lowest;
  std::memcpy(&lowest, read + 1, sizeof lowest);
  detail::select_values(out, in, std::size_t(read[0]), ctx);
  return lowest;
}

template <class W>
void gather(sparse_vector<W>& out, const dense_vector<W>& in, const sparse_vector<W>& pattern,
            gpu_context& ctx) {
  const std::size_t k = pattern.nvals();
  if (k) {
    detail::gather_values<<<detail::blocks_for(k), tuning::block_threads, 0, ctx.stream()>>>(
        pattern.indices(), k, in.data(), out.indices(), out.values());
    detail::check_launch();
  }
  out.set_nvals(k);
}

template <class W>
void select(sparse_vector<W>& out, const dense_vector<W>& in, const sparse_vector<W>& pattern,
            value_range<W> range, gpu_context& ctx) {
  const std::size_t k = pattern.nvals();
  if (out.size() < std::min<std::size_t>(k, in.size()))
    throw error(error_code::invalid_value,
                "select: the output holds " + std::to_string(out.size()) + " entries, up to " +
                    std::to_string(std::min<std::size_t>(k, in.size())) + " may be selected");
  if (k == 0) {
    out.set_nvals(0);
    return;
  }
  std::uint32_t* stamps = ctx.stamps(in.size());
  const std::uint32_t stamp = ctx.next_stamp();
  auto* count = reinterpret_cast<unsigned long long*>(ctx.zeroed_counter());
  detail::select_listed<<<detail::blocks_for(k), tuning::block_threads, 0, ctx.stream()>>>(
      pattern.indices(), k, in.data(), range, stamps, stamp, out.indices(), out.values(), count);
  detail::check_launch();
  out.set_nvals(static_cast<std::size_t>(ctx.read_counter()));
}

template <class W>
void append(sparse_vector<W>& w, const sparse_vector<W>& u, gpu_context& ctx) {
  const std::size_t at = w.nvals(), k = u.nvals();
  if (at + k > w.size())
    throw error(error_code::invalid_value, "append: " + std::to_string(at) + " + " +
                                               std::to_string(k) + " entries exceed the capacity " +
                                               std::to_string(w.size()));
  if (k) {
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(w.indices() + at, u.indices(), k * sizeof(vertex),
                                      cudaMemcpyDeviceToDevice, ctx.stream()));
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(w.values() + at, u.values(), k * sizeof(W),
                                      cudaMemcpyDeviceToDevice, ctx.stream()));
  }
  w.set_nvals(at + k);
}

template <class W>
W reduce_min(const dense_vector<W>& in, value_range<W> range, gpu_context& ctx) {
  auto values = thrust::make_transform_iterator(thrust::counting_iterator<vertex>(0),
                                                detail::range_or_identity<W>{in.data(), range});
  return detail::reduce_to_host<min_plus<W>>(values, in.size(), ctx);
}

template <class W>
void assign(dense_vector<W>& w, const mask_view<W>& mask, W value, bool replace,
            gpu_context& ctx) {
  detail::assign_masked<<<detail::blocks_for(w.size()), tuning::block_threads, 0, ctx.stream()>>>(
      w.data(), w.size(), mask, value, replace, infinity<W>());
  detail::check_launch();
}

template <class W>
void assign(dense_vector<W>& w, const sparse_vector<W>& u, gpu_context& ctx) {
  const std::size_t k = u.nvals();
  if (!k) return;
  detail::scatter_values<<<detail::blocks_for(k), tuning::block_threads, 0, ctx.stream()>>>(
      u.indices(), u.values(), k, w.data());
  detail::check_launch();
}

template <class W>
void apply(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, unary_op f, W scalar,
           const dense_vector<W>& u, gpu_context& ctx) {
  detail::ewise_kernel<min_plus<W>><<<detail::blocks_for(w.size()), tuning::block_threads, 0,
                                      ctx.stream()>>>(w.data(), w.size(), mask, accum,
                                                      detail::apply_op<W>{u.data(), f, scalar}, false);
  detail::check_launch();
}

template <class W>
std::size_t nvals(const dense_vector<W>& u, gpu_context& ctx) {
  auto flags = thrust::make_transform_iterator(thrust::counting_iterator<vertex>(0),
                                               detail::present_flag<W>{u.data()});
  std::size_t bytes = 0;
  std::uint64_t* count = ctx.zeroed_counter();
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, flags, count, u.size(), ctx.stream()));
  TROPIC_CUDA_CHECK(cub::DeviceReduce::Sum(ctx.temp(bytes), bytes, flags, count, u.size(), ctx.stream()));
  return ctx.read_counter();
}

}  // namespace tropic

// Explicit instantiation of every operator for one semiring and weight type.
#define TROPIC_INSTANTIATE_SEMIRING(S, W)                                                        \
  template void vxm<S, W>(dense_vector<W>&, const mask_view<W>&, accumulator, S,         \
                                  const sparse_vector<W>&, const matrix_operand<W>&,             \
                                  const descriptor&, gpu_context&, sparse_vector<W>*,            \
                                  value_range<W>, op_counters*);                                 \
  template void mxv<S, W>(dense_vector<W>&, const mask_view<W>&, accumulator, S,         \
                                  const matrix_operand<W>&, const dense_vector<W>&,              \
                                  const descriptor&, gpu_context&, sparse_vector<W>*,            \
                                  value_range<W>, op_counters*);                                 \
  template void ewise_add<S, W>(dense_vector<W>&, const mask_view<W>&, accumulator, S,   \
                                        const dense_vector<W>&, const dense_vector<W>&,          \
                                        gpu_context&);                                           \
  template void ewise_mult<S, W>(dense_vector<W>&, const mask_view<W>&, accumulator, S,  \
                                         const dense_vector<W>&, const dense_vector<W>&,         \
                                         gpu_context&);                                          \
  template W reduce<S, W>(S, const dense_vector<W>&, gpu_context&);                               \
  template W reduce<S, W>(S, const sparse_vector<W>&, gpu_context&);

#define TROPIC_INSTANTIATE_VECTOR_OPS(W)                                                         \
  template class light_heavy_split<W>;                                                   \
  template void select<W>(sparse_vector<W>&, const dense_vector<W>&, value_range<W>,     \
                                  gpu_context&);                                                 \
  template void gather<W>(sparse_vector<W>&, const dense_vector<W>&,                     \
                                  const sparse_vector<W>&, gpu_context&);                        \
  template void select<W>(sparse_vector<W>&, const dense_vector<W>&, const sparse_vector<W>&,     \
                          value_range<W>, gpu_context&);                                         \
  template void append<W>(sparse_vector<W>&, const sparse_vector<W>&, gpu_context&);             \
  template W reduce_min<W>(const dense_vector<W>&, value_range<W>, gpu_context&);        \
  template W select_reduce_min<W>(sparse_vector<W>&, const dense_vector<W>&, value_range<W>,     \
                                  value_range<W>, gpu_context&);                                 \
  template void assign<W>(dense_vector<W>&, const mask_view<W>&, W, bool, gpu_context&); \
  template void assign<W>(dense_vector<W>&, const sparse_vector<W>&, gpu_context&);      \
  template void apply<W>(dense_vector<W>&, const mask_view<W>&, accumulator, unary_op, W, \
                                 const dense_vector<W>&, gpu_context&);                          \
  template std::size_t nvals<W>(const dense_vector<W>&, gpu_context&);
