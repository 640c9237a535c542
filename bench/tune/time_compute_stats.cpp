// Times compute_stats (the symmetry check dominates it) on a Kronecker graph of the given scale.
// Built by the `tune` target: build/bench/tune/tune_compute_stats 20
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "tropic/csr.hpp"
#include "tropic/generate.hpp"
int main(int argc, char** argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 20;
  auto t0 = std::chrono::steady_clock::now();
  auto g = tropic::generate_kronecker<std::uint32_t>(scale, 16, 1);
  auto t1 = std::chrono::steady_clock::now();
  auto s = tropic::compute_stats(g);
  auto t2 = std::chrono::steady_clock::now();
  std::printf("gen %.0f ms stats %.0f ms sym %d arcs %llu\n",
    std::chrono::duration<double, std::milli>(t1 - t0).count(),
    std::chrono::duration<double, std::milli>(t2 - t1).count(), (int)s.symmetric, (unsigned long long)s.arcs);
}
