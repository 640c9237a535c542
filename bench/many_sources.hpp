// Rows for many sources and the cutoff (issue 33), in the table of bench.cpp: included there
// after `row`, `config`, `graph_report` and `median_of`, inside tropic::bench's namespace.
//   --sources-batch K1,K2,...  per graph and algorithm a row "ALGO[k=K]": one sssp(A, sources)
//                              call for K sources, its wall time (GPU: on the resident matrix,
//                              the upload excluded, the k x n download included). Rows checked
//                              against Dijkstra per source: all of them up to 64 sources, an
//                              even sample of 16 beyond (the note says which).
//   --cutoff-share F           per graph and algorithm a row "ALGO[cutoff F]": the first source
//                              with cutoff = F x its largest finite distance, checked against
//                              Dijkstra truncated there.
#pragma once

// K random sources with arcs, fixed by the seed (BFS statistics per source, as choose_sources
// computes, would cost more than the solves for K = 512).
template <class W>
std::vector<vertex> batch_sources(const csr<W>& g, std::size_t k, std::uint64_t seed) {
  splitmix64 rng{seed};
  std::vector<vertex> out;
  for (std::size_t tries = 0; out.size() < k && tries < 64 * k + 64; ++tries) {
    const vertex v = vertex(rng() % g.n);
    if (g.row_offsets[v + 1] > g.row_offsets[v] || tries >= 32 * k) out.push_back(v);
  }
  return out;
}

// Times `solve` (runs per the config: GPU or CPU runs, one when the first exceeds slow_ms) and
// fills the row's times; returns the last answer.
template <class Answer, class Solve>
Answer timed_runs(const config& c, bool gpu, row& r, Solve&& solve) {
  const int runs = gpu ? c.runs : c.cpu_runs;
  for (int i = 0; i < c.warmup; ++i) solve();
  std::vector<double> ms;
  Answer answer;
  for (int i = 0; i < runs; ++i) {
    const double t0 = now_ms();
    answer = solve();
    ms.push_back(now_ms() - t0);
    if (i == 0 && ms[0] > c.slow_ms) break;
  }
  r.runs = int(ms.size());
  r.median_ms = r.solve_ms = median_of(ms);
  r.min_ms = *std::min_element(ms.begin(), ms.end());
  return answer;
}

template <class W>
void many_source_rows(const csr<W>& g, const graph_report& gr, const config& c,
                      std::vector<row>& rows) {
  if ((c.sources_batch.empty() && !(c.cutoff_share > 0)) || gr.sources.empty()) return;
  std::map<vertex, std::vector<W>> reference;  // Dijkstra per source, shared by the algorithms
  auto want = [&](vertex s) -> const std::vector<W>& {
    auto it = reference.find(s);
    if (it == reference.end()) it = reference.emplace(s, dijkstra(g, s, false).distances).first;
    return it->second;
  };
#if defined(TROPIC_HAVE_CUDA)
  std::optional<device_matrix<W>> resident;
#endif
  for (const bench_algorithm& b : c.algorithms) {
    if (b.c_api || b.split()) continue;  // the split's many sources are single solves in turn
    options o;
    o.algorithm = b.alg;
    auto base_row = [&](const std::string& tag) {
      row r;
      r.graph = gr.name;
      r.n = g.n;
      r.arcs = g.arcs();
      r.avg_degree = gr.stats.avg_degree;
      r.source = gr.sources.front();
      r.algorithm = b.name() + "[" + tag + "]";
      r.gpu = b.gpu();
      return r;
    };
    auto run_many = [&](const std::vector<vertex>& sources) {
#if defined(TROPIC_HAVE_CUDA)
      if (b.gpu()) {
        if (!resident) resident.emplace(g);
        return sssp(*resident, sources, o);
      }
#endif
      return sssp(g, sources, o);
    };
    for (int k : c.sources_batch) {
      row r = base_row("k=" + std::to_string(k));
      try {
        const std::vector<vertex> sources = batch_sources(g, std::size_t(k), c.seed ^ 0x33u ^ k);
        const multi_result<W> m =
            timed_runs<multi_result<W>>(c, b.gpu(), r, [&] { return run_many(sources); });
        r.stats = m.stats;
        const std::size_t checks = sources.size() <= 64 ? sources.size() : 16;
        std::size_t bad = 0;
        for (std::size_t j = 0; j < checks; ++j) {
          const std::size_t i = j * sources.size() / checks;
          result<W> one;
          one.distances.assign(m.row(i), m.row(i) + g.n);
          const std::string problems = verify(g, sources[i], want(sources[i]), one);
          if (!problems.empty() && bad++ == 0)
            r.note = "source " + std::to_string(sources[i]) + ": " + problems;
        }
        r.status = bad ? "FAILURE" : "ok";
        if (!bad)
          r.note = std::to_string(sources.size()) + " sources in one call, " +
                   std::to_string(checks) + " rows checked against dijkstra" +
                   (checks < sources.size() ? " (an even sample)" : "");
      } catch (const std::exception& ex) {
        r.status = "error";
        r.note = ex.what();
      }
      rows.push_back(r);
    }
    if (c.cutoff_share > 0) {
      row r = base_row("cutoff " + num(c.cutoff_share, 3));
      try {
        const vertex s = gr.sources.front().source;
        std::vector<W> truncated = want(s);
        double largest = 0;
        for (W d : truncated)
          if (d != infinity<W>()) largest = std::max(largest, double(d));
        o.cutoff = c.cutoff_share * largest;
        for (W& d : truncated)
          if (d != infinity<W>() && double(d) > o.cutoff) d = infinity<W>();
        const result<W> got = timed_runs<result<W>>(c, b.gpu(), r, [&] {
#if defined(TROPIC_HAVE_CUDA)
          if (b.gpu()) {
            if (!resident) resident.emplace(g);
            return sssp(*resident, s, o);
          }
#endif
          return sssp(g, s, o);
        });
        r.stats = got.stats;
        r.solve_ms = got.stats.milliseconds;
        const std::string problems = verify(g, s, truncated, got);
        r.status = problems.empty() ? "ok" : "FAILURE";
        r.note = problems.empty() ? "cutoff " + num(o.cutoff) + " (" + num(c.cutoff_share, 3) +
                                        " of the largest distance), checked against dijkstra"
                                  : problems;
      } catch (const std::exception& ex) {
        r.status = "error";
        r.note = ex.what();
      }
      o.cutoff = std::numeric_limits<double>::infinity();
      rows.push_back(r);
    }
  }
}

// The rows above as a table of their own (the main table lists the suite's algorithms).
inline std::string many_sources_markdown(const std::vector<row>& rows) {
  std::string md;
  for (const row& r : rows) {
    if (r.algorithm.find('[') == std::string::npos) continue;
    if (md.empty())
      md = "\n## Many sources and cutoff\n\n| graph | row | time (ms) | runs | valid | note |\n"
           "|---|---|---:|---:|---|---|\n";
    md += "| " + r.graph + " | " + r.algorithm + " | " + fixed(r.median_ms, 3) + " | " +
          std::to_string(r.runs) + " | " + r.status + " | " + r.note.substr(0, 160) + " |\n";
  }
  return md;
}
