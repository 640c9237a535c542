// What the algorithm sweeps of bench/tune/ share: the shared real graphs they run on, the check
// of every answer against the CPU Dijkstra (a sweep measures, but never a wrong answer), and the
// sweep names on the command line.
#pragma once

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"

namespace tropic::tune {

// The path of a shared graph in ../shared/data or data/, or "" when neither has it.
inline std::string data_path(const std::string& file) {
  for (const std::string dir : {TROPIC_SHARED_DATA, TROPIC_LOCAL_DATA})
    if (std::ifstream(dir + "/" + file).good()) return dir + "/" + file;
  return {};
}

// sweep(file, graph) for each of the shared real graphs present (weights as the bench reads
// them), saying which are missing.
inline void for_each_shared_graph(
    const std::vector<std::string>& files,
    const std::function<void(const std::string&, const csr<std::uint32_t>&)>& sweep) {
  for (const std::string& file : files) {
    const std::string path = data_path(file);
    if (path.empty()) {
      std::printf("skipping %s: not in %s nor %s\n", file.c_str(), TROPIC_SHARED_DATA,
                  TROPIC_LOCAL_DATA);
      continue;
    }
    sweep(file, read_graph<std::uint32_t>(path));
  }
}

// Whether r is right (verify() against Dijkstra's distances); prints what is wrong and marks the
// run failed when it is not.
inline bool answer_ok(const csr<std::uint32_t>& g, vertex source,
                      const std::vector<std::uint32_t>& want, const result<std::uint32_t>& r,
                      const std::string& what, bool& failed) {
  const std::string problems = verify(g, source, want, r);
  if (problems.empty()) return true;
  std::printf("WRONG %s, source %u: %s\n", what.c_str(), source, problems.c_str());
  failed = true;
  return false;
}

// The reached vertices of a distance vector.
inline std::uint64_t reached(const std::vector<std::uint32_t>& d) {
  std::uint64_t k = 0;
  for (std::uint32_t x : d) k += x != infinity<std::uint32_t>();
  return k;
}

// Runs the sweeps named on the command line ('-' or '_' may stand for a space), or every sweep
// without arguments; returns the exit code (1 for an unknown name or a wrong answer).
struct named_sweep {
  const char* name;
  std::function<void()> run;
};
inline int run_sweeps(int argc, char** argv, const std::vector<named_sweep>& sweeps,
                      const bool& failed) {
  std::vector<std::string> asked;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    for (char& c : a)
      if (c == '-' || c == '_') c = ' ';
    asked.push_back(a);
  }
  for (const std::string& a : asked) {
    bool known = false;
    for (const auto& s : sweeps) known = known || a == s.name;
    if (!known) {
      std::fprintf(stderr, "unknown sweep '%s'; the sweeps:", a.c_str());
      for (const auto& s : sweeps) std::fprintf(stderr, " '%s'", s.name);
      std::fprintf(stderr, "\n");
      return 1;
    }
  }
  for (const auto& s : sweeps) {
    bool run = asked.empty();
    for (const std::string& a : asked) run = run || a == s.name;
    if (!run) continue;
    std::printf("== %s\n", s.name);
    std::fflush(stdout);
    s.run();
  }
  return failed ? 1 : 0;
}

}  // namespace tropic::tune
