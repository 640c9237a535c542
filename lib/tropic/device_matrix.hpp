// The device matrix: A's CSR uploaded once, with each row's arcs sorted by weight (ties by
// column), so that for any delta the light arcs (w <= delta) of a row are a prefix of the row
// and the heavy arcs the rest (the RDBS layout, Zhang et al. section III-A). A light/heavy split
// is an `arc_ranges` view computed in one pass over the rows, not a second matrix.
//
// GPU builds only; the header itself is plain C++.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/device_memory.hpp"

namespace tropic {

namespace detail {
class kept_starts;
}

// Trivially copyable view of a device CSR, passed by value to kernels.
template <class W>
struct csr_view {
  vertex n = 0;
  arc_index arcs = 0;
  const arc_index* row_offsets = nullptr;  // n + 1
  const vertex* columns = nullptr;
  const W* weights = nullptr;  // ascending within each row
  // The source row of every arc (a COO row index), once device_matrix::arc_sources() has built
  // it; null before. The edge-parallel push (load_balance::edge_wise) reads it.
  const vertex* arc_sources = nullptr;
  // The longest row of the view (arcs); 0 when unknown. The pull picks its kernel by it
  // (descriptor::pull, tuning::pull_group_max_row).
  arc_index max_row_length = 0;
  // Each row's lightest weight (its first arc's), infinity for an empty row; null when unknown.
  // A floored pull reads it beside w(i) and skips a row whose lightest arc is past the row's
  // bound without reading its offsets or arcs (row_bound, semiring/operators.cuh).
  const W* row_least = nullptr;
  // What the matrix whose rows (view()) or transpose (transpose_view()) this is keeps for its
  // pulls (merge_path_starts); null for a view built otherwise. Host side only.
  detail::kept_starts* kept = nullptr;
};

// Per-row arc ranges [first[u], last[u]) inside a csr_view: "A restricted to each row's light
// part" as an operator argument. A null `first` means each row's start, a null `last` each row's
// end; the default view is the whole matrix.
struct arc_ranges {
  const arc_index* first = nullptr;
  const arc_index* last = nullptr;
};

namespace detail {
// The merge-path starts a matrix keeps for pulls over its own views (merge_path_starts): for
// each row offsets array of the matrix (A's, A''s) and run length asked, built once and kept to
// the matrix's end. Thread-safe.
class kept_starts {
 public:
  // The matrix's arrays, once they are final (null t_rows: no transpose of its own).
  void own(const arc_index* rows, const arc_index* t_rows, vertex n, arc_index arcs,
           cudaStream_t stream) noexcept;
  // merge_path_starts for a view of these offsets, n rows and `arcs` arcs.
  const vertex* find(const arc_index* offsets, vertex n, arc_index arcs, arc_index run);
  std::size_t bytes() const noexcept { return bytes_.load(); }

 private:
  struct entry {
    const arc_index* offsets;
    arc_index run;
    device_buffer<vertex> starts;
  };
  const arc_index* rows_ = nullptr;
  const arc_index* t_rows_ = nullptr;
  vertex n_ = 0;
  arc_index arcs_ = 0;
  cudaStream_t stream_ = nullptr;
  std::mutex guard_;
  std::vector<entry> entries_;
  std::atomic<std::size_t> bytes_{0};
};
}  // namespace detail

// Where each run of `run` items of a merge path over all of v's rows begins: entry k is the
// number of rows that end before path position k · run, of v's n row ends and arcs (Merrill &
// Garland, SC'16, section 4). Null unless v is a device_matrix's view() or transpose_view() as
// returned (not a window of its rows). Built on the first call for each run (a search an entry,
// then the matrix's stream is synchronized) and kept with the matrix: a plain pull reads its
// warps' starts instead of searching for them, 1-2 us of a 15-30 us SpMV
// (bench/results/h200-run52/). Thread-safe.
template <class W>
const vertex* merge_path_starts(const csr_view<W>& v, arc_index run) {
  return v.kept ? v.kept->find(v.row_offsets, v.n, v.arcs, run) : nullptr;
}

// Whether the upload also builds A' (rows = in-arcs of A), which the pull direction needs on a
// matrix that is not symmetric (a symmetric A is its own transpose). Without it every vxm
// pushes: fine for thin frontiers, several times slower than a pull for frontiers of a fifth of
// the vertices and more (bench/results/h100-run9/NOTES.md).
enum class transpose_policy {
  none,      // push only; the smallest footprint
  if_fits,   // build A' when A, A' and the build's scratch fit with room left for a solve's
             // vectors (transpose_headroom_per_vertex); else push only, silently
  required,  // build A' or throw out_of_memory naming the bytes
};

struct upload_options {
  transpose_policy transpose = transpose_policy::if_fits;
};

// Device bytes per vertex that transpose_policy::if_fits leaves free for a solve's dense vectors
// and worklists (delta-stepping holds ~10 arrays of n words).
inline constexpr std::size_t transpose_headroom_per_vertex = 96;

template <class W>
class device_matrix {
 public:
  // Uploads g and sorts each row by weight on the device. Throws out_of_memory naming the bytes
  // needed and free when the matrix does not fit.
  explicit device_matrix(const csr<W>& g, const upload_options& opts = {},
                         cudaStream_t stream = nullptr);
  // The same from arrays the caller owns (no host copy; they are read during the call only).
  explicit device_matrix(const csr_host_view<W>& g, const upload_options& opts = {},
                         cudaStream_t stream = nullptr);

  // A CSR already on the current device, moved in (no copy): laid out as csr<W>'s (n + 1
  // offsets, each row's arcs by column, no self-loop), then sorted by weight as above. The
  // statistics are computed on the device, probe_levels by a BFS that reads only the rows it
  // reaches; `symmetric` is the caller's, known by construction (a generator's), not checked.
  // No transpose is built: a symmetric matrix is its own.
  device_matrix(vertex n, device_buffer<arc_index>&& row_offsets, device_buffer<vertex>&& columns,
                device_buffer<W>&& weights, bool symmetric, cudaStream_t stream = nullptr);

  vertex rows() const noexcept { return n_; }
  arc_index arcs() const noexcept { return arcs_; }
  // The rows [first, last) outside which no row holds an arc (a part of a distributed matrix
  // holds its own rows alone): a pull that leaves empty rows unchanged visits these only.
  vertex first_arc_row() const noexcept { return arc_rows_[0]; }
  vertex last_arc_row() const noexcept { return arc_rows_[1]; }
  const graph_stats& stats() const noexcept { return stats_; }
  cudaStream_t stream() const noexcept { return stream_; }

  // A, rows sorted by weight.
  csr_view<W> view() const noexcept;
  // A' (rows of A' = in-arcs of A), rows sorted by weight; A itself when A is symmetric.
  // Throws invalid_value when the matrix was uploaded without a transpose and is not symmetric.
  csr_view<W> transpose_view() const;
  bool has_transpose() const noexcept { return stats_.symmetric || t_columns_.size() > 0; }

  // The arc->source array of A (Hohne et al., "Edge-Wise Req Computation": the node an edge
  // points back to, computed once so that work can be spread over arcs instead of rows). Built on
  // the first call (one pass over the rows, then the matrix's stream is synchronized, so every
  // stream sees it) and kept with the matrix; view() carries it from then on. Thread-safe; null
  // for a matrix without arcs. Throws out_of_memory when the 4 bytes per arc do not fit.
  const vertex* arc_sources() const;

  // Device memory held by this matrix, in bytes.
  std::size_t device_bytes() const noexcept;
  // Bytes a matrix of this shape needs on the device (for the out-of-memory message).
  static std::size_t bytes_needed(vertex n, arc_index arcs, bool transpose) noexcept;

 private:
  vertex n_ = 0;
  arc_index arcs_ = 0;
  graph_stats stats_;
  arc_index t_max_row_length_ = 0;  // A''s longest row: the largest in-degree of A
  vertex arc_rows_[2] = {0, 0};      // first_arc_row(), last_arc_row()
  cudaStream_t stream_ = nullptr;
  device_buffer<arc_index> row_offsets_, t_row_offsets_;
  device_buffer<vertex> columns_, t_columns_;
  device_buffer<W> weights_, t_weights_;
  device_buffer<W> row_least_, t_row_least_;  // csr_view::row_least of A and A'
  // Built on demand by arc_sources(); behind a pointer so that the matrix stays movable.
  struct arc_source_cache {
    std::mutex building;
    std::atomic<const vertex*> ready{nullptr};
    device_buffer<vertex> sources;
  };
  std::unique_ptr<arc_source_cache> arc_sources_ = std::make_unique<arc_source_cache>();
  // merge_path_starts' entries: behind a pointer, which the views carry, so that it stays put
  // when the matrix moves.
  std::unique_ptr<detail::kept_starts> kept_ = std::make_unique<detail::kept_starts>();
};

// For every row u: split[u] = first arc of u with weight > delta (one binary search per row),
// so that {first = row_offsets, last = split} is the light part and {first = split, last = row
// ends} the heavy part. `split` has n entries.
template <class W>
void split_light_heavy(const csr_view<W>& a, double delta, arc_index* split, cudaStream_t stream);

template <class W>
arc_ranges light_part(const csr_view<W>& a, const arc_index* split) noexcept {
  return {a.row_offsets, split};
}
template <class W>
arc_ranges heavy_part(const csr_view<W>& a, const arc_index* split) noexcept {
  return {split, a.row_offsets + 1};
}

}  // namespace tropic
