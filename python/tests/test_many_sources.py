"""Many sources and the cutoff (issue 33): tropic.sssp with a list of sources and ``cutoff``, and
tropic.csgraph.dijkstra with ``indices`` lists and ``limit``, against scipy."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as scipy_csgraph

import tropic
from tropic import csgraph

from conftest import ALL_DTYPES, CPU_ALGORITHMS, GPU_ALGORITHMS, check_parents, lightest, \
    random_coo, requires_gpu


def graph(seed, dtype=np.float64):
    rng = np.random.default_rng(1000 + seed)
    n, rows, cols, data = random_coo(rng, dtype=dtype)
    A = sp.coo_array((data, (rows, cols)), shape=(n, n)).tocsr()  # duplicates summed
    return rng, n, A


def scipy_limit(A, sources, limit):
    """scipy's dijkstra with limit, as tropic reports it (the weight type's infinity)."""
    return scipy_csgraph.dijkstra(A.astype(np.float64), directed=True, indices=sources,
                                  limit=limit)


def a_limit(rng, d):
    """A limit between two distinct finite distances of d (no float can round across it)."""
    finite = np.unique(d[np.isfinite(d)])
    if finite.size < 2:
        return 1.0
    i = int(rng.integers(0, finite.size - 1))
    return float(finite[i] + finite[i + 1]) / 2


@pytest.mark.parametrize("seed", range(48))
@pytest.mark.parametrize("algorithm", CPU_ALGORITHMS)
def test_sources_list_and_cutoff_match_scipy(seed, algorithm):
    dtype = ALL_DTYPES[seed % len(ALL_DTYPES)]
    rng, n, A = graph(seed, dtype)
    A.data = A.data.astype(dtype)
    sources = rng.integers(0, n, int(rng.integers(1, 6)))
    sources[-1] = sources[0]  # a duplicate: the same row twice
    full = scipy_limit(A, sources, np.inf)
    for limit in (None, a_limit(rng, full)):
        d, p = tropic.sssp(A, sources, algorithm=algorithm, parents=True, cutoff=limit)
        assert d.shape == (len(sources), n) and p.shape == (len(sources), n)
        assert d.dtype == np.dtype(dtype)
        want = scipy_limit(A, sources, np.inf if limit is None else limit)
        got = d.astype(np.float64)
        got[d == tropic.infinity(dtype)] = np.inf
        np.testing.assert_allclose(got, want, rtol=1e-5)
        rows = np.repeat(np.arange(n), np.diff(A.indptr))
        w = lightest(n, rows, A.indices, A.data.astype(np.float64))
        for i, s in enumerate(sources):
            check_parents(got[i], p[i], s, w)
            # each row is what the single-source call returns
            one = tropic.sssp(A, int(s), algorithm=algorithm, cutoff=limit)
            np.testing.assert_array_equal(one, d[i])


@pytest.mark.parametrize("seed", range(60))
def test_csgraph_indices_and_limit_match_scipy(seed):
    rng, n, A = graph(seed)
    directed = bool(seed % 2)
    indices = list(rng.integers(0, n, int(rng.integers(1, 5))))
    full = scipy_csgraph.dijkstra(A, directed=directed, indices=indices)
    limit = a_limit(rng, full)
    want_d, want_p = scipy_csgraph.dijkstra(A, directed=directed, indices=indices, limit=limit,
                                            return_predecessors=True)
    got_d, got_p = csgraph.dijkstra(A, directed=directed, indices=indices, limit=limit,
                                    return_predecessors=True, algorithm="graphblas_cpu")
    np.testing.assert_allclose(got_d, want_d, rtol=1e-5)
    assert got_p.shape == want_p.shape and got_p.dtype == want_p.dtype
    rows = np.repeat(np.arange(n), np.diff(A.indptr))
    w = lightest(n, rows, A.indices, A.data, undirected=not directed)
    for i, s in enumerate(indices):
        check_parents(got_d[i], got_p[i], s, w, none=csgraph.NULL_IDX)


def test_cutoff_zero_and_errors():
    A = sp.csr_array(([1.0, 2.0, 0.0], ([0, 1, 0], [1, 2, 3])), shape=(4, 4))
    d = tropic.sssp(A, 0, cutoff=0, algorithm="dijkstra")
    np.testing.assert_array_equal(d, [0, np.inf, np.inf, 0])
    d = tropic.sssp(A, [0, 1], cutoff=2.5, algorithm="graphblas_cpu")
    np.testing.assert_array_equal(d, [[0, 1, np.inf, 0], [np.inf, 0, 2, np.inf]])
    with pytest.raises(ValueError, match="cutoff"):
        tropic.sssp(A, 0, cutoff=-1)
    with pytest.raises(ValueError, match="cutoff"):
        tropic.sssp(A, [0], cutoff=float("nan"))
    with pytest.raises(IndexError, match="sources"):
        tropic.sssp(A, [0, 4])
    with pytest.raises(TypeError):
        tropic.sssp(A, [0.5])
    assert tropic.sssp(A, []).shape == (0, 4)
    g = tropic.Graph(A)
    g.sssp([0, 1, 2], algorithm="dijkstra")
    assert g.last_stats["algorithm"] == "dijkstra"


@requires_gpu
@pytest.mark.parametrize("algorithm", GPU_ALGORITHMS)
@pytest.mark.parametrize("seed", range(8))
def test_gpu_sources_list_and_cutoff(seed, algorithm):
    rng, n, A = graph(seed)
    sources = rng.integers(0, n, 4)
    full = scipy_limit(A, sources, np.inf)
    limit = a_limit(rng, full)
    for lim in (None, limit):
        d = tropic.sssp(A, sources, algorithm=algorithm, cutoff=lim)
        np.testing.assert_allclose(d, scipy_limit(A, sources, np.inf if lim is None else lim),
                                   rtol=1e-5)
