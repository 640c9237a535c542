// The end of a solve written in the operators (Near-Far, Workfront, DA2CF): its time, the arcs
// it read and the shared result epilogue (finish_result).
#pragma once

#include "tropic/detail/gpu_backends.hpp"
#include "tropic/device_memory.hpp"
#include "tropic/operators.hpp"

namespace tropic::detail {

// Pushes count their arcs on the device (ctx); a pull reports its rows' arcs on the host
// (counters, an upper bound).
template <class W>
result<W> finish_algebraic_solve(const device_matrix<W>& A, const dense_vector<W>& t,
                                 vertex source, const options& opts, cuda_timer& timer,
                                 gpu_context& ctx, const op_counters& counters, result<W>& out) {
  out.stats.milliseconds = timer.elapsed_ms();
  out.stats.arcs_relaxed = ctx.read_arcs_scanned() + counters.arcs;
  finish_result(A, t.data(), source, opts, out, ctx.stream());
  return out;
}

}  // namespace tropic::detail
