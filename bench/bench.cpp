// tropic_bench: every algorithm of this build and the CPU peers on one suite of graphs, with the
// same sources, in one run (issue 8). Also reachable as `tropic bench`.
//
// For each graph x source: the CPU Dijkstra reference first (its time is the `dijkstra` row);
// then for each algorithm: warm-up runs, then timed runs. Times are stats.milliseconds, the
// solve alone (CUDA events for GPU algorithms, a steady clock for CPU ones; upload is
// setup_ms). Every run's distances are checked against the reference outside the timed region:
// a wrong answer makes the row a FAILURE with no time, never a fast one.
//
// `c_api:NAME` rows (issue 5) call tropic_sssp_ext on a GrB_Matrix built once per graph outside
// the timed region; their time is the whole call on a steady clock, split into the steps
// tropic_stats reports (unpack, copy, pack, setup, solve, after the solve, output vectors).
//
// Peak device memory: every device allocation tropic makes is a device_buffer, i.e. drawn from
// tropic's own memory pool (tropic::memory_pool()); the pool's used-memory high watermark is
// reset before each GPU run and read after it.
//
// Skips are never silent: an algorithm a suite line skips, a source beyond a line's cpu-sources
// or --c-api-sources, and an algorithm skipped after slow first runs each leave a row whose
// status is "skipped" and whose note says why.
//
// `peer:NAME` rows (--peers DIR, issue 37): GAP and LAGraph through our drivers, one process per
// graph and peer, on the same sources, checked against the same reference (peers.hpp).
//
// Output (--out DIR): results.csv (one row per graph x algorithm x source), ceilings.csv,
// summary.md (printed too); plots come from bench/plot.py reading results.csv.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "ceilings.hpp"
#include "peers.hpp"
#if defined(TROPIC_HAVE_CUDA)
#include "tropic/device_matrix.hpp"
#include "tropic/distributed.hpp"
#endif
#include "suite.hpp"
#include "tropic/csr.hpp"
#include "build_commit.hpp"
#include "tropic/detail/graphblas_session.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"
#include "tropic/tropic.h"

#if defined(TROPIC_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tropic::bench {
namespace {

// The repository this harness was built from: suites and ../shared/data are found from here.
std::string repository_root() {
  std::string file = __FILE__;  // .../bench/bench.cpp (CMake passes absolute paths)
  std::string bench_dir = directory_of(file);
  return directory_of(bench_dir);
}

class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One column of the benchmark: an algorithm called through the C++ API, or through the C API
// (tropic_sssp_ext on a GrB_Matrix), named "c_api:NAME", or delta-stepping on the graph split
// over several GPUs (--devices, issue 38), named "delta_stepping@Pgpus".
struct bench_algorithm {
  algorithm alg = algorithm::dijkstra;
  bool c_api = false;
  std::vector<int> devices;  // a split over these devices (tropic::distributed_matrix)

  std::string name() const {
    if (!devices.empty())
      return std::string(algorithm_name(alg)) + "@" + std::to_string(devices.size()) + "gpu" +
             (devices.size() > 1 ? "s" : "");
    return (c_api ? "c_api:" : "") + std::string(algorithm_name(alg));
  }
  bool gpu() const { return is_gpu_algorithm(alg); }
  bool split() const { return !devices.empty(); }
  bool reference() const { return alg == algorithm::dijkstra && !c_api; }
  // What a suite line's cpu-sources limits: every CPU algorithm but the reference.
  bool cpu_peer() const { return !gpu() && !reference(); }
  bool operator==(const bench_algorithm& o) const {
    return alg == o.alg && c_api == o.c_api && devices == o.devices;
  }
};

tropic_algorithm c_algorithm(algorithm a);

// "NAME" or "c_api:NAME"; throws tropic::error for an unknown or (not_implemented) unavailable
// algorithm.
bench_algorithm parse_bench_algorithm(const std::string& text) {
  bench_algorithm b;
  const std::string prefix = "c_api:";
  b.c_api = text.rfind(prefix, 0) == 0;
  b.alg = parse_algorithm(b.c_api ? text.substr(prefix.size()) : text);
  if (b.alg == algorithm::automatic)
    throw error(error_code::invalid_value,
                "'auto' is not an algorithm to benchmark: name the algorithms");
  if (b.c_api) c_algorithm(b.alg);
  return b;
}

struct config {
  std::string suite = "quick";
  std::vector<std::string> graphs;  // --graphs: ad-hoc specs/files instead of a suite
  std::vector<bench_algorithm> algorithms;
  bool algorithms_given = false;
  int sources = 4;
  int runs = 5;
  int cpu_runs = 3;
  int warmup = 1;
  int c_api_sources = 1;
  int slow_sources = 1;
  std::uint64_t seed = 1;
  std::string out = "bench-results";
  std::vector<std::string> data_dirs;
  std::string cache;
  bool ceilings = true;
  double slow_ms = 2000;  // a first run slower than this is the only timed run
  bool list_only = false;
  std::string weights = "uint32";
  std::string command_line;
  std::string peers;            // --peers DIR (issue 37): GAP and LAGraph, from fetch-peers.sh
  double peer_timeout = 900;    // seconds per peer and graph
  double peer_sweep_ms = 5000;  // the delta sweep of a peer ends once it has taken this long
  std::vector<int> sources_batch;  // --sources-batch: many-source rows (bench/many_sources.hpp)
  double cutoff_share = 0;         // --cutoff-share: a cutoff row per algorithm; 0 = none
  bool certify = false;  // --certify: rows checked by the optimality certificate, no Dijkstra
  std::vector<int> devices;  // --devices: a delta_stepping@P column on the graph split over them
  loop_control devices_loop = loop_control::automatic;  // --devices-loop: their options::loop
};

void print_help() {
  std::printf(
      "usage: tropic_bench [options]      (or: tropic bench [options])\n\n"
      "Runs every algorithm on every graph of a suite from the same sources, checks every answer\n"
      "against the CPU Dijkstra, and writes results.csv, ceilings.csv and summary.md.\n\n"
      "  --suite NAME|FILE     quick (default; a smoke run), targets, full, or a suite file\n"
      "  --graphs G1,G2,...    graphs (generator specs or files) instead of a suite\n"
      "  --algorithms A,B,...  default: every algorithm of this build (GPU ones only when a\n"
      "                        device is present), then c_api:graphblas_cpu and, with a device,\n"
      "                        c_api:delta_stepping. c_api:NAME calls NAME through the C API\n"
      "                        (tropic_sssp_ext on a GrB_Matrix) and times the whole call\n"
      "  --sources K           sources per graph (default 4; a suite line's sources=N caps it)\n"
      "  --runs N              timed runs per GPU algorithm and source (default 5; median)\n"
      "  --cpu-runs N          timed runs per CPU algorithm, and per c_api: row, and source\n"
      "                        (default 3); dijkstra runs once: its reference run is its timed "
      "run\n"
      "  --warmup N            untimed runs before the timed ones (default 1; not dijkstra)\n"
      "  --c-api-sources K     c_api: rows run on the first K sources of a graph (default 1):\n"
      "                        every call converts and uploads the whole graph\n"
      "  --slow-ms MS          a first run slower than MS (the solve; the whole call for c_api:\n"
      "                        rows) is timed once, not repeated (default 2000)\n"
      "  --slow-sources K      after K sources of a graph with such a slow first run, the\n"
      "                        algorithm is skipped on the graph's other sources (default 1)\n"
      "  --seed S              seed of generators and source choice (default 1)\n"
      "  --weights T           uint32 (default), float or double\n"
      "  --data DIR            another folder to look for graph files (repeatable)\n"
      "  --cache DIR           keep generated graphs there as .tgr and reuse them\n"
      "  --out DIR             output folder (default bench-results)\n"
      "  --no-ceilings         skip the copy-bandwidth / SpMV ceilings\n"
      "  --peers DIR           also run the outside programs scripts/fetch-peers.sh built in DIR\n"
      "                        (GAP, LAGraph) on the same sources, checked like every row;\n"
      "                        rows peer:NAME; --peer-timeout S per peer and graph (900);\n"
      "                        --peer-sweep-ms MS ends a peer's delta sweep after MS (5000)\n"
      "  --certify             check every row by the optimality certificate (tropic::certify:\n"
      "                        d[s] = 0, no arc relaxes, a tight in-arc from a smaller\n"
      "                        distance) instead of against Dijkstra, which is not run: for\n"
      "                        graphs too large for it; the many-source rows still use it\n"
      "  --list                print the suite and algorithms, run nothing\n"
      "  --sources-batch K,..  also a row per K: K sources in one call (e.g. 1,8,64,512)\n"
      "  --cutoff-share F      also a row with cutoff = F x the largest distance (e.g. 0.01)\n"
      "  --devices LIST        also a column delta_stepping@Pgpus: the graph split by rows over\n"
      "                        these GPUs of this host (e.g. 0,1,2,3; tropic::distributed_matrix,\n"
      "                        uploaded once per graph, its time the setup), checked like every\n"
      "                        row; graph MiB sums the parts, peak MiB is not measured\n"
      "  --devices-loop L      options::loop of the delta_stepping@Pgpus rows: auto (default),\n"
      "                        host (every light step an exchange) or device (closure rounds)\n\n"
      "Suite lines: NAME GRAPH [unit-weights] [symmetrize] [seed=N] [sources=N] [cpu-sources=N]\n"
      "[skip=A,B] (bench/suite.hpp). Every skip is a row of its own: 'skipped' and why.\n\n"
      "Algorithms in this build: ");
  bool first = true;
  for (algorithm a : available_algorithms())
    if (a != algorithm::automatic) {
      std::printf("%s%s", first ? "" : ", ", algorithm_name(a));
      first = false;
    }
  std::printf(" (each also as c_api:NAME)\nSuites: %s/bench/suites/\n", repository_root().c_str());
}

int parse_count(const std::string& flag, const std::string& v, int minimum) {
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 6 ||
      std::stoi(v) < minimum)
    throw usage_error(flag + " expects an integer >= " + std::to_string(minimum) + ", got '" + v +
                      "'");
  return std::stoi(v);
}

config parse_args(int argc, char** argv) {
  config c;
  for (int i = 0; i < argc; ++i) c.command_line += (i ? " " : "") + std::string(argv[i]);
  auto value = [&](int& i, const std::string& flag) -> std::string {
    if (i + 1 >= argc) throw usage_error(flag + " needs a value (see --help)");
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    std::string inline_value;
    bool has_inline = false;
    if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
      inline_value = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
      has_inline = true;
    }
    auto v = [&]() { return has_inline ? inline_value : value(i, a); };
    if (a == "--help" || a == "-h") {
      print_help();
      std::exit(0);
    } else if (a == "--suite") {
      c.suite = v();
    } else if (a == "--graphs") {
      c.graphs = split_commas(v());
      if (c.graphs.empty()) throw usage_error("--graphs expects a comma-separated list of graphs");
    } else if (a == "--algorithms") {
      c.algorithms_given = true;
      for (const auto& name : split_commas(v())) {
        try {
          c.algorithms.push_back(parse_bench_algorithm(name));
        } catch (const error& e) {
          throw usage_error(e.what());
        }
      }
    } else if (a == "--sources") {
      c.sources = parse_count(a, v(), 1);
    } else if (a == "--runs") {
      c.runs = parse_count(a, v(), 1);
    } else if (a == "--cpu-runs") {
      c.cpu_runs = parse_count(a, v(), 1);
    } else if (a == "--warmup") {
      c.warmup = parse_count(a, v(), 0);
    } else if (a == "--c-api-sources") {
      c.c_api_sources = parse_count(a, v(), 0);
    } else if (a == "--slow-sources") {
      c.slow_sources = parse_count(a, v(), 1);
    } else if (a == "--seed") {
      std::string s = v();
      if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
        throw usage_error("--seed expects a non-negative integer, got '" + s + "'");
      c.seed = std::stoull(s);
    } else if (a == "--weights") {
      c.weights = v();
      if (c.weights != "uint32" && c.weights != "float" && c.weights != "double")
        throw usage_error("--weights must be uint32, float or double, got '" + c.weights + "'");
    } else if (a == "--data") {
      c.data_dirs.push_back(v());
    } else if (a == "--cache") {
      c.cache = v();
    } else if (a == "--certify") {
      c.certify = true;
    } else if (a == "--slow-ms") {
      c.slow_ms = parse_count(a, v(), 1);
    } else if (a == "--out") {
      c.out = v();
    } else if (a == "--peers") {
      c.peers = v();
    } else if (a == "--peer-timeout") {
      c.peer_timeout = parse_count(a, v(), 1);
    } else if (a == "--peer-sweep-ms") {
      c.peer_sweep_ms = parse_count(a, v(), 1);
    } else if (a == "--no-ceilings" && !has_inline) {
      c.ceilings = false;
    } else if (a == "--sources-batch") {
      for (const std::string& k : split_commas(v())) c.sources_batch.push_back(
          parse_count("--sources-batch", k, 1));
    } else if (a == "--cutoff-share") {
      const std::string text = v();
      char* end = nullptr;
      c.cutoff_share = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !(c.cutoff_share > 0))
        throw usage_error("--cutoff-share expects a positive number, got '" + text + "'");
    } else if (a == "--devices") {
      const std::string text = v();
      for (const std::string& d : split_commas(text)) c.devices.push_back(
          parse_count("--devices", d, 0));
      if (c.devices.empty()) throw usage_error("--devices expects device ordinals, e.g. 0,1,2,3");
#if !defined(TROPIC_HAVE_CUDA)
      throw usage_error("--devices needs a CUDA build");
#endif
    } else if (a == "--devices-loop") {
      try {
        c.devices_loop = parse_loop_control(v());
      } catch (const error& e) {
        throw usage_error(std::string("--devices-") + e.what());
      }
    } else if (a == "--list" && !has_inline) {
      c.list_only = true;
    } else {
      throw usage_error("unknown argument '" + std::string(argv[i]) + "' (see --help)");
    }
  }
  if (!c.algorithms_given) {
    const bool gpu = gpu_available();
    for (algorithm a : available_algorithms())
      if (a != algorithm::automatic && (gpu || !is_gpu_algorithm(a)))
        c.algorithms.push_back({a, false, {}});
    // Issue 5: the CPU peer and the GPU's delta-stepping through the same C entry point.
    c.algorithms.push_back({algorithm::graphblas_cpu, true, {}});
    if (gpu) c.algorithms.push_back({algorithm::delta_stepping, true, {}});
  }
  if (!c.devices.empty()) {
    if (!gpu_available())
      throw usage_error("--devices: no usable CUDA device on this machine");
    bench_algorithm split{algorithm::delta_stepping, false, c.devices};
    c.algorithms.push_back(split);
  }
  // dijkstra is the reference and always runs; listing it first keeps the CSV in a stable order.
  const bench_algorithm reference{algorithm::dijkstra, false, {}};
  std::vector<bench_algorithm> unique{reference};
  for (const auto& b : c.algorithms)
    if (std::find(unique.begin(), unique.end(), b) == unique.end()) unique.push_back(b);
  c.algorithms = unique;
  return c;
}

// Checks the algorithm names of every skip= in the suite: a typo must not silently run
// everything. Names of algorithms this build lacks are accepted (a CPU build reads full.txt too).
void check_suite_skips(const std::vector<suite_entry>& suite) {
  for (const auto& e : suite)
    for (const auto& name : e.skip) {
      if (name.rfind("peer:", 0) == 0) continue;  // the peers are listed by --peers DIR
      try {
        parse_bench_algorithm(name.substr(0, name.find('@')));  // NAME@Pgpus: --devices' column
      } catch (const error& ex) {
        if (ex.code() != error_code::not_implemented)
          throw usage_error(e.file + ": skip=" + name + ": " + ex.what());
      }
    }
}

std::vector<suite_entry> load_suite(const config& c, std::string& suite_dir) {
  if (!c.graphs.empty()) {
    std::vector<suite_entry> out;
    for (const auto& g : c.graphs) {
      suite_entry e;
      e.name = g;
      e.graph = g;
      e.seed = c.seed;
      e.file = "--graphs";
      out.push_back(e);
    }
    suite_dir = ".";
    return out;
  }
  std::string path = c.suite;
  if (!path_exists(path)) path = repository_root() + "/bench/suites/" + c.suite + ".txt";
  if (!path_exists(path))
    throw usage_error("no suite '" + c.suite + "': neither a file nor " + path);
  suite_dir = directory_of(path);
  std::vector<suite_entry> suite = read_suite(path);
  check_suite_skips(suite);
  return suite;
}

int sources_for(const suite_entry& e, const config& c) {
  return e.max_sources > 0 ? std::min(e.max_sources, c.sources) : c.sources;
}

// ---------------------------------------------------------------------------------------------
// Measurements

// Medians of the steps of a c_api: row (tropic_stats' breakdown of one call).
struct c_api_breakdown {
  double unpack = 0, copy = 0, pack = 0, setup = 0, solve = 0, after_solve = 0, output = 0;
};

struct row {
  std::string graph;
  vertex n = 0;
  arc_index arcs = 0;
  double avg_degree = 0;
  source_choice source;
  std::string algorithm;
  bool gpu = false;
  bool c_api = false;
  int runs = 0;
  double median_ms = 0, min_ms = 0, setup_ms = 0, wall_ms = 0;
  double solve_ms = 0;        // the solve alone; equals median_ms except on c_api: rows
  double peak_mib = -1;       // device memory of one solve, the graph included; < 0: not measured
  double graph_mib = -1;      // the resident device_matrix the solve ran on; < 0: none
  c_api_breakdown parts;      // c_api: rows only
  statistics stats;           // from the last timed run
  std::string status = "ok";  // ok, FAILURE (wrong answer), error (exception), skipped
  std::string note;
};

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

std::string num(double v, int digits = 4) {
  if (std::isinf(v)) return "inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// "42s", "3m05s"
std::string duration(double ms) {
  const long s = std::lround(std::max(0.0, ms) / 1000);
  char buf[32];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%lds", s);
  else
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  return buf;
}

class progress_line {
 public:
  explicit progress_line(std::size_t total) : total_(total), tty_(::isatty(2)), start_(now_ms()) {}
  void show(const std::string& what) {
    ++done_;
    std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + what +
                       " | run " + duration(now_ms() - start_);
    if (tty_)
      std::fprintf(stderr, "\r\033[K%s", line.c_str());
    else
      std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
  }
  void advance(std::size_t steps) { done_ += steps; }  // a graph that was not run
  void message(const std::string& text) {
    std::fprintf(stderr, "%s%s\n", tty_ ? "\r\033[K" : "", text.c_str());
  }
  void finish() {
    if (tty_) std::fprintf(stderr, "\n");
  }
  double elapsed_ms() const { return now_ms() - start_; }

 private:
  std::size_t total_, done_ = 0;
  bool tty_;
  double start_;
};

#if defined(TROPIC_HAVE_CUDA)
// Bytes in use from tropic's memory pool on device 0 (the device every bench run uses): every
// tropic device allocation is a device_buffer, and so comes from there.
class pool_probe {
 public:
  pool_probe() {
    TROPIC_CUDA_CHECK(cudaSetDevice(0));
    pool_ = tropic::memory_pool();
  }
  // After a synchronize, so that stream-ordered frees have happened.
  std::uint64_t in_use() const {
    TROPIC_CUDA_CHECK(cudaDeviceSynchronize());
    return attribute(cudaMemPoolAttrUsedMemCurrent);
  }
  void begin() {
    base_ = in_use();
    std::uint64_t zero = 0;  // the high watermark can only be reset to zero
    TROPIC_CUDA_CHECK(cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrUsedMemHigh, &zero));
  }
  // The most in use since begin() beyond what was in use at begin(). A watermark reset to zero
  // rises again with the next allocation to everything in use, base_ included.
  std::uint64_t extra_since_begin() const {
    TROPIC_CUDA_CHECK(cudaDeviceSynchronize());
    const std::uint64_t high = attribute(cudaMemPoolAttrUsedMemHigh);
    return high > base_ ? high - base_ : 0;
  }

 private:
  std::uint64_t attribute(cudaMemPoolAttr a) const {
    std::uint64_t v = 0;
    TROPIC_CUDA_CHECK(cudaMemPoolGetAttribute(pool_, a, &v));
    return v;
  }
  cudaMemPool_t pool_ = nullptr;
  std::uint64_t base_ = 0;
};
#endif

constexpr double mib = 1024.0 * 1024.0;

template <class W>
csr<W> load_graph(const suite_entry& e, const std::string& file, const config& c,
                  bool& from_cache) {
  from_cache = false;
  if (!is_generator_spec(e.graph)) {
    read_options ro;
    ro.unit_weights = e.unit_weights;
    ro.weight_seed = e.seed;
    ro.progress = true;
    ro.build.symmetrize = e.symmetrize;
    return read_graph<W>(file, ro);
  }
  std::string cached;
  if (!c.cache.empty()) {
    std::string stem = e.graph;
    std::replace(stem.begin(), stem.end(), ':', '_');
    cached = c.cache + "/" + stem + "-seed" + std::to_string(e.seed) +
             (e.unit_weights ? "-unit" : "") + "-" + weight_type_name<W>() + ".tgr";
    if (path_exists(cached)) {
      from_cache = true;
      return read_graph<W>(cached);
    }
  }
  csr<W> g = generate<W>(e.graph, e.seed);
  if (e.unit_weights)
    for (auto& w : g.weights) w = W(1);
  if (!cached.empty()) {
    ::mkdir(c.cache.c_str(), 0755);
    write_binary_cache(g, cached);
  }
  return g;
}

struct graph_report {
  std::string name, origin, skipped;
  graph_stats stats;
  double load_ms = 0, sources_ms = 0, ceilings_ms = 0, solves_ms = 0;
  std::vector<source_choice> sources;
  std::string options;  // the suite line's bench options, as written
};

// ---------------------------------------------------------------------------------------------
// The C API side (issue 5)

tropic_algorithm c_algorithm(algorithm a) {
  switch (a) {
    case algorithm::automatic:
      return TROPIC_AUTO;
    case algorithm::dijkstra:
      return TROPIC_DIJKSTRA;
    case algorithm::delta_stepping:
      return TROPIC_DELTA_STEPPING;
    case algorithm::bellman_ford:
      return TROPIC_BELLMAN_FORD;
    case algorithm::graphblas_cpu:
      return TROPIC_GRAPHBLAS_CPU;
    case algorithm::adds:
      return TROPIC_ADDS;
    case algorithm::near_far:
      return TROPIC_NEAR_FAR;
    case algorithm::workfront:
      return TROPIC_WORKFRONT;
    case algorithm::rdbs:
      return TROPIC_RDBS;
    case algorithm::da2cf:
      return TROPIC_DA2CF;
    default:
      break;
  }
  throw error(error_code::invalid_value, std::string("the C API (tropic_algorithm) has no value "
                                                     "for '") +
                                             algorithm_name(a) + "'");
}

// A GrB_Matrix of g, as a GraphBLAS user holds it: sparse CSR by row, 64-bit indices.
template <class W>
detail::grb_handle<GrB_Matrix> grb_matrix_of(const csr<W>& g) {
  detail::ensure_graphblas();
  std::vector<GrB_Index> columns(g.columns.begin(), g.columns.end());
  const GrB_Index no_column = 0;
  const W no_weight = 0;
  detail::grb_handle<GrB_Matrix> a;
  detail::graphblas_check(
      detail::import_matrix<W>(a.out(), g.n, g.row_offsets.data(),
                               g.arcs() ? columns.data() : &no_column,
                               g.arcs() ? g.weights.data() : &no_weight, g.arcs()),
      "GrB_Matrix_import");
  return a;
}

template <class W>
std::vector<W> distances_of(GrB_Vector v, vertex n) {
  std::vector<W> x(n);
  GrB_Index k = n, size = 0;
  detail::graphblas_check(GrB_Vector_size(&size, v), "GrB_Vector_size");
  GrB_Info info = GrB_NOT_IMPLEMENTED;
  if (size == n) {
    if constexpr (std::is_same_v<W, float>)
      info = GrB_Vector_extractTuples_FP32(nullptr, x.data(), &k, v);
    if constexpr (std::is_same_v<W, double>)
      info = GrB_Vector_extractTuples_FP64(nullptr, x.data(), &k, v);
    if constexpr (std::is_same_v<W, std::uint32_t>)
      info = GrB_Vector_extractTuples_UINT32(nullptr, x.data(), &k, v);
  }
  detail::graphblas_check(info, "GrB_Vector_extractTuples");
  if (size != n || k != n)
    throw error(error_code::invalid_value, "the C API returned a vector of " + std::to_string(k) +
                                               " entries for " + std::to_string(n) +
                                               " vertices (not dense)");
  return x;
}

// ---------------------------------------------------------------------------------------------
// One graph

template <class W>
class graph_bench {
 public:
  graph_bench(const csr<W>& g, graph_report& gr, const suite_entry& e, const config& c,
              progress_line& progress, std::vector<row>& rows)
      : g_(g), gr_(gr), e_(e), c_(c), progress_(progress), rows_(rows) {}

  std::map<vertex, std::vector<W>> references;  // per source, kept for the peers (--peers)

  void run() {
    const double start = now_ms();
    for (std::size_t si = 0; si < gr_.sources.size(); ++si) {
      reference_.clear();
      for (std::size_t ai = 0; ai < c_.algorithms.size(); ++ai) {
        const bench_algorithm& alg = c_.algorithms[ai];
        progress_.show(gr_.name + "  source " + std::to_string(si + 1) + "/" +
                       std::to_string(gr_.sources.size()) + "  " + alg.name() + " | " + gr_.name +
                       " " + duration(now_ms() - start) + estimate(si, ai));
        const double t0 = now_ms();
        row r = measure(alg, si);
        if (r.status != "skipped") {
          spent_[alg.name()].first += now_ms() - t0;
          spent_[alg.name()].second += 1;
        }
        const bool reference_failed = alg.reference() && !c_.certify && r.status != "ok";
        rows_.push_back(r);
        // Without a reference nothing else can be validated for this source.
        if (reference_failed) break;
      }
      if (!c_.peers.empty() && !reference_.empty())
        references[gr_.sources[si].source] = std::move(reference_);
    }
    gr_.solves_ms = now_ms() - start;
  }

 private:
  // Why `alg` does not run on source si ("" when it runs). Only the reference always runs,
  // unless the certificate checks the rows.
  std::string skip_reason(const bench_algorithm& alg, std::size_t si) const {
    if (alg.reference())
      return c_.certify ? "--certify: every row is checked by the optimality certificate" : "";
    const std::string name = alg.name();
    if (std::find(e_.skip.begin(), e_.skip.end(), name) != e_.skip.end())
      return "skip=" + name + " (" + e_.file + ")";
    if (alg.cpu_peer() && e_.cpu_sources > 0 && si >= std::size_t(e_.cpu_sources))
      return "the suite times CPU peers on " + std::to_string(e_.cpu_sources) + " of " +
             std::to_string(gr_.sources.size()) +
             " sources (cpu-sources=" + std::to_string(e_.cpu_sources) + ", " + e_.file + ")";
    if (alg.c_api && si >= std::size_t(c_.c_api_sources))
      return "c_api: rows run on the first " + std::to_string(c_.c_api_sources) +
             " source(s) (--c-api-sources)";
    auto slow = slow_.find(name);
    if (slow != slow_.end() && slow->second.first >= c_.slow_sources)
      return "slow: " + slow->second.second + " (> --slow-ms " + num(c_.slow_ms) + "), timed on " +
             std::to_string(slow->second.first) + " source(s) only (--slow-sources)";
    return "";
  }

  // " ~2m10s left on the graph" once every algorithm still to run has a measured source.
  std::string estimate(std::size_t si, std::size_t ai) const {
    double left = 0;
    for (std::size_t s = si; s < gr_.sources.size(); ++s)
      for (std::size_t a = s == si ? ai : 0; a < c_.algorithms.size(); ++a) {
        const bench_algorithm& alg = c_.algorithms[a];
        if (!skip_reason(alg, s).empty()) continue;
        auto it = spent_.find(alg.name());
        if (it == spent_.end()) return "";
        left += it->second.first / it->second.second;
      }
    return ", ~" + duration(left) + " left";
  }

  row measure(const bench_algorithm& alg, std::size_t si) {
    const source_choice& sc = gr_.sources[si];
    row r;
    r.graph = gr_.name;
    r.n = g_.n;
    r.arcs = g_.arcs();
    r.avg_degree = gr_.stats.avg_degree;
    r.source = sc;
    r.algorithm = alg.name();
    r.gpu = alg.gpu();
    r.c_api = alg.c_api;
    const std::string skip = skip_reason(alg, si);
    if (!skip.empty()) {
      r.status = "skipped";
      r.note = skip;
      return r;
    }
    const int warmup = alg.reference() ? 0 : c_.warmup;
    // Dijkstra is deterministic and single-threaded, and on the largest graphs its runs would
    // dominate the suite's time: its one run is the reference run.
    const int timed = alg.reference() ? 1 : (alg.gpu() && !alg.c_api) ? c_.runs : c_.cpu_runs;
    std::vector<double> times, walls, setups, solves, peaks;
    std::vector<c_api_breakdown> parts;
    try {
      for (int k = 0; k < warmup + timed; ++k) {
        run_result one = alg.c_api ? run_c_api(alg, sc.source) : run_cpp(alg, sc.source);
        if (alg.reference() && reference_.empty()) {
          reference_ = one.res.distances;  // the reference run is also the first timed run
        } else {
          // The certificate needs no reference: an O(arcs) proof that the distances are exact.
          std::string problems = c_.certify ? certify(g_, sc.source, one.res)
                                            : verify(g_, sc.source, reference_, one.res);
          if (!problems.empty()) {
            r.status = "FAILURE";
            r.note = "run " + std::to_string(k + 1) + ": " + problems;
            break;
          }
        }
        // A run slower than --slow-ms is timed once and not repeated (DA2CF on a road graph
        // needs one pass per distinct distance: minutes, not milliseconds). The one-off upload
        // of a GPU graph does not count towards "slow"; a c_api: row's time is the whole call.
        const bool slow = k == 0 && !alg.reference() && one.time_ms > c_.slow_ms;
        if (slow) {
          r.note = "timed once (first run took " + std::to_string(long(one.time_ms)) + " ms)";
          auto& s = slow_[alg.name()];
          ++s.first;
          s.second = "first run took " + std::to_string(long(one.time_ms)) + " ms on source " +
                     std::to_string(sc.source);
        }
        if (k < warmup && !slow) continue;
        times.push_back(one.time_ms);
        walls.push_back(one.wall_ms);
        setups.push_back(one.res.stats.setup_milliseconds);
        solves.push_back(one.res.stats.milliseconds > 0 ? one.res.stats.milliseconds : one.time_ms);
        if (one.peak_bytes >= 0) peaks.push_back(one.peak_bytes);
        parts.push_back(one.parts);
        r.stats = one.res.stats;
        if (slow) break;
      }
    } catch (const std::exception& ex) {
      r.status = "error";
      r.note = ex.what();
    }
    if (r.status != "ok") {
      progress_.message(gr_.name + " source " + std::to_string(sc.source) + " " + r.algorithm +
                        ": " + r.status + ": " + r.note);
      return r;
    }
    r.runs = static_cast<int>(times.size());
    r.median_ms = median_of(times);
    r.min_ms = *std::min_element(times.begin(), times.end());
    r.wall_ms = median_of(walls);
    r.setup_ms = median_of(setups);
    r.solve_ms = median_of(solves);
    if (!peaks.empty()) r.peak_mib = *std::max_element(peaks.begin(), peaks.end()) / mib;
#if defined(TROPIC_HAVE_CUDA)
    if (alg.split()) {
      if (split_) r.graph_mib = split_bytes_ / mib;
    } else if (alg.gpu() && !alg.c_api && resident_) {
      r.graph_mib = graph_bytes_ / mib;
    }
#endif
    if (alg.c_api) {
      auto med = [&](double c_api_breakdown::*field) {
        std::vector<double> v;
        for (const auto& p : parts) v.push_back(p.*field);
        return median_of(v);
      };
      r.parts.unpack = med(&c_api_breakdown::unpack);
      r.parts.copy = med(&c_api_breakdown::copy);
      r.parts.pack = med(&c_api_breakdown::pack);
      r.parts.setup = med(&c_api_breakdown::setup);
      r.parts.solve = med(&c_api_breakdown::solve);
      r.parts.after_solve = med(&c_api_breakdown::after_solve);
      r.parts.output = med(&c_api_breakdown::output);
    }
    return r;
  }

  struct run_result {
    result<W> res;
    double time_ms = 0;      // what the row reports: the solve, or a c_api: call end to end
    double wall_ms = 0;      // the whole call on the host clock
    double peak_bytes = -1;  // device memory of the run, the graph included; < 0: CPU
    c_api_breakdown parts;
  };

  run_result run_cpp(const bench_algorithm& alg, vertex source) {
    options opts;
    opts.algorithm = alg.alg;
    run_result out;
#if defined(TROPIC_HAVE_CUDA)
    if (alg.split()) {
      // Split once per graph, as a user who solves from many sources keeps it; the parts' upload
      // is the setup. The pool probe watches one device: no peak for these rows. A split that
      // failed fails the graph's other sources with the same error, not another upload.
      if (!split_error_.empty()) throw error(error_code::out_of_memory, split_error_);
      if (!split_) {
        const double t0 = now_ms();
        try {
          split_ = std::make_unique<distributed_matrix<W>>(g_, alg.devices);
        } catch (const error& e) {
          if (e.code() != error_code::out_of_memory) throw;
          split_error_ = e.what();
          if (resident_) split_error_ += " (device " + std::to_string(alg.devices[0]) +
                                         " also holds the whole graph for the one-GPU rows)";
          throw error(e.code(), split_error_);
        }
        split_ms_ = now_ms() - t0;
        split_bytes_ = 0;
        for (std::size_t b : split_->device_bytes()) split_bytes_ += b;
      }
      opts.loop = c_.devices_loop;
      const double t0 = now_ms();
      out.res = sssp(*split_, source, opts);
      out.wall_ms = now_ms() - t0;
      out.res.stats.setup_milliseconds = split_ms_;
      out.time_ms = out.res.stats.milliseconds > 0 ? out.res.stats.milliseconds : out.wall_ms;
      return out;
    }
    if (alg.gpu()) {
      // GPU algorithms share one upload per graph (its time is reported as setup), as a user
      // who solves from many sources would do.
      if (!resident_) {
        if (!probe_) probe_.emplace();
        const std::uint64_t before = probe_->in_use();
        const double t0 = now_ms();
        resident_.emplace(g_);
        upload_ms_ = now_ms() - t0;
        const std::uint64_t after = probe_->in_use();
        graph_bytes_ = after > before ? after - before : 0;
      }
      probe_->begin();
      const double t0 = now_ms();
      out.res = sssp(*resident_, source, opts);
      out.wall_ms = now_ms() - t0;
      out.peak_bytes = double(graph_bytes_ + probe_->extra_since_begin());
      out.res.stats.setup_milliseconds = upload_ms_;
      out.time_ms = out.res.stats.milliseconds > 0 ? out.res.stats.milliseconds : out.wall_ms;
      return out;
    }
#endif
    const double t0 = now_ms();
    out.res = sssp(g_, source, opts);
    out.wall_ms = now_ms() - t0;
    // A CPU algorithm that leaves stats.milliseconds at 0 is timed by our own clock.
    out.time_ms = out.res.stats.milliseconds > 0 ? out.res.stats.milliseconds : out.wall_ms;
    return out;
  }

  run_result run_c_api(const bench_algorithm& alg, vertex source) {
    if (!matrix_.get()) {
      const double t0 = now_ms();
      matrix_ = grb_matrix_of(g_);
      progress_.message(gr_.name + ": GrB_Matrix for the c_api: rows built in " +
                        duration(now_ms() - t0) + " (not timed)");
    }
    tropic_options o = {};
    o.algorithm = c_algorithm(alg.alg);
    tropic_stats st = {};
    st.struct_size = sizeof st;
    char msg[TROPIC_MSG_LEN] = "";
    detail::grb_handle<GrB_Vector> d;
    run_result out;
#if defined(TROPIC_HAVE_CUDA)
    if (alg.gpu()) {
      if (!probe_) probe_.emplace();
      probe_->begin();
    }
#endif
    const double t0 = now_ms();
    const int info =
        tropic_sssp_ext(d.out(), nullptr, &st, matrix_.get(), source, nullptr, &o, msg);
    out.wall_ms = now_ms() - t0;
#if defined(TROPIC_HAVE_CUDA)
    // The call builds and frees its own device_matrix: the graph is part of this peak.
    if (alg.gpu()) out.peak_bytes = double(probe_->extra_since_begin());
#endif
    if (info != GrB_SUCCESS)
      throw error(error_code::graphblas,
                  "tropic_sssp_ext returned " + std::to_string(info) + ": " + msg);
    out.time_ms = out.wall_ms;
    out.res.distances = distances_of<W>(d.get(), g_.n);
    statistics& s = out.res.stats;
    s.algorithm = st.algorithm;
    s.delta = st.delta;
    s.buckets = st.buckets;
    s.iterations = st.iterations;
    s.vertices_relaxed = st.vertices_relaxed;
    s.arcs_relaxed = st.arcs_relaxed;
    s.milliseconds = st.milliseconds;
    s.setup_milliseconds = st.setup_milliseconds;
    out.parts.unpack = st.unpack_milliseconds;
    out.parts.copy = st.copy_milliseconds;
    out.parts.pack = st.pack_milliseconds;
    out.parts.setup = st.setup_milliseconds;
    out.parts.solve = st.milliseconds;
    out.parts.after_solve =
        std::max(0.0, st.sssp_milliseconds - st.setup_milliseconds - st.milliseconds);
    out.parts.output = st.output_milliseconds;
    return out;
  }

  const csr<W>& g_;
  graph_report& gr_;
  const suite_entry& e_;
  const config& c_;
  progress_line& progress_;
  std::vector<row>& rows_;
  std::vector<W> reference_;
  std::map<std::string, std::pair<double, int>> spent_;  // per algorithm: ms over sources, count
  std::map<std::string, std::pair<int, std::string>> slow_;  // slow first runs: count, last one
  detail::grb_handle<GrB_Matrix> matrix_;                    // for the c_api: rows
#if defined(TROPIC_HAVE_CUDA)
  std::optional<pool_probe> probe_;
  std::optional<device_matrix<W>> resident_;
  double upload_ms_ = 0;
  std::uint64_t graph_bytes_ = 0;
  std::unique_ptr<distributed_matrix<W>> split_;  // --devices
  double split_ms_ = 0;
  std::uint64_t split_bytes_ = 0;
  std::string split_error_;  // the split's out-of-memory error, once it failed
#endif
};

// ---------------------------------------------------------------------------------------------
// Reports

std::string ms_or_blank(double v, bool present) {
  return present ? fixed(v, 4) : "";
}

void write_csv(const std::string& path, const std::vector<row>& rows) {
  std::ofstream out(path);
  if (!out) throw error(error_code::io, "cannot write '" + path + "'");
  out << "graph,n,arcs,avg_degree,depth,reach,algorithm,source,runs,median_ms,min_ms,wall_ms,"
         "setup_ms,gteps,vertices_relaxed_per_n,arcs_relaxed,buckets,iterations,delta,valid,"
         "peak_device_mib,graph_device_mib,solve_ms,unpack_ms,copy_ms,pack_ms,after_solve_ms,"
         "output_ms,note\n";
  for (const row& r : rows) {
    const bool ok = r.status == "ok";
    out << csv_field(r.graph) << ',' << r.n << ',' << r.arcs << ',' << fixed(r.avg_degree, 3) << ','
        << r.source.depth << ',' << r.source.reach << ',' << r.algorithm << ',' << r.source.source
        << ',' << r.runs << ',';
    if (ok) {
      out << fixed(r.median_ms, 4) << ',' << fixed(r.min_ms, 4) << ',' << fixed(r.wall_ms, 4) << ','
          << fixed(r.setup_ms, 4) << ','
          << num(r.median_ms > 0 ? double(r.arcs) / (r.median_ms * 1e6) : 0, 6) << ','
          << fixed(r.n ? double(r.stats.vertices_relaxed) / r.n : 0, 4) << ','
          << r.stats.arcs_relaxed << ',' << r.stats.buckets << ',' << r.stats.iterations << ','
          << num(r.stats.delta, 8) << ",true," << (r.peak_mib >= 0 ? fixed(r.peak_mib, 1) : "")
          << ',' << (r.graph_mib >= 0 ? fixed(r.graph_mib, 1) : "") << ',' << fixed(r.solve_ms, 4)
          << ',' << ms_or_blank(r.parts.unpack, r.c_api) << ','
          << ms_or_blank(r.parts.copy, r.c_api) << ',' << ms_or_blank(r.parts.pack, r.c_api) << ','
          << ms_or_blank(r.parts.after_solve, r.c_api) << ','
          << ms_or_blank(r.parts.output, r.c_api) << ',';
    } else {
      out << ",,,,,,,,,,"
          << (r.status == "FAILURE"   ? "false"
              : r.status == "skipped" ? "skipped"
                                      : "error")
          << ",,,,,,,,,";
    }
    out << csv_field(r.note) << '\n';
  }
}

void write_ceilings_csv(const std::string& path,
                        const std::vector<std::pair<std::string, ceiling_row>>& ceilings) {
  std::ofstream out(path);
  if (!out) throw error(error_code::io, "cannot write '" + path + "'");
  out << "graph,ceiling,runs,median_ms,min_ms,gbytes_per_s,gteps,note\n";
  for (const auto& [graph, c] : ceilings)
    out << csv_field(graph) << ',' << csv_field(c.name) << ',' << c.runs << ','
        << fixed(c.milliseconds, 4) << ',' << fixed(c.min_milliseconds, 4) << ','
        << (c.bytes > 0 && c.milliseconds > 0 ? num(c.bytes / (c.milliseconds * 1e6), 6) : "")
        << ',' << (c.arcs > 0 && c.milliseconds > 0 ? num(c.arcs / (c.milliseconds * 1e6), 6) : "")
        << ',' << csv_field(c.note) << '\n';
}

std::string shell_output(const std::string& cmd) {
  std::string out;
  if (std::FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[256];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    ::pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

std::string machine_description() {
  std::string s;
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) {
      s = line.substr(line.find(':') + 2);
      break;
    }
  s += ", " + std::to_string(::sysconf(_SC_NPROCESSORS_ONLN)) + " CPU threads";
#if defined(TROPIC_HAVE_CUDA)
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0) {
    cudaDeviceProp p;
    int driver = 0, runtime = 0;
    cudaGetDeviceProperties(&p, 0);
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    s += "; GPU " + std::string(p.name) + " (" + std::to_string(p.totalGlobalMem >> 20) +
         " MiB), CUDA driver " + std::to_string(driver / 1000) + "." +
         std::to_string(driver % 1000 / 10) + ", runtime " + std::to_string(runtime / 1000) + "." +
         std::to_string(runtime % 1000 / 10);
  } else {
    cudaGetLastError();
    s += "; no CUDA device";
  }
#else
  s += "; CPU-only build";
#endif
  return s;
}

struct summary_cell {
  std::vector<double> ms;  // per-source medians of valid rows
  std::map<vertex, double> by_source;
  std::vector<double> work;  // arcs relaxed / dijkstra's arcs relaxed, per source
  std::vector<double> peak_mib, graph_mib;
  std::vector<c_api_breakdown> parts;
  int failures = 0, errors = 0, skipped = 0, total = 0;
  std::string first_problem, first_skip;
};

std::string speedup_over(const summary_cell& base, const summary_cell& cell) {
  double log_sum = 0;
  int k = 0;
  for (const auto& [s, ms] : cell.by_source) {
    auto it = base.by_source.find(s);
    if (it == base.by_source.end() || ms <= 0) continue;
    log_sum += std::log(it->second / ms);
    ++k;
  }
  return k ? num(std::exp(log_sum / k), 3) + "x" : "-";
}

std::string table_text(std::string p, std::size_t length = 160) {
  p = p.substr(0, length);
  std::replace(p.begin(), p.end(), '|', '/');
  std::replace(p.begin(), p.end(), '\n', ' ');
  return p;
}

// The valid column: "4/4", "1/1; skipped on 3 of 4 sources: why", "skipped: why".
std::string validity(const summary_cell& cell) {
  const int ran = cell.total - cell.skipped;
  if (ran == 0) return "skipped: " + table_text(cell.first_skip);
  std::string s = std::to_string(ran - cell.failures - cell.errors) + "/" + std::to_string(ran);
  if (cell.failures) s += " **FAILURE**";
  if (cell.errors) s += " **error**";
  if (!cell.first_problem.empty()) s += ": " + table_text(cell.first_problem);
  if (cell.skipped)
    s += "; skipped on " + std::to_string(cell.skipped) + " of " + std::to_string(cell.total) +
         " sources: " + table_text(cell.first_skip);
  return s;
}

std::string max_or_dash(const std::vector<double>& v, int digits) {
  return v.empty() ? "-" : fixed(*std::max_element(v.begin(), v.end()), digits);
}

std::string summary_markdown(const config& c, const std::vector<graph_report>& graphs,
                             const std::vector<row>& rows,
                             const std::vector<std::pair<std::string, ceiling_row>>& ceilings,
                             double total_ms) {
  std::ostringstream md;
  std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  // The build's commit; git asked now may see another tree (a copy on another machine, later
  // commits since the build): said too when it differs.
  std::string commit = TROPIC_BUILD_COMMIT;
  const std::string now_at =
      shell_output("git -C '" + repository_root() + "' describe --always --dirty --abbrev=7 2>/dev/null");
  if (!now_at.empty() && now_at != commit) commit += " (the source tree now: " + now_at + ")";
  md << "# tropic benchmark summary\n\n";
  md << "- command: `" << c.command_line << "`\n";
  md << "- date: " << date << "; whole run " << duration(total_ms) << "\n";
  md << "- machine: " << machine_description() << "\n";
  md << "- built from commit: " << commit << "\n";
  md << "- sources per graph: " << c.sources << " (suite lines may cap it); timed runs: " << c.runs
     << " (GPU), " << c.cpu_runs << " (CPU and c_api:; dijkstra 1, its reference run), after "
     << c.warmup << " warm-up; weights " << c.weights << "; --slow-ms " << num(c.slow_ms)
     << ", --slow-sources " << c.slow_sources << ", --c-api-sources " << c.c_api_sources << "\n";
#if !defined(TROPIC_HAVE_CUDA)
  md << "- CPU-only build: no GPU algorithm, no c_api:delta_stepping row, no ceilings\n";
#endif
  md << "\nTime is the median over sources of each source's median solve time (no upload). GTEPS = "
        "arcs / time. Speedups are geometric means over the sources where both ran correctly. "
        "Work = arcs relaxed / arcs relaxed by Dijkstra. Device memory (MiB) is what tropic "
        "allocated from its memory pool (tropic::memory_pool()): graph = the resident "
        "device_matrix (CSR sorted by weight, and its transpose), peak = the most in use during "
        "one solve, the graph included (the largest over runs and sources); cuSPARSE in the "
        "ceilings is not counted.\n\n";

  md << "## Graphs\n\n| graph | origin | n | arcs | avg degree | sources (reach, BFS depth) | "
        "time (s): load, sources, ceilings, solves |\n|---|---|---:|---:|---:|---|---|\n";
  for (const auto& g : graphs) {
    if (!g.skipped.empty()) {
      md << "| " << g.name << " | " << g.origin << " | skipped: " << table_text(g.skipped)
         << " | | | | |\n";
      continue;
    }
    md << "| " << g.name << " | " << g.origin << " | " << g.stats.n << " | " << g.stats.arcs
       << " | " << fixed(g.stats.avg_degree, 2) << " | ";
    for (std::size_t i = 0; i < g.sources.size(); ++i)
      md << (i ? ", " : "") << g.sources[i].source << " ("
         << fixed(100.0 * g.sources[i].reach / g.stats.n, 0) << "%, " << g.sources[i].depth << ")";
    md << (g.options.empty() ? "" : "; " + g.options) << " | " << fixed(g.load_ms / 1000, 1) << ", "
       << fixed(g.sources_ms / 1000, 1) << ", " << fixed(g.ceilings_ms / 1000, 1) << ", "
       << fixed(g.solves_ms / 1000, 1) << " |\n";
  }

  std::map<std::string, std::map<std::string, summary_cell>> cells;  // graph -> algorithm
  std::map<std::string, std::map<vertex, double>> dijkstra_work;
  for (const row& r : rows)
    if (r.algorithm == "dijkstra" && r.status == "ok")
      dijkstra_work[r.graph][r.source.source] = double(r.stats.arcs_relaxed);
  for (const row& r : rows) {
    summary_cell& cell = cells[r.graph][r.algorithm];
    ++cell.total;
    if (r.status == "ok") {
      cell.ms.push_back(r.median_ms);
      cell.by_source[r.source.source] = r.median_ms;
      double dw = dijkstra_work[r.graph][r.source.source];
      if (dw > 0) cell.work.push_back(double(r.stats.arcs_relaxed) / dw);
      if (r.peak_mib >= 0) cell.peak_mib.push_back(r.peak_mib);
      if (r.graph_mib >= 0) cell.graph_mib.push_back(r.graph_mib);
      if (r.c_api) cell.parts.push_back(r.parts);
    } else if (r.status == "skipped") {
      ++cell.skipped;
      if (cell.first_skip.empty()) cell.first_skip = r.note;
    } else {
      (r.status == "FAILURE" ? cell.failures : cell.errors)++;
      if (cell.first_problem.empty()) cell.first_problem = r.note;
    }
  }

  md << "\n## Results\n\n| graph | algorithm | time (ms) | GTEPS | vs graphblas_cpu | vs near_far "
        "| work vs dijkstra | graph MiB | peak MiB | valid |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const auto& g : graphs) {
    if (!g.skipped.empty()) continue;
    auto& algs = cells[g.name];
    for (const bench_algorithm& a : c.algorithms) {
      if (a.c_api) continue;  // their own table below
      auto it = algs.find(a.name());
      if (it == algs.end()) continue;
      const summary_cell& cell = it->second;
      md << "| " << g.name << " | " << it->first << " | ";
      if (!cell.ms.empty()) {
        double t = median_of(cell.ms);
        double work = 0;
        for (double w : cell.work) work += w;
        md << fixed(t, 3) << " | " << num(t > 0 ? double(g.stats.arcs) / (t * 1e6) : 0, 3) << " | "
           << (algs.count("graphblas_cpu") ? speedup_over(algs.at("graphblas_cpu"), cell) : "-")
           << " | " << (algs.count("near_far") ? speedup_over(algs.at("near_far"), cell) : "-")
           << " | " << (cell.work.empty() ? "-" : num(work / cell.work.size(), 3)) << " | "
           << max_or_dash(cell.graph_mib, 0) << " | " << max_or_dash(cell.peak_mib, 0) << " | ";
      } else {
        md << "- | - | - | - | - | - | - | ";
      }
      md << validity(cell) << " |\n";
    }
  }

  bool any_c_api = false;
  for (const auto& a : c.algorithms) any_c_api = any_c_api || a.c_api;
  if (any_c_api) {
    md << "\n## Through the C API\n\n"
          "tropic_sssp_ext on a GrB_Matrix (sparse CSR by row, built once per graph, untimed), "
          "timed end to end on a steady clock; then the medians of the steps tropic_stats "
          "reports: unpack (GxB_Matrix_unpack_CSR), copy (into tropic's CSR), pack (arrays "
          "handed back), setup (GPU: device_matrix upload and build; graphblas_cpu: GrB_Matrix "
          "import), solve, after solve (GPU: parents/overflow pass and download), output "
          "(result GrB_Vector). Peak MiB includes the device_matrix the call builds. Speedup: "
          "end to end over c_api:graphblas_cpu.\n\n"
          "| graph | algorithm | end to end (ms) | unpack | copy | pack | setup | solve | after "
          "solve | output | peak MiB | vs c_api:graphblas_cpu | valid |\n"
          "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
    for (const auto& g : graphs) {
      if (!g.skipped.empty()) continue;
      auto& algs = cells[g.name];
      for (const bench_algorithm& a : c.algorithms) {
        if (!a.c_api) continue;
        auto it = algs.find(a.name());
        if (it == algs.end()) continue;
        const summary_cell& cell = it->second;
        md << "| " << g.name << " | " << it->first << " | ";
        if (!cell.ms.empty()) {
          auto med = [&](double c_api_breakdown::*field) {
            std::vector<double> v;
            for (const auto& p : cell.parts) v.push_back(p.*field);
            return fixed(median_of(v), 2);
          };
          md << fixed(median_of(cell.ms), 2) << " | " << med(&c_api_breakdown::unpack) << " | "
             << med(&c_api_breakdown::copy) << " | " << med(&c_api_breakdown::pack) << " | "
             << med(&c_api_breakdown::setup) << " | " << med(&c_api_breakdown::solve) << " | "
             << med(&c_api_breakdown::after_solve) << " | " << med(&c_api_breakdown::output)
             << " | " << max_or_dash(cell.peak_mib, 0) << " | "
             << (algs.count("c_api:graphblas_cpu")
                     ? speedup_over(algs.at("c_api:graphblas_cpu"), cell)
                     : "-")
             << " | ";
        } else {
          md << "- | - | - | - | - | - | - | - | - | - | ";
        }
        md << validity(cell) << " |\n";
      }
    }
  }

  md << "\n## Ceilings\n\n";
  if (ceilings.empty()) {
    md << "None measured ("
       << (c.ceilings ? "this build or machine has no CUDA device" : "--no-ceilings") << ").\n";
  } else {
    md << "| graph | ceiling | time (ms) | GB/s | GTEPS | how |\n|---|---|---:|---:|---:|---|\n";
    for (const auto& [graph, cr] : ceilings)
      md << "| " << graph << " | " << cr.name << " | " << fixed(cr.milliseconds, 4) << " | "
         << (cr.bytes > 0 && cr.milliseconds > 0 ? num(cr.bytes / (cr.milliseconds * 1e6), 4) : "-")
         << " | "
         << (cr.arcs > 0 && cr.milliseconds > 0 ? num(cr.arcs / (cr.milliseconds * 1e6), 4) : "-")
         << " | " << cr.note << " |\n";
  }
  return md.str();
}

// A suite line's bench options as written, for the list and the summary.
std::string entry_options(const suite_entry& e) {
  std::string s;
  auto add = [&](const std::string& x) { s += (s.empty() ? "" : " ") + x; };
  if (e.max_sources) add("sources=" + std::to_string(e.max_sources));
  if (e.cpu_sources) add("cpu-sources=" + std::to_string(e.cpu_sources));
  if (!e.skip.empty()) {
    std::string names;
    for (const auto& n : e.skip) names += (names.empty() ? "" : ",") + n;
    add("skip=" + names);
  }
  return s;
}

// The peers' rows of one graph (issue 37): skipped by the suite like CPU peers (skip=peer:NAME,
// cpu-sources=N), else one driver call per peer, distances checked against the references.
template <class W>
void add_peer_rows(const csr<W>& g, const graph_report& gr, const suite_entry& e, const config& c,
                   const std::vector<peer>& peers, const std::map<vertex, std::vector<W>>& refs,
                   progress_line& progress, std::vector<row>& rows) {
  std::vector<vertex> sources;
  for (const auto& s : gr.sources) sources.push_back(s.source);
  auto skip = [&](const std::string& name, std::size_t si) -> std::string {
    if (std::find(e.skip.begin(), e.skip.end(), name) != e.skip.end())
      return "skip=" + name + " (" + e.file + ")";
    if (e.cpu_sources > 0 && si >= std::size_t(e.cpu_sources))
      return "the suite times CPU peers on " + std::to_string(e.cpu_sources) + " of " +
             std::to_string(sources.size()) +
             " sources (cpu-sources=" + std::to_string(e.cpu_sources) + ", " + e.file + ")";
    return "";
  };
  peer_settings settings;
  settings.warmup = c.warmup;
  settings.runs = c.cpu_runs;
  settings.slow_ms = c.slow_ms;
  settings.slow_sources = c.slow_sources;
  settings.timeout_s = c.peer_timeout;
  settings.sweep_budget_ms = c.peer_sweep_ms;
  settings.log_dir = c.out + "/peers";
  settings.certify = c.certify;
  for (const peer_row& p : run_peers_on_graph(g, gr.name, sources, refs, peers, settings, skip,
                                              [&](const std::string& m) { progress.message(m); })) {
    row r;
    r.graph = gr.name;
    r.n = g.n;
    r.arcs = g.arcs();
    r.avg_degree = gr.stats.avg_degree;
    r.source = gr.sources[p.source_index];
    r.algorithm = p.algorithm;
    r.status = p.status;
    r.note = p.note;
    if (p.status == "ok") {
      r.runs = int(p.ms.size());
      r.median_ms = r.wall_ms = r.solve_ms = median_of(p.ms);
      r.min_ms = *std::min_element(p.ms.begin(), p.ms.end());
      r.setup_ms = p.load_ms;
      r.stats.delta = p.delta;
    } else if (p.status != "skipped") {
      progress.message(gr.name + " source " + std::to_string(r.source.source) + " " + r.algorithm +
                       ": " + r.status + ": " + r.note);
    }
    rows.push_back(r);
  }
}
#include "many_sources.hpp"  // needs row, config, graph_report and median_of above

template <class W>
int run_typed(const config& c) {
  std::string suite_dir;
  std::vector<suite_entry> suite = load_suite(c, suite_dir);
  std::vector<peer> peers;
  if (!c.peers.empty()) peers = read_peers(c.peers);
  const std::string root = repository_root();
  std::vector<std::string> folders = c.data_dirs;
  folders.push_back(suite_dir);
  folders.push_back(root + "/../shared/data");
  folders.push_back(root + "/data");

  if (c.list_only) {
    for (const auto& e : suite) {
      std::string where =
          is_generator_spec(e.graph) ? "generated" : resolve_graph_file(e.graph, folders);
      std::printf("%-20s %-32s %s%s%s\n", e.name.c_str(), e.graph.c_str(),
                  where.empty() ? "(not found: skipped)" : where.c_str(),
                  entry_options(e).empty() ? "" : "  ", entry_options(e).c_str());
    }
    std::printf("algorithms:");
    for (const auto& a : c.algorithms) std::printf(" %s", a.name().c_str());
    std::printf("\n");
    return 0;
  }

  ::mkdir(c.out.c_str(), 0755);
  std::vector<row> rows;
  std::vector<graph_report> reports;
  std::vector<std::pair<std::string, ceiling_row>> ceilings;
  std::size_t steps = 0;
  for (const auto& e : suite) steps += std::size_t(sources_for(e, c)) * c.algorithms.size();
  progress_line progress(steps);

  for (const auto& e : suite) {
    const std::size_t graph_steps = std::size_t(sources_for(e, c)) * c.algorithms.size();
    graph_report gr;
    gr.name = e.name;
    gr.options = entry_options(e);
    std::string file;
    if (is_generator_spec(e.graph)) {
      gr.origin = e.graph + " (seed " + std::to_string(e.seed) + ")";
    } else {
      file = resolve_graph_file(e.graph, folders);
      gr.origin = e.graph + (e.unit_weights ? " (unit weights)" : "");
      if (file.empty()) {
        gr.skipped = "file not found";
        progress.message("skipping " + e.name + ": '" + e.graph +
                         "' is in none of the data folders");
        progress.advance(graph_steps);
        reports.push_back(gr);
        continue;
      }
    }
    progress.message("loading " + e.name + " (" + e.graph + ")");
    csr<W> g;
    try {
      bool cached = false;
      double t0 = now_ms();
      g = load_graph<W>(e, file, c, cached);
      gr.load_ms = now_ms() - t0;
      if (cached) gr.origin += ", cached";
    } catch (const std::exception& ex) {
      gr.skipped = std::string("load failed: ") + ex.what();
      progress.message("skipping " + e.name + ": " + ex.what());
      progress.advance(graph_steps);
      reports.push_back(gr);
      continue;
    }
    if (g.n == 0) {
      gr.skipped = "the graph has no vertices";
      progress.message("skipping " + e.name + ": the graph has no vertices");
      progress.advance(graph_steps);
      reports.push_back(gr);
      continue;
    }
    {
      const double t0 = now_ms();
      gr.stats = compute_stats(g);
      gr.sources =
          choose_sources(g, sources_for(e, c), c.seed ^ name_hash(e.name), gr.stats.symmetric);
      gr.sources_ms = now_ms() - t0;
    }
    if (c.ceilings) {
      const double t0 = now_ms();
      try {
        std::vector<ceiling_row> cr;
        if constexpr (std::is_same_v<W, float>)
          cr = measure_ceilings(g);
        else
          cr = measure_ceilings(convert_weights<float>(g));
        if constexpr (std::is_same_v<W, double>)
          for (auto& x : measure_double_spmv_ceilings(g)) cr.push_back(x);
        for (auto& x : cr) ceilings.emplace_back(e.name, x);
      } catch (const std::exception& ex) {
        progress.message("ceilings on " + e.name + " failed: " + ex.what());
      }
      gr.ceilings_ms = now_ms() - t0;
    }
    // Fewer sources than asked for (a tiny graph) leave steps that never show.
    progress.advance(graph_steps - gr.sources.size() * c.algorithms.size());
    std::map<vertex, std::vector<W>> references;
    {  // the bench's device graph and GrB_Matrix are freed before the peers run
      graph_bench<W> bench(g, gr, e, c, progress, rows);
      bench.run();
      references = std::move(bench.references);
    }
    if (!peers.empty()) add_peer_rows(g, gr, e, c, peers, references, progress, rows);
    many_source_rows(g, gr, c, rows);
    progress.message(e.name + " done in " +
                     duration(gr.load_ms + gr.sources_ms + gr.ceilings_ms + gr.solves_ms) +
                     " (load " + duration(gr.load_ms) + ", sources and statistics " +
                     duration(gr.sources_ms) + ", ceilings " + duration(gr.ceilings_ms) +
                     ", solves " + duration(gr.solves_ms) + ")");
    reports.push_back(gr);
    // Rewrite the outputs after every graph: a long run that dies keeps what it measured.
    write_csv(c.out + "/results.csv", rows);
    write_ceilings_csv(c.out + "/ceilings.csv", ceilings);
  }
  progress.finish();
  write_csv(c.out + "/results.csv", rows);
  write_ceilings_csv(c.out + "/ceilings.csv", ceilings);
  std::string md = summary_markdown(c, reports, rows, ceilings, progress.elapsed_ms()) +
                   many_sources_markdown(rows);
  if (!peers.empty()) {
    std::vector<std::string> names;
    for (const auto& gr : reports) names.push_back(gr.name);
    std::vector<timed_cell> cells;
    for (const row& r : rows)
      cells.push_back(
          {r.graph, r.algorithm, r.source.source, r.status, r.median_ms, r.stats.delta, r.note});
    md += peers_markdown(names, cells, peers, c.peers);
  }
  {
    std::ofstream out(c.out + "/summary.md");
    out << md;
    if (!out) throw error(error_code::io, "cannot write '" + c.out + "/summary.md'");
  }
  std::printf("%s\nwrote %s/results.csv, %s/ceilings.csv, %s/summary.md\n", md.c_str(),
              c.out.c_str(), c.out.c_str(), c.out.c_str());
  int bad = 0;
  for (const row& r : rows) bad += r.status != "ok" && r.status != "skipped";
  if (bad) std::fprintf(stderr, "tropic_bench: %d rows failed or errored (see summary)\n", bad);
  return bad ? 1 : 0;
}

int run(int argc, char** argv) {
  config c = parse_args(argc, argv);
  if (c.weights == "float") return run_typed<float>(c);
  if (c.weights == "double") return run_typed<double>(c);
  return run_typed<std::uint32_t>(c);
}

}  // namespace
}  // namespace tropic::bench

int main(int argc, char** argv) {
  try {
    return tropic::bench::run(argc, argv);
  } catch (const tropic::bench::usage_error& e) {
    std::fprintf(stderr, "tropic_bench: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tropic_bench: error: %s\n", e.what());
    return 1;
  }
}
