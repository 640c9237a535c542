// The one entry point: tropic::sssp(matrix, source, options) -> result.
//
// Distances are computed in the weight type W with saturating addition. A finite distance that
// would reach infinity<W>() (max() for integers, +inf for floats) cannot be represented; tropic
// never wraps around silently: every algorithm ends with a pass over the arcs that detects such
// a path exactly (a reached u with an arc u -> v whose sum saturates while v stays unreached) and
// throws tropic::error(error_code::overflow), advising a wider weight type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/partition.hpp"

namespace tropic {

template <class W>
class device_matrix;  // lib/tropic/device_matrix.hpp (GPU builds)

enum class algorithm {
  automatic,       // the GPU's delta_stepping when a device exists, else graphblas_cpu; with a
                   // negative arc, bellman_ford on the GPU, else graphblas_cpu
  dijkstra,        // CPU binary heap: the exact reference (non-negative weights)
  delta_stepping,  // GPU, min-plus algebra with light/heavy masked views (Sridhar et al.)
  bellman_ford,    // GPU, the same algebra with delta = infinity (one bucket); negative arcs.
                   // Where no GPU is usable (CPU-only build too): bellman_ford_cpu
  graphblas_cpu,   // CPU, the same algebra on SuiteSparse:GraphBLAS; negative arcs
  adds,            // GPU, asynchronous dynamic delta-stepping worklist (Wang et al.)
  near_far,        // GPU, Davidson et al.
  workfront,       // GPU, Davidson et al.
  rdbs,            // GPU, Zhang et al.
  da2cf,           // GPU, Martin et al.
  edge_wise,       // GPU, delta_stepping with the edge-parallel push (Hohne et al.)
};

const char* algorithm_name(algorithm a) noexcept;
// Throws tropic::error(invalid_value) listing the available names for an unknown one.
algorithm parse_algorithm(std::string_view name);
// The algorithms this build can run (GPU ones only when compiled with CUDA).
std::vector<algorithm> available_algorithms();
bool is_gpu_algorithm(algorithm a) noexcept;
// True when this build has CUDA support and at least one CUDA device is usable.
bool gpu_available() noexcept;

// Who drives delta-stepping's bucket loop (and Bellman-Ford's): the host, one round trip per
// step, with push or pull and the load-balanced push chosen per step from the frontier; or the
// GPU itself, the whole loop one persistent kernel (a grid barrier per step instead of a round
// trip). automatic starts on the host and hands over to the GPU after a
// few steps in a row too small to pay for their round trips (road-like graphs, Bellman-Ford's
// tail; tropic/tuning.hpp). On several GPUs (tropic/distributed.hpp): host runs every light step
// as one exchange, device each part's light loop to a fixed point between exchanges (closure
// rounds), automatic picks rounds for short rows behind thin borders and, behind thick ones,
// hands over from steps to rounds once steps are small, as one GPU's hands over to the GPU.
enum class loop_control { automatic, host, device };
// "auto", "host" or "device"; anything else throws tropic::error(invalid_value) naming it.
loop_control parse_loop_control(std::string_view name);

struct options {
  tropic::algorithm algorithm = tropic::algorithm::automatic;
  tropic::loop_control loop = tropic::loop_control::automatic;
  double delta = 0;        // bucket width; inf = one bucket; 0 = automatic: choose_delta
                           // (delta_stepping: 2 or 4 times it below a mean degree of 16, the 4
                           // narrowed back to 1 for a frontier growing geometrically,
                           // algorithms/delta_stepping.cu)
  bool parents = false;    // also compute a shortest-path tree
  int device = 0;          // CUDA device ordinal for GPU algorithms
  // Several GPUs of one host (tropic/distributed.hpp): two or more distinct ordinals run
  // delta-stepping with A split by rows over them, the improved distances exchanged through NCCL
  // (automatic and delta_stepping only; the same answers as one GPU). One ordinal is `device`;
  // empty: `device` alone.
  std::vector<int> devices;
  bool verbose = false;
  // scipy's `limit`: a vertex farther than cutoff is reported unreachable (infinity, parent -1)
  // and the search does not expand past it, so the work is that of the ball, not the graph.
  // +inf = no cutoff; negative or NaN is invalid_value. Every algorithm honours it (the ones
  // without a cheaper exit compute everything and mask; see each file).
  double cutoff = std::numeric_limits<double>::infinity();
  // Many sources: at most this many sources' k x n distances (and parents) held at once; 0 =
  // automatic: all of them when they fit (host memory, and device memory for GPU algorithms),
  // else out_of_memory naming the sizes. A positive value processes the sources in chunks of
  // max_batch (the result still holds every row).
  std::size_t max_batch = 0;
};

struct statistics {
  std::string algorithm;            // the algorithm that actually ran (automatic resolved)
  double delta = 0;                 // the bucket width used last (inf for Bellman-Ford /
                                    // Dijkstra; ADDS: its final delta)
  std::uint64_t buckets = 0;        // non-empty buckets processed (outer iterations)
  std::uint64_t iterations = 0;     // inner (light) iterations / relaxation rounds in total
  std::uint64_t vertices_relaxed = 0;  // frontier vertices whose out-arcs were scanned
  std::uint64_t arcs_relaxed = 0;      // arcs scanned
  std::uint64_t host_round_trips = 0;  // device-to-host waits inside the solve (GPU algorithms)
  std::uint64_t device_loop_buckets = 0;  // buckets run by the GPU-driven loop (delta-stepping)
  double widened_at = std::numeric_limits<double>::infinity();  // delta-stepping: the distance
                                       // from which one bucket finished a short, wide search
  double milliseconds = 0;             // the solve alone (no upload, no download)
  double setup_milliseconds = 0;       // upload / conversion before the solve
};

template <class W>
struct result {
  std::vector<W> distances;           // infinity<W>() where unreachable
  std::vector<std::int64_t> parents;  // empty unless options.parents; -1 for source, unreachable
  statistics stats;
};

// Many sources: row i (distances[i * n .. i * n + n)) is what sssp(A, sources[i], options)
// returns for that source; parents likewise when options.parents, else empty.
template <class W>
struct multi_result {
  std::size_t n = 0;                  // vertices: the length of every row
  std::vector<vertex> sources;        // the sources, in the order asked (duplicates kept)
  std::vector<W> distances;           // sources.size() x n, row-major; infinity<W>() unreachable
  std::vector<std::int64_t> parents;  // sources.size() x n when options.parents, else empty
  statistics stats;                   // summed over the sources (milliseconds: the whole call)

  const W* row(std::size_t i) const { return distances.data() + i * n; }
  W distance(std::size_t i, vertex v) const { return distances[i * n + v]; }
};

// Delta heuristic from Davidson et al. (Near-Far, section IV-C): 32 * mean weight / mean degree,
// at least the smallest positive weight so a bucket is never narrower than one arc.
double choose_delta(const graph_stats& s);

// Host entry point: runs any algorithm. GPU algorithms upload the matrix first (the time goes to
// stats.setup_milliseconds). Throws tropic::error on bad input; nothing is written on failure.
// Negative arcs (signed and float W): bellman_ford, graphblas_cpu and automatic give exact
// distances when no negative cycle is reachable and throw error_code::negative_cycle when one is
// (after at most n rounds: never a hang); the other algorithms throw invalid_value.
template <class W>
result<W> sssp(const csr<W>& g, vertex source, const options& opts = {});

#if defined(TROPIC_HAVE_CUDA)
// Device entry point: GPU algorithms on a matrix that is already resident.
template <class W>
result<W> sssp(const device_matrix<W>& a, vertex source, const options& opts = {});
#endif

// Many sources at once: one row per source (see multi_result). graphblas_cpu solves them together
// (batched delta-stepping, GrB_mxm over a k x n frontier); dijkstra and the GPU algorithms run
// source by source on one graph (the GPU's upload done once). Duplicate sources are allowed; an
// out-of-range one is invalid_index naming it; an empty list gives an empty result.
template <class W>
multi_result<W> sssp(const csr<W>& g, const std::vector<vertex>& sources, const options& opts = {});

// Origin-destination distances: |origins| x |destinations|, row-major (entry i * |D| + j is the
// distance from origins[i] to destinations[j]; infinity<W>() when unreachable or beyond the
// cutoff). A search stops once every destination is settled: dijkstra when all are popped,
// delta_stepping when all lie below the next bucket; the others solve in full and gather.
template <class W>
std::vector<W> sssp_od(const csr<W>& g, const std::vector<vertex>& origins,
                       const std::vector<vertex>& destinations, const options& opts = {});

#if defined(TROPIC_HAVE_CUDA)
template <class W>
multi_result<W> sssp(const device_matrix<W>& a, const std::vector<vertex>& sources,
                     const options& opts = {});
// The same rows written into the caller's memory: distances[i * n + v] for sources[i] (k x n,
// row-major, every entry written) and, with options.parents, parents likewise; the statistics
// returned. For callers that own the output (Python's numpy arrays): no k x n vector to fill,
// and the rows come down through pinned memory on all host threads (copy_to_host).
template <class W>
statistics sssp_into(const device_matrix<W>& a, const std::vector<vertex>& sources,
                     const options& opts, W* distances, std::int64_t* parents = nullptr);
template <class W>
std::vector<W> sssp_od(const device_matrix<W>& a, const std::vector<vertex>& origins,
                       const std::vector<vertex>& destinations, const options& opts = {});
#endif

// The CPU reference, also reachable as sssp(..., {algorithm::dijkstra}). Non-negative weights.
template <class W>
result<W> dijkstra(const csr<W>& g, vertex source, bool parents = true);

// The CPU reference for negative arcs: Bellman-Ford-Moore in rounds (algorithms/
// bellman_ford_cpu.cpp). Throws error_code::negative_cycle, naming a vertex on the cycle, when
// one is reachable from the source; an unreachable one changes nothing.
template <class W>
result<W> bellman_ford_cpu(const csr<W>& g, vertex source, bool parents = true);

// The reference answer verify() is given: dijkstra, or bellman_ford_cpu when g has a negative
// arc.
template <class W>
result<W> reference_sssp(const csr<W>& g, vertex source, bool parents = true);

// Checks `got` against the reference distances `want` (exact for integers, 1e-5 relative for
// floats), the reachable set, and, when got.parents is filled, that every parent p of v has an
// arc p -> v with dist[p] + w == dist[v]. Returns an empty string when everything holds, else a
// description of the first few problems.
template <class W>
std::string verify(const csr<W>& g, vertex source, const std::vector<W>& want,
                   const result<W>& got);

// The optimality certificate (algorithms/certify.cpp): proves r's distances exact from g alone,
// in O(arcs), without a reference solve, for graphs too large for one. "" when it holds, else the
// first violation, naming the vertex (and the arc and the values); of the checks by row, those of
// the least row that fails one (its vertex's own values, else its arc of least column, then
// weight). Checks: d[source] = 0; every arc u -> v with d[u] finite has d[v] <= d[u] + w (exact,
// so v is reached too); with parents, every reached v != source has a parent p with a tight arc
// (d[p] + w == d[v]) and following parents reaches the source; without parents, every reached
// v != source has a tight in-arc from a u with d[u] < d[v]. Without parents a vertex whose tight
// in-arcs all have d[u] >= d[v] (zero or negative weights) cannot be certified: the message says
// so; certify a result with parents. Floats: exact for the arithmetic the algorithms use (each
// sum rounded in W).
template <class W>
std::string certify(const csr<W>& g, vertex source, const result<W>& r);

// The certificate over a 1D row partition: each part checks the arcs of its own rows, with the
// distances and parents replicated (whole arrays), and marks the vertices whose proving in-arc
// lies in its rows; certify_combine ORs those marks (an allreduce over n bytes on several GPUs),
// checks every reached vertex has one and that the parent chains reach the source. The parts,
// in row order and covering [0, n) exactly (partition_rows), give certify's answer exactly.
struct certificate_part {
  row_range rows;
  std::string violation;    // the first violation in these rows (row order), "" if none
  std::vector<char> marks;  // n entries: v's proving in-arc lies in these rows (bits)
};

template <class W>
certificate_part certify_rows(const csr<W>& g, vertex source, const result<W>& r, row_range rows);

template <class W>
std::string certify_combine(vertex source, const result<W>& r,
                            const std::vector<certificate_part>& parts);

}  // namespace tropic
