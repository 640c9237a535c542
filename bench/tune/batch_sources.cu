// Issue 33: batched delta-stepping (algorithms/delta_stepping_batch.cu) against k single-source
// solves. For each graph and k: the batch's solve time (stats.milliseconds, the median of `runs`
// after a warm-up; the download to the host not counted, as for a single solve), the sum of the
// k single-source delta_stepping solves (timed for up to 64 sources, scaled to k beyond), and
// the answer checked: every checked row equal to the single-source GPU answer, two rows verified
// against the CPU Dijkstra. Sources: vertices with out-arcs, drawn by a fixed hash.
// With streams=T,...: the k single solves T at a time, each on its own host thread and stream
// with a T-th of the device loop's blocks (wall time of the whole set, the median of `runs`),
// every row compared with the single solve's. With blocks=256,1024 and factors=1,4: Near-Far on
// a thread block per source (near_far_blocks.cu) with that many threads per block and Δ that
// factor times choose_delta: its kernel time and its wall time with the download (medians).
//   build/bench/tune/tune_batch_sources [GRAPH|FILE ...] [k=1,8,64,512] [runs=5] [check=8]
//                                       [streams=1,4,8,16] [blocks=0,256,1024] [factors=1,4]
//                                       [nobatch] [deltas=0,inf,500] [api]
// api: the wall time of the public calls sssp(A, sources) (automatic algorithm, a new k x n
// result) and sssp_into (rows into memory the caller holds), compared with the single solves'.
// deltas: the batch's Δ, each in turn: 0 the automatic one, inf Bellman-Ford (one bucket), a
// number that Δ.
// GRAPH is a generator spec (kron:22:16, grid:R:C, uniform:N:D) or a graph file; a bare name is
// looked up in ../shared/data and data/ (USA-road-d.NY.gr.gz). Default: kron:22:16 and NY.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#include "policy.hpp"
#include "sweep_common.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/device_loop.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;

namespace {

using W = std::uint32_t;
bool failed = false;  // a wrong row: the exit status says so

std::vector<vertex> pick_sources(const csr<W>& g, std::size_t k) {
  std::vector<vertex> sources;
  std::uint64_t h = 0x9e3779b97f4a7c15ull;
  for (std::size_t tries = 0; sources.size() < k && tries < 64 * k + 1024; ++tries) {
    h ^= h << 13;
    h ^= h >> 7;
    h ^= h << 17;
    const vertex v = vertex(h % g.n);
    if (g.row_offsets[v + 1] > g.row_offsets[v]) sources.push_back(v);
  }
  while (sources.size() < k) sources.push_back(vertex(sources.size() % g.n));
  return sources;
}

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  return x.empty() ? 0 : x[x.size() / 2];
}

// The k sources as single solves, `threads` at a time (a host thread each, each solve on its own
// stream and gpu_context with a threads-th of the device loop's blocks); the wall time.
double concurrent(const device_matrix<W>& a, const std::vector<vertex>& sources, unsigned threads,
                  std::vector<W>& d) {
  const vertex n = a.rows();
  int sms = 0, device = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  closure_limits closure;
  if (a.stats().max_degree > policy::delta_stepping::closure_local_rounds_max_degree)
    closure.local_rounds = 0;
  closure.blocks = std::max(1u, tuning::device_loop_blocks_per_sm * unsigned(sms) / threads);
  std::atomic<std::size_t> next{0};
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  std::string failure;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      try {
        for (std::size_t i; (i = next++) < sources.size();) {
          const result<W> r = detail::delta_stepping_configured(a, sources[i], options{}, closure,
                                                                descriptor{}, nullptr);
          std::copy(r.distances.begin(), r.distances.end(), d.begin() + i * n);
        }
      } catch (const std::exception& e) {
        failure = e.what();
      }
    });
  for (std::thread& t : pool) t.join();
  if (!failure.empty()) throw error(error_code::invalid_value, failure);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void measure(const std::string& name, const csr<W>& g, const std::vector<std::size_t>& ks,
             int runs, std::size_t check, const std::vector<std::size_t>& streams,
             const std::vector<std::size_t>& widths, const std::vector<std::size_t>& factors,
             bool batched, const std::vector<double>& deltas, bool api) {
  const device_matrix<W> a(g);
  const vertex n = g.n;
  std::printf("%s: n %u, arcs %llu, transpose %s\n", name.c_str(), n,
              (unsigned long long)g.arcs(), a.has_transpose() ? "yes" : "no");
  for (std::size_t k : ks) {
    const std::vector<vertex> sources = pick_sources(g, k);
    std::vector<W> d(k * std::size_t(n));
    statistics st;
    options o;
    // Single solves: the first min(k, 64) sources (their rows the reference below).
    const std::size_t timed = std::min<std::size_t>(k, 64);
    std::vector<result<W>> singles_rows;
    double singles = 0;
    for (std::size_t s = 0; s < timed; ++s) {
      singles_rows.push_back(sssp(a, sources[s], o));
      singles += singles_rows.back().stats.milliseconds;
    }
    if (api) {
      std::vector<double> wall;
      multi_result<W> m;
      for (int r = 0; r <= runs; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        m = sssp(a, sources, o);
        const double ms = std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - t0).count();
        if (r > 0) wall.push_back(ms);
      }
      std::size_t equal = 0;
      for (std::size_t s = 0; s < timed; ++s)
        equal += std::equal(singles_rows[s].distances.begin(), singles_rows[s].distances.end(),
                            m.distances.begin() + s * n);
      if (equal != timed) failed = true;
      // The same rows into memory the caller holds already (sssp_into): no k x n allocation.
      std::vector<double> into_wall;
      std::vector<W> rows(k * std::size_t(n), 1);
      for (int r = 0; r <= runs; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        sssp_into(a, sources, o, rows.data(), nullptr);
        const double ms = std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - t0).count();
        if (r > 0) into_wall.push_back(ms);
      }
      const bool into_equal = rows == m.distances;
      if (!into_equal) failed = true;
      std::printf("  k %5zu: sssp(A, sources) %9.3f ms wall (%7.4f ms/source); sssp_into %9.3f "
                  "ms (%s) | %zu singles' solves %9.3f ms | rows equal to single: %zu/%zu\n",
                  k, median(wall), median(wall) / double(k), median(into_wall),
                  into_equal ? "same rows" : "DIFFERENT rows", timed, singles, equal, timed);
      std::fflush(stdout);
    }
    for (std::size_t t : streams) {
      std::vector<double> wall;
      std::vector<W> c(k * std::size_t(n));
      try {
        for (int r = 0; r <= runs; ++r) {
          const double ms = concurrent(a, sources, unsigned(t), c);
          if (r > 0) wall.push_back(ms);
        }
      } catch (const error& e) {
        std::printf("  k %5zu, %zu streams: %s\n", k, t, e.what());
        continue;
      }
      std::size_t equal = 0;
      for (std::size_t s = 0; s < timed; ++s)
        equal += std::equal(singles_rows[s].distances.begin(), singles_rows[s].distances.end(),
                            c.begin() + s * n);
      if (equal != timed) failed = true;
      std::printf("  k %5zu: %2zu streams %9.3f ms wall (%7.4f ms/source) | %zu singles %9.3f ms "
                  "| x%.1f | rows equal to single: %zu/%zu\n",
                  k, t, median(wall), median(wall) / double(k), timed, singles,
                  singles * double(k) / double(timed) / median(wall), equal, timed);
      std::fflush(stdout);
    }
    for (std::size_t threads : widths)
      for (std::size_t factor : factors) {
        options f;
        f.delta = double(factor) * choose_delta(a.stats());
        std::vector<double> kernel, wall;
        std::vector<W> c(k * std::size_t(n));
        statistics bs;
        try {
          for (int r = 0; r <= runs; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            detail::near_far_blocks(a, sources.data(), k, f, c.data(), nullptr, bs,
                                    infinity<W>(), unsigned(threads));
            const double ms = std::chrono::duration<double, std::milli>(
                                  std::chrono::steady_clock::now() - t0).count();
            if (r > 0) kernel.push_back(bs.milliseconds), wall.push_back(ms);
          }
        } catch (const error& e) {
          std::printf("  k %5zu, blocks of %zu: %s\n", k, threads, e.what());
          continue;
        }
        std::size_t equal = 0;
        for (std::size_t s = 0; s < timed; ++s)
          equal += std::equal(singles_rows[s].distances.begin(),
                              singles_rows[s].distances.end(), c.begin() + s * n);
        if (equal != timed) failed = true;
        std::printf("  k %5zu: blocks of %4zu, delta %2zux (%g): kernel %9.3f ms, wall %9.3f ms "
                    "(%7.4f ms/source; rounds %llu, windows %llu, arcs %.3g) | %zu singles "
                    "%9.3f ms | x%.1f | rows equal to single: %zu/%zu\n",
                    k, threads, factor, bs.delta, median(kernel), median(wall),
                    median(wall) / double(k), (unsigned long long)bs.iterations,
                    (unsigned long long)bs.buckets, double(bs.arcs_relaxed), timed, singles,
                    singles * double(k) / double(timed) / median(wall), equal, timed);
        std::fflush(stdout);
      }
    if (!batched) continue;
    std::vector<std::vector<W>> reference;  // Dijkstra's rows of the first two sources
    for (std::size_t s = 0; s < std::min<std::size_t>(k, 2); ++s)
      reference.push_back(dijkstra(g, sources[s], false).distances);
    for (const double delta : deltas) {
      options bo;  // the batch's Δ: 0 automatic, inf Bellman-Ford
      if (std::isinf(delta))
        bo.algorithm = algorithm::bellman_ford;
      else
        bo.delta = delta;
      std::vector<double> batch;
      try {
        for (int r = 0; r <= runs; ++r) {
          detail::delta_stepping_batch(a, sources.data(), k, bo, d.data(), nullptr, st);
          if (r > 0) batch.push_back(st.milliseconds);
        }
      } catch (const error& e) {
        std::printf("  k %5zu: %s\n", k, e.what());
        continue;
      }
      std::size_t wrong = 0, checked = 0;
      for (std::size_t s = 0; s < std::min(timed, check); ++s) {
        const result<W>& one = singles_rows[s];
        ++checked;
        if (!std::equal(one.distances.begin(), one.distances.end(), d.begin() + s * n)) ++wrong;
      }
      const double all_singles = singles * double(k) / double(timed);
      std::string dijkstra_check;
      for (std::size_t s = 0; s < std::min<std::size_t>(k, 2); ++s) {
        result<W> row;
        row.distances.assign(d.begin() + s * n, d.begin() + (s + 1) * n);
        const std::string v = verify(g, sources[s], reference[s], row);
        dijkstra_check += v.empty() ? "ok " : "WRONG ";
      }
      if (wrong > 0 || dijkstra_check.find("WRONG") != std::string::npos) failed = true;
      const double b = median(batch);
      std::printf(
          "  k %5zu: batch %9.3f ms (%7.4f ms/source; buckets %llu, steps %llu, round trips "
          "%llu, delta %g) | %zu singles %9.3f ms | x%.1f | rows equal to single: %zu/%zu | "
          "Dijkstra: %s\n",
          k, b, b / double(k), (unsigned long long)st.buckets, (unsigned long long)st.iterations,
          (unsigned long long)st.host_round_trips, st.delta, k, all_singles,
          b > 0 ? all_singles / b : 0, checked - wrong, checked, dijkstra_check.c_str());
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> graphs;
  std::vector<std::size_t> ks = {1, 8, 64, 512};
  int runs = 5;
  std::size_t check = 8;
  std::vector<std::size_t> streams, widths, factors = {1};
  bool batched = true, api = false;
  std::vector<double> deltas = {0};
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("k=", 0) == 0 || arg.rfind("streams=", 0) == 0 ||
        arg.rfind("blocks=", 0) == 0 || arg.rfind("factors=", 0) == 0) {
      std::vector<std::size_t>& list =
          arg[0] == 'k' ? ks : arg[0] == 's' ? streams : arg[0] == 'b' ? widths : factors;
      list.clear();
      for (std::size_t at = arg.find('=') + 1; at < arg.size();) {
        const std::size_t comma = std::min(arg.find(',', at), arg.size());
        list.push_back(std::stoull(arg.substr(at, comma - at)));
        at = comma + 1;
      }
    } else if (arg.rfind("deltas=", 0) == 0) {
      deltas.clear();
      for (std::size_t at = 7; at < arg.size();) {
        const std::size_t comma = std::min(arg.find(',', at), arg.size());
        const std::string x = arg.substr(at, comma - at);
        deltas.push_back(x == "inf" ? HUGE_VAL : std::stod(x));
        at = comma + 1;
      }
    } else if (arg == "api") {
      api = true;
    } else if (arg == "nobatch") {
      batched = false;
    } else if (arg.rfind("runs=", 0) == 0) {
      runs = std::max(1, std::stoi(arg.substr(5)));
    } else if (arg.rfind("check=", 0) == 0) {
      check = std::stoull(arg.substr(6));
    } else {
      graphs.push_back(arg);
    }
  }
  if (graphs.empty()) graphs = {"kron:22:16", "USA-road-d.NY.gr.gz"};
  for (const std::string& spec : graphs) {
    const bool generated = spec.rfind("kron:", 0) == 0 || spec.rfind("grid:", 0) == 0 ||
                           spec.rfind("uniform:", 0) == 0;
    std::string file = spec;
    if (!generated && spec.find('/') == std::string::npos) file = tune::data_path(spec);
    if (!generated && file.empty()) {
      std::printf("%s: not found in ../shared/data or data/\n", spec.c_str());
      continue;
    }
    try {
      measure(spec, generated ? generate<W>(spec, 1) : read_graph<W>(file), ks, runs, check,
              streams, widths, factors, batched, deltas, api);
    } catch (const error& e) {
      std::printf("%s: %s\n", spec.c_str(), e.what());
      return 2;
    }
  }
  return failed ? 1 : 0;
}
