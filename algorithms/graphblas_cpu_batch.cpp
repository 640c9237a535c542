// graphblas_cpu for many sources: graphblas_cpu.cpp's delta-stepping with the frontier vector
// become a k x n matrix (row i for sources[i]), vxm become GrB_mxm over min-plus, and the masks
// matrices: every arc read serves all the sources whose frontier holds its row.
//
// Matrices (k x n): T dense tentative distances; R the reached, not yet settled entries; B the
// frontier; S what the current light phase settled; Rl one mxm's result. The buckets are shared:
// bucket [iΔ, (i+1)Δ) is processed for every row at once, the next one the bucket of min(R) over
// all rows. Each row still visits its own non-empty buckets in order, which is all delta-stepping
// needs (Meyer & Sanders): a row with nothing in bucket i takes no part in it.
//
// Cutoff: relaxations beyond it are dropped before they reach T (not with negative arcs, where
// the result is masked instead), so each row's work is its ball. Negative arcs: Δ = ∞, the light
// rounds are Bellman-Ford rounds for all rows at once; round n still improving a row proves a
// negative cycle reachable from its source. Overflow and parents: per row, as graphblas_cpu.cpp.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "graphblas_cpu_common.hpp"
#include "tropic/detail/cutoff.hpp"

namespace tropic::detail {

using namespace gb;

namespace {
using matrix_handle = grb_handle<GrB_Matrix>;
using vector_handle = grb_handle<GrB_Vector>;

GrB_Index nvals_of(GrB_Matrix a) {
  GrB_Index k = 0;
  graphblas_check(GrB_Matrix_nvals(&k, a), "GrB_Matrix_nvals");
  return k;
}
}  // namespace

template <class W>
multi_result<W> graphblas_cpu_multi(const csr<W>& g, const std::vector<vertex>& sources,
                                    const options& opts) {
  using T = grb<W>;
  ensure_graphblas();
  const GrB_Index n = g.n, k = sources.size();
  multi_result<W> out;
  out.n = g.n;
  out.sources = sources;
  statistics& st = out.stats;
  st.algorithm = "graphblas_cpu";
  if (k == 0) return out;

  auto start = std::chrono::steady_clock::now();
  matrix_handle a;
  {
    const graphblas_rows<W> rows = to_graphblas_rows(g);
    const GrB_Index m = rows.columns.size();
    const std::vector<W>& weights = rows.offsets.empty() ? g.weights : rows.weights;
    const GrB_Index no_column = 0;
    const W no_weight = 0;
    graphblas_check(
        import_matrix<W>(a.out(), n,
                         rows.offsets.empty() ? g.row_offsets.data() : rows.offsets.data(),
                         m ? rows.columns.data() : &no_column, m ? weights.data() : &no_weight, m),
        "GrB_Matrix_import");
  }
  const bool negative = has_negative_arc(g);
  double delta = negative ? std::numeric_limits<double>::infinity() : opts.delta;
  if (delta == 0) delta = choose_delta(compute_stats(g));
  if (!(delta > 0))
    throw error(error_code::invalid_value,
                "graphblas_cpu: delta must be positive, got " + std::to_string(delta));
  st.delta = delta;
  const bool exact_fast_path = negative ? walk_sums_cannot_overflow(g) : sums_cannot_overflow(g);
  st.setup_milliseconds = elapsed_ms(start);
  start = std::chrono::steady_clock::now();
  grb_handle<GrB_BinaryOp> plus_op;
  grb_handle<GrB_Semiring> saturating;
  GrB_Semiring semiring = T::min_plus();
  if (!exact_fast_path && !std::is_floating_point_v<W>) {
    graphblas_check(
        GrB_BinaryOp_new(plus_op.out(), negative ? &clamping_plus<W> : &saturating_plus<W>,
                         T::type(), T::type(), T::type()),
        "GrB_BinaryOp_new");
    graphblas_check(GrB_Semiring_new(saturating.out(), T::min_monoid(), plus_op.get()),
                    "GrB_Semiring_new");
    semiring = saturating.get();
  }

  // AL = A .* (A <= Δ), AH = A .* (A > Δ)
  const W limit = light_limit<W>(delta);
  matrix_handle al, ah;
  graphblas_check(GrB_Matrix_new(al.out(), T::type(), n, n), "GrB_Matrix_new");
  graphblas_check(GrB_Matrix_new(ah.out(), T::type(), n, n), "GrB_Matrix_new");
  graphblas_check(T::select(al.get(), T::value_le(), a.get(), limit), "GrB_select (AL)");
  graphblas_check(T::select(ah.get(), T::value_gt(), a.get(), limit), "GrB_select (AH)");
  a.reset();
  const bool has_heavy = nvals_of(ah.get()) > 0;

  matrix_handle t, unsettled, frontier, settled, relaxed, improved;
  for (matrix_handle* x : {&t, &unsettled, &frontier, &settled, &relaxed})
    graphblas_check(GrB_Matrix_new(x->out(), T::type(), k, n), "GrB_Matrix_new");
  graphblas_check(GrB_Matrix_new(improved.out(), GrB_BOOL, k, n), "GrB_Matrix_new");

  // T = inf; T(i, s_i) = 0; R = { (i, s_i): 0 }
  {
    std::vector<GrB_Index> rows(k), cols(k);
    const std::vector<W> zeros(k, W(0));
    for (GrB_Index i = 0; i < k; ++i) rows[i] = i, cols[i] = sources[i];
    graphblas_check(T::fill(t.get(), infinity<W>(), k, n), "GrB_assign (T = inf)");
    graphblas_check(T::build(unsettled.get(), rows.data(), cols.data(), zeros.data(), k),
                    "GrB_Matrix_build (R)");
    graphblas_check(GrB_Matrix_assign(t.get(), nullptr, T::min(), unsettled.get(), GrB_ALL, k,
                                      GrB_ALL, n, nullptr),
                    "GrB_assign (T min= R)");
  }

  const W cut = cutoff_limit<W>(opts.cutoff);
  const bool prune = cut != infinity<W>() && !negative;
  // Folds Rl into T and R and leaves in B the entries it improved below the bucket's end. Rl is
  // first cut to its improving entries, so T and R take plain accumulations: GraphBLAS defers
  // them (pending tuples) to the next read of R, once per bucket, instead of a masked merge per
  // step.
  auto absorb = [&](W bucket_hi) {
    // Rl = Rl .* (Rl <= cutoff)
    if (prune)
      graphblas_check(T::select(relaxed.get(), nullptr, T::value_le(), relaxed.get(), cut, nullptr),
                      "GrB_select (cutoff)");
    // imp = Rl < T;  Rl<imp, replace> = Rl
    graphblas_check(GrB_Matrix_eWiseMult_BinaryOp(improved.get(), nullptr, nullptr, T::lt(),
                                                  relaxed.get(), t.get(), nullptr),
                    "GrB_eWiseMult (Rl < T)");
    graphblas_check(GrB_Matrix_apply(relaxed.get(), improved.get(), nullptr, T::identity(),
                                     relaxed.get(), GrB_DESC_R),
                    "GrB_apply (Rl improving)");
    // T = min(T, Rl);  R = min(R, Rl)
    graphblas_check(GrB_Matrix_assign(t.get(), nullptr, T::min(), relaxed.get(), GrB_ALL, k,
                                      GrB_ALL, n, nullptr),
                    "GrB_assign (T min= Rl)");
    graphblas_check(GrB_Matrix_assign(unsettled.get(), nullptr, T::min(), relaxed.get(), GrB_ALL, k,
                                      GrB_ALL, n, nullptr),
                    "GrB_assign (R min= Rl)");
    // B = Rl .* (Rl < hi)
    graphblas_check(
        T::select(frontier.get(), nullptr, T::value_lt(), relaxed.get(), bucket_hi, nullptr),
        "GrB_select (next frontier)");
  };

  while (nvals_of(unsettled.get()) > 0) {
    W lowest = infinity<W>();
    graphblas_check(T::reduce_min(&lowest, unsettled.get()), "GrB_reduce (min R)");
    const W hi = bucket_end(lowest, delta);
    ++st.buckets;
    // B = R .* (R < hi)
    graphblas_check(T::select(frontier.get(), nullptr, T::value_lt(), unsettled.get(), hi, nullptr),
                    "GrB_select (bucket)");
    GrB_Index frontier_size = nvals_of(frontier.get());
    while (frontier_size > 0) {
      while (frontier_size > 0) {
        ++st.iterations;
        st.vertices_relaxed += frontier_size;
        // Rl = B min.+ AL
        graphblas_check(
            GrB_mxm(relaxed.get(), nullptr, nullptr, semiring, frontier.get(), al.get(), nullptr),
            "GrB_mxm (light)");
        absorb(hi);
        frontier_size = nvals_of(frontier.get());
        // Round n (Δ = ∞: a light round is a Bellman-Ford round) still improved a row: a
        // negative cycle reachable from that row's source.
        if (negative && frontier_size > 0 && st.iterations >= n) {
          std::vector<GrB_Index> rows(frontier_size);
          GrB_Index count = frontier_size;
          graphblas_check(
              GrB_Matrix_extractTuples_BOOL(rows.data(), nullptr, nullptr, &count, frontier.get()),
              "GrB_extractTuples (cycle row)");
          throw_negative_cycle(g, sources[rows.front()], "graphblas_cpu");
        }
      }
      // S = R .* (R < hi): what the light phase settled (every entry of bucket i is in R, and
      // nothing below it is); R = R .* (R >= hi) drops it.
      graphblas_check(
          T::select(settled.get(), nullptr, T::value_lt(), unsettled.get(), hi, nullptr),
          "GrB_select (S)");
      graphblas_check(
          T::select(unsettled.get(), nullptr, T::value_ge(), unsettled.get(), hi, nullptr),
          "GrB_select (R minus S)");
      if (has_heavy) {
        st.vertices_relaxed += nvals_of(settled.get());
        // Rl = S min.+ AH
        graphblas_check(
            GrB_mxm(relaxed.get(), nullptr, nullptr, semiring, settled.get(), ah.get(), nullptr),
            "GrB_mxm (heavy)");
        absorb(hi);
        frontier_size = nvals_of(frontier.get());  // non-zero only through float rounding
      }
    }
  }

  // Row i of T, through a length-n vector (T' column i): full, so in index order.
  out.distances.resize(k * n);
  if (opts.parents) out.parents.resize(k * n);
  vector_handle row;
  graphblas_check(GrB_Vector_new(row.out(), T::type(), n), "GrB_Vector_new");
  std::vector<W> dist(n);
  for (GrB_Index i = 0; i < k; ++i) {
    graphblas_check(
        GrB_Col_extract(row.get(), nullptr, nullptr, t.get(), GrB_ALL, n, i, GrB_DESC_T0),
        "GrB_Col_extract (row of T)");
    GrB_Index count = n;
    graphblas_check(T::extract(dist.data(), &count, row.get()), "GrB_extractTuples");
    if (count != n)
      throw error(error_code::graphblas, "graphblas_cpu: a distance row lost entries");
    if (!exact_fast_path && cut == infinity<W>()) check_no_overflow(g, dist);
    if (negative) check_negative_extremes(g, sources[i], dist);
    mask_beyond(opts.cutoff, dist, nullptr);
    std::copy(dist.begin(), dist.end(), out.distances.begin() + i * n);
    if (opts.parents) {
      const std::vector<std::int64_t> p = shortest_path_tree(g, sources[i], dist);
      std::copy(p.begin(), p.end(), out.parents.begin() + i * n);
    }
  }
  st.milliseconds = elapsed_ms(start);
  return out;
}

#define TROPIC_INSTANTIATE(W)                                                                \
  template multi_result<W> graphblas_cpu_multi<W>(const csr<W>&, const std::vector<vertex>&, \
                                                  const options&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)
#undef TROPIC_INSTANTIATE

}  // namespace tropic::detail
