#!/usr/bin/env python3
"""Plots from tropic_bench's results.csv (matplotlib, Debian's python3-matplotlib).

  speedup_vs_degree.png  speedup over the baseline against average degree (ADDS paper, Fig. 8)
  speedup_vs_depth.png   speedup against BFS depth from the sources, a diameter proxy (Fig. 9)
  time_vs_work.png       solve time against arcs relaxed, one point per graph x algorithm x source
  c_api_breakdown.png    where a C-API call's time goes (unpack, copy, pack, setup, solve, after
                         solve, output), one stacked bar per graph x c_api: algorithm

Only valid rows are plotted; FAILURE and error rows are counted and reported, never drawn, and
skipped rows are counted apart. c_api: rows time the whole call, so they are left out of the
speedup and time-vs-work plots, which compare solve times.
Usage: bench/plot.py bench-results/results.csv [--out DIR] [--baseline graphblas_cpu]
"""
import argparse
import collections
import csv
import math
import os
import statistics
import sys


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    valid = [r for r in rows if r["valid"] == "true"]
    return rows, valid


C_API_PARTS = (("unpack_ms", "unpack"), ("copy_ms", "copy"), ("pack_ms", "pack"),
               ("setup_ms", "setup (upload / import)"), ("solve_ms", "solve"),
               ("after_solve_ms", "after solve"), ("output_ms", "output"))


def c_api_breakdown_plot(plt, c_api_rows, path):
    """Share of each step in a call (medians over the valid c_api: rows of a graph x
    algorithm), stacked to 100%; the label gives the median end-to-end time."""
    groups = collections.defaultdict(list)
    for r in c_api_rows:
        groups[(r["graph"], r["algorithm"])].append(r)
    labels = [f"{g}\n{a}\n{statistics.median(float(r['median_ms']) for r in rs):.4g} ms"
              for (g, a), rs in groups.items()]
    parts = {column: [statistics.median(float(r[column] or 0) for r in rs)
                      for rs in groups.values()] for column, _ in C_API_PARTS}
    totals = [sum(parts[c][i] for c, _ in C_API_PARTS) or 1.0 for i in range(len(groups))]
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(groups)), 4.5))
    bottom = [0.0] * len(groups)
    for column, name in C_API_PARTS:
        share = [100.0 * x / t for x, t in zip(parts[column], totals)]
        ax.bar(range(len(groups)), share, bottom=bottom, label=name)
        bottom = [b + h for b, h in zip(bottom, share)]
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(labels, fontsize=6, rotation=45, ha="right")
    ax.set_ylim(0, 100)
    ax.set_ylabel("share of one C-API call (%)")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.tight_layout()
    fig.savefig(path, dpi=150)
    plt.close(fig)


def per_source_speedups(valid, baseline):
    """{(graph, algorithm): geometric-mean speedup over baseline across shared sources}."""
    times = collections.defaultdict(dict)  # (graph, algorithm) -> {source: ms}
    for r in valid:
        times[(r["graph"], r["algorithm"])][r["source"]] = float(r["median_ms"])
    out = {}
    for (graph, alg), by_source in times.items():
        if alg == baseline:
            continue
        base = times.get((graph, baseline))
        if not base:
            continue
        logs = [math.log(base[s] / ms) for s, ms in by_source.items() if s in base and ms > 0]
        if logs:
            out[(graph, alg)] = math.exp(sum(logs) / len(logs))
    return out


def graph_property(valid, column):
    values = collections.defaultdict(list)
    for r in valid:
        values[r["graph"]].append(float(r[column]))
    return {g: statistics.median(v) for g, v in values.items()}


def speedup_plot(plt, speedups, xs, xlabel, baseline, path):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    algorithms = sorted({alg for (_, alg) in speedups})
    for alg in algorithms:
        pts = sorted((xs[g], s, g) for (g, a), s in speedups.items() if a == alg and g in xs)
        if not pts:
            continue
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", linestyle="", label=alg)
    for (g, _), s in speedups.items():
        if g in xs:
            ax.annotate(g, (xs[g], s), fontsize=6, alpha=0.6, xytext=(3, 3),
                        textcoords="offset points")
    ax.axhline(1.0, color="gray", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"speedup over {baseline}")
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=150)
    plt.close(fig)


def time_vs_work_plot(plt, valid, path):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    by_alg = collections.defaultdict(list)
    for r in valid:
        work, ms = float(r["arcs_relaxed"]), float(r["median_ms"])
        if work > 0 and ms > 0:
            by_alg[r["algorithm"]].append((work, ms))
    for alg in sorted(by_alg):
        pts = by_alg[alg]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", linestyle="", label=alg)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arcs relaxed")
    ax.set_ylabel("solve time (ms, median)")
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=150)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv", help="results.csv written by tropic_bench")
    p.add_argument("--out", help="folder for the PNGs (default: the CSV's folder)")
    p.add_argument("--baseline", default="graphblas_cpu",
                   help="algorithm the speedups are relative to (default graphblas_cpu; "
                        "dijkstra when graphblas_cpu did not run)")
    args = p.parse_args()

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit(f"plot.py needs matplotlib, which {sys.executable} cannot import: "
                 "scripts/install-deps.sh --bench installs Debian's python3-matplotlib for "
                 "/usr/bin/python3")

    rows, valid = load(args.csv)
    skipped = sum(1 for r in rows if r["valid"] == "skipped")
    bad = len(rows) - len(valid) - skipped
    if bad:
        print(f"plot.py: leaving out {bad} FAILURE/error rows (see summary.md)", file=sys.stderr)
    if skipped:
        print(f"plot.py: {skipped} rows were skipped by the harness (reasons in their note)",
              file=sys.stderr)
    c_api_rows = [r for r in valid if r["algorithm"].startswith("c_api:")]
    valid = [r for r in valid if not r["algorithm"].startswith("c_api:")]
    if not valid:
        sys.exit(f"plot.py: no valid rows in {args.csv}")
    baseline = args.baseline
    if not any(r["algorithm"] == baseline for r in valid):
        baseline = "dijkstra"
        print(f"plot.py: no {args.baseline} rows; speedups are over dijkstra", file=sys.stderr)

    out = args.out or os.path.dirname(os.path.abspath(args.csv))
    os.makedirs(out, exist_ok=True)
    speedups = per_source_speedups(valid, baseline)
    written = []
    if speedups:
        for column, xlabel, name in (("avg_degree", "average degree", "speedup_vs_degree.png"),
                                     ("depth", "BFS depth from the sources (diameter proxy)",
                                      "speedup_vs_depth.png")):
            path = os.path.join(out, name)
            speedup_plot(plt, speedups, graph_property(valid, column), xlabel, baseline, path)
            written.append(path)
    else:
        print("plot.py: only the baseline ran; no speedup plots", file=sys.stderr)
    path = os.path.join(out, "time_vs_work.png")
    time_vs_work_plot(plt, valid, path)
    written.append(path)
    if c_api_rows:
        path = os.path.join(out, "c_api_breakdown.png")
        c_api_breakdown_plot(plt, c_api_rows, path)
        written.append(path)
    print("wrote " + ", ".join(written))


if __name__ == "__main__":
    main()
