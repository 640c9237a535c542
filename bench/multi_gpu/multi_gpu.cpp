// tropic_bench_multi_gpu: delta-stepping on one GPU and on several GPUs of this host, on the same
// generated graph and sources, in one run (issue 38). Each part is generated on its own device
// (generate_on_device; --host-generate: by a host thread, generate_rows, then uploaded): the
// graph never passes through one host array unless --check asks for the host reference, or
// --from-csr builds the split as tropic bench --devices does (the whole graph generated on the
// host, its rows partitioned by partition_rows, then uploaded).
//
//   tropic_bench_multi_gpu GRAPH [--devices 0,1,2,3] [--sources K | --source-list S,S,...]
//                          [--runs R] [--seed S] [--only-all] [--no-one-gpu]
//                          [--host-generate | --from-csr] [--certify] [--certify-host]
//                          [--check] [--profile] [--delta D] [--loop auto|host|device]
//
// For every device set (the first device alone, then the first 2, 4, ... of the list, then the
// whole list; --only-all: the whole list alone): the matrix is built, then for each source one
// warm-up solve and R timed solves (stats.milliseconds: every device's work, from the ranks'
// first meeting to their last). Then one GPU's own delta_stepping (tropic::sssp on a
// device_matrix of the whole graph, generated on the first device; skipped when it does not fit)
// on the same sources, the baseline of the speedups printed last. The answers of every set are
// compared with the first set's, exactly. --certify: the whole list's answers, with parents,
// certified part by part, each on its GPU (tropic::certify over the distributed matrix), for
// graphs too large for the reference; --certify-host: each also by certify_on_host (every part's
// arcs copied to the host), timed, its text compared; --check: the whole graph generated on the
// host and the first set's answers certified against it. GTEPS = arcs / median time, as in the
// bench. --profile: after each source's timed runs, one more solve that says where its time went
// on rank 0 (tropic::distributed_profile: the relax, exchange and select phases and the time
// between them; across them the solver's own waits, the host meetings and NCCL's time on the
// stream; steps, pulls, entries gathered), then each step's direction, frontier, and every
// rank's relax time (and a pull's gather of the frontier within it), improved entries and
// exchange time (and its route kernel, NCCL transfers and apply kernels). --delta: the
// distributed solves' Δ (options::delta; one GPU's keeps its automatic one). --loop: their
// options::loop (host: every light step an exchange; device: closure rounds; default auto).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "tropic/distributed.hpp"
#include "tropic/error.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/generate.hpp"
#include "tropic/generate_device.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;
using W = std::uint32_t;

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A comma-separated list of non-negative integers below `limit`.
std::vector<std::uint64_t> parse_list(const std::string& option, const std::string& list,
                                      std::uint64_t limit) {
  std::vector<std::uint64_t> out;
  std::size_t at = 0;
  while (at <= list.size()) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    const std::string token = list.substr(at, comma - at);
    if (token.empty() || token.size() > 19 ||
        token.find_first_not_of("0123456789") != std::string::npos ||
        std::stoull(token) >= limit)
      throw error(error_code::invalid_value, option + ": '" + token + "' is not an integer below " +
                                                 std::to_string(limit));
    out.push_back(std::stoull(token));
    at = comma + 1;
  }
  return out;
}

int usage() {
  std::fprintf(stderr,
               "usage: tropic_bench_multi_gpu GRAPH [--devices 0,1,...] [--sources K | "
               "--source-list S,S,...] [--runs R] [--seed S] [--only-all] [--no-one-gpu] "
               "[--host-generate | --from-csr] [--certify] [--certify-host] [--check] "
               "[--profile] [--delta D] [--loop auto|host|device]\n"
               "  GRAPH: kron:SCALE[:EF] or grid:ROWS:COLS (uniform:N:DEG with --host-generate)\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc < 2) return usage();
  const std::string spec = argv[1];
  std::vector<int> devices;
  std::size_t sources_wanted = 4, runs = 5;
  std::uint64_t seed = 1;
  bool check = false, only_all = false, one_gpu = true, host_generate = false, certify_all = false;
  bool certify_host = false, profile = false, from_csr = false;
  options solve;  // the distributed solves' options
  std::vector<vertex> sources;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw error(error_code::invalid_value, a + " needs a value");
      return argv[++i];
    };
    if (a == "--devices") {
      for (std::uint64_t d : parse_list(a, value(), 1024)) devices.push_back(int(d));
    }
    else if (a == "--sources") sources_wanted = std::stoul(value());
    else if (a == "--runs") runs = std::max<std::size_t>(1, std::stoul(value()));
    else if (a == "--seed") seed = std::stoull(value());
    else if (a == "--check") check = true;
    else if (a == "--only-all") only_all = true;
    else if (a == "--no-one-gpu") one_gpu = false;
    else if (a == "--host-generate") host_generate = true;
    else if (a == "--from-csr") from_csr = true;
    else if (a == "--source-list") {
      for (std::uint64_t v : parse_list(a, value(), std::uint64_t(1) << 32))
        sources.push_back(vertex(v));
    }
    else if (a == "--certify") certify_all = true;
    else if (a == "--certify-host") certify_all = certify_host = true;
    else if (a == "--profile") profile = true;
    else if (a == "--delta") solve.delta = std::stod(value());
    else if (a == "--loop") solve.loop = parse_loop_control(value());
    else return usage();
  }
  if (devices.empty()) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
      throw error(error_code::no_device, "no CUDA device is usable");
    for (int d = 0; d < count; ++d) devices.push_back(d);
  }
  std::vector<std::vector<int>> sets;
  if (!only_all) {
    sets.push_back({devices[0]});
    for (std::size_t k = 2; k < devices.size(); k *= 2)
      sets.emplace_back(devices.begin(), devices.begin() + k);
  }
  if (devices.size() > 1 || sets.empty()) sets.push_back(devices);

  if (host_generate && from_csr) return usage();
  const vertex n = graph_spec_vertices(spec);
  auto block = [&](row_range rows) { return generate_rows<W>(spec, seed, rows); };
  // Kronecker and grid graphs are symmetric by construction: the solve may pull.
  const bool symmetric = spec.rfind("kron:", 0) == 0 || spec.rfind("grid:", 0) == 0;
  const csr<W> whole_csr = from_csr ? generate<W>(spec, seed) : csr<W>{};
  auto split = [&](const std::vector<int>& set) {
    return from_csr        ? distributed_matrix<W>(whole_csr, set)
           : host_generate ? distributed_matrix<W>(n, set, block, symmetric)
                           : distributed_matrix<W>(spec, seed, set);
  };
  const char* how = from_csr        ? "generated on the host, split by partition_rows, uploaded"
                    : host_generate ? "generated on the host and uploaded"
                                    : "generated on the devices";
  std::printf("graph %s (seed %llu), %u vertices; devices:", spec.c_str(),
              (unsigned long long)seed, n);
  for (int d : devices) {
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, d);
    std::printf(" %d=%s", d, p.name);
  }
  std::printf("\n");

  for (vertex s : sources)
    if (s >= n)
      throw error(error_code::invalid_index, "--source-list: vertex " + std::to_string(s) +
                                                 " is out of range (" + std::to_string(n) +
                                                 " vertices)");
  const bool sources_given = !sources.empty();
  std::vector<std::vector<W>> first_answers;
  std::vector<std::vector<double>> medians;  // per set, per source
  std::uint64_t mismatches = 0;
  for (const std::vector<int>& set : sets) {
    const double t0 = now_ms();
    const distributed_matrix<W> a = split(set);
    const double build_ms = now_ms() - t0;
    std::string names;
    for (int d : set) names += (names.empty() ? "" : ",") + std::to_string(d);
    std::printf("devices %s: %llu arcs in %zu parts, %s in %.0f ms\n", names.c_str(),
                (unsigned long long)a.arcs(), a.parts(), how, build_ms);
    medians.emplace_back();
    if (!sources_given && sources.empty()) {
      // Sources that reach at least 1% of the graph (a Kronecker graph has many isolated
      // vertices), drawn by a fixed hash of the seed.
      std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 12345;
      for (int tries = 0; sources.size() < sources_wanted && tries < 1000; ++tries) {
        x ^= x >> 33, x *= 0xff51afd7ed558ccdull, x ^= x >> 33;
        const vertex s = vertex(x % n);
        const result<W> r = sssp(a, s, solve);
        const std::size_t reached =
            std::count_if(r.distances.begin(), r.distances.end(),
                          [](W d) { return d != infinity<W>(); });
        if (reached * 100 >= n) sources.push_back(s);
      }
    }
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const vertex s = sources[i];
      result<W> r = sssp(a, s, solve);  // warm-up
      std::vector<double> times;
      for (std::size_t k = 0; k < runs; ++k) {
        r = sssp(a, s, solve);
        times.push_back(r.stats.milliseconds);
      }
      std::sort(times.begin(), times.end());
      const double median = times[times.size() / 2];
      medians.back().push_back(median);
      if (first_answers.size() <= i) first_answers.push_back(r.distances);
      const bool same = r.distances == first_answers[i];
      if (!same) ++mismatches;
      std::printf(
          "  source %u: median %.3f ms (min %.3f, %zu runs), %.2f GTEPS, delta %g, buckets %llu, "
          "of them in rounds %llu, steps %llu, arcs relaxed %llu%s\n",
          s, median, times.front(), runs, double(a.arcs()) / (median * 1e6), r.stats.delta,
          (unsigned long long)r.stats.buckets, (unsigned long long)r.stats.device_loop_buckets,
          (unsigned long long)r.stats.iterations,
          (unsigned long long)r.stats.arcs_relaxed,
          same ? "" : "  ANSWER DIFFERS FROM THE FIRST DEVICE SET'S");
      if (profile) {
        distributed_profile p;
        sssp(a, s, solve, &p);
        std::printf(
            "    profile: %.3f ms = relax %.3f + exchange %.3f + select %.3f + between %.3f; "
            "across them: own waits %.3f (%llu), host meetings %.3f (%llu), NCCL on the stream "
            "%.3f (%llu transfers); %llu steps, %llu pulls, %llu entries gathered\n",
            p.solve_ms, p.relax_ms, p.exchange_ms, p.select_ms,
            p.solve_ms - p.relax_ms - p.exchange_ms - p.select_ms, p.wait_ms,
            (unsigned long long)p.waits, p.meet_ms, (unsigned long long)p.meetings, p.nccl_ms,
            (unsigned long long)p.transfers, (unsigned long long)p.steps,
            (unsigned long long)p.pulls, (unsigned long long)p.gathered);
        for (std::size_t k = 0; k < p.step_log.size(); ++k) {
          const distributed_profile::step& st = p.step_log[k];
          std::printf("      step %zu: %s %s, frontier %llu; by rank, relax ms (gather) / "
                      "improved / exchange ms (route, send, apply):",
                      k, st.heavy ? "heavy" : "light", st.pull ? "pull" : "push",
                      (unsigned long long)st.frontier);
          for (std::size_t r = 0; r < st.relax_ms.size(); ++r)
            std::printf("  %.3f (%.3f) / %llu / %.3f (%.3f, %.3f, %.3f)", st.relax_ms[r],
                        st.gather_ms[r], (unsigned long long)st.improved[r], st.exchange_ms[r],
                        st.route_ms[r], st.send_ms[r], st.apply_ms[r]);
          std::printf("\n");
        }
      }
    }
  }
  // --certify-host: the same answer certified by the host path too, timed, its text compared.
  auto on_host = [&](const distributed_matrix<W>& a, vertex s, const result<W>& r,
                     const std::string& violation) {
    const double t1 = now_ms();
    const bool same_text = certify_on_host(a, s, r) == violation;
    std::printf("certify_on_host source %u: %.0f ms, the same text: %s\n", s, now_ms() - t1,
                same_text ? "yes" : "NO");
    if (!same_text) ++mismatches;
  };
  // --certify: the whole list's answers with parents, certified over its parts.
  if (certify_all) {
    const distributed_matrix<W> a = split(devices);
    for (std::size_t i = 0; i < sources.size(); ++i) {
      options o;
      o.parents = true;
      o.delta = solve.delta;
      const result<W> r = sssp(a, sources[i], o);
      const double t0 = now_ms();
      const std::string violation = certify(a, sources[i], r);
      const bool equal = r.distances == first_answers[i];
      std::printf("certify source %u over %zu parts: %s (%.0f ms), equal to the timed answer: %s\n",
                  sources[i], a.parts(), violation.empty() ? "ok" : violation.c_str(),
                  now_ms() - t0, equal ? "yes" : "NO");
      if (!violation.empty() || !equal) ++mismatches;
      if (certify_host) on_host(a, sources[i], r, violation);
    }
  }

  // One GPU's own delta_stepping on the whole graph: the baseline of the speedups.
  std::vector<double> one_gpu_medians;
  if (one_gpu && !host_generate) {
    try {
      TROPIC_CUDA_CHECK(cudaSetDevice(devices[0]));
      const double t0 = now_ms();
      const device_matrix<W> whole = generate_on_device<W>(spec, seed, {0, n}, symmetric);
      std::printf("one GPU (device %d): the whole graph generated on it in %.0f ms\n", devices[0],
                  now_ms() - t0);
      options o;
      o.algorithm = algorithm::delta_stepping;
      for (std::size_t i = 0; i < sources.size(); ++i) {
        result<W> r = sssp(whole, sources[i], o);  // warm-up
        std::vector<double> times;
        for (std::size_t k = 0; k < runs; ++k) {
          r = sssp(whole, sources[i], o);
          times.push_back(r.stats.milliseconds);
        }
        std::sort(times.begin(), times.end());
        const double median = times[times.size() / 2];
        one_gpu_medians.push_back(median);
        const bool same = r.distances == first_answers[i];
        if (!same) ++mismatches;
        std::printf("  one GPU's delta_stepping, source %u: median %.3f ms (min %.3f), %.2f GTEPS, "
                    "delta %g%s\n",
                    sources[i], median, times.front(), double(whole.arcs()) / (median * 1e6),
                    r.stats.delta,
                    same ? "" : "  ANSWER DIFFERS FROM THE FIRST DEVICE SET'S");
      }
    } catch (const error& e) {
      if (e.code() != error_code::out_of_memory) throw;
      std::printf("one GPU: skipped, the whole graph does not fit device %d (%s)\n", devices[0],
                  e.what());
    }
  }
  if (!one_gpu_medians.empty()) {
    for (std::size_t k = 0; k < sets.size(); ++k) {
      std::string names;
      for (int d : sets[k]) names += (names.empty() ? "" : ",") + std::to_string(d);
      std::printf("speedup of devices %s over one GPU's delta_stepping:", names.c_str());
      for (std::size_t i = 0; i < medians[k].size(); ++i)
        std::printf(" %.2fx", one_gpu_medians[i] / medians[k][i]);
      std::printf("\n");
    }
  }

  if (check) {
    const csr<W> g = generate<W>(spec, seed);
    for (std::size_t i = 0; i < sources.size(); ++i) {
      options o;
      o.parents = true;
      const distributed_matrix<W> a(g, {devices[0]});
      const result<W> with_parents = sssp(a, sources[i], o);
      const std::string violation = certify(g, sources[i], with_parents);
      const bool equal = with_parents.distances == first_answers[i];
      std::printf("check source %u: certificate %s, equal to the timed answer: %s\n", sources[i],
                  violation.empty() ? "ok" : violation.c_str(), equal ? "yes" : "NO");
      if (!violation.empty() || !equal) ++mismatches;
      if (certify_host) on_host(a, sources[i], with_parents, violation);
    }
  }
  if (mismatches) {
    std::printf("FAILED: %llu answers differ\n", (unsigned long long)mismatches);
    return 1;
  }
  std::printf("all answers equal across device sets\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "tropic_bench_multi_gpu: error: %s\n", e.what());
  return 1;
}
