// read_graph_rows: one row block of a graph file, in memory bounded by the block rather than the
// file (issue 38: each GPU reads its own part of a graph no host array holds whole).
//
// Text formats stream through one chunk of whole lines: read_graph's own line parsers (io.cpp,
// behind io_shared.hpp's line_chunks) take the lines, and a line the chunk's end cuts is carried
// to the front of the next chunk. Binary formats read the header, then the block's row offsets,
// columns and weights where the layout puts them: at their offsets in a plain file (pread), in
// one forward pass through a gzip stream or a pipe, dropping what the block does not need.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "io_shared.hpp"
#include "tropic/detail/read_rows_hooks.hpp"
#include "tropic/error.hpp"
#include "tropic/io.hpp"
#include "tropic/partition.hpp"

namespace tropic {

namespace {

using namespace io_detail;

// 4 MiB: large reads for the disk and zlib, small beside any block worth a GPU.
constexpr std::size_t default_chunk = std::size_t{4} << 20;
std::atomic<std::size_t> chunk_setting{0};
thread_local detail::read_rows_trace trace;

// Input bytes held by one buffer, counted into the trace's peak while it lives.
class held_bytes {
 public:
  held_bytes() = default;
  held_bytes(const held_bytes&) = delete;
  held_bytes& operator=(const held_bytes&) = delete;
  ~held_bytes() { set(0); }
  void set(std::size_t n) {
    now() += n;
    now() -= n_;
    n_ = n;
    trace.peak_input = std::max(trace.peak_input, now());
  }

 private:
  static std::size_t& now() {
    thread_local std::size_t total = 0;
    return total;
  }
  std::size_t n_ = 0;
};

// A growable byte array that counts itself as held input.
class input_buffer {
 public:
  char* data() { return bytes_.data(); }
  std::size_t capacity() const { return bytes_.size(); }
  void grow(std::size_t n) {
    if (n <= bytes_.size()) return;
    bytes_.resize(n);
    held_.set(n);
  }
  void release() {
    std::vector<char>().swap(bytes_);
    held_.set(0);
  }

 private:
  std::vector<char> bytes_;
  held_bytes held_;
};

// The input's decompressed bytes, read forward; a plain regular file is also read at any offset
// (pread). "-" is standard input.
class input_stream {
 public:
  input_stream(const std::string& file, const std::string& path, progress_meter& progress)
      : path_(path), progress_(progress) {
    if (file != "-") {
      fd_ = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd_ < 0) fail(error_code::io, path, std::string("cannot open: ") + std::strerror(errno));
      owned_ = true;
    }
    struct stat st;
    if (::fstat(fd_, &st) != 0) {
      const int e = errno;
      close();
      fail(error_code::io, path, std::string("cannot read: ") + std::strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
      close();
      fail(error_code::io, path, "cannot read: is a directory");
    }
    regular_ = S_ISREG(st.st_mode);
    size_ = regular_ ? static_cast<std::uint64_t>(st.st_size) : 0;
    src_ = std::make_unique<byte_source>(fd_);
    try {
      head_n_ = src_->read_full(head_, 2, path);
      if (head_n_ == 2 && static_cast<unsigned char>(head_[0]) == 0x1f &&
          static_cast<unsigned char>(head_[1]) == 0x8b) {
        gz_ = std::make_unique<gzip_stream>(*src_, head_, head_n_, path, size_);
        head_n_ = 0;
      }
    } catch (...) {
      close();
      throw;
    }
    raw_ = 2;  // the two bytes that tell gzip
    progress_.phase(gz_ ? "decompressing" : "reading", size_);
  }
  input_stream(const input_stream&) = delete;
  input_stream& operator=(const input_stream&) = delete;
  ~input_stream() {
    gz_.reset();
    close();
  }

  bool was_gzip() const { return gz_ != nullptr; }
  // A plain regular file: any byte can be read at its offset, and its size is known.
  bool seekable() const { return regular_ && !gz_; }
  std::uint64_t size() const { return size_; }

  // Fills as much of [out, out + n) as the input has left.
  std::size_t read_full(char* out, std::size_t n) {
    std::size_t done = 0;
    if (head_at_ < head_n_) {  // the bytes read to tell gzip from plain
      const std::size_t k = std::min(n, head_n_ - head_at_);
      std::memcpy(out, head_ + head_at_, k);
      head_at_ += k;
      done = k;
    }
    while (done < n) {
      const std::size_t got =
          gz_ ? gz_->read(out + done, n - done) : src_->read(out + done, n - done, path_);
      if (got == 0) break;
      done += got;
      if (!gz_) raw_ += got;
    }
    trace.bytes_read += done;
    progress_.update(gz_ ? gz_->consumed() : raw_);
    return done;
  }

  // [at, at + n) of a seekable file: as much of it as the file has.
  std::size_t pread_full(std::uint64_t at, char* out, std::size_t n) {
    std::size_t done = 0;
    while (done < n) {
      const ssize_t got = ::pread(fd_, out + done, n - done, static_cast<off_t>(at + done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) fail(error_code::io, path_, std::string("read error: ") + std::strerror(errno));
      if (got == 0) break;
      done += static_cast<std::size_t>(got);
    }
    trace.bytes_read += done;
    raw_ = std::max<std::uint64_t>(raw_, at + done);
    progress_.update(raw_);
    return done;
  }

 private:
  void close() {
    if (owned_ && fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  const std::string& path_;
  progress_meter& progress_;
  int fd_ = 0;
  bool owned_ = false, regular_ = false;
  std::uint64_t size_ = 0, raw_ = 0;
  std::unique_ptr<byte_source> src_;
  std::unique_ptr<gzip_stream> gz_;
  char head_[2] = {};
  std::size_t head_n_ = 0, head_at_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Text: chunks of whole lines

// The bytes of a text body in one buffer of about a chunk: [0, len_) is what the parser has not
// consumed yet (a cut line first) and what came after it. Every byte is checked to be text
// before a line holding it reaches the parser: a whole file's check_text, a chunk at a time.
class text_chunks final : public line_chunks {
 public:
  text_chunks(input_stream& in, const std::string& path, std::size_t chunk)
      : in_(in), path_(path), chunk_(chunk) {}

  // Reads the first bytes, more while they cannot tell the format (nothing but whitespace yet).
  // Only a prefix: a binary file is read again where its block lies.
  graph_format detect() {
    read_more(prefix_bytes);
    graph_format f{};
    while (!detect_format(buf_.data(), len_, eof_, path_, in_.was_gzip(), f)) {
      read_more(std::max(buf_.capacity(), chunk_));
    }
    return f;
  }

  // Checks the whole lines held now; the parser starts at data().
  void start(graph_format f) {
    format_ = f;
    check(0);
  }
  const char* data() { return buf_.data(); }
  std::size_t size() const { return len_; }
  // The bytes read so far, handed over (the binary reader's first bytes).
  input_buffer& buffer() { return buf_; }

  bool refill(const char*& p, const char*& end, std::uint64_t lines) override {
    if (eof_) return false;
    const std::size_t keep = static_cast<std::size_t>(end - p);
    base_ += static_cast<std::uint64_t>(p - buf_.data());
    std::memmove(buf_.data(), p, keep);
    len_ = keep;
    ++trace.refills;
    if (keep) ++trace.carried;
    const std::size_t got = read_more(chunk_);
    check(lines);
    p = buf_.data();
    end = buf_.data() + len_;
    return got > 0;
  }

 private:
  // Appends up to n bytes of input (the buffer grows past a chunk only for a longer line).
  std::size_t read_more(std::size_t n) {
    buf_.grow(len_ + n);
    const std::size_t got = in_.read_full(buf_.data() + len_, n);
    eof_ = got < n;
    len_ += got;
    return got;
  }
  // The text check over the whole lines now held (all of them at the end of the input); bytes
  // after the last line end wait for the chunk that completes their line.
  void check(std::uint64_t lines) {
    std::size_t upto = len_;
    if (!eof_) {
      const char* d = buf_.data();
      upto = 0;
      for (std::size_t i = len_; i > 0; --i) {
        if (d[i - 1] == '\n') {
          upto = i;
          break;
        }
      }
    }
    check_text(buf_.data(), upto, true, path_, format_, base_, lines);
  }

  input_stream& in_;
  const std::string& path_;
  std::size_t chunk_;
  graph_format format_ = graph_format::snap;
  input_buffer buf_;
  std::size_t len_ = 0;
  std::uint64_t base_ = 0;  // the input offset of buf_[0]
  bool eof_ = false;
};

// ---------------------------------------------------------------------------------------------
// Binary: the block's slices

// A binary file read at increasing offsets. Seekable: pread, anywhere. Otherwise one forward
// pass: the bytes between two reads are read and dropped, and a read below the last one's end is
// a bug. A read the file ends before is the size error read_graph gives (`expect`).
class binary_input {
 public:
  binary_input(input_stream& in, input_buffer& head, std::size_t head_len, std::size_t chunk,
               const std::string& path)
      : in_(in), head_(head), head_len_(head_len), chunk_(chunk), path_(path) {
    if (in_.seekable()) head_.release();  // read again where needed
  }

  bool seekable() const { return in_.seekable(); }
  std::uint64_t size() const { return in_.size(); }
  // The size the reads below assume, and the layout as size messages name it.
  void expect(std::uint64_t need, std::string what) {
    need_ = need;
    what_ = std::move(what);
  }

  // [at, at + n) into `out`, all of it.
  void read_exact(std::uint64_t at, char* out, std::size_t n) {
    if (read(at, out, n) < n) ended();
  }

  // As much of [at, at + n) as the file has.
  std::size_t read(std::uint64_t at, char* out, std::size_t n) {
    if (seekable()) return in_.pread_full(at, out, n);
    if (at < pos_) {  // read_binary_rows orders its reads; this says if a change breaks that
      fail(error_code::invalid_value, path_,
           "read_graph_rows: a read at byte " + std::to_string(at) + " of a stream already past " +
               std::to_string(pos_) + " (a bug)");
    }
    while (pos_ < at) {
      scratch_.grow(chunk_);
      const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(at - pos_, chunk_));
      if (take(scratch_.data(), k) < k) return 0;
    }
    return take(out, n);
  }

  // Streams: reads on to the end and returns the file's size; `tail` gets the 16 bytes at
  // tail_at when the file has them all (have_tail).
  std::uint64_t size_at_end(std::uint64_t tail_at, char* tail, bool& have_tail) {
    std::uint64_t filled = 0;
    scratch_.grow(chunk_);
    for (;;) {
      const std::uint64_t from = pos_;
      const std::size_t got = take(scratch_.data(), chunk_);
      // The part of [from, from + got) inside [tail_at, tail_at + 16).
      const std::uint64_t b = std::max(from, tail_at), e = std::min(from + got, tail_at + 16);
      if (b < e) {
        std::memcpy(tail + (b - tail_at), scratch_.data() + (b - from), e - b);
        filled += e - b;
      }
      if (got < chunk_) break;
    }
    scratch_.release();
    have_tail = filled == 16;
    return pos_;
  }

  [[noreturn]] void ended() {
    if (seekable()) {
      fail(error_code::io, path_,
           "the file is shorter than its " + std::to_string(size()) +
               " bytes of a moment ago: it changed while being read");
    }
    fail(error_code::parse, path_, size_mismatch(pos_, need_, what_));  // pos_: the whole size
  }

 private:
  // The next n bytes of the stream: first those read to detect the format, then the input's.
  std::size_t take(char* out, std::size_t n) {
    std::size_t done = 0;
    if (pos_ < head_len_) {
      done = std::min<std::size_t>(n, static_cast<std::size_t>(head_len_ - pos_));
      std::memcpy(out, head_.data() + pos_, done);
      if (pos_ + done == head_len_) head_.release();
    }
    if (done < n) done += in_.read_full(out + done, n - done);
    pos_ += done;
    return done;
  }

  input_stream& in_;
  input_buffer& head_;
  std::uint64_t head_len_;
  std::size_t chunk_;
  const std::string& path_;
  input_buffer scratch_;
  std::uint64_t pos_ = 0;  // streams: bytes read so far
  std::uint64_t need_ = 0;
  std::string what_;
};

// Items of `size` bytes at [base, base + count * size), at increasing indices, through a buffer
// of about one chunk (reading no further than the items: a stream's next read starts after).
class array_reader {
 public:
  array_reader(binary_input& in, std::uint64_t base, std::uint64_t count, std::size_t size,
               std::size_t chunk)
      : in_(in),
        base_(base),
        count_(count),
        size_(size),
        per_(std::max<std::size_t>(1, chunk / size)) {}
  const char* at(std::uint64_t i) {
    if (i < first_ || i >= first_ + have_) fill(i);
    return buf_.data() + (i - first_) * size_;
  }
  std::uint64_t u64(std::uint64_t i) { return load_le<std::uint64_t>(at(i)); }
  std::uint32_t u32(std::uint64_t i) { return load_le<std::uint32_t>(at(i)); }

 private:
  void fill(std::uint64_t i) {
    const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(per_, count_ - i));
    buf_.grow(k * size_);
    in_.read_exact(base_ + i * size_, buf_.data(), k * size_);
    first_ = i;
    have_ = k;
  }
  binary_input& in_;
  std::uint64_t base_, count_;
  std::size_t size_, per_;
  input_buffer buf_;
  std::uint64_t first_ = 0, have_ = 0;
};

// The block of a stored CSR. Checks what it reads as read_graph checks it (row offsets of the
// rows it walks, the last row's end, the columns and weights of the arcs it keeps) with the
// same messages; a plain file's size is checked against the header first, a stream's when its
// end is reached.
template <class W>
csr_rows<W> read_binary_rows(graph_format f, binary_input& in, const std::string& path,
                             row_range rows, const read_options& o, graph_file_info& info,
                             std::size_t chunk) {
  const std::string who = "read_graph_rows: " + path;
  const bool galois = f == graph_format::galois_binary;
  char head[32];
  in.expect(32, binary_header_name(f));
  if (in.seekable() && in.size() < 32)
    fail(error_code::parse, path, size_mismatch(in.size(), 32, binary_header_name(f)));
  in.read_exact(0, head, 32);
  binary_layout l = parse_binary_header(f, head, path);
  in.expect(l.need, l.what);
  if (in.seekable()) {
    char trailer[16];
    const bool has = galois && in.size() == l.need + 16 && in.read(l.need, trailer, 16) == 16;
    check_binary_size(l, in.size(), has ? trailer : nullptr, path);
  }
  const vertex n = static_cast<vertex>(l.n);
  const arc_index m = l.m;
  check_row_range(rows, n, who.c_str());
  info.weighted = l.esize != 0 && !o.unit_weights;
  info.arcs_in_file = m;

  // The rows walked: the block's, or with symmetrize every row (arcs into the block come from
  // anywhere). off(u) is row u's first arc; Galois stores only the row ends, row 0 starts at 0.
  const bool sym = o.build.symmetrize;
  const vertex lo = sym ? 0 : rows.begin, hi = sym ? n : rows.end;
  const vertex first_entry = galois ? std::max<vertex>(lo, 1) : lo;  // off(first_entry) stored
  const auto entry = [&](vertex u) { return galois ? u - 1 : u; };
  const std::uint64_t limit = memory_limit(o);
  const std::uint64_t max_arcs = limit / block_bytes_per_arc<W>();
  arc_index zero = 0;  // the cache's row_offsets[0], checked first as read_graph checks it
  if (!galois && lo > 0) {
    char b[8];
    in.read_exact(l.off_at, b, 8);
    zero = load_le<std::uint64_t>(b);
  }
  // A plain file reads the walked offsets as it goes; a stream must pass them before the
  // columns, so it holds them (the block's, or with symmetrize 8 bytes a vertex).
  const std::uint64_t entries = hi >= first_entry ? hi - first_entry + 1 : 0;
  array_reader offsets(in, l.off_at + 8 * entry(first_entry), entries, 8, chunk);
  std::vector<arc_index> held;
  if (!in.seekable()) {
    if (sym && 8 * (l.n + 1) > limit) {
      fail(error_code::out_of_memory, path,
           "symmetrize reads a stream's " + std::to_string(l.n + 1) +
               " row offsets, more than the limit of " + std::to_string(limit) + " bytes (" +
               limit_hint(o) + ")");
    }
    for (std::uint64_t i = 0; i < entries; ++i) held.push_back(offsets.u64(i));
  }
  const auto off = [&](vertex u) -> arc_index {
    if (galois && u == 0) return 0;
    const std::uint64_t i = u - first_entry;
    return in.seekable() ? offsets.u64(i) : held[i];
  };
  if (!galois && lo == 0) zero = off(0);
  if (zero != 0)
    fail(error_code::parse, path, "row_offsets[0] is " + std::to_string(zero) + ", not 0");
  // The last row's end, checked once the walked rows are.
  arc_index last = 0;
  if (hi < n) {
    char b[8];
    in.read_exact(l.off_at + 8 * entry(n), b, 8);
    last = load_le<std::uint64_t>(b);
  }

  // The walk: each row's offsets checked, its arcs that reach the block kept in file order. A
  // bad column is reported after every walked row's offsets, as read_graph orders its checks.
  arc_list<W> arcs;
  arcs.n = n;
  std::vector<arc_index> index;  // the kept arcs' positions in the file
  std::vector<arc_index> block_offsets;
  if (!sym) {
    block_offsets.reserve(static_cast<std::size_t>(rows.size()) + 1);
    block_offsets.push_back(0);
    const arc_index b = off(lo), e = off(hi);
    if (b <= e && e <= m) {  // else the walk names the row
      if (e - b > max_arcs)
        fail(error_code::out_of_memory, path, block_over_limit(rows, max_arcs, limit, o));
      arcs.src.reserve(e - b);
      arcs.dst.reserve(e - b);
      index.reserve(e - b);
    }
  }
  array_reader columns(in, l.col_at + 4 * (lo < hi ? off(lo) : 0),
                       lo < hi ? m - std::min(off(lo), m) : 0, 4, chunk);
  const arc_index col_first = lo < hi ? off(lo) : 0;
  bool bad_column = false;
  arc_index bad_k = 0;
  vertex bad_v = 0;
  const auto in_block = [&](vertex x) { return x - rows.begin < rows.size(); };
  arc_index start = lo < hi ? off(lo) : 0;
  for (vertex u = lo; u < hi; ++u) {
    const arc_index end = off(u + 1);
    if (end < start || end > m) {
      fail(error_code::parse, path,
           "row of vertex " + std::to_string(u) + " ends at arc " + std::to_string(end) +
               ", outside [" + std::to_string(start) + ", " + std::to_string(m) + "]");
    }
    for (arc_index k = start; k < end; ++k) {
      const vertex v = columns.u32(k - col_first);
      if (v >= n) {
        if (!bad_column) bad_k = k, bad_v = v;
        bad_column = true;
        continue;
      }
      if (sym && !in_block(u) && !in_block(v)) continue;
      if (index.size() == max_arcs)
        fail(error_code::out_of_memory, path, block_over_limit(rows, max_arcs, limit, o));
      arcs.src.push_back(u);
      arcs.dst.push_back(v);
      index.push_back(k);
    }
    if (!sym) block_offsets.push_back(index.size());
    start = end;
  }
  if (hi == n) last = off(n);
  if (last != m) {
    fail(error_code::parse, path,
         "the last row ends at arc " + std::to_string(last) + " but the header announces " +
             std::to_string(m) + " arcs");
  }
  if (bad_column) {
    fail(error_code::invalid_index, path,
         "arc " + std::to_string(bad_k) + ": destination " + std::to_string(bad_v) +
             " is out of range 0.." + std::to_string(n - 1));
  }

  // The kept arcs' stored weights, converted once the type is known (a stream's Galois trailer
  // comes last).
  std::vector<char> raw;
  const bool stored = l.esize != 0 && !o.unit_weights;
  if (stored) {
    array_reader weights(in, l.w_at + l.esize * (index.empty() ? 0 : index.front()),
                         index.empty() ? 0 : index.back() - index.front() + 1,
                         static_cast<std::size_t>(l.esize), chunk);
    raw.resize(index.size() * l.esize);
    for (std::size_t i = 0; i < index.size(); ++i)
      std::memcpy(raw.data() + i * l.esize, weights.at(index[i] - index.front()), l.esize);
  }
  if (!in.seekable()) {
    char trailer[16];
    bool has = false;
    const std::uint64_t size = in.size_at_end(l.need, trailer, has);
    check_binary_size(l, size, galois && has ? trailer : nullptr, path);
  }
  arcs.weight.resize(index.size());
  if (stored || o.unit_weights) {
    load_weights_tagged(
        path, l.tag, raw.data(), index.size(), o, arcs.weight.data(), [&](std::size_t i) {
          return "arc " + std::to_string(index[i]) + " (" + std::to_string(arcs.src[i]) + " -> " +
                 std::to_string(arcs.dst[i]) + ")";
        });
  } else {
    for (std::size_t i = 0; i < index.size(); ++i)
      arcs.weight[i] = unweighted_weight<W>(arcs.src[i], arcs.dst[i], o);
  }
  std::vector<arc_index>().swap(index);

  // Rows build_csr would leave as they are come back as stored (read_graph's already_built).
  bool built = !sym;
  for (vertex r = 0; built && r < rows.size(); ++r) {
    for (arc_index k = block_offsets[r]; k < block_offsets[r + 1]; ++k) {
      if ((k > block_offsets[r] && arcs.dst[k - 1] >= arcs.dst[k]) ||
          (o.build.drop_self_loops && arcs.dst[k] == arcs.src[k])) {
        built = false;
        break;
      }
    }
  }
  if (built) {
    csr_rows<W> out;
    out.n = n;
    out.rows = rows;
    out.row_offsets = std::move(block_offsets);
    out.columns = std::move(arcs.dst);
    out.weights = std::move(arcs.weight);
    return out;
  }
  try {
    return build_csr_rows(arcs, rows, o.build);
  } catch (const error& e) {
    throw error(e.code(), path + ": " + e.what());
  }
}

}  // namespace

namespace detail {

void set_read_rows_chunk_bytes(std::size_t bytes) noexcept {
  chunk_setting.store(bytes, std::memory_order_relaxed);
}

read_rows_trace last_read_rows_trace() noexcept {
  return trace;
}

}  // namespace detail

template <class W>
csr_rows<W> read_graph_rows(const std::string& path, row_range rows, const read_options& opts,
                            graph_file_info* info) {
  static_assert(is_weight_type_v<W>, "read_graph_rows: unsupported weight type");
  const std::string name = input_name(path);
  const std::string who = "read_graph_rows: " + name;
  if (rows.begin > rows.end) check_row_range(rows, rows.begin, who.c_str());
  graph_file_info local;
  graph_file_info& inf = info ? *info : local;
  inf = graph_file_info{};
  const std::size_t set = chunk_setting.load(std::memory_order_relaxed);
  const std::size_t chunk = set ? set : default_chunk;
  trace = detail::read_rows_trace{};
  trace.chunk_bytes = chunk;
  arc_list<W> arcs;
  {
    progress_meter progress(opts.progress, name);
    input_stream in(path, name, progress);
    text_chunks text(in, name, chunk);
    const graph_format f = text.detect();
    inf.format = f;
    if (is_binary_format(f)) {
      binary_input bin(in, text.buffer(), text.size(), chunk, name);
      csr_rows<W> out = read_binary_rows<W>(f, bin, name, rows, opts, inf, chunk);
      progress.done();
      return out;
    }
    text.start(f);
    arcs =
        parse_text_rows<W>(f, text.data(), text.data() + text.size(), text, name, rows, opts, inf);
    progress.done();
  }  // the input's chunk is freed before the block is built
  check_row_range(rows, arcs.n, who.c_str());  // n is known only now
  try {
    return build_csr_rows(arcs, rows, opts.build);
  } catch (const error& e) {
    throw error(e.code(), name + ": " + e.what());
  }
}

#define TROPIC_INSTANTIATE_ROWS(W)                                                            \
  template csr_rows<W> read_graph_rows<W>(const std::string&, row_range, const read_options&, \
                                          graph_file_info*);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE_ROWS)
#undef TROPIC_INSTANTIATE_ROWS

}  // namespace tropic
