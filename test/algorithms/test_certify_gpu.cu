// certify on the GPU algorithms' answers: every GPU algorithm's distances and parents on random
// graphs (zero weights, ties, parallel arcs) pass the certificate, whole and in row partitions,
// and GPU Bellman-Ford's pass with negative arcs. The CPU side and the planted errors:
// test_certify.cpp.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "certify_checks.hpp"
#include "gpu_test.hpp"
#include "negative_graphs.hpp"
#include "random_graphs.hpp"
#include "tropic/partition.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;

using tropic::testing::certify_in_parts;

namespace {

template <class W>
result<W> solved(const csr<W>& g, vertex s, algorithm a) {
  options o;
  o.algorithm = a;
  o.parents = true;
  return sssp(g, s, o);
}

}  // namespace

TEST_SUITE("certify_gpu") {
  TEST_CASE_TEMPLATE("accepts every GPU algorithm's answer on random graphs", W, std::uint32_t,
                     std::int64_t, float, double) {
    TROPIC_REQUIRE_GPU();
    int certified = 0;
    for (algorithm a : available_algorithms()) {
      if (!is_gpu_algorithm(a)) continue;
      CAPTURE(algorithm_name(a));
      for (const auto& c : testing::test_graph_cases(32, 5200)) {
        CAPTURE(c.name());
        const csr<W> g = c.graph<W>();
        if (g.n == 0) continue;
        const vertex s = c.source(g.n);
        const result<W> r = solved(g, s, a);
        const std::string whole = certify(g, s, r);
        CHECK(whole == "");
        CHECK(certify_in_parts(g, s, r, 3) == whole);
        CHECK(certify_in_parts(g, s, r, 7) == whole);
        ++certified;
      }
    }
    CHECK(certified > 100);
  }

  TEST_CASE_TEMPLATE("accepts GPU Bellman-Ford with negative arcs", W, std::int32_t, double) {
    TROPIC_REQUIRE_GPU();
    for (const auto& c : testing::test_graph_cases(32, 5300)) {
      const auto k = testing::reweighted_case<W>(c);
      CAPTURE(k.name);
      if (k.g.n == 0) continue;
      const result<W> r = solved(k.g, k.source, algorithm::bellman_ford);
      CHECK(certify(k.g, k.source, r) == "");
      CHECK(certify_in_parts(k.g, k.source, r, 7) == "");
    }
  }
}
