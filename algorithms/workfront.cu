// Workfront Sweep (Davidson, Baxter, Garland & Owens, "Work-Efficient Parallel GPU Methods for
// Single-Source Shortest Paths", IPDPS 2014, section IV-C): Bellman-Ford over the frontier of
// vertices whose distance changed in the previous sweep, until that frontier is empty.
//
// The paper removes duplicate frontier entries after each expansion with a lookup table (each
// entry writes its queue position at table[v], reads it back, and survives if it still owns v).
// Our push operator does the same thing during the expansion: its `improved` output lists every
// vertex whose distance decreased through a per-vertex stamp (atomicExch(stamp[v], call) != call),
// so each vertex is listed once per sweep -- the lookup table without the extra pass.
//
// Traversal (section IV-B) is the operator's: load-balanced partitioning (merge-path over the
// frontier's scanned degrees) by default, one warp per row on request (`balance`). Sweeps over a
// large frontier may run as a pull over A' when the matrix has its transpose (vxm's automatic
// direction); a strategy other than automatic pins the push, so that it is the one measured.
#include <limits>

#include "algebraic_epilogue.cuh"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {

template <class W>
result<W> workfront_sssp(const device_matrix<W>& A, vertex source, const options& opts,
                         load_balance balance) {
  const vertex n = A.rows();
  cuda_stream stream;
  gpu_context ctx(stream);
  const min_plus<W> min_plus_semiring;
  descriptor desc;
  desc.balance = balance;
  if (balance != load_balance::automatic) desc.dir = direction::push;
  op_counters counters;

  dense_vector<W> t(n, stream);
  sparse_vector<W> F(n, stream), tF(n, stream);

  result<W> out;
  statistics& st = out.stats;
  st.algorithm = algorithm_name(opts.algorithm);
  st.delta = std::numeric_limits<double>::infinity();  // one bucket: every vertex is "near"
  st.buckets = 1;

  cuda_timer timer(stream);
  // t = ∞; t[s] = 0; F = {s}
  assign(t, no_mask<W>(), infinity<W>(), false, ctx);
  F.upload({source}, {W(0)});
  assign(t, F, ctx);

  while (F.nvals() > 0) {
    // tF = t .* F
    gather(tF, t, F, ctx);
    st.vertices_relaxed += tF.nvals();
    // t = min(t, A' min.+ tF);  F = { v : t[v] decreased } (each v once: the dedup pass)
    vxm(t, no_mask<W>(), accumulator::min, min_plus_semiring, tF, all_of(A), desc, ctx, &F,
        value_range<W>{}, &counters);
    ++st.iterations;
  }
  return finish_algebraic_solve(A, t, source, opts, timer, ctx, counters, out);
}

#define TROPIC_INSTANTIATE(W)                                                               \
  template result<W> workfront_sssp<W>(const device_matrix<W>&, vertex, const options&, \
                                       load_balance);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
