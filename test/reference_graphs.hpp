// The real graphs of ../shared/data (or data/ on the GPU machine) and their reference answers
// (scipy's Dijkstra, from shared/data/README.md), for every algorithm's tests.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

#include "tropic/csr.hpp"

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

}  // namespace tropic::testing
