// The C++ API from an installed tropic: read a graph, solve from one source with the automatic
// choice (the GPU when there is one), check every distance against the CPU Dijkstra.
// Usage: shortest_paths graph.mtx [source]. Exit status 0 when the answer verifies.
#include <tropic/version.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <tropic/io.hpp>
#include <tropic/sssp.hpp>

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: %s graph.mtx [source]\n", argv[0]), 1;
  const tropic::version_info v = tropic::version();
  if (v.major_version != TROPIC_VERSION_MAJOR)
    return std::fprintf(stderr, "built against tropic %s, running with %d.%d.%d\n",
                        TROPIC_VERSION_STRING, v.major_version, v.minor_version, v.patch_version),
           1;
  try {
    const auto g = tropic::read_graph<double>(argv[1]);
    const auto source =
        static_cast<tropic::vertex>(argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 0);
    tropic::options opts;
    opts.parents = true;
    const tropic::result<double> r = tropic::sssp(g, source, opts);
    const std::string problems =
        tropic::verify(g, source, tropic::dijkstra(g, source).distances, r);
    std::printf("tropic %d.%d.%d, %s: %u vertices, %s\n", v.major_version, v.minor_version,
                v.patch_version, r.stats.algorithm.c_str(), static_cast<unsigned>(g.n),
                problems.empty() ? "verified" : problems.c_str());
    return problems.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
