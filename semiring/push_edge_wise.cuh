// Push, edge-parallel: load_balance::edge_wise of the push operator (vxm over A's rows). After
// Hohne, Huang & Sriram, "Scaling Single-Source Shortest Paths with CUDA", sections "CUDA-Based
// Implementation" and "Edge-Wise Req Computation": an edge->source array computed once, then one
// thread per arc of the whole graph generates the requests, instead of one thread per vertex.
//
// How the paper's delta-stepping maps onto ours (algorithms/delta_stepping.cu with this mode, the
// `edge_wise` algorithm):
//  - d_light / d_heavy (|E| arrays holding the target where the arc is light / heavy, else -1):
//    our rows are sorted by weight and split once per Δ (light_heavy_split), so arc e of row u is
//    light iff e < split[u] -- the test below, one load per frontier arc.
//  - the edge->source array: device_matrix::arc_sources(), built once per matrix, carried by the
//    csr_view.
//  - d_B (|V|: each vertex's bucket) read by computeLightReq's thread at its arc's source: the
//    call's frontier u (B in the light loop, S for the heavy pass), scattered here into a dense
//    array with a presence flag, which each arc's thread reads at its source.
//  - computeLightReq, edge-wise: this kernel over the light part. computeHeavyReq (one thread per
//    vertex in the paper) is the same kernel over the heavy part: the mode governs every push of
//    the solve, the one place where ours differs in traversal from the paper.
//  - d_Req (|E| (node, distance) requests, densely packed), its thrust::sort by (node, distance)
//    and the relax kernel over the sorted requests: not materialized. Each request is combined at
//    its target when it is made (atomicMin, push_combine); the sort only brings each target's
//    requests together so that the smallest is applied, and the atomic applies the same minimum.
//    The relax's bucket update (d_B[v] = bucket of the new distance) is the operator's
//    `improved` output: v listed once when t[v] decreased into the current bucket, which is the
//    next light frontier; later buckets are found by select over t, as in our delta-stepping.
//  - update_S_clear_B_i and the is_empty checks: delta_stepping's select and counter reads.
// The buckets, the light loop and the one heavy pass per bucket are Meyer & Sanders' in both.
// So edge_wise is a traversal (load-balancing) mode of the shared push, and the `edge_wise`
// algorithm is our delta-stepping with the push pinned to it, not an algorithm of its own.
//
// Cost: every call reads the source of every arc of A (coalesced 4-byte loads) and the frontier
// flag of each arc's source (consecutive arcs share a source: near-broadcast loads), and
// relaxes only the frontier's arcs of the requested part. Work per thread is one arc whatever
// the degree skew (the paper's WikiTalk gain), but a call costs a sweep over all |E| arcs even
// for a frontier of one vertex (the paper's roadNet-CA, many small light frontiers). The
// arcs-scanned statistic adds the sweep's |E| per call: it is the work this mode does.
//
// Memory ordering: the frontier is copied into scratch by kernels that finish before the sweep
// starts (one stream), and the sweep reads only that copy, never w: a relaxation in this call
// cannot feed another in the same call (T = u' A from u's values, as the other push modes). The
// sweep's writes to w, the stamps and the improved list are push_combine's atomics, shared with
// the merge-path and per-row kernels.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "tropic/device_matrix.hpp"
#include "tropic/error.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"
#include "tropic/tuning.hpp"
#include "tropic/vector.hpp"

namespace tropic::detail {

// Defined in operators.cuh, which includes this file before it defines them: every push mode
// shares one mask test and one combine (the min monoid's atomic and the improved list).
template <class W>
__device__ __forceinline__ bool mask_allows(const mask_view<W>& m, vertex i);
template <class S, class W>
__device__ __forceinline__ void push_combine(W* w, vertex v, W x, std::uint32_t* stamps,
                                             std::uint32_t stamp, vertex* improved,
                                             unsigned long long* improved_count,
                                             const value_range<W>& range);

inline unsigned edge_wise_blocks(std::size_t items) {
  const std::size_t blocks = (items + tuning::block_threads - 1) / tuning::block_threads;
  return static_cast<unsigned>(std::clamp<std::size_t>(blocks, 1, tuning::max_blocks));
}

// The dense frontier starts empty: no vertex present, every value the identity.
template <class S, class W>
__global__ void edge_wise_clear(vertex n, W* values, std::uint8_t* present) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    values[i] = S::identity();
    present[i] = 0;
  }
}

// u's entries into the dense frontier. An index listed twice (a worklist) gets its values
// combined by the monoid: ⊗ distributes over ⊕, so its arcs then carry what pushing the two
// entries one after the other would give.
template <class S, class W>
__global__ void edge_wise_scatter(const vertex* indices, const W* entries, std::size_t count,
                                  W* values, std::uint8_t* present) {
  for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < count;
       k += std::size_t(gridDim.x) * blockDim.x) {
    const vertex i = indices[k];
    present[i] = 1;
    S::atomic_add(&values[i], entries[k]);
  }
}

// One thread per arc of A (grid-stride): the paper's edge-wise computeLightReq, with the request
// applied at once instead of appended to Req.
template <class S, class W>
__global__ void push_edge_wise_arcs(csr_view<W> a, const arc_index* split, row_part part,
                                    const W* values, const std::uint8_t* present, W* w,
                                    mask_view<W> mask, std::uint32_t* stamps, std::uint32_t stamp,
                                    vertex* improved, unsigned long long* improved_count,
                                    value_range<W> range, unsigned long long* arcs_scanned) {
  if (arcs_scanned && blockIdx.x == 0 && threadIdx.x == 0)
    atomicAdd(arcs_scanned, static_cast<unsigned long long>(a.arcs));
  for (arc_index e = blockIdx.x * arc_index(blockDim.x) + threadIdx.x; e < a.arcs;
       e += arc_index(gridDim.x) * blockDim.x) {
    const vertex u = a.arc_sources[e];
    if (!present[u]) continue;
    // e lies in row u, so only the split end of the part needs a test (d_light / d_heavy).
    if (part == row_part::light && !(e < split[u])) continue;
    if (part == row_part::heavy && e < split[u]) continue;
    const vertex v = a.columns[e];
    if (!mask_allows(mask, v)) continue;
    push_combine<S>(w, v, S::mul(values[u], a.weights[e]), stamps, stamp, improved,
                    improved_count, range);
  }
}

// The dispatch: w = min(w, u' ⊕.⊗ A(part)) restricted by the mask, improved entries listed as
// the other push modes do (the caller has zeroed the count and drawn the stamp). `split` is the
// light/heavy split of `a` (null for row_part::all).
template <class S, class W>
void push_edge_wise(W* w, const mask_view<W>& mask, const csr_view<W>& a, const arc_index* split,
                    row_part part, const sparse_vector<W>& u, gpu_context& ctx,
                    std::uint32_t* stamps, std::uint32_t stamp, vertex* improved,
                    unsigned long long* improved_count, value_range<W> range) {
  const std::size_t k = u.nvals();
  if (k == 0 || a.arcs == 0) return;
  if (!a.arc_sources)
    throw error(error_code::invalid_value,
                "load_balance::edge_wise needs the matrix's arc->source array: call "
                "device_matrix::arc_sources() once before the operator");
  cudaStream_t s = ctx.stream();
  const vertex n = a.n;
  // The dense frontier in the context's scratch: values first (the scratch is 256-byte aligned),
  // then the presence flags.
  char* scratch = static_cast<char*>(ctx.temp(std::size_t(n) * (sizeof(W) + 1)));
  W* values = reinterpret_cast<W*>(scratch);
  std::uint8_t* present = reinterpret_cast<std::uint8_t*>(scratch + std::size_t(n) * sizeof(W));
  edge_wise_clear<S, W><<<edge_wise_blocks(n), tuning::block_threads, 0, s>>>(n, values, present);
  edge_wise_scatter<S, W><<<edge_wise_blocks(k), tuning::block_threads, 0, s>>>(
      u.indices(), u.values(), k, values, present);
  push_edge_wise_arcs<S, W><<<edge_wise_blocks(a.arcs), tuning::block_threads, 0, s>>>(
      a, split, part, values, present, w, mask, stamps, stamp, improved, improved_count, range,
      ctx.arcs_scanned());
  TROPIC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tropic::detail
