// What the whole-file readers (io.cpp) and the row-block reader (io_rows.cpp) share: the byte
// sources and gzip inflation, format detection and the text check, the line parsers behind a
// stream of line chunks, and the binary layouts' checks and weight conversion. Private to lib/.
#pragma once

#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/error.hpp"
#include "tropic/io.hpp"
#include "tropic/partition.hpp"

namespace tropic {
namespace io_detail {

[[noreturn]] inline void fail(error_code code, const std::string& path, const std::string& what) {
  throw error(code, path + ": " + what);
}

// How a path appears in messages: "-" is standard input.
inline std::string input_name(const std::string& path) {
  return path == "-" ? "<stdin>" : path;
}

// read_options.memory_limit, or the memory available now; and how a message names it.
std::uint64_t memory_limit(const read_options& o);
std::string limit_hint(const read_options& o);

// Host bytes a row block needs per arc it keeps, about: the arc list (source, target, weight),
// build_csr_rows' sort entry (target, weight, input position) and the built block's arc.
template <class W>
constexpr std::uint64_t block_bytes_per_arc() {
  return 2 * sizeof(vertex) + sizeof(W) + (sizeof(vertex) + sizeof(W) + 8) + sizeof(vertex) +
         sizeof(W);
}

// Why a row block stops: its arcs passed the limit (max_arcs of block_bytes_per_arc each).
inline std::string block_over_limit(row_range rows, std::uint64_t max_arcs, std::uint64_t limit,
                                    const read_options& o) {
  return "rows [" + std::to_string(rows.begin) + ", " + std::to_string(rows.end) +
         ") hold more than " + std::to_string(max_arcs) +
         " arcs; building them needs more than the limit of " + std::to_string(limit) + " bytes (" +
         limit_hint(o) + ")";
}

// Prints "\rtropic: <phase> <path>: 42% of 123.4 MB" to stderr, at most four times a second, and
// only once the read has taken more than a second: short reads stay silent.
class progress_meter {
 public:
  progress_meter(bool enabled, const std::string& path)
      : enabled_(enabled), path_(path), start_(clock::now()), last_(start_) {}
  progress_meter(const progress_meter&) = delete;
  progress_meter& operator=(const progress_meter&) = delete;
  ~progress_meter() {
    if (printed_) std::fputc('\n', stderr);
  }

  void phase(const char* what, std::uint64_t total) {
    what_ = what;
    total_ = total;
  }
  // The read succeeded: a progress line already on screen ends at 100%.
  void done() {
    if (printed_) {
      std::fprintf(stderr, "\rtropic: %s %s: 100%% of %.1f MB   ", what_, path_.c_str(),
                   static_cast<double>(total_) / 1e6);
    }
  }
  void update(std::uint64_t done) {
    if (!enabled_) return;
    const auto now = clock::now();
    if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(250)) {
      return;
    }
    last_ = now;
    const double pct = total_ ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 0;
    std::fprintf(stderr, "\rtropic: %s %s: %3.0f%% of %.1f MB   ", what_, path_.c_str(), pct,
                 static_cast<double>(total_) / 1e6);
    std::fflush(stderr);
    printed_ = true;
  }

 private:
  using clock = std::chrono::steady_clock;
  bool enabled_;
  std::string path_;
  const char* what_ = "reading";
  std::uint64_t total_ = 0;
  clock::time_point start_, last_;
  bool printed_ = false;
};

// Where the bytes come from: a file descriptor (file, pipe, FIFO, stdin) or memory. Only read,
// never seek: a pipe can be read once, so the format is detected from what was read.
class byte_source {
 public:
  explicit byte_source(int fd) : fd_(fd) {}
  byte_source(const char* data, std::size_t size) : mem_(data), mem_left_(size) {}
  // Up to n bytes into `into`; 0 at the end. Throws on a read error.
  std::size_t read(char* into, std::size_t n, const std::string& path) {
    if (fd_ < 0) {
      const std::size_t k = n < mem_left_ ? n : mem_left_;
      if (k) std::memcpy(into, mem_, k);
      mem_ += k;
      mem_left_ -= k;
      return k;
    }
    for (;;) {
      const ssize_t got = ::read(fd_, into, n);
      if (got >= 0) return static_cast<std::size_t>(got);
      if (errno == EINTR) continue;
      fail(error_code::io, path, std::string("read error: ") + std::strerror(errno));
    }
  }
  // Fills as much of [into, into + n) as the source has.
  std::size_t read_full(char* into, std::size_t n, const std::string& path) {
    std::size_t done = 0;
    while (done < n) {
      const std::size_t got = read(into + done, n - done, path);
      if (got == 0) break;
      done += got;
    }
    return done;
  }

 private:
  int fd_ = -1;
  const char* mem_ = nullptr;
  std::size_t mem_left_ = 0;
};

// Inflates a gzip stream (every member of a multi-member file, as gzip(1) reads) from `src`, whose
// first `have` bytes are already in `head`. Bytes after a member that start no new one are
// trailing padding, ignored as zlib's gzread and gzip(1) do. The trailer's size field is never
// trusted (it is the size mod 2^32, and anyone can write it).
class gzip_stream {
 public:
  gzip_stream(byte_source& src, const char* head, std::size_t have, const std::string& path,
              std::uint64_t compressed_hint);
  gzip_stream(const gzip_stream&) = delete;
  gzip_stream& operator=(const gzip_stream&) = delete;
  ~gzip_stream();
  // Up to n decompressed bytes into `out`: at least one, or 0 once the stream has ended. A
  // corrupt or truncated stream is error(parse) naming the path.
  std::size_t read(char* out, std::size_t n);
  std::uint64_t consumed() const noexcept { return consumed_; }  // compressed bytes read

 private:
  std::size_t finish();
  byte_source& src_;
  const std::string& path_;
  z_stream z_{};
  std::vector<unsigned char> in_;
  bool in_eof_ = false, in_member_ = true, done_ = false;
  std::uint64_t consumed_ = 0;
};

// Bytes from the start of an input that detect_format needs to tell garbage from a graph file.
constexpr std::size_t prefix_bytes = 64 << 10;

inline bool is_binary_format(graph_format f) {
  return f == graph_format::galois_binary || f == graph_format::tropic_binary;
}

// The format of a file starting with [d, d + size). With `complete` false only a prefix is
// known: returns false when it cannot tell yet (nothing but whitespace so far).
bool detect_format(const char* d, std::size_t size, bool complete, const std::string& path,
                   bool was_gzip, graph_format& f);

// Throws unless [d, d + size) is text (whitespace, printable ASCII, well-formed UTF-8); the
// message names the byte, its offset and its line. `offset` is d's byte offset in the input and
// `lines` the lines before d, for inputs checked in pieces. `complete` false: a UTF-8 sequence
// cut off at the end is not an error yet.
void check_text(const char* d, std::size_t size, bool complete, const std::string& path,
                graph_format f, std::uint64_t offset = 0, std::uint64_t lines = 0);

// A text body that comes in pieces of whole lines (read_graph_rows streams its input through
// one chunk of memory). The parsers ask for more when the bytes they hold end without a line
// end: refill keeps [p, end), the start of a line the chunk's end cut (or nothing), moves it to
// the front of its buffer and appends the input's next bytes, true if any came. `lines` is how
// many lines were read before p, for the messages of the text check.
class line_chunks {
 public:
  virtual ~line_chunks() = default;
  virtual bool refill(const char*& p, const char*& end, std::uint64_t lines) = 0;
};

// read_graph's line parsers over [from, to) and what `more` brings after it, keeping only the
// arcs that reach the rows (those whose source is in `rows`; with opts.build.symmetrize, either
// endpoint). Sequential: errors carry their exact line numbers. The header is parsed as
// read_graph parses it; the block's arcs stop at opts.memory_limit.
template <class W>
arc_list<W> parse_text_rows(graph_format f, const char* from, const char* to, line_chunks& more,
                            const std::string& path, row_range rows, const read_options& opts,
                            graph_file_info& info);

// ---------------------------------------------------------------------------------------------
// Binary layouts (io.cpp's header comment)

inline constexpr char galois_trailer_magic[8] = {'T', 'R', 'O', 'P', 'I', 'C', 'W', 'T'};
inline constexpr char cache_magic[8] = {'T', 'R', 'O', 'P', 'I', 'C', 'G', '1'};

inline const char* tag_name(std::uint32_t tag) {
  static const char* const names[] = {"uint32", "int32", "uint64", "int64", "float", "double"};
  return tag < 6 ? names[tag] : "unknown";
}

inline std::size_t tag_size(std::uint32_t tag) {
  return tag == 0 || tag == 1 || tag == 4 ? 4 : 8;
}

template <class T>
T load_le(const char* p) {
  T x;
  std::memcpy(&x, p, sizeof x);
  return x;
}

// The layout a binary file's 32-byte header announces.
struct binary_layout {
  graph_format format = graph_format::tropic_binary;
  std::uint64_t n = 0, m = 0;
  std::uint64_t esize = 0;    // bytes of one stored weight; 0: unweighted (Galois only)
  std::uint32_t tag = 0;      // the stored weight type (Galois: from esize, or its trailer)
  std::uint64_t off_at = 32;  // the row offsets: n + 1 of them, or Galois' n row ends
  std::uint64_t col_at = 0;   // the columns, m uint32
  std::uint64_t w_at = 0;     // the weights, m of esize bytes
  std::uint64_t need = 0;     // the file's size (a Galois trailer adds 16)
  std::string what;           // the header, as size messages name it
};

// "the Galois .gr header" or "the tropic cache header": what a file shorter than 32 bytes lacks.
const char* binary_header_name(graph_format f);
// The header at d (32 bytes), checked: version, edge data size or type tag, n and m.
binary_layout parse_binary_header(graph_format f, const char* d, const std::string& path);
// The file's size against the layout: exactly l.need, or for Galois l.need + 16 whose 16 bytes at
// `trailer` (null when the size is not that) may name the weight type (l.tag).
void check_binary_size(binary_layout& l, std::uint64_t size, const char* trailer,
                       const std::string& path);

// "truncated: <what> needs N bytes, the file has K", or the bytes too many.
std::string size_mismatch(std::uint64_t have, std::uint64_t need, const std::string& what);

// Throws unless n and m are small enough that every byte count of the layout fits in 64 bits.
void check_sizes(const std::string& path, std::uint64_t n, std::uint64_t m);

// The weight of an unweighted arc (a pattern file, SNAP without weights, Galois edge data 0).
template <class W>
W unweighted_weight(vertex u, vertex v, const read_options& o) {
  return o.unit_weights ? W(1) : static_cast<W>(edge_weight(u, v, o.weight_seed));
}

// Names the i-th of the weights being converted in a message: "arc <k> (<u> -> <v>)".
using arc_namer = std::function<std::string(std::size_t)>;

// `count` stored weights of type `tag` at `data` into `out`, each converted with the rules of
// a text weight (o.unit_weights: all 1); a weight that cannot be stored names its arc.
template <class W>
void load_weights_tagged(const std::string& path, std::uint32_t tag, const char* data,
                         std::size_t count, const read_options& o, W* out, const arc_namer& name);

}  // namespace io_detail
}  // namespace tropic
