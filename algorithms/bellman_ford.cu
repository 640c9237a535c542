// Bellman-Ford with negative arcs on the min-plus operators (R. Bellman, 1958; E. F. Moore,
// 1959, in rounds): round k is t = min(t, A' min.+ (t .* B)) over the vertices B that round
// k - 1 improved. delta_stepping with Δ = ∞ is this loop for weights >= 0; it cannot take a
// negative arc: its bucket [0, ∞) drops the negative distances from B, its GPU-driven closure
// has no round bound, and a pull's row bounds read a row only while the floor is below w(i).
// Here every light step is a push (no floor, no row bound: each arc of B's rows is read) and B
// takes every improved vertex, [lowest, ∞).
//
// Round n improving anything proves a reachable negative cycle (after round k, t is at most
// the lightest walk of at most k arcs, and exact after n - 1 rounds without one; CLRS 24.1), so
// the loop never runs past n rounds; the report downloads A once to name a vertex on the cycle
// with the CPU reference (algorithms/bellman_ford_cpu.cpp). An unreachable cycle is never
// touched: only rows of reached vertices are pushed.
#include <limits>
#include <vector>

#include "tropic/detail/backends.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {

template <class W>
result<W> bellman_ford_sssp(const device_matrix<W>& A, vertex source, const options& opts) {
  const vertex n = A.rows();
  cuda_stream stream;
  gpu_context ctx(stream);
  const min_plus<W> tropical;
  descriptor desc;
  desc.dir = direction::push;
  op_counters counters;
  // Every finite value: a negative distance is as improved as a positive one.
  const value_range<W> finite{std::numeric_limits<W>::lowest(), infinity<W>()};

  dense_vector<W> t(n, stream);
  sparse_vector<W> B(n, stream), tB(n, stream);
  result<W> out;
  statistics& st = out.stats;
  st.algorithm = algorithm_name(opts.algorithm);
  st.delta = std::numeric_limits<double>::infinity();
  st.buckets = 1;

  cuda_timer timer(stream);
  // t = ∞; t[s] = 0; B = {s}
  assign(t, no_mask<W>(), infinity<W>(), false, ctx);
  B.upload({source}, {W(0)});
  assign(t, B, ctx);
  while (B.nvals() > 0) {
    // Round n would improve B: a reachable negative cycle.
    if (st.iterations == n) throw_negative_cycle(download_csr(A), source, st.algorithm.c_str());
    // tB = t .* B
    gather(tB, t, B, ctx);
    st.vertices_relaxed += tB.nvals();
    // t = min(t, A' min.+ tB);  B = { v : t[v] decreased }
    vxm(t, no_mask<W>(), accumulator::min, tropical, tB, all_of(A), desc, ctx, &B, finite,
        &counters);
    ++st.iterations;
  }
  st.milliseconds = timer.elapsed_ms();
  st.host_round_trips = ctx.round_trips;
  st.arcs_relaxed = ctx.read_arcs_scanned() + counters.arcs;
  finish_result(A, t.data(), source, opts, out, stream);
  return out;
}

#define TROPIC_INSTANTIATE(W) \
  template result<W> bellman_ford_sssp<W>(const device_matrix<W>&, vertex, const options&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
