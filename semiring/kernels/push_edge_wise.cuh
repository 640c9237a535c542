// Push, edge-parallel: load_balance::edge_wise of the push operator (vxm over A's rows). After
// Hohne, Huang & Sriram, "Scaling Single-Source Shortest Paths with CUDA", sections "CUDA-Based
// Implementation" and "Edge-Wise Req Computation": an edge->source array computed once, then one
// thread per arc of the whole graph generates the requests, instead of one thread per vertex.
//
// How the paper's delta-stepping maps onto ours (the `edge_wise` algorithm is delta-stepping with
// every push pinned to this mode):
//  - d_light / d_heavy: our rows are sorted by weight and split once per Δ (light_heavy_split),
//    so arc e of row u is light iff e < split[u] -- one load per frontier arc.
//  - the edge->source array: device_matrix::arc_sources(), carried by the csr_view.
//  - d_B read at each arc's source: the call's frontier u (B in the light loop, S for the heavy
//    pass), scattered into a dense array with a presence flag.
//  - computeLightReq and computeHeavyReq: this kernel over the light or the heavy part (the
//    paper's heavy requests go one thread per vertex: the one difference in traversal).
//  - d_Req, its sort by (node, distance) and the relax kernel: not materialized. Each request is
//    combined at its target when made (atomicMin, push_combine), which applies the same minimum
//    the sort brings together; the relax's bucket update is the operator's `improved` output.
//
// Cost: every call reads the source of every arc of A (coalesced) and the frontier flag of each
// arc's source (near-broadcast), and relaxes only the frontier's arcs of the part: one arc per
// thread whatever the degree skew (the paper's WikiTalk gain), but a sweep over all |E| arcs
// even for a frontier of one vertex (its roadNet-CA). The arcs-scanned statistic adds that |E|.
//
// Memory ordering: the frontier is copied into scratch by kernels that finish before the sweep
// starts (one stream), and the sweep reads only that copy, never w: a relaxation in this call
// cannot feed another in the same call (T = u' A from u's values, as the other push modes).
#pragma once

#include <cstddef>
#include <cstdint>

#include "../detail/args.cuh"
#include "tropic/vector.hpp"

namespace tropic::detail {

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

// The edge-wise push: w = min(w, u' ⊕.⊗ A(part)) restricted by the mask, improved entries
// listed as the other push modes do (push_dispatch has zeroed the count and drawn the stamp).
template <class S, class W>
void push_edge_wise(const push_args<W>& p, const sparse_vector<W>& u, gpu_context& ctx) {
  const std::size_t k = u.nvals();
  const csr_view<W>& a = p.a;
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
  edge_wise_clear<S, W><<<blocks_for(n), tuning::block_threads, 0, s>>>(n, values, present);
  edge_wise_scatter<S, W><<<blocks_for(k), tuning::block_threads, 0, s>>>(
      u.indices(), u.values(), k, values, present);
  push_edge_wise_arcs<S, W><<<blocks_for(a.arcs), tuning::block_threads, 0, s>>>(
      a, p.ranges.split, p.ranges.part, values, present, p.w, p.mask, p.stamps, p.stamp,
      p.improved, p.improved_count, p.range, ctx.arcs_scanned());
  check_launch();
}

}  // namespace tropic::detail
