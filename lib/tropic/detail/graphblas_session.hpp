// Internal: one place that starts SuiteSparse:GraphBLAS and turns GrB_Info codes into
// tropic::error. Everything in tropic that calls GraphBLAS goes through here first.
#pragma once

// SuiteSparse:GraphBLAS 7.4's header has no extern "C" of its own: C++ must add it, after
// including beforehand the C++ headers it pulls in (templates cannot have C linkage).
#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <complex>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
extern "C" {
#include <GraphBLAS.h>
}

#include "tropic/csr.hpp"

namespace tropic::detail {

// Calls GrB_init(GrB_NONBLOCKING) once per process (thread-safe). A program that already
// started GraphBLAS itself (GrB_init or GxB_init with its own allocator) is fine: GraphBLAS then
// answers GrB_INVALID_VALUE, which means "already running", and its settings stay in force.
// Throws tropic::error(graphblas) if GraphBLAS cannot start.
void ensure_graphblas();

// Throws tropic::error for a failed GraphBLAS call: out_of_memory for GrB_OUT_OF_MEMORY,
// invalid_index / invalid_value / not_implemented where GraphBLAS says so, else graphblas.
// `what` names the operation (a string literal).
void graphblas_check(GrB_Info info, const char* what);

// GrB_free is a C11 _Generic macro; C++ gets overloads.
inline void grb_free(GrB_Matrix* o) noexcept { GrB_Matrix_free(o); }
inline void grb_free(GrB_Vector* o) noexcept { GrB_Vector_free(o); }
inline void grb_free(GrB_Scalar* o) noexcept { GrB_Scalar_free(o); }
inline void grb_free(GrB_BinaryOp* o) noexcept { GrB_BinaryOp_free(o); }
inline void grb_free(GrB_Semiring* o) noexcept { GrB_Semiring_free(o); }
inline void grb_free(GrB_Descriptor* o) noexcept { GrB_Descriptor_free(o); }

// Owns one GraphBLAS object and frees it on every exit path.
template <class Object>
class grb_handle {
 public:
  grb_handle() = default;
  explicit grb_handle(Object o) noexcept : object_(o) {}
  grb_handle(const grb_handle&) = delete;
  grb_handle& operator=(const grb_handle&) = delete;
  grb_handle(grb_handle&& other) noexcept : object_(other.release()) {}
  grb_handle& operator=(grb_handle&& other) noexcept {
    if (this != &other) {
      reset();
      object_ = other.release();
    }
    return *this;
  }
  ~grb_handle() { reset(); }

  Object get() const noexcept { return object_; }
  Object* out() noexcept {  // for GrB_*_new(&...): frees what was held first
    reset();
    return &object_;
  }
  Object release() noexcept {
    Object o = object_;
    object_ = nullptr;
    return o;
  }
  void reset() noexcept {
    if (object_ != nullptr) grb_free(&object_);
    object_ = nullptr;
  }

 private:
  Object object_ = nullptr;
};

// tropic's CSR of GraphBLAS's CSR arrays (64-bit row pointers ap[0..n], column ids aj, values
// ax; iso: every value is ax[0]; jumbled: a row's columns may be out of order): self-loops
// dropped, rows sorted by column. The C API's copy of a borrowed A (capi/c_api.cpp).
template <class W>
csr<W> csr_of_graphblas_arrays(vertex n, const GrB_Index* ap, const GrB_Index* aj, const W* ax,
                               bool iso, bool jumbled);

// GrB_Matrix_import (GraphBLAS copies the arrays) of an n x n CSR matrix of W, for every
// weight type tropic ships; GrB_NOT_IMPLEMENTED for any other.
template <class W>
inline GrB_Info import_matrix(GrB_Matrix* a, GrB_Index n, const GrB_Index* ap, const GrB_Index* aj,
                       const W* ax, GrB_Index m) {
#define TROPIC_IMPORT(T, SUFFIX)                                                   \
  if constexpr (std::is_same_v<W, T>)                                              \
    return GrB_Matrix_import_##SUFFIX(a, GrB_##SUFFIX, n, n, ap, aj, ax, n + 1, m, m, \
                                      GrB_CSR_FORMAT);
  TROPIC_IMPORT(std::uint32_t, UINT32)
  TROPIC_IMPORT(std::int32_t, INT32)
  TROPIC_IMPORT(std::uint64_t, UINT64)
  TROPIC_IMPORT(std::int64_t, INT64)
  TROPIC_IMPORT(float, FP32)
  TROPIC_IMPORT(double, FP64)
#undef TROPIC_IMPORT
  return GrB_NOT_IMPLEMENTED;
}

}  // namespace tropic::detail
