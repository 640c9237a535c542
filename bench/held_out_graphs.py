#!/usr/bin/env python3
"""Graphs from generators tropic does not have, to check rules fit on the suite (issue 36's
automatic choice) on graphs they were not fit on.

    python3 bench/held_out_graphs.py OUT_DIR SPEC [SPEC ...]

writes OUT_DIR/<spec with ':' as '_'>.tgr for each SPEC (tropic's binary cache, lib/io.cpp:
uint32 weights, rows sorted, no self-loops, no duplicate arcs; a duplicate keeps its lightest
weight). Every spec ends in a seed; the same spec gives the same file. Families:

  rgg:N:K:SEED            N points in the unit square, each joined to its K nearest (both
                          directions): road-like, deep. Weight: the length x 1000 sqrt(N), >= 1.
  chunglu:N:D:GAMMA:SEED  undirected, expected degrees a power law of exponent GAMMA with mean D
                          (Chung and Lu): shallow, hubs. Weights 1..255.
  rmat:SCALE:EF:A:B:C:SEED  directed R-MAT (Chakrabarti et al.) with quadrant probabilities
                          A, B, C, 1-A-B-C, ids permuted. Weights 1..255.
  ws:N:K:P:SEED           Watts-Strogatz: a ring, each vertex joined to its K/2 successors, each
                          such edge rewired to a random vertex with probability P. Weights
                          1..1000.
  mesh3d:X:Y:Z:SEED       a 3D grid, six neighbours (undirected). Weights 1..1000.

numpy and scipy (rgg) only; a few seconds a graph of ten million arcs.
"""
import os
import sys

import numpy as np


def to_csr_file(path, n, u, v, w, undirected):
    u = np.asarray(u, dtype=np.int64)
    v = np.asarray(v, dtype=np.int64)
    w = np.asarray(w, dtype=np.uint32)
    if undirected:
        u, v, w = np.concatenate([u, v]), np.concatenate([v, u]), np.concatenate([w, w])
    keep = u != v
    u, v, w = u[keep], v[keep], w[keep]
    key = u * n + v
    order = np.lexsort((w, key))  # by arc, lightest first
    key, w = key[order], w[order]
    first = np.ones(key.size, dtype=bool)
    first[1:] = key[1:] != key[:-1]
    key, w = key[first], w[first]
    rows = key // n
    cols = (key % n).astype(np.uint32)
    offsets = np.zeros(n + 1, dtype=np.uint64)
    np.cumsum(np.bincount(rows, minlength=n), out=offsets[1:])
    m = cols.size
    with open(path, "wb") as f:
        f.write(b"TROPICG1")
        f.write(np.array([0, 0], dtype="<u4").tobytes())  # uint32 weights, reserved
        f.write(np.array([n, m], dtype="<u8").tobytes())
        f.write(offsets.astype("<u8").tobytes())
        f.write(cols.astype("<u4").tobytes())
        if m % 2:
            f.write(b"\0" * 4)
        f.write(w.astype("<u4").tobytes())
    return m


def rgg(n, k, seed):
    from scipy.spatial import cKDTree
    rng = np.random.default_rng(seed)
    pts = rng.random((n, 2))
    dist, idx = cKDTree(pts).query(pts, k=k + 1)
    u = np.repeat(np.arange(n), k)
    v = idx[:, 1:].ravel()
    w = np.maximum(1, np.rint(dist[:, 1:].ravel() * 1000 * np.sqrt(n))).astype(np.uint32)
    return n, u, v, w, True


def chunglu(n, d, gamma, seed):
    rng = np.random.default_rng(seed)
    x = (np.arange(n) + 1.0) ** (-1.0 / (gamma - 1.0))
    p = x / x.sum()
    edges = n * d // 2
    u = rng.choice(n, size=edges, p=p)
    v = rng.choice(n, size=edges, p=p)
    perm = rng.permutation(n)  # hubs not at the low ids
    return n, perm[u], perm[v], rng.integers(1, 256, edges), True


def rmat(scale, ef, a, b, c, seed):
    rng = np.random.default_rng(seed)
    n, edges = 1 << scale, (1 << scale) * ef
    u = np.zeros(edges, dtype=np.int64)
    v = np.zeros(edges, dtype=np.int64)
    for bit in range(scale):
        r = rng.random(edges)
        down = r >= a + b  # quadrants c, d: the row bit
        right = ((r >= a) & (r < a + b)) | (r >= a + b + c)  # quadrants b, d: the column bit
        u |= down.astype(np.int64) << bit
        v |= right.astype(np.int64) << bit
    perm = rng.permutation(n)
    return n, perm[u], perm[v], rng.integers(1, 256, edges), False


def ws(n, k, p, seed):
    rng = np.random.default_rng(seed)
    u = np.repeat(np.arange(n), k // 2)
    v = (u + np.tile(np.arange(1, k // 2 + 1), n)) % n
    rewire = rng.random(u.size) < p
    v[rewire] = rng.integers(0, n, int(rewire.sum()))
    return n, u, v, rng.integers(1, 1001, u.size), True


def mesh3d(x, y, z, seed):
    rng = np.random.default_rng(seed)
    n = x * y * z
    ids = np.arange(n).reshape(x, y, z)
    us, vs = [], []
    for a, b in ((ids[1:], ids[:-1]), (ids[:, 1:], ids[:, :-1]), (ids[:, :, 1:], ids[:, :, :-1])):
        us.append(a.ravel())
        vs.append(b.ravel())
    u, v = np.concatenate(us), np.concatenate(vs)
    return n, u, v, rng.integers(1, 1001, u.size), True


FAMILIES = {
    "rgg": (rgg, (int, int, int)),
    "chunglu": (chunglu, (int, int, float, int)),
    "rmat": (rmat, (int, int, float, float, float, int)),
    "ws": (ws, (int, int, float, int)),
    "mesh3d": (mesh3d, (int, int, int, int)),
}


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    for spec in argv[2:]:
        name, *fields = spec.split(":")
        if name not in FAMILIES or len(fields) != len(FAMILIES[name][1]):
            sys.exit(f"held_out_graphs.py: bad spec {spec!r}\n{__doc__}")
        make, types = FAMILIES[name]
        n, u, v, w, undirected = make(*(t(f) for t, f in zip(types, fields)))
        path = os.path.join(out, spec.replace(":", "_") + ".tgr")
        m = to_csr_file(path, n, u, v, w, undirected)
        print(f"{path}: n {n}, arcs {m}", flush=True)


if __name__ == "__main__":
    main(sys.argv)
