// libFuzzer target for the graph readers (lib/io.cpp) through the in-memory entry point. One
// source, one binary per format: TROPIC_FUZZ_PREFIX (the bytes that make detection choose the
// format) is put before the fuzzer's input, so each target spends its time inside one parser
// instead of rediscovering the magic; TROPIC_FUZZ_GZIP compresses the result first, so the gzip
// path and the parser behind it are fuzzed together. Every input must either parse into a
// consistent CSR or throw tropic::error: anything else (a crash, a sanitizer report, another
// exception, a leak, a hang) is a finding.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tropic/csr.hpp"
#include "tropic/error.hpp"
#include "tropic/io.hpp"

#ifndef TROPIC_FUZZ_PREFIX
#define TROPIC_FUZZ_PREFIX ""
#endif
#ifndef TROPIC_FUZZ_PREFIX_SIZE
#define TROPIC_FUZZ_PREFIX_SIZE 0
#endif
#ifndef TROPIC_FUZZ_GZIP
#define TROPIC_FUZZ_GZIP 0
#endif

namespace {

std::string gzip(const std::string& in) {
  z_stream z{};
  if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) std::abort();
  std::string out(deflateBound(&z, in.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(&out[0]);
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) std::abort();
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

template <class W>
void check(const tropic::csr<W>& g) {
  // What every consumer of a csr relies on: offsets monotone and closed, columns in range.
  if (g.row_offsets.size() != std::size_t{g.n} + 1 || g.row_offsets[0] != 0) std::abort();
  for (tropic::vertex u = 0; u < g.n; ++u)
    if (g.row_offsets[u + 1] < g.row_offsets[u]) std::abort();
  if (g.row_offsets[g.n] != g.columns.size() || g.weights.size() != g.columns.size()) std::abort();
  for (tropic::vertex v : g.columns)
    if (v >= g.n) std::abort();
}

template <class W>
void read_as(const tropic::graph_input& in, tropic::read_options o) {
  try {
    check(tropic::read_graph<W>(in, o));
  } catch (const tropic::error&) {
    // A clear refusal is a correct answer to a malformed input.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(TROPIC_FUZZ_PREFIX, TROPIC_FUZZ_PREFIX_SIZE);
  bytes.append(reinterpret_cast<const char*>(data), size);
  if (TROPIC_FUZZ_GZIP) bytes = gzip(bytes);
  tropic::read_options o;
  // Small enough that no input can make a legitimate read exhaust the fuzzer's RSS limit.
  o.memory_limit = std::uint64_t{16} << 20;
  try {
    const tropic::graph_input in =
        tropic::graph_input_from_memory(bytes.data(), bytes.size(), "fuzz", o);
    read_as<std::uint32_t>(in, o);
    o.exact_integers = true;
    read_as<double>(in, o);
    o.compact_ids = true;
    o.build.symmetrize = true;
    read_as<std::int64_t>(in, o);
  } catch (const tropic::error&) {
  }
  return 0;
}
