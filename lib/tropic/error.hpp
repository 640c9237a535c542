// tropic's exceptions. Inside C++ every failure is an exception derived from tropic::error
// carrying a code; the C API (capi/c_api.cpp) catches them and turns the code into a GrB_Info.
#pragma once

#include <stdexcept>
#include <string>

namespace tropic {

enum class error_code {
  invalid_value,    // a bad argument or a bad value in the input (negative weight, NaN, ...)
  invalid_index,    // a vertex id outside [0, n): the source, or an arc endpoint
  parse,            // a malformed, truncated or inconsistent input file
  io,               // a file that cannot be opened, read or written
  not_implemented,  // a type or algorithm combination that does not exist
  overflow,         // a distance that cannot be represented in the weight type
  out_of_memory,    // host or device memory exhausted (the message names the sizes)
  no_device,        // a GPU algorithm requested where no CUDA device exists
  cuda,             // a CUDA / cuSPARSE / CUB call failed
  graphblas,        // a SuiteSparse:GraphBLAS call failed
  negative_cycle,   // a cycle of negative weight is reachable from the source: no shortest paths
};

class error : public std::runtime_error {
 public:
  error(error_code code, const std::string& what) : std::runtime_error(what), code_(code) {}
  error_code code() const noexcept { return code_; }

 private:
  error_code code_;
};

}  // namespace tropic
