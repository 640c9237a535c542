// read_graph_rows: the blocks of a file read in parts, concatenated, are exactly read_graph's CSR,
// for every format (text plain and gzipped, binary by offset, through gzip and through a FIFO),
// every duplicate and self-loop rule, symmetric storage and symmetrize; bodies many chunks long
// (the chunk shrunk through the test hook), with read_graph's exact errors and a bound on the
// input held; and build_csr_rows against build_csr on random arc lists.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/detail/read_rows_hooks.hpp"
#include "tropic/error.hpp"
#include "tropic/io.hpp"
#include "tropic/partition.hpp"

namespace fs = std::filesystem;
using namespace tropic;

namespace {

struct rows_temp_dir {
  fs::path dir;
  rows_temp_dir() {
    static int counter = 0;
    dir = fs::temp_directory_path() /
          ("tropic_test_rows_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(dir);
  }
  ~rows_temp_dir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string file(const std::string& name, const std::string& bytes) const {
    const std::string p = (dir / name).string();
    std::ofstream out(p, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }
  std::string gz(const std::string& name, const std::string& bytes) const {
    const std::string p = (dir / name).string();
    gzFile z = gzopen(p.c_str(), "wb6");
    REQUIRE(z != nullptr);
    REQUIRE(gzwrite(z, bytes.data(), static_cast<unsigned>(bytes.size())) ==
            static_cast<int>(bytes.size()));
    REQUIRE(gzclose(z) == Z_OK);
    return p;
  }
};

// The blocks of `ranges`, each from `block(range)`, glued into one CSR.
template <class W, class Block>
csr<W> glue(vertex n, const std::vector<row_range>& ranges, Block block) {
  csr<W> g;
  g.n = n;
  g.row_offsets.push_back(0);
  for (const row_range& r : ranges) {
    const csr_rows<W> b = block(r);
    REQUIRE(b.n == n);
    REQUIRE(b.rows.begin == r.begin);
    REQUIRE(b.rows.end == r.end);
    REQUIRE(b.row_offsets.size() == static_cast<std::size_t>(r.size()) + 1);
    REQUIRE(b.row_offsets.front() == 0);
    REQUIRE(b.columns.size() == b.row_offsets.back());
    REQUIRE(b.weights.size() == b.columns.size());
    const arc_index base = g.columns.size();
    for (std::size_t k = 1; k < b.row_offsets.size(); ++k)
      g.row_offsets.push_back(base + b.row_offsets[k]);
    g.columns.insert(g.columns.end(), b.columns.begin(), b.columns.end());
    g.weights.insert(g.weights.end(), b.weights.begin(), b.weights.end());
  }
  return g;
}

template <class W>
void check_equal(const csr<W>& got, const csr<W>& want) {
  REQUIRE(got.n == want.n);
  CHECK(got.row_offsets == want.row_offsets);
  CHECK(got.columns == want.columns);
  CHECK(got.weights == want.weights);
}

template <class W>
void check_file_blocks(const std::string& path, const read_options& o) {
  const csr<W> want = read_graph<W>(path, o);
  for (std::size_t parts : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7},
                            static_cast<std::size_t>(want.n) + 3}) {
    CAPTURE(parts);
    check_equal(glue<W>(want.n, partition_vertices(want.n, parts),
                        [&](row_range r) { return read_graph_rows<W>(path, r, o); }),
                want);
  }
}

// A random multigraph with self-loops and parallel arcs of different weights, as arcs.
struct random_arcs {
  vertex n;
  std::vector<std::array<std::uint64_t, 3>> arcs;  // u, v (0-based), weight
};
random_arcs make_arcs(std::uint64_t seed, vertex n, std::size_t m) {
  std::mt19937_64 rng(seed);
  random_arcs a{n, {}};
  for (std::size_t i = 0; i < m; ++i) {
    const vertex u = static_cast<vertex>(rng() % n);
    // A third of the arcs repeat an earlier pair: duplicates with other weights.
    const bool repeat = i > 0 && rng() % 3 == 0;
    const auto& old = a.arcs[repeat ? rng() % a.arcs.size() : 0];
    const vertex uu = repeat ? static_cast<vertex>(old[0]) : u;
    const vertex vv = repeat ? static_cast<vertex>(old[1]) : static_cast<vertex>(rng() % n);
    a.arcs.push_back({uu, vv, 1 + rng() % 50});
  }
  return a;
}

std::string as_mtx(const random_arcs& a, bool symmetric, bool pattern) {
  std::string s = std::string("%%MatrixMarket matrix coordinate ") +
                  (pattern ? "pattern " : "integer ") + (symmetric ? "symmetric" : "general") +
                  "\n% a comment\n" + std::to_string(a.n) + " " + std::to_string(a.n) + " " +
                  std::to_string(a.arcs.size()) + "\n";
  for (const auto& e : a.arcs) {
    // Symmetric storage holds the lower triangle: row >= column.
    const auto r = symmetric ? std::max(e[0], e[1]) : e[0];
    const auto c = symmetric ? std::min(e[0], e[1]) : e[1];
    s += std::to_string(r + 1) + " " + std::to_string(c + 1);
    if (!pattern) s += " " + std::to_string(e[2]);
    s += "\n";
  }
  return s;
}

std::string as_dimacs(const random_arcs& a) {
  std::string s =
      "c random\np sp " + std::to_string(a.n) + " " + std::to_string(a.arcs.size()) + "\n";
  for (const auto& e : a.arcs)
    s += "a " + std::to_string(e[0] + 1) + " " + std::to_string(e[1] + 1) + " " +
         std::to_string(e[2]) + "\n";
  return s;
}

std::string as_snap(const random_arcs& a, bool weighted, bool sparse_ids) {
  std::string s = "# random\n";
  // Sparse ids (x 1000 + 7) exercise compact_ids; n is the largest id + 1 otherwise.
  auto id = [&](std::uint64_t x) { return std::to_string(sparse_ids ? x * 1000 + 7 : x); };
  for (const auto& e : a.arcs) {
    s += id(e[0]) + "\t" + id(e[1]);
    if (weighted) s += "\t" + std::to_string(e[2]);
    s += "\n";
  }
  return s;
}

std::vector<read_options> rule_variants() {
  std::vector<read_options> out;
  for (duplicate_policy d : {duplicate_policy::keep_min, duplicate_policy::keep_max,
                             duplicate_policy::keep_first, duplicate_policy::keep_last}) {
    for (int flags = 0; flags < 4; ++flags) {
      read_options o;
      o.build.duplicates = d;
      o.build.drop_self_loops = flags & 1;
      o.build.symmetrize = flags & 2;
      out.push_back(o);
    }
  }
  return out;
}

// read_graph_rows reads its input `bytes` at a time for one scope (the default again after).
struct chunk_bytes {
  explicit chunk_bytes(std::size_t bytes) { tropic::detail::set_read_rows_chunk_bytes(bytes); }
  ~chunk_bytes() { tropic::detail::set_read_rows_chunk_bytes(0); }
  chunk_bytes(const chunk_bytes&) = delete;
  chunk_bytes& operator=(const chunk_bytes&) = delete;
};

// Every read starts with the 64 KiB that tell the format.
constexpr std::size_t first_read = 64 << 10;

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const error& e) {
    return e.what();
  }
  return "(no exception)";
}

std::string le64(std::uint64_t x) {
  return std::string(reinterpret_cast<const char*>(&x), 8);
}
std::string le32(std::uint32_t x) {
  return std::string(reinterpret_cast<const char*>(&x), 4);
}

// A binary image of `a` as stored, not as build_csr would make it: each row holds its arcs in
// input order (unsorted, self-loops and parallel arcs kept), uint32 weights. The tropic cache, or
// Galois .gr with edge data size `esize` (4, or 0: unweighted).
std::string raw_image(const random_arcs& a, bool galois, std::uint64_t esize = 4) {
  std::vector<std::vector<std::array<std::uint64_t, 2>>> rows(a.n);
  for (const auto& e : a.arcs) rows[e[0]].push_back({e[1], e[2]});
  const std::uint64_t n = a.n, m = a.arcs.size();
  std::string s = galois ? le64(1) + le64(esize) + le64(n) + le64(m)
                         : std::string("TROPICG1") + le32(0) + le32(0) + le64(n) + le64(m);
  std::uint64_t end = 0;
  if (!galois) s += le64(0);
  for (const auto& r : rows) s += le64(end += r.size());
  for (const auto& r : rows)
    for (const auto& x : r) s += le32(static_cast<std::uint32_t>(x[0]));
  if (m % 2) s += le32(0);
  if (!galois || esize == 4)
    for (const auto& r : rows)
      for (const auto& x : r) s += le32(static_cast<std::uint32_t>(x[1]));
  return s;
}

// Gzips `bytes` in memory.
std::string gzip_bytes(const std::string& bytes) {
  uLongf size = compressBound(static_cast<uLong>(bytes.size())) + 64;
  std::string out(size, '\0');
  z_stream z{};
  REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace

TEST_SUITE("read_graph_rows") {
  TEST_CASE_TEMPLATE("blocks of every text format concatenate to read_graph", W, std::uint32_t,
                     std::int64_t, double) {
    rows_temp_dir t;
    for (std::uint64_t seed : {1ULL, 2ULL}) {
      const random_arcs a = make_arcs(seed, seed == 1 ? 9 : 40, seed == 1 ? 30 : 400);
      struct file {
        std::string name, bytes;
      };
      const std::vector<file> files = {
          {"g.mtx", as_mtx(a, false, false)},      {"sym.mtx", as_mtx(a, true, false)},
          {"pat.mtx", as_mtx(a, true, true)},      {"g.gr", as_dimacs(a)},
          {"w.txt", as_snap(a, true, false)},      {"u.txt", as_snap(a, false, false)},
          {"sparse.txt", as_snap(a, false, true)},
      };
      for (const file& f : files) {
        for (bool gz : {false, true}) {
          const std::string path = gz ? t.gz(f.name + ".gz", f.bytes) : t.file(f.name, f.bytes);
          CAPTURE(path);
          for (read_options o : rule_variants()) {
            o.compact_ids = f.name == "sparse.txt";
            CAPTURE(static_cast<int>(o.build.duplicates));
            CAPTURE(o.build.drop_self_loops);
            CAPTURE(o.build.symmetrize);
            check_file_blocks<W>(path, o);
          }
        }
      }
    }
  }

  TEST_CASE("build_csr_rows equals build_csr's rows on random arc lists, every rule") {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const random_arcs r = make_arcs(seed, static_cast<vertex>(5 * seed), 60 * seed);
      arc_list<float> a;
      a.n = r.n;
      for (const auto& e : r.arcs)
        a.push_back(static_cast<vertex>(e[0]), static_cast<vertex>(e[1]), float(e[2]) / 4);
      for (const read_options& o : rule_variants()) {
        CAPTURE(seed);
        CAPTURE(static_cast<int>(o.build.duplicates));
        const csr<float> want = build_csr(a, o.build);
        for (std::size_t parts : {1, 2, 3, 7, 40}) {
          check_equal(glue<float>(a.n, partition_vertices(a.n, parts),
                                  [&](row_range rr) { return build_csr_rows(a, rr, o.build); }),
                      want);
        }
      }
    }
  }

  TEST_CASE("duplicate_policy::error: a block holding parallel arcs fails, naming them") {
    rows_temp_dir t;
    const std::string path = t.file("dup.gr", "p sp 4 3\na 1 2 5\na 3 4 1\na 1 2 7\n");
    read_options o;
    o.build.duplicates = duplicate_policy::error;
    CHECK_THROWS_WITH_AS(read_graph_rows<std::uint32_t>(path, {0, 2}, o),
                         doctest::Contains("parallel arcs 0 -> 1"), error);
    // Rows 2..3 hold no parallel arcs: that block reads.
    const auto b = read_graph_rows<std::uint32_t>(path, {2, 4}, o);
    CHECK(b.columns == std::vector<vertex>{3});
  }

  TEST_CASE("bad ranges are clear errors naming the file") {
    rows_temp_dir t;
    const std::string path = t.file("small.gr", "p sp 4 2\na 1 2 5\na 3 4 1\n");
    CHECK_THROWS_WITH_AS(read_graph_rows<float>(path, {3, 1}), doctest::Contains("first > last"),
                         error);
    const std::string past =
        "read_graph_rows: " + path + ": row range [2, 5) ends past the graph's 4 rows";
    CHECK_THROWS_WITH_AS(read_graph_rows<float>(path, {2, 5}), doctest::Contains(past.c_str()),
                         error);
    CHECK_THROWS_WITH_AS(read_graph_rows<float>(path, {2, 5}), doctest::Contains("small.gr"),
                         error);
    CHECK_THROWS_AS(read_graph_rows<float>(t.file("bad.gr", "p sp 2 1\na 1 3 5\n"), {0, 1}), error);
  }

  TEST_CASE("binary cache blocks concatenate to read_graph") {
    rows_temp_dir t;
    const random_arcs r = make_arcs(9, 30, 200);
    const std::string text = t.file("g.gr", as_dimacs(r));
    const csr<double> g = read_graph<double>(text);
    const std::string bin = (t.dir / "g.bin").string();
    write_binary_cache(g, bin);
    check_file_blocks<double>(bin, {});
  }

  TEST_CASE("text bodies many chunks long: blocks equal read_graph, cut lines carried") {
    rows_temp_dir t;
    const random_arcs a = make_arcs(11, 3000, 25000);
    struct file {
      std::string name, bytes;
    };
    const std::vector<file> files = {{"g.mtx", as_mtx(a, false, false)},
                                     {"sym.mtx", as_mtx(a, true, false)},
                                     {"g.gr", as_dimacs(a)},
                                     {"w.txt", as_snap(a, true, false)}};
    std::vector<read_options> variants(2);
    variants[1].build.symmetrize = true;
    variants[1].build.drop_self_loops = true;
    variants[1].build.duplicates = duplicate_policy::keep_last;
    for (std::size_t chunk : {std::size_t{1000}, std::size_t{4093}}) {
      chunk_bytes c(chunk);
      for (const file& f : files) {
        REQUIRE(f.bytes.size() > 4 * first_read);
        for (bool gz : {false, true}) {
          const std::string path = gz ? t.gz(f.name + ".gz", f.bytes) : t.file(f.name, f.bytes);
          CAPTURE(path);
          CAPTURE(chunk);
          for (const read_options& o : variants) {
            const csr<std::uint32_t> want = read_graph<std::uint32_t>(path, o);
            for (std::size_t parts : {1, 3, 8}) {
              check_equal(glue<std::uint32_t>(want.n, partition_vertices(want.n, parts),
                                              [&](row_range r) {
                                                return read_graph_rows<std::uint32_t>(path, r, o);
                                              }),
                          want);
              // The last block's read: the whole body once, through one buffer of the first
              // read's size, in chunks whose ends mostly cut a line (lines of ~15 bytes).
              const auto tr = tropic::detail::last_read_rows_trace();
              CHECK(tr.chunk_bytes == chunk);
              CHECK(tr.bytes_read == f.bytes.size());
              CHECK(tr.refills >= (f.bytes.size() - first_read) / chunk);
              CHECK(tr.carried * 2 > tr.refills);
              CHECK(tr.peak_input <= first_read + chunk);
            }
          }
        }
      }
    }
  }

  TEST_CASE("a line longer than a chunk grows the buffer to hold it, no more") {
    rows_temp_dir t;
    const random_arcs a = make_arcs(12, 500, 20000);
    const std::string comment(150000, 'x');
    // `line` after the 5000th line of `text`.
    auto insert = [](std::string text, const std::string& line) {
      std::size_t at = 0;
      for (int i = 0; i < 5000; ++i) at = text.find('\n', at) + 1;
      return text.insert(at, line + "\n");
    };
    const std::pair<std::string, std::string> files[] = {
        {"long.mtx", insert(as_mtx(a, false, false), "%" + comment)},
        {"long.gr", insert(as_dimacs(a), "c " + comment)},
        {"long.txt", insert(as_snap(a, true, false), "# " + comment)}};
    chunk_bytes c(4096);
    for (const auto& [name, bytes] : files) {
      for (bool gz : {false, true}) {
        const std::string path = gz ? t.gz(name + ".gz", bytes) : t.file(name, bytes);
        CAPTURE(path);
        const csr<std::uint32_t> want = read_graph<std::uint32_t>(path);
        check_equal(glue<std::uint32_t>(
                        want.n, partition_vertices(want.n, 3),
                        [&](row_range r) { return read_graph_rows<std::uint32_t>(path, r); }),
                    want);
        const auto tr = tropic::detail::last_read_rows_trace();
        CHECK(tr.peak_input >= comment.size());
        CHECK(tr.peak_input <= comment.size() + first_read + 2 * 4096);
      }
    }
  }

  TEST_CASE("errors on late lines: read_graph's message and line number, whatever the chunk") {
    rows_temp_dir t;
    const random_arcs a = make_arcs(13, 400, 20000);
    const std::string mtx = as_mtx(a, false, false), gr = as_dimacs(a),
                      snap = as_snap(a, true, false);
    // `text` with its line `line` (1-based) replaced by `with`; where the line starts.
    auto replace = [](std::string text, std::uint64_t line, const std::string& with,
                      std::size_t* start = nullptr) {
      std::size_t b = 0;
      for (std::uint64_t i = 1; i < line; ++i) b = text.find('\n', b) + 1;
      const std::size_t e = text.find('\n', b);
      if (start) *start = b;
      return text.replace(b, e - b, with);
    };
    auto lines_of = [](const std::string& text) {
      return static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n'));
    };
    struct damage {
      std::string name, bytes;
      std::uint64_t line;  // 0: the message names a byte offset instead
      std::string expect;
    };
    std::vector<damage> cases = {
        {"x.mtx", replace(mtx, 18000, "5 x 3"), 18000, "invalid column index 'x'"},
        {"range.mtx", replace(mtx, 19990, "5 401 3"), 19990,
         "column index '401' is out of range 1..400"},
        {"w.gr", replace(gr, 15000, "a 1 2 1x"), 15000, "invalid weight '1x'"},
        {"four.txt", replace(snap, 17000, "1 2 3 4"), 17000,
         "expected 'u v' or 'u v w', got 4 columns"},
        {"two.txt", replace(snap, lines_of(snap), "1\t2"), lines_of(snap),
         "line has 2 columns, earlier lines have 3"},
    };
    {  // the last 7 entries cut: the count is checked after the last line
      std::string cut = mtx;
      for (int i = 0; i < 7; ++i) cut.erase(cut.rfind('\n', cut.size() - 2) + 1);
      cases.push_back({"cut.mtx", cut, lines_of(cut),
                       "truncated: the size line announces 20000 entries, the file has 19993"});
      const std::string more = gr + "a 1 2 3\n";
      cases.push_back({"more.gr", more, lines_of(more), "more arcs than the 20000 announced"});
      // A bad last line without a line end: the chunk that ends the input holds it.
      const std::string open = mtx.substr(0, mtx.size() - 1);
      cases.push_back({"open.mtx", replace(open, lines_of(mtx), "3 3 9x"), lines_of(mtx),
                       "invalid weight '9x'"});
      std::size_t start = 0;
      const std::string ctl = replace(mtx, 16000, "5 6 3\x01", &start);
      cases.push_back({"ctl.mtx", ctl, 0,
                       "byte offset " + std::to_string(start + 5) + " (line 16000): byte 0x01"});
    }
    for (const damage& d : cases) {
      for (bool gz : {false, true}) {
        const std::string path = gz ? t.gz(d.name + ".gz", d.bytes) : t.file(d.name, d.bytes);
        CAPTURE(path);
        const std::string want = error_of([&] { read_graph<std::uint32_t>(path); });
        const std::string where =
            d.line ? path + ":" + std::to_string(d.line) + ": " + d.expect : path + ": " + d.expect;
        CHECK(want.find(where) != std::string::npos);
        for (std::size_t chunk : {std::size_t{0}, std::size_t{997}, std::size_t{4096}}) {
          chunk_bytes c(chunk);
          CAPTURE(chunk);
          CHECK(error_of([&] { read_graph_rows<std::uint32_t>(path, {0, 10}); }) == want);
        }
      }
    }
    // Multi-byte UTF-8 in comments, cut by chunk ends, is still text.
    std::string utf8 = mtx;
    for (std::uint64_t line = 19000; line > 5000; line -= 7)
      utf8 = replace(utf8, line, "% na\xc3\xafve caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    utf8 = replace(utf8, 3, "400 400 " + std::to_string(20000 - (19000 - 5000 + 6) / 7));
    const std::string path = t.file("utf8.mtx", utf8);
    chunk_bytes c(997);
    const csr<std::uint32_t> want = read_graph<std::uint32_t>(path);
    check_equal(
        glue<std::uint32_t>(want.n, partition_vertices(want.n, 2),
                            [&](row_range r) { return read_graph_rows<std::uint32_t>(path, r); }),
        want);
  }

  TEST_CASE(
      "binary files: plain ones by offset, gzip and FIFOs in one pass, blocks as read_graph") {
    rows_temp_dir t;
    const random_arcs a = make_arcs(14, 3000, 40001);  // m odd: the columns' padding
    arc_list<double> ad;
    arc_list<std::uint32_t> au;
    ad.n = au.n = a.n;
    for (const auto& e : a.arcs) {
      ad.push_back(static_cast<vertex>(e[0]), static_cast<vertex>(e[1]), double(e[2]) / 4);
      au.push_back(static_cast<vertex>(e[0]), static_cast<vertex>(e[1]),
                   static_cast<std::uint32_t>(e[2]));
    }
    const std::string cache = (t.dir / "d.tgr").string(), trailer = (t.dir / "d.gr").string(),
                      u32 = (t.dir / "u.gr").string();
    write_binary_cache(build_csr(ad), cache);
    write_galois(build_csr(ad), trailer);  // double: the type in a trailer
    write_galois(build_csr(au), u32);
    auto slurp = [](const std::string& p) {
      std::ifstream in(p, std::ios::binary);
      return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    };
    // Stored as the input came (unsorted rows, self-loops, parallel arcs): build_csr_rows' rules.
    const std::vector<std::pair<std::string, std::string>> files = {
        {"d.tgr", slurp(cache)},        {"d.gr", slurp(trailer)},
        {"u.gr", slurp(u32)},           {"raw.tgr", raw_image(a, false)},
        {"raw.gr", raw_image(a, true)}, {"raw0.gr", raw_image(a, true, 0)}};
    std::vector<read_options> variants(3);
    variants[1].build.symmetrize = true;
    variants[2].build.drop_self_loops = true;
    variants[2].build.duplicates = duplicate_policy::keep_first;
    constexpr std::size_t chunk = 4096;
    chunk_bytes c(chunk);
    for (const auto& [name, bytes] : files) {
      for (bool gz : {false, true}) {
        const std::string path = gz ? t.file(name + ".gz", gzip_bytes(bytes)) : t.file(name, bytes);
        CAPTURE(path);
        for (const read_options& o : variants) {
          CAPTURE(o.build.symmetrize);
          const csr<double> want = read_graph<double>(path, o);
          for (std::size_t parts : {1, 4, 9}) {
            check_equal(
                glue<double>(want.n, partition_vertices(want.n, parts),
                             [&](row_range r) { return read_graph_rows<double>(path, r, o); }),
                want);
          }
          // The last block, a ninth of the rows: a plain file gives its slices and the header,
          // a stream passes through whole; either way in pieces of a chunk.
          const auto tr = tropic::detail::last_read_rows_trace();
          if (gz) {
            CHECK(tr.bytes_read == bytes.size());
          } else if (!o.build.symmetrize) {
            CHECK(tr.bytes_read < first_read + bytes.size() / 4);
          }
          CHECK(tr.peak_input <= first_read + 4 * chunk);
        }
      }
      // A FIFO cannot seek: the forward pass, without gzip.
      for (const read_options& o : variants) {
        const std::string path = t.file(name, bytes), fifo = (t.dir / "fifo").string();
        const row_range r{1000, 2000};
        const csr_rows<double> want = read_graph_rows<double>(path, r, o);
        REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
        std::thread writer([&] {
          std::ofstream out(fifo, std::ios::binary);
          out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        });
        csr_rows<double> got;
        const std::string msg = error_of([&] { got = read_graph_rows<double>(fifo, r, o); });
        writer.join();
        std::filesystem::remove(fifo);
        CHECK(msg == "(no exception)");
        CHECK(got.row_offsets == want.row_offsets);
        CHECK(got.columns == want.columns);
        CHECK(got.weights == want.weights);
        CHECK(tropic::detail::last_read_rows_trace().bytes_read == bytes.size());
      }
    }
    // A plain file's size is checked against its header before anything past the header is
    // read: a cut file fails with read_graph's message, having read the detection's first bytes
    // and the header again (pread).
    const std::string cut = t.file("cut.tgr", slurp(cache).substr(0, 300000));
    const std::string want = error_of([&] { read_graph<double>(cut); });
    CHECK(want.find("truncated: a tropic cache header") != std::string::npos);
    CHECK(error_of([&] { read_graph_rows<double>(cut, {0, 1}); }) == want);
    CHECK(tropic::detail::last_read_rows_trace().bytes_read == first_read + 32);
  }

  TEST_CASE("damaged binary files: read_graph's messages from blocks, plain, gzipped, any chunk") {
    rows_temp_dir t;
    const random_arcs a = make_arcs(15, 40, 301);
    arc_list<double> ad;
    ad.n = a.n;
    for (const auto& e : a.arcs)
      ad.push_back(static_cast<vertex>(e[0]), static_cast<vertex>(e[1]), double(e[2]) / 4);
    const csr<double> g = build_csr(ad);
    const std::uint64_t n = g.n, m = g.arcs();
    REQUIRE(m % 2 == 1);
    write_binary_cache(g, (t.dir / "c").string());
    write_galois(g, (t.dir / "g").string());
    auto slurp = [](const std::string& p) {
      std::ifstream in(p, std::ios::binary);
      return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    };
    const std::string c = slurp((t.dir / "c").string()), gl = slurp((t.dir / "g").string());
    const std::size_t c_col = 32 + 8 * (n + 1), c_w = c_col + 4 * m + 4;
    const std::size_t g_col = 32 + 8 * n, g_w = g_col + 4 * m + 4;
    auto poke32 = [](std::string s, std::size_t at, std::uint32_t v) {
      std::memcpy(&s[at], &v, 4);
      return s;
    };
    auto poke64 = [](std::string s, std::size_t at, std::uint64_t v) {
      std::memcpy(&s[at], &v, 8);
      return s;
    };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::uint64_t nan_bits;
    std::memcpy(&nan_bits, &nan, 8);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"c_head", c.substr(0, 20)},
        {"c_offsets", c.substr(0, 32 + 8 * 5)},
        {"c_columns", c.substr(0, c_col + 10)},
        {"c_weights", c.substr(0, c_w + 12)},
        {"c_last_byte", c.substr(0, c.size() - 1)},
        {"c_long", c + std::string(8, '\0')},
        {"c_zero", poke64(c, 32, 1)},
        {"c_row", poke64(c, 32 + 8 * 4, m + 1)},
        {"c_last", poke64(c, 32 + 8 * n, m - 1)},
        {"c_dest", poke32(c, c_col + 4 * 7, static_cast<std::uint32_t>(n + 5))},
        {"c_nan", poke64(c, c_w + 8 * 9, nan_bits)},
        {"g_head", gl.substr(0, 20)},
        {"g_columns", gl.substr(0, g_col + 6)},
        {"g_trailer", gl.substr(0, gl.size() - 3)},
        {"g_tag", poke32(gl, gl.size() - 8, 9)},
        {"g_version", poke64(gl, 0, 2)},
        {"g_row", poke64(gl, 32 + 8 * 2, 3)},
        {"g_dest", poke32(gl, g_col + 4 * 3, static_cast<std::uint32_t>(n))},
        {"g_weight", poke64(gl, g_w + 8 * 5, nan_bits)},
    };
    for (const auto& [name, bytes] : cases) {
      for (bool gz : {false, true}) {
        const std::string path = gz ? t.file(name + ".gz", gzip_bytes(bytes)) : t.file(name, bytes);
        CAPTURE(path);
        const std::string want = error_of([&] { read_graph<double>(path); });
        CHECK(want.find(path + ": ") == 0);
        for (std::size_t chunk : {std::size_t{0}, std::size_t{64}}) {
          chunk_bytes cb(chunk);
          CAPTURE(chunk);
          CHECK(error_of([&] {
                  read_graph_rows<double>(path, {0, static_cast<vertex>(n)});
                }) == want);
        }
      }
    }
    // Weights converted to another type name their arc as read_graph does.
    const std::string d = t.file("d.tgr", c);
    const std::string want = error_of([&] { read_graph<std::uint32_t>(d); });
    CHECK(want.find("is not an integer") != std::string::npos);
    CHECK(error_of([&] {
            read_graph_rows<std::uint32_t>(d, {0, static_cast<vertex>(n)});
          }) == want);
    // And a range past n, known from the header.
    CHECK(error_of([&] {
            read_graph_rows<double>(d, {2, static_cast<vertex>(n + 1)});
          }) == "read_graph_rows: " + d + ": row range [2, " + std::to_string(n + 1) +
                    ") ends past the graph's " + std::to_string(n) + " rows");
  }

  TEST_CASE("a block's arcs stop at read_options.memory_limit, text and binary, naming the rows") {
    rows_temp_dir t;
    const random_arcs a = make_arcs(16, 100, 5000);
    read_options o;
    o.memory_limit = 40000;  // the header's 100 vertices fit; 5000 arcs do not, 500 do
    for (const std::string& path :
         {t.file("g.gr", as_dimacs(a)), t.file("g.tgr", raw_image(a, false))}) {
      CAPTURE(path);
      error_code code{};
      try {
        read_graph_rows<std::uint32_t>(path, {0, 100}, o);
      } catch (const error& e) {
        code = e.code();
        CHECK(std::string(e.what()).find("rows [0, 100) hold more than") != std::string::npos);
      }
      CHECK(code == error_code::out_of_memory);
      const csr_rows<std::uint32_t> b = read_graph_rows<std::uint32_t>(path, {0, 10}, o);
      const csr_rows<std::uint32_t> unbounded = read_graph_rows<std::uint32_t>(path, {0, 10});
      CHECK(b.arcs() > 300);
      CHECK(b.columns == unbounded.columns);
      CHECK(b.weights == unbounded.weights);
    }
  }

  TEST_CASE(
      "the shared real graphs in blocks: DIMACS, symmetric Matrix Market, SNAP, all gzipped") {
    const std::pair<const char*, std::vector<std::size_t>> graphs[] = {
        {"USA-road-d.NY.gr.gz", {3, 7}}, {"mdual.mtx.gz", {3}}, {"cnr-2000.el.gz", {2}}};
    for (const auto& [name, part_counts] : graphs) {
      CAPTURE(std::string(name));
      std::string path;
      for (const char* dir : {TROPIC_SHARED_DATA, TROPIC_LOCAL_DATA}) {
        const fs::path p = fs::path(dir) / name;
        if (path.empty() && fs::exists(p)) path = p.string();
      }
      if (path.empty()) {
        MESSAGE("skipping ", std::string(name),
                ": not in " TROPIC_SHARED_DATA " nor " TROPIC_LOCAL_DATA);
        continue;
      }
      const csr<std::uint32_t> want = read_graph<std::uint32_t>(path);
      for (std::size_t parts : part_counts) {
        check_equal(glue<std::uint32_t>(
                        want.n, partition_vertices(want.n, parts),
                        [&](row_range r) { return read_graph_rows<std::uint32_t>(path, r); }),
                    want);
      }
    }
  }
}
