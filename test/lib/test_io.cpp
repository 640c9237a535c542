// Graph readers and writers: small inline files in a temporary directory, a table of mangled
// inputs with the error each must produce, round trips through every writer, gzip input,
// content-based detection, and the four real graphs in shared/data.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/error.hpp"
#include "tropic/io.hpp"

namespace fs = std::filesystem;

namespace {

using tropic::arc_index;
using tropic::csr;
using tropic::error_code;
using tropic::graph_file_info;
using tropic::graph_format;
using tropic::read_options;
using tropic::vertex;

// A fresh directory per test case, removed afterwards.
struct temp_dir {
  fs::path dir;
  temp_dir() {
    static int counter = 0;
    dir = fs::temp_directory_path() /
          ("tropic_test_io_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(dir);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string file(const std::string& name, const std::string& bytes) const {
    const std::string p = (dir / name).string();
    std::ofstream out(p, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string gzip_file(const std::string& path, const std::string& bytes) {
  gzFile z = gzopen(path.c_str(), "wb6");
  REQUIRE(z != nullptr);
  REQUIRE(gzwrite(z, bytes.data(), static_cast<unsigned>(bytes.size())) ==
          static_cast<int>(bytes.size()));
  REQUIRE(gzclose(z) == Z_OK);
  return path;
}

template <class W>
std::vector<std::pair<vertex, W>> row(const csr<W>& g, vertex u) {
  std::vector<std::pair<vertex, W>> r;
  for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k)
    r.emplace_back(g.columns[k], g.weights[k]);
  return r;
}

template <class F>
std::string error_of(F&& f, error_code* code = nullptr) {
  try {
    f();
  } catch (const tropic::error& e) {
    if (code) *code = e.code();
    return e.what();
  }
  return "(no exception)";
}

template <class W>
void check_same(const csr<W>& a, const csr<W>& b) {
  REQUIRE(a.n == b.n);
  REQUIRE(a.row_offsets == b.row_offsets);
  REQUIRE(a.columns == b.columns);
  for (std::size_t k = 0; k < a.weights.size(); ++k) {
    if (!(a.weights[k] == b.weights[k])) {
      FAIL_CHECK("weight " << k << " differs: " << a.weights[k] << " vs " << b.weights[k]);
      return;
    }
  }
}

std::string shared_file(const char* name) {
  for (const char* dir : {TROPIC_SHARED_DATA, TROPIC_LOCAL_DATA}) {
    const fs::path p = fs::path(dir) / name;
    if (fs::exists(p)) return p.string();
  }
  return {};
}

std::string le64(std::uint64_t x) {
  return std::string(reinterpret_cast<const char*>(&x), 8);
}
std::string le32(std::uint32_t x) {
  return std::string(reinterpret_cast<const char*>(&x), 4);
}

// A Galois .gr v1 image: 3 vertices, arcs 0->1, 0->2, 2->1 (m odd: padded), uint32 weights.
std::string galois_image(std::uint64_t esize = 4) {
  std::string s = le64(1) + le64(esize) + le64(3) + le64(3);
  s += le64(2) + le64(2) + le64(3);
  s += le32(1) + le32(2) + le32(1) + le32(0);
  if (esize == 4) s += le32(10) + le32(20) + le32(30);
  return s;
}

}  // namespace

TEST_SUITE("io") {
  TEST_CASE("Matrix Market: general, symmetric, pattern, comments and CRLF") {
    temp_dir t;
    const auto g =
        tropic::read_graph<double>(t.file("a.mtx",
                                          "%%MatrixMarket matrix coordinate real general\n"
                                          "% a comment\n"
                                          "\n"
                                          "4 4 5\n"
                                          "1 2 0.5\n"
                                          "2 3 1.25\r\n"
                                          "4 1 3e2\n"
                                          "   1   4   7  \n"
                                          "1 2 0.25"));  // a parallel arc, no final newline
    CHECK(g.n == 4);
    CHECK(g.arcs() == 4);
    CHECK(row(g, 0) == std::vector<std::pair<vertex, double>>{{1, 0.25}, {3, 7}});
    CHECK(row(g, 1) == std::vector<std::pair<vertex, double>>{{2, 1.25}});
    CHECK(row(g, 3) == std::vector<std::pair<vertex, double>>{{0, 300}});

    graph_file_info info;
    const auto s = tropic::read_graph<std::uint32_t>(
        t.file("s.mtx",
               "%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n2 1 4\n3 2 5\n3 3 9\n"),
        {}, &info);
    CHECK(info.format == graph_format::matrix_market);
    CHECK(info.symmetric_storage);
    CHECK(info.weighted);
    CHECK(info.arcs_in_file == 3);
    CHECK(s.arcs() == 4);  // the diagonal entry is a self-loop: dropped
    CHECK(row(s, 0) == std::vector<std::pair<vertex, std::uint32_t>>{{1, 4}});
    CHECK(row(s, 1) == std::vector<std::pair<vertex, std::uint32_t>>{{0, 4}, {2, 5}});
    CHECK(row(s, 2) == std::vector<std::pair<vertex, std::uint32_t>>{{1, 5}});

    const std::string pattern =
        "%%MatrixMarket matrix coordinate pattern symmetric\n5 5 3\n2 1\n5 3\n4 2\n";
    const auto p = tropic::read_graph<std::uint32_t>(t.file("p.mtx", pattern), {}, &info);
    CHECK_FALSE(info.weighted);
    CHECK(p.arcs() == 6);
    CHECK(tropic::compute_stats(p).symmetric);
    CHECK(row(p, 0) ==
          std::vector<std::pair<vertex, std::uint32_t>>{{1, tropic::edge_weight(0, 1, 0)}});
    read_options unit;
    unit.unit_weights = true;
    const auto pu = tropic::read_graph<float>(t.path("p.mtx"), unit);
    CHECK(std::all_of(pu.weights.begin(), pu.weights.end(), [](float w) { return w == 1.0f; }));
    read_options seeded;
    seeded.weight_seed = 12345;
    const auto ps = tropic::read_graph<std::uint32_t>(t.path("p.mtx"), seeded);
    CHECK(row(ps, 4) ==
          std::vector<std::pair<vertex, std::uint32_t>>{{2, tropic::edge_weight(4, 2, 12345)}});
  }

  TEST_CASE("DIMACS .gr text") {
    temp_dir t;
    graph_file_info info;
    const auto g =
        tropic::read_graph<std::uint32_t>(t.file("ny.gr",
                                                 "c a comment\nc\np sp 4 5\nc more comments\na 1 2 "
                                                 "10\na 2 3 20\n\na 3 1 5\na 1 2 7\na 4 4 1\n"),
                                          {}, &info);
    CHECK(info.format == graph_format::dimacs);
    CHECK(info.arcs_in_file == 5);
    CHECK(info.weighted);
    CHECK(g.n == 4);
    CHECK(g.arcs() == 3);
    CHECK(row(g, 0) == std::vector<std::pair<vertex, std::uint32_t>>{{1, 7}});
    CHECK(row(g, 2) == std::vector<std::pair<vertex, std::uint32_t>>{{0, 5}});
    const auto arcs = tropic::read_arcs<std::uint32_t>(t.path("ny.gr"));
    CHECK(arcs.size() == 5);  // read_arcs keeps parallel arcs and self-loops
    CHECK(arcs.src[4] == 3);
    CHECK(arcs.dst[4] == 3);
  }

  TEST_CASE("SNAP edge lists: weighted, unweighted, Nodes header, compact ids") {
    temp_dir t;
    graph_file_info info;
    const auto g = tropic::read_graph<std::uint32_t>(
        t.file("e.txt", "# Directed\n# Nodes: 6 Edges: 3\n0\t1\n1 2\n\n4\t0\n"), {}, &info);
    CHECK(info.format == graph_format::snap);
    CHECK_FALSE(info.weighted);
    CHECK(g.n == 6);  // the header's vertex count wins over max id + 1
    CHECK(g.arcs() == 3);
    CHECK(row(g, 4) ==
          std::vector<std::pair<vertex, std::uint32_t>>{{0, tropic::edge_weight(0, 4, 0)}});

    // Stock SNAP files may be 1-based or skip ids: 'Nodes:' is a lower bound on n, not a limit.
    const auto one_based =
        tropic::read_graph<std::uint32_t>(t.file("b.txt", "# Nodes: 3 Edges: 3\n1 2\n2 3\n3 1\n"));
    CHECK(one_based.n == 4);
    CHECK(one_based.arcs() == 3);

    const auto w = tropic::read_graph<float>(t.file("w.txt", "3 1 0.5\n1 3 1.5\n"), {}, &info);
    CHECK(info.weighted);
    CHECK(w.n == 4);
    CHECK(row(w, 3) == std::vector<std::pair<vertex, float>>{{1, 0.5f}});

    read_options c;
    c.compact_ids = true;
    const auto k = tropic::read_arcs<std::uint64_t>(
        t.file("k.txt", "1000000000000 7\n7 42\n42 1000000000000\n"), c);
    CHECK(k.n == 3);
    CHECK(k.src == std::vector<vertex>{0, 1, 2});
    CHECK(k.dst == std::vector<vertex>{1, 2, 0});
    // The same sparse ids without compact_ids exceed 32 bits: a clear error, not a wrap-around.
    std::string msg = error_of([&] { tropic::read_arcs<std::uint64_t>(t.path("k.txt")); });
    CHECK(msg.find("compact_ids") != std::string::npos);
  }

  TEST_CASE("edge_weight is symmetric, in 1..255, deterministic and seeded") {
    int differ = 0;
    std::vector<int> seen(256, 0);
    for (vertex u = 0; u < 200; ++u) {
      for (vertex v = 0; v < 50; ++v) {
        const auto w = tropic::edge_weight(u, v, 7);
        CHECK(w >= 1);
        CHECK(w <= 255);
        CHECK(w == tropic::edge_weight(v, u, 7));
        seen[w] = 1;
        differ += w != tropic::edge_weight(u, v, 8);
      }
    }
    CHECK(differ > 9000);  // the seed changes almost every weight
    CHECK(std::count(seen.begin(), seen.end(), 1) == 255);
  }

  TEST_CASE("weights: integer files into float, reals into integers, negatives") {
    temp_dir t;
    const std::string ints = t.file("i.gr", "p sp 2 1\na 1 2 16777216\n");
    CHECK(tropic::read_graph<float>(ints).weights[0] == 16777216.0f);
    CHECK(tropic::read_graph<double>(ints).weights[0] == 16777216.0);
    // Integral reals are fine in an integer type; fractional ones name the type.
    const std::string real3 =
        t.file("r.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 3.0\n");
    CHECK(tropic::read_graph<std::int64_t>(real3).weights[0] == 3);
    const std::string frac =
        t.file("f.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 2.5\n");
    error_code code{};
    std::string msg = error_of([&] { tropic::read_graph<std::int32_t>(frac); }, &code);
    CHECK(code == error_code::invalid_value);
    CHECK(msg.find("int32") != std::string::npos);
    CHECK(msg.find("'2.5'") != std::string::npos);
    CHECK(msg.find("f.mtx:3:") != std::string::npos);
    CHECK(tropic::read_graph<float>(frac).weights[0] == 2.5f);

    // Signed types read negative weights by default (issue 34: no extra switch); a caller may
    // still refuse them.
    const std::string neg = t.file("n.txt", "0 1 -4\n1 0 2\n");
    CHECK(row(tropic::read_graph<std::int32_t>(neg), 0) ==
          std::vector<std::pair<vertex, std::int32_t>>{{1, -4}});
    CHECK(tropic::read_graph<double>(neg).weights[0] == -4.0);
    read_options refuse;
    refuse.allow_negative = false;
    msg = error_of([&] { tropic::read_graph<std::int32_t>(neg, refuse); }, &code);
    CHECK(code == error_code::invalid_value);
    CHECK(msg.find("-4' is negative, and read_options.allow_negative is off") != std::string::npos);
    msg = error_of([&] { tropic::read_graph<std::uint32_t>(neg); }, &code);
    CHECK(msg.find("uint32") != std::string::npos);
    CHECK(msg.find("'-4'") != std::string::npos);

    const std::string big = t.file("b.txt", "0 1 4294967296\n");
    msg = error_of([&] { tropic::read_graph<std::uint32_t>(big); });
    CHECK(msg.find("does not fit in uint32") != std::string::npos);
    CHECK(tropic::read_graph<std::uint64_t>(big).weights[0] == 4294967296ull);

    // unit_weights ignores the file's values (but not garbage).
    read_options unit;
    unit.unit_weights = true;
    CHECK(tropic::read_graph<std::uint32_t>(frac, unit).weights[0] == 1);
  }

  TEST_CASE("mangled inputs fail with a message naming the file, the place and the value") {
    struct mangled {
      const char* name;
      std::string content;
      const char* expect;  // substring of the message
      error_code code;
    };
    const std::string mm = "%%MatrixMarket matrix coordinate integer general\n";
    const std::string g = galois_image();
    std::string galois_bad_dest = g;
    galois_bad_dest.replace(32 + 24 + 4, 4, le32(3));
    std::string galois_bad_offsets = g;
    galois_bad_offsets.replace(32, 8, le64(3));
    std::string galois_v2 = g;
    galois_v2.replace(0, 8, le64(2));
    std::string galois_esize = g;
    galois_esize.replace(8, 8, le64(3));
    std::string galois_n_huge = g;
    galois_n_huge.replace(16, 8, le64(std::uint64_t{1} << 40));

    const std::vector<mangled> cases = {
        {"empty.mtx", "", "file is empty", error_code::parse},
        {"blank.txt", "  \n\n \t\n", "only whitespace", error_code::parse},
        {"array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "'array'",
         error_code::parse},
        {"complex.mtx", "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 0\n",
         "complex", error_code::parse},
        {"herm.mtx", "%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n1 2 1\n", "hermitian",
         error_code::parse},
        {"skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 1\n",
         "skew-symmetric", error_code::parse},
        {"vector.mtx", "%%MatrixMarket vector coordinate real general\n2 2 1\n1 2 1\n", "'vector'",
         error_code::parse},
        {"banner.mtx", "%%MatrixMarket matrix coordinate\n2 2 1\n1 2 1\n",
         "incomplete Matrix Market banner", error_code::parse},
        {"typo.mtx", "%%MatrixMarkt matrix coordinate real general\n2 2 1\n1 2 1\n",
         "unknown header", error_code::parse},
        {"nosize.mtx", mm + "% only comments\n", "missing the size line", error_code::parse},
        {"short.mtx", mm + "3 3 4\n1 2 1\n2 3 1\n", "announces 4 entries, the file has 2",
         error_code::parse},
        {"long.mtx", mm + "3 3 1\n1 2 1\n2 3 1\n", "more entries than the 1 announced",
         error_code::parse},
        {"zero.mtx", mm + "3 3 1\n0 2 1\n", "'0' is out of range 1..3 (ids are 1-based)",
         error_code::invalid_index},
        {"big.mtx", mm + "3 3 1\n1 4 1\n", "column index '4' is out of range 1..3",
         error_code::invalid_index},
        {"huge.mtx", mm + "3 3 1\n99999999999999999999999 1 1\n", "out of range",
         error_code::invalid_index},
        {"rect.mtx", mm + "3 4 1\n1 2 1\n", "must be square", error_code::parse},
        {"garbage.mtx", mm + "3 3 2\n1 2 1\n2 x 1\n", "invalid column index 'x'",
         error_code::parse},
        {"trailing.mtx", mm + "3 3 1\n1 2 1 9\n", "unexpected '9'", error_code::parse},
        {"noweight.mtx", mm + "3 3 1\n1 2\n", "missing weight", error_code::parse},
        {"badweight.mtx", mm + "3 3 1\n1 2 1x\n", "invalid weight '1x'", error_code::parse},
        {"nan.txt", "0 1 nan\n", "weight 'nan' is not finite", error_code::invalid_value},
        {"inf.txt", "0 1 inf\n", "weight 'inf' is not finite", error_code::invalid_value},
        {"nvert.mtx", mm + "8589934592 8589934592 0\n", "32-bit vertex limit",
         error_code::invalid_value},
        {"arcfirst.gr", "c x\na 1 2 3\np sp 2 1\n", "arc line before the problem line",
         error_code::parse},
        {"maxflow.gr", "p max 2 1\na 1 2 3\n", "problem type 'max'", error_code::parse},
        {"twop.gr", "p sp 2 1\np sp 2 1\na 1 2 3\n", "second problem line", error_code::parse},
        {"shortgr.gr", "p sp 3 3\na 1 2 3\na 2 3 1\n", "announces 3 arcs, the file has 2",
         error_code::parse},
        {"longgr.gr", "p sp 3 1\na 1 2 3\na 2 3 1\n", "more arcs than the 1 announced",
         error_code::parse},
        {"zerogr.gr", "p sp 3 1\na 0 2 3\n", "arc tail '0' is out of range 1..3",
         error_code::invalid_index},
        {"oddline.gr", "p sp 3 1\ne 1 2\n", "unexpected line starting with 'e'", error_code::parse},
        {"nowgr.gr", "p sp 3 1\na 1 2\n", "missing weight", error_code::parse},
        {"noproblem.gr", "c only comments\nc\n", "no problem line", error_code::parse},
        {"cols.txt", "0 1\n1 2 5\n", "line has 3 columns, earlier lines have 2", error_code::parse},
        {"four.txt", "0 1 2 3\n", "got 4 columns", error_code::parse},
        {"one.txt", "# c\n7\n", "got 1 columns", error_code::parse},
        {"negid.txt", "0 -1\n", "invalid target id '-1'", error_code::parse},
        {"bigid.txt", "0 1\n4294967296 0\n", "source id '4294967296' is out of range",
         error_code::invalid_index},
        {"word.txt", "hello world\n", "unknown format: first line 'hello world'",
         error_code::parse},
        {"binary.bin",
         std::string("\x7f"
                     "ELF\x02\x01\x01\x00\x00\x00",
                     10),
         "unknown format: binary data", error_code::parse},
        {"galois_cut.gr", g.substr(0, g.size() - 5), "truncated", error_code::parse},
        {"galois_hdr.gr", g.substr(0, 20),
         "truncated: the Galois .gr header needs 32 bytes, the file has 20", error_code::parse},
        {"galois_long.gr", g + std::string(8, '\0'), "8 more than", error_code::parse},
        {"galois_v2.gr", galois_v2, "version 2 is not supported", error_code::parse},
        {"galois_es.gr", galois_esize, "edge data size 3", error_code::parse},
        {"galois_dst.gr", galois_bad_dest, "arc 1: destination 3 is out of range 0..2",
         error_code::invalid_index},
        {"galois_off.gr", galois_bad_offsets, "row of vertex 1 ends at arc 2", error_code::parse},
        {"galois_n.gr", galois_n_huge, "more than 32-bit vertex ids allow", error_code::parse},
        {"cache_cut.bin",
         std::string("TROPICG1") + le32(0) + le32(0) + le64(2) + le64(1) + le64(0) + le64(1),
         "truncated", error_code::parse},
        {"cache_tag.bin", std::string("TROPICG1") + le32(9) + le32(0) + le64(0) + le64(0) + le64(0),
         "unknown weight type tag 9", error_code::parse},
    };
    REQUIRE(cases.size() >= 20);
    temp_dir t;
    for (const auto& c : cases) {
      const std::string case_name = c.name;
      CAPTURE(case_name);
      const std::string p = t.file(c.name, c.content);
      error_code code{};
      const std::string msg = error_of([&] { tropic::read_graph<std::uint32_t>(p); }, &code);
      CAPTURE(msg);
      CHECK(msg.find(c.expect) != std::string::npos);
      CHECK(msg.find(c.name) != std::string::npos);
      CHECK(code == c.code);
    }
  }

  TEST_CASE("error messages carry the line number of the bad line") {
    temp_dir t;
    const std::string p = t.file("l.gr", "c 1\nc 2\np sp 3 3\na 1 2 1\na 2 3 1\na 3 9 1\n");
    const std::string msg = error_of([&] { tropic::read_graph<double>(p); });
    CHECK(msg.find("l.gr:6: arc head '9' is out of range 1..3") != std::string::npos);
  }

  TEST_CASE("missing files, directories and unreadable paths") {
    temp_dir t;
    error_code code{};
    std::string msg = error_of([&] { tropic::read_graph<float>(t.path("nope.mtx")); }, &code);
    CHECK(code == error_code::io);
    CHECK(msg.find("nope.mtx") != std::string::npos);
    CHECK(msg.find("No such file") != std::string::npos);
    msg = error_of([&] { tropic::read_graph<float>(t.dir.string()); }, &code);
    CHECK(code == error_code::io);
    CHECK(msg.find("is a directory") != std::string::npos);
    const csr<float> g = tropic::build_csr(tropic::arc_list<float>{});
    msg = error_of([&] { tropic::write_matrix_market(g, t.path("no/such/dir/x.mtx")); }, &code);
    CHECK(code == error_code::io);
    CHECK(msg.find("cannot create") != std::string::npos);
  }

  TEST_CASE("gzip input is read transparently, detected by magic, truncation reported") {
    temp_dir t;
    const std::string text = "p sp 3 2\na 1 2 5\na 2 3 6\n";
    const auto plain = tropic::read_graph<std::uint32_t>(t.file("g.gr", text));
    graph_file_info info;
    check_same(tropic::read_graph<std::uint32_t>(gzip_file(t.path("g.gr.gz"), text), {}, &info),
               plain);
    CHECK(info.format == graph_format::dimacs);
    // No .gz extension: still gzip. A .gz name on a plain file: still plain.
    check_same(tropic::read_graph<std::uint32_t>(gzip_file(t.path("noext"), text)), plain);
    check_same(tropic::read_graph<std::uint32_t>(t.file("fake.gz", text)), plain);

    // A larger stream cut in the middle.
    std::string big = "p sp 1000 200000\n";
    std::mt19937 rng(3);
    for (int i = 0; i < 200000; ++i) {
      big += "a " + std::to_string(rng() % 1000 + 1) + " " + std::to_string(rng() % 1000 + 1) +
             " " + std::to_string(rng() % 100 + 1) + "\n";
    }
    const std::string gz = slurp(gzip_file(t.path("big.gz"), big));
    CHECK(tropic::read_arcs<std::uint32_t>(t.path("big.gz")).size() == 200000);
    const std::string cut = t.file("cut.gz", gz.substr(0, gz.size() / 2));
    error_code code{};
    const std::string msg = error_of([&] { tropic::read_graph<std::uint32_t>(cut); }, &code);
    CHECK(code == error_code::parse);
    CHECK(msg.find("cut.gz") != std::string::npos);
    CHECK(msg.find("gzip") != std::string::npos);
    // A gzip stream holding nothing.
    const std::string empty = gzip_file(t.path("empty.gz"), "");
    CHECK(error_of([&] {
            tropic::read_graph<std::uint32_t>(empty);
          }).find("empty (after decompression)") != std::string::npos);
  }

  TEST_CASE("format detection ignores the file name") {
    temp_dir t;
    const auto want = tropic::read_graph<double>(t.file(
        "ref.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1.5\n3 1 2\n"));
    graph_file_info info;
    check_same(
        tropic::read_graph<double>(t.file("really_mm.gr", slurp(t.path("ref.mtx"))), {}, &info),
        want);
    CHECK(info.format == graph_format::matrix_market);
    check_same(tropic::read_graph<double>(
                   t.file("really_dimacs.mtx", "p sp 3 2\na 1 2 1.5\na 3 1 2\n"), {}, &info),
               want);
    CHECK(info.format == graph_format::dimacs);
    check_same(tropic::read_graph<double>(t.file("really_snap.mtx", "0 1 1.5\n2 0 2\n"), {}, &info),
               want);
    CHECK(info.format == graph_format::snap);
    tropic::write_galois(want, t.path("really_galois.txt"));
    check_same(tropic::read_graph<double>(t.path("really_galois.txt"), {}, &info), want);
    CHECK(info.format == graph_format::galois_binary);
    tropic::write_binary_cache(want, t.path("really_cache.mtx"));
    check_same(tropic::read_graph<double>(t.path("really_cache.mtx"), {}, &info), want);
    CHECK(info.format == graph_format::tropic_binary);
    CHECK(std::string(tropic::format_name(graph_format::galois_binary)) == "Galois binary .gr");
  }

  TEST_CASE("Galois .gr written by other tools: uint32 edge data and unweighted") {
    temp_dir t;
    graph_file_info info;
    const auto g = tropic::read_graph<std::uint32_t>(t.file("w.gr", galois_image(4)), {}, &info);
    CHECK(info.format == graph_format::galois_binary);
    CHECK(info.weighted);
    CHECK(row(g, 0) == std::vector<std::pair<vertex, std::uint32_t>>{{1, 10}, {2, 20}});
    CHECK(row(g, 2) == std::vector<std::pair<vertex, std::uint32_t>>{{1, 30}});
    CHECK(tropic::read_graph<double>(t.path("w.gr")).weights == std::vector<double>{10, 20, 30});
    const auto u = tropic::read_graph<std::uint32_t>(t.file("u.gr", galois_image(0)), {}, &info);
    CHECK_FALSE(info.weighted);
    CHECK(row(u, 2) ==
          std::vector<std::pair<vertex, std::uint32_t>>{{1, tropic::edge_weight(2, 1, 0)}});
    // Binary CSRs that are not canonical (unsorted rows, self-loops) still go through build_csr.
    std::string raw = le64(1) + le64(4) + le64(2) + le64(3) + le64(3) + le64(3);
    raw += le32(1) + le32(0) + le32(1) + le32(0) + le32(9) + le32(8) + le32(7);
    const auto c = tropic::read_graph<std::uint32_t>(t.file("raw.gr", raw));
    CHECK(row(c, 0) == std::vector<std::pair<vertex, std::uint32_t>>{{1, 7}});
    CHECK(c.degree(1) == 0);
  }

  TEST_CASE_TEMPLATE("round trips through every writer are exact", W, std::uint32_t, std::int32_t,
                     std::uint64_t, std::int64_t, float, double) {
    // Odd and even arc counts (Galois and cache padding), isolated trailing vertices, weights
    // that stress each type: negative, beyond 32 bits, non-integral, tiny.
    std::mt19937_64 rng(42);
    for (const int m : {0, 1, 2, 501}) {
      tropic::arc_list<W> a;
      a.n = 40;
      for (int i = 0; i < m; ++i) {
        const vertex u = rng() % 35, v = rng() % 35;
        W w;
        if constexpr (std::is_floating_point_v<W>) {
          w = static_cast<W>(std::ldexp(static_cast<double>(rng() % 100000) + 0.1,
                                        static_cast<int>(rng() % 40) - 20));
          if (rng() % 4 == 0) w = -w;
        } else if constexpr (std::is_signed_v<W>) {
          w = static_cast<W>(static_cast<std::int64_t>(rng() % 2000000000) - 1000000000);
          if constexpr (sizeof(W) == 8) w *= 1000;
        } else {
          w = static_cast<W>(rng());
        }
        a.push_back(u, v, w);
      }
      const csr<W> g = tropic::build_csr(a);
      temp_dir t;
      read_options o;
      o.allow_negative = true;
      CAPTURE(m);
      tropic::write_matrix_market(g, t.path("g.mtx"));
      check_same(tropic::read_graph<W>(t.path("g.mtx"), o), g);
      tropic::write_galois(g, t.path("g.gr"));
      check_same(tropic::read_graph<W>(t.path("g.gr"), o), g);
      tropic::write_binary_cache(g, t.path("g.bin"));
      check_same(tropic::read_graph<W>(t.path("g.bin"), o), g);
      gzip_file(t.path("g.mtx.gz"), slurp(t.path("g.mtx")));
      check_same(tropic::read_graph<W>(t.path("g.mtx.gz"), o), g);
      gzip_file(t.path("g.bin.gz"), slurp(t.path("g.bin")));
      check_same(tropic::read_graph<W>(t.path("g.bin.gz"), o), g);
    }
  }

  TEST_CASE("Galois edge data: uint32 stays plain, other types carry a trailer") {
    temp_dir t;
    tropic::arc_list<std::uint32_t> a;
    a.n = 3;
    a.push_back(0, 1, 10);
    a.push_back(0, 2, 20);
    a.push_back(2, 1, 30);
    const auto g = tropic::build_csr(a);
    tropic::write_galois(g, t.path("u.gr"));
    CHECK(slurp(t.path("u.gr")) == galois_image(4));  // byte for byte what Galois/ADDS expect
    const auto f = tropic::convert_weights<float>(g);
    tropic::write_galois(f, t.path("f.gr"));
    const std::string fs_ = slurp(t.path("f.gr"));
    CHECK(fs_.size() == galois_image(4).size() + 16);
    CHECK(fs_.substr(fs_.size() - 16, 8) == "TROPICWT");
    CHECK(tropic::read_graph<float>(t.path("f.gr")).weights == f.weights);
    // Read into another type: converted with the text rules.
    CHECK(tropic::read_graph<std::uint64_t>(t.path("f.gr")).weights ==
          std::vector<std::uint64_t>{10, 20, 30});
  }

  TEST_CASE("binary cache read into a different weight type converts or names the problem") {
    temp_dir t;
    tropic::arc_list<double> a;
    a.n = 3;
    a.push_back(0, 1, 4.0);
    a.push_back(1, 2, 2.5);
    const auto g = tropic::build_csr(a);
    tropic::write_binary_cache(g, t.path("d.bin"));
    CHECK(tropic::read_graph<float>(t.path("d.bin")).weights == std::vector<float>{4.0f, 2.5f});
    error_code code{};
    const std::string msg =
        error_of([&] { tropic::read_graph<std::uint32_t>(t.path("d.bin")); }, &code);
    CHECK(code == error_code::invalid_value);
    CHECK(msg.find("d.bin: arc 1 (1 -> 2): weight 2.5 is not an integer; uint32") !=
          std::string::npos);
    const auto i = tropic::build_csr(tropic::arc_list<std::int64_t>{3, {0}, {1}, {-7}});
    tropic::write_binary_cache(i, t.path("i.bin"));
    CHECK(tropic::read_graph<std::int64_t>(t.path("i.bin")).weights ==
          std::vector<std::int64_t>{-7});
    read_options refuse;
    refuse.allow_negative = false;
    CHECK(error_of([&] { tropic::read_graph<std::int64_t>(t.path("i.bin"), refuse); })
              .find("negative") != std::string::npos);
    CHECK(tropic::read_graph<double>(t.path("i.bin")).weights == std::vector<double>{-7});
    // Build options still apply to a stored CSR.
    read_options sym;
    sym.build.symmetrize = true;
    const auto s = tropic::read_graph<double>(t.path("d.bin"), sym);
    CHECK(s.arcs() == 4);
    CHECK(tropic::compute_stats(s).symmetric);
    CHECK(tropic::read_arcs<double>(t.path("d.bin")).src == std::vector<vertex>{0, 1});
  }

  TEST_CASE("the test/data/small.mtx fixture matches its documented distances") {
    const std::string p =
        (fs::path(__FILE__).parent_path().parent_path() / "data" / "small.mtx").string();
    graph_file_info info;
    const auto g = tropic::read_graph<double>(p, {}, &info);
    CHECK(info.format == graph_format::matrix_market);
    CHECK(info.weighted);
    REQUIRE(g.n == 10);
    CHECK(g.arcs() == 12);
    // Bellman-Ford from vertex 0: obviously right, and independent of every other algorithm.
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> d(g.n, inf);
    d[0] = 0;
    for (vertex round = 0; round < g.n; ++round) {
      for (vertex u = 0; u < g.n; ++u) {
        for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
          d[g.columns[k]] = std::min(d[g.columns[k]], d[u] + g.weights[k]);
        }
      }
    }
    CHECK(d == std::vector<double>{0, 3, 1, 8, 11, 12, 14, inf, inf, inf});
  }

  TEST_CASE("the shared real graphs: vertex and arc counts from data/README.md") {
    struct expected {
      const char* file;
      graph_format format;
      vertex n;
      arc_index in_file;
      arc_index self_loops;  // from the README where it states them
      arc_index duplicates;  // arcs beyond the first for each (u, v)
      arc_index csr_arcs;
    };
    // NY: 733,846 arcs of which 3,746 are parallel; cnr-2000: 87,442 self-loops; mdual: 513,132
    // undirected entries, 1,026,264 arcs after mirroring. Slashdot's self-loops are not in the
    // README: the expected CSR count is derived independently below.
    const expected graphs[] = {
        {"USA-road-d.NY.gr.gz", graph_format::dimacs, 264346, 733846, 0, 3746, 733846 - 3746},
        {"cnr-2000.el.gz", graph_format::snap, 325557, 3216152, 87442, 0, 3216152 - 87442},
        {"mdual.mtx.gz", graph_format::matrix_market, 258569, 513132, 0, 0, 1026264},
        {"soc-Slashdot0902.txt.gz", graph_format::snap, 82168, 948464, 0, 0, 0},
    };
    for (const auto& e : graphs) {
      const std::string file_name = e.file;
      CAPTURE(file_name);
      const std::string path = shared_file(e.file);
      if (path.empty()) {
        MESSAGE("skipping ", std::string(e.file),
                ": not in " TROPIC_SHARED_DATA " nor " TROPIC_LOCAL_DATA);
        continue;
      }
      graph_file_info info;
      const auto t0 = std::chrono::steady_clock::now();
      const auto g = tropic::read_graph<std::uint32_t>(path, {}, &info);
      const double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      MESSAGE(std::string(e.file), ": read_graph in ", secs, " s");
      CHECK(info.format == e.format);
      CHECK(g.n == e.n);
      CHECK(info.arcs_in_file == e.in_file);

      // Independent count: distinct (u, v) pairs of the raw arc list, self-loops apart.
      const auto arcs = tropic::read_arcs<std::uint32_t>(path);
      std::vector<std::uint64_t> keys;
      keys.reserve(arcs.size());
      arc_index loops = 0;
      for (arc_index i = 0; i < arcs.size(); ++i) {
        if (arcs.src[i] == arcs.dst[i]) {
          ++loops;
        } else {
          keys.push_back(std::uint64_t{arcs.src[i]} << 32 | arcs.dst[i]);
        }
      }
      std::sort(keys.begin(), keys.end());
      const arc_index distinct =
          static_cast<arc_index>(std::unique(keys.begin(), keys.end()) - keys.begin());
      CHECK(g.arcs() == distinct);
      if (e.csr_arcs) {
        CHECK(g.arcs() == e.csr_arcs);
        CHECK(keys.size() - distinct == e.duplicates);
        CHECK(loops == e.self_loops);
      }
      const auto s = tropic::compute_stats(g);
      if (e.format == graph_format::dimacs) {
        CHECK(s.min_weight == 1);  // README: integers 1..36,946
        CHECK(s.max_weight == 36946);
        for (vertex u = 0; u < g.n; ++u) {  // "every arc has its reverse"
          for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
            const vertex v = g.columns[k];
            const auto b = g.columns.begin() + static_cast<std::ptrdiff_t>(g.row_offsets[v]);
            const auto en = g.columns.begin() + static_cast<std::ptrdiff_t>(g.row_offsets[v + 1]);
            if (!std::binary_search(b, en, u)) {
              FAIL_CHECK("no reverse of " << u << " -> " << v);
              u = g.n - 1;
              break;
            }
          }
        }
      }
      if (e.format == graph_format::matrix_market) CHECK(s.symmetric);  // hashed weights agree too
    }
  }

  TEST_CASE("large text bodies (parsed in parallel chunks) match the file and report exact lines") {
    // Bodies over 8 MiB are split across threads; every error must still name its true line.
    temp_dir t;
    const vertex n = 5000;
    const int m = 800000;
    std::mt19937_64 rng(11);
    std::vector<vertex> us(m), vs(m);
    std::vector<std::uint32_t> ws(m);
    std::string dimacs = "c big\np sp " + std::to_string(n) + " " + std::to_string(m) + "\n";
    std::string snap = "# Nodes: " + std::to_string(n) + "\n";
    std::string mm = "%%MatrixMarket matrix coordinate integer general\n% big\n" +
                     std::to_string(n) + " " + std::to_string(n) + " " + std::to_string(m) + "\n";
    for (int i = 0; i < m; ++i) {
      us[i] = static_cast<vertex>(rng() % n);
      vs[i] = static_cast<vertex>(rng() % n);
      ws[i] = static_cast<std::uint32_t>(rng() % 100000 + 1);
      const std::string tail = " " + std::to_string(ws[i]) + "\n";
      dimacs += "a " + std::to_string(us[i] + 1) + " " + std::to_string(vs[i] + 1) + tail;
      snap += std::to_string(us[i]) + "\t" + std::to_string(vs[i]) + tail;
      mm += std::to_string(us[i] + 1) + " " + std::to_string(vs[i] + 1) + tail;
      if (i % 100000 == 7) {  // comments and blank lines scattered through the body
        dimacs += "c note\n\n";
        snap += "# note\n\n";
        mm += "% note\n\n";
      }
    }
    REQUIRE(dimacs.size() > (std::size_t{9} << 20));
    for (const auto& [name, text] : {std::pair<std::string, const std::string*>{"big.gr", &dimacs},
                                     {"big.txt", &snap},
                                     {"big.mtx", &mm}}) {
      CAPTURE(name);
      graph_file_info info;
      const auto a = tropic::read_arcs<std::uint32_t>(t.file(name, *text), {}, &info);
      CHECK(a.n == n);
      CHECK(info.arcs_in_file == static_cast<arc_index>(m));
      CHECK(info.weighted);
      REQUIRE(a.size() == static_cast<arc_index>(m));
      CHECK(a.src == us);
      CHECK(a.dst == vs);
      CHECK(a.weight == ws);
    }
    // Line numbers: 2 header lines, then arc i on line 3 + i (+2 per note before it).
    auto line_of = [](int i, int header) {
      return header + 1 + i + 2 * ((i + 100000 - 8) / 100000);
    };
    const int bad = m - 3;  // in the last chunk
    std::string broken = dimacs;
    const std::string arc =
        "a " + std::to_string(us[bad] + 1) + " " + std::to_string(vs[bad] + 1) + " ";
    const std::size_t at = broken.find(arc + std::to_string(ws[bad]) + "\n");
    REQUIRE(at != std::string::npos);
    broken.replace(at, arc.size() + std::to_string(ws[bad]).size(), arc + "7x");
    std::string msg =
        error_of([&] { tropic::read_graph<std::uint32_t>(t.file("bad.gr", broken)); });
    CHECK(msg.find("bad.gr:" + std::to_string(line_of(bad, 2)) + ": invalid weight '7x'") !=
          std::string::npos);
    // One arc more than announced: the first surplus arc's line is named.
    std::string extra = dimacs;
    extra.replace(extra.find(" " + std::to_string(m) + "\n"), std::to_string(m).size() + 2,
                  " " + std::to_string(m - 1) + "\n");
    msg = error_of([&] { tropic::read_graph<std::uint32_t>(t.file("extra.gr", extra)); });
    CHECK(msg.find("extra.gr:" + std::to_string(line_of(m - 1, 2)) + ": more arcs than the " +
                   std::to_string(m - 1)) != std::string::npos);
    // A column-count change deep in a SNAP body.
    std::string cols = snap + "1 2\n";
    msg = error_of([&] { tropic::read_graph<std::uint32_t>(t.file("cols.txt", cols)); });
    CHECK(msg.find("cols.txt:" + std::to_string(line_of(m, 1)) +
                   ": line has 2 columns, earlier lines have 3") != std::string::npos);
    // Fewer entries than the Matrix Market size line announces.
    std::string short_mm = mm;
    const std::string size_line = " " + std::to_string(m) + "\n";
    short_mm.replace(short_mm.find(size_line), size_line.size(),
                     " " + std::to_string(m + 5) + "\n");
    msg = error_of([&] { tropic::read_graph<std::uint32_t>(t.file("short.mtx", short_mm)); });
    CHECK(msg.find("announces " + std::to_string(m + 5) + " entries, the file has " +
                   std::to_string(m)) != std::string::npos);
  }

  TEST_CASE("progress stays silent for reads shorter than a second") {
    temp_dir t;
    const std::string p = t.file("q.gr", "p sp 2 1\na 1 2 3\n");
    const std::string err = t.path("stderr.txt");
    std::fflush(stderr);
    const int saved = ::dup(2);
    std::FILE* sink = std::fopen(err.c_str(), "w");
    REQUIRE(sink != nullptr);
    ::dup2(::fileno(sink), 2);
    read_options o;
    o.progress = true;
    const auto g = tropic::read_graph<std::uint32_t>(p, o);
    std::fflush(stderr);
    ::dup2(saved, 2);
    ::close(saved);
    std::fclose(sink);
    CHECK(g.arcs() == 1);
    CHECK(slurp(err).empty());
  }

  TEST_CASE("timing: NY road network read (printed, not asserted)") {
    const std::string path = shared_file("USA-road-d.NY.gr.gz");
    if (path.empty()) {
      MESSAGE("skipping: USA-road-d.NY.gr.gz not found");
      return;
    }
    double best = 1e9;
    for (int rep = 0; rep < 3; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto g = tropic::read_graph<std::uint32_t>(path);
      best = std::min(best,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      REQUIRE(g.n == 264346);
    }
    MESSAGE("USA-road-d.NY.gr.gz read_graph<uint32> best of 3: ", best, " s");
  }

  // issue 39's repros: each was a silent wrong answer or an unbounded allocation.
  TEST_CASE("a near-miss of the Matrix Market banner is an error saying what was seen") {
    temp_dir t;
    for (const char* banner : {"%MatrixMarket matrix coordinate real general",
                               "% %MatrixMarket matrix coordinate "
                               "real general",
                               "\xef\xbb\xbf%%MatrixMarket matrix coordinate real general",
                               "%%Matrix Market matrix coordinate real general"}) {
      CAPTURE(banner);
      const std::string f = t.file("g.mtx", std::string(banner) + "\n3 3 2\n1 2 1.5\n2 3 2\n");
      error_code code{};
      const std::string msg = error_of([&] { tropic::read_graph<double>(f); }, &code);
      CHECK(code == error_code::parse);
      CHECK(msg.find("g.mtx") != std::string::npos);
      CHECK(msg.find("MatrixMarket") != std::string::npos);
      CHECK(msg.find("is not one") != std::string::npos);
    }
    // A SNAP list with an ordinary '%' comment still reads.
    const std::string ok = t.file("s.txt", "% a comment\n0 1\n1 2\n");
    CHECK(tropic::read_graph<std::uint32_t>(ok).arcs() == 2);
  }

  TEST_CASE("binary data is never read as SNAP or DIMACS text: file and byte offset named") {
    temp_dir t;
    // 37 bytes in the spirit of the fuzzer's find: '#' then binary, then an id near 2^32.
    const std::string snap = std::string("#\x01\xfe\xff\x00zz\n", 8) + "0 4294967294\n1 2\n";
    const std::string f = t.file("bin.txt", snap);
    const std::string msg = error_of([&] { tropic::read_graph<std::uint32_t>(f); });
    CHECK(msg.find("bin.txt") != std::string::npos);
    CHECK(msg.find("byte offset 1") != std::string::npos);
    CHECK(msg.find("0x01") != std::string::npos);
    const std::string dimacs = t.file("bin.gr", "c ok\nc \x80\x81\np sp 2 1\na 1 2 3\n");
    const std::string m2 = error_of([&] { tropic::read_graph<std::uint32_t>(dimacs); });
    CHECK(m2.find("bin.gr") != std::string::npos);
    CHECK(m2.find("byte offset 7 (line 2)") != std::string::npos);
    // UTF-8 in a comment is text.
    const std::string utf8 =
        t.file("u.gr", "c Dijkstra's graph \xc3\xa9t\xc3\xa9\np sp 2 1\na 1 2 3\n");
    CHECK(tropic::read_graph<std::uint32_t>(utf8).arcs() == 1);
  }

  TEST_CASE("integer weights are never rounded: exact_integers, MM 'integer' beyond 64 bits") {
    temp_dir t;
    const std::string big = t.file("big.mtx",
                                   "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 "
                                   "100000000000000000000000\n");
    for (const bool exact : {false, true}) {
      read_options o;
      o.exact_integers = exact;
      error_code code{};
      const std::string msg = error_of([&] { tropic::read_graph<double>(big, o); }, &code);
      CHECK(code == error_code::invalid_value);
      CHECK(msg.find("big.mtx:3") != std::string::npos);
      CHECK(msg.find("'100000000000000000000000'") != std::string::npos);
      CHECK(msg.find("64 bits") != std::string::npos);
    }
    // 2^53 + 1 is exact as uint64; as double only with exact_integers off, and then rounded.
    const std::string path = t.file("p.gr", "p sp 3 2\na 1 2 9007199254740993\na 2 3 1\n");
    CHECK(tropic::read_graph<std::uint64_t>(path).weights[0] == 9007199254740993ull);
    read_options o;
    o.exact_integers = true;
    const std::string msg = error_of([&] { tropic::read_graph<double>(path, o); });
    CHECK(msg.find("p.gr:2") != std::string::npos);
    CHECK(msg.find("'9007199254740993'") != std::string::npos);
    CHECK(msg.find("cannot hold exactly") != std::string::npos);
    CHECK(tropic::read_graph<double>(t.file("q.gr", "p sp 2 1\na 1 2 9007199254740992\n"), o)
              .weights[0] == 9007199254740992.0);
    o.exact_integers = true;
    CHECK_THROWS(tropic::read_graph<float>(t.file("f.gr", "p sp 2 1\na 1 2 16777217\n"), o));
    CHECK(tropic::read_graph<float>(t.file("f2.gr", "p sp 2 1\na 1 2 16777216\n"), o).weights[0] ==
          16777216.0f);
  }

  TEST_CASE("an integer type's infinity is refused as a weight, not reported as an overflow") {
    temp_dir t;
    const std::string f = t.file("o.gr", "p sp 2 1\na 1 2 4294967295\n");
    const std::string msg = error_of([&] { tropic::read_graph<std::uint32_t>(f); });
    CHECK(msg.find("o.gr:2") != std::string::npos);
    CHECK(msg.find("reserves for infinity") != std::string::npos);
    CHECK(tropic::read_graph<std::uint64_t>(f).weights[0] == 4294967295ull);
  }

  TEST_CASE("announced and implied sizes are checked against the memory limit first") {
    temp_dir t;
    read_options o;
    o.memory_limit = std::uint64_t{1} << 30;
    // A 45-byte-class header announcing 2^32 - 1 vertices: ~100 GB before the first arc.
    const std::string mm =
        t.file("h.mtx",
               "%%MatrixMarket matrix coordinate pattern general\n4294967295 4294967295 1\n1 2\n");
    error_code code{};
    std::string msg = error_of([&] { tropic::read_graph<std::uint32_t>(mm, o); }, &code);
    CHECK(code == error_code::out_of_memory);
    CHECK(msg.find("h.mtx:2") != std::string::npos);
    CHECK(msg.find("4294967295 vertices") != std::string::npos);
    CHECK(msg.find("1073741824") != std::string::npos);
    CHECK(msg.find("compact") == std::string::npos);  // a SNAP flag is no advice for MM
    const std::string gr = t.file("h.gr", "p sp 4294967295 1\na 1 2 1\n");
    msg = error_of([&] { tropic::read_graph<std::uint32_t>(gr, o); }, &code);
    CHECK(code == error_code::out_of_memory);
    CHECK(msg.find("h.gr:1") != std::string::npos);
    CHECK(msg.find("compact") == std::string::npos);
    // SNAP: n = largest id + 1; here the advice fits.
    const std::string snap = t.file("s.txt", "0 4294967294\n");
    msg = error_of([&] { tropic::read_graph<std::uint32_t>(snap, o); }, &code);
    CHECK(code == error_code::out_of_memory);
    CHECK(msg.find("s.txt") != std::string::npos);
    CHECK(msg.find("--compact-ids") != std::string::npos);
    o.compact_ids = true;
    CHECK(tropic::read_graph<std::uint32_t>(snap, o).n == 2);
  }

  TEST_CASE("gzip is streamed without trusting its trailer and stops at the limit") {
    temp_dir t;
    // 4 MB of blanks after a header inflate past a 1 MB limit: stop, naming the file.
    std::string body = "p sp 2 1\na 1 2 3\n" + std::string(4 << 20, ' ');
    const std::string gz = gzip_file(t.path("bomb.gz"), body);
    read_options o;
    o.memory_limit = 1 << 20;
    error_code code{};
    std::string msg = error_of([&] { tropic::read_graph<std::uint32_t>(gz, o); }, &code);
    CHECK(code == error_code::out_of_memory);
    CHECK(msg.find("bomb.gz") != std::string::npos);
    CHECK(msg.find("decompresses to more than 1048576") != std::string::npos);
    // A lying trailer (ISIZE 4 GB - 1) changes nothing.
    std::string bytes = slurp(gzip_file(t.path("ok.gz"), "p sp 2 1\na 1 2 3\n"));
    bytes.replace(bytes.size() - 4, 4, le32(0xffffffffu));
    const std::string liar = t.file("liar.gz", bytes);
    msg = error_of([&] { tropic::read_graph<std::uint32_t>(liar); });
    CHECK(msg.find("liar.gz") != std::string::npos);  // zlib checks ISIZE: a clear error
    // Two concatenated members read as one stream, as gzip(1) does.
    const std::string a = slurp(gzip_file(t.path("a.gz"), "p sp 3 2\na 1 2 3\n"));
    const std::string b = slurp(gzip_file(t.path("b.gz"), "a 2 3 4\n"));
    CHECK(tropic::read_graph<std::uint32_t>(t.file("ab.gz", a + b)).arcs() == 2);
    // Plain input stops at the limit too.
    o.memory_limit = 1 << 16;
    msg = error_of([&] { tropic::read_graph<std::uint32_t>(t.file("big.gr", body)); }, &code);
    CHECK(msg.find("(no exception)") != std::string::npos);  // no limit given: reads
    msg = error_of([&] { tropic::read_graph<std::uint32_t>(t.file("big.gr", body), o); }, &code);
    CHECK(code == error_code::out_of_memory);
    CHECK(msg.find("holds more than 65536") != std::string::npos);
  }

  TEST_CASE("/dev/zero and /dev/urandom fail from their first bytes, not at the limit") {
    if (!fs::exists("/dev/zero")) return;
    for (const char* dev : {"/dev/zero", "/dev/urandom"}) {
      CAPTURE(dev);
      const auto t0 = std::chrono::steady_clock::now();
      const std::string msg = error_of([&] { tropic::read_graph<std::uint32_t>(dev); });
      CHECK(msg.find(dev) != std::string::npos);
      CHECK(msg.find("binary data") != std::string::npos);
      CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
    }
  }

  TEST_CASE("pipes, FIFOs and the in-memory entry point read every text format and gzip") {
    temp_dir t;
    const std::string text[] = {
        "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 5\n2 3 7\n",
        "p sp 3 2\na 1 2 5\na 2 3 7\n", "# snap\n0 1 5\n1 2 7\n"};
    for (const auto& x : text) {
      for (const bool gz : {false, true}) {
        const std::string bytes = gz ? slurp(gzip_file(t.path("x.gz"), x)) : x;
        const std::string fifo = t.path("fifo");
        REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
        std::thread writer([&] {
          std::ofstream out(fifo, std::ios::binary);
          out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        });
        csr<std::uint32_t> g;
        const std::string msg = error_of([&] { g = tropic::read_graph<std::uint32_t>(fifo); });
        writer.join();
        fs::remove(fifo);
        CHECK(msg == "(no exception)");
        CHECK(g.arcs() == 2);
        const tropic::graph_input in = tropic::graph_input_from_memory(bytes.data(), bytes.size());
        CHECK(in.was_gzip() == gz);
        const csr<std::uint64_t> h = tropic::read_graph<std::uint64_t>(in);
        CHECK(h.weights == std::vector<std::uint64_t>{5, 7});
        // The same bytes parse again as another type.
        CHECK(tropic::read_graph<double>(in).weights == std::vector<double>{5, 7});
      }
    }
  }

  // The fuzz targets' seeds (test/fuzz/corpus/<format>, each without the magic its target puts
  // in front) must stay valid inputs as the formats evolve, or the fuzzer starts from garbage.
  TEST_CASE("the fuzz seed corpus reads through the in-memory entry point, plain and gzip") {
    const fs::path corpus = fs::path(__FILE__).parent_path() / ".." / "fuzz" / "corpus";
    REQUIRE(fs::exists(corpus));
    const std::pair<const char*, std::string> prefixes[] = {
        {"mtx", "%%MatrixMarket matrix "},
        {"dimacs", ""},
        {"snap", ""},
        {"galois", std::string("\x01\0\0\0\0\0\0\0", 8)},
        {"tgr", "TROPICG1"}};
    temp_dir t;
    int files = 0;
    for (const auto& [format, prefix] : prefixes) {
      for (const auto& entry : fs::directory_iterator(corpus / format)) {
        const std::string name = entry.path().filename().string();
        CAPTURE(name);
        const std::string bytes = prefix + slurp(entry.path().string());
        if (name == "array") {  // kept as a seed of the refusal path
          CHECK_THROWS_AS(tropic::read_graph<double>(
                              tropic::graph_input_from_memory(bytes.data(), bytes.size())),
                          tropic::error);
          continue;
        }
        const csr<double> g =
            tropic::read_graph<double>(tropic::graph_input_from_memory(bytes.data(), bytes.size()));
        const std::string gz = slurp(gzip_file(t.path("seed.gz"), bytes));
        check_same(
            tropic::read_graph<double>(tropic::graph_input_from_memory(gz.data(), gz.size())), g);
        ++files;
      }
    }
    CHECK(files >= 12);
  }
}
