// Synthetic graphs, deterministic for a seed. Integer weights drawn uniformly from
// [min_weight, max_weight] and stored as W.
#pragma once

#include <cstdint>
#include <string>

#include "tropic/csr.hpp"
#include "tropic/partition.hpp"

namespace tropic {

// Graph500 Kronecker / R-MAT (A = 0.57, B = C = 0.19, D = 0.05), 2^scale vertices,
// edge_factor * 2^scale undirected edges, vertex ids permuted; symmetrized (both directions
// carry the same weight), self-loops dropped, parallel arcs keep the minimum.
template <class W>
csr<W> generate_kronecker(int scale, int edge_factor, std::uint64_t seed, W min_weight = 1,
                          W max_weight = 255);

// Uniform random directed graph with a fixed out-degree (Martin et al.): every vertex gets
// `degree` out-arcs to uniformly random other vertices.
template <class W>
csr<W> generate_uniform(vertex n, int degree, std::uint64_t seed, W min_weight = 1,
                        W max_weight = 10);

// rows x cols 2D grid, 4-neighbour, undirected (both directions share a weight): road-like,
// diameter rows + cols.
template <class W>
csr<W> generate_grid(vertex rows, vertex cols, std::uint64_t seed, W min_weight = 1,
                     W max_weight = 1000);

// "kron:SCALE[:EF]", "uniform:N:DEG", "grid:ROWS:COLS" with each family's default weights.
// Throws tropic::error(invalid_value) for a malformed spec.
template <class W>
csr<W> generate(const std::string& spec, std::uint64_t seed);

// Rows [rows.begin, rows.end) of exactly the graph generate<W>(spec, seed) returns, built without
// the rest of it: the block each GPU of a multi-GPU run generates for its part of a 1D row
// partition (partition_vertices(graph_spec_vertices(spec), P) addresses the parts). Memory is
// O(the block). Time is O(the block) for uniform and grid graphs (a row's arcs depend on the row
// alone) and O(all edges) per block for Kronecker graphs, whose every edge is drawn to find those
// with an endpoint in the block (generate_on_device, tropic/generate_device.hpp, runs that walk
// on a GPU). Throws
// error(invalid_value) for a malformed spec or a range outside [0, n) or with begin > end.
template <class W>
csr_rows<W> generate_rows(const std::string& spec, std::uint64_t seed, row_range rows);

// The vertex count of the graph `spec` describes, without generating it.
vertex graph_spec_vertices(const std::string& spec);

}  // namespace tropic
