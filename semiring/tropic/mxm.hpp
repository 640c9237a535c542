// The many-source operators (GPU builds; plain C++ header): mxm over a k × n frontier and the
// selections a batched bucket loop needs around it. The single-source vxm of operators.hpp with
// its vector operands widened to k rows (DESIGN.md, "the many-source operator is one more
// family"): the frontier vector becomes a k × n matrix, masks become matrices, and one read of an
// arc serves the k sources whose frontier rows hold its tail.
//
// Layout: a k × n dense_matrix is stored column-major, entry (s, v) at v·k + s, so a column --
// one vertex's values for the k sources -- is one coalesced load. "No entry" is the semiring's
// identity, as in dense_vector. A column_matrix is the same k × n matrix held by a list of its
// columns (the frontier: the vertices some source reached in a step), each column dense.
//
// Semantics follow operators.hpp's w<mask> = accum(w, T), entry by entry, with T = U ⊕.⊗ A and
// the mask a k × n matrix laid out as C. `improved`, when given, receives every column v with an
// entry (s, v) whose value strictly decreased in this call into improved_range, each column once,
// without values (take them with gather_columns). As for vxm, a product that lowers an entry into
// the range lists its column even if a later product of the same call takes it lower still.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tropic/device_loop.hpp"
#include "tropic/operators.hpp"

namespace tropic {

template <class T>
class dense_matrix {
 public:
  dense_matrix() = default;
  dense_matrix(std::size_t k, vertex n, cudaStream_t stream)
      : k_(k), n_(n), values_(k * std::size_t(n), stream) {}
  std::size_t rows() const noexcept { return k_; }
  vertex cols() const noexcept { return n_; }
  std::size_t size() const noexcept { return k_ * std::size_t(n_); }
  T* data() noexcept { return values_.data(); }
  const T* data() const noexcept { return values_.data(); }
  // Row-major host copies, entry (s, v) at s·n + v (tests; the layout is transposed here).
  std::vector<T> to_host() const {
    const std::vector<T> by_column = values_.to_host();
    std::vector<T> h(size());
    for (std::size_t v = 0; v < n_; ++v)
      for (std::size_t s = 0; s < k_; ++s) h[s * n_ + v] = by_column[v * k_ + s];
    return h;
  }
  void upload(const std::vector<T>& row_major) {
    std::vector<T> by_column(size());
    for (std::size_t v = 0; v < n_; ++v)
      for (std::size_t s = 0; s < k_; ++s) by_column[v * k_ + s] = row_major[s * n_ + v];
    values_.upload(by_column.data(), by_column.size());
  }

 private:
  std::size_t k_ = 0;
  vertex n_ = 0;
  device_buffer<T> values_;
};

// A k × n matrix held by some of its columns: column indices()[j] has its k entries at
// values()[j·k, j·k + k), the identity where the column has no entry. Each column is listed at
// most once (a pull scatters them). Capacity n columns; the count lives on the host.
template <class T>
class column_matrix {
 public:
  column_matrix() = default;
  column_matrix(std::size_t k, vertex n, cudaStream_t stream)
      : k_(k), n_(n), indices_(n, stream), values_(k * std::size_t(n), stream) {}
  std::size_t rows() const noexcept { return k_; }
  vertex cols() const noexcept { return n_; }
  std::size_t ncols() const noexcept { return ncols_; }
  void set_ncols(std::size_t c) noexcept { ncols_ = c; }
  vertex* indices() noexcept { return indices_.data(); }
  const vertex* indices() const noexcept { return indices_.data(); }
  T* values() noexcept { return values_.data(); }
  const T* values() const noexcept { return values_.data(); }
  // Tests: the listed columns, and their values column after column (ncols() · k).
  std::vector<vertex> indices_to_host() const {
    std::vector<vertex> h(ncols_);
    indices_.download(h.data(), ncols_);
    return h;
  }
  std::vector<T> values_to_host() const {
    std::vector<T> h(ncols_ * k_);
    values_.download(h.data(), h.size());
    return h;
  }
  void upload(const std::vector<vertex>& columns, const std::vector<T>& by_column) {
    indices_.upload(columns.data(), columns.size());
    values_.upload(by_column.data(), by_column.size());
    ncols_ = columns.size();
  }

 private:
  std::size_t k_ = 0;
  vertex n_ = 0;
  std::size_t ncols_ = 0;
  device_buffer<vertex> indices_;
  device_buffer<T> values_;
};

// A mask over a k × n matrix, laid out as dense_matrix (kind and complement as mask_view).
template <class W>
struct matrix_mask {
  const W* values = nullptr;
  mask_kind kind = mask_kind::none;
  bool complement = false;
};
template <class W>
matrix_mask<W> no_matrix_mask() noexcept { return {}; }
template <class W>
matrix_mask<W> value_mask(const dense_matrix<W>& m, bool complement = false) noexcept {
  return {m.data(), mask_kind::value, complement};
}
template <class W>
matrix_mask<W> structural_mask(const dense_matrix<W>& m, bool complement = false) noexcept {
  return {m.data(), mask_kind::structural, complement};
}

// C<mask> = accum(C, U ⊕.⊗ A(part)). Push: the arcs of U's columns' rows of A, load-balanced
// over arcs (merge path over the columns' scanned row lengths), a group of lanes per arc over the
// k sources, the semiring's atomic per entry. Pull (descriptor::dir, or automatic: U holds more
// than n / pull_ratio columns and A' exists): each row of A' (each v's in-arcs) read once for all
// k sources, cut into chunks of tuning::mxm_pull_chunk arcs so that a hub's row is shared by
// several groups; with the min accumulator a pull reads each row only up to its bound (pull_floor
// of operators.cuh, per entry). descriptor::balance and ::pull are not consulted.
template <class S, class W = typename S::value_type>
void mxm(dense_matrix<W>& c, const matrix_mask<W>& mask, accumulator accum, S semiring,
         const column_matrix<W>& u, const matrix_operand<W>& a, const descriptor& desc,
         gpu_context& ctx, sparse_vector<W>* improved = nullptr,
         value_range<W> improved_range = {}, op_counters* counters = nullptr);

// The closure of a push step inside a range, k sources at once: repeat { C = min(C, (C(:, in)
// .* (C inside range)) min.+ A(part)); in = the columns with an entry that decreased into the
// range } until `in` is empty -- a batched bucket's light phase, the many-source vxm_closure
// (device_loop.hpp). The steps are launched back to back, each reading its frontier's length on
// the device, and the host reads a length once per round of up to tuning::mxm_closure_round_steps
// steps, not once per step: on roads a bucket takes tens of small steps, each far cheaper than a
// round trip. A group of lanes per column walks its row (hubs would hold their group: for graphs
// of short rows). Each column whose entry decreased into the range is pushed again with its final
// value, so the fixed point is exact. A listed column pushes all its entries in the range, not
// only those that decreased: every entry in the range must be listed or pushed already with its
// value (a bucket's B, or its stragglers after the heavy arcs), so the others add nothing.
// Drains `in`; `spare`, an empty worklist of capacity n, ends empty. Returns the steps launched
// (a round's last ones may find their frontier empty).
template <class S, class W = typename S::value_type>
std::uint64_t mxm_closure(dense_matrix<W>& c, S semiring, device_worklist& in,
                          const matrix_operand<W>& a, gpu_context& ctx, device_worklist& spare,
                          value_range<W> range);

// C = value everywhere.
template <class W>
void assign(dense_matrix<W>& c, W value, gpu_context& ctx);

// C(s, columns[s]) = value for every row s < k (`columns`: k device entries): each source's
// start.
template <class W>
void assign_rows(dense_matrix<W>& c, const vertex* columns, W value, gpu_context& ctx);

// out = the columns of `in` with an entry inside `range` (each once, order unspecified), and the
// returned least entry of `in` inside `least_range` (infinity<W>() if none), in one host round
// trip: a batched bucket loop's B = {v : some iΔ <= C(s, v) < (i+1)Δ} and its next bucket.
template <class W>
W select_columns(sparse_vector<W>& out, const dense_matrix<W>& in, value_range<W> range,
                 value_range<W> least_range, gpu_context& ctx);

// out = in(:, pattern) .* (in inside range): pattern's columns in its order, each entry of in
// inside the range kept, every other infinity<W>() (U = D .* B of the bucket loop). `pattern`
// must not repeat a column. With count_entries, returns the entries kept (one host round trip;
// none for an empty pattern), else 0: a step's push or pull is chosen by U's entries, not its
// columns -- a column holds from one to k sources' entries, and a pull reads all k.
template <class W>
std::size_t gather_columns(column_matrix<W>& out, const dense_matrix<W>& in,
                           const sparse_vector<W>& pattern, value_range<W> range,
                           gpu_context& ctx, bool count_entries = true);

// C = C .* (C inside keep): every entry outside the range becomes infinity<W>() (a cutoff).
template <class W>
void select(dense_matrix<W>& c, value_range<W> keep, gpu_context& ctx);

// out[s·n + v] = C(s, v): C row-major in device memory (k·n entries), for k results of n.
template <class W>
void to_row_major(W* out, const dense_matrix<W>& c, gpu_context& ctx);

}  // namespace tropic
