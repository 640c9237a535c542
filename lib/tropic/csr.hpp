// Host graph containers: an arc list as read from a file or made by a generator, and the
// compressed sparse row (CSR) matrix every algorithm starts from. A(u, v) = w is the arc u -> v
// of weight w: row u holds u's out-arcs, which is what push (vxm) traverses.
#pragma once

#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace tropic {

using vertex = std::uint32_t;     // 32-bit vertex ids: up to 2^32 - 1 vertices
using arc_index = std::uint64_t;  // 64-bit row offsets: more than 2^31 arcs must work

// Every weight type we ship; explicit instantiations in lib/ and semiring/ cover exactly these.
template <class W>
inline constexpr bool is_weight_type_v =
    std::is_same_v<W, std::uint32_t> || std::is_same_v<W, std::int32_t> ||
    std::is_same_v<W, std::uint64_t> || std::is_same_v<W, std::int64_t> ||
    std::is_same_v<W, float> || std::is_same_v<W, double>;

// Applies X to every weight type we ship: explicit instantiations are written once per file as
// TROPIC_FOR_EACH_WEIGHT(MY_INSTANTIATE_MACRO).
#define TROPIC_FOR_EACH_WEIGHT(X) \
  X(std::uint32_t) X(std::int32_t) X(std::uint64_t) X(std::int64_t) X(float) X(double)

// The "no path" value: +inf for floats, max() for integers (GraphBLAS's MIN monoid identity).
template <class W>
constexpr W infinity() noexcept {
  if constexpr (std::numeric_limits<W>::has_infinity) {
    return std::numeric_limits<W>::infinity();
  } else {
    return std::numeric_limits<W>::max();
  }
}

template <class W>
const char* weight_type_name() noexcept;

// A weight or distance as error messages print it: floats with every significant digit, so the
// value a user sees is the value that was read or computed.
template <class W>
std::string weight_string(W w) {
  std::ostringstream s;
  if constexpr (std::is_floating_point_v<W>) s.precision(std::numeric_limits<W>::max_digits10);
  s << +w;  // unary + prints 8-bit types as numbers, harmless for the rest
  return s.str();
}  // "uint32", "int32", "uint64", "int64", "float", "double"

template <class W>
struct arc_list {
  vertex n = 0;  // number of vertices; every endpoint is < n
  std::vector<vertex> src;
  std::vector<vertex> dst;
  std::vector<W> weight;

  arc_index size() const noexcept { return src.size(); }
  void push_back(vertex u, vertex v, W w) {
    src.push_back(u);
    dst.push_back(v);
    weight.push_back(w);
  }
};

// What to do with parallel arcs u -> v.
enum class duplicate_policy {
  keep_min,  // a multigraph's shortest path uses the lightest one (the default)
  keep_max,
  keep_first,
  keep_last,
  error,  // parallel arcs are an input error
};

struct build_options {
  duplicate_policy duplicates = duplicate_policy::keep_min;
  bool drop_self_loops = true;  // a self-loop never shortens a path (weights are >= 0)
  bool symmetrize = false;      // add v -> u for every u -> v (then apply `duplicates`)
};

template <class W>
struct csr {
  vertex n = 0;
  std::vector<arc_index> row_offsets;  // n + 1 entries, row_offsets[0] = 0
  std::vector<vertex> columns;         // sorted within each row
  std::vector<W> weights;

  arc_index arcs() const noexcept { return columns.size(); }
  arc_index degree(vertex u) const noexcept { return row_offsets[u + 1] - row_offsets[u]; }
};

// Builds the CSR of `arcs`: rows sorted by column, parallel arcs and self-loops handled per
// `options`. Throws tropic::error (invalid_index) for an endpoint >= arcs.n and
// (invalid_value) for a NaN or infinite weight, naming the arc index and value.
template <class W>
csr<W> build_csr(const arc_list<W>& arcs, const build_options& options = {});

// Summary statistics; the delta-stepping heuristics read these.
struct graph_stats {
  vertex n = 0;
  arc_index arcs = 0;
  double min_weight = 0, avg_weight = 0, max_weight = 0;  // 0 when there are no arcs
  double avg_degree = 0;
  arc_index max_degree = 0;
  vertex isolated = 0;     // vertices with no out-arcs
  bool symmetric = false;  // every arc u -> v has v -> u of the same weight
  bool has_negative_weight = false;
  // A cheap diameter estimate: the BFS levels from the vertex of most out-arcs until
  // stats_probe_vertices vertices are reached or its component ends. A 2D grid needs hundreds, a
  // road map ~80, a 3D mesh's dual ~40, scale-free and random graphs under 15
  // (bench/results/h200-run30/NOTES.md); the automatic GPU algorithm reads it.
  std::uint32_t probe_levels = 0;
};

// How many vertices the probe_levels BFS reaches before it stops: about 2^16 arcs on a mesh.
inline constexpr vertex stats_probe_vertices = 16384;

template <class W>
graph_stats compute_stats(const csr<W>& g);

// A CSR in arrays someone else owns, laid out as csr<W>'s (the Python module's numpy arrays):
// what compute_stats and the device upload read, so that a matching layout reaches the GPU
// without a host copy. The rows must be as csr<W>'s: sorted columns, no self-loop.
template <class W>
struct csr_host_view {
  vertex n = 0;
  const arc_index* row_offsets = nullptr;  // n + 1 entries, row_offsets[0] = 0
  const vertex* columns = nullptr;
  const W* weights = nullptr;

  arc_index arcs() const noexcept { return row_offsets ? row_offsets[n] : 0; }
};

template <class W>
csr_host_view<W> host_view(const csr<W>& g) noexcept {
  return {g.n, g.row_offsets.data(), g.columns.data(), g.weights.data()};
}

template <class W>
graph_stats compute_stats(const csr_host_view<W>& g);

// Throws tropic::error(invalid_value) naming the first arc with a negative weight.
template <class W>
void require_non_negative(const csr<W>& g, const char* algorithm);

// Casts a CSR to another weight type, throwing when a weight does not fit exactly.
template <class To, class From>
csr<To> convert_weights(const csr<From>& g);

}  // namespace tropic
