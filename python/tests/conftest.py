"""Shared helpers: random graphs as scipy would see them, and checks against scipy's dijkstra."""

import numpy as np
import pytest
import scipy.sparse as sp

import tropic

# Where no device exists the GPU cases skip and say why (the C++ suite's gpu_test.hpp does the
# same); the CPU build says so too.
GPU_REASON = (
    "no usable CUDA device (tropic.gpu_available() is False"
    + (")" if tropic.cuda_build() else "; this module was built without CUDA)")
)
requires_gpu = pytest.mark.skipif(not tropic.gpu_available(), reason=GPU_REASON)

CPU_ALGORITHMS = ["auto", "dijkstra", "graphblas_cpu"]
GPU_ALGORITHMS = [a for a in tropic.available_algorithms() if a not in CPU_ALGORITHMS]

ALL_DTYPES = [np.uint32, np.int32, np.uint64, np.int64, np.float32, np.float64]


def random_coo(rng, dtype=np.float64, n=None, isolated=True, duplicates=True, zeros=True):
    """A random graph as coordinates: some vertices isolated, some parallel entries, some
    explicit zeros, weights of `dtype` (integers 0..max_w, floats in [0, 10))."""
    n = int(rng.integers(1, 40)) if n is None else n
    m = int(rng.integers(0, 4 * n + 1))
    rows = rng.integers(0, n, m)
    cols = rng.integers(0, n, m)
    if isolated and n > 3:  # a few vertices with no arc at all
        iso = rng.choice(n, size=max(1, n // 8), replace=False)
        keep = ~(np.isin(rows, iso) | np.isin(cols, iso))
        rows, cols = rows[keep], cols[keep]
    if duplicates and rows.size:
        k = int(rng.integers(0, rows.size // 4 + 2))
        pick = rng.integers(0, rows.size, k)
        rows, cols = np.concatenate([rows, rows[pick]]), np.concatenate([cols, cols[pick]])
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        data = (rng.random(rows.size) * 10).astype(dtype)
    else:
        hi = 1000 if dtype.itemsize == 4 else 1 << 40  # 64-bit types get 64-bit weights
        data = rng.integers(0, hi, rows.size).astype(dtype)
    if zeros and rows.size:
        data[rng.random(rows.size) < 0.1] = 0
    return n, rows, cols, data


def csr_keeping_duplicates(n, rows, cols, data):
    """A CSR with the parallel entries still stored (scipy's dijkstra then uses the lightest,
    as tropic does; scipy's tocsr() would sum them)."""
    order = np.argsort(rows, kind="stable")
    indptr = np.searchsorted(rows[order], np.arange(n + 1)).astype(np.int32)
    return sp.csr_matrix((data[order], cols[order].astype(np.int32), indptr), shape=(n, n))


def lightest(n, rows, cols, data, undirected=False):
    """Dense n x n matrix of the lightest weight of each (u, v), inf where there is none."""
    w = np.full((n, n), np.inf)
    np.minimum.at(w, (rows, cols), data.astype(np.float64))
    if undirected:
        w = np.minimum(w, w.T)
    return w


def check_parents(dist, parents, source, weights, none=-1):
    """Every reached v other than the source has a parent p with an arc p -> v and
    dist[p] + w(p, v) == dist[v]; the source and unreached vertices have `none`."""
    dist = np.asarray(dist, dtype=np.float64)
    reached = np.isfinite(dist)
    assert parents[source] == none
    assert np.all(parents[~reached] == none)
    v = np.flatnonzero(reached)
    v = v[v != source]
    p = parents[v].astype(np.int64)
    assert np.all(p >= 0), f"reached vertices without a parent: {v[p < 0]}"
    w = weights[p, v]
    assert np.all(np.isfinite(w)), "a parent without an arc to its child"
    np.testing.assert_allclose(dist[p] + w, dist[v], rtol=1e-5, atol=0)
