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
// The same over n + 1 offsets someone else owns (a csr_host_view's).
std::vector<row_range> partition_rows(const arc_index* row_offsets, vertex n, std::size_t parts);

template <class W>
std::vector<row_range> partition_rows(const csr<W>& g, std::size_t parts) {
  return partition_rows(g.row_offsets, parts);
}

// `parts` contiguous ranges of [0, n) whose sizes differ by at most one. For a graph no one holds
// whole (generate_rows, read_graph_rows), arc counts are unknown before the blocks exist; vertex
// counts are exact for uniform graphs, within a row's 4 arcs for grids, and for Kronecker graphs
// an estimate that holds on average because their vertex ids are randomly permuted. parts == 0
// throws error(invalid_value).
std::vector<row_range> partition_vertices(vertex n, std::size_t parts);

// Rows [rows.begin, rows.end) of a graph of n vertices: the block of the whole CSR that one part
// of a 1D row partition holds. Columns keep their global ids.
template <class W>
struct csr_rows {
  vertex n = 0;                        // the whole graph's vertex count (columns are < n)
  row_range rows;                      // the rows held
  std::vector<arc_index> row_offsets;  // rows.size() + 1 entries, row_offsets[0] = 0
  std::vector<vertex> columns;         // global ids, sorted within each row
  std::vector<W> weights;

  arc_index arcs() const noexcept { return columns.size(); }
};

// Rows [rows.begin, rows.end) of build_csr(arcs, options), from any arc list that holds at least
// the arcs whose source is in the block (with options.symmetrize, whose source or target is):
// others are ignored. Same checks and rules as build_csr (endpoints < arcs.n, finite weights,
// self-loops, duplicate policy, input order for keep_first / keep_last); O(block + arcs) memory.
template <class W>
csr_rows<W> build_csr_rows(const arc_list<W>& arcs, row_range rows,
                           const build_options& options = {});

// Throws error(invalid_value) naming `who` unless rows.begin <= rows.end <= n.
void check_row_range(row_range rows, vertex n, const char* who);

}  // namespace tropic
