// ADDS's tuning sweep (the experiment behind adds_tuning, algorithms/adds_queue.cuh): a few
// settings of the dynamic-Δ rule, the open buckets and the chunk sizes on grid:2048:2048 (the
// bench's road-like generator, seed 1), the DIMACS New York road graph when present, and kron:20;
// prints time, vertex work (rows scanned / reached vertices) and Δ for each, every answer
// verified against the CPU Dijkstra, then the Δ trace of the default setting on the grid. Built
// by the `tune` target; on a GPU machine, from the build folder:
//   bench/tune/tune_adds 'tuning sweep'
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "adds_queue.cuh"
#include "sweep_common.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/generate.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;
using tropic::detail::adds_config;
using tropic::detail::adds_report;
using tropic::detail::adds_trace_entry;
using tropic::detail::adds_tuning;

namespace {

bool failed = false;

void tuning_sweep() {
  struct variant {
    const char* name;
    adds_tuning t;
    bool dynamic = true;
  };
  std::vector<variant> variants;
  variants.push_back({"default", adds_tuning{}});
  adds_tuning v = adds_tuning{};
  v.raise_only_when_held_back = false;
  variants.push_back({"literal-rule", v});
  variants.push_back({"static", adds_tuning{}, false});
  for (double f : {0.25, 0.5, 2.0}) {
    v = adds_tuning{};
    v.initial_delta_factor = f;
    variants.push_back({f == 0.25 ? "delta/4" : f == 0.5 ? "delta/2" : "delta*2", v});
  }
  v = adds_tuning{};
  v.max_open_buckets = 16;  // the earlier knobs (the retired-slot redirect stays on)
  v.util_raise_ratio = v.delta_ceiling_ratio;
  variants.push_back({"old-knobs", v});
  v = adds_tuning{};
  v.max_open_buckets = 1;
  variants.push_back({"open=1", v});
  v = adds_tuning{};
  v.max_open_buckets = 4;
  variants.push_back({"open<=4", v});
  v = adds_tuning{};
  v.util_raise_ratio = 16;
  variants.push_back({"raise<=16x", v});
  v = adds_tuning{};
  v.util_raise_ratio = 1;  // only clipping raises delta
  variants.push_back({"raise<=1x", v});
  v.min_chunk = 128;
  variants.push_back({"raise<=1x,chunk>=128", v});
  v = adds_tuning{};
  v.min_chunk = 128;
  variants.push_back({"chunk>=128", v});

  auto sweep = [&](const std::string& name, const csr<std::uint32_t>& g) {
    device_matrix<std::uint32_t> a(g);
    for (vertex s : {vertex(0), vertex(g.n / 2 + 17)}) {
      const auto want = dijkstra(g, s, false);
      const std::uint64_t reached = tune::reached(want.distances);
      for (const auto& var : variants) {
        adds_config cfg;
        cfg.tuning = var.t;
        cfg.dynamic_delta = var.dynamic;
        cfg.trace_capacity = 4096;
        adds_report rep;
        detail::adds_sssp_configured(a, s, options{}, cfg, &rep);  // warm-up
        const auto r = detail::adds_sssp_configured(a, s, options{}, cfg, &rep);
        tune::answer_ok(g, s, want.distances, r, name + " " + var.name, failed);
        std::printf(
            "%-16s src %-8u %-13s %9.3f ms  work %6.2f  delta %10.4g -> %10.4g (%3llu changes,"
            " max %10.4g)  sweeps %8llu (%6.2f us)  assignments %9llu  retires %6llu\n",
            name.c_str(), s, var.name, r.stats.milliseconds,
            double(r.stats.vertices_relaxed) / double(reached), rep.initial_delta, rep.final_delta,
            (unsigned long long)rep.delta_changes, rep.max_delta, (unsigned long long)rep.sweeps,
            rep.sweeps ? 1000.0 * r.stats.milliseconds / double(rep.sweeps) : 0.0,
            (unsigned long long)rep.assignments, (unsigned long long)rep.retires);
        if (s == 0 && std::string(var.name) == "default" && name.rfind("grid", 0) == 0) {
          const std::size_t step = std::max<std::size_t>(1, rep.trace.size() / 40);
          for (std::size_t i = 0; i < rep.trace.size(); i += step) {
            const adds_trace_entry& e = rep.trace[i];
            std::printf(
                "    trace %9.3f ms sweep %8llu retires %6llu delta %10.4g util %7.3f "
                "held %5.2f clip %5.2f open %2d completed %10llu queued %8llu "
                "in_flight %7llu dec %d\n",
                e.ms, (unsigned long long)e.sweep, (unsigned long long)e.retires, e.delta,
                e.avg_util, e.held_back_share, e.clip_share, e.open,
                (unsigned long long)e.completed, (unsigned long long)e.queued,
                (unsigned long long)e.in_flight, e.decision);
          }
        }
        std::fflush(stdout);
      }
    }
  };
  sweep("grid:2048:2048", generate<std::uint32_t>("grid:2048:2048", 1));
  const std::string ny = tune::data_path("USA-road-d.NY.gr.gz");
  if (!ny.empty()) sweep("USA-road-d.NY", read_graph<std::uint32_t>(ny));
  sweep("kron:20", generate<std::uint32_t>("kron:20", 1));
}

}  // namespace

int main(int argc, char** argv) {
  return tune::run_sweeps(argc, argv, {{"tuning sweep", tuning_sweep}}, failed);
}
