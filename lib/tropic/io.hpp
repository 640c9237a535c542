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

#include <cstddef>
#include <cstdint>
#include <string>

#include "tropic/csr.hpp"
#include "tropic/partition.hpp"

namespace tropic {

enum class graph_format { matrix_market, dimacs, snap, galois_binary, tropic_binary };
const char* format_name(graph_format f) noexcept;

struct read_options {
  bool unit_weights = false;         // ignore file weights / hashing: every arc weighs 1
  std::uint64_t weight_seed = 0;     // seed of edge_weight() for unweighted inputs
  // Signed W (int32, int64, float, double): negative weights are read, as the C API and the CLI
  // read them (sssp's auto, bellman_ford and graphblas_cpu give exact distances, or report a
  // reachable negative cycle); false refuses them, naming the arc, for callers whose algorithm
  // needs weights >= 0 (dijkstra, delta_stepping). Unsigned W never holds one.
  bool allow_negative = true;
  bool compact_ids = false;          // SNAP: renumber ids 0..k-1 in order of appearance
  bool progress = false;             // print progress to stderr for reads longer than a second
  // Bytes a read may use. The input (decompressed) stops at it, and a graph's announced or
  // implied size is checked against it before anything that large is allocated: the error names
  // the file and the sizes. 0: the memory available when the read starts (MemAvailable).
  std::uint64_t memory_limit = 0;
  // Floating-point W only: an integer weight W cannot hold exactly (above 2^53 for double, 2^24
  // for float) is an error naming it instead of being rounded. `tropic --weights auto` sets it.
  bool exact_integers = false;
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

// A graph input's bytes, read once (decompressed when they start with the gzip magic), to parse
// as several weight types: a pipe or standard input can be read only once.
class graph_input {
 public:
  graph_input() = default;
  graph_input(graph_input&& o) noexcept;
  graph_input& operator=(graph_input&& o) noexcept;
  graph_input(const graph_input&) = delete;
  graph_input& operator=(const graph_input&) = delete;
  ~graph_input();
  const char* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  const std::string& name() const noexcept { return name_; }  // for messages
  bool was_gzip() const noexcept { return gzip_; }

 private:
  friend struct graph_input_access;
  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::string name_;
  bool gzip_ = false;
};

// `path` "-" is standard input; FIFOs and pipes work (nothing is ever seeked). Stops with an
// error past opts.memory_limit. Garbage is refused from its first 64 KiB.
graph_input load_graph_input(const std::string& path, const read_options& opts = {});
// The in-memory entry point (fuzzing, embedding): the same detection, gzip and limits as a file.
graph_input graph_input_from_memory(const void* data, std::size_t size,
                                    const std::string& name = "<memory>",
                                    const read_options& opts = {});

// Reads a graph. Throws tropic::error (io, parse, invalid_index, invalid_value) with a message
// that names the file, the line (or arc index) and the offending value.
template <class W>
arc_list<W> read_arcs(const std::string& path, const read_options& opts = {},
                      graph_file_info* info = nullptr);
template <class W>
csr<W> read_graph(const std::string& path, const read_options& opts = {},
                  graph_file_info* info = nullptr);

template <class W>
arc_list<W> read_arcs(const graph_input& in, const read_options& opts = {},
                      graph_file_info* info = nullptr);
template <class W>
csr<W> read_graph(const graph_input& in, const read_options& opts = {},
                  graph_file_info* info = nullptr);
// Frees the bytes once they are parsed, before the CSR is built (a parse error leaves `in` as it
// was, to be parsed again as another type; later errors leave it empty).
template <class W>
csr<W> read_graph(graph_input&& in, const read_options& opts = {},
                  graph_file_info* info = nullptr);

// Rows [rows.begin, rows.end) of exactly the CSR read_graph(path, opts) returns, as one part of a
// 1D row partition reads them (issue 38), in memory bounded by the block rather than the file.
// Text formats (Matrix Market, DIMACS, SNAP, gzipped or not) stream through one chunk of whole
// lines (4 MiB; a longer line grows it) into read_graph's own line parsers, which keep only arcs
// whose source row is in the block (with opts.build.symmetrize, those with either endpoint there;
// a Matrix Market `symmetric` file's mirrored arcs likewise): memory is the chunk, the block's
// arcs and the built block. Binary formats read the header, then the block's row offsets,
// columns and weights at their offsets, a plain file's size checked against its header first; a
// gzipped or piped one passes through once, keeping only those. With symmetrize every row's
// columns are scanned for arcs into the block, and a gzipped or piped binary file holds every
// row's offset (8 bytes a vertex). Errors are read_graph's, line numbers included; a binary
// file's arrays are checked where the block reads them, a stream's size once its end is reached,
// and a text file's bytes chunk by chunk (so of two faults in one file, either may be named).
// The block's arcs stop at opts.memory_limit. Rows are built with build_csr's duplicate and
// self-loop rules; rows outside the block never are, so duplicate_policy::error sees only the
// block's parallel arcs. A range with begin > end, or past n (known once the header, or for
// SNAP the file, is read), is error(invalid_value). partition_vertices(n, P) gives ranges without
// the whole graph.
template <class W>
csr_rows<W> read_graph_rows(const std::string& path, row_range rows, const read_options& opts = {},
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
