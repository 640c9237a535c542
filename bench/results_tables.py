#!/usr/bin/env python3
"""The "At a glance" and "Per graph" sections of bench/RESULTS.md from one run's summary.md.

tropic_bench writes summary.md (its Graphs, Results, "Through the C API" and Ceilings tables);
this script turns them into the page's two generated sections: the summary table of
delta_stepping (what algorithm::automatic runs) against the peers, and one table per graph with
its ceilings. A run with `--peers` (issue 37) also has the summary's "Against the peers" table:
then the first table carries the best outside program (GAP, LAGraph) per graph, its delta, and
its time over tropic's best as a ratio, and each graph's table a line on every peer. The prose
around the tables is generated too, so the numbers in it (work range, copy bandwidth, C API
speedups, links) follow the run. Python 3 standard library only.

Usage:
  bench/results_tables.py RUN_DIR                     print both sections (markdown) to stdout
  bench/results_tables.py RUN_DIR --write bench/RESULTS.md
                                                      replace them in place: everything from
                                                      "## At a glance" and from "## Per graph"
                                                      up to the next "## " heading
RUN_DIR holds summary.md (e.g. bench/results/h100-run28/run28). Links are written relative to
the page (--page, else --write's file, else the RESULTS.md beside this script). The page's
header (device, date, checks) and the run list stay hand-written: they need more than the
summary (the GPU check's logs, the run's story).
"""
import argparse
import math
import os
import re
import sys

# The order of the per-graph tables' rows; algorithms the summary has beyond these are listed
# after the GPU ones (with a warning), never dropped.
GPU_ALGORITHMS = ("delta_stepping", "bellman_ford", "workfront", "near_far", "adds", "rdbs",
                  "da2cf", "edge_wise")
CPU_ALGORITHMS = ("graphblas_cpu", "dijkstra")
HEADLINE = "delta_stepping"
BASELINE = "graphblas_cpu"

# How the page names the suite's graph files; generated graphs are described from their spec.
FILE_GRAPHS = {
    "USA-road-d.NY.gr.gz": "DIMACS road network USA-road-d.NY, file weights",
    "soc-Slashdot0902.txt.gz": "soc-Slashdot0902 (directed, power law), hashed weights 1..255",
    "cnr-2000.el.gz": "cnr-2000 web crawl (directed), hashed weights 1..255",
    "mdual.mtx.gz": "mdual 3D finite-element dual graph, hashed weights 1..255",
}

# "Large" for the copy-bandwidth range in the prose: the generated graphs, whose copies are
# hundreds of MiB; the small files' 64 MiB copies run slower and are not what a solve streams.
LARGE_GRAPH_ARCS = 10_000_000


def die(msg):
    sys.exit(f"results_tables.py: {msg}")


def read_tables(path):
    """{section heading: [row dicts]} for every '## ' section's first markdown table."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        die(f"cannot read {path}: {e.strerror}")
    tables, section, header = {}, None, None
    for n, line in enumerate(lines, 1):
        if line.startswith("## "):
            section, header = line[3:].strip(), None
        elif section is None or (section in tables and header is None):
            continue  # before the first section, or past the section's first table
        elif not line.startswith("|"):
            header = None  # prose, or the end of the section's table
        else:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if header is None:
                header = cells
                tables[section] = []
            elif set(line.replace("|", "").strip()) <= set("-: "):
                continue  # the alignment row
            elif len(cells) != len(header):
                die(f"{path}:{n}: {len(cells)} cells where the header has {len(header)}")
            else:
                tables[section].append(dict(zip(header, cells)))
    for need in ("Graphs", "Results", "Ceilings"):
        if need not in tables:
            die(f"{path}: no '## {need}' table (is this tropic_bench's summary.md?)")
    return tables


def number(cell):
    """A summary cell as a float ('319x', '1.28e+03x', '4/4' excepted), None for '-'."""
    cell = cell.rstrip("x")
    if cell in ("", "-"):
        return None
    return float(cell)


def count(n):
    """Vertices and arcs as the page writes them: 1.05M, 31.40M, 870K."""
    return f"{n / 1e6:.2f}M" if n >= 1_000_000 else f"{n / 1e3:.0f}K"


def speedup(cell):
    """The summary's %g speedups, with thousands written out: 1.28e+03x -> 1,280x."""
    v = number(cell)
    if v is None:
        return ""
    return f"{round(v):,}x" if v >= 1000 else cell


def ratio(t, ref):
    """time / delta_stepping: two decimals below 10, whole numbers above."""
    r = t / ref
    return f"{r:.2f}" if round(r, 2) < 10 else f"{r:.0f}"


def sig2(v):
    """Two significant figures, no exponent: 0.754 -> 0.75, 252 -> 250, 51.7 -> 52."""
    if v == 0:
        return "0"
    digits = 1 - math.floor(math.log10(abs(v)))
    r = round(v, digits)
    return f"{r:.{max(digits, 0)}f}"


def describe(origin, first_kron):
    """The heading's words for a graph from its summary origin."""
    spec = origin.split(" (")[0]
    parts = spec.split(":")
    if parts[0] == "kron" and len(parts) == 3:
        graph500 = " (Graph500)" if first_kron else ""
        return f"Kronecker{graph500} scale {parts[1]}, edge factor {parts[2]}, weights 1..255"
    if parts[0] == "uniform" and len(parts) == 3:
        return f"uniform random, out-degree {parts[2]}, weights 1..10"
    if parts[0] == "grid" and len(parts) == 3:
        return f"2D grid {parts[1]} x {parts[2]}, weights 1..1000"
    return FILE_GRAPHS.get(spec, spec)


def span(values, fmt=str):
    lo, hi = min(values), max(values)
    return fmt(lo) if lo == hi else f"{fmt(lo)}-{fmt(hi)}"


def listing(words):
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


class Graph:
    def __init__(self, row, first_kron):
        self.name = row["graph"]
        self.n = int(row["n"])
        self.arcs = int(row["arcs"])
        srcs = re.findall(r"\d+ \((\d+)%, (\d+)\)", row["sources (reach, BFS depth)"])
        if not srcs:
            die(f"graph {self.name}: no sources in '{row['sources (reach, BFS depth)']}'")
        self.reach = [int(r) for r, _ in srcs]
        self.depth = [int(d) for _, d in srcs]
        skip = re.search(r"skip=(\S+)", row["sources (reach, BFS depth)"])
        self.skipped = [a for a in (skip.group(1).split(",") if skip else [])
                        if not a.startswith(("c_api:", "peer:"))]
        self.words = describe(row["origin"], first_kron)
        self.rows = {}       # algorithm -> summary Results row (timed rows only)
        self.ceilings = {}   # ceiling name -> summary Ceilings row
        self.c_api = {}      # c_api: algorithm -> summary row
        self.peers = None    # the summary's "Against the peers" row, from a --peers run

    def heading(self):
        k = len(self.reach)
        text = (f"### {self.name}: {self.words}; {k} source{'s' if k != 1 else ''}, "
                f"reach {span(self.reach)}%")
        if self.skipped:
            text += f"; no {listing(self.skipped)} (`skip=`)"
        return text

    def time(self, alg):
        row = self.rows.get(alg)
        return number(row["time (ms)"]) if row else None


def load(run_dir):
    tables = read_tables(os.path.join(run_dir, "summary.md"))
    graphs, first_kron = {}, True
    for row in tables["Graphs"]:
        g = Graph(row, first_kron and row["origin"].startswith("kron:"))
        first_kron = first_kron and not row["origin"].startswith("kron:")
        graphs[g.name] = g
    for row in tables["Results"]:
        g = graphs.get(row["graph"])
        if g is None:
            die(f"Results names graph {row['graph']}, which the Graphs table lacks")
        if number(row["time (ms)"]) is not None:
            g.rows[row["algorithm"]] = row
    for row in tables["Ceilings"]:
        if row["graph"] in graphs:
            graphs[row["graph"]].ceilings[row["ceiling"]] = row
    for row in tables.get("Against the peers", []):
        if row["graph"] not in graphs:
            die(f"'Against the peers' names graph {row['graph']}, which the Graphs table lacks")
        graphs[row["graph"]].peers = row
    for row in tables.get("Through the C API", []):
        if row["graph"] in graphs and row["end to end (ms)"] != "-":
            graphs[row["graph"]].c_api[row["algorithm"]] = row
    extra = sorted({a for g in graphs.values() for a in g.rows}
                   - set(GPU_ALGORITHMS) - set(CPU_ALGORITHMS))
    if extra:
        print(f"results_tables.py: listing algorithms unknown to this script after the GPU "
              f"ones: {', '.join(extra)}", file=sys.stderr)
    for g in graphs.values():
        if g.time(HEADLINE) is None:
            die(f"graph {g.name}: no timed {HEADLINE} row")
    return list(graphs.values()), list(GPU_ALGORITHMS) + extra


def valid(row, total_sources):
    """'2/2' or '2/2 (of 4)' where the suite ran an algorithm on fewer sources."""
    cell = row["valid"]
    answered = cell.split(";")[0].strip()
    if re.search(r"skipped on \d+ of \d+ sources", cell):
        return f"{answered} (of {total_sources})"
    return answered


def kernel(how):
    m = re.search(r"automatic kernel: ([^;]+)", how)
    return f" ({m.group(1).strip()})" if m else ""


def peer_versions(run_dir):
    """'peer:gap = GAP v1.5 (...)' items of the summary's peer paragraph, in its order."""
    with open(os.path.join(run_dir, "summary.md"), encoding="utf-8") as f:
        m = re.search(r"^Peers \(`--peers [^`]*`[^)]*\):(.*?); each on all host threads",
                      f.read(), re.M)
    return [v.strip() for v in m.group(1).split(";")] if m else []


def peer_cells(g, fastest):
    """The first table's two peer cells of a graph: best peer (ms, delta), peer / tropic (the
    summary's ratio is over its own tropic best: named when that is not `fastest`)."""
    p = g.peers
    if p is None or p["best peer"] == "-":
        return ["-", "-"]
    name = p["best peer"].removeprefix("peer:")
    ratio_cell = p["peer / tropic"]
    if ratio_cell != "-" and p["tropic best"] not in ("-", fastest):
        ratio_cell += f" (vs {p['tropic best']})"
    return [f"{name} {p['ms']} (delta {p['delta']})", ratio_cell]


def at_a_glance(graphs, gpu_algs, versions=()):
    peers = any(g.peers is not None for g in graphs)
    intro = (
        f"{HEADLINE}: tropic's bulk-synchronous algorithm; `algorithm::automatic` (the default) "
        "runs it or adds on a GPU by the README's rule (small, shallow graphs: adds). "
        f"vs {BASELINE}: "
        "the speedup over the same delta-stepping algebra on SuiteSparse:GraphBLAS (16 host "
        f"threads); fastest tropic: the fastest of tropic's {number_word(len(gpu_algs))} GPU "
        "algorithms; the last column: one cuSPARSE SpMV, a single pass over every arc.")
    if peers:
        intro += (
            " best peer: the fastest outside program in the same run (`tropic bench --peers`: "
            + "; ".join(versions) + "), on all host threads with the best delta of a sweep on "
            "the graph's first source, its answers checked like every row; peer / tropic: the "
            "geometric mean over the sources both answered of its time over the fastest "
            "tropic's (above 1: tropic is faster).")
    head = (f"| graph | vertices | arcs | BFS depth | {HEADLINE} ms | GTEPS | vs {BASELINE} | "
            f"fastest tropic (ms) | {BASELINE} ms | cuSPARSE SpMV ms (one pass) |")
    rule = "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"
    if peers:
        head += " best peer ms (delta) | peer / tropic |"
        rule += "---|---:|"
    out = ["## At a glance", ""] + wrap(intro) + ["", head, rule]
    for g in graphs:
        ds = g.rows[HEADLINE]
        timed = [(g.time(a), a) for a in gpu_algs if g.time(a) is not None]
        best_t, best = min(timed)
        base = g.rows.get(BASELINE)
        spmv = g.ceilings.get("cusparse_spmv")
        out.append(
            f"| {g.name} | {count(g.n)} | {count(g.arcs)} | {span(g.depth)} | "
            f"**{ds['time (ms)']}** | {ds['GTEPS']} | {speedup(ds['vs ' + BASELINE])} | "
            f"{best} ({best_t:.3f}) | {base['time (ms)'] if base else '-'} | "
            f"{spmv['time (ms)'] if spmv else '-'} |"
            + ("".join(f" {c} |" for c in peer_cells(g, best)) if peers else ""))
    return out


def number_word(k):
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
             "ten", "eleven", "twelve")
    return words[k] if k < len(words) else str(k)


def wrap(text, width=100):
    """Greedy wrap at spaces to the page's 100 columns."""
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line]


def per_graph(graphs, gpu_algs, run_link):
    work = [number(g.rows[a]["work vs dijkstra"]) for g in graphs for a in gpu_algs
            if a in g.rows]
    copies = [number(g.ceilings["device_copy"]["GB/s"]) / 1000 for g in graphs
              if g.arcs >= LARGE_GRAPH_ARCS and "device_copy" in g.ceilings]
    copy_words = (f"device copies ran at {span(copies, lambda v: f'{v:.1f}')} TB/s on the "
                  "large graphs" if copies else "")
    intro = (
        "One table per graph. time: the median over sources of each source's median solve (ms); "
        f"GTEPS: arcs / time; vs {BASELINE}: the geometric mean over the sources both ran of "
        f"{BASELINE}'s time / this time; time / {HEADLINE}: below 1 is faster; work: arcs "
        "relaxed / arcs Dijkstra relaxes; valid: sources answered exactly / sources run "
        f"({BASELINE} runs on fewer: the suite's `cpu-sources=`). The italic rows are ceilings "
        "from the same run, one pass over the arcs each: cuSPARSE's plus-times SpMV (CSR, fp32 "
        "copy, `CUSPARSE_SPMV_CSR_ALG1`) and tropic's min-plus `mxv` (dense x, no mask, its "
        f"automatic kernel); {copy_words} ([`ceilings.csv`]({run_link}/ceilings.csv) also has "
        f"tropic's push). A solve makes many passes (work: {sig2(min(work))}x to "
        f"{sig2(max(work))}x Dijkstra's arcs), and thousands of dependent steps on the grids "
        "and roads, so its GTEPS stays below a ceiling's.")
    out = ["## Per graph", ""] + wrap(intro)
    for g in graphs:
        ds_t = g.time(HEADLINE)
        out += ["", g.heading(), "",
                f"| algorithm | time (ms) | GTEPS | vs {BASELINE} | time / {HEADLINE} | "
                "work vs Dijkstra | valid |",
                "|---|---:|---:|---:|---:|---:|---|"]
        for alg in gpu_algs + list(CPU_ALGORITHMS):
            row = g.rows.get(alg)
            if row is None:
                continue  # skipped on every source: the heading says so
            name = f"**{alg}**" if alg == HEADLINE else alg
            if alg in CPU_ALGORITHMS:
                name += " (CPU)"
            r = "1" if alg == HEADLINE else ratio(number(row["time (ms)"]), ds_t)
            out.append(f"| {name} | {row['time (ms)']} | {row['GTEPS']} | "
                       f"{speedup(row['vs ' + BASELINE])} | {r} | {row['work vs dijkstra']} | "
                       f"{valid(row, len(g.reach))} |")
        spmv = g.ceilings.get("cusparse_spmv")
        if spmv:
            out.append(f"| *ceiling: cuSPARSE SpMV, one pass* | {spmv['time (ms)']} | "
                       f"{spmv['GTEPS']} | | | | |")
        if g.peers is not None:
            out.append(f"| *peers (CPU): ms (delta), valid* | "
                       f"{g.peers['every peer: ms (delta), valid']} | | | | | |")
        mp = g.ceilings.get("tropic_min_plus_spmv")
        if mp:
            out.append(f"| *tropic min-plus SpMV, one pass{kernel(mp['how'])}* | "
                       f"{mp['time (ms)']} | {mp['GTEPS']} | | | | |")
    out += [""] + c_api_paragraph(graphs, run_link)
    return out


def c_api_paragraph(graphs, run_link):
    ups = [(number(g.c_api["c_api:" + HEADLINE]["vs c_api:" + BASELINE]), g.name)
           for g in graphs if "c_api:" + HEADLINE in g.c_api
           and number(g.c_api["c_api:" + HEADLINE]["vs c_api:" + BASELINE]) is not None]
    if not ups:
        return []
    (lo, lo_g), (hi, hi_g) = min(ups), max(ups)
    run_name = os.path.basename(run_link.rstrip("/"))
    text = (
        "Through the C API (`tropic_sssp_ext` on a `GrB_Matrix`, end to end: unpack, copy into "
        "tropic's CSR, upload, solve, result `GrB_Vector`, one source), "
        f"c_api:{HEADLINE} was {sig2(lo)}x ({lo_g}) to {sig2(hi)}x ({hi_g}) faster than "
        f"c_api:{BASELINE}; on the large graphs the copy and upload dominate. The split per step "
        f"is the table \"Through the C API\" in [`{run_name}/summary.md`]({run_link}/summary.md).")
    return wrap(text)


def replace_section(page, heading, body):
    """page with the section under `heading` (up to the next '## ') replaced by body."""
    lines = page.split("\n")
    try:
        start = lines.index(heading)
    except ValueError:
        die(f"the page has no line '{heading}'")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")),
               len(lines))
    return "\n".join(lines[:start] + body + [""] + lines[end:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_dir", help="the run's folder, with summary.md")
    ap.add_argument("--write", metavar="PAGE",
                    help="replace the two sections in PAGE (e.g. bench/RESULTS.md) in place")
    ap.add_argument("--page", help="the page the links are relative to (default: --write's "
                                   "file, else the RESULTS.md beside this script)")
    args = ap.parse_args()
    page_path = (args.page or args.write
                 or os.path.join(os.path.dirname(os.path.abspath(__file__)), "RESULTS.md"))
    run_link = os.path.relpath(os.path.abspath(args.run_dir),
                               os.path.dirname(os.path.abspath(page_path))).replace(os.sep, "/")
    graphs, gpu_algs = load(args.run_dir)
    glance = at_a_glance(graphs, gpu_algs, peer_versions(args.run_dir))
    detail = per_graph(graphs, gpu_algs, run_link)
    if not args.write:
        print("\n".join(glance + [""] + detail))
        return
    try:
        with open(args.write, encoding="utf-8") as f:
            page = f.read()
    except OSError as e:
        die(f"cannot read {args.write}: {e.strerror}")
    page = replace_section(page, "## At a glance", glance)
    page = replace_section(page, "## Per graph", detail)
    with open(args.write, "w", encoding="utf-8") as f:
        f.write(page)


if __name__ == "__main__":
    main()
