// Starting SuiteSparse:GraphBLAS once per process, and GrB_Info -> tropic::error.
#include "tropic/detail/graphblas_session.hpp"

#include <mutex>
#include <string>

#include "tropic/error.hpp"

namespace tropic::detail {

void ensure_graphblas() {
  static std::once_flag once;
  // call_once re-runs the lambda on the next call if it throws, so a failed start is retried.
  std::call_once(once, [] {
    const GrB_Info info = GrB_init(GrB_NONBLOCKING);
    // GrB_INVALID_VALUE: the application (or a library beside us) started GraphBLAS already,
    // possibly with GxB_init and its own allocator; we use it as it is.
    if (info != GrB_SUCCESS && info != GrB_INVALID_VALUE)
      throw error(error_code::graphblas,
                  "GraphBLAS failed to start: GrB_init returned " + std::to_string(info));
  });
}

void graphblas_check(GrB_Info info, const char* what) {
  if (info == GrB_SUCCESS) return;
  const std::string where = std::string("GraphBLAS ") + what + " failed (GrB_Info " +
                            std::to_string(static_cast<int>(info)) + ")";
  switch (info) {
    case GrB_OUT_OF_MEMORY:
      throw error(error_code::out_of_memory, where + ": out of memory");
    case GrB_INVALID_INDEX:
    case GrB_INDEX_OUT_OF_BOUNDS:
      throw error(error_code::invalid_index, where);
    case GrB_NOT_IMPLEMENTED:
      throw error(error_code::not_implemented, where);
    case GrB_INVALID_VALUE:
    case GrB_DOMAIN_MISMATCH:
    case GrB_DIMENSION_MISMATCH:
    case GrB_EMPTY_OBJECT:
      throw error(error_code::invalid_value, where);
    default:
      throw error(error_code::graphblas, where);
  }
}

}  // namespace tropic::detail
