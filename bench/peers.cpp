// The outside SSSP programs in the bench (issue 37); see peers.hpp.
#include "peers.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <thread>
#include <type_traits>

#include "tropic/error.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"

namespace tropic::bench {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// key=value fields of an '@' line.
std::map<std::string, std::string> fields(const std::string& line) {
  std::map<std::string, std::string> out;
  std::istringstream in(line);
  std::string word;
  while (in >> word) {
    const auto eq = word.find('=');
    if (eq != std::string::npos) out[word.substr(0, eq)] = word.substr(eq + 1);
  }
  return out;
}

double to_double(const std::map<std::string, std::string>& f, const std::string& key) {
  auto it = f.find(key);
  if (it == f.end()) throw error(error_code::invalid_value, "no " + key + "=");
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  if (end == it->second.c_str() || *end || !std::isfinite(v))
    throw error(error_code::invalid_value, key + "='" + it->second + "' is not a number");
  return v;
}

std::uint64_t to_count(const std::map<std::string, std::string>& f, const std::string& key) {
  auto it = f.find(key);
  if (it == f.end() || it->second.empty() ||
      it->second.find_first_not_of("0123456789") != std::string::npos)
    throw error(error_code::invalid_value, key + "= missing or not a count" +
                                               (it == f.end() ? "" : " ('" + it->second + "')"));
  return std::stoull(it->second);
}

// verify()'s list of problems on one line, for a CSV note.
std::string one_line(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (!trim(line).empty()) out += (out.empty() ? "" : " ") + trim(line);
  return out;
}

// The last k non-empty lines of text, joined by " / " (a crashed driver's last words).
std::string last_lines(const std::string& text, std::size_t k) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (!trim(line).empty()) lines.push_back(trim(line));
  std::string out;
  for (std::size_t i = lines.size() > k ? lines.size() - k : 0; i < lines.size(); ++i)
    out += (out.empty() ? "" : " / ") + lines[i];
  return out;
}

std::string fixed0(double v) {
  return std::to_string(std::llround(v));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string safe_name(std::string s) {
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '.') ch = '_';
  return s;
}

// Runs argv with stdout and stderr into log; kills it after timeout_s. Returns "" for exit code
// 0, else how it ended.
std::string run_process(const std::vector<std::string>& argv, const std::string& log,
                        double timeout_s) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return std::string("fork failed: ") + std::strerror(errno);
  if (pid == 0) {
    ::setpgid(0, 0);  // its own process group: a timeout ends the driver and any child of it
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    ::execv(args[0], args.data());
    std::fprintf(stderr, "@error cannot run %s: %s\n", args[0], std::strerror(errno));
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here: whichever of the two runs first
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) return std::string("waitpid failed: ") + std::strerror(errno);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
        timeout_s) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return "killed after " + std::to_string(long(timeout_s)) + " s (--peer-timeout)";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFSIGNALED(status))
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    return "exit code " + std::to_string(WEXITSTATUS(status));
  return "";
}

std::string ms_text(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ms < 10 ? "%.3f" : ms < 1000 ? "%.2f" : "%.0f", ms);
  return buf;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

}  // namespace

std::vector<peer> read_peers(const std::string& dir) {
  const std::string path = dir + "/peers.txt";
  std::ifstream in(path);
  if (!in)
    throw error(error_code::io, "--peers " + dir + ": no " + path + " (scripts/fetch-peers.sh " +
                                    dir + " writes it)");
  std::vector<peer> out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    peer p;
    words >> p.name >> p.driver;
    std::getline(words, p.version);
    p.version = trim(p.version);
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (p.driver.empty() || p.version.empty())
      throw error(error_code::invalid_value,
                  where + "expected 'NAME DRIVER VERSION...', got '" + line + "'");
    if (p.driver[0] != '/') p.driver = dir + "/" + p.driver;
    if (char* real = ::realpath(p.driver.c_str(), nullptr)) {  // the bench may chdir; execv
      p.driver = real;
      std::free(real);
    }
    if (::access(p.driver.c_str(), X_OK) != 0)
      throw error(error_code::io, where + "driver '" + p.driver + "' is not an executable file");
    for (const auto& q : out)
      if (q.name == p.name)
        throw error(error_code::invalid_value, where + "peer '" + p.name + "' listed twice");
    out.push_back(p);
  }
  if (out.empty()) throw error(error_code::invalid_value, path + ": lists no peer");
  return out;
}

peer_output parse_peer_output(const std::string& text) {
  peer_output o;
  std::istringstream in(text);
  std::string line;
  std::set<std::uint64_t> seen_delta;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] != '@') continue;
    const auto f = fields(line);
    const std::string tag = line.substr(0, line.find(' '));
    try {
      if (tag == "@error") {
        o.error += (o.error.empty() ? "" : "; ") + trim(line.substr(6));
      } else if (tag == "@peer") {
        o.threads = int(to_count(f, "threads"));
        o.n = to_count(f, "n");
        o.arcs = to_count(f, "arcs");
        o.load_ms = to_double(f, "load_ms");
      } else if (tag == "@sweep") {
        o.sweep.emplace_back(to_count(f, "delta"), to_double(f, "ms"));
      } else if (tag == "@delta") {
        const std::string v = trim(line.substr(6));
        if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
          throw error(error_code::invalid_value, "'" + v + "' is not a delta");
        o.delta = std::stoull(v);
      } else if (tag == "@run") {
        o.runs[to_count(f, "source")].push_back(to_double(f, "ms"));
        if (f.count("slow")) o.slow.insert(to_count(f, "source"));
      } else if (tag == "@skip") {
        const auto words = line.find(' ', line.find("source="));
        o.skipped[to_count(f, "source")] =
            words == std::string::npos ? "skipped by the driver" : trim(line.substr(words));
      } else if (tag == "@sweep-stop") {
        o.sweep_stop = trim(line.substr(11));
      } else if (tag == "@distances") {
        if (!f.count("file")) throw error(error_code::invalid_value, "no file=");
        o.distances[to_count(f, "source")] = f.at("file");
      }
    } catch (const error& e) {
      o.error += (o.error.empty() ? "" : "; ") + std::string("output line ") +
                 std::to_string(number) + " '" + line + "': " + e.what();
    }
  }
  return o;
}

std::vector<std::uint64_t> delta_sweep() {
  std::vector<std::uint64_t> d;
  for (int k = 16; k >= 0; --k) d.push_back(std::uint64_t(1) << k);
  return d;
}

template <class W>
std::vector<W> read_peer_distances(const std::string& file, vertex n) {
  // One read and a pointer walk: a 16.8M-vertex graph gives 16.8M lines per source.
  std::ifstream in(file, std::ios::binary);
  if (!in) throw error(error_code::io, "cannot read " + file);
  const std::string text = read_file(file);
  std::vector<W> d(n, infinity<W>());
  std::vector<char> seen(n, 0);
  vertex count = 0;
  const char* p = text.c_str();
  const char* const end = p + text.size();
  for (long number = 1; p < end; ++number) {
    const char* eol = static_cast<const char*>(std::memchr(p, '\n', std::size_t(end - p)));
    if (!eol) eol = end;
    const std::string line(p, eol);
    auto bad = [&](const std::string& what) {
      return error(error_code::invalid_value,
                   file + ":" + std::to_string(number) + ": " + what + " in '" + line + "'");
    };
    char* stop = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(line.c_str(), &stop, 10);
    if (stop == line.c_str() || line[0] < '0' || line[0] > '9' || errno || *stop != ' ')
      throw bad("expected 'vertex distance'");
    if (v >= n || seen[v]) throw bad(v >= n ? "vertex out of range" : "vertex listed twice");
    seen[v] = 1;
    ++count;
    const char* value = stop + 1;
    if (std::strcmp(value, "inf") != 0) {
      char* after = nullptr;
      const long double x = std::strtold(value, &after);
      if (after == value || *after || errno || !(x >= 0) ||
          (std::is_integral_v<W> && (x != std::floor(x) || x >= (long double)infinity<W>())))
        throw bad(std::string("not a ") + weight_type_name<W>() + " distance");
      d[v] = static_cast<W>(x);
    }
    p = eol + 1;
  }
  if (count != n)
    throw error(error_code::invalid_value, file + ": " + std::to_string(count) + " distances for " +
                                               std::to_string(n) + " vertices");
  return d;
}

template <class W>
std::vector<peer_row> run_peers_on_graph(
    const csr<W>& g, const std::string& graph_name, const std::vector<vertex>& sources,
    const std::map<vertex, std::vector<W>>& references, const std::vector<peer>& peers,
    const peer_settings& settings,
    const std::function<std::string(const std::string&, std::size_t)>& skip,
    const std::function<void(const std::string&)>& message) {
  std::vector<peer_row> rows;
  const auto start = std::chrono::steady_clock::now();
  ::mkdir(settings.log_dir.c_str(), 0755);
  // The graph file and the distances (gigabytes on the largest graphs) go to a private
  // temporary folder, not beside the results: a run cut short leaves them out of --out.
  const char* tmp = std::getenv("TMPDIR");
  std::string scratch = std::string(tmp && *tmp ? tmp : "/tmp") + "/tropic-peers-XXXXXX";
  std::string stem, graph_file, graph_error;
  bool written = false;
  for (const peer& p : peers) {
    std::vector<std::size_t> run;
    std::vector<peer_row> mine;
    for (std::size_t si = 0; si < sources.size(); ++si) {
      peer_row r;
      r.algorithm = p.row_name();
      r.source_index = si;
      if constexpr (!std::is_same_v<W, std::uint32_t>) {
        r.status = "skipped";
        r.note =
            "peers run with --weights uint32 only (GAP's WeightT is int32; the drivers "
            "read uint32 graphs)";
      } else {
        r.note = skip(r.algorithm, si);
        if (!r.note.empty()) r.status = "skipped";
      }
      if (r.status != "skipped") run.push_back(si);
      mine.push_back(r);
    }
    if (!run.empty() && !written && graph_error.empty()) {
      // Outside any timed region: tropic's own binary graph, which both drivers read.
      try {
        if (!::mkdtemp(&scratch[0]))
          throw error(error_code::io,
                      "cannot make a folder " + scratch + ": " + std::strerror(errno));
        stem = scratch + "/" + safe_name(graph_name);
        graph_file = stem + ".tgr";
        write_binary_cache(g, graph_file);
        written = true;
      } catch (const std::exception& ex) {
        graph_error = std::string("the graph file for the peers: ") + ex.what();
      }
    }
    if (!graph_error.empty())
      for (std::size_t si : run) {
        mine[si].status = "error";
        mine[si].note = graph_error;
      }
    if (!run.empty() && written) {
      std::string list;
      for (std::size_t si : run) list += (list.empty() ? "" : ",") + std::to_string(sources[si]);
      std::string deltas;
      for (auto d : delta_sweep()) deltas += (deltas.empty() ? "" : ",") + std::to_string(d);
      const std::string log =
          settings.log_dir + "/" + safe_name(graph_name) + "." + safe_name(p.name) + ".log";
      const std::string dist = stem + "." + safe_name(p.name) + ".dist";
      message(graph_name + ": " + p.row_name() + " on " + std::to_string(run.size()) +
              " source(s), delta sweep on source " + std::to_string(sources[run[0]]));
      const std::string ended = run_process({p.driver,
                                             graph_file,
                                             "--sources",
                                             list,
                                             "--deltas",
                                             deltas,
                                             "--warmup",
                                             std::to_string(settings.warmup),
                                             "--runs",
                                             std::to_string(settings.runs),
                                             "--sweep-runs",
                                             "3",
                                             "--sweep-budget-ms",
                                             fixed0(settings.sweep_budget_ms),
                                             "--slow-ms",
                                             fixed0(settings.slow_ms),
                                             "--slow-sources",
                                             std::to_string(settings.slow_sources),
                                             "--distances",
                                             dist},
                                            log, settings.timeout_s);
      const std::string text = read_file(log);
      peer_output out = parse_peer_output(text);
      if (!ended.empty()) out.error += (out.error.empty() ? "" : "; ") + ended;
      std::string sweep;
      for (const auto& [d, ms] : out.sweep)
        sweep += (sweep.empty() ? "" : ", ") + std::to_string(d) + ": " + ms_text(ms);
      const std::string about = p.version + "; delta " + std::to_string(out.delta) + "; " +
                                std::to_string(out.threads) + " threads";
      for (std::size_t k = 0; k < run.size(); ++k) {
        peer_row& r = mine[run[k]];
        const vertex s = sources[run[k]];
        r.delta = double(out.delta);
        r.load_ms = out.load_ms;
        auto skipped = out.skipped.find(s);
        if (skipped != out.skipped.end()) {
          r.status = "skipped";
          r.note = skipped->second;
          continue;
        }
        auto times = out.runs.find(s);
        auto file = out.distances.find(s);
        auto ref = references.find(s);
        if (times == out.runs.end() || file == out.distances.end()) {
          r.status = "error";
          r.note = p.row_name() + " gave no answer for source " + std::to_string(s) + ": " +
                   (out.error.empty() ? "no @run/@distances lines" : out.error) +
                   "; last output: " + trim(last_lines(text, 3)) + " (" + log + ")";
          continue;
        }
        if (ref == references.end() && !settings.certify) {
          r.status = "error";
          r.note = "no reference distances for source " + std::to_string(s);
          continue;
        }
        try {
          result<W> got;
          got.distances = read_peer_distances<W>(file->second, g.n);
          const std::string problems =
              settings.certify ? certify(g, s, got) : verify(g, s, ref->second, got);
          if (!problems.empty()) {
            r.status = "FAILURE";
            r.note = one_line(problems) + " (" + about + ")";
            continue;
          }
        } catch (const std::exception& ex) {
          r.status = "FAILURE";
          r.note = std::string(ex.what()) + " (" + about + ")";
          continue;
        }
        r.ms = times->second;
        r.note = about;
        if (out.slow.count(s))
          r.note += "; timed once (first run took " + std::to_string(long(r.ms[0])) + " ms)";
        if (k == 0 && !sweep.empty())
          r.note += "; sweep (delta: ms) " + sweep +
                    (out.sweep_stop.empty() ? "" : "; " + out.sweep_stop);
        if (!out.error.empty()) r.note += "; the driver then failed: " + out.error;
      }
      for (const auto& [s, f] : out.distances) std::remove(f.c_str());
    }
    rows.insert(rows.end(), mine.begin(), mine.end());
  }
  if (written) {
    std::remove(graph_file.c_str());
    ::rmdir(scratch.c_str());
    message(graph_name + ": peers done in " +
            std::to_string(std::lround(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count())) +
            " s (graph file, loads, sweeps, runs, checks)");
  }
  return rows;
}

std::string peers_markdown(const std::vector<std::string>& graphs,
                           const std::vector<timed_cell>& cells, const std::vector<peer>& peers,
                           const std::string& dir) {
  struct cell {
    std::map<vertex, double> by_source;
    int ran = 0, bad = 0;
    double delta = 0;
    std::string first_problem;
  };
  std::map<std::string, std::map<std::string, cell>> table;  // graph -> algorithm
  for (const auto& c : cells) {
    if (c.algorithm.rfind("c_api:", 0) == 0 || c.status == "skipped") continue;
    cell& x = table[c.graph][c.algorithm];
    ++x.ran;
    if (c.status == "ok") {
      x.by_source[c.source] = c.ms;
      x.delta = c.delta;
    } else {
      ++x.bad;
      if (x.first_problem.empty()) x.first_problem = c.status + ": " + c.note;
    }
  }
  auto time_of = [](const cell& x) {
    std::vector<double> v;
    for (const auto& [s, ms] : x.by_source) v.push_back(ms);
    return median(v);
  };
  auto is_peer = [](const std::string& a) { return a.rfind("peer:", 0) == 0; };
  std::ostringstream md;
  md << "\n## Against the peers\n\nPeers (`--peers " << dir << "`, built by "
     << "scripts/fetch-peers.sh):";
  for (const auto& p : peers) md << " " << p.row_name() << " = " << p.version << ";";
  md << " each on all host threads, with the best delta of a sweep on the graph's first source "
        "(powers of 2 from 2^16 down, stopped at 2x the best; the sweep is in results.csv's "
        "note). A peer's time is its solve inside its own process, the graph already loaded "
        "(the median over sources of each source's median); its distances are checked against "
        "the same reference as every row. tropic best: the fastest of tropic's algorithms (C "
        "API rows aside) with every run correct. peer / tropic: the geometric mean over the "
        "sources both answered correctly of the best peer's time / tropic's (above 1: tropic "
        "is faster).\n\n"
        "| graph | tropic best | ms | best peer | ms | delta | peer / tropic | every peer: ms "
        "(delta), valid |\n|---|---|---:|---|---:|---:|---:|---|\n";
  int shown = 0;
  for (const auto& graph : graphs) {
    auto it = table.find(graph);
    if (it == table.end()) continue;
    std::string best_t, best_p;
    double t_ms = 0, p_ms = 0;
    std::string every;
    for (const auto& [alg, x] : it->second) {
      const bool clean = x.bad == 0 && !x.by_source.empty();
      if (is_peer(alg)) {
        every += (every.empty() ? "" : "; ") + alg + " ";
        if (!x.by_source.empty())
          every += ms_text(time_of(x)) + " (" + std::to_string(std::uint64_t(x.delta)) + "), ";
        every += std::to_string(x.ran - x.bad) + "/" + std::to_string(x.ran);
        if (x.bad) {
          std::string why = x.first_problem.substr(0, 160);
          std::replace(why.begin(), why.end(), '|', '/');
          std::replace(why.begin(), why.end(), '\n', ' ');
          every += " **" + why + "**";
        }
      }
      if (!clean) continue;
      std::string& best = is_peer(alg) ? best_p : best_t;
      double& best_ms = is_peer(alg) ? p_ms : t_ms;
      if (best.empty() || time_of(x) < best_ms) {
        best = alg;
        best_ms = time_of(x);
      }
    }
    if (every.empty()) continue;  // no peer ran on this graph
    ++shown;
    md << "| " << graph << " | " << (best_t.empty() ? "-" : best_t) << " | "
       << (best_t.empty() ? "-" : ms_text(t_ms)) << " | " << (best_p.empty() ? "-" : best_p)
       << " | " << (best_p.empty() ? "-" : ms_text(p_ms)) << " | ";
    std::string ratio = "-";
    if (!best_t.empty() && !best_p.empty()) {
      const cell& t = it->second.at(best_t);
      const cell& p = it->second.at(best_p);
      md << std::uint64_t(p.delta);
      double log_sum = 0;
      int k = 0;
      for (const auto& [s, ms] : p.by_source) {
        auto q = t.by_source.find(s);
        if (q == t.by_source.end() || q->second <= 0 || ms <= 0) continue;
        log_sum += std::log(ms / q->second);
        ++k;
      }
      if (k) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3gx", std::exp(log_sum / k));
        ratio = buf;
      }
    } else {
      md << "-";
    }
    md << " | " << ratio << " | " << every << " |\n";
  }
  if (!shown) md << "\nNo peer ran: the peer:NAME rows of results.csv say why.\n";
  return md.str();
}

#define TROPIC_BENCH_PEERS(W)                                                                  \
  template std::vector<W> read_peer_distances<W>(const std::string&, vertex);                  \
  template std::vector<peer_row> run_peers_on_graph<W>(                                        \
      const csr<W>&, const std::string&, const std::vector<vertex>&,                           \
      const std::map<vertex, std::vector<W>>&, const std::vector<peer>&, const peer_settings&, \
      const std::function<std::string(const std::string&, std::size_t)>&,                      \
      const std::function<void(const std::string&)>&);
TROPIC_BENCH_PEERS(std::uint32_t)
TROPIC_BENCH_PEERS(float)
TROPIC_BENCH_PEERS(double)
#undef TROPIC_BENCH_PEERS

}  // namespace tropic::bench
