#include <cstdio>
#include <string>
#include <vector>
#include "tropic/generate.hpp"
#include "tropic/io.hpp"
#include "tropic/partition.hpp"
using namespace tropic;
int main(int argc, char** argv) {
  for (int a = 1; a < argc; ++a) {
    const std::string spec = argv[a];
    const csr<std::uint32_t> g = spec.find('/') != std::string::npos
                                        ? read_graph<std::uint32_t>(spec)
                                        : generate<std::uint32_t>(spec, 1);
    for (std::size_t P : {2, 4}) {
      auto r = partition_rows(g, P);
      std::size_t total = 0, cut = 0;
      for (auto& x : r) {
        std::vector<char> f(g.n, 0);
        for (vertex u = x.begin; u < x.end; ++u)
          for (arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
            vertex v = g.columns[k];
            if (v < x.begin || v >= x.end) { f[v] = 1; ++cut; }
          }
        for (char c : f) total += c;
      }
      std::printf("%-28s P=%zu n=%u ghosts %zu (%.4f of n) cut arcs %.4f\n", spec.c_str(), P,
                  g.n, total, double(total) / g.n, double(cut) / g.columns.size());
    }
  }
}
