#!/usr/bin/env python3
"""Per-call overhead of a resident tropic.Graph.sssp over the C++ solve (issue 32: at most 50 us
on the GPU machine).

Builds one tropic.Graph (uploaded to the GPU on its first GPU solve, where a device is usable,
else solved on the CPU), warms it up, then times many g.sssp(source) calls from Python. Three
times per call: the call's wall time in Python; the C++ call's wall time, measured inside the
module around tropic::sssp (stats.call_milliseconds: the solve with its setup, the download of
the distances and the statistics); and the solve alone (stats.milliseconds, on the GPU timed by
CUDA events). Python's overhead is the first minus the second: argument checks, the GIL release,
the options, the numpy array and the statistics dict. The C++ call's own overhead over its solve
(allocations, the download, the result checks) is printed beside it. Medians (and the 10th and
90th percentiles) over the calls, in microseconds.

    python3 bench/python_overhead.py                      # a 100 x 100 grid, weights 1..100
    python3 bench/python_overhead.py --graph FILE --source 0 --calls 1000 --algorithm auto
"""
import argparse
import statistics
import sys
import time

import numpy as np


def grid_graph(side, seed):
    """A side x side 4-neighbour grid, both directions, integer weights 1..100 (uint32)."""
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    ids = np.arange(side * side).reshape(side, side)
    src = np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])
    dst = np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
    rows = np.concatenate([src, dst])
    cols = np.concatenate([dst, src])
    w = rng.integers(1, 101, size=rows.size).astype(np.uint32)
    return sp.csr_array((w, (rows, cols)), shape=(side * side, side * side))


def percentile(values, q):
    return float(np.percentile(np.asarray(values), q))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--graph", help="a graph file tropic reads (default: a generated grid)")
    p.add_argument("--dtype", default="uint32", help="weight type for --graph (default uint32)")
    p.add_argument("--side", type=int, default=100, help="grid side without --graph (100)")
    p.add_argument("--source", type=int, default=0)
    p.add_argument("--algorithm", default="auto")
    p.add_argument("--calls", type=int, default=500, help="timed calls (default 500)")
    p.add_argument("--warmup", type=int, default=20, help="untimed calls first (default 20)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)

    import tropic

    if args.graph:
        A = tropic.read_graph(args.graph, dtype=np.dtype(args.dtype))
        what = args.graph
    else:
        A = grid_graph(args.side, args.seed)
        what = f"grid {args.side} x {args.side}"
    g = tropic.Graph(A)
    for _ in range(args.warmup):  # uploads (GPU), first-touch allocations, pool warm-up
        g.sssp(args.source, algorithm=args.algorithm)
    ran = g.last_stats["algorithm"]

    wall_us, call_us, solve_us, python_us, cxx_us = [], [], [], [], []
    clock = time.perf_counter_ns
    for _ in range(args.calls):
        t0 = clock()
        g.sssp(args.source, algorithm=args.algorithm)
        t1 = clock()
        wall = (t1 - t0) / 1e3
        call = g.last_stats["call_milliseconds"] * 1e3
        solve = g.last_stats["milliseconds"] * 1e3
        wall_us.append(wall)
        call_us.append(call)
        solve_us.append(solve)
        python_us.append(wall - call)
        cxx_us.append(call - solve)

    where = "GPU" if g.on_device else "CPU"
    print(f"graph: {what}, {g.n} vertices, {g.arcs} arcs, {g.dtype}; source {args.source}")
    print(f"algorithm: {ran} on the {where} (tropic.gpu_available() = {tropic.gpu_available()});"
          f" {args.calls} calls after {args.warmup} warm-up calls")
    for name, v in (("call (Python wall)", wall_us), ("C++ call (its wall)", call_us),
                    ("solve (stats.milliseconds)", solve_us),
                    ("Python over the C++ call", python_us),
                    ("C++ call over the solve", cxx_us)):
        print(f"{name:>28}: median {statistics.median(v):9.1f} us   "
              f"p10 {percentile(v, 10):9.1f} us   p90 {percentile(v, 90):9.1f} us")
    print(f"python overhead per sssp call: {statistics.median(python_us):.1f} us over the C++ "
          f"call; the C++ call {statistics.median(cxx_us):.1f} us over its solve (medians)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
