// tropic_bench: every algorithm of this build and the CPU peers on one suite of graphs, with the
// same sources, in one run (issue 8). Also reachable as `tropic bench`.
//
// For each graph x source: the CPU Dijkstra reference first (its time is the `dijkstra` row);
// then for each algorithm: warm-up runs, then timed runs. Times are stats.milliseconds, the
// solve alone (CUDA events for GPU algorithms, a steady clock for CPU ones; upload is
// setup_ms). Every run's distances are checked against the reference outside the timed region:
// a wrong answer makes the row a FAILURE with no time, never a fast one.
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
#include <sstream>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "ceilings.hpp"
#if defined(TROPIC_HAVE_CUDA)
#include "tropic/device_matrix.hpp"
#endif
#include "suite.hpp"
#include "tropic/csr.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"

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

struct config {
  std::string suite = "quick";
  std::vector<std::string> graphs;  // --graphs: ad-hoc specs/files instead of a suite
  std::vector<algorithm> algorithms;
  bool algorithms_given = false;
  int sources = 4;
  int runs = 5;
  int cpu_runs = 3;
  int warmup = 1;
  std::uint64_t seed = 1;
  std::string out = "bench-results";
  std::vector<std::string> data_dirs;
  std::string cache;
  bool ceilings = true;
  double slow_ms = 2000;  // a first run slower than this is the only timed run
  bool list_only = false;
  std::string weights = "uint32";
  std::string command_line;
};

void print_help() {
  std::printf(
      "usage: tropic_bench [options]      (or: tropic bench [options])\n\n"
      "Runs every algorithm on every graph of a suite from the same sources, checks every answer\n"
      "against the CPU Dijkstra, and writes results.csv, ceilings.csv and summary.md.\n\n"
      "  --suite NAME|FILE     quick (default; a smoke run), full, or a suite file\n"
      "  --graphs G1,G2,...    graphs (generator specs or files) instead of a suite\n"
      "  --algorithms A,B,...  default: every algorithm of this build (GPU ones only when a\n"
      "                        device is present)\n"
      "  --sources K           sources per graph (default 4)\n"
      "  --runs N              timed runs per GPU algorithm and source (default 5; median)\n"
      "  --cpu-runs N          timed runs per CPU algorithm and source (default 3); dijkstra\n"
      "                        runs once: its reference run is its timed run\n"
      "  --warmup N            untimed runs before the timed ones (default 1; not dijkstra)\n"
      "  --seed S              seed of generators and source choice (default 1)\n"
      "  --weights T           uint32 (default), float or double\n"
      "  --data DIR            another folder to look for graph files (repeatable)\n"
      "  --cache DIR           keep generated graphs there as .tgr and reuse them\n"
      "  --out DIR             output folder (default bench-results)\n"
      "  --no-ceilings         skip the copy-bandwidth / SpMV ceilings\n"
      "  --slow-ms MS          a first run slower than MS is timed once, not repeated (2000)\n"
      "  --list                print the suite and algorithms, run nothing\n\n"
      "Algorithms in this build: ");
  bool first = true;
  for (algorithm a : available_algorithms())
    if (a != algorithm::automatic) {
      std::printf("%s%s", first ? "" : ", ", algorithm_name(a));
      first = false;
    }
  std::printf("\nSuites: %s/bench/suites/\n", repository_root().c_str());
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
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
          algorithm x = parse_algorithm(name);
          if (x == algorithm::automatic)
            throw usage_error("'auto' is not an algorithm to benchmark: name the algorithms");
          c.algorithms.push_back(x);
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
    } else if (a == "--slow-ms") {
      c.slow_ms = parse_count(a, v(), 1);
    } else if (a == "--out") {
      c.out = v();
    } else if (a == "--no-ceilings" && !has_inline) {
      c.ceilings = false;
    } else if (a == "--list" && !has_inline) {
      c.list_only = true;
    } else {
      throw usage_error("unknown argument '" + std::string(argv[i]) + "' (see --help)");
    }
  }
  if (!c.algorithms_given) {
    const bool gpu = gpu_available();
    for (algorithm a : available_algorithms())
      if (a != algorithm::automatic && (gpu || !is_gpu_algorithm(a))) c.algorithms.push_back(a);
  }
  // dijkstra is the reference and always runs; listing it first keeps the CSV in a stable order.
  c.algorithms.erase(std::remove(c.algorithms.begin(), c.algorithms.end(), algorithm::dijkstra),
                     c.algorithms.end());
  c.algorithms.insert(c.algorithms.begin(), algorithm::dijkstra);
  return c;
}

std::vector<suite_entry> load_suite(const config& c, std::string& suite_dir) {
  if (!c.graphs.empty()) {
    std::vector<suite_entry> out;
    for (const auto& g : c.graphs) {
      suite_entry e;
      e.name = g;
      e.graph = g;
      e.seed = c.seed;
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
  return read_suite(path);
}

// ---------------------------------------------------------------------------------------------
// Measurements

struct row {
  std::string graph;
  vertex n = 0;
  arc_index arcs = 0;
  double avg_degree = 0;
  source_choice source;
  std::string algorithm;
  bool gpu = false;
  int runs = 0;
  double median_ms = 0, min_ms = 0, setup_ms = 0, wall_ms = 0;
  statistics stats;           // from the last timed run
  std::string status = "ok";  // ok, FAILURE (wrong answer), error (exception)
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

class progress_line {
 public:
  explicit progress_line(std::size_t total) : total_(total), tty_(::isatty(2)) {}
  void show(const std::string& what) {
    ++done_;
    std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + what;
    if (tty_)
      std::fprintf(stderr, "\r\033[K%s", line.c_str());
    else
      std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
  }
  void message(const std::string& text) {
    std::fprintf(stderr, "%s%s\n", tty_ ? "\r\033[K" : "", text.c_str());
  }
  void finish() {
    if (tty_) std::fprintf(stderr, "\n");
  }

 private:
  std::size_t total_, done_ = 0;
  bool tty_;
};

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
  double load_ms = 0;
  std::vector<source_choice> sources;
};

template <class W>
void bench_graph(const csr<W>& g, const graph_report& gr, const config& c, progress_line& progress,
                 std::vector<row>& rows) {
#if defined(TROPIC_HAVE_CUDA)
  // GPU algorithms share one upload per graph (its time is reported as setup), as a user who
  // solves from many sources would do.
  std::optional<device_matrix<W>> resident;
  double upload_ms = 0;
#endif
  auto solve = [&](algorithm alg, vertex source, const options& opts) -> result<W> {
#if defined(TROPIC_HAVE_CUDA)
    if (is_gpu_algorithm(alg)) {
      if (!resident) {
        const double t0 = now_ms();
        resident.emplace(g);
        upload_ms = now_ms() - t0;
      }
      result<W> r = sssp(*resident, source, opts);
      r.stats.setup_milliseconds = upload_ms;
      return r;
    }
#endif
    (void)alg;
    return sssp(g, source, opts);
  };
  for (std::size_t si = 0; si < gr.sources.size(); ++si) {
    const source_choice& sc = gr.sources[si];
    std::vector<W> reference;
    for (algorithm alg : c.algorithms) {
      const bool gpu = is_gpu_algorithm(alg);
      row r;
      r.graph = gr.name;
      r.n = g.n;
      r.arcs = g.arcs();
      r.avg_degree = gr.stats.avg_degree;
      r.source = sc;
      r.algorithm = algorithm_name(alg);
      r.gpu = gpu;
      progress.show(gr.name + "  source " + std::to_string(si + 1) + "/" +
                    std::to_string(gr.sources.size()) + "  " + r.algorithm);
      options opts;
      opts.algorithm = alg;
      const int warmup = alg == algorithm::dijkstra ? 0 : c.warmup;
      // Dijkstra is deterministic and single-threaded, and on the largest graphs its runs would
      // dominate the suite's time: its one run is the reference run.
      const int timed = alg == algorithm::dijkstra ? 1 : gpu ? c.runs : c.cpu_runs;
      std::vector<double> times, walls, setups;
      try {
        for (int k = 0; k < warmup + timed; ++k) {
          double t0 = now_ms();
          result<W> res = solve(alg, sc.source, opts);
          double wall = now_ms() - t0;
          if (alg == algorithm::dijkstra && reference.empty()) {
            reference = res.distances;  // the reference run is also the first timed run
          } else {
            std::string problems = verify(g, sc.source, reference, res);
            if (!problems.empty()) {
              r.status = "FAILURE";
              r.note = "run " + std::to_string(k + 1) + ": " + problems;
              break;
            }
          }
          // A run slower than --slow-ms is timed once and not repeated (DA2CF on a road graph
          // needs one pass per distinct distance: minutes, not milliseconds).
          // The one-off upload of a GPU graph does not count towards "slow".
          const double solve_ms = res.stats.milliseconds > 0 ? res.stats.milliseconds : wall;
          const bool slow = k == 0 && solve_ms > c.slow_ms;
          if (slow) r.note = "timed once (first run took " + std::to_string(int(solve_ms)) + " ms)";
          if (k < warmup && !slow) continue;
          // A CPU algorithm that leaves stats.milliseconds at 0 is timed by our own clock.
          times.push_back(res.stats.milliseconds > 0 ? res.stats.milliseconds : wall);
          walls.push_back(wall);
          setups.push_back(res.stats.setup_milliseconds);
          r.stats = res.stats;
          if (slow) break;
        }
      } catch (const std::exception& e) {
        r.status = "error";
        r.note = e.what();
      }
      if (r.status == "ok") {
        r.runs = static_cast<int>(times.size());
        r.median_ms = median_of(times);
        r.min_ms = *std::min_element(times.begin(), times.end());
        r.wall_ms = median_of(walls);
        r.setup_ms = median_of(setups);
      } else {
        progress.message(gr.name + " source " + std::to_string(sc.source) + " " + r.algorithm +
                         ": " + r.status + ": " + r.note);
        if (alg == algorithm::dijkstra) {
          // Without a reference nothing else can be validated for this source.
          rows.push_back(r);
          break;
        }
      }
      rows.push_back(r);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Reports

void write_csv(const std::string& path, const std::vector<row>& rows) {
  std::ofstream out(path);
  if (!out) throw error(error_code::io, "cannot write '" + path + "'");
  out << "graph,n,arcs,avg_degree,depth,reach,algorithm,source,runs,median_ms,min_ms,wall_ms,"
         "setup_ms,gteps,vertices_relaxed_per_n,arcs_relaxed,buckets,iterations,delta,valid,"
         "note\n";
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
          << num(r.stats.delta, 8) << ",true,";
    } else {
      out << ",,,,,,,,,," << (r.status == "FAILURE" ? "false" : "error") << ',';
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
  int failures = 0, errors = 0, total = 0;
  std::string first_problem;
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

std::string summary_markdown(const config& c, const std::vector<graph_report>& graphs,
                             const std::vector<row>& rows,
                             const std::vector<std::pair<std::string, ceiling_row>>& ceilings) {
  std::ostringstream md;
  std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  std::string commit =
      shell_output("git -C '" + repository_root() + "' rev-parse --short HEAD 2>/dev/null");
  md << "# tropic benchmark summary\n\n";
  md << "- command: `" << c.command_line << "`\n";
  md << "- date: " << date << "\n";
  md << "- machine: " << machine_description() << "\n";
  md << "- commit: " << (commit.empty() ? "unknown" : commit) << "\n";
  md << "- sources per graph: " << c.sources << "; timed runs: " << c.runs << " (GPU), "
     << c.cpu_runs << " (CPU; dijkstra 1, its reference run), after " << c.warmup
     << " warm-up; weights " << c.weights << "\n\n";
  md << "Time is the median over sources of each source's median solve time (no upload). GTEPS = "
        "arcs / time. Speedups are geometric means over the sources where both ran correctly. "
        "Work = arcs relaxed / arcs relaxed by Dijkstra.\n\n";

  md << "## Graphs\n\n| graph | origin | n | arcs | avg degree | sources (reach, BFS depth) |\n"
        "|---|---|---:|---:|---:|---|\n";
  for (const auto& g : graphs) {
    if (!g.skipped.empty()) {
      md << "| " << g.name << " | " << g.origin << " | skipped: " << g.skipped << " | | | |\n";
      continue;
    }
    md << "| " << g.name << " | " << g.origin << " | " << g.stats.n << " | " << g.stats.arcs
       << " | " << fixed(g.stats.avg_degree, 2) << " | ";
    for (std::size_t i = 0; i < g.sources.size(); ++i)
      md << (i ? ", " : "") << g.sources[i].source << " ("
         << fixed(100.0 * g.sources[i].reach / g.stats.n, 0) << "%, " << g.sources[i].depth << ")";
    md << " |\n";
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
    } else {
      (r.status == "FAILURE" ? cell.failures : cell.errors)++;
      if (cell.first_problem.empty()) cell.first_problem = r.note;
    }
  }

  md << "\n## Results\n\n| graph | algorithm | time (ms) | GTEPS | vs graphblas_cpu | vs near_far "
        "| "
        "work vs dijkstra | valid |\n|---|---|---:|---:|---:|---:|---:|---|\n";
  for (const auto& g : graphs) {
    if (!g.skipped.empty()) continue;
    auto& algs = cells[g.name];
    for (algorithm a : c.algorithms) {
      auto it = algs.find(algorithm_name(a));
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
           << " | " << (cell.work.empty() ? "-" : num(work / cell.work.size(), 3)) << " | ";
      } else {
        md << "- | - | - | - | - | ";
      }
      int ok = cell.total - cell.failures - cell.errors;
      md << ok << "/" << cell.total;
      if (cell.failures) md << " **FAILURE**";
      if (cell.errors) md << " **error**";
      if (!cell.first_problem.empty()) {
        std::string p = cell.first_problem.substr(0, 160);
        std::replace(p.begin(), p.end(), '|', '/');
        std::replace(p.begin(), p.end(), '\n', ' ');
        md << ": " << p;
      }
      md << " |\n";
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

template <class W>
int run_typed(const config& c) {
  std::string suite_dir;
  std::vector<suite_entry> suite = load_suite(c, suite_dir);
  const std::string root = repository_root();
  std::vector<std::string> folders = c.data_dirs;
  folders.push_back(suite_dir);
  folders.push_back(root + "/../shared/data");
  folders.push_back(root + "/data");

  if (c.list_only) {
    for (const auto& e : suite) {
      std::string where =
          is_generator_spec(e.graph) ? "generated" : resolve_graph_file(e.graph, folders);
      std::printf("%-20s %-32s %s\n", e.name.c_str(), e.graph.c_str(),
                  where.empty() ? "(not found: skipped)" : where.c_str());
    }
    std::printf("algorithms:");
    for (algorithm a : c.algorithms) std::printf(" %s", algorithm_name(a));
    std::printf("\n");
    return 0;
  }

  ::mkdir(c.out.c_str(), 0755);
  std::vector<row> rows;
  std::vector<graph_report> reports;
  std::vector<std::pair<std::string, ceiling_row>> ceilings;
  progress_line progress(suite.size() * static_cast<std::size_t>(c.sources) * c.algorithms.size());

  for (const auto& e : suite) {
    graph_report gr;
    gr.name = e.name;
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
      reports.push_back(gr);
      continue;
    }
    if (g.n == 0) {
      gr.skipped = "the graph has no vertices";
      progress.message("skipping " + e.name + ": the graph has no vertices");
      reports.push_back(gr);
      continue;
    }
    gr.stats = compute_stats(g);
    gr.sources = choose_sources(g, c.sources, c.seed ^ name_hash(e.name), gr.stats.symmetric);
    if (c.ceilings) {
      try {
        std::vector<ceiling_row> cr;
        if constexpr (std::is_same_v<W, float>)
          cr = measure_ceilings(g);
        else
          cr = measure_ceilings(convert_weights<float>(g));
        for (auto& x : cr) ceilings.emplace_back(e.name, x);
      } catch (const std::exception& ex) {
        progress.message("ceilings on " + e.name + " failed: " + ex.what());
      }
    }
    bench_graph(g, gr, c, progress, rows);
    reports.push_back(gr);
    // Rewrite the outputs after every graph: a long run that dies keeps what it measured.
    write_csv(c.out + "/results.csv", rows);
    write_ceilings_csv(c.out + "/ceilings.csv", ceilings);
  }
  progress.finish();
  write_csv(c.out + "/results.csv", rows);
  write_ceilings_csv(c.out + "/ceilings.csv", ceilings);
  std::string md = summary_markdown(c, reports, rows, ceilings);
  {
    std::ofstream out(c.out + "/summary.md");
    out << md;
    if (!out) throw error(error_code::io, "cannot write '" + c.out + "/summary.md'");
  }
  std::printf("%s\nwrote %s/results.csv, %s/ceilings.csv, %s/summary.md\n", md.c_str(),
              c.out.c_str(), c.out.c_str(), c.out.c_str());
  int bad = 0;
  for (const row& r : rows) bad += r.status != "ok";
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
