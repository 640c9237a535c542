// `tropic`: the command-line face of the library.
//
//   tropic info GRAPH              format, size, weight range, degree statistics
//   tropic sssp GRAPH --source S   shortest paths with any algorithm, optional check and output
//   tropic generate SPEC -o FILE   synthetic graphs written as .mtx, .gr or .tgr
//   tropic bench ...               the benchmark harness (bench/, the tropic_bench program)
//
// Exit codes: 0 success, 1 a failure (bad input file, failed verification, algorithm error),
// 2 a usage error (unknown option, malformed number, unknown algorithm).
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <string>
#include <system_error>
#include <type_traits>
#include <vector>

#include "args.hpp"
#include "graph_input.hpp"
#include "tropic/csr.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"

namespace tropic::cli {
namespace {

constexpr const char* graph_help =
    "GRAPH is a file (Matrix Market, DIMACS .gr, SNAP edge list, Galois binary .gr or tropic\n"
    "binary .tgr; detected by content, .gz read transparently; '-' is standard input, and\n"
    "pipes and FIFOs work) or a generator spec:\n"
    "  kron:SCALE[:EF]   Graph500 Kronecker, 2^SCALE vertices, EF*2^SCALE edges (EF=16),\n"
    "                    symmetric, weights 1..255\n"
    "  uniform:N:DEG     N vertices, DEG random out-arcs each, weights 1..10\n"
    "  grid:ROWS:COLS    4-neighbour 2D grid, symmetric, weights 1..1000\n"
    "\n"
    "Graph options:\n"
    "  --weights TYPE    auto (default), uint32, int32, uint64, int64, float, double.\n"
    "                    auto = uint32 when every weight is an integer in 0..2^32-1\n"
    "                    (generators, DIMACS, unweighted files), uint64 for larger integers,\n"
    "                    else double; never rounded (an integer double cannot hold exactly\n"
    "                    beside non-integer weights is an error). A uint32 solve whose\n"
    "                    distances overflow is solved again in uint64.\n"
    "  --unit-weights    every arc weighs 1 (unweighted files otherwise get a hash of the\n"
    "                    vertex pair, 1..255, the same for both directions)\n"
    "  --seed S          generator seed, and seed of hashed weights (default 1)\n"
    "  --symmetrize      add v->u for every u->v (files only; generators say what they are)\n"
    "  --compact-ids     SNAP edge lists: renumber sparse ids 0..k-1 in order of appearance\n"
    "  --quiet           no progress messages on stderr\n"
    "  --memory-limit B  bytes a file read may use (the input, decompressed, and the graph it\n"
    "                    announces); suffixes K, M, G. Default: the memory available now\n";

const std::vector<option_spec> graph_options = {
    {"weights", 0, true},      {"unit-weights", 0, false}, {"seed", 0, true},
    {"symmetrize", 0, false},  {"quiet", 'q', false},      {"help", 'h', false},
    {"compact-ids", 0, false}, {"memory-limit", 0, true},
};

// "4096", "64K", "512M", "2G" (powers of 1024).
std::uint64_t parse_bytes(const std::string& s) {
  std::uint64_t x = 0;
  const char* b = s.data();
  const char* e = b + s.size();
  const auto r = std::from_chars(b, e, x);
  std::uint64_t scale = 1;
  if (r.ec == std::errc() && r.ptr + 1 == e) {
    const char u = *r.ptr;
    scale = u == 'K' || u == 'k'   ? 1ull << 10
            : u == 'M' || u == 'm' ? 1ull << 20
            : u == 'G' || u == 'g' ? 1ull << 30
            : u == 'T' || u == 't' ? 1ull << 40
                                   : 0;
  } else if (r.ec != std::errc() || r.ptr != e) {
    scale = 0;
  }
  if (scale == 0 || x == 0 || x > std::numeric_limits<std::uint64_t>::max() / scale)
    throw usage_error(
        "--memory-limit must be a positive byte count such as 4096, 512M or 2G; got '" + s + "'");
  return x * scale;
}

std::vector<option_spec> with_graph_options(std::vector<option_spec> extra) {
  extra.insert(extra.end(), graph_options.begin(), graph_options.end());
  return extra;
}

graph_request graph_request_from(const parsed_args& a, const std::string& graph) {
  graph_request r;
  r.graph = graph;
  r.weights = parse_weight_choice(a.get("weights", "auto"));
  r.seed = a.get_u64("seed", 1);
  r.unit_weights = a.has("unit-weights");
  r.symmetrize = a.has("symmetrize");
  r.compact_ids = a.has("compact-ids");
  r.progress = !a.has("quiet");
  if (a.has("memory-limit")) r.memory_limit = parse_bytes(a.get("memory-limit"));
  if (r.symmetrize && is_generator_spec(graph))
    throw usage_error("--symmetrize applies to files; kron and grid graphs are symmetric already");
  return r;
}

std::string one_graph(const parsed_args& a, const char* command) {
  const auto& pos = a.positionals();
  if (pos.empty()) throw usage_error(std::string("missing GRAPH") + a.help_hint());
  if (pos.size() > 1)
    throw usage_error(std::string("tropic ") + command + " takes one GRAPH, got '" + pos[1] +
                      "' too" + a.help_hint());
  return pos[0];
}

// Shortest round-trip text for a weight or distance; "inf" for unreachable.
template <class W>
char* format_value(char* out, char* end, W v) {
  if (v == infinity<W>()) {
    std::memcpy(out, "inf", 3);
    return out + 3;
  }
  return std::to_chars(out, end, v).ptr;
}

std::string value_string(double v) {
  if (std::isinf(v)) return "inf";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string significant(double v, int digits) {
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

// ---------------------------------------------------------------------------------------------
// tropic info

int info_command(int argc, char** argv) {
  parsed_args a("info", with_graph_options({}), argc, argv, 2);
  if (a.has("help")) {
    std::printf(
        "usage: tropic info GRAPH [graph options]\n\n"
        "Prints the input format, vertex and arc counts, the weight range and degree "
        "statistics.\n\n%s",
        graph_help);
    return 0;
  }
  graph_request req = graph_request_from(a, one_graph(a, "info"));
  return with_graph(req, [&](const auto& g, const graph_origin& origin) {
    using W = typename std::decay_t<decltype(g.weights)>::value_type;
    graph_stats s = compute_stats(g);
    std::printf("graph       %s\n", req.graph.c_str());
    if (origin.generated) {
      std::printf("format      generated (seed %llu)\n", (unsigned long long)req.seed);
    } else {
      std::printf("format      %s, %s%s\n", format_name(origin.file.format),
                  req.unit_weights       ? "unit weights (forced)"
                  : origin.file.weighted ? "weighted"
                                         : "unweighted (hashed weights 1..255)",
                  origin.file.symmetric_storage ? ", symmetric storage (mirrored)" : "");
    }
    std::printf("vertices    %llu\n", (unsigned long long)s.n);
    if (origin.generated)
      std::printf("arcs        %llu\n", (unsigned long long)s.arcs);
    else
      std::printf("arcs        %llu (%llu entries in the file)\n", (unsigned long long)s.arcs,
                  (unsigned long long)origin.file.arcs_in_file);
    std::printf("weights     %s: min %s, avg %s, max %s%s\n", weight_type_name<W>(),
                value_string(s.min_weight).c_str(), fixed(s.avg_weight, 3).c_str(),
                value_string(s.max_weight).c_str(),
                s.has_negative_weight ? " (negative weights present)" : "");
    std::printf("degree      avg %s, max %llu, %llu vertices without out-arcs\n",
                fixed(s.avg_degree, 3).c_str(), (unsigned long long)s.max_degree,
                (unsigned long long)s.isolated);
    std::printf("symmetric   %s\n", s.symmetric ? "yes" : "no");
    std::printf("probe       %u BFS levels from the vertex of most out-arcs to %llu vertices "
                "(auto's depth test: README)\n",
                unsigned(s.probe_levels), (unsigned long long)stats_probe_vertices);
    if (!s.has_negative_weight)
      std::printf("delta       %s (auto: 32 * avg weight / avg degree, Davidson et al.; "
                  "delta_stepping below avg degree 16: 4x it, back to 1x once the frontier "
                  "grows geometrically, or 2x when a row has more than 256 arcs)\n",
                  significant(choose_delta(s), 6).c_str());
    std::printf("load        %s ms\n", fixed(origin.load_ms, 1).c_str());
    return 0;
  });
}

// ---------------------------------------------------------------------------------------------
// tropic sssp

std::string available_names() {
  std::string s;
  for (algorithm x : available_algorithms()) {
    if (!s.empty()) s += ", ";
    s += algorithm_name(x);
  }
  return s;
}

template <class W>
void write_distances(const std::string& path, const result<W>& r, bool parents) {
  std::FILE* f = path == "-" ? stdout : std::fopen(path.c_str(), "wb");
  if (!f)
    throw error(error_code::io, "cannot open '" + path + "' for writing: " + std::strerror(errno));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(path == "-" ? nullptr : f, &std::fclose);
  // One buffered write per 1 MiB: printf per line would dominate for 10^7 vertices.
  std::vector<char> buf(1 << 20);
  std::size_t used = 0;
  auto flush = [&] {
    if (used && std::fwrite(buf.data(), 1, used, f) != used)
      throw error(error_code::io, "cannot write '" + path + "': " + std::strerror(errno));
    used = 0;
  };
  for (std::size_t v = 0; v < r.distances.size(); ++v) {
    if (buf.size() - used < 128) flush();
    char* p = buf.data() + used;
    char* end = buf.data() + buf.size();
    p = std::to_chars(p, end, v).ptr;
    *p++ = ' ';
    p = format_value(p, end, r.distances[v]);
    if (parents) {
      *p++ = ' ';
      p = std::to_chars(p, end, r.parents[v]).ptr;
    }
    *p++ = '\n';
    used = static_cast<std::size_t>(p - buf.data());
  }
  flush();
  if (std::fflush(f) != 0)
    throw error(error_code::io, "cannot write '" + path + "': " + std::strerror(errno));
  if (path != "-") {
    closer.release();
    if (std::fclose(f) != 0)
      throw error(error_code::io, "cannot close '" + path + "': " + std::strerror(errno));
  }
}

// The sum of all finite distances without overflow: 128-bit for integers, long double for floats.
template <class W>
std::string sum_of_distances(const std::vector<W>& d) {
  if constexpr (std::is_floating_point_v<W>) {
    long double s = 0;
    for (W x : d)
      if (x != infinity<W>()) s += x;
    return value_string(static_cast<double>(s));
  } else {
    __int128 s = 0;
    for (W x : d)
      if (x != infinity<W>()) s += static_cast<__int128>(x);
    bool negative = s < 0;
    unsigned __int128 u = negative ? -static_cast<unsigned __int128>(s) : s;
    std::string digits;
    do {
      digits.insert(digits.begin(), char('0' + int(u % 10)));
      u /= 10;
    } while (u != 0);
    return negative ? "-" + digits : digits;
  }
}

// --sources (and --devices): "0,5,17" or "@FILE" (ids separated by commas, blanks or newlines; '#' to the end
// of a line is a comment). A bad token is a usage error naming it and its position.
std::vector<vertex> parse_id_list(const std::string& arg, const std::string& option) {
  std::string text = arg, where = option;
  if (!arg.empty() && arg[0] == '@') {
    const std::string path = arg.substr(1);
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
      throw error(error_code::io,
                  "cannot open " + option + " file '" + path + "': " + std::strerror(errno));
    text.clear();
    char buf[4096];
    for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, got);
    std::fclose(f);
    where = option + " file '" + path + "'";
  }
  std::vector<vertex> out;
  std::string token;
  bool comment = false;
  auto flush = [&] {
    if (token.empty()) return;
    const std::string at = where + ", entry " + std::to_string(out.size() + 1);
    if (token.find_first_not_of("0123456789") != std::string::npos)
      throw usage_error(at + ": '" + token + "' is not a vertex id (a non-negative integer)");
    errno = 0;
    const unsigned long long v = std::strtoull(token.c_str(), nullptr, 10);
    if (errno == ERANGE || v > std::numeric_limits<vertex>::max())
      throw usage_error(at + ": '" + token + "' exceeds the 32-bit vertex range");
    out.push_back(static_cast<vertex>(v));
    token.clear();
  };
  for (char c : text) {
    if (comment) {
      comment = c != '\n';
      continue;
    }
    if (c == '#') {
      flush();
      comment = true;
    } else if (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (c == ',' && token.empty() && where == option)
        throw usage_error(option + ", entry " + std::to_string(out.size() + 1) +
                          ": empty (two commas in a row, or a leading comma)");
      flush();
    } else {
      token += c;
    }
  }
  flush();
  if (out.empty()) throw usage_error(where + " holds no vertex id");
  return out;
}

// Distances beyond the cutoff become unreachable (the reference for --verify with --cutoff).
template <class W>
void truncate(std::vector<W>& d, double cutoff) {
  for (W& x : d)
    if (x != infinity<W>() && double(x) > cutoff) x = infinity<W>();
}

// tropic sssp --sources: one multi-source solve; summary line, --output lines
// '<source> <vertex> <distance>[ <parent>]' per reached pair, --verify per row.
template <class W>
int run_many(const csr<W>& g, const std::vector<vertex>& sources, const options& opts,
             std::uint64_t repeat, const std::string& output, bool check) {
  multi_result<W> r;
  std::vector<double> times;
  for (std::uint64_t k = 0; k < repeat; ++k) {
    r = sssp(g, sources, opts);
    times.push_back(r.stats.milliseconds);
  }
  std::sort(times.begin(), times.end());
  std::uint64_t reached = 0;
  for (W d : r.distances) reached += d != infinity<W>();
  std::printf(
      "%s: %zu sources, reached %llu (source, vertex) pairs of %llu, solve %s ms%s, "
      "setup %s ms\n",
      r.stats.algorithm.c_str(), sources.size(), (unsigned long long)reached,
      (unsigned long long)(sources.size() * std::uint64_t(g.n)),
      fixed(times[times.size() / 2], 3).c_str(),
      repeat > 1
          ? (" (median of " + std::to_string(repeat) + ", min " + fixed(times.front(), 3) + ")")
                .c_str()
          : "",
      fixed(r.stats.setup_milliseconds, 3).c_str());
  std::fflush(stdout);
  if (!output.empty()) {
    std::FILE* f = output == "-" ? stdout : std::fopen(output.c_str(), "wb");
    if (!f)
      throw error(error_code::io,
                  "cannot open '" + output + "' for writing: " + std::strerror(errno));
    std::vector<char> buf(1 << 20);
    std::size_t used = 0;
    auto flush = [&] {
      if (used && std::fwrite(buf.data(), 1, used, f) != used)
        throw error(error_code::io, "cannot write '" + output + "': " + std::strerror(errno));
      used = 0;
    };
    for (std::size_t i = 0; i < sources.size(); ++i)
      for (vertex v = 0; v < g.n; ++v) {
        const W d = r.distance(i, v);
        if (d == infinity<W>()) continue;
        if (buf.size() - used < 160) flush();
        char* p = buf.data() + used;
        char* end = buf.data() + buf.size();
        p = std::to_chars(p, end, sources[i]).ptr;
        *p++ = ' ';
        p = std::to_chars(p, end, v).ptr;
        *p++ = ' ';
        p = format_value(p, end, d);
        if (opts.parents) {
          *p++ = ' ';
          p = std::to_chars(p, end, r.parents[i * g.n + v]).ptr;
        }
        *p++ = '\n';
        used = static_cast<std::size_t>(p - buf.data());
      }
    flush();
    const bool ok = std::fflush(f) == 0 && (output == "-" || std::fclose(f) == 0);
    if (!ok) throw error(error_code::io, "cannot write '" + output + "': " + std::strerror(errno));
  }
  if (check) {
    std::size_t wrong = 0;
    std::string first;
    for (std::size_t i = 0; i < sources.size(); ++i) {
      result<W> want = reference_sssp(g, sources[i], false);
      truncate(want.distances, opts.cutoff);
      result<W> row;
      row.distances.assign(r.row(i), r.row(i) + g.n);
      if (opts.parents)
        row.parents.assign(r.parents.begin() + i * g.n, r.parents.begin() + (i + 1) * g.n);
      const std::string problems = verify(g, sources[i], want.distances, row);
      if (!problems.empty() && wrong++ == 0)
        first = "source " + std::to_string(sources[i]) + ": " + problems;
    }
    if (wrong) {
      std::printf("verify FAILED for %zu of %zu sources; %s", wrong, sources.size(), first.c_str());
      return 1;
    }
    std::printf("verify OK: %zu rows%s match the CPU reference\n", sources.size(),
                opts.parents ? " and parents" : "");
  }
  return 0;
}

int sssp_command(int argc, char** argv) {
  parsed_args a("sssp",
                with_graph_options({{"source", 's', true},
                                    {"sources", 0, true},
                                    {"cutoff", 0, true},
                                    {"algorithm", 'a', true},
                                    {"delta", 'd', true},
                                    {"loop", 0, true},
                                    {"parents", 'p', false},
                                    {"output", 'o', true},
                                    {"verify", 0, false},
                                    {"certify", 0, false},
                                    {"repeat", 'r', true},
                                    {"device", 0, true},
                                    {"devices", 0, true},
                                    {"verbose", 'v', false}}),
                argc, argv, 2);
  if (a.has("help")) {
    std::printf(
        "usage: tropic sssp GRAPH --source S [options]\n"
        "       tropic sssp GRAPH --sources S1,S2,... | --sources @FILE [options]\n\n"
        "Single-source shortest paths from vertex S (0-based). Prints one summary line:\n"
        "algorithm, reached vertices, max and sum of distances, solve and setup time.\n\n"
        "Options:\n"
        "  -s, --source S      source vertex, 0-based\n"
        "      --sources LIST  many sources at once: comma-separated vertex ids, or @FILE with\n"
        "                      ids separated by commas, blanks or newlines ('#' starts a\n"
        "                      comment); duplicates allowed. --output then writes\n"
        "                      '<source> <vertex> <distance>[ <parent>]' per reached pair\n"
        "      --cutoff X      report vertices farther than X unreachable and do not search\n"
        "                      past them (scipy's limit); default inf\n"
        "  -a, --algorithm A   auto (default: on a GPU adds or delta_stepping by the graph's size\n"
        "                      and depth, README's rule; else graphblas_cpu)\n"
        "                      available in this build: %s\n"
        "  -d, --delta D       bucket width; 0 = automatic (default), inf = one bucket\n"
        "      --loop L        who drives delta_stepping/bellman_ford's loop: auto (default),\n"
        "                      host (a round trip per step) or device (one kernel); with\n"
        "                      --devices, steps or closure rounds (README, Several GPUs)\n"
        "  -p, --parents       also compute a shortest-path tree\n"
        "  -o, --output FILE   write '<vertex> <distance>[ <parent>]' per vertex, 0-based,\n"
        "                      'inf' when unreachable, parent -1 for the source and\n"
        "                      unreachable vertices; '-' writes to stdout\n"
        "      --verify        check against the CPU reference, Dijkstra or (negative arcs)\n"
        "                      Bellman-Ford (exit 1 when wrong)\n"
        "      --certify       prove the answer exact from the graph alone, in O(arcs), with\n"
        "                      no reference solve: d[S] = 0, d[v] <= d[u] + w on every arc,\n"
        "                      a tight parent tree (computed for it); exit 1 when it fails\n"
        "  -r, --repeat K      solve K times, report the median and minimum solve time\n"
        "      --device N      CUDA device for GPU algorithms (default 0)\n"
        "      --devices LIST  several GPUs of this host, e.g. 0,1,2,3: delta_stepping with\n"
        "                      the graph split by rows over them, distances exchanged through\n"
        "                      NCCL (same answers as one GPU)\n"
        "  -v, --verbose       also print Delta, buckets, iterations and work\n\n%s",
        available_names().c_str(), graph_help);
    return 0;
  }
  graph_request req = graph_request_from(a, one_graph(a, "sssp"));
  if (a.has("source") && a.has("sources"))
    throw usage_error("--source and --sources exclude each other" + a.help_hint());
  if (!a.has("source") && !a.has("sources"))
    throw usage_error("missing --source S (or --sources LIST)" + a.help_hint());
  const bool many = a.has("sources");
  const std::vector<vertex> sources =
      many ? parse_id_list(a.get("sources"), "--sources") : std::vector<vertex>{};
  std::uint64_t source64 = a.get_u64("source", 0);
  if (source64 > std::numeric_limits<vertex>::max())
    throw usage_error("--source " + std::to_string(source64) + " exceeds the 32-bit vertex range");
  const vertex source = static_cast<vertex>(source64);

  options opts;
  try {
    opts.algorithm = parse_algorithm(a.get("algorithm", "auto"));
  } catch (const error& e) {
    throw usage_error(e.what());
  }
  opts.delta = a.get_double("delta", 0);
  if (!(opts.delta >= 0))
    throw usage_error("--delta must be positive (or 0 for automatic), got " + a.get("delta"));
  try {
    opts.loop = parse_loop_control(a.get("loop", "auto"));
  } catch (const error& e) {
    throw usage_error(std::string("--") + e.what());
  }
  opts.cutoff = a.get_double("cutoff", HUGE_VAL);
  if (!(opts.cutoff >= 0))
    throw usage_error("--cutoff must be >= 0 (or inf for none), got '" + a.get("cutoff") + "'");
  // The certificate needs parents: without them zero-weight and negative arcs leave exact
  // answers unprovable (algorithms/certify.cpp). --output keeps the columns asked for.
  const bool certify_answer = a.has("certify");
  if (certify_answer && many)
    throw usage_error("--certify checks one source: use --source" + a.help_hint());
  if (certify_answer && a.has("cutoff"))
    throw usage_error("--certify and --cutoff exclude each other: a cutoff's answer leaves "
                      "reachable vertices unreached, which the certificate rejects" +
                      a.help_hint());
  const bool parents_output = a.has("parents");
  opts.parents = parents_output || certify_answer;
  opts.device = static_cast<int>(a.get_u64("device", 0));
  if (a.has("devices")) {
    if (a.has("device"))
      throw usage_error("--device and --devices exclude each other" + a.help_hint());
    for (vertex d : parse_id_list(a.get("devices"), "--devices")) {
      if (d > 1024) throw usage_error("--devices: " + std::to_string(d) + " is not a device ordinal");
      opts.devices.push_back(static_cast<int>(d));
    }
    if (opts.devices.empty()) throw usage_error("--devices needs at least one device ordinal");
  }
  opts.verbose = a.has("verbose");
  const std::uint64_t repeat = a.get_u64("repeat", 1);
  if (repeat == 0) throw usage_error("--repeat must be at least 1");
  const std::string output = a.get("output");
  const bool check = a.has("verify");

  // An unwritable --output fails now, not after a long solve. The probe appends nothing and
  // removes a file it had to create.
  if (!output.empty() && output != "-") {
    const bool existed = file_exists(output);
    std::FILE* probe = std::fopen(output.c_str(), "ab");
    if (!probe)
      throw error(error_code::io,
                  "cannot open '" + output + "' for writing: " + std::strerror(errno));
    std::fclose(probe);
    if (!existed) std::remove(output.c_str());
  }

  // The advice an overflow error gets: a wider type only where one exists.
  auto overflow_advice = [](const char* type) -> std::string {
    const std::string t = type;
    const std::string used = " (this run used --weights " + t;
    if (t == "uint32") return used + "; try --weights uint64)";
    if (t == "int32") return used + "; try --weights int64)";
    if (t == "float") return used + "; try --weights double)";
    if (t == "double") return used + ", the widest floating-point type)";
    return used +
           ", the widest integer type; --weights double holds larger distances, rounded "
           "above 2^53)";
  };

  // Prints the summary, writes --output and runs --verify for a finished solve.
  auto report = [&](const auto& g, const auto& r, const std::vector<double>& times) -> int {
    using W = typename std::decay_t<decltype(g.weights)>::value_type;
    vertex reached = 0;
    W max_distance = W(0);
    for (W d : r.distances)
      if (d != infinity<W>()) {
        ++reached;
        max_distance = std::max(max_distance, d);
      }
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    double median = sorted.size() % 2
                        ? sorted[sorted.size() / 2]
                        : 0.5 * (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]);
    std::string time = "solve " + fixed(median, 3) + " ms";
    if (repeat > 1)
      time += " (median of " + std::to_string(repeat) + ", min " + fixed(sorted.front(), 3) + ")";
    char maxbuf[64];
    *format_value(maxbuf, maxbuf + sizeof maxbuf - 1, max_distance) = '\0';
    std::printf("%s: source %u, reached %u of %u, max distance %s, sum %s, %s, setup %s ms\n",
                r.stats.algorithm.c_str(), source, reached, g.n, maxbuf,
                sum_of_distances(r.distances).c_str(), time.c_str(),
                fixed(r.stats.setup_milliseconds, 3).c_str());
    if (opts.verbose)
      std::printf(
          "  weights %s, delta %s, buckets %llu, iterations %llu, vertices relaxed %llu "
          "(%.3f per vertex), arcs relaxed %llu (%.3f per arc), host round trips %llu, "
          "buckets run by the GPU-driven loop %llu\n",
          weight_type_name<W>(), significant(r.stats.delta, 6).c_str(),
          (unsigned long long)r.stats.buckets, (unsigned long long)r.stats.iterations,
          (unsigned long long)r.stats.vertices_relaxed,
          g.n ? double(r.stats.vertices_relaxed) / g.n : 0.0,
          (unsigned long long)r.stats.arcs_relaxed,
          g.arcs() ? double(r.stats.arcs_relaxed) / double(g.arcs()) : 0.0,
          (unsigned long long)r.stats.host_round_trips,
          (unsigned long long)r.stats.device_loop_buckets);
    if (opts.verbose && !std::isinf(r.stats.widened_at))
      std::printf("  the search finished as one bucket from distance %s\n",
                  significant(r.stats.widened_at, 6).c_str());
    std::fflush(stdout);

    if (!output.empty()) write_distances(output, r, parents_output);

    if (check) {
      auto t0 = std::chrono::steady_clock::now();
      result<W> want = reference_sssp(g, source, false);  // Bellman-Ford with negative arcs
      truncate(want.distances, opts.cutoff);
      std::string problems = verify(g, source, want.distances, r);
      double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (!problems.empty()) {
        std::printf("verify FAILED against %s: %s\n", want.stats.algorithm.c_str(),
                    problems.c_str());
        return 1;
      }
      std::printf("verify OK: distances%s match %s (checked in %s ms)\n",
                  opts.parents ? " and parents" : "", want.stats.algorithm.c_str(),
                  fixed(ms, 1).c_str());
    }
    if (certify_answer) {
      const auto t0 = std::chrono::steady_clock::now();
      const std::string violation = certify(g, source, r);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (!violation.empty()) {
        std::printf("certificate: FAILED: %s\n", violation.c_str());
        return 1;
      }
      std::printf("certificate: ok (d[source] = 0, no arc relaxes, a tight parent tree; checked "
                  "in %s ms)\n",
                  fixed(ms, 1).c_str());
    }
    return 0;
  };

  return with_graph(req, [&](const auto& g0, const graph_origin&) -> int {
    using W0 = typename std::decay_t<decltype(g0.weights)>::value_type;
    // `auto` picked uint32 from the weights alone; distances can still exceed it. Then the
    // graph is solved again in uint64, exactly, rather than failing or rounding.
    auto solve = [&](const auto& g, auto& times) {
      using W = typename std::decay_t<decltype(g.weights)>::value_type;
      result<W> r;
      try {
        for (std::uint64_t k = 0; k < repeat; ++k) {
          r = sssp(g, source, opts);
          times.push_back(r.stats.milliseconds);
        }
      } catch (const error& e) {
        if (e.code() == error_code::overflow && std::strstr(e.what(), "--weights") == nullptr)
          throw error(e.code(), std::string(e.what()) + overflow_advice(weight_type_name<W>()));
        throw;
      }
      return r;
    };
    if (many) {
      for (std::size_t i = 0; i < sources.size(); ++i)
        if (sources[i] >= g0.n)
          throw error(error_code::invalid_index, "--sources entry " + std::to_string(i + 1) + ", " +
                                                     std::to_string(sources[i]) +
                                                     ", is out of range: the graph has " +
                                                     std::to_string(g0.n) + " vertices (0-based)");
      if constexpr (std::is_same_v<W0, std::uint32_t>) {
        if (req.weights == weight_choice::automatic) {
          try {
            return run_many(g0, sources, opts, repeat, output, check);
          } catch (const error& e) {
            if (e.code() != error_code::overflow) throw;
          }
          std::fprintf(stderr,
                       "tropic: distances exceed uint32 (--weights auto chose it from the "
                       "weights); solving again with uint64\n");
          return run_many(convert_weights<std::uint64_t>(g0), sources, opts, repeat, output, check);
        }
      }
      return run_many(g0, sources, opts, repeat, output, check);
    }
    if (source >= g0.n)
      throw error(error_code::invalid_index, "--source " + std::to_string(source) +
                                                 " is out of range: the graph has " +
                                                 std::to_string(g0.n) + " vertices (0-based)");
    std::vector<double> times;
    if constexpr (std::is_same_v<W0, std::uint32_t>) {
      if (req.weights == weight_choice::automatic) {
        try {
          const auto r = solve(g0, times);
          return report(g0, r, times);
        } catch (const error& e) {
          if (e.code() != error_code::overflow) throw;
        }
        std::fprintf(stderr,
                     "tropic: distances exceed uint32 (--weights auto chose it from the "
                     "weights); solving again with uint64\n");
        times.clear();
        const csr<std::uint64_t> wide = convert_weights<std::uint64_t>(g0);
        const auto r = solve(wide, times);
        return report(wide, r, times);
      }
    }
    const auto r = solve(g0, times);
    return report(g0, r, times);
  });
}

// ---------------------------------------------------------------------------------------------
// tropic generate

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int generate_command(int argc, char** argv) {
  parsed_args a("generate",
                {{"output", 'o', true},
                 {"seed", 0, true},
                 {"weights", 0, true},
                 {"unit-weights", 0, false},
                 {"quiet", 'q', false},
                 {"help", 'h', false}},
                argc, argv, 2);
  if (a.has("help")) {
    std::printf(
        "usage: tropic generate SPEC -o FILE [--seed S] [--weights TYPE] [--unit-weights]\n\n"
        "SPEC:\n"
        "  kron:SCALE[:EF]   Graph500 Kronecker (A=0.57, B=C=0.19), 2^SCALE vertices, EF*2^SCALE\n"
        "                    undirected edges (EF=16), ids permuted, weights 1..255\n"
        "  uniform:N:DEG     N vertices with DEG uniformly random out-arcs, weights 1..10\n"
        "  grid:ROWS:COLS    4-neighbour 2D grid, both directions share a weight 1..1000\n\n"
        "FILE's extension picks the format:\n"
        "  .mtx   Matrix Market coordinate (1-based; for other tools)\n"
        "  .gr    Galois binary .gr version 1 (what ADDS reads)\n"
        "  .tgr   tropic binary cache (fastest to read back)\n\n"
        "--seed S (default 1) makes the graph reproducible; --weights as in 'tropic info --help'\n"
        "(auto = uint32).\n");
    return 0;
  }
  const auto& pos = a.positionals();
  if (pos.empty()) throw usage_error("missing SPEC" + a.help_hint());
  if (pos.size() > 1)
    throw usage_error("tropic generate takes one SPEC, got '" + pos[1] + "' too" + a.help_hint());
  const std::string spec = pos[0];
  if (spec.rfind("kron:", 0) != 0 && spec.rfind("uniform:", 0) != 0 && spec.rfind("grid:", 0) != 0)
    throw usage_error("'" + spec + "' is not a generator spec (kron:SCALE[:EF], uniform:N:DEG, " +
                      "grid:ROWS:COLS)" + a.help_hint());
  if (!a.has("output")) throw usage_error("missing -o FILE" + a.help_hint());
  const std::string out = a.get("output");
  enum class kind { mtx, galois, cache } k;
  if (ends_with(out, ".mtx"))
    k = kind::mtx;
  else if (ends_with(out, ".gr"))
    k = kind::galois;
  else if (ends_with(out, ".tgr"))
    k = kind::cache;
  else
    throw usage_error("cannot tell the format of '" + out +
                      "': use the extension .mtx (Matrix Market), .gr (Galois binary) or .tgr "
                      "(tropic binary cache)");

  graph_request req;
  req.graph = spec;
  req.weights = parse_weight_choice(a.get("weights", "auto"));
  if (req.weights == weight_choice::automatic) req.weights = weight_choice::u32;
  req.seed = a.get_u64("seed", 1);
  req.unit_weights = a.has("unit-weights");
  req.progress = !a.has("quiet");

  return with_graph(req, [&](const auto& g, const graph_origin& origin) -> int {
    using W = typename std::decay_t<decltype(g.weights)>::value_type;
    auto t0 = std::chrono::steady_clock::now();
    {
      slow_task_note note("writing " + out, req.progress);
      switch (k) {
        case kind::mtx:
          write_matrix_market(g, out);
          break;
        case kind::galois:
          write_galois(g, out);
          break;
        case kind::cache:
          write_binary_cache(g, out);
          break;
      }
    }
    double write_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "wrote %s: %s, %u vertices, %llu arcs, %s weights (generated in %s ms, written in "
        "%s ms)\n",
        out.c_str(), spec.c_str(), g.n, (unsigned long long)g.arcs(), weight_type_name<W>(),
        fixed(origin.load_ms, 1).c_str(), fixed(write_ms, 1).c_str());
    return 0;
  });
}

// ---------------------------------------------------------------------------------------------
// tropic bench: the harness is its own program (bench/), found beside this one.

std::string self_directory() {
  std::vector<char> buf(4096);
  ssize_t len = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (len <= 0) return ".";
  std::string path(buf.data(), static_cast<std::size_t>(len));
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

int bench_command(int argc, char** argv) {
  const std::string dir = self_directory();
  std::vector<std::string> candidates = {dir + "/tropic_bench", dir + "/bench/tropic_bench"};
  std::vector<char*> args;
  args.push_back(const_cast<char*>("tropic_bench"));
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  for (const auto& c : candidates)
    if (::access(c.c_str(), X_OK) == 0) {
      ::execv(c.c_str(), args.data());
      throw error(error_code::io, "cannot run " + c + ": " + std::strerror(errno));
    }
  ::execvp("tropic_bench", args.data());
  throw error(error_code::not_implemented,
              "'tropic bench' runs the tropic_bench program, which was not found in " + dir + ", " +
                  dir + "/bench or on PATH (configure with -DTROPIC_BUILD_BENCH=ON)");
}

// ---------------------------------------------------------------------------------------------

void print_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: tropic COMMAND [options]\n\n"
               "Single-source shortest paths in the min-plus semiring, on the GPU and the CPU.\n\n"
               "Commands:\n"
               "  info GRAPH                 format, size, weights and degrees of a graph\n"
               "  sssp GRAPH --source S      shortest paths from S (--verify, --output, ...)\n"
               "  generate SPEC -o FILE      write a Kronecker, uniform or grid graph\n"
               "  bench [--suite quick|full] run the benchmark harness\n\n"
               "'tropic COMMAND --help' describes each command.\n"
               "Algorithms in this build: %s (GPU %s)\n",
               available_names().c_str(), gpu_available() ? "present" : "not present");
}

int run(int argc, char** argv) {
  if (argc < 2) {
    print_usage(stderr);
    return 2;
  }
  const std::string command = argv[1];
  if (command == "info") return info_command(argc, argv);
  if (command == "sssp") return sssp_command(argc, argv);
  if (command == "generate") return generate_command(argc, argv);
  if (command == "bench") return bench_command(argc, argv);
  if (command == "--help" || command == "-h" || command == "help") {
    print_usage(stdout);
    return 0;
  }
  if (command == "--version") {
    std::printf("tropic 0.1.0\n");
    return 0;
  }
  throw usage_error("unknown command '" + command + "' (commands: info, sssp, generate, bench; " +
                    "see 'tropic --help')");
}

}  // namespace
}  // namespace tropic::cli

int main(int argc, char** argv) {
  try {
    return tropic::cli::run(argc, argv);
  } catch (const tropic::cli::usage_error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "tropic: error: %s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    std::fprintf(stderr,
                 "tropic: error: out of host memory (the graph, or what the algorithm needs "
                 "for it, is larger than this machine's memory)\n");
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "tropic: error: %s\n", e.what());
    return 1;
  }
}
