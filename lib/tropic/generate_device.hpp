// Generated graphs built on a GPU (issue 38): a block of rows of exactly the graph
// generate<W>(spec, seed) returns, made on the current device with the same counter-based draws
// (lib/generate_draw.hpp), so that each GPU of a multi-GPU run builds its own part and a graph
// too large for one host array never passes through one. Needs a CUDA build.
#pragma once

#include <cstdint>
#include <string>

#include "tropic/device_matrix.hpp"
#include "tropic/partition.hpp"

namespace tropic {

// The n-row device_matrix whose rows in `rows` are generate<W>(spec, seed)'s and whose other rows
// are empty (a distributed_matrix's part; rows = [0, n) gives the whole graph). `symmetric` marks
// the matrix as its own transpose: pass it only for the whole range of a symmetric family (kron,
// grid). Kronecker blocks draw every edge on the device (twice: count, then fill) and keep those
// with an endpoint in the block, then sort each row by (column, weight) and keep the lightest of
// parallel arcs; grid rows are drawn alone. Uniform graphs are refused (not_implemented: build
// them on the host with generate_rows). Throws invalid_value for a malformed spec or range and
// out_of_memory naming the bytes when the block's build does not fit the device.
template <class W>
device_matrix<W> generate_on_device(const std::string& spec, std::uint64_t seed, row_range rows,
                                    bool symmetric, cudaStream_t stream = nullptr);

}  // namespace tropic
