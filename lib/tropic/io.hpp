// Graph files: readers (format detected by content, gzip transparently) and writers.
//
// Formats:
//  - Matrix Market `coordinate` real/integer/pattern, general/symmetric, 1-based.
//  - DIMACS 9th challenge shortest-path text (`c`, `p sp n m`, `a u v w`), 1-based.
//  - SNAP edge list (`#` comments, `u v [w]`, 0-based; sparse ids are compacted in order of
//    first appearance only when `compact_ids` is set, otherwise n = max id + 1).
//  - Galois binary `.gr` version 1 (what ADDS reads).
//  - tropic's binary cache (a header, then the CSR arrays): fast re-reads for benchmarks.
//
// Unweighted inputs (MM pattern, SNAP without a third column) get deterministic weights from
// `edge_weight(u, v, seed)`: a hash of the unordered pair {u, v}, so both directions of an
// undirected edge get the same weight in 1..255, every run; `unit_weights` forces all 1.
#pragma once

#include <cstdint>
#include <string>

#include "tropic/csr.hpp"

namespace tropic {

enum class graph_format { matrix_market, dimacs, snap, galois_binary, tropic_binary };
const char* format_name(graph_format f) noexcept;

struct read_options {
  bool unit_weights = false;         // ignore file weights / hashing: every arc weighs 1
  std::uint64_t weight_seed = 0;     // seed of edge_weight() for unweighted inputs
  bool allow_negative = false;       // Bellman-Ford only; everything else needs weights >= 0
  bool compact_ids = false;          // SNAP: renumber ids 0..k-1 in order of appearance
  bool progress = false;             // print progress to stderr for reads longer than a second
  build_options build;               // duplicates, self-loops, symmetrize
};

struct graph_file_info {
  graph_format format = graph_format::snap;
  bool weighted = false;          // weights came from the file
  bool symmetric_storage = false; // Matrix Market `symmetric`: the reader mirrored the arcs
  arc_index arcs_in_file = 0;     // entries in the file before mirroring / duplicate removal
};

// Deterministic weight in 1..255 for the unordered pair {u, v}.
std::uint32_t edge_weight(vertex u, vertex v, std::uint64_t seed) noexcept;

// Reads a graph. Throws tropic::error (io, parse, invalid_index, invalid_value) with a message
// that names the file, the line (or arc index) and the offending value.
template <class W>
arc_list<W> read_arcs(const std::string& path, const read_options& opts = {},
                      graph_file_info* info = nullptr);
template <class W>
csr<W> read_graph(const std::string& path, const read_options& opts = {},
                  graph_file_info* info = nullptr);

template <class W>
void write_matrix_market(const csr<W>& g, const std::string& path);
// Galois .gr version 1 with the weight's own bytes as edge data (size 4 for uint32/int32/float,
// 8 for uint64/int64/double). Galois reads size 4 as uint32 and 8 as uint64; for the other four
// types a 16-byte trailer after the edge data ("TROPICWT", uint32 type tag, uint32 0), which
// Galois ignores, lets read_graph read the weights back exactly. See lib/io.cpp.
template <class W>
void write_galois(const csr<W>& g, const std::string& path);
template <class W>
void write_binary_cache(const csr<W>& g, const std::string& path);

}  // namespace tropic
