// Internal: the functions sssp() dispatches to. Each lives in its own file under algorithms/.
#pragma once

#include "tropic/sssp.hpp"

namespace tropic::detail {

// algorithms/graphblas_cpu.cpp: delta-stepping on SuiteSparse:GraphBLAS (CPU, all cores).
template <class W>
result<W> graphblas_cpu_sssp(const csr<W>& g, vertex source, const options& opts);

#if defined(TROPIC_HAVE_CUDA)
// algorithms/gpu_dispatch.cu: uploads g and runs a GPU algorithm.
template <class W>
result<W> gpu_sssp(const csr<W>& g, vertex source, const options& opts);
#endif

// Throws invalid_index when source >= n, and invalid_value for negative weights when the
// algorithm needs non-negative ones (every one but bellman_ford, graphblas_cpu, automatic).
template <class W>
void check_sssp_arguments(const csr<W>& g, vertex source, algorithm a);

// Whether algorithm a gives exact distances with negative arcs.
bool accepts_negative_weights(algorithm a) noexcept;

// algorithms/bellman_ford_cpu.cpp: an algorithm found a reachable negative cycle (round n still
// improved); finds a vertex on it with the CPU reference and throws error_code::negative_cycle.
template <class W>
[[noreturn]] void throw_negative_cycle(const csr<W>& g, vertex source, const char* algorithm);

}  // namespace tropic::detail
