// Our driver of the GAP Benchmark Suite's delta-stepping (sbeamer/gapbs src/sssp.cc, BSD) for
// `tropic bench --peers` (issue 37): GAP's own `sssp` runs its kernel on random sources and can
// verify, but not write, distances; this times the very same DeltaStep on given sources and
// writes them (protocol: peer_driver.h). scripts/fetch-peers.sh compiles it with GAP's flags
// against GAP's sources in the peers folder; none of GAP's code is in this repository.
#include <omp.h>

// GAP's kernel translation unit, its main renamed: DeltaStep, kDistInf, WGraph, the builder.
#define main gap_sssp_main
#include "sssp.cc"
#undef main

#include "peer_driver.h"

namespace {

WGraph graph;
int64_t vertices = 0;  // tropic's n: GAP's builder counts vertices up to the largest id seen
pvector<WeightT> dist;
bool beyond = false;  // the last source had no arcs and lies beyond GAP's vertex count
uint64_t last_source = 0;
WeightT delta = 1;

// tropic's CSR as a directed GAP graph, built with GAP's own CSRGraph::GenIndex. DeltaStep reads
// out-neighbours only, so no inverse is built (the constructor accepts null in-arrays).
int load_tgr(const char* path, char* err) {
  peer_graph g;
  if (peer_read_tgr(path, &g, err)) return 1;
  if (g.n > uint64_t(std::numeric_limits<NodeID>::max())) {
    snprintf(err, 256, "%s: %" PRIu64 " vertices, more than GAP's int32 NodeID", path, g.n);
    peer_free_graph(&g);
    return 1;
  }
  pvector<SGOffset> offsets(g.n + 1);
  WNode* neighs = new WNode[g.arcs];
  for (uint64_t v = 0; v <= g.n; ++v) offsets[v] = SGOffset(g.offsets[v]);
  for (uint64_t a = 0; a < g.arcs; ++a) {
    if (g.weights[a] > uint32_t(kDistInf)) {
      snprintf(err, 256, "%s: weight %u beyond GAP's int32 WeightT range", path, g.weights[a]);
      delete[] neighs;
      peer_free_graph(&g);
      return 1;
    }
    neighs[a] = WNode(NodeID(g.columns[a]), WeightT(g.weights[a]));
  }
  WNode** index = WGraph::GenIndex(offsets, neighs);
  graph = WGraph(int64_t(g.n), index, neighs, nullptr, nullptr);
  vertices = int64_t(g.n);
  peer_free_graph(&g);
  return 0;
}

int gap_load(const char* path, uint64_t* n, uint64_t* arcs, char* err) {
  if (peer_ends_with(path, ".tgr")) {
    if (load_tgr(path, err)) return 1;
  } else {
    // GAP's own reader and builder, as `sssp -f PATH` runs them.
    char name[] = "gap_sssp_driver", f[] = "-f";
    std::string file = path;
    char* args[] = {name, f, &file[0], nullptr};
    CLBase cli(3, args, "gap_sssp_driver");
    if (!cli.ParseArgs()) {
      snprintf(err, 256, "GAP's command line refused %s", path);
      return 1;
    }
    WeightedBuilder b(cli);
    graph = b.MakeGraph();
    vertices = graph.num_nodes();
  }
  *n = uint64_t(vertices);
  *arcs = uint64_t(graph.num_edges_directed());
  return 0;
}

int gap_set_delta(uint64_t d, char* err) {
  if (d > uint64_t(kDistInf)) {
    snprintf(err, 256, "delta %" PRIu64 " beyond GAP's int32 WeightT range", d);
    return 1;
  }
  delta = WeightT(d);
  return 0;
}

void gap_release() {
  dist = pvector<WeightT>();
}

int gap_solve(uint64_t source, char*) {
  last_source = source;
  beyond = int64_t(source) >= graph.num_nodes();
  if (!beyond) dist = DeltaStep(graph, NodeID(source), delta);
  return 0;
}

int gap_write(FILE* f, char* err) {
  for (int64_t v = 0; v < vertices; ++v) {
    const bool in_graph = !beyond && v < graph.num_nodes();
    const WeightT d = in_graph ? dist[v] : (uint64_t(v) == last_source ? 0 : kDistInf);
    if (d == kDistInf ? fprintf(f, "%" PRId64 " inf\n", v) < 0
                      : fprintf(f, "%" PRId64 " %d\n", v, int(d)) < 0) {
      snprintf(err, 256, "write failed: %s", strerror(errno));
      return 1;
    }
  }
  return 0;
}

int gap_threads() {
  return omp_get_max_threads();
}

}  // namespace

int main(int argc, char** argv) {
  const peer_ops ops = {gap_load, gap_set_delta, gap_release, gap_solve, gap_write, gap_threads};
  return peer_driver_main(argc, argv, &ops);
}
