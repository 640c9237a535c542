// mxm pull (tropic/mxm.hpp): C = C ⊕ U ⊕.⊗ A(part) over the rows of A' (v's in-arcs), for a
// dense U laid out as C. Each row is cut into chunks of tuning::mxm_pull_chunk arcs of its part
// (chunks: the scanned chunk counts, n + 1 entries), and a group of Group lanes takes a chunk: it
// reads each arc once and gathers the k sources' values of its tail in one coalesced load per
// PerLane·Group sources. A row of one chunk is its group's alone, which writes C directly; a
// longer row (a Kronecker hub's) is shared, and its chunks combine with the semiring's atomic.
//
// Floor (pull_floor of detail/args.cuh, per entry): with the min accumulator and a monotone ⊗,
// an entry at or below min(U) ⊗ (least weight) cannot improve, and neither can it from an arc
// whose min(U) ⊗ weight reaches it; a row's arcs are sorted by weight, so the group stops at the
// first arc past every live entry's bound (Beamer et al.'s bottom-up skip, SC'12, by weight).
// The same result with or without it.
#pragma once

#include <cooperative_groups.h>

#include <cstddef>

#include "mxm_push.cuh"

namespace tropic::detail {

// The chunks of row v of ranges' part (0 for v = n: the scan's last entry is the total).
struct mxm_row_chunks {
  row_ranges ranges;
  vertex n;
  __host__ __device__ arc_index operator()(vertex v) const {
#if defined(__CUDA_ARCH__)
    if (v >= n) return 0;
    const arc_index length = ranges.last(v) - ranges.first(v);
    return (length + tuning::mxm_pull_chunk - 1) / tuning::mxm_pull_chunk;
#else
    (void)v;
    return 0;
#endif
  }
};

// least_input: min over U's entries on the device (null: no floor); least_weight: at most every
// weight of the part.
template <class S, class W, int Group, int PerLane>
__global__ void mxm_pull_chunks(csr_view<W> a, row_ranges ranges, const arc_index* chunks,
                                std::size_t k, const W* u, W* c, matrix_mask<W> mask,
                                const W* least_input, W least_weight, std::uint32_t* stamps,
                                std::uint32_t stamp, vertex* improved,
                                unsigned long long* improved_count, value_range<W> range,
                                unsigned long long* arcs_scanned) {
  namespace cg = cooperative_groups;
  const cg::thread_block_tile<Group> group = cg::tiled_partition<Group>(cg::this_thread_block());
  const unsigned lane = group.thread_rank();
  const std::size_t groups = std::size_t(gridDim.x) * blockDim.x / Group;
  const vertex n = a.n;
  const arc_index total = chunks[n];
  const bool floored = least_input != nullptr;
  const W least = floored ? *least_input : S::identity();
  const W floor = floored ? S::mul(least, least_weight) : S::identity();
  constexpr arc_index chunk = tuning::mxm_pull_chunk;
  unsigned long long read = 0;
  for (arc_index q = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / Group; q < total;
       q += groups) {
    // v = the row of chunk q: chunks[v] <= q < chunks[v + 1] (rows without arcs are passed over).
    vertex lo = 0, hi = n;
    while (hi - lo > 1) {
      const vertex mid = lo + (hi - lo) / 2;
      if (chunks[mid] <= q) lo = mid; else hi = mid;
    }
    const vertex v = lo;
    const arc_index first = ranges.first(v) + (q - chunks[v]) * chunk;
    const arc_index row_last = ranges.last(v);
    const arc_index end = first + chunk < row_last ? first + chunk : row_last;
    const bool shared = chunks[v + 1] - chunks[v] > 1;
    const std::size_t base = std::size_t(v) * k;
    for (std::size_t s0 = 0; s0 < k; s0 += std::size_t(Group) * PerLane) {
      W acc[PerLane], now[PerLane];
      bool live[PerLane];
      bool any = false;
#pragma unroll
      for (int r = 0; r < PerLane; ++r) {
        const std::size_t s = s0 + lane + std::size_t(r) * Group;
        live[r] = s < k && matrix_mask_allows(mask, base + s);
        acc[r] = S::identity();
        now[r] = floored && live[r] ? c[base + s] : S::identity();
        if (floored && live[r] && !(floor < now[r])) live[r] = false;  // settled: cannot improve
        any = any || live[r];
      }
      if (!group.any(any)) continue;
      for (arc_index e = first; e < end; ++e) {
        const W weight = a.weights[e];
        if (floored) {
          bool open = false;
#pragma unroll
          for (int r = 0; r < PerLane; ++r)
            open = open || (live[r] && S::mul(least, weight) < now[r]);
          if (!group.any(open)) break;  // this arc and the heavier ones after it: past the bound
        }
        const W* tail = u + std::size_t(a.columns[e]) * k;
        if (lane == 0) ++read;
#pragma unroll
        for (int r = 0; r < PerLane; ++r)
          if (live[r]) {
            const W x = tail[s0 + lane + std::size_t(r) * Group];
            if (x != S::identity()) acc[r] = S::add(acc[r], S::mul(x, weight));
          }
      }
#pragma unroll
      for (int r = 0; r < PerLane; ++r) {
        if (!live[r] || acc[r] == S::identity()) continue;
        const std::size_t p = base + s0 + lane + std::size_t(r) * Group;
        if (shared) {
          mxm_combine<S>(c, p, v, acc[r], stamps, stamp, improved, improved_count, range);
        } else {  // the row is this group's alone
          const W old = c[p];
          const W sum = S::add(old, acc[r]);
          if (sum != old) c[p] = sum;
          if (improved && sum < old && in_range(sum, range))
            list_once(v, stamps, stamp, improved, improved_count);
        }
      }
    }
  }
  if (arcs_scanned) add_block_sum(arcs_scanned, read);
}

}  // namespace tropic::detail
