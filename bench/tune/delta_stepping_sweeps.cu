// Delta-stepping's tuning sweeps: the measurements behind algorithms/policy.hpp (the automatic
// Δ's multiples, the light closure's local rounds), the closure's limits (closure_limits,
// semiring/tropic/tuning.hpp) and the direction switch (descriptor::pull_ratio,
// pull_arc_ratio). Each answer is verified against the CPU Dijkstra. Built by the `tune`
// target; on a GPU machine, from the build folder:
//   bench/tune/tune_delta_stepping 'closure sweep'     (or 'direction sweep', 'direction arc
//   sweep', 'grid anatomy', 'queue sweep', 'hop latency', 'round trips'; several, or none)
// Graphs: the bench's generated graphs (seed 1) and the shared real graphs that are present.
#include <cuda_runtime.h>

#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "policy.hpp"
#include "sweep_common.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/device_loop.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/generate.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;

namespace {

bool failed = false;

const std::vector<std::string> shared_graphs = {"USA-road-d.NY.gr.gz", "mdual.mtx.gz",
                                                "cnr-2000.el.gz", "soc-Slashdot0902.txt.gz"};

// The median solve time of `runs` solves after a warm-up; r is the last solve.
double median_solve(const device_matrix<std::uint32_t>& a, vertex s, const options& o,
                    const closure_limits& limits, const descriptor& desc, int runs,
                    result<std::uint32_t>& r) {
  detail::delta_stepping_configured(a, s, o, limits, desc);  // warm-up
  std::vector<double> ms;
  for (int run = 0; run < runs; ++run) {
    r = detail::delta_stepping_configured(a, s, o, limits, desc);
    ms.push_back(r.stats.milliseconds);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// delta_stepping's median_solve from s at Δ `delta` (0: automatic) under `limits`, its answer
// checked against Dijkstra's distances `want`.
double checked_solve(const csr<std::uint32_t>& g, const device_matrix<std::uint32_t>& a, vertex s,
                     const std::vector<std::uint32_t>& want, double delta,
                     const closure_limits& limits, int runs, const std::string& name,
                     result<std::uint32_t>& r) {
  options o;
  o.algorithm = algorithm::delta_stepping;
  o.delta = delta;
  const double ms = median_solve(a, s, o, limits, descriptor{}, runs, r);
  tune::answer_ok(g, s, want, r, name, failed);
  return ms;
}

// From two sources that reach at least 1,000 vertices, every labelled descriptor's median solve
// of 3 after a warm-up, printed with its steps, buckets, host round trips and vertex work.
struct labelled_descriptor {
  std::string label;
  descriptor desc;
};
void sweep_descriptors(const std::string& name, const csr<std::uint32_t>& g,
                       const device_matrix<std::uint32_t>& a, const closure_limits& limits,
                       const std::vector<labelled_descriptor>& settings) {
  for (vertex s : {vertex(0), vertex(g.n / 2 + 17)}) {
    const auto want = dijkstra(g, s, false);
    const std::uint64_t reached = tune::reached(want.distances);
    if (reached < 1000) continue;  // a source in a small component measures nothing
    for (const auto& setting : settings) {
      options o;
      o.algorithm = algorithm::delta_stepping;
      result<std::uint32_t> r;
      const double ms = median_solve(a, s, o, limits, setting.desc, 3, r);
      tune::answer_ok(g, s, want.distances, r, name + " " + setting.label, failed);
      std::printf(
          "%-24s src %-8u transpose %d %-18s %9.3f ms  steps %5llu  buckets %4llu  "
          "round trips %4llu  work %6.2f\n",
          name.c_str(), s, int(a.has_transpose()), setting.label.c_str(), ms,
          (unsigned long long)r.stats.iterations, (unsigned long long)r.stats.buckets,
          (unsigned long long)r.stats.host_round_trips,
          double(r.stats.vertices_relaxed) / double(reached));
      std::fflush(stdout);
    }
  }
}

unsigned sm_count() {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  return unsigned(sms);
}

// "closure sweep": for grid:2048:2048 and the shared real graphs, two sources each: Δ (a
// multiple of the heuristic's) x local rounds (~0u: until the queue runs dry) x blocks (1 and 2
// per SM), lanes per row from the mean degree; the median time of 3 runs, global steps, buckets
// and vertex work (rows pushed / reached vertices).
void closure_sweep() {
  auto sweep = [](const std::string& name, const csr<std::uint32_t>& g) {
    const device_matrix<std::uint32_t> a(g);
    const double delta0 = choose_delta(a.stats());
    for (vertex s : {vertex(0), vertex(g.n / 2 + 17)}) {
      const auto want = dijkstra(g, s, false);
      const std::uint64_t reached = tune::reached(want.distances);
      for (double factor : {2.0, 4.0, 8.0})
        for (unsigned rounds : {4u, 8u, 16u, 32u, 64u, ~0u})
          for (unsigned lanes : {0u})
            for (unsigned blocks : {sm_count(), 2 * sm_count()}) {
              closure_limits limits;
              limits.local_rounds = rounds;
              limits.group_lanes = lanes;
              limits.blocks = blocks;
              result<std::uint32_t> r;
              const double ms =
                  checked_solve(g, a, s, want.distances, delta0 * factor, limits, 3, name, r);
              std::printf(
                  "%-16s src %-8u delta %9.4g x%g rounds %-3u lanes %u blocks %-3u "
                  "%9.3f ms  steps %7llu  buckets %6llu  device buckets %6llu  "
                  "work %6.2f\n",
                  name.c_str(), s, r.stats.delta, factor, rounds, lanes, blocks, ms,
                  (unsigned long long)r.stats.iterations, (unsigned long long)r.stats.buckets,
                  (unsigned long long)r.stats.device_loop_buckets,
                  double(r.stats.vertices_relaxed) / double(reached));
              std::fflush(stdout);
            }
    }
  };
  sweep("grid:2048:2048", generate<std::uint32_t>("grid:2048:2048", 1));
  tune::for_each_shared_graph(shared_graphs, sweep);
}

// "queue sweep": the closure's queue on graphs of short rows (grids 2048² and 4096², the road and
// mesh graphs), two sources each: a block's queue capacity (closure_limits::queue_items; rows
// beyond it are listed for the next step, where the whole grid shares them) x blocks per SM (1
// or tuning::device_loop_blocks_per_sm: bucket_loop's launch bound leaves registers for no more;
// grid 4096² runs the instance bound to three, here launched with 1 or 2), the automatic Δ, local
// rounds and lanes; the median of 5 runs, global steps and vertex work.
void queue_sweep() {
  auto sweep = [](const std::string& name, const csr<std::uint32_t>& g) {
    const device_matrix<std::uint32_t> a(g);
    if (a.stats().max_degree > policy::delta_stepping::closure_local_rounds_max_degree) return;
    for (vertex s : {vertex(0), vertex(g.n / 2 + 17)}) {
      const auto want = dijkstra(g, s, false);
      const std::uint64_t reached = tune::reached(want.distances);
      for (unsigned queue : {64u, 128u, tuning::closure_queue_items})
        for (unsigned per_sm : {1u, tuning::device_loop_blocks_per_sm}) {
          closure_limits limits;
          limits.queue_items = queue;
          limits.blocks = per_sm * sm_count();
          result<std::uint32_t> r;
          const double ms = checked_solve(g, a, s, want.distances, 0, limits, 5, name, r);
          std::printf(
              "%-20s src %-8u queue %-3u blocks/SM %u %9.3f ms  steps %5llu  buckets %4llu  "
              "work %5.2f\n",
              name.c_str(), s, queue, per_sm, ms, (unsigned long long)r.stats.iterations,
              (unsigned long long)r.stats.buckets,
              double(r.stats.vertices_relaxed) / double(reached));
          std::fflush(stdout);
        }
    }
  };
  sweep("grid:2048:2048", generate<std::uint32_t>("grid:2048:2048", 1));
  sweep("grid:4096:4096", generate<std::uint32_t>("grid:4096:4096", 1));
  tune::for_each_shared_graph(shared_graphs, sweep);
}

// "direction sweep": the direction switch of the host-driven steps (descriptor::pull_ratio:
// pull when the frontier holds more than n / pull_ratio rows; 0 stands for push only), on the
// bench's generated graphs and the shared real graphs, the automatic Δ and loop.
void direction_sweep() {
  std::vector<labelled_descriptor> settings;
  for (unsigned ratio : {0u, 2u, 4u, 8u, 16u, 32u, 64u}) {
    descriptor desc;
    if (ratio == 0)
      desc.dir = direction::push;
    else
      desc.pull_ratio = ratio;
    settings.push_back({"pull_ratio " + std::to_string(ratio), desc});
  }
  auto sweep = [&](const std::string& name, const csr<std::uint32_t>& g) {
    sweep_descriptors(name, g, device_matrix<std::uint32_t>(g), closure_limits{}, settings);
  };
  for (const char* spec : {"kron:20:16", "kron:22:16", "uniform:4194304:7", "grid:2048:2048"})
    sweep(spec, generate<std::uint32_t>(spec, 1));
  tune::for_each_shared_graph(shared_graphs, sweep);
}

// "direction arc sweep": the arc count behind the direction switch on skewed graphs
// (descriptor::pull_arc_ratio: for a frontier between n / 64 and n / pull_ratio rows, pull when
// its arcs exceed A''s over the ratio; 0: rows only), the automatic Δ, loop and closure limits.
void direction_arc_sweep() {
  std::vector<labelled_descriptor> settings;
  for (unsigned ratio : {0u, 2u, 3u, 4u, 6u, 8u}) {
    descriptor desc;
    desc.pull_arc_ratio = ratio;
    settings.push_back({"pull_arc_ratio " + std::to_string(ratio), desc});
  }
  auto sweep = [&](const std::string& name, const csr<std::uint32_t>& g) {
    const device_matrix<std::uint32_t> a(g);
    if (double(a.stats().max_degree) < tuning::skewed_degree_ratio * a.stats().avg_degree)
      return;               // not skewed: the arcs are never counted
    closure_limits limits;  // as delta_stepping_sssp sets them
    if (a.stats().max_degree > policy::delta_stepping::closure_local_rounds_max_degree)
      limits.local_rounds = 0;
    sweep_descriptors(name, g, a, limits, settings);
  };
  for (const char* spec : {"kron:20:16", "kron:22:16"})
    sweep(spec, generate<std::uint32_t>(spec, 1));
  tune::for_each_shared_graph(shared_graphs, sweep);
}

// "grid anatomy": where a long, thin search's time goes. (1) The device-driven loop's cost per
// bucket apart from its light closure (the select of the next bucket, reduce_min, the bucket
// step, the closure's launch): a chain of 1,000 arcs of weight 1,000 at Δ 1,001, one vertex and
// one bucket per arc, among 4M vertices (the select and the reduction read all of t) and among
// 1,001. (2) The grid's and the shared graphs' solves with and without
// closure_limits::prefetch_queued_rows, and with 0, 4 and 64 local rounds. Median of 5.
void grid_anatomy() {
  for (vertex n : {vertex(1001), vertex(1) << 22}) {
    arc_list<std::uint32_t> arcs;
    arcs.n = n;
    for (vertex v = 0; v < 1000; ++v) arcs.push_back(v, v + 1, 1000);
    const csr<std::uint32_t> g = build_csr(arcs);
    const device_matrix<std::uint32_t> a(g);
    options o;
    o.algorithm = algorithm::delta_stepping;
    o.delta = 1001;
    o.loop = loop_control::device;
    result<std::uint32_t> r;
    const double ms = median_solve(a, 0, o, closure_limits{}, descriptor{}, 5, r);
    tune::answer_ok(g, 0, dijkstra(g, 0, false).distances, r, "chain", failed);
    std::printf("chain of 1000 among n %-8u %9.3f ms  buckets %5llu  %7.2f us per bucket\n", n, ms,
                (unsigned long long)r.stats.buckets, 1000.0 * ms / double(r.stats.buckets));
    std::fflush(stdout);
  }
  auto sweep = [&](const std::string& name, const csr<std::uint32_t>& g) {
    const device_matrix<std::uint32_t> a(g);
    for (vertex s : {vertex(0), vertex(g.n / 2 + 17)}) {
      const auto want = dijkstra(g, s, false);
      const std::pair<bool, unsigned> variants[] = {{false, tuning::closure_local_rounds},
                                                    {true, tuning::closure_local_rounds},
                                                    {true, 0u},
                                                    {true, 4u},
                                                    {true, 64u}};
      for (const auto& [prefetch, rounds] : variants) {
        closure_limits limits;
        limits.prefetch_queued_rows = prefetch;
        limits.local_rounds = rounds;
        result<std::uint32_t> r;
        const double ms = checked_solve(g, a, s, want.distances, 0, limits, 5, name, r);
        std::printf(
            "%-20s src %-8u prefetch %d rounds %-3u %9.3f ms  steps %6llu  buckets %5llu  "
            "device buckets %5llu  work %5.2f\n",
            name.c_str(), s, int(prefetch), rounds, ms, (unsigned long long)r.stats.iterations,
            (unsigned long long)r.stats.buckets, (unsigned long long)r.stats.device_loop_buckets,
            double(r.stats.vertices_relaxed) / double(g.n));
        std::fflush(stdout);
      }
    }
  };
  sweep("grid:2048:2048", generate<std::uint32_t>("grid:2048:2048", 1));
  tune::for_each_shared_graph(shared_graphs, sweep);
}

// "hop latency": what one hop of the closure's local rounds costs, apart from buckets and
// frontiers. `width` paths of `length` unit arcs from vertex 0, at Δ = ∞ (one bucket): with
// local rounds until the queue runs dry the whole search is one step of `length` rounds, each
// round `width` rows in the first block's queue; with 16 rounds and none, the steps' own cost
// shows beside it. Median of 5.
void hop_latency() {
  for (vertex width : {vertex(1), vertex(64), vertex(1024)}) {
    const vertex length = 2000;
    arc_list<std::uint32_t> arcs;
    arcs.n = 1 + width * length;
    for (vertex p = 0; p < width; ++p) {
      const vertex head = 1 + p * length;
      arcs.push_back(0, head, 1);
      for (vertex k = 0; k + 1 < length; ++k) arcs.push_back(head + k, head + k + 1, 1);
    }
    const csr<std::uint32_t> g = build_csr(arcs);
    const device_matrix<std::uint32_t> a(g);
    const auto want = dijkstra(g, 0, false);
    for (unsigned rounds : {~0u, 16u, 0u}) {
      options o;
      o.algorithm = algorithm::delta_stepping;
      o.delta = std::numeric_limits<double>::infinity();
      o.loop = loop_control::device;
      closure_limits limits;
      limits.local_rounds = rounds;
      result<std::uint32_t> r;
      const double ms = median_solve(a, 0, o, limits, descriptor{}, 5, r);
      tune::answer_ok(g, 0, want.distances, r, "paths", failed);
      std::printf("%5u paths of %u  rounds %-10u %8.3f ms  steps %5llu  %6.3f us per hop\n", width,
                  length, rounds, ms, (unsigned long long)r.stats.iterations,
                  1000.0 * ms / double(length));
      std::fflush(stdout);
    }
  }
}

// One thread's chain of `hops` dependent accesses to a 4 MB array (in L2 after the first pass):
// an L2 load (ld.global.cg, past L1), a relaxed device-scope load (as value_now), or an atomic
// min that returns the old value (as a push); a load and an atomic issued together (a hop that
// overlaps them costs the slower); or a block's chain of barriers; or a local round's skeleton:
// thread 0's atomic, its slot in a shared queue, the barriers, the queue read back.
enum class access { load, relaxed_load, atomic, barrier, round, load_atomic, relaxed_atomic };
__global__ void chase(unsigned* next, unsigned hops, access kind, unsigned* out) {
  __shared__ unsigned queued, queue[4];
  if (threadIdx.x == 0) queued = 0;
  __syncthreads();
  unsigned i = threadIdx.x;
  for (unsigned h = 0; h < hops; ++h) {
    switch (kind) {
      case access::round:
        if (threadIdx.x == 0) queue[atomicAdd(&queued, 1u) % 4] = atomicMin(next + i, ~0u);
        __syncthreads();
        i = queue[(queued - 1) % 4];
        __syncthreads();
        if (threadIdx.x == 0) queued = 0;
        break;
      case access::load:
        i = __ldcg(next + i);
        break;
      case access::relaxed_load:
        i = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(next[i]).load(
            cuda::memory_order_relaxed);
        break;
      case access::atomic:
        i = atomicMin(next + i, ~0u);  // never lowers: next[i] stays the chain's link
        break;
      case access::load_atomic:  // both at once: the hop costs the slower, if they overlap
        i = __ldcg(next + i) ^ atomicMin(next + (i ^ 1), ~0u) ^ next[i ^ 1];
        break;
      case access::relaxed_atomic:
        i = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(next[i]).load(
                cuda::memory_order_relaxed) ^
            atomicMin(next + (i ^ 1), ~0u) ^ next[i ^ 1];
        break;
      case access::barrier:
        __syncthreads();
        i += h;
        break;
    }
  }
  if (i == ~0u) *out = i;  // keeps the chain alive
}

// "round trips": what a hop's parts cost alone (chase), one thread's chain or 256 threads' side
// by side in one block: the median of 5 timed launches of 100,000 hops over a random cycle
// through 1M entries, after a warm-up launch, in ns a hop.
void round_trips() {
  const unsigned entries = 1u << 20, hops = 100000;
  std::vector<unsigned> cycle(entries), next(entries);
  for (unsigned k = 0; k < entries; ++k) cycle[k] = k;
  std::uint64_t state = 12345;
  for (unsigned k = entries - 1; k > 0; --k) {  // Fisher-Yates with a fixed LCG
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    std::swap(cycle[k], cycle[(state >> 33) % (k + 1)]);
  }
  for (unsigned k = 0; k < entries; ++k) next[cycle[k]] = cycle[(k + 1) % entries];
  unsigned *d_next = nullptr, *d_out = nullptr;
  cudaMalloc(&d_next, entries * sizeof(unsigned));
  cudaMalloc(&d_out, sizeof(unsigned));
  cudaMemcpy(d_next, next.data(), entries * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  const std::pair<const char*, access> kinds[] = {
      {"L2 load (ld.cg)", access::load},
      {"relaxed device load", access::relaxed_load},
      {"atomic min, returned", access::atomic},
      {"block barrier", access::barrier},
      {"local round skeleton", access::round},
      {"L2 load + atomic", access::load_atomic},
      {"relaxed load + atomic", access::relaxed_atomic}};
  for (const auto& [label, kind] : kinds)
    for (unsigned threads : {1u, 256u}) {
      std::vector<float> ms;
      for (int run = 0; run < 6; ++run) {
        cudaEventRecord(start);
        chase<<<1, threads>>>(d_next, hops, kind, d_out);
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float t = 0;
        cudaEventElapsedTime(&t, start, stop);
        if (run > 0) ms.push_back(t);
      }
      std::sort(ms.begin(), ms.end());
      std::printf("%-22s threads %3u  %7.1f ns a hop\n", label, threads,
                  1e6 * ms[ms.size() / 2] / hops);
    }
  if (cudaGetLastError() != cudaSuccess) failed = true;
  cudaFree(d_next);
  cudaFree(d_out);
}

}  // namespace

int main(int argc, char** argv) {
  return tune::run_sweeps(argc, argv,
                          {{"closure sweep", closure_sweep},
                           {"direction sweep", direction_sweep},
                           {"direction arc sweep", direction_arc_sweep},
                           {"grid anatomy", grid_anatomy},
                           {"queue sweep", queue_sweep},
                           {"hop latency", hop_latency},
                           {"round trips", round_trips}},
                          failed);
}
