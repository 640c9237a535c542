// GraphBLAS-shaped min-plus operators on the GPU (GPU builds; plain C++ header).
//
// Semantics follow the GraphBLAS C API for w<mask> = accum(w, T):
//  - T is the operator's result; positions where T has no entry hold the semiring identity;
//  - mask: none, value (m[i] != 0) or structural (m[i] present, i.e. not the identity of
//    min-plus, infinity<W>()), optionally complemented;
//  - accum none: w(i) = T(i) inside the mask; accum min: w(i) = min(w(i), T(i)) inside the mask;
//  - replace: entries outside the mask are deleted (set to the identity); otherwise kept.
//
// tropic extension (delta-stepping's fused select, Sridhar et al. / DESIGN.md): `improved`,
// when given, receives every index whose w value strictly decreased in this call and now lies in
// [improved_range.lo, improved_range.hi) -- the set B = {v : r[v] < t[v], iΔ <= r[v] < (i+1)Δ}
// of the pseudo-code -- each index once, without values (take them with gather: t .* B).
#pragma once

#include <cstdint>

#include "tropic/device_matrix.hpp"
#include "tropic/tuning.hpp"
#include "tropic/vector.hpp"

namespace tropic {

enum class mask_kind { none, value, structural };

template <class W>
struct mask_view {
  const W* values = nullptr;
  mask_kind kind = mask_kind::none;
  bool complement = false;
};
template <class W>
mask_view<W> no_mask() noexcept { return {}; }
template <class W>
mask_view<W> value_mask(const dense_vector<W>& m, bool complement = false) noexcept {
  return {m.data(), mask_kind::value, complement};
}
template <class W>
mask_view<W> structural_mask(const dense_vector<W>& m, bool complement = false) noexcept {
  return {m.data(), mask_kind::structural, complement};
}

enum class accumulator { none, min, plus };
enum class direction { automatic, push, pull };
// Push traversal: merge-path over the frontier's scanned row lengths (automatic), a warp per
// frontier row, or edge_wise: one thread per arc of the whole matrix, its source read from the
// arc->source array, arcs whose source is not in the frontier skipped (Hohne et al.'s edge-wise
// request generation; semiring/kernels/push_edge_wise.cuh). edge_wise needs A.arc_sources() built
// first (the operator throws invalid_value otherwise) and costs a pass over every arc per call.
enum class load_balance { automatic, merge_path, warp_per_row, edge_wise };

// Pull kernel: merge_path, Merrill & Garland's merge-based SpMV (SC'16; any row lengths: hubs are
// split across threads and blocks), or group_per_row, CSR-vector (Bell & Garland, SC'09): a few
// lanes per row, fast when every row is short (roads, grids, meshes) and slow on a hub.
// automatic takes group_per_row when the view's longest row is at most
// tuning::pull_group_max_row arcs. live_rows: only the rows that may change, each read only up to
// its bound (its arcs with min(u) ⊗ weight < w(i), a prefix of the weight-sorted row: Beamer et
// al.'s bottom-up skip, SC'12, by weight); automatic picks it on the device for a min-accumulated
// vxm pull over a large view where most arcs lie past those bounds (delta-stepping's later pulls
// on Kronecker graphs). semiring/kernels/ holds one file per kernel.
enum class pull_method { automatic, merge_path, group_per_row, live_rows };

struct descriptor {
  bool replace = false;
  direction dir = direction::automatic;
  load_balance balance = load_balance::automatic;  // push
  pull_method pull = pull_method::automatic;
  // automatic direction: pull when the input holds more than n / pull_ratio entries and the
  // matrix offers the needed transpose (device_matrix builds it when it fits). A push pays an
  // atomic per arc, a pull reads the whole view once (Beamer et al.'s direction-optimising BFS,
  // SC'12). 4 and 8 tie in bench/tune/delta_stepping_sweeps.cu's "direction sweep"
  // (bench/results/h100-run8/sweeps/direction-sweep-*.txt).
  unsigned pull_ratio = 4;
  // automatic direction on a skewed graph (tuning::skewed_degree_ratio), for a frontier of
  // fewer rows than that but more than n / tuning::arc_count_rows_ratio: count the frontier's
  // arcs in the part (one scan and one host round trip) and pull when they exceed the arcs of A'
  // over pull_arc_ratio; 0: rows only. Rows alone misjudge a Kronecker graph's middle steps,
  // whose frontiers hold its hubs. bench/tune/delta_stepping_sweeps.cu's "direction arc sweep"
  // (bench/results/h100-run12/sweeps/direction-arc-sweep.txt).
  unsigned pull_arc_ratio = 3;
};

// Whether a pull over `view` with `desc` runs by a group of lanes per row (else merge path):
// desc.pull, or for automatic, when the view's longest row is known and at most
// tuning::pull_group_max_row.
template <class W>
bool pull_by_group_per_row(const csr_view<W>& view, const descriptor& desc) noexcept {
  if (desc.pull != pull_method::automatic) return desc.pull == pull_method::group_per_row;
  return view.max_row_length > 0 && view.max_row_length <= tuning::pull_group_max_row;
}

// log2 of the lanes per row of the group-per-row pull: the smallest group whose lanes read at
// most tuning::pull_group_items arcs each at the view's average row length (a degree-4 grid: one
// lane; uniform out-degree 7: two), at most a warp.
template <class W>
unsigned pull_group_log2(const csr_view<W>& view) noexcept {
  const double average = view.n ? double(view.arcs) / double(view.n) : 0.0;
  unsigned log2 = 0;
  while (log2 < 5 && double(tuning::pull_group_items << log2) < average) ++log2;
  return log2;
}

// A value range [lo, hi) in W; hi == infinity<W>() leaves it open above (infinity itself, "no
// entry", is never inside).
template <class W>
struct value_range {
  W lo{};
  W hi = infinity<W>();
};

// Which arcs of each row take part: all of them, or the light (w <= Δ) or heavy (w > Δ) part.
enum class row_part { all, light, heavy };

// The light/heavy split of A for one Δ, for A's rows and (when the matrix has it) A''s rows.
// Recomputed by one pass over the rows when Δ changes.
template <class W>
class light_heavy_split {
 public:
  light_heavy_split(const device_matrix<W>& a, double delta, gpu_context& ctx);
  double delta() const noexcept { return delta_; }
  const arc_index* rows() const noexcept { return split_.data(); }
  const arc_index* transpose_rows() const noexcept;  // null when A' is unavailable
  // For the merge-path pull over one part (`view`: A's or, transposed, A''s rows): before[u] =
  // the light arcs of rows before u, n + 1 entries, and light_arcs = before[n]. Computed on the
  // first call (a scan, and one read of the total) and kept: a solve's pulls share it.
  const arc_index* light_before(const csr_view<W>& view, bool transposed, arc_index& light_arcs,
                                gpu_context& ctx) const;

 private:
  double delta_;
  bool same_;  // A is symmetric: A' splits like A
  device_buffer<arc_index> split_, t_split_;
  struct prefix {
    device_buffer<arc_index> before;
    arc_index total = 0;
    bool ready = false;  // computed (light_before)
  };
  mutable prefix light_before_, t_light_before_;
};

// A matrix operand: A with one part of every row (the masked views AL = A .* (A <= Δ) and
// AH = A .* (A > Δ) of Sridhar et al., without a copy).
template <class W>
struct matrix_operand {
  const device_matrix<W>* a = nullptr;
  row_part part = row_part::all;
  const light_heavy_split<W>* split = nullptr;
};
template <class W>
matrix_operand<W> all_of(const device_matrix<W>& a) { return {&a, row_part::all, nullptr}; }
template <class W>
matrix_operand<W> light(const device_matrix<W>& a, const light_heavy_split<W>& s) {
  return {&a, row_part::light, &s};
}
template <class W>
matrix_operand<W> heavy(const device_matrix<W>& a, const light_heavy_split<W>& s) {
  return {&a, row_part::heavy, &s};
}

// Statistics an operator call adds to (vertices whose rows were read, arcs read).
struct op_counters {
  std::uint64_t rows = 0, arcs = 0, push_calls = 0, pull_calls = 0;
};

// w<mask> = accum(w, u' ⊕.⊗ A): push (SpMSpV) over A's rows from the entries of u; pull
// (SpMV over A') when the descriptor or the automatic rule says so.
template <class S, class W = typename S::value_type>
void vxm(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, S semiring,
         const sparse_vector<W>& u, const matrix_operand<W>& a, const descriptor& desc,
         gpu_context& ctx, sparse_vector<W>* improved = nullptr,
         value_range<W> improved_range = {}, op_counters* counters = nullptr);

// w<mask> = accum(w, A ⊕.⊗ u) for a dense u: pull (SpMV) over A's rows, by the kernel
// descriptor::pull names; the arcs of masked-out rows are never read.
template <class S, class W = typename S::value_type>
void mxv(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, S semiring,
         const matrix_operand<W>& a, const dense_vector<W>& u, const descriptor& desc,
         gpu_context& ctx, sparse_vector<W>* improved = nullptr,
         value_range<W> improved_range = {}, op_counters* counters = nullptr);
// The same for a sparse u (absent entries the identity). With the min accumulator the pull is
// floored by min(u): rows and arc tails past w(i) - min(u) are skipped (pull_method::live_rows).
template <class S, class W = typename S::value_type>
void mxv(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, S semiring,
         const matrix_operand<W>& a, const sparse_vector<W>& u, const descriptor& desc,
         gpu_context& ctx, sparse_vector<W>* improved = nullptr,
         value_range<W> improved_range = {}, op_counters* counters = nullptr);

// out = { (i, in[i]) : in[i] in range } -- the bucket B = {v : iΔ <= t[v] < (i+1)Δ}.
template <class W>
void select(sparse_vector<W>& out, const dense_vector<W>& in, value_range<W> range,
            gpu_context& ctx);

// out = in .* pattern: the values of `in` at the indices of `pattern` (t .* B).
template <class W>
void gather(sparse_vector<W>& out, const dense_vector<W>& in, const sparse_vector<W>& pattern,
            gpu_context& ctx);

// out = { (i, in[i]) : i listed in `pattern`, in[i] in range }, each index once: `pattern` may be
// a worklist that repeats an index (Near-Far's far pile), `out` never does (the stamp mechanism of
// vxm's `improved` output); order unspecified; `out` must not be `pattern`. Near-Far's near/far
// split and its far-pile compaction (Davidson et al. IV-C) are calls of this select.
template <class W>
void select(sparse_vector<W>& out, const dense_vector<W>& in, const sparse_vector<W>& pattern,
            value_range<W> range, gpu_context& ctx);

// w = w ++ u: u's entries after w's, as they are (a worklist's push_back: the result may repeat
// an index until a select over it as pattern). Throws error_code::invalid_value when the entries
// would not fit in w (capacity w.size()).
template <class W>
void append(sparse_vector<W>& w, const sparse_vector<W>& u, gpu_context& ctx);

// The minimum of the entries of `in` inside `range` (infinity<W>() if none): the next
// non-empty bucket's lower end.
template <class W>
W reduce_min(const dense_vector<W>& in, value_range<W> range, gpu_context& ctx);

// select and reduce_min of one vector in one host round trip: out = { (i, in[i]) : in[i] in
// range } and the returned minimum of the entries inside `least_range`. A bucket loop's step to
// its next bucket: the next non-empty bucket's lower end, with the bucket after this one
// selected in the same breath (right whenever that bucket is the next non-empty one).
template <class W>
W select_reduce_min(sparse_vector<W>& out, const dense_vector<W>& in, value_range<W> range,
                    value_range<W> least_range, gpu_context& ctx);

// w<mask> = value: assign a scalar to the (masked) positions; replace deletes outside the mask.
template <class W>
void assign(dense_vector<W>& w, const mask_view<W>& mask, W value, bool replace,
            gpu_context& ctx);

// w[u.indices] = u.values (scatter into a dense vector; later entries win on duplicates).
template <class W>
void assign(dense_vector<W>& w, const sparse_vector<W>& u, gpu_context& ctx);

// w<mask> = accum(w, a ⊕ b) (ewise_add: union; with dense operands both entries exist unless
// one is the identity) and w<mask> = accum(w, a ⊗ b) (ewise_mult: intersection).
template <class S, class W = typename S::value_type>
void ewise_add(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, S semiring,
               const dense_vector<W>& a, const dense_vector<W>& b, gpu_context& ctx);
template <class S, class W = typename S::value_type>
void ewise_mult(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, S semiring,
                const dense_vector<W>& a, const dense_vector<W>& b, gpu_context& ctx);

// Unary operators for apply.
enum class unary_op { identity, add_scalar, min_scalar, max_scalar };
// w<mask> = accum(w, f(u)) over the entries of u (identity entries stay absent).
template <class W>
void apply(dense_vector<W>& w, const mask_view<W>& mask, accumulator accum, unary_op f,
           W scalar, const dense_vector<W>& u, gpu_context& ctx);

// Monoid reduction of the present entries of u to a scalar (min or plus).
template <class S, class W = typename S::value_type>
W reduce(S semiring, const dense_vector<W>& u, gpu_context& ctx);
// The same over the entries of a sparse vector (the identity when it has none).
template <class S, class W = typename S::value_type>
W reduce(S semiring, const sparse_vector<W>& u, gpu_context& ctx);

// Number of present (non-identity) entries of a dense vector.
template <class W>
std::size_t nvals(const dense_vector<W>& u, gpu_context& ctx);

}  // namespace tropic
