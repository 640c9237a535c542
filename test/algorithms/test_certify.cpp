// certify: accepts the answers of the CPU algorithms on hundreds of random graphs (every weight
// type, with and without parents, negative arcs for the signed ones); rejects planted errors
// with a message naming the vertex; and its row-partitioned form (certify_rows per part of
// partition_rows, certify_combine) gives exactly the whole check's answer for P = 1 .. 64; and
// the text does not depend on the order of a row's arcs (a device matrix sorts rows by weight).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "certify_checks.hpp"
#include "negative_graphs.hpp"
#include "random_graphs.hpp"
#include "tropic/partition.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;

using tropic::testing::answer;
using tropic::testing::certify_in_parts;
using tropic::testing::make_csr;

namespace {

constexpr std::size_t partition_counts[] = {1, 2, 3, 7, 64};

// certify, after checking every partitioned form agrees with it exactly.
template <class W>
std::string certified(const csr<W>& g, vertex s, const result<W>& r) {
  const std::string whole = certify(g, s, r);
  for (std::size_t parts : partition_counts) {
    CAPTURE(parts);
    CHECK(certify_in_parts(g, s, r, parts) == whole);
  }
  return whole;
}

// Whether `text` names vertex v: its number as a whole token.
bool names(const std::string& text, vertex v) {
  const std::string id = std::to_string(v);
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (std::size_t at = text.find(id); at != std::string::npos; at = text.find(id, at + 1)) {
    const std::size_t end = at + id.size();
    if ((at == 0 || !digit(text[at - 1])) && (end == text.size() || !digit(text[end]))) return true;
  }
  return false;
}

template <class W>
bool all_positive(const csr<W>& g) {
  for (W w : g.weights)
    if (!(w > W(0))) return false;
  return true;
}

// With parents the certificate must pass; without, it must pass too unless a vertex is reached
// only through zero or negative tight arcs, where it may say (only) that parents are needed.
template <class W>
void check_accepted(const csr<W>& g, vertex s, result<W> r, int& without_parents_proved) {
  CHECK(certified(g, s, r) == "");
  r.parents.clear();
  const std::string bare = certified(g, s, r);
  if (bare.empty()) ++without_parents_proved;
  if (all_positive(g))
    CHECK(bare == "");
  else if (!bare.empty())
    CHECK(bare.find("certify a result with parents") != std::string::npos);
}

template <class W>
result<W> solved(const csr<W>& g, vertex s, algorithm a) {
  options o;
  o.algorithm = a;
  o.parents = true;
  return sssp(g, s, o);
}

// g with each row's arcs reordered by `order` (a comparison of (column, weight) pairs).
template <class W, class Order>
csr<W> rows_reordered(csr<W> g, Order order) {
  for (vertex u = 0; u < g.n; ++u) {
    std::vector<std::pair<vertex, W>> row;
    for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e)
      row.emplace_back(g.columns[e], g.weights[e]);
    std::stable_sort(row.begin(), row.end(), order);
    for (std::size_t k = 0; k < row.size(); ++k) {
      g.columns[g.row_offsets[u] + k] = row[k].first;
      g.weights[g.row_offsets[u] + k] = row[k].second;
    }
  }
  return g;
}

template <class W>
void check_any_arc_order(const csr<W>& g, vertex s, int& rejected, int& cycles) {
  // As device_matrix stores rows (by weight, then column), and backwards by column.
  const csr<W> by_weight = rows_reordered(g, [](const auto& a, const auto& b) {
    return a.second < b.second || (a.second == b.second && a.first < b.first);
  });
  const csr<W> backwards =
      rows_reordered(g, [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& damaged :
       testing::damaged_answers(g, s, reference_sssp(g, s, true), g.n * 31 + s)) {
    CAPTURE(damaged.name);
    const result<W>& r = damaged.answer;
    const std::string want = certified(g, s, r);
    CHECK(certify(by_weight, s, r) == want);
    CHECK(certify(backwards, s, r) == want);
    CHECK(certify_in_parts(by_weight, s, r, 3) == want);
    rejected += !want.empty();
    cycles += want.find("cycle") != std::string::npos;
  }
}

}  // namespace

TEST_SUITE("certify") {
  TEST_CASE_TEMPLATE("accepts dijkstra, graphblas_cpu and bellman_ford_cpu on random graphs", W,
                     std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, float, double) {
    int graphs = 0, proved_bare = 0;
    for (const auto& c : testing::test_graph_cases(96, 3800)) {
      CAPTURE(c.name());
      const csr<W> g = c.graph<W>();
      if (g.n == 0) continue;
      const vertex s = c.source(g.n);
      for (algorithm a : {algorithm::dijkstra, algorithm::graphblas_cpu}) {
        CAPTURE(algorithm_name(a));
        check_accepted(g, s, solved(g, s, a), proved_bare);
      }
      check_accepted(g, s, bellman_ford_cpu(g, s, true), proved_bare);
      ++graphs;
    }
    CHECK(graphs > 80);
    CHECK(proved_bare > 3 * 40);  // the graphs with positive weights, at least
  }

  TEST_CASE_TEMPLATE("accepts graphblas_cpu and bellman_ford_cpu with negative arcs", W,
                     std::int32_t, std::int64_t, float, double) {
    int negative = 0;
    for (const auto& c : testing::test_graph_cases(64, 4100)) {
      const auto k = testing::reweighted_case<W>(c);
      CAPTURE(k.name);
      if (k.g.n == 0) continue;
      for (W w : k.g.weights) negative += w < W(0);
      int unused = 0;
      check_accepted(k.g, k.source, solved(k.g, k.source, algorithm::graphblas_cpu), unused);
      check_accepted(k.g, k.source, bellman_ford_cpu(k.g, k.source, true), unused);
    }
    CHECK(negative > 100);
  }

  TEST_CASE_TEMPLATE("rejects planted errors in random answers, naming the vertex", W,
                     std::uint32_t, std::int64_t, double) {
    int planted = 0;
    for (const auto& c : testing::test_graph_cases(64, 4400)) {
      CAPTURE(c.name());
      const csr<W> g = c.graph<W>();
      if (g.n < 2) continue;
      const vertex s = c.source(g.n);
      const result<W> good = dijkstra(g, s, true);
      // A reached vertex other than the source, chosen by the seed.
      std::vector<vertex> reached;
      for (vertex v = 0; v < g.n; ++v)
        if (v != s && good.distances[v] != infinity<W>()) reached.push_back(v);
      if (reached.empty()) continue;
      testing::test_rng rng(c.seed);
      const vertex v = reached[rng.below(reached.size())];
      CAPTURE(v);
      auto rejected = [&](const result<W>& bad, vertex who, const std::string& what) {
        CAPTURE(what);
        const std::string message = certified(g, s, bad);
        CAPTURE(message);
        CHECK(!message.empty());
        CHECK(names(message, who));
        ++planted;
      };
      for (bool with_parents : {true, false}) {
        result<W> base = good;
        if (!with_parents) base.parents.clear();
        // Without parents, zero-weight ties may leave the true answer unprovable already.
        if (!with_parents && certify(g, s, base) != "") continue;
        if (good.distances[v] >= W(1)) {
          result<W> lowered = base;
          lowered.distances[v] -= W(1);
          rejected(lowered, v, "distance lowered");
        }
        result<W> raised = base;
        raised.distances[v] += W(1);
        rejected(raised, v, "distance raised");
        result<W> unreached = base;
        unreached.distances[v] = infinity<W>();
        if (with_parents) unreached.parents[v] = -1;
        rejected(unreached, v, "reached vertex marked unreachable");
        result<W> source_moved = base;
        source_moved.distances[s] = W(1);
        rejected(source_moved, s, "d[s] != 0");
      }
      result<W> self_parent = good;  // no arc v -> v is tight, or it closes a cycle through v
      self_parent.parents[v] = v;
      rejected(self_parent, v, "parent is the vertex itself");
      result<W> wrong_parent = good;  // a reached vertex with no tight arc to v
      for (vertex q = 0; q < g.n; ++q) {
        if (good.distances[q] == infinity<W>() || q == v) continue;
        bool tight = false;
        for (arc_index e = g.row_offsets[q]; e < g.row_offsets[q + 1]; ++e)
          tight =
              tight || (g.columns[e] == v && good.distances[q] + g.weights[e] == good.distances[v]);
        if (tight) continue;
        wrong_parent.parents[v] = q;
        rejected(wrong_parent, v, "wrong parent");
        break;
      }
    }
    CHECK(planted > 64 * 5);
  }

  TEST_CASE("rejects a parent cycle, and a zero-weight cycle without parents") {
    // 0 -> 1 (1); 1 <-> 2 (0): d = 0 1 1, a tree is 0 -> 1 -> 2. Then 3 <-> 4 (0), unreachable.
    const auto g =
        make_csr<std::uint32_t>(5, {{0, 1, 1}, {1, 2, 0}, {2, 1, 0}, {3, 4, 0}, {4, 3, 0}});
    constexpr auto inf = infinity<std::uint32_t>();
    CHECK(certified(g, 0, answer<std::uint32_t>({0, 1, 1, inf, inf}, {-1, 0, 1, -1, -1})) == "");
    // Each parent arc tight, yet 1 and 2 point at each other: no path backs d[1] or d[2].
    const std::string cycle =
        certified(g, 0, answer<std::uint32_t>({0, 1, 1, inf, inf}, {-1, 2, 1, -1, -1}));
    CHECK(cycle.find("cycle through vertex 1") != std::string::npos);
    // Without parents, 1's tight in-arc 0 -> 1 increases the distance: proved. 3 and 4 labelled
    // 5 have tight in-arcs (each other's) and satisfy every arc condition, but no path.
    CHECK(certified(g, 0, answer<std::uint32_t>({0, 1, 1, inf, inf})) != "");  // 2: weak only
    const std::string island = certified(g, 0, answer<std::uint32_t>({0, 1, 1, 5, 5}));
    CHECK(island.find("vertex 1 (distance 1)") == std::string::npos);
    CHECK(names(island, 2));
    const std::string island_parents =
        certified(g, 0, answer<std::uint32_t>({0, 1, 1, 5, 5}, {-1, 0, 1, 4, 3}));
    CHECK(island_parents.find("cycle through vertex 3") != std::string::npos);
  }

  TEST_CASE("sums beyond the type's range: exact, never wrapped") {
    constexpr std::uint32_t top = infinity<std::uint32_t>() - 1, inf = infinity<std::uint32_t>();
    // 0 -> 1 (top), 0 -> 2 (4), 1 -> 2 (5): d[1] + 5 wraps to 3 < 4 but really exceeds d[2].
    const auto g = make_csr<std::uint32_t>(3, {{0, 1, top}, {0, 2, 4}, {1, 2, 5}});
    CHECK(certified(g, 0, answer<std::uint32_t>({0, top, 4}, {-1, 0, 0})) == "");
    CHECK(certified(g, 0, answer<std::uint32_t>({0, top, 4})) == "");
    // 0 -> 1 (top), 1 -> 2 (5): vertex 2 is reachable beyond uint32; unreached is wrong, and so
    // is the wrapped value 3.
    const auto h = make_csr<std::uint32_t>(3, {{0, 1, top}, {1, 2, 5}});
    const std::string lost = certified(h, 0, answer<std::uint32_t>({0, top, inf}, {-1, 0, -1}));
    CHECK(lost.find("vertex 2 is reported unreached") != std::string::npos);
    const std::string wrapped = certified(h, 0, answer<std::uint32_t>({0, top, 3}, {-1, 0, 1}));
    CHECK(wrapped.find("vertex 2 (distance 3): no arc from its parent 1 is tight") !=
          std::string::npos);
    CHECK(names(certified(h, 0, answer<std::uint32_t>({0, top, 3})), 2));
    // int32 below its range: d[1] = lowest + 1, 1 -> 2 (-5) wraps to a large value.
    constexpr std::int32_t low = std::numeric_limits<std::int32_t>::lowest() + 1;
    const auto k = make_csr<std::int32_t>(3, {{0, 1, low}, {1, 2, -5}});
    const std::int32_t wrapped_low =
        static_cast<std::int32_t>(static_cast<std::uint32_t>(low) + static_cast<std::uint32_t>(-5));
    const std::string below = certified(k, 0, answer<std::int32_t>({0, low, wrapped_low}));
    CHECK(below.find("the distance of vertex 2 is too large") != std::string::npos);
    // float: d[1] + w rounds to +inf, which bounds nothing.
    constexpr float big = std::numeric_limits<float>::max();
    const auto f = make_csr<float>(3, {{0, 1, big}, {0, 2, 1.0f}, {1, 2, big}});
    CHECK(certified(f, 0, answer<float>({0, big, 1.0f}, {-1, 0, 0})) == "");
  }

  TEST_CASE("rejects NaN, a nonzero source, bad sizes and an incomplete cover") {
    const auto g = make_csr<double>(3, {{0, 1, 2.0}, {1, 2, 3.0}});
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(names(certified(g, 0, answer<double>({0, nan, 5})), 1));
    CHECK(certified(g, 0, answer<double>({1, 3, 6})).find("vertex 0 (the source): distance is 1") !=
          std::string::npos);
    CHECK(certify(g, 0, answer<double>({0, 2})).find("size mismatch") != std::string::npos);
    CHECK(certify(g, 3, answer<double>({0, 2, 5})).find("source 3 is out of range") !=
          std::string::npos);
    const result<double> good = answer<double>({0, 2, 5}, {-1, 0, 1});
    CHECK(certify(g, 0, good) == "");
    const auto ranges = partition_rows(g, 3);
    std::vector<certificate_part> parts;
    for (std::size_t k = 0; k + 1 < ranges.size(); ++k)
      parts.push_back(certify_rows(g, 0, good, ranges[k]));  // the last part missing
    CHECK(certify_combine(0, good, parts).find("cover") != std::string::npos);
  }

  TEST_CASE_TEMPLATE("the same text whatever the order of a row's arcs, for damaged answers", W,
                     std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, float, double) {
    int rejected = 0, cycles = 0, answers = 0;
    for (const auto& c : testing::test_graph_cases(48, 4700)) {
      CAPTURE(c.name());
      const csr<W> g = c.graph<W>();
      if (g.n == 0) continue;
      check_any_arc_order(g, c.source(g.n), rejected, cycles);
      if constexpr (std::is_signed_v<W>) {
        const auto k = testing::reweighted_case<W>(c);
        check_any_arc_order(k.g, k.source, rejected, cycles);
        const auto island = testing::with_planted_cycle(k, 3, false);
        check_any_arc_order(island.g, island.source, rejected, cycles);
      }
      ++answers;
    }
    CHECK(answers > 40);
    CHECK(rejected > 40 * 10);
    CHECK(cycles > 5);
  }
}
