// Benchmark suites and sources.
//
// A suite file lists one graph per line:   NAME  GRAPH  [OPTION ...]
// GRAPH is a generator spec (kron:SCALE[:EF], uniform:N:DEG, grid:ROWS:COLS) or a file name,
// looked up as given, then in the --data folders, the suite file's folder, ../shared/data and
// data/ beside the repository. OPTIONs: unit-weights, symmetrize, seed=N. `#` starts a comment.
//
// Sources follow the ADDS paper's rule: vertices drawn at random (deterministically from the
// seed and the graph's name) among those that reach at least 75% of the graph; when too few
// do, the ones with the largest reach among those tried.
#pragma once

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/error.hpp"

namespace tropic::bench {

struct suite_entry {
  std::string name;
  std::string graph;  // generator spec or file name as written in the suite
  bool unit_weights = false;
  bool symmetrize = false;
  std::uint64_t seed = 1;
  int line = 0;
};

inline bool is_generator_spec(const std::string& s) {
  return s.rfind("kron:", 0) == 0 || s.rfind("uniform:", 0) == 0 || s.rfind("grid:", 0) == 0;
}

inline bool path_exists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

inline std::string directory_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

inline std::vector<suite_entry> read_suite(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw error(error_code::io, "cannot open suite file '" + path + "'");
  std::vector<suite_entry> out;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    suite_entry e;
    e.line = number;
    if (!(words >> e.name)) continue;
    if (!(words >> e.graph))
      throw error(error_code::parse, path + ":" + std::to_string(number) + ": '" + e.name +
                                         "' needs a GRAPH (generator spec or file) after it");
    std::string opt;
    while (words >> opt) {
      if (opt == "unit-weights") {
        e.unit_weights = true;
      } else if (opt == "symmetrize") {
        e.symmetrize = true;
      } else if (opt.rfind("seed=", 0) == 0 &&
                 opt.find_first_not_of("0123456789", 5) == std::string::npos && opt.size() > 5) {
        e.seed = std::stoull(opt.substr(5));
      } else {
        throw error(error_code::parse, path + ":" + std::to_string(number) + ": unknown option '" +
                                           opt + "' (known: unit-weights, symmetrize, seed=N)");
      }
    }
    for (const auto& prev : out)
      if (prev.name == e.name)
        throw error(error_code::parse, path + ":" + std::to_string(number) + ": the name '" +
                                           e.name + "' is used twice");
    out.push_back(e);
  }
  return out;
}

// Where a file named in a suite lives; empty when nowhere.
inline std::string resolve_graph_file(const std::string& name,
                                      const std::vector<std::string>& folders) {
  if (path_exists(name)) return name;
  if (!name.empty() && name[0] == '/') return "";
  for (const auto& f : folders) {
    std::string p = f + "/" + name;
    if (path_exists(p)) return p;
  }
  return "";
}

struct source_choice {
  vertex source = 0;
  vertex reach = 0;         // vertices reachable from the source, itself included
  std::uint32_t depth = 0;  // BFS levels: the hop eccentricity, a diameter proxy for the plots
};

// splitmix64: a tiny, well-mixed, portable generator; std::mt19937's distributions are not
// specified bit-for-bit across standard libraries, and source choice must be reproducible.
struct splitmix64 {
  std::uint64_t state;
  std::uint64_t operator()() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

inline std::uint64_t name_hash(const std::string& s) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

// Breadth-first search from s; `mark` (size n, zero on entry) is left set on every reached vertex.
template <class W>
source_choice bfs_reach(const csr<W>& g, vertex s, std::vector<std::uint8_t>& mark) {
  std::vector<vertex> frontier{s}, next;
  mark[s] = 1;
  source_choice c{s, 1, 0};
  while (!frontier.empty()) {
    next.clear();
    for (vertex u : frontier)
      for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
        vertex v = g.columns[k];
        if (!mark[v]) {
          mark[v] = 1;
          next.push_back(v);
        }
      }
    c.reach += static_cast<vertex>(next.size());
    if (!next.empty()) ++c.depth;
    frontier.swap(next);
  }
  return c;
}

template <class W>
std::vector<source_choice> choose_sources(const csr<W>& g, int count, std::uint64_t seed,
                                          bool symmetric) {
  std::vector<source_choice> chosen, fallback;
  if (g.n == 0 || count <= 0) return chosen;
  const double threshold = 0.75 * g.n;
  const int max_tries = std::max(64, 16 * count);
  splitmix64 rng{seed};
  std::vector<std::uint8_t> mark(g.n), in_big_component(symmetric ? g.n : 0);
  auto already = [&](vertex v) {
    for (const auto& c : chosen)
      if (c.source == v) return true;
    return false;
  };
  for (int t = 0; t < max_tries && static_cast<int>(chosen.size()) < count; ++t) {
    vertex v = static_cast<vertex>(rng() % g.n);
    if (already(v)) continue;
    std::fill(mark.begin(), mark.end(), 0);
    source_choice c = bfs_reach(g, v, mark);
    if (c.reach >= threshold) {
      chosen.push_back(c);
      if (symmetric) in_big_component = mark;
    } else {
      fallback.push_back(c);
    }
    // In a symmetric graph every vertex of the big component qualifies: draw the rest from it
    // directly instead of retrying the search from vertices outside it.
    if (symmetric && !chosen.empty()) {
      for (int u = 0; u < max_tries && static_cast<int>(chosen.size()) < count; ++u) {
        vertex w = static_cast<vertex>(rng() % g.n);
        if (!in_big_component[w] || already(w)) continue;
        std::fill(mark.begin(), mark.end(), 0);
        chosen.push_back(bfs_reach(g, w, mark));
      }
    }
  }
  if (static_cast<int>(chosen.size()) < count) {
    std::stable_sort(
        fallback.begin(), fallback.end(),
        [](const source_choice& a, const source_choice& b) { return a.reach > b.reach; });
    for (const auto& c : fallback)
      if (static_cast<int>(chosen.size()) < count && !already(c.source)) chosen.push_back(c);
  }
  return chosen;
}

}  // namespace tropic::bench
