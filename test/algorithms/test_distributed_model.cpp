// The several-GPU delta-stepping's exchange protocol on the CPU (distributed_model.hpp, issue
// 38's CI item): over P = 1 .. 8 simulated ranks of partition_rows, every pull rule and several
// Δ, with light steps or closure rounds, the owners' values are Dijkstra's distances on random
// graphs of every weight type; a rank's view of a vertex it does not own is never below the
// owner's; one part, and steps that all pull, send nothing; pushes across parts do send; closure
// rounds cross a border once a round.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "distributed_model.hpp"
#include "random_graphs.hpp"
#include "test_helpers.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;
using tropic::testing::distributed_model;
using tropic::testing::pull_rule;

namespace {

constexpr std::size_t part_counts[] = {1, 2, 3, 5, 8};
constexpr pull_rule rules[] = {pull_rule::never, pull_rule::always, pull_rule::large_frontier};

template <class W>
std::vector<double> deltas_for(const csr<W>& g) {
  double most = 1;
  for (W w : g.weights) most = std::max(most, double(w));
  // narrow buckets with many heavy arcs, one as wide as the heaviest arc, Bellman-Ford
  return {std::max(1.0, most / 4), most, std::numeric_limits<double>::infinity()};
}

}  // namespace

TEST_SUITE("distributed_model") {
  TEST_CASE_TEMPLATE("P simulated ranks give Dijkstra's distances, and views stay above the owners'",
                     W, std::uint32_t, std::int64_t, float, double) {
    constexpr bool exact = std::is_integral_v<W>;
    std::uint64_t pulls = 0, sent = 0;  // over every run: both paths were taken
    testing::for_each_test_graph<W>(200, 1, [&](const csr<W>& g, vertex s) {
      options o;
      o.algorithm = algorithm::dijkstra;
      const std::vector<W> want = sssp(g, s, o).distances;
      const bool symmetric = compute_stats(g).symmetric;
      for (std::size_t parts : part_counts)
        for (pull_rule rule : rules)
          for (double delta : deltas_for(g))
            for (bool closure : {false, true}) {
              CAPTURE(parts);
              CAPTURE(int(rule));
              CAPTURE(delta);
              CAPTURE(closure);
              distributed_model<W> m(g, parts, delta, rule, closure);
              const std::vector<W> got = m.solve(s);
              REQUIRE(got.size() == want.size());
              for (vertex v = 0; v < g.n; ++v) {
                if (!testing::same(got[v], want[v], exact)) {
                  CAPTURE(v);
                  CHECK(got[v] == want[v]);
                  break;
                }
              }
              std::uint64_t below = 0;  // views of a vertex below its owner's value
              for (std::size_t p = 0; p < m.parts(); ++p)
                for (vertex v = 0; v < g.n; ++v) below += m.owner(v) != p && m.view(p, v) < got[v];
              CHECK(below == 0);
              if (parts == 1) CHECK(m.sent == 0);
              if (symmetric && rule == pull_rule::always && !closure) {
                CHECK(m.pulls == m.steps);
                CHECK(m.sent == 0);
              }
              if (!symmetric) CHECK(m.pulls == 0);
              pulls += m.pulls;
              sent += m.sent;
            }
    });
    CHECK(pulls > 0);
    CHECK(sent > 0);
  }

  TEST_CASE("a push across parts sends its improvements to their owners") {
    // A one-way path 0 -> 1 -> ... -> 99 in two parts: the arc from the first part's last
    // vertex into the second part carries the distances on, through the exchange.
    const csr<std::uint32_t> g = testing::path_graph<std::uint32_t>(100, false);
    distributed_model<std::uint32_t> m(g, 2, 3.0, pull_rule::never);
    const std::vector<std::uint32_t> d = m.solve(0);
    options o;
    o.algorithm = algorithm::dijkstra;
    CHECK(d == sssp(g, 0, o).distances);
    REQUIRE(m.ranges()[0].end > 0);
    REQUIRE(m.ranges()[0].end < 100);
    CHECK(m.sent >= 1);
    CHECK(m.pulls == 0);
  }

  TEST_CASE("closure rounds cross a border once a round, not once a step") {
    // The same path in one bucket: light steps take a step a hop, closure rounds one round for
    // the first part, one for the second (from the ghost sent it), and none after.
    const csr<std::uint32_t> g = testing::path_graph<std::uint32_t>(100, false);
    const double one_bucket = std::numeric_limits<double>::infinity();
    distributed_model<std::uint32_t> steps(g, 2, one_bucket, pull_rule::never);
    distributed_model<std::uint32_t> rounds(g, 2, one_bucket, pull_rule::never, true);
    const std::vector<std::uint32_t> want = steps.solve(0);
    CHECK(rounds.solve(0) == want);
    CHECK(steps.steps >= 99);
    CHECK(rounds.steps == 2);
    CHECK(rounds.sent == 1);
  }
}
