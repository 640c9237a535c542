// LAGraph's own SSSP test matrices (test/data/lagraph/, from LAGraph's
// src/test/test_SingleSourceShortestPath.c; README.md there), read the way LAGraph_MMRead reads
// them: values as they are (pattern entries are 1), symmetric storage mirrored, skew-symmetric
// mirrored negated, self-loops kept. A reader of its own, not tropic's: tropic's hashes pattern
// weights, drops self-loops and refuses skew-symmetric files, and the point here is LAGraph's
// matrices as LAGraph sees them.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/error.hpp"

namespace tropic::testing {

// The list of test_SingleSourceShortestPath.c, in its order.
inline const char* const lagraph_sssp_matrices[] = {
    "A.mtx",
    "cover.mtx",
    "jagmesh7.mtx",
    "ldbc-cdlp-directed-example.mtx",
    "ldbc-cdlp-undirected-example.mtx",
    "ldbc-directed-example.mtx",
    "ldbc-undirected-example.mtx",
    "ldbc-wcc-example.mtx",
    "LFAT5.mtx",
    "LFAT5_hypersparse.mtx",
    "msf1.mtx",
    "msf2.mtx",
    "msf3.mtx",
    "sample2.mtx",
    "sample.mtx",
    "olm1000.mtx",
    "bcsstk13.mtx",
    "cryg2500.mtx",
    "tree-example.mtx",
    "west0067.mtx",
    "karate.mtx",
    "matrix_bool.mtx",
    "test_BF.mtx",
    "test_FW_1000.mtx",
    "test_FW_2003.mtx",
    "test_FW_2500.mtx",
    "skew_fp32.mtx",
    "matrix_uint32.mtx",
    "matrix_uint64.mtx",
};

inline std::string lagraph_matrix_path(const std::string& name) {
  namespace fs = std::filesystem;
  return (fs::path(__FILE__).parent_path().parent_path() / "data" / "lagraph" / name).string();
}

// A's entries as arcs (row -> column), values as doubles.
inline arc_list<double> read_lagraph_matrix(const std::string& name) {
  const std::string path = lagraph_matrix_path(name);
  std::ifstream in(path);
  if (!in) throw error(error_code::io, "cannot open " + path);
  std::string line;
  std::getline(in, line);
  std::istringstream banner(line);
  std::string mm, object, format, field, symmetry;
  banner >> mm >> object >> format >> field >> symmetry;
  if (format != "coordinate") throw error(error_code::parse, path + ": not coordinate");
  while (std::getline(in, line) && (line.empty() || line[0] == '%')) {
  }
  std::istringstream size(line);
  std::uint64_t rows = 0, cols = 0, entries = 0;
  size >> rows >> cols >> entries;
  arc_list<double> a;
  a.n = static_cast<vertex>(rows);
  for (std::uint64_t k = 0; k < entries; ++k) {
    std::uint64_t i = 0, j = 0;
    double x = 1;
    in >> i >> j;
    if (field != "pattern") {  // strtod, not >>: skew_fp32.mtx holds an "inf"
      std::string token;
      in >> token;
      x = std::strtod(token.c_str(), nullptr);
    }
    if (!in) throw error(error_code::parse, path + ": truncated");
    a.push_back(vertex(i - 1), vertex(j - 1), x);
    if (i != j && symmetry == "symmetric") a.push_back(vertex(j - 1), vertex(i - 1), x);
    if (i != j && symmetry == "skew-symmetric") a.push_back(vertex(j - 1), vertex(i - 1), -x);
  }
  return a;
}

// The weights LAGraph's test gives them: int32 in 1..255 (|x| cast to an integer, & 255, at
// least 1: test_SingleSourceShortestPath's BAND 255 and MAX 1).
inline csr<std::int32_t> lagraph_test_weights(const arc_list<double>& raw) {
  arc_list<std::int32_t> a;
  a.n = raw.n;
  for (std::size_t k = 0; k < raw.size(); ++k) {
    const double m = std::fabs(raw.weight[k]);  // inf: INT32_MAX, as GraphBLAS casts it
    const std::int64_t v = m >= 2147483647.0 ? 2147483647 : static_cast<std::int64_t>(m);
    a.push_back(raw.src[k], raw.dst[k],
                static_cast<std::int32_t>(std::max<std::int64_t>(v & 255, 1)));
  }
  return build_csr(a, {duplicate_policy::keep_min, false, false});
}

// The raw values, negative ones included, self-loops kept (a negative one is a negative cycle);
// an infinite one is no arc (skew_fp32.mtx's "inf").
inline csr<double> lagraph_raw_weights(const arc_list<double>& raw) {
  arc_list<double> a;
  a.n = raw.n;
  for (std::size_t k = 0; k < raw.size(); ++k)
    if (std::isfinite(raw.weight[k])) a.push_back(raw.src[k], raw.dst[k], raw.weight[k]);
  return build_csr(a, {duplicate_policy::keep_min, false, false});
}

}  // namespace tropic::testing
