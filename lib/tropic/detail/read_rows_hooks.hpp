// Test hooks of read_graph_rows (lib/io_rows.cpp): not installed.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tropic::detail {

// The bytes read_graph_rows reads its input in at a time, after a first 64 KiB that tells the
// format: a text body in chunks of whole lines, a binary file's arrays in pieces.
// Process-wide; 0 restores the default of 4 MiB. Tests shrink it so that small files are many
// chunks long.
void set_read_rows_chunk_bytes(std::size_t bytes) noexcept;

// What the calling thread's last read_graph_rows held and read of its input (not the block's
// arcs, which are the block's size whatever the input).
struct read_rows_trace {
  std::size_t chunk_bytes = 0;   // the chunk size it read with
  std::size_t peak_input = 0;    // most bytes of input held at once: chunk, carried line, pieces
  std::uint64_t refills = 0;     // text: chunks read after the first
  std::uint64_t carried = 0;     // text: refills that carried a line the chunk's end had cut
  std::uint64_t bytes_read = 0;  // bytes of the (decompressed) input read into memory
};
read_rows_trace last_read_rows_trace() noexcept;

}  // namespace tropic::detail
