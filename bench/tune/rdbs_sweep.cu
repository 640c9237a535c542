// RDBS's light phase (algorithms/rdbs_light_phase.cuh) under a few settings: the worker blocks,
// an idle worker's longest sleep, the degree renumbering, Eq. 1-2's per-bucket Δ, the steps its
// width moves in, the heavy phase's direction, and Δ_0 (its automatic scaling, or a factor of
// the unscaled one), on the graphs named (generator specs or files; default kron:20:16,
// kron:22:16, uniform, the grid and the shared New York road graph). Prints the median of 3
// solves after a warm-up and the report's time by part, every answer checked against the CPU
// Dijkstra. Built by the `tune` target; on a GPU machine, from the build folder:
//   bench/tune/tune_rdbs [--variants NAME,NAME,...] [spec ...]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../suite.hpp"
#include "rdbs_config.cuh"
#include "sweep_common.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/generate.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;
using tropic::detail::rdbs_config;
using tropic::detail::rdbs_report;

namespace {

bool failed = false;

struct variant {
  std::string name;
  rdbs_config cfg;
  double delta_factor = 1;  // delta_0 = this x the automatic one
};

// "paper" is section 4.3 as written: delta_0 unscaled, the width following Eq. 2 at every
// change, every heavy step a push; the delta factors below multiply that delta_0.
std::vector<variant> variants() {
  std::vector<variant> v;
  v.push_back({"default", rdbs_config{}});
  rdbs_config paper;
  paper.delta0_reference_arcs = 0;
  paper.delta_steps_per_octave = 0;
  paper.heavy_direction = direction::push;
  v.push_back({"paper", paper});
  rdbs_config push;
  push.heavy_direction = direction::push;
  v.push_back({"push", push});
  for (unsigned ns : {1024u, 4096u, 16384u}) {
    rdbs_config c;
    c.idle_sleep_ns = ns;
    v.push_back({ns == 1024 ? "sleep<=1us" : ns == 4096 ? "sleep<=4us" : "sleep<=16us", c});
  }
  for (unsigned b : {133u, 265u}) {
    rdbs_config c;
    c.max_worker_blocks = b;
    v.push_back({b == 133 ? "blocks=133" : "blocks=265", c});
  }
  rdbs_config c;
  c.reorder = true;
  v.push_back({"reorder", c});
  c = rdbs_config{};
  c.dynamic_delta = false;
  v.push_back({"static-delta", c});
  v.push_back({"delta/4", paper, 0.25});
  v.push_back({"delta/2", paper, 0.5});
  v.push_back({"delta*2", paper, 2});
  for (unsigned steps : {1u, 2u, 4u}) {
    const std::string name = "steps=" + std::to_string(steps);
    c = paper;
    c.delta_steps_per_octave = steps;
    v.push_back({name, c});
    v.push_back({"delta/2 " + name, c, 0.5});
    v.push_back({"delta/4 " + name, c, 0.25});
  }
  c = paper;
  c.delta0_reference_arcs = rdbs_config{}.delta0_reference_arcs;
  v.push_back({"scaled", c});
  return v;
}

std::vector<std::string> only;  // --variants a,b,...: these alone (default: all)

void sweep(const std::string& spec) {
  const bool file = spec.find(':') == std::string::npos;
  const csr<std::uint32_t> g =
      file ? read_graph<std::uint32_t>(spec) : generate<std::uint32_t>(spec, 1);
  device_matrix<std::uint32_t> a(g);
  // The first two sources that reach a hundredth of the graph.
  std::vector<vertex> sources;
  for (vertex s = 1; s < g.n && sources.size() < 2; s += 7919) {
    const auto want = dijkstra(g, s, false);
    const std::uint64_t reached = tune::reached(want.distances);
    if (reached * 100 < g.n) continue;
    sources.push_back(s);
    // The unscaled automatic delta_0, which the factors multiply.
    rdbs_config unscaled;
    unscaled.delta0_reference_arcs = 0;
    rdbs_report first;
    detail::rdbs_sssp_configured(a, s, options{}, unscaled, &first);
    const double automatic_delta = first.initial_delta;
    for (const variant& var : variants()) {
      if (!only.empty() && std::find(only.begin(), only.end(), var.name) == only.end()) continue;
      rdbs_report rep;
      options o;
      if (var.delta_factor != 1) o.delta = var.delta_factor * automatic_delta;
      detail::rdbs_sssp_configured(a, s, o, var.cfg, &rep);  // warm-up
      std::vector<double> ms;
      result<std::uint32_t> r;
      for (int k = 0; k < 3; ++k) {
        r = detail::rdbs_sssp_configured(a, s, o, var.cfg, &rep);
        ms.push_back(r.stats.milliseconds);
      }
      std::sort(ms.begin(), ms.end());
      tune::answer_ok(g, s, want.distances, r, spec + " " + var.name, failed);
      std::printf(
          "%-18s src %-8u %-12s %9.3f ms  reorder %.3f setup %.3f light %8.3f "
          "heavy %7.3f (%llu/%llu pulls) select %6.3f split %6.3f (%llu)  delta0 %g  "
          "buckets %5llu batches %8llu wait %3.0f%%  items %llu/%llu/%llu  arcs/m %.2f\n",
          spec.c_str(), s, var.name.c_str(), ms[1], rep.reorder_ms, rep.setup_ms, rep.light_ms,
          rep.heavy_ms, (unsigned long long)rep.heavy_pulls, (unsigned long long)rep.heavy_steps,
          rep.select_ms, rep.split_ms, (unsigned long long)rep.delta_changes,
          rep.initial_delta, (unsigned long long)r.stats.buckets,
          (unsigned long long)rep.batches, 100 * rep.wait_share,
          (unsigned long long)rep.small_items, (unsigned long long)rep.middle_items,
          (unsigned long long)rep.large_items, double(r.stats.arcs_relaxed) / double(g.arcs()));
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> specs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--variants" && i + 1 < argc) {
      only = bench::split_commas(argv[++i]);
      const std::vector<variant> known = variants();
      for (const std::string& name : only)
        if (std::none_of(known.begin(), known.end(),
                         [&](const variant& v) { return v.name == name; })) {
          std::fprintf(stderr, "tune_rdbs: unknown variant '%s'\n", name.c_str());
          return 2;
        }
    } else {
      specs.push_back(arg);
    }
  }
  if (specs.empty()) {
    specs = {"kron:20:16", "kron:22:16", "uniform:4194304:7", "grid:2048:2048"};
    const std::string ny = tune::data_path("USA-road-d.NY.gr.gz");
    if (!ny.empty()) specs.push_back(ny);
  }
  for (const auto& spec : specs) sweep(spec);
  return failed ? 1 : 0;
}
