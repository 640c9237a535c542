// DA2CF: Dijkstra's algorithm adapted to compound frontiers (Martín, Torres & Gavilanes, "CUDA
// Solutions for the SSSP Problem", ICCS 2009, section 3, relax_F with atomicMin), written on the
// min-plus operators. Every unresolved vertex at the minimum estimate is promoted at once:
//
//   t = ∞; t[s] = 0; F = {s}; m = 0
//   loop:
//     t = min(t, A' min.+ (t .* F))                       # relax(c, f, u)
//     m = min{ t[v] : v unresolved };  stop if m = ∞     # minimum(c, u)
//     F = { v unresolved : t[v] = m };  resolve F        # update(c, f, u, mssp)
//
// The unresolved set needs no flag array: with non-negative weights the frontiers come in
// non-decreasing order of m, so after the frontier at m (and everything it pulls down to m) is
// relaxed, the resolved vertices are exactly those with t <= m. "Unresolved" is the value range
// (m, ∞), and the minimum over it is one reduce_min.
//
// Zero-weight arcs (the paper assumes positive weights) can pull an unresolved vertex down to m
// itself while the frontier at m is relaxed. Those vertices are the relax's `improved` output
// restricted to [m, m]; they are at the minimum and unresolved, so they are the next frontier
// directly -- the same set the paper's minimum/update steps would find, without the two passes.
//
// Not masked by "unresolved" (the paper's u[j] test): a resolved vertex already holds its final
// distance, so relaxing into it never writes (the push filters x < t[v] before its atomicMin).
// One O(n) reduce and one O(n) select per distinct distance value: slow by design on weighted
// graphs with many distinct distances; it is the exactness baseline of the GPU family.
#include <cmath>
#include <limits>
#include <type_traits>

#include "algebraic_epilogue.cuh"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {

namespace {

// The smallest W above a finite x: [x, next_above(x)) is the range {x}.
template <class W>
W next_above(W x) {
  if constexpr (std::is_floating_point_v<W>)
    return std::nextafter(x, infinity<W>());
  else
    return W(x + 1);  // x < max() = infinity<W>(), so no overflow
}

}  // namespace

template <class W>
result<W> da2cf_sssp(const device_matrix<W>& A, vertex source, const options& opts) {
  const vertex n = A.rows();
  cuda_stream stream;
  gpu_context ctx(stream);
  const min_plus<W> min_plus_semiring;
  const descriptor desc;  // push for small frontiers, pull over A' for large ones
  op_counters counters;
  constexpr W inf = infinity<W>();

  dense_vector<W> t(n, stream);
  sparse_vector<W> F(n, stream), Z(n, stream);

  result<W> out;
  statistics& st = out.stats;
  st.algorithm = algorithm_name(opts.algorithm);
  st.delta = std::numeric_limits<double>::infinity();  // as Dijkstra: no buckets

  cuda_timer timer(stream);
  // t = ∞; t[s] = 0; F = {s}
  assign(t, no_mask<W>(), inf, false, ctx);
  F.upload({source}, {W(0)});
  assign(t, F, ctx);
  W m = W(0);  // mssp: the frontier's estimate
  st.buckets = 1;

  for (;;) {
    st.vertices_relaxed += F.nvals();
    // relax: t = min(t, A' min.+ F);  Z = { v : t[v] decreased to m } (zero-weight arcs)
    vxm(t, no_mask<W>(), accumulator::min, min_plus_semiring, F, all_of(A), desc, ctx, &Z,
        value_range<W>{m, next_above(m)}, &counters);
    ++st.iterations;
    if (Z.nvals() > 0) {
      // F = t .* Z: still at the minimum m, and unresolved until now
      gather(F, t, Z, ctx);
      continue;
    }
    // minimum: m = min{ t[v] : m < t[v] < ∞ } (the unresolved vertices are those above m)
    m = reduce_min(t, value_range<W>{next_above(m), inf}, ctx);
    if (m == inf) break;
    ++st.buckets;
    // update: F = { (v, t[v]) : t[v] = m }
    select(F, t, value_range<W>{m, next_above(m)}, ctx);
  }
  return finish_algebraic_solve(A, t, source, opts, timer, ctx, counters, out);
}

#define TROPIC_INSTANTIATE(W) \
  template result<W> da2cf_sssp<W>(const device_matrix<W>&, vertex, const options&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
