// Internal (GPU builds): the device-side algorithm entry points and the shared result epilogue.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tropic/device_matrix.hpp"
#include "tropic/sssp.hpp"

namespace tropic {
enum class load_balance;  // semiring/tropic/operators.hpp
struct closure_limits;    // semiring/tropic/device_loop.hpp
struct descriptor;        // semiring/tropic/operators.hpp
}  // namespace tropic

namespace tropic::detail {

// Origin-destination (sssp_od): delta-stepping stops after the first bucket at whose end every
// one of these vertices (a device array of `count`) lies below the next non-empty bucket, i.e.
// is settled. The check costs one read of `count` distances per bucket (the host-driven loop
// adds one kernel and one round trip per bucket for it).
struct settle_targets {
  const vertex* ids = nullptr;
  std::size_t count = 0;
};

// algorithms/delta_stepping.cu: delta-stepping in the min-plus algebra (bellman_ford is the
// same with delta = infinity). Honours opts.cutoff: it stops at the first bucket whose lower
// end lies beyond it (finish_result then masks what lies beyond).
template <class W>
result<W> delta_stepping_sssp(const device_matrix<W>& a, vertex source, const options& opts,
                              const settle_targets* targets = nullptr);
// ... with the light closure's limits and the host-driven steps' descriptor (its pull_ratio)
// given (the sweeps in bench/tune/delta_stepping_sweeps.cu); delta_stepping_sssp passes the defaults.
template <class W>
result<W> delta_stepping_configured(const device_matrix<W>& a, vertex source, const options& opts,
                                    const closure_limits& closure, const descriptor& desc,
                                    const settle_targets* targets = nullptr);

// algorithms/delta_stepping_batch.cu: delta-stepping from k sources at once on the min-plus
// mxm (semiring/tropic/mxm.hpp), every source's buckets in lock step. distances: host, k × n
// row-major (row s for sources[s], each exactly the single-source answer, infinity<W>() where
// unreachable or past `cutoff`); parents: null, or host k × n filled as result::parents per row.
// Sources may repeat. Throws invalid_index for a source out of range, invalid_value for a
// negative weight, out_of_memory naming the sizes when three k × n arrays of W do not fit.
template <class W>
void delta_stepping_batch(const device_matrix<W>& a, const vertex* sources, std::size_t k,
                          const options& opts, W* distances, std::int64_t* parents,
                          statistics& stats, W cutoff = infinity<W>());

// algorithms/near_far_blocks.cu: Near-Far from k sources, one thread block per source, each
// block taking the next source when it finishes (graphs of short rows: a thread walks a whole
// row). The same contract as delta_stepping_batch: distances host k x n row-major, each row the
// single-source answer truncated at `cutoff`; parents null or host k x n. threads: 256 or 1024
// per block, 0 for the automatic choice. Throws as delta_stepping_batch, out_of_memory naming
// the sizes when the k x n distances or one block's worklists do not fit.
template <class W>
void near_far_blocks(const device_matrix<W>& a, const vertex* sources, std::size_t k,
                     const options& opts, W* distances, std::int64_t* parents, statistics& stats,
                     W cutoff = infinity<W>(), unsigned threads = 0);

// algorithms/bellman_ford.cu: Bellman-Ford's rounds with negative arcs (push only, every
// improved vertex in the frontier, at most n rounds; a reachable negative cycle throws
// error_code::negative_cycle naming a vertex on it).
template <class W>
result<W> bellman_ford_sssp(const device_matrix<W>& a, vertex source, const options& opts);
// algorithms/adds.cu: asynchronous dynamic delta-stepping (Wang et al., PPoPP'21).
template <class W>
result<W> adds_sssp(const device_matrix<W>& a, vertex source, const options& opts);

// algorithms/near_far.cu: Near-Far (Davidson et al., IPDPS'14, IV-C): a near set and a far pile.
template <class W>
result<W> near_far_sssp(const device_matrix<W>& a, vertex source, const options& opts);

// algorithms/workfront.cu: Workfront Sweep (Davidson et al. IV-C), Bellman-Ford over a
// deduplicated frontier; `balance` is the push's traversal strategy (IV-B), sssp() passes
// load_balance::automatic, tests and the bench pick one.
template <class W>
result<W> workfront_sssp(const device_matrix<W>& a, vertex source, const options& opts,
                         load_balance balance);

// algorithms/da2cf.cu: Dijkstra adapted to compound frontiers (Martin et al., ICCS'09).
template <class W>
result<W> da2cf_sssp(const device_matrix<W>& a, vertex source, const options& opts);

// algorithms/rdbs.cu: bucket-aware asynchronous delta-stepping (Zhang et al., ICPP-W'23).
template <class W>
result<W> rdbs_sssp(const device_matrix<W>& a, vertex source, const options& opts);

// algorithms/gpu_result.cu: the epilogue every GPU algorithm shares. One pass over the arcs
//  - detects distances that overflowed W (a reached u with an arc u -> v whose sum saturates
//    while v stays unreached) and throws error_code::overflow,
//  - when opts.parents, picks for every reached v != source the smallest u with a tight arc
//    dist[u] + w(u, v) == dist[v] (-1 for the source and unreachable vertices),
// then downloads distances (and parents) into `out`, every distance beyond opts.cutoff reported
// unreachable (parent -1): the one place every GPU algorithm honours the cutoff, whatever its own
// early exit. A saturated sum is then beyond the cutoff, not an overflow. `distances` is a
// device array of n.
template <class W>
void finish_result(const device_matrix<W>& a, const W* distances, vertex source,
                   const options& opts, result<W>& out, cudaStream_t stream);

// The checks both many-source solvers make: a graph with vertices, every source in range
// (invalid_index naming sources[i]), no negative weight (invalid_value naming `what`), Δ >= 0.
template <class W>
void check_many_sources(const device_matrix<W>& a, const vertex* sources, std::size_t k,
                        const options& opts, const char* what);

// finish_result for the k rows of a many-source solve (`rows`: device, k x n row-major, nothing
// above `cutoff` in them) into host arrays: row by row where parents are asked or a sum may
// overflow W (a shortest path of n - 1 arcs, or up to the cutoff, past half W's range), else one
// download of them all.
// A device matrix's arcs back on the host as a csr (rows in the matrix's weight order).
template <class W>
csr<W> download_csr(const device_matrix<W>& a);

template <class W>
void finish_rows(const device_matrix<W>& a, const W* rows, const vertex* sources, std::size_t k,
                 const options& opts, W cutoff, W* distances, std::int64_t* parents,
                 cudaStream_t stream);

// The pieces of finish_result, for a result whose arcs lie on several devices (algorithms/
// delta_stepping_distributed.cu): the pass over a view's arcs (overflow and the least tight
// rising parent; `parent` and `overflow` start at ~0), one adoption round that reads the parents
// in `settled` and writes `parent` (the same array on one GPU; `adopted` is zeroed, then counts
// the adopted vertices), whether adoption rounds are needed, and the download with the cutoff
// applied and the overflow reported (`parent` null: no parents).
template <class W>
void tight_arc_pass(const csr_view<W>& a, const W* distances, vertex source, bool parents,
                    bool rising_only, unsigned long long* parent, unsigned long long* overflow,
                    cudaStream_t stream);
template <class W>
void adoption_round(const csr_view<W>& a, const W* distances, vertex source, bool any_tight,
                    const unsigned long long* settled, unsigned long long* parent,
                    unsigned long long* adopted, cudaStream_t stream);
template <class W>
bool needs_adoption(const graph_stats& s) noexcept;
template <class W>
void finish_download(vertex n, const W* distances, const unsigned long long* parent,
                     unsigned long long overflow_vertex, const options& opts, result<W>& out,
                     cudaStream_t stream);

// Resolves options.delta: 0 -> choose_delta(a.stats()), else the given value.
template <class W>
double resolve_delta(const device_matrix<W>& a, const options& opts);

}  // namespace tropic::detail
