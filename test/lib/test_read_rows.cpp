// read_graph_rows: the blocks of a file read in parts, concatenated, are exactly read_graph's CSR,
// for every text format (plain and gzipped), every duplicate and self-loop rule, symmetric
// storage and symmetrize; and build_csr_rows against build_csr on random arc lists.
#include <doctest/doctest.h>
#include <unistd.h>
#include <zlib.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tropic/csr.hpp"
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

  TEST_CASE("binary formats are read whole and sliced") {
    rows_temp_dir t;
    const random_arcs r = make_arcs(9, 30, 200);
    const std::string text = t.file("g.gr", as_dimacs(r));
    const csr<double> g = read_graph<double>(text);
    const std::string bin = (t.dir / "g.bin").string();
    write_binary_cache(g, bin);
    check_file_blocks<double>(bin, {});
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
