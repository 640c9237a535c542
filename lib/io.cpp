// Graph file readers and writers.
//
// read_graph and read_arcs load the whole file (decompressed when it starts with the gzip magic
// 1f 8b) into one buffer in large chunks, detect the format from the content, and parse the
// buffer with a hand-written tokenizer and std::from_chars: no iostreams on the hot path. A row
// block (read_graph_rows, io_rows.cpp) streams the file instead, through the same line parsers
// (parse_text_rows) and the same binary checks; io_shared.hpp is what the two share. Errors are
// thrown as "<path>:<line>: <what>" for text formats and "<path>: arc <k>: <what>" for binary
// ones, always quoting the offending value.
//
// Binary layouts (all integers little-endian, as written by the x86-64/ARM hosts we run on):
//
// Galois .gr version 1 (what Galois and ADDS read):
//   uint64 version = 1, uint64 edge_data_size, uint64 n, uint64 m,
//   uint64 row_end[n], uint32 dest[m], 4 zero bytes if m is odd, edge data (m * size bytes).
//   Edge data size 0 is unweighted, 4 is uint32, 8 is uint64. The format carries no type, so
//   write_galois appends, for weight types other than uint32 and uint64, a 16-byte trailer
//   after the edge data: "TROPICWT", uint32 type tag (below), uint32 0. Galois ignores bytes
//   past the edge data; read_graph uses the tag to read int32/float (size 4) and int64/double
//   (size 8) back exactly.
//
// tropic binary cache:
//   "TROPICG1", uint32 type tag, uint32 0 (reserved), uint64 n, uint64 m,
//   uint64 row_offsets[n + 1], uint32 columns[m], 4 zero bytes if m is odd, W weights[m].
//   Read into a different W, each weight is converted with the same rules as a text weight.
//
// Type tags: 0 uint32, 1 int32, 2 uint64, 3 int64, 4 float, 5 double.
#include "tropic/io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include "io_shared.hpp"
#include "tropic/error.hpp"

namespace tropic {

// The helpers io_rows.cpp shares (io_shared.hpp) are used here unqualified.
using namespace io_detail;

const char* format_name(graph_format f) noexcept {
  switch (f) {
    case graph_format::matrix_market:
      return "Matrix Market";
    case graph_format::dimacs:
      return "DIMACS .gr";
    case graph_format::snap:
      return "SNAP edge list";
    case graph_format::galois_binary:
      return "Galois binary .gr";
    case graph_format::tropic_binary:
      return "tropic binary cache";
  }
  return "unknown";
}

namespace {

std::uint64_t splitmix64(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

std::uint32_t edge_weight(vertex u, vertex v, std::uint64_t seed) noexcept {
  const std::uint64_t lo = std::min(u, v), hi = std::max(u, v);
  const std::uint64_t h = splitmix64((lo << 32 | hi) ^ splitmix64(seed));
  return static_cast<std::uint32_t>(1 + h % 255);
}

namespace {

// ---------------------------------------------------------------------------------------------
// Small helpers

template <class W>
constexpr std::uint32_t type_tag() {
  if constexpr (std::is_same_v<W, std::uint32_t>) return 0;
  if constexpr (std::is_same_v<W, std::int32_t>) return 1;
  if constexpr (std::is_same_v<W, std::uint64_t>) return 2;
  if constexpr (std::is_same_v<W, std::int64_t>) return 3;
  if constexpr (std::is_same_v<W, float>) return 4;
  if constexpr (std::is_same_v<W, double>) return 5;
}

// A token as it may appear in an error message: printable, at most 40 characters, quoted.
std::string quote(std::string_view t) {
  std::string s = "'";
  const std::size_t limit = 40;
  for (std::size_t i = 0; i < t.size() && i < limit; ++i) {
    const unsigned char c = static_cast<unsigned char>(t[i]);
    if (c >= 0x20 && c < 0x7f) {
      s += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      s += hex;
    }
  }
  if (t.size() > limit) s += "...";
  return s + "'";
}

// The whole file in memory. malloc/realloc rather than std::vector: no zero-filling of
// gigabytes we are about to overwrite, and realloc can grow large blocks without copying.
class byte_buffer {
 public:
  byte_buffer() = default;
  byte_buffer(const byte_buffer&) = delete;
  byte_buffer& operator=(const byte_buffer&) = delete;
  ~byte_buffer() { std::free(data_); }

  char* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  void reserve(std::size_t cap) {
    if (cap <= cap_) return;
    char* p = static_cast<char*>(std::realloc(data_, cap));
    if (!p)
      throw error(error_code::out_of_memory, "cannot allocate " + std::to_string(cap) + " bytes");
    data_ = p;
    cap_ = cap;
  }
  std::size_t capacity() const noexcept { return cap_; }
  void set_size(std::size_t n) noexcept { size_ = n; }
  // Hands the block to the caller (who frees it with std::free).
  char* release() noexcept {
    char* p = data_;
    data_ = nullptr;
    size_ = cap_ = 0;
    return p;
  }

 private:
  char* data_ = nullptr;
  std::size_t size_ = 0, cap_ = 0;
};

// The loaded input as the parsers see it.
struct bytes {
  const char* p;
  std::size_t n;
  const char* data() const noexcept { return p; }
  std::size_t size() const noexcept { return n; }
};

struct file_closer {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};
using file_ptr = std::unique_ptr<std::FILE, file_closer>;

constexpr std::size_t chunk_size = std::size_t{16} << 20;

// Host bytes per vertex that reading and building a graph allocate before its arcs matter (row
// offsets, build_csr's counts, the arc list's bookkeeping): issue 39 measured ~23.5.
constexpr std::uint64_t bytes_per_vertex = 24;

// MemAvailable from /proc/meminfo (what can be allocated without swapping), else free pages.
std::uint64_t available_memory() {
  if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    unsigned long long kb = 0;
    bool found = false;
    while (std::fgets(line, sizeof line, f)) {
      if (std::sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
        found = true;
        break;
      }
    }
    std::fclose(f);
    if (found) return std::uint64_t{kb} * 1024;
  }
  const long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) return static_cast<std::uint64_t>(pages) * page;
  return std::numeric_limits<std::uint64_t>::max();
}

}  // namespace

namespace io_detail {

std::uint64_t memory_limit(const read_options& o) {
  return o.memory_limit ? o.memory_limit : available_memory();
}

std::string limit_hint(const read_options& o) {
  return o.memory_limit ? "read_options.memory_limit / tropic --memory-limit"
                        : "the memory available now; read_options.memory_limit / tropic "
                          "--memory-limit sets another";
}

gzip_stream::gzip_stream(byte_source& src, const char* head, std::size_t have,
                         const std::string& path, std::uint64_t compressed_hint)
    : src_(src), path_(path) {
  if (inflateInit2(&z_, 15 + 16) != Z_OK) fail(error_code::out_of_memory, path, "inflateInit2");
  // 1 MiB reads, or less for a small input (in memory or a small file: no zero-filled megabyte
  // per tiny read).
  in_.resize(static_cast<std::size_t>(std::max<std::uint64_t>(
      have, compressed_hint ? std::min<std::uint64_t>(compressed_hint, 1 << 20) : 1 << 20)));
  if (have) std::memcpy(in_.data(), head, have);
  z_.next_in = in_.data();
  z_.avail_in = static_cast<uInt>(have);
}

gzip_stream::~gzip_stream() {
  inflateEnd(&z_);
}

std::size_t gzip_stream::read(char* out, std::size_t n) {
  if (done_ || n == 0) return 0;
  for (;;) {
    if (z_.avail_in == 0 && !in_eof_) {
      const std::size_t got = src_.read(reinterpret_cast<char*>(in_.data()), in_.size(), path_);
      in_eof_ = got == 0;
      z_.next_in = in_.data();
      z_.avail_in = static_cast<uInt>(got);
    }
    if (z_.avail_in == 0 && in_eof_) return finish();
    if (!in_member_) {
      // Bytes after a complete member: another member (concatenated gzip), or padding.
      if (z_.next_in[0] != 0x1f) return finish();
      if (inflateReset(&z_) != Z_OK) fail(error_code::parse, path_, "gzip stream is corrupt");
      in_member_ = true;
    }
    z_.next_out = reinterpret_cast<unsigned char*>(out);
    z_.avail_out = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
    const uInt before_in = z_.avail_in;
    const uInt before_out = z_.avail_out;
    const int r = inflate(&z_, Z_NO_FLUSH);
    consumed_ += before_in - z_.avail_in;
    const std::size_t produced = before_out - z_.avail_out;
    if (r == Z_STREAM_END) {
      in_member_ = false;
    } else if (r == Z_BUF_ERROR && before_in == z_.avail_in && before_out == z_.avail_out) {
      if (in_eof_ && z_.avail_in == 0) return finish();  // needs input that will not come
    } else if (r != Z_OK) {
      fail(error_code::parse, path_,
           std::string("gzip stream is corrupt: ") + (z_.msg ? z_.msg : "inflate failed"));
    }
    if (produced) return produced;
  }
}

std::size_t gzip_stream::finish() {
  done_ = true;
  if (in_member_) {
    fail(error_code::parse, path_, "gzip stream is truncated (unexpected end of file)");
  }
  return 0;
}

}  // namespace io_detail

namespace {

// Called with the first bytes of the (decompressed) input as soon as there are enough to tell
// the format, so garbage such as /dev/zero or /dev/urandom fails at once, not at the limit.
using prefix_check = void (*)(const char* data, std::size_t size, bool complete,
                              const std::string& path, bool was_gzip);

[[noreturn]] void over_limit(const std::string& path, std::uint64_t limit, bool gzip,
                             const read_options& o) {
  fail(error_code::out_of_memory, path,
       std::string(gzip ? "decompresses to" : "holds") + " more than " + std::to_string(limit) +
           " bytes, the read limit (" + limit_hint(o) + ")");
}

// Inflates `src` (io_shared.hpp's gzip_stream) into `buf`, which grows with what actually comes
// out, up to `limit`.
void load_gzip(byte_source& src, const char* head, std::size_t have, const std::string& path,
               std::uint64_t compressed_hint, std::uint64_t limit, const read_options& o,
               byte_buffer& buf, progress_meter& progress, prefix_check check) {
  gzip_stream gz(src, head, have, path, compressed_hint);
  progress.phase("decompressing", compressed_hint);
  std::size_t size = 0;
  bool checked = false;
  buf.reserve(std::min<std::uint64_t>(std::max<std::uint64_t>(have * 4, 1 << 16), limit + 1));
  for (;;) {
    if (size == buf.capacity()) {
      if (size > limit) over_limit(path, limit, true, o);
      const std::uint64_t want = std::max<std::uint64_t>(size + size / 2, size + (1 << 16));
      buf.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(want, limit + 1)));
    }
    const std::size_t got = gz.read(buf.data() + size, buf.capacity() - size);
    if (got == 0) break;
    size += got;
    if (size > limit) over_limit(path, limit, true, o);
    progress.update(gz.consumed());
    if (!checked && check && size >= prefix_bytes) {
      check(buf.data(), size, false, path, true);
      checked = true;
    }
  }
  buf.set_size(size);
}

void load_source(byte_source& src, const std::string& path, std::uint64_t size_hint,
                 const read_options& o, byte_buffer& buf, bool& was_gzip, progress_meter& progress,
                 prefix_check check) {
  const std::uint64_t limit = memory_limit(o);
  char head[2];
  const std::size_t have = src.read_full(head, 2, path);
  was_gzip = have == 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
             static_cast<unsigned char>(head[1]) == 0x8b;
  if (was_gzip) {
    return load_gzip(src, head, have, path, size_hint, limit, o, buf, progress, check);
  }
  if (size_hint > limit) over_limit(path, limit, false, o);
  // The size is a hint (a pipe or /proc file reports 0): read until the end regardless.
  buf.reserve(static_cast<std::size_t>(std::max<std::uint64_t>(size_hint + 1, have + 1)));
  std::memcpy(buf.data(), head, have);
  progress.phase("loading", size_hint);
  std::size_t size = have;
  bool checked = false;
  for (;;) {
    if (buf.capacity() == size) {
      if (size > limit) over_limit(path, limit, false, o);
      const std::uint64_t want = std::max<std::uint64_t>(size * 2, size + chunk_size);
      buf.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(want, limit + 1)));
    }
    const std::size_t want = std::min(buf.capacity() - size, chunk_size);
    const std::size_t got = src.read(buf.data() + size, want, path);
    size += got;
    if (size > limit) over_limit(path, limit, false, o);
    progress.update(size);
    if (!checked && check && size >= prefix_bytes) {
      check(buf.data(), size, false, path, false);
      checked = true;
    }
    if (got == 0) break;
  }
  buf.set_size(size);
}

// "-" is standard input; anything else is opened (a file, FIFO or character device).
void load_path(const std::string& file, const std::string& path, const read_options& o,
               byte_buffer& buf, bool& was_gzip, progress_meter& progress, prefix_check check) {
  int fd = 0;
  if (file != "-") {
    fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(error_code::io, path, std::string("cannot open: ") + std::strerror(errno));
  }
  struct fd_closer {
    int fd;
    ~fd_closer() {
      if (fd > 0) ::close(fd);
    }
  } closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    fail(error_code::io, path, std::string("cannot read: ") + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) fail(error_code::io, path, "cannot read: is a directory");
  const std::uint64_t hint = S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
  byte_source src(fd);
  load_source(src, path, hint, o, buf, was_gzip, progress, check);
}

// ---------------------------------------------------------------------------------------------
// Weights: one set of rules for every format.

// Stores the file's value `x` as a W in `out`, or says in `why` (completing "weight X ...") why
// it cannot: not finite, negative where that is not allowed, not an integer for an integer W,
// out of W's range.
template <class W, class S>
bool store_weight(S x, bool allow_negative, W& out, std::string& why) {
  if constexpr (std::is_floating_point_v<S>) {
    if (!std::isfinite(x)) {
      why = "is not finite";
      return false;
    }
  }
  if constexpr (std::is_signed_v<S>) {
    if (x < S(0)) {
      if constexpr (std::is_unsigned_v<W>) {
        why = std::string("is negative; ") + weight_type_name<W>() + " cannot hold it";
        return false;
      } else if (!allow_negative) {
        why = "is negative, and read_options.allow_negative is off";
        return false;
      }
    }
  }
  if constexpr (std::is_integral_v<W>) {
    if constexpr (std::is_floating_point_v<S>) {
      if (x != std::trunc(x)) {
        why = std::string("is not an integer; ") + weight_type_name<W>() +
              " weights must be integers (read the file as float or double)";
        return false;
      }
      // Compare in floating point: converting an out-of-range value to an integer is undefined.
      const S hi = std::ldexp(S(1), std::numeric_limits<W>::digits);
      const S lo = std::is_signed_v<W> ? -hi : S(0);
      if (!(x >= lo && x < hi)) {
        why = std::string("does not fit in ") + weight_type_name<W>();
        return false;
      }
    } else {
      bool fits;
      if constexpr (std::is_signed_v<S>) {
        fits = x >= static_cast<std::int64_t>(std::numeric_limits<W>::min()) &&
               (x < 0 || static_cast<std::uint64_t>(x) <=
                             static_cast<std::uint64_t>(std::numeric_limits<W>::max()));
      } else {
        fits = static_cast<std::uint64_t>(x) <=
               static_cast<std::uint64_t>(std::numeric_limits<W>::max());
      }
      if (!fits) {
        why = std::string("does not fit in ") + weight_type_name<W>();
        return false;
      }
    }
    out = static_cast<W>(x);
    // An integer type's largest value is its infinity (DESIGN.md, semirings): as a weight it
    // would be an absent arc, and every algorithm would report a distance overflow instead.
    if (out == std::numeric_limits<W>::max()) {
      why = std::string("is the largest ") + weight_type_name<W>() +
            " value, which tropic reserves for infinity (no arc); read the file with a wider "
            "weight type";
      return false;
    }
  } else {
    out = static_cast<W>(x);
    if (!std::isfinite(out)) {
      why = std::string("does not fit in ") + weight_type_name<W>();
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Text input

// "1..n" for 1-based ids, "0..n-1" for 0-based ones.
std::string id_range(std::uint64_t n, int base) {
  if (n == 0) return "(the graph has no vertices)";
  return std::to_string(base) + ".." + std::to_string(n - 1 + static_cast<std::uint64_t>(base));
}

enum class number { ok, invalid, overflow };

// Unsigned decimal integer filling all of [b, e). libstdc++ 12's integer from_chars is generic
// over the base and shows up first in profiles of 100 MB road files; this loop is ~3x faster.
inline number parse_decimal(const char* b, const char* e, std::uint64_t& out) {
  if (b == e) return number::invalid;
  std::uint64_t x = 0;
  bool overflow = false;
  for (const char* p = b; p < e; ++p) {
    const unsigned d = static_cast<unsigned char>(*p) - unsigned{'0'};
    if (d > 9) return number::invalid;
    overflow |= __builtin_mul_overflow(x, 10u, &x);
    overflow |= __builtin_add_overflow(x, d, &x);
  }
  out = x;
  return overflow ? number::overflow : number::ok;
}

inline bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// Splits one line into whitespace-separated tokens.
struct tokenizer {
  const char* p;
  const char* e;
  std::string_view next() {
    while (p < e && is_blank(*p)) ++p;
    const char* b = p;
    while (p < e && !is_blank(*p)) ++p;
    return {b, static_cast<std::size_t>(p - b)};
  }
  std::string_view rest() {
    while (p < e && is_blank(*p)) ++p;
    const char* b = p;
    p = e;
    return {b, static_cast<std::size_t>(e - b)};
  }
};

class text_input {
 public:
  text_input(bytes buf, const std::string& path, progress_meter& progress)
      : begin_(buf.data()),
        p_(buf.data()),
        end_(buf.data() + buf.size()),
        path_(path),
        progress_(&progress) {
    progress_->phase("parsing", buf.size());
  }
  // A chunk [from, to) of a file parsed by one of several threads. Line numbers count from the
  // chunk's start (errors there are re-derived by a sequential parse); only the first chunk
  // reports progress, its own fraction standing in for the whole body's.
  text_input(const char* from, const char* to, const std::string& path, progress_meter* progress,
             std::uint64_t progress_base, std::uint64_t progress_scale)
      : begin_(from),
        p_(from),
        end_(to),
        path_(path),
        progress_(progress),
        progress_base_(progress_base),
        progress_scale_(progress_scale) {}
  // A body streamed in chunks of lines (read_graph_rows): [from, to) first, then what `more`
  // brings. Lines are valid until the next one is read.
  text_input(const char* from, const char* to, const std::string& path, line_chunks& more)
      : begin_(from), p_(from), end_(to), path_(path), progress_(nullptr), more_(&more) {}
  const char* position() const { return p_; }
  // Back to the start of the line just read (which must be the last one read).
  void rewind(const char* line_start) {
    p_ = line_start;
    --line_;
  }
  const char* end() const { return end_; }

  // The next line without its terminator; false at the end of the input.
  bool next_line(tokenizer& line) {
    const char* nl =
        p_ < end_
            ? static_cast<const char*>(std::memchr(p_, '\n', static_cast<std::size_t>(end_ - p_)))
            : nullptr;
    if (!nl) {
      if (more_) nl = refill();
      if (p_ >= end_) return false;
    }
    const char* le = nl ? nl : end_;
    line = {p_, le};
    p_ = nl ? nl + 1 : end_;
    ++line_;
    if ((line_ & 0xffff) == 0 && progress_) {
      progress_->update(progress_base_ + static_cast<std::uint64_t>(p_ - begin_) * progress_scale_);
    }
    return true;
  }
  std::uint64_t line() const { return line_; }
  std::size_t remaining_bytes() const { return static_cast<std::size_t>(end_ - p_); }
  const std::string& path() const { return path_; }

  [[noreturn]] void fail(error_code code, const std::string& what) const {
    throw error(code, path_ + ":" + std::to_string(line_) + ": " + what);
  }

  // Vertex id token; `base` is 1 for 1-based formats. Returns the 0-based id.
  vertex parse_id(std::string_view t, std::uint64_t n, int base, const char* what) const {
    if (t.empty()) fail(error_code::parse, std::string("missing ") + what);
    std::uint64_t x = 0;
    const number r = parse_decimal(t.data(), t.data() + t.size(), x);
    const bool too_big = r == number::overflow;
    if (r == number::invalid)
      fail(error_code::parse, "invalid " + std::string(what) + " " + quote(t));
    if (too_big || x < static_cast<std::uint64_t>(base) || x - base >= n) {
      fail(error_code::invalid_index,
           std::string(what) + " " + quote(t) + " is out of range " + id_range(n, base) +
               (base == 1 && x == 0 && !too_big ? " (ids are 1-based)" : ""));
    }
    return static_cast<vertex>(x - base);
  }

  // A count in a header line.
  std::uint64_t parse_count(std::string_view t, const char* what) const {
    if (t.empty()) fail(error_code::parse, std::string("missing ") + what);
    std::uint64_t x = 0;
    const number r = parse_decimal(t.data(), t.data() + t.size(), x);
    if (r == number::invalid)
      fail(error_code::parse, "invalid " + std::string(what) + " " + quote(t));
    if (r == number::overflow)
      fail(error_code::parse, std::string(what) + " " + quote(t) + " exceeds 64 bits");
    return x;
  }

  // A vertex count: n vertices have ids 0..n-1, which must fit in 32 bits.
  vertex parse_vertex_count(std::string_view t, const char* what) const {
    const std::uint64_t x = parse_count(t, what);
    if (x > std::numeric_limits<vertex>::max()) {
      fail(error_code::invalid_value, std::string(what) + " " + quote(t) +
                                          " exceeds the 32-bit vertex limit of " +
                                          std::to_string(std::numeric_limits<vertex>::max()));
    }
    return static_cast<vertex>(x);
  }

  template <class W>
  W parse_weight(std::string_view t, const read_options& o) const {
    if (t.empty()) fail(error_code::parse, "missing weight");
    const char* b = t.data();
    const char* e = t.data() + t.size();
    if (*b == '+' && e - b > 1 && b[1] != '-') ++b;  // from_chars rejects a leading '+'
    std::string why;
    W out{};
    bool ok = false, parsed = false;
    if (o.unit_weights) {
      // The file's weight is ignored but must still be a number.
      double x;
      const auto r = std::from_chars(b, e, x);
      if (r.ec == std::errc() && r.ptr == e) return W(1);
      fail(error_code::parse, "invalid weight " + quote(t));
    }
    if constexpr (std::is_integral_v<W>) {
      if (*b == '-') {
        std::int64_t x;
        const auto r = std::from_chars(b, e, x);
        if (r.ptr == e && r.ec == std::errc()) {
          parsed = true;
          ok = store_weight<W>(x, o.allow_negative, out, why);
        }
      } else {
        std::uint64_t x;
        const number r = parse_decimal(b, e, x);
        if (r == number::ok) {
          parsed = true;
          ok = store_weight<W>(x, o.allow_negative, out, why);
        } else if (r == number::overflow) {
          parsed = true;
          why = std::string("does not fit in ") + weight_type_name<W>();
        }
      }
      if (!parsed) {  // "3.0", "1e3", "2.5": a real number
        double x;
        const auto r = std::from_chars(b, e, x);
        if (r.ptr == e && r.ec == std::errc()) {
          parsed = true;
          ok = store_weight<W>(x, o.allow_negative, out, why);
        } else if (r.ptr == e && r.ec == std::errc::result_out_of_range) {
          parsed = true;
          why = std::string("does not fit in ") + weight_type_name<W>();
        }
      }
    } else {
      // Integers of up to digits10 digits are exact in W; longer ones are checked.
      if (o.exact_integers && t.size() > std::numeric_limits<W>::digits10) check_exact<W>(b, e, t);
      W x;
      const auto r = std::from_chars(b, e, x);
      if (r.ptr == e && r.ec == std::errc()) {
        parsed = true;
        ok = store_weight<W>(x, o.allow_negative, out, why);
      } else if (r.ptr == e && r.ec == std::errc::result_out_of_range) {
        parsed = true;
        why = std::string("is out of the range of ") + weight_type_name<W>();
      }
    }
    if (!parsed) fail(error_code::parse, "invalid weight " + quote(t));
    if (!ok) fail(error_code::invalid_value, "weight " + quote(t) + " " + why);
    return out;
  }

  // An integer token W (floating point) would round: an error, not a different weight.
  template <class W>
  void check_exact(const char* b, const char* e, std::string_view t) const {
    if (b < e && *b == '-') ++b;
    std::uint64_t x = 0;
    const number r = parse_decimal(b, e, x);
    if (r == number::invalid) return;  // not written as an integer
    if (r == number::ok &&
        static_cast<long double>(static_cast<W>(x)) == static_cast<long double>(x)) {
      return;
    }
    fail(error_code::invalid_value,
         "weight " + quote(t) + " is an integer that " + weight_type_name<W>() +
             " cannot hold exactly (it would be rounded; integer weights up to 2^64 - 1 read "
             "exactly as uint64)");
  }

  // The 'integer' field of a Matrix Market banner: an integer weight must fit in 64 bits (other
  // tokens are parse_weight's to judge).
  void check_integer_field(std::string_view t) const {
    const char* b = t.data();
    const char* e = b + t.size();
    const bool negative = b < e && *b == '-';
    if (b < e && (*b == '+' || *b == '-')) ++b;
    std::uint64_t x = 0;
    const number r = parse_decimal(b, e, x);
    if (r == number::overflow || (negative && x > (std::uint64_t{1} << 63))) {
      fail(error_code::invalid_value,
           "integer weight " + quote(t) + " does not fit in 64 bits (int64 or uint64)");
    }
  }

  void expect_end(tokenizer& tk, const char* after) const {
    const std::string_view extra = tk.rest();
    if (!extra.empty()) {
      fail(error_code::parse, "unexpected " + quote(extra) + " after " + after);
    }
  }

 private:
  // Streaming: [p_, end_) holds no line end; more bytes until one comes or the input ends.
  const char* refill() {
    while (more_->refill(p_, end_, line_)) {
      if (const void* nl = std::memchr(p_, '\n', static_cast<std::size_t>(end_ - p_)))
        return static_cast<const char*>(nl);
    }
    return nullptr;
  }

  const char* begin_;
  const char* p_;
  const char* end_;
  const std::string& path_;
  progress_meter* progress_;
  std::uint64_t progress_base_ = 0, progress_scale_ = 1;
  std::uint64_t line_ = 0;
  line_chunks* more_ = nullptr;
};

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    const char y = b[i] >= 'A' && b[i] <= 'Z' ? static_cast<char>(b[i] - 'A' + 'a') : b[i];
    if (x != y) return false;
  }
  return true;
}

// Enough capacity for `announced` arcs, but never more than the bytes left could hold: a
// corrupt header must not trigger a huge allocation before the body proves it wrong.
template <class W>
void reserve_arcs(arc_list<W>& a, std::uint64_t announced, std::size_t bytes_left,
                  std::uint64_t min_line) {
  const std::uint64_t cap = std::min<std::uint64_t>(announced, bytes_left / min_line + 1);
  a.src.reserve(cap);
  a.dst.reserve(cap);
  a.weight.reserve(cap);
}

// ---------------------------------------------------------------------------------------------
// Matrix Market

// Every text format is a header, parsed sequentially, then a body of independent lines. A body
// line handler turns one line into arcs of a body_part; run_body drives it over the whole body
// in order (exact line numbers for every error), parse_body_parallel over chunks of a large body
// on several threads. Any error or inconsistency in the parallel run makes the caller re-parse
// sequentially, which reports it with its line number: errors stay exact and cost nothing when
// there are none.

// read_graph_rows keeps only the arcs of one row block: those whose source is in `rows`, or (with
// build.symmetrize, whose mirror lands in the block) either endpoint. `all` keeps every arc.
struct row_filter {
  bool all = true;
  bool either = false;
  vertex begin = 0, size = 0;
  // The arcs the block may keep within read_options.memory_limit (`limit` bytes).
  std::uint64_t max_arcs = std::numeric_limits<std::uint64_t>::max(), limit = 0;
  bool keeps(vertex u, vertex v) const noexcept {
    return all || u - begin < size || (either && v - begin < size);  // unsigned: u < begin wraps
  }
};

template <class W>
struct body_part {
  row_filter filter;
  void add(vertex u, vertex v, W w) {
    if (filter.keeps(u, v)) arcs.push_back(u, v, w);
  }
  arc_list<W> arcs;
  std::uint64_t entries = 0;  // entries (lines with arcs) seen
  std::uint64_t max_id = 0;   // SNAP: largest id seen
  int columns = 0;            // SNAP: columns of the first data line, 0 before it
};

// Bodies below this size parse on one thread; above it, chunks of at least half of it each.
constexpr std::size_t parallel_body_bytes = std::size_t{8} << 20;

template <class W, class Handler>
void run_body(text_input& in, const Handler& handle, body_part<W>& part, std::uint64_t announced,
              const char* what, const char* where, const read_options& o) {
  tokenizer tk{nullptr, nullptr};
  while (in.next_line(tk)) {
    handle(in, tk, part);
    if (part.entries > announced) {
      in.fail(error_code::parse, "more " + std::string(what) + " than the " +
                                     std::to_string(announced) + " announced in " + where);
    }
    if (part.arcs.size() > part.filter.max_arcs) {
      const row_filter& f = part.filter;
      in.fail(error_code::out_of_memory,
              block_over_limit({f.begin, f.begin + f.size}, f.max_arcs, f.limit, o));
    }
  }
}

// Parses [in.position(), in.end()) in chunks on up to hardware_concurrency threads. False when
// the body is too small to split, or when any chunk failed.
template <class W, class Handler>
bool parse_body_parallel(const text_input& in, const std::string& path, progress_meter& progress,
                         const Handler& handle, std::vector<body_part<W>>& parts) {
  const char* const from = in.position();
  const char* const to = in.end();
  const std::size_t bytes = static_cast<std::size_t>(to - from);
  const std::size_t hw = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t chunks = std::min(hw, bytes / (parallel_body_bytes / 2));
  if (bytes < parallel_body_bytes || chunks < 2) return false;
  std::vector<const char*> cut(chunks + 1, to);
  cut[0] = from;
  for (std::size_t i = 1; i < chunks; ++i) {
    const char* c = std::max(cut[i - 1], from + bytes / chunks * i);
    const void* nl = std::memchr(c, '\n', static_cast<std::size_t>(to - c));
    cut[i] = nl ? static_cast<const char*>(nl) + 1 : to;
  }
  parts.assign(chunks, body_part<W>{});
  std::vector<char> failed(chunks, 0);
  auto work = [&](std::size_t i) {
    try {
      text_input chunk(cut[i], cut[i + 1], path, i == 0 ? &progress : nullptr, 0, chunks);
      // A bound from the shortest possible line would over-allocate several-fold: reserve for
      // typical 12-byte lines and let the vectors grow past that.
      const std::size_t guess = static_cast<std::size_t>(cut[i + 1] - cut[i]) / 12;
      parts[i].arcs.src.reserve(guess);
      parts[i].arcs.dst.reserve(guess);
      parts[i].arcs.weight.reserve(guess);
      tokenizer tk{nullptr, nullptr};
      while (chunk.next_line(tk)) handle(chunk, tk, parts[i]);
    } catch (...) {
      failed[i] = 1;
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(chunks - 1);
  try {
    for (std::size_t i = 1; i < chunks; ++i) threads.emplace_back(work, i);
  } catch (...) {
    // No thread to be had: whatever started finishes, the rest runs here.
  }
  for (std::size_t i = threads.size() + 1; i < chunks; ++i) work(i);
  work(0);
  for (auto& t : threads) t.join();
  return std::none_of(failed.begin(), failed.end(), [](char f) { return f != 0; });
}

// Concatenates the parts' arcs in order (in parallel: for big files this copy is gigabytes).
template <class W>
void merge_parts(std::vector<body_part<W>>& parts, arc_list<W>& out) {
  std::vector<std::size_t> at(parts.size() + 1, 0);
  for (std::size_t i = 0; i < parts.size(); ++i) at[i + 1] = at[i] + parts[i].arcs.size();
  out.src.resize(at.back());
  out.dst.resize(at.back());
  out.weight.resize(at.back());
  auto copy = [&](std::size_t i) {
    arc_list<W>& a = parts[i].arcs;
    std::copy(a.src.begin(), a.src.end(), out.src.begin() + static_cast<std::ptrdiff_t>(at[i]));
    std::copy(a.dst.begin(), a.dst.end(), out.dst.begin() + static_cast<std::ptrdiff_t>(at[i]));
    std::copy(a.weight.begin(), a.weight.end(),
              out.weight.begin() + static_cast<std::ptrdiff_t>(at[i]));
    a = arc_list<W>{};  // release as we go
  };
  std::vector<std::thread> threads;
  try {
    for (std::size_t i = 1; i < parts.size(); ++i) threads.emplace_back(copy, i);
  } catch (...) {
  }
  for (std::size_t i = threads.size() + 1; i < parts.size(); ++i) copy(i);
  if (!parts.empty()) copy(0);
  for (auto& t : threads) t.join();
}

// ---------------------------------------------------------------------------------------------
// Matrix Market

// A header's vertex count against the memory limit, before anything is sized from it: a 45-byte
// header must not allocate 100 GB. (Its arc count needs no check: reserve_arcs never reserves
// more than the bytes left can hold, and the body's count is checked against it.)
void check_announced(const text_input& in, std::uint64_t n, const char* where,
                     const read_options& o) {
  const std::uint64_t limit = memory_limit(o);
  if (n * bytes_per_vertex > limit) {
    in.fail(error_code::out_of_memory, std::string(where) + " announces " + std::to_string(n) +
                                           " vertices; the graph would need about " +
                                           std::to_string(n * bytes_per_vertex) +
                                           " bytes, more than the limit of " +
                                           std::to_string(limit) + " (" + limit_hint(o) + ")");
  }
}

struct mm_header {
  vertex n = 0;
  std::uint64_t entries = 0;
  bool pattern = false, integer = false, symmetric = false;
};

// The banner and the size line; `in` is left at the first entry.
mm_header parse_mm_header(text_input& in) {
  tokenizer tk{nullptr, nullptr};
  std::string_view banner;
  while (banner.empty() && in.next_line(tk)) banner = tk.next();  // detection skipped blank lines
  if (!iequals(banner, "%%MatrixMarket")) {
    in.fail(error_code::parse,
            "expected the Matrix Market banner '%%MatrixMarket', got " + quote(banner));
  }
  const std::string_view object = tk.next(), layout = tk.next(), field = tk.next(),
                         symmetry = tk.next();
  if (symmetry.empty()) {
    in.fail(error_code::parse,
            "incomplete Matrix Market banner: expected '%%MatrixMarket matrix coordinate <field> "
            "<symmetry>'");
  }
  in.expect_end(tk, "the Matrix Market banner");
  if (!iequals(object, "matrix")) {
    in.fail(error_code::parse,
            "Matrix Market object " + quote(object) + " is not supported: need 'matrix'");
  }
  if (iequals(layout, "array")) {
    in.fail(error_code::parse,
            "dense 'array' Matrix Market files are not supported: a graph needs 'coordinate'");
  }
  if (!iequals(layout, "coordinate")) {
    in.fail(error_code::parse,
            "unknown Matrix Market format " + quote(layout) + ": need 'coordinate'");
  }
  bool pattern = false;
  if (iequals(field, "pattern")) {
    pattern = true;
  } else if (iequals(field, "complex")) {
    in.fail(error_code::parse,
            "'complex' Matrix Market files are not supported: weights must be real");
  } else if (!iequals(field, "real") && !iequals(field, "integer") && !iequals(field, "double")) {
    in.fail(error_code::parse,
            "unknown Matrix Market field " + quote(field) + ": need real, integer or pattern");
  }
  const bool integer = iequals(field, "integer");  // the banner's tokens end with its line
  bool symmetric = false;
  if (iequals(symmetry, "symmetric")) {
    symmetric = true;
  } else if (iequals(symmetry, "skew-symmetric") || iequals(symmetry, "hermitian")) {
    in.fail(error_code::parse,
            quote(symmetry) + " Matrix Market files are not supported: need general or symmetric");
  } else if (!iequals(symmetry, "general")) {
    in.fail(error_code::parse,
            "unknown Matrix Market symmetry " + quote(symmetry) + ": need general or symmetric");
  }

  // Size line: the first line that is neither a comment nor blank.
  std::string_view rows_t;
  for (;;) {
    if (!in.next_line(tk)) in.fail(error_code::parse, "missing the size line 'rows cols entries'");
    tokenizer probe = tk;
    rows_t = probe.next();
    if (rows_t.empty() || rows_t[0] == '%') continue;
    tk = probe;
    break;
  }
  const vertex n = in.parse_vertex_count(rows_t, "row count");
  const std::string_view cols_t = tk.next();
  const std::uint64_t cols = in.parse_count(cols_t, "column count");
  const std::uint64_t nnz = in.parse_count(tk.next(), "entry count");
  in.expect_end(tk, "the size line");
  if (cols != n) {
    in.fail(error_code::parse, "the matrix is " + std::to_string(n) + " x " + std::to_string(cols) +
                                   "; a graph's adjacency matrix must be square");
  }

  mm_header h;
  h.n = n;
  h.entries = nnz;
  h.pattern = pattern;
  h.integer = integer;
  h.symmetric = symmetric;
  return h;
}

template <class W>
struct mm_line {
  const mm_header& h;
  const read_options& o;
  void operator()(const text_input& in, tokenizer tk, body_part<W>& part) const {
    const std::string_view first = tk.next();
    if (first.empty() || first[0] == '%') return;
    ++part.entries;
    const vertex u = in.parse_id(first, h.n, 1, "row index");
    const vertex v = in.parse_id(tk.next(), h.n, 1, "column index");
    W w;
    if (h.pattern) {
      w = unweighted_weight<W>(u, v, o);
    } else {
      const std::string_view t = tk.next();
      if (h.integer && !t.empty()) in.check_integer_field(t);
      w = in.parse_weight<W>(t, o);
    }
    in.expect_end(tk, h.pattern ? "a pattern entry 'i j'" : "an entry 'i j value'");
    part.add(u, v, w);
    if (h.symmetric && u != v) part.add(v, u, w);
  }
};

template <class W>
bool parse_matrix_market(text_input& in, const read_options& o, graph_file_info& info,
                         progress_meter* parallel, arc_list<W>& out, const row_filter& rows = {}) {
  const mm_header h = parse_mm_header(in);
  check_announced(in, h.n, "the size line", o);
  const mm_line<W> handle{h, o};
  std::uint64_t entries = 0;
  out.n = h.n;
  std::vector<body_part<W>> parts;
  if (parallel && parse_body_parallel(in, in.path(), *parallel, handle, parts)) {
    for (const auto& p : parts) entries += p.entries;
    if (entries != h.entries) return false;  // the sequential parse names the line
    merge_parts(parts, out);
  } else {
    if (parallel) return false;
    body_part<W> part;
    part.filter = rows;
    if (rows.all)
      reserve_arcs(part.arcs, h.symmetric ? 2 * h.entries : h.entries,
                   in.remaining_bytes() * (h.symmetric ? 2 : 1), 4);
    run_body(in, handle, part, h.entries, "entries", "the size line", o);
    entries = part.entries;
    if (entries < h.entries) {
      in.fail(error_code::parse, "truncated: the size line announces " + std::to_string(h.entries) +
                                     " entries, the file has " + std::to_string(entries));
    }
    part.arcs.n = h.n;
    out = std::move(part.arcs);
  }
  info.weighted = !h.pattern && !o.unit_weights;
  info.symmetric_storage = h.symmetric;
  info.arcs_in_file = entries;
  return true;
}

// ---------------------------------------------------------------------------------------------
// DIMACS shortest-path text

// Comments and the problem line; `in` is left after the problem line.
void parse_dimacs_header(text_input& in, vertex& n, std::uint64_t& m) {
  tokenizer tk{nullptr, nullptr};
  while (in.next_line(tk)) {
    const std::string_view kind = tk.next();
    if (kind.empty() || kind[0] == 'c') continue;
    if (kind == "a") in.fail(error_code::parse, "arc line before the problem line 'p sp <n> <m>'");
    if (kind != "p") {
      in.fail(error_code::parse, "unexpected line starting with " + quote(kind) +
                                     " (DIMACS lines start with c, p or a)");
    }
    const std::string_view type = tk.next();
    if (type != "sp") {
      in.fail(error_code::parse,
              "expected the problem line 'p sp <n> <m>', got problem type " + quote(type));
    }
    n = in.parse_vertex_count(tk.next(), "vertex count");
    m = in.parse_count(tk.next(), "arc count");
    in.expect_end(tk, "the problem line 'p sp <n> <m>'");
    return;
  }
  in.fail(error_code::parse, "no problem line 'p sp <n> <m>'");
}

template <class W>
struct dimacs_line {
  vertex n;
  const read_options& o;
  void operator()(const text_input& in, tokenizer tk, body_part<W>& part) const {
    const std::string_view kind = tk.next();
    if (kind.empty() || kind[0] == 'c') return;
    if (kind == "a") {
      ++part.entries;
      const vertex u = in.parse_id(tk.next(), n, 1, "arc tail");
      const vertex v = in.parse_id(tk.next(), n, 1, "arc head");
      const W w = in.parse_weight<W>(tk.next(), o);
      in.expect_end(tk, "an arc 'a u v w'");
      part.add(u, v, w);
    } else if (kind == "p") {
      in.fail(error_code::parse, "a second problem line");
    } else {
      in.fail(error_code::parse, "unexpected line starting with " + quote(kind) +
                                     " (DIMACS lines start with c, p or a)");
    }
  }
};

template <class W>
bool parse_dimacs(text_input& in, const read_options& o, graph_file_info& info,
                  progress_meter* parallel, arc_list<W>& out, const row_filter& rows = {}) {
  vertex n = 0;
  std::uint64_t m = 0, entries = 0;
  parse_dimacs_header(in, n, m);
  check_announced(in, n, "the problem line", o);
  const dimacs_line<W> handle{n, o};
  out.n = n;
  std::vector<body_part<W>> parts;
  if (parallel && parse_body_parallel(in, in.path(), *parallel, handle, parts)) {
    for (const auto& p : parts) entries += p.entries;
    if (entries != m) return false;
    merge_parts(parts, out);
  } else {
    if (parallel) return false;
    body_part<W> part;
    part.filter = rows;
    if (rows.all) reserve_arcs(part.arcs, m, in.remaining_bytes(), 8);
    run_body(in, handle, part, m, "arcs", "the problem line", o);
    entries = part.entries;
    if (entries < m) {
      in.fail(error_code::parse, "truncated: the problem line announces " + std::to_string(m) +
                                     " arcs, the file has " + std::to_string(entries));
    }
    part.arcs.n = n;
    out = std::move(part.arcs);
  }
  info.weighted = !o.unit_weights;
  info.arcs_in_file = entries;
  return true;
}

// ---------------------------------------------------------------------------------------------
// SNAP edge list

// Maps sparse 64-bit ids to 0..k-1 in order of first appearance (open addressing, linear
// probing; the table doubles at half load).
class id_compactor {
 public:
  vertex get(std::uint64_t id, bool& overflow) {
    if (2 * (size_ + 1) > keys_.size()) grow();
    std::size_t i = slot(id);
    while (used_[i]) {
      if (keys_[i] == id) return vals_[i];
      i = (i + 1) & (keys_.size() - 1);
    }
    if (size_ >= std::numeric_limits<vertex>::max()) {
      overflow = true;
      return 0;
    }
    used_[i] = 1;
    keys_[i] = id;
    vals_[i] = static_cast<vertex>(size_);
    return static_cast<vertex>(size_++);
  }
  std::uint64_t size() const { return size_; }

 private:
  std::size_t slot(std::uint64_t id) const { return splitmix64(id) & (keys_.size() - 1); }
  void grow() {
    std::vector<std::uint64_t> k = std::move(keys_);
    std::vector<vertex> v = std::move(vals_);
    std::vector<unsigned char> u = std::move(used_);
    const std::size_t cap = std::max<std::size_t>(1024, k.size() * 2);
    keys_.assign(cap, 0);
    vals_.assign(cap, 0);
    used_.assign(cap, 0);
    for (std::size_t j = 0; j < k.size(); ++j) {
      if (!u[j]) continue;
      std::size_t i = slot(k[j]);
      while (used_[i]) i = (i + 1) & (cap - 1);
      used_[i] = 1;
      keys_[i] = k[j];
      vals_[i] = v[j];
    }
  }
  std::vector<std::uint64_t> keys_;
  std::vector<vertex> vals_;
  std::vector<unsigned char> used_;
  std::uint64_t size_ = 0;
};

// "# Nodes: 82168 Edges: 948464": the vertex count of a SNAP header, if the line has one.
bool snap_nodes_comment(std::string_view line, std::uint64_t& nodes) {
  const std::size_t at = line.find("Nodes:");
  if (at == std::string_view::npos) return false;
  const char* p = line.data() + at + 6;
  const char* e = line.data() + line.size();
  while (p < e && is_blank(*p)) ++p;
  const auto r = std::from_chars(p, e, nodes);
  return r.ec == std::errc() && r.ptr != p;
}

template <class W>
struct snap_line {
  const read_options& o;
  bool have_announced;
  std::uint64_t announced;
  id_compactor* compact;  // only with compact_ids (never in parallel: ids follow file order)

  vertex id(const text_input& in, std::string_view t, const char* what, body_part<W>& part) const {
    constexpr std::uint64_t id_limit = std::numeric_limits<vertex>::max();  // n = max + 1 fits
    if (t.empty()) in.fail(error_code::parse, std::string("missing ") + what);
    std::uint64_t x = 0;
    const number r = parse_decimal(t.data(), t.data() + t.size(), x);
    if (r == number::invalid) {
      in.fail(error_code::parse, "invalid " + std::string(what) + " " + quote(t));
    }
    if (compact) {
      if (r != number::ok) {
        in.fail(error_code::invalid_index, std::string(what) + " " + quote(t) + " exceeds 64 bits");
      }
      bool overflow = false;
      const vertex c = compact->get(x, overflow);
      if (overflow) {
        in.fail(error_code::invalid_index, "more distinct ids than 32-bit vertex ids allow");
      }
      return c;
    }
    if (r != number::ok || x >= id_limit) {
      in.fail(error_code::invalid_index,
              std::string(what) + " " + quote(t) + " is out of range: ids must be below " +
                  std::to_string(id_limit) +
                  " (renumber sparse ids: read_options.compact_ids, tropic --compact-ids)");
    }
    part.max_id = std::max(part.max_id, x);
    return static_cast<vertex>(x);
  }

  void operator()(const text_input& in, tokenizer tk, body_part<W>& part) const {
    const std::string_view line{tk.p, static_cast<std::size_t>(tk.e - tk.p)};
    const std::string_view first = tk.next();
    if (first.empty() || first[0] == '#' || first[0] == '%') return;
    const std::string_view second = tk.next();
    const std::string_view third = tk.next();
    const std::string_view fourth = tk.rest();
    const int cols = second.empty() ? 1 : third.empty() ? 2 : fourth.empty() ? 3 : 4;
    if (cols < 2 || cols > 3) {
      in.fail(error_code::parse, "expected 'u v' or 'u v w', got " + std::to_string(cols) +
                                     " columns: " + quote(line));
    }
    if (part.columns == 0) {
      part.columns = cols;
    } else if (cols != part.columns) {
      in.fail(error_code::parse, "line has " + std::to_string(cols) +
                                     " columns, earlier lines have " +
                                     std::to_string(part.columns));
    }
    const vertex u = id(in, first, "source id", part);
    const vertex v = id(in, second, "target id", part);
    const W w = cols == 3 ? in.parse_weight<W>(third, o) : unweighted_weight<W>(u, v, o);
    part.add(u, v, w);
    ++part.entries;
  }
};

template <class W>
bool parse_snap(text_input& in, const read_options& o, graph_file_info& info,
                progress_meter* parallel, arc_list<W>& out, const row_filter& rows = {}) {
  constexpr std::uint64_t id_limit = std::numeric_limits<vertex>::max();
  // Header: the comment lines before the first data line; only they may announce "Nodes:".
  std::uint64_t announced = 0;
  bool have_announced = false;
  for (;;) {
    tokenizer tk{nullptr, nullptr};
    if (!in.next_line(tk)) break;
    tokenizer probe = tk;
    const std::string_view first = probe.next();
    if (first.empty()) continue;
    if (first[0] != '#' && first[0] != '%') {
      in.rewind(tk.p);  // the body starts with this line
      break;
    }
    std::uint64_t nodes = 0;
    if (!have_announced && !o.compact_ids &&
        snap_nodes_comment({tk.p, static_cast<std::size_t>(tk.e - tk.p)}, nodes)) {
      if (nodes > id_limit) {
        in.fail(error_code::invalid_value,
                "'Nodes: " + std::to_string(nodes) + "' exceeds the 32-bit vertex limit");
      }
      have_announced = true;
      announced = nodes;
    }
  }
  id_compactor compact;
  const snap_line<W> handle{o, have_announced, announced, o.compact_ids ? &compact : nullptr};
  std::uint64_t entries = 0, max_id = 0;
  int columns = 0;
  std::vector<body_part<W>> parts;
  if (parallel && !o.compact_ids && parse_body_parallel(in, in.path(), *parallel, handle, parts)) {
    for (const auto& p : parts) {
      entries += p.entries;
      max_id = std::max(max_id, p.max_id);
      if (p.columns != 0 && columns != 0 && p.columns != columns) return false;
      if (p.columns != 0) columns = p.columns;
    }
    merge_parts(parts, out);
  } else {
    if (parallel) return false;
    body_part<W> part;
    part.filter = rows;
    if (rows.all)
      reserve_arcs(part.arcs, std::numeric_limits<std::uint64_t>::max(), in.remaining_bytes(), 6);
    run_body(in, handle, part, std::numeric_limits<std::uint64_t>::max(), "arcs", "the file", o);
    entries = part.entries;
    max_id = part.max_id;
    columns = part.columns;
    out = std::move(part.arcs);
  }
  if (o.compact_ids) {
    out.n = static_cast<vertex>(compact.size());
  } else {
    out.n = static_cast<vertex>(std::max<std::uint64_t>(entries ? max_id + 1 : 0, announced));
  }
  info.weighted = columns == 3 && !o.unit_weights;
  info.arcs_in_file = entries;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Binary formats: both yield a CSR as stored, validated.

// Validates row offsets (from `off`, n + 1 entries) and columns; fills g's topology.
template <class W>
void load_topology(const std::string& path, const char* off, bool ends_only, const char* cols,
                   std::uint64_t n, std::uint64_t m, csr<W>& g) {
  g.n = static_cast<vertex>(n);
  g.row_offsets.resize(n + 1);
  if (ends_only) {
    g.row_offsets[0] = 0;
    std::memcpy(g.row_offsets.data() + 1, off, n * 8);
  } else {
    std::memcpy(g.row_offsets.data(), off, (n + 1) * 8);
    if (g.row_offsets[0] != 0) {
      fail(error_code::parse, path,
           "row_offsets[0] is " + std::to_string(g.row_offsets[0]) + ", not 0");
    }
  }
  for (std::uint64_t u = 0; u < n; ++u) {
    if (g.row_offsets[u + 1] < g.row_offsets[u] || g.row_offsets[u + 1] > m) {
      fail(error_code::parse, path,
           "row of vertex " + std::to_string(u) + " ends at arc " +
               std::to_string(g.row_offsets[u + 1]) + ", outside [" +
               std::to_string(g.row_offsets[u]) + ", " + std::to_string(m) + "]");
    }
  }
  if (g.row_offsets[n] != m) {
    fail(error_code::parse, path,
         "the last row ends at arc " + std::to_string(g.row_offsets[n]) +
             " but the header announces " + std::to_string(m) + " arcs");
  }
  g.columns.resize(m);
  if (m) std::memcpy(g.columns.data(), cols, m * 4);  // data() may be null when m == 0
  for (std::uint64_t k = 0; k < m; ++k) {
    if (g.columns[k] >= n) {
      fail(error_code::invalid_index, path,
           "arc " + std::to_string(k) + ": destination " + std::to_string(g.columns[k]) +
               " is out of range 0.." + std::to_string(n - 1));
    }
  }
}

}  // namespace

namespace io_detail {

namespace {

template <class W, class S>
void load_weights(const std::string& path, const char* data, std::size_t count,
                  const read_options& o, W* out, const arc_namer& name) {
  if (o.unit_weights) {
    std::fill(out, out + count, W(1));
    return;
  }
  if constexpr (std::is_same_v<S, W>) {
    if (count) std::memcpy(out, data, count * sizeof(S));
    bool clean = true;
    for (std::size_t k = 0; k < count && clean; ++k) {
      if constexpr (std::is_floating_point_v<W>) clean = std::isfinite(out[k]);
      if constexpr (std::is_signed_v<W>) clean = clean && (o.allow_negative || out[k] >= W(0));
    }
    if (clean) return;
  }
  std::string why;
  for (std::size_t k = 0; k < count; ++k) {
    const S x = load_le<S>(data + k * sizeof(S));
    if (!store_weight<W>(x, o.allow_negative, out[k], why)) {
      fail(error_code::invalid_value, path, name(k) + ": weight " + weight_string(x) + " " + why);
    }
  }
}

}  // namespace

template <class W>
void load_weights_tagged(const std::string& path, std::uint32_t tag, const char* data,
                         std::size_t count, const read_options& o, W* out, const arc_namer& name) {
  switch (tag) {
    case 0:
      return load_weights<W, std::uint32_t>(path, data, count, o, out, name);
    case 1:
      return load_weights<W, std::int32_t>(path, data, count, o, out, name);
    case 2:
      return load_weights<W, std::uint64_t>(path, data, count, o, out, name);
    case 3:
      return load_weights<W, std::int64_t>(path, data, count, o, out, name);
    case 4:
      return load_weights<W, float>(path, data, count, o, out, name);
    case 5:
      return load_weights<W, double>(path, data, count, o, out, name);
    default:
      fail(error_code::parse, path, "unknown weight type tag " + std::to_string(tag));
  }
}

std::string size_mismatch(std::uint64_t have, std::uint64_t need, const std::string& what) {
  if (have < need) {
    return "truncated: " + what + " needs " + std::to_string(need) + " bytes, the file has " +
           std::to_string(have);
  }
  return "the file has " + std::to_string(have) + " bytes, " + std::to_string(have - need) +
         " more than " + what + " accounts for (" + std::to_string(need) + ")";
}

// n and m small enough that every byte count below fits in 64 bits.
void check_sizes(const std::string& path, std::uint64_t n, std::uint64_t m) {
  if (n > std::numeric_limits<vertex>::max()) {
    fail(error_code::parse, path,
         "header announces " + std::to_string(n) + " vertices, more than 32-bit vertex ids allow");
  }
  if (m > (std::uint64_t{1} << 56)) {
    fail(error_code::parse, path, "header announces an impossible " + std::to_string(m) + " arcs");
  }
}

const char* binary_header_name(graph_format f) {
  return f == graph_format::galois_binary ? "the Galois .gr header" : "the tropic cache header";
}

binary_layout parse_binary_header(graph_format f, const char* d, const std::string& path) {
  binary_layout l;
  l.format = f;
  l.n = load_le<std::uint64_t>(d + 16);
  l.m = load_le<std::uint64_t>(d + 24);
  const std::uint64_t n = l.n, m = l.m;
  if (f == graph_format::galois_binary) {
    const std::uint64_t version = load_le<std::uint64_t>(d);
    l.esize = load_le<std::uint64_t>(d + 8);
    if (version != 1) {
      fail(error_code::parse, path,
           "Galois .gr version " + std::to_string(version) + " is not supported (only version 1)");
    }
    if (l.esize != 0 && l.esize != 4 && l.esize != 8) {
      fail(error_code::parse, path,
           "Galois .gr edge data size " + std::to_string(l.esize) +
               " is not supported (0, 4 or 8 bytes)");
    }
    check_sizes(path, n, m);
    l.tag = l.esize == 8 ? 2 : 0;
    l.col_at = l.off_at + 8 * n;
    l.what = "a Galois .gr header with n = " + std::to_string(n) + ", m = " + std::to_string(m) +
             ", edge data size " + std::to_string(l.esize);
  } else {
    l.tag = load_le<std::uint32_t>(d + 8);
    if (l.tag > 5)
      fail(error_code::parse, path, "unknown weight type tag " + std::to_string(l.tag));
    check_sizes(path, n, m);
    l.esize = tag_size(l.tag);
    l.col_at = l.off_at + 8 * (n + 1);
    l.what = "a tropic cache header with n = " + std::to_string(n) + ", m = " + std::to_string(m) +
             ", weights " + tag_name(l.tag);
  }
  l.w_at = l.col_at + 4 * m + (m % 2 ? 4 : 0);
  l.need = l.w_at + l.esize * m;
  return l;
}

void check_binary_size(binary_layout& l, std::uint64_t size, const char* trailer,
                       const std::string& path) {
  if (l.format == graph_format::galois_binary && size == l.need + 16 && trailer &&
      std::memcmp(trailer, galois_trailer_magic, 8) == 0) {
    l.tag = load_le<std::uint32_t>(trailer + 8);
    if (l.tag > 5 || tag_size(l.tag) != l.esize) {
      fail(error_code::parse, path,
           "tropic weight trailer names type tag " + std::to_string(l.tag) +
               ", which does not match edge data size " + std::to_string(l.esize));
    }
  } else if (size != l.need) {
    fail(error_code::parse, path, size_mismatch(size, l.need, l.what));
  }
}

}  // namespace io_detail

namespace {

// Source row of arc k.
template <class W>
vertex row_of(const csr<W>& g, arc_index k) {
  const auto it = std::upper_bound(g.row_offsets.begin(), g.row_offsets.end(), k);
  return static_cast<vertex>(it - g.row_offsets.begin() - 1);
}

// A stored CSR with its layout's checks, as read_graph reads it whole.
template <class W>
csr<W> parse_binary(graph_format f, bytes buf, const std::string& path, const read_options& o,
                    graph_file_info& info) {
  const std::uint64_t size = buf.size();
  if (size < 32) fail(error_code::parse, path, size_mismatch(size, 32, binary_header_name(f)));
  const char* d = buf.data();
  binary_layout l = parse_binary_header(f, d, path);
  check_binary_size(l, size, size == l.need + 16 ? d + l.need : nullptr, path);
  const bool galois = f == graph_format::galois_binary;
  csr<W> g;
  load_topology(path, d + l.off_at, galois, d + l.col_at, l.n, l.m, g);
  g.weights.resize(l.m);
  if (l.esize == 0) {
    for (vertex u = 0; u < g.n; ++u) {
      for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
        g.weights[k] = unweighted_weight<W>(u, g.columns[k], o);
      }
    }
  } else {
    load_weights_tagged(path, l.tag, d + l.w_at, l.m, o, g.weights.data(), [&](std::size_t k) {
      return "arc " + std::to_string(k) + " (" + std::to_string(row_of(g, k)) + " -> " +
             std::to_string(g.columns[k]) + ")";
    });
  }
  info.weighted = l.esize != 0 && !o.unit_weights;
  info.arcs_in_file = l.m;
  return g;
}

// A stored CSR is returned as is when build_csr would not change it; otherwise it goes through
// build_csr like any arc list.
template <class W>
bool already_built(const csr<W>& g, const build_options& b) {
  if (b.symmetrize) return false;
  for (vertex u = 0; u < g.n; ++u) {
    for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
      if (k > g.row_offsets[u] && g.columns[k - 1] >= g.columns[k]) return false;
      if (b.drop_self_loops && g.columns[k] == u) return false;
    }
  }
  return true;
}

template <class W>
arc_list<W> to_arcs(csr<W>&& g) {
  arc_list<W> a;
  a.n = g.n;
  a.src.resize(g.arcs());
  for (vertex u = 0; u < g.n; ++u) {
    std::fill(a.src.begin() + static_cast<std::ptrdiff_t>(g.row_offsets[u]),
              a.src.begin() + static_cast<std::ptrdiff_t>(g.row_offsets[u + 1]), u);
  }
  a.dst = std::move(g.columns);
  a.weight = std::move(g.weights);
  return a;
}

// ---------------------------------------------------------------------------------------------
// Detection and dispatch

// The first byte of [d, d + size) that cannot be in a text graph file: a control byte other than
// whitespace, or a byte that is not part of well-formed UTF-8 (comments may hold UTF-8 names;
// binary data almost never parses as UTF-8 for long). size when there is none. `complete`
// false: a sequence cut off at the end is not an error yet.
std::size_t first_non_text(const char* d, std::size_t size, bool complete) {
  const auto* u = reinterpret_cast<const unsigned char*>(d);
  std::size_t i = 0;
  while (i < size) {
    const unsigned char c = u[i];
    if (c >= 0x20 && c < 0x7f) {
      ++i;
      continue;
    }
    if (c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
      ++i;
      continue;
    }
    const std::size_t follow = c >= 0xc2 && c <= 0xdf   ? 1
                               : c >= 0xe0 && c <= 0xef ? 2
                               : c >= 0xf0 && c <= 0xf4 ? 3
                                                        : 0;
    if (follow == 0) return i;
    if (i + follow >= size) return complete ? i : size;
    for (std::size_t k = 1; k <= follow; ++k) {
      if ((u[i + k] & 0xc0) != 0x80) return i;
    }
    i += follow + 1;
  }
  return size;
}

}  // namespace

namespace io_detail {

void check_text(const char* d, std::size_t size, bool complete, const std::string& path,
                graph_format f, std::uint64_t offset, std::uint64_t lines) {
  const std::size_t at = first_non_text(d, size, complete);
  if (at == size) return;
  const std::uint64_t line = lines + 1 + static_cast<std::uint64_t>(std::count(d, d + at, '\n'));
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned char>(d[at]));
  fail(error_code::parse, path,
       "byte offset " + std::to_string(offset + at) + " (line " + std::to_string(line) +
           "): byte " + byte +
           " is not text (a control byte or malformed UTF-8); this looks like binary data, not a " +
           format_name(f) + " file");
}

bool detect_format(const char* d, std::size_t size, bool complete, const std::string& path,
                   bool was_gzip, graph_format& f) {
  if (size == 0) {
    if (!complete) return false;
    fail(error_code::parse, path,
         was_gzip ? "file is empty (after decompression)" : "file is empty");
  }
  if (size >= 8 && std::memcmp(d, cache_magic, 8) == 0) {
    f = graph_format::tropic_binary;
    return true;
  }
  if (size >= 8) {
    const std::uint64_t v = load_le<std::uint64_t>(d);
    // A Galois header's version is a small integer: bytes 1..7 are zero, never text.
    if (v == 1 || v == 2) {
      f = graph_format::galois_binary;
      return true;
    }
  } else if (!complete) {
    return false;
  }
  std::size_t i = 0;
  while (i < size && (is_blank(d[i]) || d[i] == '\n')) ++i;
  if (i == size) {
    if (!complete) return false;
    fail(error_code::parse, path, "file holds only whitespace");
  }
  const std::string_view rest(d + i, size - i);
  const std::string_view first_line = rest.substr(0, rest.find('\n'));
  if (rest.size() >= 14 && iequals(rest.substr(0, 14), "%%MatrixMarket")) {
    f = graph_format::matrix_market;
    return true;
  }
  // A near-miss of the banner ("%MatrixMarket", a byte-order mark, a space inside) must not fall
  // through to SNAP, which skips '%' lines and would read the size line as an arc.
  std::string lower(first_line.substr(0, 256));
  for (char& ch : lower) ch = ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch;
  if (lower.find("matrixmarket") != std::string::npos ||
      lower.find("matrix market") != std::string::npos) {
    fail(error_code::parse, path,
         "line " + std::to_string(1 + std::count(d, d + i, '\n')) + " " + quote(first_line) +
             " looks like a Matrix Market banner but is not one: it must start with "
             "'%%MatrixMarket' (two '%', no space)");
  }
  if (rest.size() >= 2 && rest[0] == '%' && rest[1] == '%') {
    fail(error_code::parse, path,
         "unknown header " + quote(first_line) +
             " (a Matrix Market file starts with '%%MatrixMarket')");
  }
  const char c = rest[0];
  const char next = rest.size() > 1 ? rest[1] : '\n';
  if ((c == 'c' || c == 'p') && (is_blank(next) || next == '\n')) {
    f = graph_format::dimacs;
  } else if (c == '#' || c == '%' || (c >= '0' && c <= '9')) {
    f = graph_format::snap;
  } else {
    const bool binary = first_non_text(d, std::min<std::size_t>(size, 256), complete) <
                        std::min<std::size_t>(size, 256);
    if (binary) {
      fail(error_code::parse, path,
           "unknown format: binary data that is neither a Galois .gr file nor a tropic cache "
           "(first bytes " +
               quote(rest.substr(0, 8)) + ")");
    }
    fail(error_code::parse, path,
         "unknown format: first line " + quote(first_line) +
             " is not Matrix Market, DIMACS .gr or a SNAP edge list");
  }
  return true;
}

}  // namespace io_detail

namespace {

// The prefix check of load_source: the format, and for text that the bytes so far are text.
void check_prefix(const char* d, std::size_t size, bool complete, const std::string& path,
                  bool was_gzip) {
  graph_format f{};
  if (detect_format(d, size, complete, path, was_gzip, f) && !is_binary_format(f)) {
    check_text(d, size, complete, path, f);
  }
}

template <class W>
arc_list<W> parse_text(graph_format f, bytes buf, const std::string& path, const read_options& o,
                       graph_file_info& info, progress_meter& progress) {
  auto parse = [&](progress_meter* parallel, arc_list<W>& out) {
    text_input in(buf, path, progress);
    switch (f) {
      case graph_format::matrix_market:
        return parse_matrix_market<W>(in, o, info, parallel, out);
      case graph_format::dimacs:
        return parse_dimacs<W>(in, o, info, parallel, out);
      default:
        return parse_snap<W>(in, o, info, parallel, out);
    }
  };
  arc_list<W> arcs;
  if (buf.size() >= parallel_body_bytes && parse(&progress, arcs)) return arcs;
  arcs = arc_list<W>{};
  info = graph_file_info{f};
  parse(nullptr, arcs);  // sequential: exact line numbers for whatever went wrong in parallel
  return arcs;
}

}  // namespace

namespace {

// Detects the format and parses. A binary CSR that build_csr would not change comes back in `g`
// (the result is true); everything else as arcs.
template <class W>
bool parse_input(bytes buf, const std::string& path, bool was_gzip, const read_options& o,
                 graph_file_info& inf, progress_meter& progress, bool keep_csr, csr<W>& g,
                 arc_list<W>& arcs) {
  graph_format f{};
  detect_format(buf.data(), buf.size(), true, path, was_gzip, f);
  inf.format = f;
  if (is_binary_format(f)) {
    g = parse_binary<W>(f, buf, path, o, inf);
    if (keep_csr && already_built(g, o.build)) return true;
    arcs = to_arcs(std::move(g));
    g = csr<W>{};
    return false;
  }
  check_text(buf.data(), buf.size(), true, path, f);
  arcs = parse_text<W>(f, buf, path, o, inf, progress);
  progress.done();
  return false;
}

// What build_csr is about to allocate (row offsets and its counting arrays per vertex, a column
// and a weight per arc), checked against the limit first: a few bytes of SNAP text naming id
// 4294967294 describe a graph of 2^32 vertices, which must fail with its sizes, not thrash.
template <class W>
void check_graph_memory(const std::string& path, const graph_file_info& inf, std::uint64_t n,
                        std::uint64_t m, const read_options& o) {
  const std::uint64_t limit = memory_limit(o);
  const long double need = static_cast<long double>(n) * bytes_per_vertex +
                           static_cast<long double>(m) * (sizeof(vertex) + sizeof(W));
  if (need <= static_cast<long double>(limit)) return;
  fail(error_code::out_of_memory, path,
       "the graph has " + std::to_string(n) + " vertices and " + std::to_string(m) +
           " arcs; building it needs about " + std::to_string(static_cast<std::uint64_t>(need)) +
           " bytes, more than the limit of " + std::to_string(limit) + " (" + limit_hint(o) + ")" +
           (inf.format == graph_format::snap && !o.compact_ids
                ? "; a SNAP list has n = largest id + 1, and --compact-ids (read_options."
                  "compact_ids) renumbers sparse ids"
                : ""));
}

template <class W>
csr<W> build_graph(arc_list<W>& arcs, const std::string& path, const graph_file_info& inf,
                   const read_options& o) {
  check_graph_memory<W>(path, inf, arcs.n, arcs.size(), o);
  try {
    return build_csr(arcs, o.build);
  } catch (const error& e) {
    throw error(e.code(), path + ": " + e.what());
  }
}

template <class W>
arc_list<W> arcs_of(bytes buf, const std::string& name, bool was_gzip, const read_options& opts,
                    graph_file_info& inf, progress_meter& progress) {
  csr<W> g;
  arc_list<W> arcs;
  parse_input<W>(buf, name, was_gzip, opts, inf, progress, false, g, arcs);
  return arcs;
}

}  // namespace

struct graph_input_access {
  static void adopt(graph_input& in, byte_buffer& buf, std::string name, bool was_gzip) {
    in.size_ = buf.size();
    in.data_ = buf.release();
    in.name_ = std::move(name);
    in.gzip_ = was_gzip;
  }
};

graph_input::graph_input(graph_input&& o) noexcept
    : data_(o.data_), size_(o.size_), name_(std::move(o.name_)), gzip_(o.gzip_) {
  o.data_ = nullptr;
  o.size_ = 0;
}

graph_input& graph_input::operator=(graph_input&& o) noexcept {
  if (this != &o) {
    std::free(data_);
    data_ = o.data_;
    size_ = o.size_;
    name_ = std::move(o.name_);
    gzip_ = o.gzip_;
    o.data_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

graph_input::~graph_input() {
  std::free(data_);
}

graph_input load_graph_input(const std::string& path, const read_options& opts) {
  const std::string name = input_name(path);
  progress_meter progress(opts.progress, name);
  byte_buffer buf;
  bool was_gzip = false;
  load_path(path, name, opts, buf, was_gzip, progress, check_prefix);
  graph_input in;
  graph_input_access::adopt(in, buf, name, was_gzip);
  return in;
}

graph_input graph_input_from_memory(const void* data, std::size_t size, const std::string& name,
                                    const read_options& opts) {
  progress_meter progress(false, name);
  byte_buffer buf;
  bool was_gzip = false;
  byte_source src(static_cast<const char*>(data), size);
  load_source(src, name, size, opts, buf, was_gzip, progress, check_prefix);
  graph_input in;
  graph_input_access::adopt(in, buf, name, was_gzip);
  return in;
}

template <class W>
arc_list<W> read_arcs(const std::string& path, const read_options& opts, graph_file_info* info) {
  static_assert(is_weight_type_v<W>, "read_arcs: unsupported weight type");
  graph_file_info local;
  graph_file_info& inf = info ? *info : local;
  inf = graph_file_info{};
  const std::string name = input_name(path);
  progress_meter progress(opts.progress, name);
  byte_buffer buf;
  bool was_gzip = false;
  load_path(path, name, opts, buf, was_gzip, progress, check_prefix);
  return arcs_of<W>({buf.data(), buf.size()}, name, was_gzip, opts, inf, progress);
}

template <class W>
arc_list<W> read_arcs(const graph_input& in, const read_options& opts, graph_file_info* info) {
  static_assert(is_weight_type_v<W>, "read_arcs: unsupported weight type");
  graph_file_info local;
  graph_file_info& inf = info ? *info : local;
  inf = graph_file_info{};
  progress_meter progress(opts.progress, in.name());
  return arcs_of<W>({in.data(), in.size()}, in.name(), in.was_gzip(), opts, inf, progress);
}

template <class W>
csr<W> read_graph(const std::string& path, const read_options& opts, graph_file_info* info) {
  static_assert(is_weight_type_v<W>, "read_graph: unsupported weight type");
  graph_file_info local;
  graph_file_info& inf = info ? *info : local;
  inf = graph_file_info{};
  const std::string name = input_name(path);
  arc_list<W> arcs;
  {
    progress_meter progress(opts.progress, name);
    byte_buffer buf;
    bool was_gzip = false;
    load_path(path, name, opts, buf, was_gzip, progress, check_prefix);
    csr<W> g;
    if (parse_input<W>({buf.data(), buf.size()}, name, was_gzip, opts, inf, progress, true, g,
                       arcs)) {
      return g;
    }
  }  // the file buffer is freed before the CSR is built
  return build_graph(arcs, name, inf, opts);
}

template <class W>
csr<W> read_graph(const graph_input& in, const read_options& opts, graph_file_info* info) {
  static_assert(is_weight_type_v<W>, "read_graph: unsupported weight type");
  graph_file_info local;
  graph_file_info& inf = info ? *info : local;
  inf = graph_file_info{};
  arc_list<W> arcs;
  {
    progress_meter progress(opts.progress, in.name());
    csr<W> g;
    if (parse_input<W>({in.data(), in.size()}, in.name(), in.was_gzip(), opts, inf, progress, true,
                       g, arcs)) {
      return g;
    }
  }
  return build_graph(arcs, in.name(), inf, opts);
}

template <class W>
csr<W> read_graph(graph_input&& in, const read_options& opts, graph_file_info* info) {
  static_assert(is_weight_type_v<W>, "read_graph: unsupported weight type");
  graph_file_info local;
  graph_file_info& inf = info ? *info : local;
  inf = graph_file_info{};
  const std::string name = in.name();
  arc_list<W> arcs;
  {
    progress_meter progress(opts.progress, name);
    csr<W> g;
    if (parse_input<W>({in.data(), in.size()}, name, in.was_gzip(), opts, inf, progress, true, g,
                       arcs)) {
      in = graph_input();
      return g;
    }
  }
  in = graph_input();  // parsed: the bytes go before the CSR is built, as in read_graph(path)
  return build_graph(arcs, name, inf, opts);
}

namespace io_detail {

template <class W>
arc_list<W> parse_text_rows(graph_format f, const char* from, const char* to, line_chunks& more,
                            const std::string& path, row_range rows, const read_options& o,
                            graph_file_info& info) {
  row_filter filter;
  filter.all = false;
  filter.either = o.build.symmetrize;
  filter.begin = rows.begin;
  filter.size = rows.size();
  filter.limit = memory_limit(o);
  filter.max_arcs = filter.limit / block_bytes_per_arc<W>();
  text_input in(from, to, path, more);
  arc_list<W> arcs;
  // Sequential (parallel == nullptr): the line numbers of errors are exact at once.
  switch (f) {
    case graph_format::matrix_market:
      parse_matrix_market<W>(in, o, info, nullptr, arcs, filter);
      break;
    case graph_format::dimacs:
      parse_dimacs<W>(in, o, info, nullptr, arcs, filter);
      break;
    default:
      parse_snap<W>(in, o, info, nullptr, arcs, filter);
      break;
  }
  return arcs;
}

}  // namespace io_detail

// ---------------------------------------------------------------------------------------------
// Writers

namespace {

// Buffered binary/text output that reports the path and the OS error on every failure.
class file_writer {
 public:
  explicit file_writer(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "wb")) {
    if (!f_) fail(error_code::io, path_, std::string("cannot create: ") + std::strerror(errno));
    buf_.reserve(chunk);
  }
  void bytes(const void* p, std::size_t n) {
    if (buf_.size() + n > chunk) flush();
    if (n >= chunk) {
      put(p, n);
    } else {
      buf_.insert(buf_.end(), static_cast<const char*>(p), static_cast<const char*>(p) + n);
    }
  }
  template <class T>
  void value(T x) {
    bytes(&x, sizeof x);
  }
  // Room for `n` more characters of text, to be committed with commit().
  char* text(std::size_t n) {
    if (buf_.size() + n > chunk) flush();
    const std::size_t at = buf_.size();
    buf_.resize(at + n);
    return buf_.data() + at;
  }
  void commit(char* end) { buf_.resize(static_cast<std::size_t>(end - buf_.data())); }
  void close() {
    flush();
    std::FILE* f = f_.release();
    if (std::fclose(f) != 0)
      fail(error_code::io, path_, std::string("write failed: ") + std::strerror(errno));
  }

 private:
  static constexpr std::size_t chunk = std::size_t{4} << 20;
  void flush() {
    put(buf_.data(), buf_.size());
    buf_.clear();
  }
  void put(const void* p, std::size_t n) {
    if (n && std::fwrite(p, 1, n, f_.get()) != n) {
      fail(error_code::io, path_, std::string("write failed: ") + std::strerror(errno));
    }
  }
  std::string path_;
  file_ptr f_;
  std::vector<char> buf_;
};

template <class T>
char* put_number(char* p, T x) {
  // Shortest representation that reads back to exactly x (integers trivially; floats by the
  // to_chars round-trip guarantee).
  return std::to_chars(p, p + 40, x).ptr;
}

template <class W>
void check_csr(const csr<W>& g, const std::string& path) {
  if (g.row_offsets.size() != static_cast<std::size_t>(g.n) + 1 ||
      g.row_offsets.back() != g.columns.size() || g.weights.size() != g.columns.size()) {
    fail(error_code::invalid_value, path,
         "cannot write an inconsistent CSR (row_offsets, columns and weights disagree)");
  }
}

}  // namespace

template <class W>
void write_matrix_market(const csr<W>& g, const std::string& path) {
  check_csr(g, path);
  file_writer out(path);
  std::string head = std::string("%%MatrixMarket matrix coordinate ") +
                     (std::is_integral_v<W> ? "integer" : "real") +
                     " general\n% written by tropic (" + weight_type_name<W>() + " weights)\n" +
                     std::to_string(g.n) + " " + std::to_string(g.n) + " " +
                     std::to_string(g.arcs()) + "\n";
  out.bytes(head.data(), head.size());
  for (vertex u = 0; u < g.n; ++u) {
    for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
      char* p = out.text(96);
      p = put_number(p, std::uint64_t{u} + 1);
      *p++ = ' ';
      p = put_number(p, std::uint64_t{g.columns[k]} + 1);
      *p++ = ' ';
      p = put_number(p, g.weights[k]);
      *p++ = '\n';
      out.commit(p);
    }
  }
  out.close();
}

template <class W>
void write_galois(const csr<W>& g, const std::string& path) {
  check_csr(g, path);
  file_writer out(path);
  const std::uint64_t m = g.arcs();
  out.value<std::uint64_t>(1);
  out.value<std::uint64_t>(sizeof(W));
  out.value<std::uint64_t>(g.n);
  out.value<std::uint64_t>(m);
  out.bytes(g.row_offsets.data() + 1, static_cast<std::size_t>(g.n) * 8);
  out.bytes(g.columns.data(), m * 4);
  if (m % 2) out.value<std::uint32_t>(0);
  out.bytes(g.weights.data(), m * sizeof(W));
  if constexpr (!std::is_same_v<W, std::uint32_t> && !std::is_same_v<W, std::uint64_t>) {
    out.bytes(galois_trailer_magic, 8);
    out.value<std::uint32_t>(type_tag<W>());
    out.value<std::uint32_t>(0);
  }
  out.close();
}

template <class W>
void write_binary_cache(const csr<W>& g, const std::string& path) {
  check_csr(g, path);
  file_writer out(path);
  const std::uint64_t m = g.arcs();
  out.bytes(cache_magic, 8);
  out.value<std::uint32_t>(type_tag<W>());
  out.value<std::uint32_t>(0);
  out.value<std::uint64_t>(g.n);
  out.value<std::uint64_t>(m);
  out.bytes(g.row_offsets.data(), (static_cast<std::size_t>(g.n) + 1) * 8);
  out.bytes(g.columns.data(), m * 4);
  if (m % 2) out.value<std::uint32_t>(0);
  out.bytes(g.weights.data(), m * sizeof(W));
  out.close();
}

#define TROPIC_INSTANTIATE_IO(W)                                                                  \
  template arc_list<W> read_arcs<W>(const std::string&, const read_options&, graph_file_info*);   \
  template csr<W> read_graph<W>(const std::string&, const read_options&, graph_file_info*);       \
  template arc_list<W> read_arcs<W>(const graph_input&, const read_options&, graph_file_info*);   \
  template csr<W> read_graph<W>(const graph_input&, const read_options&, graph_file_info*);       \
  template csr<W> read_graph<W>(graph_input&&, const read_options&, graph_file_info*);            \
  template arc_list<W> io_detail::parse_text_rows<W>(graph_format, const char*, const char*,      \
                                                     line_chunks&, const std::string&, row_range, \
                                                     const read_options&, graph_file_info&);      \
  template void io_detail::load_weights_tagged<W>(const std::string&, std::uint32_t, const char*, \
                                                  std::size_t, const read_options&, W*,           \
                                                  const arc_namer&);                              \
  template void write_matrix_market<W>(const csr<W>&, const std::string&);                        \
  template void write_galois<W>(const csr<W>&, const std::string&);                               \
  template void write_binary_cache<W>(const csr<W>&, const std::string&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE_IO)
#undef TROPIC_INSTANTIATE_IO

}  // namespace tropic
