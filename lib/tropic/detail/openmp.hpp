// Internal: OpenMP where the build has it, the serial loop where it does not. One home for the
// pragma macro and the size below which a parallel loop does not pay.
#pragma once

#include "tropic/csr.hpp"

#if defined(_OPENMP)
#include <omp.h>
#define TROPIC_OMP_STR(x) #x
#define TROPIC_OMP(args) _Pragma(TROPIC_OMP_STR(omp args))
#else
#define TROPIC_OMP(args)
#endif

namespace tropic::detail {
// Loops over fewer arcs than this run serially: thread start-up and the reductions (tens of
// microseconds, more on a loaded machine) do not pay for themselves.
inline constexpr arc_index parallel_threshold = arc_index{1} << 20;
// The threads a parallel region gets (1 without OpenMP).
inline int worker_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}
}  // namespace tropic::detail
