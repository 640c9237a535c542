// The outside SSSP programs in the bench (issue 37): `tropic bench --peers DIR` runs the drivers
// that scripts/fetch-peers.sh built in DIR (GAP's DeltaStep, LAGraph's
// LAGr_SingleSourceShortestPath; protocol: bench/peers/peer_driver.h) on each suite graph, from
// the same sources as tropic's rows, and checks their distances against the same reference.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tropic/csr.hpp"

namespace tropic::bench {

// One line of DIR/peers.txt: NAME DRIVER VERSION... (DRIVER relative to DIR).
struct peer {
  std::string name, driver, version;
  std::string row_name() const { return "peer:" + name; }
};

// Throws tropic::error naming the file and line for a missing or malformed list, or a driver
// that is not an executable file.
std::vector<peer> read_peers(const std::string& dir);

// What a driver printed (its '@' lines), and how it ended.
struct peer_output {
  int threads = 0;
  std::uint64_t n = 0, arcs = 0;
  double load_ms = 0;
  std::vector<std::pair<std::uint64_t, double>> sweep;  // delta, ms
  std::uint64_t delta = 0;
  std::map<std::uint64_t, std::vector<double>> runs;  // source -> timed runs (ms)
  std::map<std::uint64_t, std::string> distances;     // source -> file
  std::map<std::uint64_t, std::string> skipped;       // source -> why (the slow rule)
  std::set<std::uint64_t> slow;                       // sources timed once (the slow rule)
  std::string sweep_stop;                             // why the sweep ended early, if it did
  std::string error;  // "@error" lines, a non-zero exit, a signal, a timeout; "" when clean
};
peer_output parse_peer_output(const std::string& text);

struct peer_settings {
  int warmup = 1, runs = 3;
  double slow_ms = 2000;  // the bench's --slow-ms and --slow-sources, applied by the driver
  int slow_sources = 1;
  double sweep_budget_ms = 5000;  // the sweep ends once it has taken this long
  double timeout_s = 900;
  std::string log_dir;  // the drivers' output, one file per graph and peer
  bool certify = false;  // the bench's --certify: answers checked by the certificate
};

// The deltas swept on the first source: powers of two from 2^16 down to 1, largest first, so
// that the driver's stop rule (2x the best so far) ends the sweep before the tiny deltas that
// take one bucket per distance value.
std::vector<std::uint64_t> delta_sweep();

// "vertex distance" lines ("inf" where unreachable) as W; throws error naming file:line.
template <class W>
std::vector<W> read_peer_distances(const std::string& file, vertex n);

// One peer x source of a graph: status "ok", "FAILURE" (wrong distances), "error" (crash,
// timeout, no output) or "skipped", as the bench's own rows.
struct peer_row {
  std::string algorithm;  // peer:NAME
  std::size_t source_index = 0;
  std::string status = "ok", note;
  std::vector<double> ms;  // timed runs
  double delta = 0, load_ms = 0;
};

// Runs every peer once on g over sources (the driver sweeps delta on sources[0], then runs all
// sources with the best), checks each source's distances against references (missing: error).
// skip(peer row name, source index) returns why a source is skipped, "" to run it.
template <class W>
std::vector<peer_row> run_peers_on_graph(
    const csr<W>& g, const std::string& graph_name, const std::vector<vertex>& sources,
    const std::map<vertex, std::vector<W>>& references, const std::vector<peer>& peers,
    const peer_settings& settings,
    const std::function<std::string(const std::string&, std::size_t)>& skip,
    const std::function<void(const std::string&)>& message);

// The summary's "Against the peers" section: per graph, tropic's fastest algorithm against the
// fastest peer (geometric mean of peer / tropic over the sources both answered correctly).
struct timed_cell {
  std::string graph, algorithm;
  vertex source = 0;
  std::string status;  // ok, FAILURE, error, skipped
  double ms = 0, delta = 0;
  std::string note;
};
std::string peers_markdown(const std::vector<std::string>& graphs,
                           const std::vector<timed_cell>& cells, const std::vector<peer>& peers,
                           const std::string& dir);

}  // namespace tropic::bench
