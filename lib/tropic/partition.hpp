// A 1D row partition of a CSR matrix: P contiguous row ranges, each holding about the same
// number of arcs, the layout in which several GPUs of one host split A by rows (issue 38).
#pragma once

#include <cstddef>
#include <vector>

#include "tropic/csr.hpp"

namespace tropic {

// Rows [begin, end) of a matrix.
struct row_range {
  vertex begin = 0;
  vertex end = 0;
  vertex size() const noexcept { return end - begin; }
  bool empty() const noexcept { return begin == end; }
};

// `parts` ranges in row order, contiguous, covering every row [0, n) exactly once. Balanced by
// arcs plus rows (a row costs its degree + 1), so rows without arcs still spread over the parts.
// More parts than rows gives empty ranges. parts == 0 throws error(invalid_value).
std::vector<row_range> partition_rows(const std::vector<arc_index>& row_offsets, std::size_t parts);

template <class W>
std::vector<row_range> partition_rows(const csr<W>& g, std::size_t parts) {
  return partition_rows(g.row_offsets, parts);
}

}  // namespace tropic
