// Benchmark suites and sources.
//
// A suite file lists one graph per line:   NAME  GRAPH  [OPTION ...]
// GRAPH is a generator spec (kron:SCALE[:EF], uniform:N:DEG, grid:ROWS:COLS) or a file name,
// looked up as given, then in the --data folders, the suite file's folder, ../shared/data and
// data/ beside the repository. `#` starts a comment. OPTIONs:
//   unit-weights, symmetrize, seed=N   how the graph is made
//   sources=N       at most N sources on this graph (fewer than --sources)
//   cpu-sources=N   the CPU peers (graphblas_cpu, c_api:graphblas_cpu) run on the first N sources
//                   only; Dijkstra, the reference, runs on every source
//   skip=A[,B...]   algorithms not run on this graph (names as in --algorithms)
// Every skip these options cause is a row of its own in the results ("skipped: why").
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
#include <utility>
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
  int max_sources = 0;            // sources=N; 0: --sources
  int cpu_sources = 0;            // cpu-sources=N; 0: every source
  std::vector<std::string> skip;  // skip=A,B
  std::string file;               // the suite file and line, for messages: "full.txt:9"
  int line = 0;
};

// The non-empty items of a comma-separated list ("a,,b" -> a, b).
inline std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

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
    e.file = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1) + ":" +
             std::to_string(number);
    const std::string where = path + ":" + std::to_string(number) + ": ";
    // The count after `key`, a positive integer, or 0 when opt does not start with key.
    auto count_option = [&](const std::string& opt, const std::string& key) -> int {
      if (opt.rfind(key, 0) != 0) return 0;
      const std::string v = opt.substr(key.size());
      if (v.empty() || v.size() > 6 || v.find_first_not_of("0123456789") != std::string::npos ||
          std::stoi(v) < 1)
        throw error(error_code::parse,
                    where + "'" + opt + "': " + key + " expects an integer >= 1");
      return std::stoi(v);
    };
    std::string opt;
    while (words >> opt) {
      if (opt == "unit-weights") {
        e.unit_weights = true;
      } else if (opt == "symmetrize") {
        e.symmetrize = true;
      } else if (opt.rfind("seed=", 0) == 0 &&
                 opt.find_first_not_of("0123456789", 5) == std::string::npos && opt.size() > 5) {
        e.seed = std::stoull(opt.substr(5));
      } else if (int k = count_option(opt, "sources=")) {
        e.max_sources = k;
      } else if (int k = count_option(opt, "cpu-sources=")) {
        e.cpu_sources = k;
      } else if (opt.rfind("skip=", 0) == 0 && opt.size() > 5) {
        for (std::string& name : split_commas(opt.substr(5))) e.skip.push_back(std::move(name));
      } else {
        throw error(error_code::parse,
                    where + "unknown option '" + opt +
                        "' (known: unit-weights, symmetrize, seed=N, sources=N, cpu-sources=N, "
                        "skip=A,B)");
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

// Labels with `id` every vertex that s reaches and that is still unlabelled (0); returns how
// many were labelled. In a symmetric graph that is s's whole component, and then the reach of
// every vertex in it.
template <class W>
vertex label_component(const csr<W>& g, vertex s, std::uint32_t id,
                       std::vector<std::uint32_t>& label) {
  std::vector<vertex> stack{s};
  label[s] = id;
  vertex size = 1;
  while (!stack.empty()) {
    const vertex u = stack.back();
    stack.pop_back();
    for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
      const vertex v = g.columns[k];
      if (label[v] == 0) {
        label[v] = id;
        ++size;
        stack.push_back(v);
      }
    }
  }
  return size;
}

template <class W>
std::vector<source_choice> choose_sources(const csr<W>& g, int count, std::uint64_t seed,
                                          bool symmetric) {
  std::vector<source_choice> chosen, fallback;
  if (g.n == 0 || count <= 0) return chosen;
  const double threshold = 0.75 * g.n;
  const int max_tries = std::max(64, 16 * count);
  splitmix64 rng{seed};
  std::vector<std::uint8_t> mark(g.n);
  // In a symmetric graph a vertex's reach is the size of its component: one search per
  // component, not per candidate. Kronecker graphs keep their giant component below 75% of the
  // vertices, so all 64 candidates are tried, and a search per candidate would cost minutes at
  // scale 24. BFS depths are then computed for the chosen sources only; the draws and choices are
  // the same as with a search per candidate.
  std::vector<std::uint32_t> component(symmetric ? g.n : 0);
  std::vector<vertex> component_size{0};
  auto candidate = [&](vertex v) {
    if (!symmetric) {
      std::fill(mark.begin(), mark.end(), 0);
      return bfs_reach(g, v, mark);
    }
    if (component[v] == 0) {
      const auto id = static_cast<std::uint32_t>(component_size.size());
      component_size.push_back(label_component(g, v, id, component));
    }
    return source_choice{v, component_size[component[v]], 0};
  };
  auto already = [&](vertex v) {
    for (const auto& c : chosen)
      if (c.source == v) return true;
    return false;
  };
  for (int t = 0; t < max_tries && static_cast<int>(chosen.size()) < count; ++t) {
    vertex v = static_cast<vertex>(rng() % g.n);
    if (already(v)) continue;
    source_choice c = candidate(v);
    if (c.reach >= threshold)
      chosen.push_back(c);
    else
      fallback.push_back(c);
    // In a symmetric graph every vertex of the big component qualifies: draw the rest from it
    // directly instead of retrying the search from vertices outside it.
    if (symmetric && !chosen.empty()) {
      const std::uint32_t big = component[chosen.front().source];
      for (int u = 0; u < max_tries && static_cast<int>(chosen.size()) < count; ++u) {
        vertex w = static_cast<vertex>(rng() % g.n);
        if (component[w] != big || already(w)) continue;
        chosen.push_back(source_choice{w, component_size[big], 0});
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
  if (symmetric)
    for (auto& c : chosen) {
      std::fill(mark.begin(), mark.end(), 0);
      c = bfs_reach(g, c.source, mark);
    }
  return chosen;
}

}  // namespace tropic::bench
