// The real graphs of ../shared/data (or data/ on the GPU machine) and their reference answers
// (scipy's Dijkstra, from shared/data/README.md), for every algorithm's tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "tropic/csr.hpp"
#include "tropic/io.hpp"

namespace tropic::testing {

// The path of a shared graph, or "" when neither data folder has it.
inline std::string find_data(const std::string& name) {
  for (const std::string dir : {TROPIC_SHARED_DATA, TROPIC_LOCAL_DATA}) {
    const std::string path = dir + "/" + name;
    if (std::ifstream(path).good()) return path;
  }
  return {};
}

struct reference_answer {
  const char* file;
  bool unit_weights;  // the README's answers use weight 1 for the unweighted graphs
  vertex source;
  vertex reached;
  std::uint64_t max_distance;
  std::uint64_t sum;
};

inline constexpr reference_answer reference_answers[] = {
    {"USA-road-d.NY.gr.gz", false, 0, 264346, 1440081, 186686642878ULL},
    {"USA-road-d.NY.gr.gz", false, 100000, 264346, 1142467, 130656715456ULL},
    {"soc-Slashdot0902.txt.gz", true, 0, 82168, 8, 259462},
    {"cnr-2000.el.gz", true, 217849, 325557, 35, 5426851},
    {"cnr-2000.el.gz", true, 217848, 325557, 33, 5292855},
    {"mdual.mtx.gz", true, 0, 258569, 105, 16308480},
};

// reached / max / sum of a distance vector, to compare with a reference_answer.
struct distance_summary {
  vertex reached = 0;
  std::uint64_t max_distance = 0;
  std::uint64_t sum = 0;
};
template <class W>
distance_summary summarize(const std::vector<W>& d) {
  distance_summary s;
  for (W x : d) {
    if (x == infinity<W>()) continue;
    ++s.reached;
    s.max_distance = std::max<std::uint64_t>(s.max_distance, std::uint64_t(x));
    s.sum += std::uint64_t(x);
  }
  return s;
}

// Calls f(g, ref) for every reference answer whose graph is present, reading each file once
// (uint32 weights: the file's, or 1 where the README's answers use unit weights); says which
// files it skipped and why.
template <class F>
void for_each_reference_graph(F&& f) {
  std::string loaded;
  csr<std::uint32_t> g;
  for (const auto& ref : reference_answers) {
    CAPTURE(ref.file);
    CAPTURE(ref.source);
    const std::string path = find_data(ref.file);
    if (path.empty()) {
      MESSAGE("skipping " << ref.file << ": not in " << TROPIC_SHARED_DATA << " nor "
                          << TROPIC_LOCAL_DATA);
      continue;
    }
    if (loaded != path) {
      read_options ro;
      ro.unit_weights = ref.unit_weights;
      g = read_graph<std::uint32_t>(path, ro);
      loaded = path;
    }
    f(g, ref);
  }
}

}  // namespace tropic::testing
