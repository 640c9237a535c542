// A CPU model of delta-stepping's steps on a symmetric generated graph (Kronecker by default),
// counting for each light and heavy step what a pull over the step's part would read: the arcs
// of the rows above the floor (pull_floor, "live"; "open": the rows whose lightest arc is within
// the bound), those within each row's bound (row_bound: min(u) ⊗ weight < w(i), "bounded"), and
// those a row walk in weight order would read if it also stopped at its own running minimum
// ("running"); and the arcs a push from the frontier reads. The steps are synchronous (each step
// relaxes from the frontier's values before it), so the counts approximate the GPU's, whose
// pushes combine as they go. The numbers behind row_bound (semiring/agents/pull_row.cuh). Built by the
// `tune` target:
//   build/bench/tune/tune_pull_bound_model kron:22:16 2649658
// A third argument N finishes the search as one bucket (every arc light) after bucket N, as
// delta_stepping.cu's widened tail does: `... kron:22:16 2649658 0` prints the steps it takes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/generate.hpp"
#include "tropic/io.hpp"

using namespace tropic;
using W = std::uint32_t;

int main(int argc, char** argv) {
  const char* spec = argc > 1 ? argv[1] : "kron:22:16";
  const vertex source = argc > 2 ? vertex(std::atol(argv[2])) : 2649658;
  // A generator spec, or a file (read as the CLI reads it: hashed weights of seed 1).
  const std::string path = spec;
  read_options read;
  read.weight_seed = 1;
  csr<W> g = path.find(':') != std::string::npos ? generate<W>(spec, 1) : read_graph<W>(path, read);
  const graph_stats s = compute_stats(g);
  // The automatic Δ at a mean degree of 16 or more: choose_delta's 32 x mean weight / mean
  // degree, integral.
  // A fourth argument sets Δ (the library's choice below a mean degree of 16 differs: the CLI's
  // `-v` prints it).
  const W delta = argc > 4 ? W(std::atol(argv[4]))
                           : W(std::max(1.0, std::floor(32.0 * s.avg_weight /
                                                        std::max(1.0, s.avg_degree))));
  std::printf("%s: n %u, arcs %llu, delta %u, source %u\n", spec, g.n,
              (unsigned long long)g.arcs(), delta, source);
  // Rows sorted by weight, as the device matrix keeps them; light_end[v]: v's first heavy arc.
  std::vector<std::pair<W, vertex>> row;
  std::vector<arc_index> light_end(g.n);
  for (vertex v = 0; v < g.n; ++v) {
    const arc_index first = g.row_offsets[v], last = g.row_offsets[v + 1];
    row.clear();
    for (arc_index e = first; e < last; ++e) row.push_back({g.weights[e], g.columns[e]});
    std::sort(row.begin(), row.end());
    for (arc_index k = 0; k < row.size(); ++k) {
      g.weights[first + k] = row[k].first;
      g.columns[first + k] = row[k].second;
    }
    arc_index e = first;
    while (e < last && g.weights[e] <= delta) ++e;
    light_end[v] = e;
  }
  const W inf = infinity<W>();
  std::vector<W> t(g.n, inf);
  std::vector<char> in_frontier(g.n, 0), listed(g.n, 0);
  t[source] = 0;
  unsigned long long total[4] = {};  // push, live, bounded, running
  // One step: relax the light (or heavy) arcs of `frontier`; `next` gets the vertices that
  // improved into [lo, hi).
  auto step = [&](bool light, W lo, W hi, const std::vector<vertex>& frontier,
                  std::vector<vertex>* next) {
    auto first = [&](vertex v) { return light ? g.row_offsets[v] : light_end[v]; };
    auto last = [&](vertex v) { return light ? light_end[v] : g.row_offsets[v + 1]; };
    W least = inf;
    unsigned long long push = 0;
    for (vertex u : frontier) {
      least = std::min(least, t[u]);
      in_frontier[u] = 1;
      push += last(u) - first(u);
    }
    const W floor = least + (light ? 1 : delta + 1);  // the weights are integers from 1
    unsigned long long rows = 0, live = 0, bounded = 0, running = 0, open = 0;
    // Bytes pull_live_rows would request (a model, 32-byte sectors, 4-byte weights and
    // columns): w(i) of every row, the offsets and split of every row above the floor (empty
    // ones too), and per live row the weight sectors up to the end of the run (a lane's 8, a
    // group's 32, a warp's 128, a block's 1024 arcs) where the bound falls, the column sectors
    // of the arcs within it, a sector per gather. "lightest": the same with each row's lightest
    // weight kept beside w(i), so that only rows whose first arc is within the bound ("open")
    // read more than those two words.
    double bytes_now = 4.0 * g.n, bytes_lightest = 8.0 * g.n;
    auto sectors = [](arc_index a, arc_index b) {  // 4-byte items [a, b)
      return b > a ? double((4 * b - 1) / 32 - (4 * a) / 32 + 1) : 0.0;
    };
    for (vertex v = 0; v < g.n; ++v) {
      if (!(floor < t[v])) continue;
      bytes_now += 16;  // offsets and split
      if (first(v) == last(v)) continue;
      ++rows;
      live += last(v) - first(v);
      const bool row_open = least + g.weights[first(v)] < t[v];
      open += row_open;  // its lightest arc is within the bound
      const arc_index length = last(v) - first(v);
      const arc_index run = length <= 8 ? 8 : length <= 64 ? 32 : length <= 1024 ? 128 : 1024;
      arc_index kept = 0;
      while (kept < length && least + g.weights[first(v) + kept] < t[v]) ++kept;
      const arc_index read_to = std::min(last(v), first(v) + (kept / run + 1) * run);
      const double row_bytes =
          32 * (sectors(first(v), read_to) + sectors(first(v), first(v) + kept) + double(kept));
      bytes_now += row_bytes;
      if (row_open) bytes_lightest += 16 + row_bytes;
      W acc = inf;
      bool stopped = false;
      for (arc_index e = first(v); e < last(v); ++e) {
        const W w = g.weights[e];
        if (least + w < t[v]) ++bounded;
        if (stopped || least + w >= std::min(t[v], acc)) {
          stopped = true;
          continue;
        }
        ++running;
        if (in_frontier[g.columns[e]]) acc = std::min(acc, t[g.columns[e]] + w);
      }
    }
    std::vector<std::pair<vertex, W>> relaxed;
    for (vertex u : frontier)
      for (arc_index e = first(u); e < last(u); ++e)
        if (t[u] + g.weights[e] < t[g.columns[e]]) relaxed.push_back({g.columns[e], t[u] + g.weights[e]});
    for (vertex u : frontier) in_frontier[u] = 0;
    for (const auto& [v, x] : relaxed) {
      if (!(x < t[v])) continue;
      t[v] = x;
      if (next && lo <= x && x < hi && !listed[v]) {
        listed[v] = 1;
        next->push_back(v);
      }
    }
    if (next)
      for (vertex v : *next) listed[v] = 0;
    std::printf("  %s |B| %8zu push %10llu | pull rows %8llu (%8llu open) live %10llu bounded "
                "%10llu (%.2f) running %10llu (%.2f) | MB now %6.0f lightest %6.0f\n",
                light ? "light" : "heavy", frontier.size(), push, rows, open, live, bounded,
                live ? double(bounded) / double(live) : 0.0, running,
                live ? double(running) / double(live) : 0.0, bytes_now / 1e6,
                bytes_lightest / 1e6);
    total[0] += push;
    total[1] += live;
    total[2] += bounded;
    total[3] += running;
  };
  const int widen_after = argc > 3 ? std::atoi(argv[3]) : -1;
  bool wide = false;
  for (std::uint64_t i = 0;;) {
    W lo = W(i * delta), hi = W((i + 1) * delta);
    if (wide) hi = inf;
    if (wide) {
      // One bucket [lo, inf), every arc light: Bellman-Ford from here.
      std::printf("wide bucket [%u, inf)\n", lo);
      std::vector<vertex> B;
      for (vertex v = 0; v < g.n; ++v)
        if (lo <= t[v] && t[v] < hi) B.push_back(v);
      auto saved = light_end;
      for (vertex v = 0; v < g.n; ++v) light_end[v] = g.row_offsets[v + 1];
      while (!B.empty()) {
        std::vector<vertex> next;
        step(true, lo, hi, B, &next);
        B.swap(next);
      }
      light_end = saved;
      break;
    }
    std::printf("bucket %llu [%u, %u)\n", (unsigned long long)i, lo, hi);
    std::vector<vertex> B;
    for (vertex v = 0; v < g.n; ++v)
      if (lo <= t[v] && t[v] < hi) B.push_back(v);
    while (!B.empty()) {
      std::vector<vertex> next;
      step(true, lo, hi, B, &next);
      B.swap(next);
    }
    std::vector<vertex> S;
    for (vertex v = 0; v < g.n; ++v)
      if (lo <= t[v] && t[v] < hi) S.push_back(v);
    step(false, lo, hi, S, nullptr);
    W lowest = inf;
    for (vertex v = 0; v < g.n; ++v)
      if (t[v] >= hi && t[v] != inf) lowest = std::min(lowest, t[v]);
    if (lowest == inf) break;
    i = lowest / delta;
    // delta_stepping.cu's widened-tail test after this bucket: settled vertices and the next
    // bucket against the vertices with out-arcs.
    std::size_t settled_now = 0, next_bucket = 0;
    for (vertex v = 0; v < g.n; ++v) {
      settled_now += t[v] < hi;
      next_bucket += hi <= t[v] && t[v] < W(hi + delta);
    }
    std::printf("  after it: settled %zu + next bucket %zu = %.3f of the %llu vertices with arcs\n",
                settled_now, next_bucket,
                double(settled_now + next_bucket) / double(g.n - s.isolated),
                (unsigned long long)(g.n - s.isolated));
    if (widen_after >= 0 && i > std::uint64_t(widen_after)) wide = true;
  }
  std::printf("total: push %llu, live %llu, bounded %llu, running %llu\n", total[0], total[1],
              total[2], total[3]);
}
