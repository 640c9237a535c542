// Rounds against steps in the CPU model of the distributed protocol: exchanges and relaxations.
#include <cstdio>
#include <string>
#include "distributed_model.hpp"
#include "tropic/generate.hpp"
#include "tropic/sssp.hpp"
#include "tropic/io.hpp"
using namespace tropic;
int main(int argc, char** argv) {
  for (int a = 1; a < argc; ++a) {
    const std::string spec = argv[a];
    const csr<std::uint32_t> g = spec.find('/') != std::string::npos
                                        ? read_graph<std::uint32_t>(spec)
                                        : generate<std::uint32_t>(spec, 1);
    const graph_stats s = compute_stats(g);
    const double delta = 8 * choose_delta(s);  // closure rounds' automatic width
    for (bool rounds : {false, true}) {
      testing::distributed_model<std::uint32_t> m(g, 4, delta, testing::pull_rule::never, rounds);
      m.solve(vertex(g.n / 3));
      std::printf("%s  %s: steps %llu, sent %llu\n", spec.c_str(), rounds ? "rounds" : "steps ",
                  (unsigned long long)m.steps, (unsigned long long)m.sent);
    }
  }
}
