#!/usr/bin/env python3
"""All pairs of a 10,000-vertex road-like graph: tropic.csgraph.dijkstra(G) against scipy's
shortest_path(G) on the same machine (issue 33: at least 100x).

Graphs (float64 weights that are integers, so every sum is exact and the answers must be equal):
a 100 x 100 grid, both directions, weights 1..1000; and, with --road FILE (a DIMACS .gr or .gr.gz
road network), the 10,000 vertices a BFS from vertex 0 reaches first, with the arcs among them.
scipy runs once per graph (seconds); tropic once to warm up (the upload, the CUDA context), then
--runs times, the median reported. Every tropic answer is compared with scipy's before timing ends.

    python3 bench/all_pairs.py [--road data/USA-road-d.NY.gr.gz] [--runs 3] [--algorithm auto]
"""
import argparse
import gzip
import statistics
import sys
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order, shortest_path

import tropic
from tropic.csgraph import dijkstra


def grid_graph(side, seed=1):
    rng = np.random.default_rng(seed)
    ids = np.arange(side * side).reshape(side, side)
    src = np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])
    dst = np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
    w = rng.integers(1, 1001, size=src.size).astype(np.float64)
    rows, cols = np.concatenate([src, dst]), np.concatenate([dst, src])
    return sp.csr_array((np.concatenate([w, w]), (rows, cols)), shape=(side * side,) * 2)


def road_ball(path, size):
    """The first `size` vertices of a BFS from vertex 0 of a DIMACS road network, induced."""
    opener = gzip.open if path.endswith(".gz") else open
    rows, cols, w = [], [], []
    n = 0
    with opener(path, "rt") as f:
        for line in f:
            if line.startswith("p "):
                n = int(line.split()[2])
            elif line.startswith("a "):
                _, u, v, x = line.split()
                rows.append(int(u) - 1), cols.append(int(v) - 1), w.append(float(x))
    g = sp.csr_array((np.array(w), (np.array(rows), np.array(cols))), shape=(n, n))
    keep = breadth_first_order(g, 0, directed=False, return_predecessors=False)[:size]
    return g[keep][:, keep].tocsr()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--road", help="a DIMACS road network (.gr or .gr.gz)")
    ap.add_argument("--size", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--algorithm", default="auto")
    args = ap.parse_args()
    side = int(round(args.size ** 0.5))
    graphs = [(f"grid {side} x {side}", grid_graph(side))]
    if args.road:
        graphs.append((f"{args.road}: BFS ball of {args.size}", road_ball(args.road, args.size)))
    print(f"tropic {tropic.__version__ if hasattr(tropic, '__version__') else ''} gpu "
          f"{tropic.gpu_available()}")
    failed = False
    for name, g in graphs:
        t0 = time.perf_counter()
        ref = shortest_path(g)
        scipy_s = time.perf_counter() - t0
        times = []
        for r in range(args.runs + 1):
            t0 = time.perf_counter()
            d = dijkstra(g, algorithm=args.algorithm)
            if r:
                times.append(time.perf_counter() - t0)
            if not np.array_equal(d, ref):
                failed = True
                print(f"  {name}: WRONG: {np.count_nonzero(d != ref)} entries differ")
                break
        t = statistics.median(times)
        # Where the time goes: the C++ call (solve and download) of a resident graph's all pairs.
        tg = tropic.Graph(g)
        tg.sssp(np.arange(g.shape[0]), algorithm=args.algorithm)
        t0 = time.perf_counter()
        tg.sssp(np.arange(g.shape[0]), algorithm=args.algorithm)
        graph_ms = (time.perf_counter() - t0) * 1e3
        call_ms = tg.last_stats["call_milliseconds"]
        print(f"{name}: n {g.shape[0]}, arcs {g.nnz}: scipy shortest_path {scipy_s:.2f} s, "
              f"tropic.csgraph.dijkstra ({args.algorithm}) {t * 1e3:.1f} ms (median of "
              f"{len(times)}; {', '.join(f'{x * 1e3:.1f}' for x in times)}), {scipy_s / t:.0f}x, "
              f"answers {'equal' if not failed else 'DIFFERENT'}; a resident tropic.Graph's "
              f"sssp of all sources {graph_ms:.1f} ms, its C++ call {call_ms:.1f} ms", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
