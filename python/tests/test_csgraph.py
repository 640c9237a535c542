"""tropic.csgraph.dijkstra against scipy.sparse.csgraph.dijkstra: same arguments, same answers."""

import os
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as scipy_csgraph

import tropic
from tropic import csgraph

from conftest import ALL_DTYPES, GPU_ALGORITHMS, check_parents, lightest, random_coo, requires_gpu

INPUT_DTYPES = ALL_DTYPES + [np.int8, np.uint16, np.int16]  # scipy.sparse has no float16
FORMATS = ["csr", "csc", "coo", "csr_array", "csr_dupes", "dense"]


def as_input(fmt, n, rows, cols, data):
    """The same graph in the form scipy users pass it (scipy converts each the same way for both
    calls: COO and CSC duplicates summed, CSR ones kept, dense zeros no edge)."""
    if fmt == "coo":
        return sp.coo_matrix((data, (rows, cols)), shape=(n, n))
    if fmt == "csc":
        return sp.csc_matrix((data, (rows, cols)), shape=(n, n))
    if fmt == "csr":
        return sp.csr_matrix((data, (rows, cols)), shape=(n, n))
    if fmt == "csr_array":
        return sp.csr_array((data, (rows, cols)), shape=(n, n))
    if fmt == "csr_dupes":
        from conftest import csr_keeping_duplicates

        return csr_keeping_duplicates(n, rows, cols, data)
    d = np.zeros((n, n), dtype=data.dtype)
    d[rows, cols] = data
    return d


def scipy_weights(A, directed, unweighted):
    """The lightest weight of each arc of the graph scipy's dijkstra sees (for parent checks)."""
    from scipy.sparse.csgraph._validation import validate_graph

    g = validate_graph(A, directed, np.float64, dense_output=False)
    n = g.shape[0]
    rows = np.repeat(np.arange(n), np.diff(g.indptr))
    data = np.ones(g.data.shape) if unweighted else g.data
    return lightest(n, rows, g.indices, data, undirected=not directed)


# 240 random graphs: every input dtype and format, directed and not, weighted and not.
@pytest.mark.parametrize("seed", range(240))
def test_matches_scipy_on_random_graphs(seed):
    rng = np.random.default_rng(seed)
    dtype = INPUT_DTYPES[seed % len(INPUT_DTYPES)]
    fmt = FORMATS[(seed // len(INPUT_DTYPES)) % len(FORMATS)]
    directed = bool(seed % 2)
    unweighted = seed % 7 == 0
    n, rows, cols, data = random_coo(rng, dtype=np.float64)
    # Integers small enough that scipy's summing of COO/CSC duplicates cannot overflow int8.
    scale = 1 if dtype == np.int8 else 10
    if np.dtype(dtype).kind == "f":
        data = data.astype(dtype)
    else:
        data = np.round(data * scale).astype(dtype)
    A = as_input(fmt, n, rows, cols, data)

    want, want_p = scipy_csgraph.dijkstra(A, directed=directed, unweighted=unweighted,
                                          return_predecessors=True)
    got, got_p = csgraph.dijkstra(A, directed=directed, unweighted=unweighted,
                                  return_predecessors=True, algorithm="dijkstra")
    assert got.dtype == np.float64 and got_p.dtype == want_p.dtype
    assert got.shape == want.shape == (n, n) and got_p.shape == want_p.shape
    np.testing.assert_array_equal(got, want)  # the same fold of float64 sums: exact
    w = scipy_weights(A, directed, unweighted)
    for s in range(n):
        check_parents(got[s], got_p[s], s, w, none=csgraph.NULL_IDX)

    # The default (auto: SuiteSparse:GraphBLAS delta-stepping on the CPU) gives the same
    # distances, and parents that are shortest-path trees too.
    got, got_p = csgraph.dijkstra(A, directed=directed, unweighted=unweighted,
                                  return_predecessors=True)
    np.testing.assert_array_equal(got, want)
    for s in range(n):
        check_parents(got[s], got_p[s], s, w, none=csgraph.NULL_IDX)

    # One source, a list of sources, a limit, min_only: scipy's shapes and values.
    s = int(rng.integers(0, n))
    np.testing.assert_array_equal(
        csgraph.dijkstra(A, directed=directed, indices=s, unweighted=unweighted),
        scipy_csgraph.dijkstra(A, directed=directed, indices=s, unweighted=unweighted))
    finite = want[np.isfinite(want)]
    limit = float(rng.choice(finite)) if finite.size else 1.0  # a limit some distance equals
    idx = list(rng.integers(-n, n, size=3))
    want_l, want_lp = scipy_csgraph.dijkstra(A, directed=directed, indices=idx, limit=limit,
                                             return_predecessors=True, unweighted=unweighted)
    got_l, got_lp = csgraph.dijkstra(A, directed=directed, indices=idx, limit=limit,
                                     return_predecessors=True, unweighted=unweighted)
    np.testing.assert_array_equal(got_l, want_l)
    np.testing.assert_array_equal(got_lp == csgraph.NULL_IDX, want_lp == csgraph.NULL_IDX)
    for row, src in enumerate(np.array(idx) % n):
        check_parents(got_l[row], got_lp[row], src, w, none=csgraph.NULL_IDX)

    want_m, want_mp, want_ms = scipy_csgraph.dijkstra(
        A, directed=directed, indices=idx, min_only=True, return_predecessors=True, limit=limit,
        unweighted=unweighted)
    got_m, got_mp, got_ms = csgraph.dijkstra(
        A, directed=directed, indices=idx, min_only=True, return_predecessors=True, limit=limit,
        unweighted=unweighted)
    np.testing.assert_array_equal(got_m, want_m)
    assert got_mp.shape == got_ms.shape == (n,)
    np.testing.assert_array_equal(got_ms == csgraph.NULL_IDX, want_ms == csgraph.NULL_IDX)
    sources = np.unique(np.array(idx) % n)
    for src in sources:
        assert got_ms[src] == src and got_mp[src] == csgraph.NULL_IDX
    reached = np.flatnonzero(np.isfinite(got_m))
    assert np.all(np.isin(got_ms[reached], sources))
    # Each reported source is at the minimum distance, and the predecessor is a tight arc.
    per_source = csgraph.dijkstra(A, directed=directed, indices=got_ms[reached],
                                  unweighted=unweighted)
    np.testing.assert_array_equal(per_source[np.arange(reached.size), reached], got_m[reached])
    v = reached[~np.isin(reached, sources)]
    p = got_mp[v]
    np.testing.assert_allclose(got_m[p] + w[p, v], got_m[v], rtol=1e-12)
    np.testing.assert_array_equal(
        csgraph.dijkstra(A, directed=directed, indices=idx, min_only=True, limit=limit,
                         unweighted=unweighted),
        want_m)


def test_shapes_follow_scipy():
    A = sp.csr_array(np.array([[0, 1, 0], [0, 0, 2], [0, 0, 0]], dtype=float))
    for kw in [dict(), dict(indices=1), dict(indices=[1]), dict(indices=[[0, 1], [2, 0]]),
               dict(indices=np.int64(2)), dict(indices=-1), dict(min_only=True),
               dict(indices=[0, 2], min_only=True)]:
        for rp in (False, True):
            want = scipy_csgraph.dijkstra(A, return_predecessors=rp, **kw)
            got = csgraph.dijkstra(A, return_predecessors=rp, **kw)
            want, got = (want, got) if rp else ((want,), (got,))
            assert len(got) == len(want), kw
            for g, w in zip(got, want):
                assert g.shape == w.shape and g.dtype == w.dtype, kw
                np.testing.assert_array_equal(g, w)
    empty = sp.csr_array((0, 0))
    assert csgraph.dijkstra(empty).shape == scipy_csgraph.dijkstra(empty).shape == (0, 0)


def test_nonfinite_entries_as_scipy_treats_them():
    # Sparse: a NaN or inf entry never relaxes anything (scipy); dense: NaN, inf and 0 are no edge.
    d = np.array([[0, np.inf, 2, 0], [0, 0, np.nan, 1], [0, 5, 0, 0], [0, 0, 0, 0]])
    for A in (sp.csr_array(d), d, sp.coo_array(d)):
        for unweighted in (False, True):
            for directed in (True, False):
                np.testing.assert_array_equal(
                    csgraph.dijkstra(A, directed=directed, unweighted=unweighted),
                    scipy_csgraph.dijkstra(A, directed=directed, unweighted=unweighted))


def test_explicit_zeros_are_edges():
    A = sp.csr_array((np.zeros(2), np.array([1, 2]), np.array([0, 1, 2, 2])), shape=(3, 3))
    assert A.nnz == 2
    np.testing.assert_array_equal(csgraph.dijkstra(A, indices=0), [0, 0, 0])
    np.testing.assert_array_equal(csgraph.dijkstra(A, indices=0),
                                  scipy_csgraph.dijkstra(A, indices=0))


def test_errors_follow_scipy():
    A = sp.csr_array(np.array([[0, 1.0], [0, 0]]))
    cases = [
        (dict(indices=2), "indices out of range 0...N"),
        (dict(indices=[0, -3]), "indices out of range 0...N"),
        (dict(limit=-1), "limit must be >= 0"),
    ]
    for kw, msg in cases:
        with pytest.raises(ValueError, match=msg):
            scipy_csgraph.dijkstra(A, **kw)
        with pytest.raises(ValueError, match=msg):
            csgraph.dijkstra(A, **kw)
    for bad in (sp.csr_array(np.ones((2, 3))), np.ones(3)):
        with pytest.raises(ValueError) as want:
            scipy_csgraph.dijkstra(bad)
        with pytest.raises(ValueError) as got:
            csgraph.dijkstra(bad)
        assert str(got.value) == str(want.value)


def test_negative_weights_are_rejected():
    A = sp.csr_array(np.array([[0, 1.0, -2.0], [0, 0, 0], [0, 0, 0]]))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        scipy_csgraph.dijkstra(A, indices=0)  # scipy only warns, and calls its answer inaccurate
    assert any("negative" in str(x.message) for x in w)
    with pytest.raises(ValueError, match="negative weights"):
        csgraph.dijkstra(A, indices=0)
    # unweighted ignores the weights, negative or not, as scipy does
    np.testing.assert_array_equal(csgraph.dijkstra(A, indices=0, unweighted=True), [0, 1, 1])


def shared_data(name):
    """A graph of ../shared/data (or data/ on the GPU machine; $TROPIC_SHARED_DATA first), as the
    C++ tests look for it (test/support/reference_graphs.hpp)."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    for folder in (os.environ.get("TROPIC_SHARED_DATA"), os.path.join(root, "..", "shared", "data"),
                   os.path.join(root, "data")):
        if folder and os.path.exists(os.path.join(folder, name)):
            return os.path.normpath(os.path.join(folder, name))
    return None


NY = shared_data("USA-road-d.NY.gr.gz")


@pytest.mark.skipif(NY is None, reason="USA-road-d.NY.gr.gz is in none of $TROPIC_SHARED_DATA, "
                    "../shared/data, data/")
def test_three_line_scipy_script_on_new_york():
    # The scipy user's script, with one import swapped, gives identical results.
    A = tropic.read_graph(NY)  # scipy.sparse.csr_array, float64
    assert A.shape == (264346, 264346)
    want, want_p = scipy_csgraph.dijkstra(A, indices=[0, 1000], return_predecessors=True)
    got, got_p = csgraph.dijkstra(A, indices=[0, 1000], return_predecessors=True)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(csgraph.dijkstra(A, indices=0, algorithm="dijkstra"), want[0])
    # Parents: a tight arc each (ties make them legitimately differ from scipy's).
    rows = np.repeat(np.arange(A.shape[0]), np.diff(A.indptr))
    w = sp.csr_array((A.data, (rows, A.indices)), shape=A.shape)
    for d, p, s in zip(got, got_p, (0, 1000)):
        v = np.flatnonzero(np.isfinite(d))
        v = v[v != s]
        assert p[s] == csgraph.NULL_IDX and np.all(p[v] >= 0)
        np.testing.assert_array_equal(d[p[v]] + w[p[v], v], d[v])
    # The same through tropic.sssp in the file's own integer weights.
    g = tropic.read_graph(NY, dtype=np.uint32, graph=True)
    np.testing.assert_array_equal(g.sssp(0, algorithm="dijkstra").astype(np.float64), want[0])


@requires_gpu
@pytest.mark.parametrize("algorithm", GPU_ALGORITHMS)
def test_gpu_algorithms_match_scipy(algorithm):
    for seed in range(40):
        rng = np.random.default_rng(1000 + seed)
        n, rows, cols, data = random_coo(rng, n=int(rng.integers(1, 300)))
        A = sp.csr_array((data, (rows, cols)), shape=(n, n))
        for directed in (True, False):
            want = scipy_csgraph.dijkstra(A, directed=directed, indices=[0, n - 1])
            got = csgraph.dijkstra(A, directed=directed, indices=[0, n - 1], algorithm=algorithm)
            np.testing.assert_allclose(got, want, rtol=1e-5)
            np.testing.assert_array_equal(np.isfinite(got), np.isfinite(want))
