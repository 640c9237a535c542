// verify(): checks an SSSP result against reference distances and, when present, checks that its
// parents form a shortest-path tree of g. Parents are validated by arc existence and
// dist[p] + w(p, v) == dist[v], never by equality with another algorithm's tree: ties make
// parents legitimately nondeterministic.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "tropic/sssp.hpp"

namespace tropic {

namespace {

template <class W>
std::string show(W w) {
  return w == infinity<W>() ? "inf" : weight_string(w);
}

// Integers exactly; floats within 1e-5 relative, or 1e-5 absolute below magnitude 1, where a
// relative bound would demand more than the summation order of different algorithms gives.
template <class W>
bool close(W a, W b) noexcept {
  if constexpr (std::is_floating_point_v<W>) {
    const double x = a, y = b;
    return std::fabs(x - y) <= 1e-5 * std::max({1.0, std::fabs(x), std::fabs(y)});
  } else {
    return a == b;
  }
}

// dist[p] + w == dist[v], without overflow for integers.
template <class W>
bool tight(W dist_p, W w, W dist_v) noexcept {
  if constexpr (std::is_floating_point_v<W>) {
    return close<W>(dist_p + w, dist_v);
  } else {
    W sum;
    return !__builtin_add_overflow(dist_p, w, &sum) && sum == dist_v;
  }
}

class problem_log {
 public:
  void add(std::string line) {
    if (count_ < shown) text_ += "  " + line + "\n";
    ++count_;
  }
  std::size_t count() const noexcept { return count_; }
  std::string report() const {
    if (count_ == 0) return {};
    std::string out =
        std::to_string(count_) + (count_ == 1 ? " problem" : " problems") + ":\n" + text_;
    if (count_ > shown) out += "  ... and " + std::to_string(count_ - shown) + " more\n";
    return out;
  }

 private:
  static constexpr std::size_t shown = 5;
  std::string text_;
  std::size_t count_ = 0;
};

}  // namespace

template <class W>
std::string verify(const csr<W>& g, vertex source, const std::vector<W>& want,
                   const result<W>& got) {
  const std::vector<W>& dist = got.distances;
  if (source >= g.n)
    return "source " + std::to_string(source) + " is out of range: the graph has " +
           std::to_string(g.n) + " vertices";
  if (want.size() != g.n || dist.size() != g.n)
    return "size mismatch: the graph has " + std::to_string(g.n) + " vertices, the reference has " +
           std::to_string(want.size()) + " distances, the result " + std::to_string(dist.size());
  if (!got.parents.empty() && got.parents.size() != g.n)
    return "size mismatch: the graph has " + std::to_string(g.n) + " vertices, the result " +
           std::to_string(got.parents.size()) + " parents";

  problem_log log;
  for (vertex v = 0; v < g.n; ++v) {
    const bool want_reached = want[v] != infinity<W>(), got_reached = dist[v] != infinity<W>();
    if constexpr (std::is_floating_point_v<W>) {
      if (std::isnan(dist[v])) {
        log.add("vertex " + std::to_string(v) + ": distance is NaN, expected " + show(want[v]));
        continue;
      }
    }
    if (want_reached != got_reached) {
      log.add("vertex " + std::to_string(v) + ": " +
              (want_reached ? "reachable at distance " + show(want[v]) + " but reported unreachable"
                            : "unreachable but reported at distance " + show(dist[v])));
    } else if (want_reached && !close(want[v], dist[v])) {
      log.add("vertex " + std::to_string(v) + ": distance " + show(dist[v]) + ", expected " +
              show(want[v]));
    }
  }

  if (!got.parents.empty()) {
    const auto& parent = got.parents;
    // A parent is checked against the result's own distances, so one wrong distance is reported
    // once above and not again for every child.
    std::vector<char> valid(g.n, 0);  // parent[v] is individually valid (or v is a root)
    for (vertex v = 0; v < g.n; ++v) {
      const std::int64_t p = parent[v];
      const std::string who = "parent of vertex " + std::to_string(v);
      if (v == source || dist[v] == infinity<W>()) {
        if (p != -1)
          log.add(who + " is " + std::to_string(p) + ", expected -1 (" +
                  (v == source ? "the source" : "unreachable") + ")");
        else
          valid[v] = 1;
        continue;
      }
      if (p < 0 || p >= static_cast<std::int64_t>(g.n)) {
        log.add(who + " is " + std::to_string(p) + ", not a vertex (the vertex is reached)");
        continue;
      }
      const auto u = static_cast<vertex>(p);
      if (dist[u] == infinity<W>()) {
        log.add(who + " is " + std::to_string(u) + ", which is unreachable");
        continue;
      }
      // Among parallel arcs u -> v, any one that is tight will do.
      bool has_arc = false, is_tight = false;
      W lightest = infinity<W>();
      const auto first = g.columns.begin() + static_cast<std::ptrdiff_t>(g.row_offsets[u]);
      const auto last = g.columns.begin() + static_cast<std::ptrdiff_t>(g.row_offsets[u + 1]);
      for (auto it = std::lower_bound(first, last, v); it != last && *it == v; ++it) {
        const W w = g.weights[static_cast<std::size_t>(it - g.columns.begin())];
        has_arc = true;
        lightest = std::min(lightest, w);
        is_tight = is_tight || tight(dist[u], w, dist[v]);
      }
      if (!has_arc) {
        log.add(who + " is " + std::to_string(u) + ", but there is no arc " + std::to_string(u) +
                " -> " + std::to_string(v));
      } else if (!is_tight) {
        log.add(who + " is " + std::to_string(u) + ", but dist[" + std::to_string(u) +
                "] + w = " + show(dist[u]) + " + " + show(lightest) + " != dist[" +
                std::to_string(v) + "] = " + show(dist[v]));
      } else {
        valid[v] = 1;
      }
    }

    // Tight arcs alone do not make a tree: with zero weights, parents can form a cycle of equal
    // distances that never leads back to the source. Follow every chain of valid parents.
    enum : char { unknown = 0, on_path = 1, rooted = 2, broken = 3 };
    std::vector<char> state(g.n, unknown);
    std::vector<vertex> path;
    for (vertex v = 0; v < g.n; ++v) {
      if (state[v] != unknown || dist[v] == infinity<W>()) continue;
      path.clear();
      vertex x = v;
      char outcome = broken;
      for (;;) {
        if (state[x] == rooted || state[x] == broken) {
          outcome = state[x];
          break;
        }
        if (state[x] == on_path) {
          log.add("the parent chain of vertex " + std::to_string(v) +
                  " runs into a cycle through vertex " + std::to_string(x) +
                  " and never reaches the source");
          break;
        }
        if (!valid[x]) break;  // reported above
        if (x == source) {
          outcome = rooted;
          break;
        }
        state[x] = on_path;
        path.push_back(x);
        x = static_cast<vertex>(parent[x]);
      }
      for (vertex y : path) state[y] = outcome;
      if (x == source && outcome == rooted) state[x] = rooted;
    }
  }
  return log.report();
}

#define TROPIC_INSTANTIATE(W) \
  template std::string verify<W>(const csr<W>&, vertex, const std::vector<W>&, const result<W>&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)
#undef TROPIC_INSTANTIATE

}  // namespace tropic
