"""tropic.sssp and tropic.Graph against scipy's dijkstra: every weight type and input form, the
errors, and a Graph solved many times."""

import os
import re
import threading
import time

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as scipy_csgraph

import tropic

from conftest import (ALL_DTYPES, CPU_ALGORITHMS, GPU_ALGORITHMS, GPU_REASON, check_parents,
                      csr_keeping_duplicates, lightest, random_coo, requires_gpu)

try:
    import graphblas as gb
except ImportError as e:  # the test that needs it skips, and says why
    gb = None
    GB_REASON = f"python-graphblas is not importable ({e}); pip install python-graphblas"
else:
    GB_REASON = ""

FORMS = ["csr", "csr_unsorted", "csc", "coo", "csr_array", "triple", "graph", "graphblas"]


def as_form(form, n, rows, cols, data):
    """The same arcs, parallel entries included (tropic keeps the lightest of them)."""
    if form == "coo":
        return sp.coo_matrix((data, (rows, cols)), shape=(n, n))
    if form == "csc":
        # A's CSC with its duplicates still stored is the CSR of A' read column-wise.
        T = csr_keeping_duplicates(n, cols, rows, data)
        return sp.csc_matrix((T.data, T.indices, T.indptr), shape=(n, n))
    if form == "csr":  # canonical (the caller removed duplicates and self-loops): copied as is
        A = sp.csr_matrix((data, (rows, cols)), shape=(n, n))
        assert A.has_canonical_format
        return A
    if form == "csr_unsorted":
        return csr_keeping_duplicates(n, rows, cols, data)
    if form == "csr_array":
        B = csr_keeping_duplicates(n, rows, cols, data)
        return sp.csr_array((B.data, B.indices.astype(np.int64), B.indptr.astype(np.int64)),
                            shape=(n, n))
    if form == "triple":
        A = csr_keeping_duplicates(n, rows, cols, data)
        return (A.indptr, A.indices, A.data)
    if form == "graph":
        return tropic.Graph(csr_keeping_duplicates(n, rows, cols, data))
    if form == "graphblas":
        return gb.Matrix.from_coo(rows, cols, data, nrows=n, ncols=n, dup_op=gb.binary.min)
    raise AssertionError(form)


def reference(n, rows, cols, data, source):
    """scipy's float64 Dijkstra on the lightest of each set of parallel arcs."""
    A = csr_keeping_duplicates(n, rows, cols, data.astype(np.float64))
    return scipy_csgraph.dijkstra(A, indices=source)


def check_against_scipy(dtype, got, want):
    dtype = np.dtype(dtype)
    assert got.dtype == dtype
    reached = np.isfinite(want)
    if dtype.kind == "f":
        assert np.array_equal(np.isinf(got), ~reached)
        np.testing.assert_allclose(got[reached], want[reached], rtol=1e-5)
    else:  # integers: exact, and "unreachable" is the type's maximum
        assert np.all(got[~reached] == np.iinfo(dtype).max)
        np.testing.assert_array_equal(got[reached], want[reached].astype(dtype))


# 240 random graphs: each weight type in each input form, on each CPU algorithm.
@pytest.mark.parametrize("seed", range(240))
def test_sssp_matches_scipy_on_random_graphs(seed):
    rng = np.random.default_rng(10_000 + seed)
    dtype = ALL_DTYPES[seed % len(ALL_DTYPES)]
    form = FORMS[(seed // len(ALL_DTYPES)) % len(FORMS)]
    algorithm = CPU_ALGORITHMS[seed % len(CPU_ALGORITHMS)]
    if form == "graphblas" and gb is None:
        form = "coo"
    n, rows, cols, data = random_coo(rng, dtype=dtype)
    if form == "csr":  # no parallel arcs, no self-loops: the CSR is used as it is
        _, first = np.unique(rows * n + cols, return_index=True)
        first = first[rows[first] != cols[first]]
        rows, cols, data = rows[first], cols[first], data[first]
    A = as_form(form, n, rows, cols, data)
    symmetrize = seed % 5 == 0 and form != "graph"
    source = int(rng.integers(0, n))
    if symmetrize:  # undirected: both directions of every arc
        rows, cols, data = np.concatenate([rows, cols]), np.concatenate([cols, rows]), \
            np.concatenate([data, data])
        A = tropic.Graph(A, symmetrize=True)
    dist, parents = tropic.sssp(A, source, algorithm=algorithm, parents=True)
    want = reference(n, rows, cols, data, source)
    check_against_scipy(dtype, dist, want)
    assert parents.dtype == np.int64
    shown = np.where(dist == tropic.infinity(dtype), np.inf, dist.astype(np.float64))
    check_parents(shown, parents, source, lightest(n, rows, cols, data))
    np.testing.assert_array_equal(tropic.sssp(A, source, algorithm=algorithm), dist)


@pytest.mark.skipif(gb is None, reason=GB_REASON or "unused")
def test_graphblas_matrix_every_type():
    rng = np.random.default_rng(5)
    for dtype in ALL_DTYPES:
        n, rows, cols, data = random_coo(rng, dtype=dtype, duplicates=False, n=30)
        M = gb.Matrix.from_coo(rows, cols, data, nrows=n, ncols=n, dup_op=gb.binary.min)
        assert M.dtype.np_type == np.dtype(dtype)
        check_against_scipy(dtype, tropic.sssp(M, 0), reference(n, rows, cols, data, 0))


def test_narrow_types_widen_exactly():
    A = sp.csr_array(np.array([[0, 3, 0], [0, 0, 4], [0, 0, 0]], dtype=np.uint8))
    d = tropic.sssp(A, 0)
    assert d.dtype == np.uint32 and list(d) == [0, 3, 7]
    d = tropic.sssp(A.astype(np.int16), 0)
    assert d.dtype == np.int32 and list(d) == [0, 3, 7]
    d = tropic.sssp((A.indptr, A.indices, A.data.astype(np.float16)), 0)
    assert d.dtype == np.float32 and list(d) == [0, 3, 7]
    g = tropic.Graph(A, dtype=np.float64)
    assert g.dtype == np.float64 and list(g.sssp(2)) == [np.inf, np.inf, 0]
    with pytest.raises(ValueError, match="do not all convert exactly"):
        tropic.Graph(A.astype(np.float64) * 0.5, dtype=np.uint32)


def test_unreachable_convention():
    A = sp.csr_array((3, 3), dtype=np.int64)
    for dtype in ALL_DTYPES:
        d = tropic.sssp(A.astype(dtype), 1)
        assert d[1] == 0 and d[0] == d[2] == tropic.infinity(dtype)
        assert tropic.infinity(dtype) == (np.inf if np.dtype(dtype).kind == "f"
                                          else np.iinfo(dtype).max)


def test_errors_carry_tropic_messages():
    A = sp.csr_array(np.array([[0, 1.0], [0, 0]]))
    with pytest.raises(IndexError, match="source vertex 2 is out of range: the graph has 2"):
        tropic.sssp(A, 2)
    with pytest.raises(IndexError, match="out of range"):
        tropic.sssp(A, -1)
    # Negative arcs: exact distances from the algorithms that take them (auto picks Bellman-Ford
    # rounds), a clear error from those that do not.
    negative = sp.csr_array(np.array([[0, -1.0], [0, 0]]))
    assert tropic.sssp(negative, 0).tolist() == [0.0, -1.0]
    with pytest.raises(ValueError, match="negative"):
        tropic.sssp(negative, 0, algorithm="dijkstra")
    for bad in (np.nan, np.inf):
        with pytest.raises(ValueError) as e:
            tropic.sssp(sp.csr_array(np.array([[0, bad], [0, 0]])), 0)
        assert isinstance(e.value, tropic.TropicError) and e.value.code == "invalid_value"
    with pytest.raises(ValueError, match="square"):
        tropic.sssp(sp.csr_array(np.ones((2, 3))), 0)
    with pytest.raises(TypeError, match="complex128 are not supported"):
        tropic.sssp(A.astype(np.complex128), 0)
    with pytest.raises(TypeError, match="not supported"):
        tropic.sssp(A.astype(bool), 0)
    with pytest.raises(TypeError, match="scipy.sparse"):
        tropic.sssp(np.zeros((2, 2)), 0)
    with pytest.raises(TypeError):
        tropic.sssp(A, 0.5)
    with pytest.raises(ValueError, match="unknown algorithm 'fastest'; available: auto"):
        tropic.sssp(A, 0, algorithm="fastest")
    with pytest.raises(ValueError, match="delta must be > 0"):
        tropic.sssp(A, 0, delta=0)
    with pytest.raises(ValueError, match="no vertices"):
        tropic.sssp(sp.csr_array((0, 0)), 0)
    # A distance that does not fit the weight type is reported, never wrapped.
    big = sp.csr_array(np.array([[0, 3_000_000_000, 0], [0, 0, 3_000_000_000], [0, 0, 0]],
                                dtype=np.uint32))
    for algorithm in CPU_ALGORITHMS:
        with pytest.raises(OverflowError, match="wider"):
            tropic.sssp(big, 0, algorithm=algorithm)
    np.testing.assert_array_equal(tropic.sssp(big.astype(np.uint64), 0), [0, 3e9, 6e9])
    # Malformed triples: tropic names the array and the entry.
    with pytest.raises(ValueError, match=r"indptr\[1\] = 3"):
        tropic.sssp((np.array([0, 3, 1]), np.array([1]), np.array([1.0])), 0)
    with pytest.raises(IndexError, match=r"indices\[0\] = 5 is out of range"):
        tropic.sssp((np.array([0, 1, 1]), np.array([5]), np.array([1.0])), 0)
    with pytest.raises(IndexError, match=r"indices\[0\] = -1 is negative"):
        tropic.sssp((np.array([0, 1, 1]), np.array([-1]), np.array([1.0])), 0)
    with pytest.raises(ValueError, match="weights have 2 entries"):
        tropic.sssp((np.array([0, 1, 1]), np.array([1]), np.array([1.0, 2.0])), 0)


def test_gpu_algorithms_without_a_device_say_so():
    if tropic.gpu_available():
        pytest.skip("a CUDA device is usable here: the GPU algorithms run (test_gpu_*)")
    A = sp.csr_array(np.array([[0, 1.0], [0, 0]]))
    for algorithm in ["delta_stepping", "adds", "near_far", "workfront", "rdbs", "da2cf",
                      "edge_wise"]:
        with pytest.raises(RuntimeError, match=f"algorithm '{algorithm}' needs (CUDA|a CUDA device)"
                           if tropic.cuda_build() else "needs CUDA") as e:
            tropic.sssp(A, 0, algorithm=algorithm)
        want = tropic.NoDeviceError if tropic.cuda_build() else tropic.NotAvailableError
        assert isinstance(e.value, want)
    # auto falls back to the CPU (SuiteSparse:GraphBLAS), as the C++ API does.
    g = tropic.Graph(A)
    np.testing.assert_array_equal(g.sssp(0), [0, 1])
    assert g.last_stats["algorithm"] == "graphblas_cpu" and not g.on_device


def test_graph_reuse():
    rng = np.random.default_rng(7)
    n, rows, cols, data = random_coo(rng, dtype=np.float32, n=200)
    A = csr_keeping_duplicates(n, rows, cols, data)
    g = tropic.Graph(A)
    assert g.n == n and g.dtype == np.float32 and "Graph(n=200" in repr(g)
    assert g.arcs == np.count_nonzero(np.isfinite(lightest(n, rows, cols, data))
                                      & ~np.eye(n, dtype=bool))
    for source in rng.integers(0, n, 20):
        for algorithm in CPU_ALGORITHMS:
            d = g.sssp(int(source), algorithm=algorithm)
            np.testing.assert_array_equal(d, tropic.sssp(A, int(source), algorithm=algorithm))
            check_against_scipy(np.float32, d, reference(n, rows, cols, data, int(source)))
    # The graph can be read back as it was converted: sorted rows, parallel arcs merged.
    B = g.to_scipy()
    assert B.has_sorted_indices and B.nnz == g.arcs
    np.testing.assert_array_equal(tropic.sssp(B, 3), g.sssp(3))


def test_gil_released_during_solve():
    # A solve of ~0.2 s or more in one thread; the main thread keeps running meanwhile (it would
    # stall for the whole solve if the GIL were held).
    rng = np.random.default_rng(3)
    n = 1_000_000
    m = 8 * n
    A = (np.repeat(np.arange(n, dtype=np.int64), 8), rng.integers(0, n, m).astype(np.int32),
         rng.random(m))
    A = (np.searchsorted(A[0], np.arange(n + 1)), A[1], A[2])
    g = tropic.Graph(A)
    t = time.perf_counter()
    g.sssp(0, algorithm="dijkstra")
    solve = time.perf_counter() - t
    done = threading.Event()
    th = threading.Thread(target=lambda: (g.sssp(1, algorithm="dijkstra"), done.set()))
    ticks, last, gap = 0, time.perf_counter(), 0.0
    th.start()
    while not done.is_set():
        now = time.perf_counter()
        gap, last, ticks = max(gap, now - last), now, ticks + 1
        time.sleep(0.001)
    th.join()
    assert solve > 0.1, f"the solve took {solve:.3f} s: too short to tell"
    assert gap < 0.5 * solve, f"main thread stalled {gap:.3f} s of a {solve:.3f} s solve"


@requires_gpu
@pytest.mark.parametrize("algorithm", GPU_ALGORITHMS)
def test_gpu_algorithms_match_scipy(algorithm):
    for seed in range(30):
        rng = np.random.default_rng(20_000 + seed)
        dtype = ALL_DTYPES[seed % len(ALL_DTYPES)]
        n, rows, cols, data = random_coo(rng, dtype=dtype, n=int(rng.integers(1, 400)))
        A = csr_keeping_duplicates(n, rows, cols, data)
        g = tropic.Graph(A)
        for source in {0, n - 1, n // 2}:
            d, p = g.sssp(source, algorithm=algorithm, parents=True)
            check_against_scipy(dtype, d, reference(n, rows, cols, data, source))
            shown = np.where(d == tropic.infinity(dtype), np.inf, d.astype(np.float64))
            check_parents(shown, p, source, lightest(n, rows, cols, data))
        assert g.on_device


@requires_gpu
def test_gpu_graph_uploads_once():
    rng = np.random.default_rng(9)
    n, rows, cols, data = random_coo(rng, dtype=np.uint32, n=5000)
    g = tropic.Graph(csr_keeping_duplicates(n, rows, cols, data))
    assert not g.on_device
    g.sssp(0, algorithm="delta_stepping")
    assert g.on_device
    for s in range(1, 50):
        d = g.sssp(s)  # auto on the resident matrix: adds on this small shallow graph
        assert g.last_stats["algorithm"] in ("adds", "delta_stepping")
        assert g.last_stats["setup_milliseconds"] == 0  # no upload
        check_against_scipy(np.uint32, d, reference(n, rows, cols, data, s))
    with pytest.raises(RuntimeError, match="CUDA device 99"):
        g.sssp(0, algorithm="delta_stepping", device=99)


def test_negative_cycle_raises_negative_cycle_error():
    # 3 -> 0 -> 1 -> 2 -> 1, the cycle 1 -> 2 -> 1 weighing -1: reachable from 0 and from 3.
    rows, cols = [0, 1, 2, 3], [1, 2, 1, 0]
    for dtype in (np.int32, np.int64, np.float32, np.float64):
        A = sp.coo_array((np.array([4, 2, -3, 1], dtype=dtype), (rows, cols)), shape=(4, 4))
        for algorithm in ("auto", "graphblas_cpu", "bellman_ford"):
            with pytest.raises(tropic.NegativeCycleError, match="negative-weight cycle is reachable") as e:
                tropic.sssp(A, 0, algorithm=algorithm)
            assert isinstance(e.value, ValueError) and e.value.code == "negative_cycle"
            assert re.search(r"vertex [12]\b", str(e.value)), str(e.value)
            with pytest.raises(tropic.NegativeCycleError):
                tropic.Graph(A).sssp(3, algorithm=algorithm)
        # Removing the cycle's negative arc: exact distances, bellman_ford on every build.
        B = sp.coo_array((np.array([4, 2, 3, 1], dtype=dtype), (rows, cols)), shape=(4, 4))
        np.testing.assert_array_equal(tropic.sssp(B, 3, algorithm="bellman_ford"), [1, 5, 7, 0])


def test_bellman_ford_runs_on_every_build():
    # Without a usable GPU bellman_ford is the CPU's Bellman-Ford-Moore rounds: negative arcs work.
    A = sp.csr_array(np.array([[0, 5.0, 2.0], [0, 0, 0], [0, -4.0, 0]]))
    np.testing.assert_array_equal(tropic.sssp(A, 0, algorithm="bellman_ford"), [0.0, -2.0, 2.0])


def _resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs Linux's /proc")
def test_graph_borrows_csr_arrays_without_a_host_copy():
    # A canonical CSR (rows sorted, no self-loop) with int32 column ids and weights of a shipped
    # type: tropic.Graph keeps references to the column ids and weights (48 MB here) and would
    # upload them from there; only indptr (int32 in scipy) is widened. The resident memory shows
    # it: it grows by the arrays' size only when a CPU solve makes tropic's own CSR.
    n, d = 250_000, 16
    rng = np.random.default_rng(7)
    rows = np.arange(n, dtype=np.int64)[:, None]
    cols = np.sort((rows + np.arange(1, d + 1) * 15_485) % n, axis=1).astype(np.int32)
    weights = rng.random(n * d) + 0.5
    A = sp.csr_array((weights, cols.ravel(), np.arange(0, n * d + 1, d, dtype=np.int32)),
                    shape=(n, n))
    assert A.indices.dtype == np.int32 and A.has_sorted_indices
    payload = A.indices.nbytes + A.data.nbytes
    before = _resident_bytes()
    g = tropic.Graph(A)
    grew = _resident_bytes() - before
    assert g._g.borrows and g._g.host_bytes == 0
    assert grew < 0.25 * payload, f"Graph(A) grew the resident memory by {grew} bytes"
    # A CPU solve copies (the CPU algorithms read tropic's own CSR): the same measurement sees
    # that copy, so it would have seen one above.
    before = _resident_bytes()
    got = g.sssp(3, algorithm="dijkstra")
    grew = _resident_bytes() - before
    assert g._g.host_bytes >= payload
    assert grew > 0.5 * payload, f"the copy for the CPU solve grew the memory by {grew} bytes"
    # The same graph copied at once (int64 column ids do not have tropic's layout) gives the same
    # answer.
    copied = tropic.Graph(sp.csr_array((A.data, A.indices.astype(np.int64), A.indptr),
                                       shape=A.shape))
    assert not copied._g.borrows and copied._g.host_bytes >= payload
    np.testing.assert_array_equal(got, copied.sssp(3, algorithm="dijkstra"))
    np.testing.assert_allclose(got, scipy_csgraph.dijkstra(A, indices=3))


def test_borrowed_arrays_are_checked_again_before_use():
    # A borrowed graph reads the caller's arrays at its first solve: a column id changed to an
    # invalid one in between is an error, never a read out of bounds.
    A = sp.csr_array(np.array([[0, 1.0, 0], [0, 0, 2.0], [0, 0, 0]]))
    g = tropic.Graph(A)
    assert g._g.borrows
    A.indices[0] = 7
    with pytest.raises(IndexError, match="indices\\[0\\] = 7 is out of range"):
        g.sssp(0)


def test_device_lists_are_checked():
    """``device`` takes one ordinal or a sequence; one entry is that device, two or more are
    several GPUs (delta_stepping only): refused clearly wherever they cannot run."""
    A = sp.csr_array(np.array([[0, 2.0, 0], [0, 0, 3.0], [0, 0, 0]]))
    np.testing.assert_array_equal(tropic.sssp(A, 0, algorithm="dijkstra", device=[0]), [0, 2, 5])
    with pytest.raises(ValueError, match="device list is empty"):
        tropic.sssp(A, 0, device=[])
    with pytest.raises(TypeError, match="got a bool"):
        tropic.sssp(A, 0, device=True)
    with pytest.raises(ValueError, match=r"only delta_stepping runs \(asked: dijkstra\)"):
        tropic.sssp(A, 0, algorithm="dijkstra", device=[0, 1])
    with pytest.raises(ValueError, match=r"only delta_stepping runs \(asked: dijkstra\)"):
        tropic.sssp(A, [0, 1], algorithm="dijkstra", device=[0, 1])
    # the same device twice: never two parts on one GPU (or no CUDA, or no device, here)
    with pytest.raises(tropic.TropicError, match="listed twice|no CUDA|does not exist|needs CUDA"):
        tropic.sssp(A, 0, algorithm="delta_stepping", device=[0, 0])


@pytest.mark.skipif(tropic.multi_gpu_devices() < 2,
                    reason="fewer than two CUDA devices, or no NCCL in this build (multi-GPU test)")
def test_several_gpus_give_one_gpus_answers():
    rng = np.random.default_rng(38)
    devices = list(range(min(tropic.multi_gpu_devices(), 4)))
    for dtype in (np.uint32, np.float64):
        n, rows, cols, data = random_coo(rng, dtype=dtype, n=500)
        A = csr_keeping_duplicates(n, rows, cols, data)
        got = tropic.sssp(A, 3, device=devices)
        check_against_scipy(dtype, got, reference(n, rows, cols, data, 3))
        np.testing.assert_array_equal(got, tropic.sssp(A, 3, algorithm="delta_stepping"))
        many = tropic.sssp(A, [3, 7, 3], device=devices)
        np.testing.assert_array_equal(many[0], got)
        np.testing.assert_array_equal(many[2], got)


@pytest.mark.skipif(tropic.multi_gpu_devices() < 2,
                    reason="fewer than two CUDA devices, or no NCCL in this build (multi-GPU test)")
def test_graph_keeps_its_split_over_several_gpus():
    # A Graph solved on a device list keeps the split resident (one upload for many calls) and
    # makes a new one when the list changes (reversed: a new order of the same GPUs), or goes
    # back to one GPU; zero-copy and copied inputs alike.
    rng = np.random.default_rng(381)
    devices = list(range(min(tropic.multi_gpu_devices(), 4)))
    n, rows, cols, data = random_coo(rng, dtype=np.uint32, n=700, duplicates=False)
    _, first = np.unique(rows * n + cols, return_index=True)  # no parallel arcs: scipy sums them
    first = first[rows[first] != cols[first]]  # nor self-loops: the canonical form has none
    rows, cols, data = rows[first], cols[first], data[first]
    weights = lightest(n, rows, cols, data)

    def check(d, p, source):
        check_against_scipy(np.uint32, d, reference(n, rows, cols, data, source))
        shown = np.where(d == tropic.infinity(np.uint32), np.inf, d.astype(np.float64))
        check_parents(shown, p, source, weights)

    canonical = sp.csr_matrix((data, (rows, cols)), shape=(n, n))  # borrowed: zero-copy
    assert canonical.has_canonical_format
    for g in (tropic.Graph(canonical), tropic.Graph(csr_keeping_duplicates(n, rows, cols, data))):
        assert not g.on_device
        for split in (devices, devices[::-1], devices):
            for source in (0, 5):
                d, p = g.sssp(source, device=split, parents=True)
                assert g.on_device
                check(d, p, source)
            k = [5, 0, 5, 11]
            dm, pm = g.sssp(k, device=split, parents=True)
            assert dm.shape == pm.shape == (len(k), n)
            for i, source in enumerate(k):
                check(dm[i], pm[i], source)
            np.testing.assert_array_equal(g.sssp(k, device=split), dm)
        d = g.sssp(5, device=0)  # one GPU: the split is let go for the whole graph
        assert g.on_device
        check_against_scipy(np.uint32, d, reference(n, rows, cols, data, 5))
        with pytest.raises(ValueError, match=r"only delta_stepping runs \(asked: adds\)"):
            g.sssp(0, algorithm="adds", device=devices)
        with pytest.raises(tropic.TropicError, match="does not exist"):
            g.sssp(0, device=devices + [99])
