"""tropic: single-source shortest paths on NVIDIA GPUs with min-plus semiring operators.

    import tropic
    d = tropic.sssp(A, 0)                      # A: scipy.sparse, python-graphblas Matrix,
    d, p = tropic.sssp(A, 0, parents=True)     #    or an (indptr, indices, data) triple
    D = tropic.sssp(A, [0, 5, 17])             # many sources: a (3, n) array, row i for source i
    d = tropic.sssp(A, 0, cutoff=10.0)         # farther than 10: unreachable, not searched
    g = tropic.Graph(A); g.sssp(0); g.sssp(7)  # convert (and upload to the GPU) once
    from tropic.csgraph import dijkstra        # scipy.sparse.csgraph.dijkstra, same semantics

A(u, v) = w is the arc u -> v of weight w (row u holds u's out-arcs, as in scipy.sparse.csgraph).
A stored entry is an arc even when its value is 0 (an explicit zero is a zero-weight arc);
parallel entries (duplicates) keep the lightest; self-loops are dropped (they never shorten a
path). Weights must be non-negative and finite.

Weight types: uint32, int32, uint64, int64, float32, float64 are used as they are; int8/int16
become int32, uint8/uint16 uint32 and float16 float32 (exactly); any other dtype raises
TypeError. Distances come back in the weight type. Unreachable vertices get tropic's
"infinity": ``np.inf`` for floats, ``np.iinfo(dtype).max`` for integers (``tropic.infinity``);
parents are int64, -1 for the source and for unreachable vertices.

Copies: tropic's CSR owns its arrays, so a graph is copied once into it when it is built (CSR
input whose rows are sorted, without duplicates or self-loops, is copied as it is; CSC, COO,
other formats, python-graphblas matrices and unsorted CSR go through tropic's CSR builder).
``tropic.Graph`` keeps that copy, and on a GPU the uploaded device matrix, across calls. Results
are handed to numpy without a copy. The GIL is released while a graph is built and solved.
"""

import operator

import numpy as np

from . import _errors
from ._errors import (  # noqa: F401  (re-exported)
    CudaError,
    DistanceOverflowError,
    FileError,
    GraphBLASError,
    InvalidIndexError,
    InvalidValueError,
    NegativeCycleError,
    NoDeviceError,
    NotAvailableError,
    OutOfMemoryError,
    ParseError,
    TropicError,
)
from . import _tropic

__all__ = [
    "sssp",
    "Graph",
    "read_graph",
    "infinity",
    "available_algorithms",
    "gpu_available",
    "cuda_build",
    "multi_gpu_devices",
    "weight_types",
    "TropicError",
    "NegativeCycleError",
]

#: The weight types tropic ships (lib/tropic/csr.hpp, is_weight_type_v).
weight_types = tuple(
    np.dtype(t) for t in (np.uint32, np.int32, np.uint64, np.int64, np.float32, np.float64)
)
# Narrower types widen exactly to one tropic ships.
_widen = {
    np.dtype(np.int8): np.dtype(np.int32),
    np.dtype(np.int16): np.dtype(np.int32),
    np.dtype(np.uint8): np.dtype(np.uint32),
    np.dtype(np.uint16): np.dtype(np.uint32),
    np.dtype(np.float16): np.dtype(np.float32),
}
_index_types = (np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.uint32), np.dtype(np.uint64))


def gpu_available():
    """True when this build has CUDA and a CUDA device is usable."""
    return _tropic.gpu_available()


def cuda_build():
    """True when the module was built with CUDA (the GPU algorithms are compiled in)."""
    return _tropic.cuda_build()


def multi_gpu_devices():
    """How many CUDA devices a several-GPU solve (``device=[0, 1, ...]``) can use: 0 where this
    build has no CUDA or no NCCL, or no device is usable."""
    return _tropic.multi_gpu_devices()


def available_algorithms():
    """The algorithm names this build can run ("auto", "dijkstra", "graphblas_cpu", and the GPU
    ones in a CUDA build)."""
    return list(_tropic.available_algorithms())


def infinity(dtype):
    """tropic's "unreachable" distance for a weight type: inf for floats, the maximum for
    integers."""
    dtype = _weight_dtype(np.dtype(dtype))
    if dtype.kind == "f":
        return dtype.type(np.inf)
    return np.iinfo(dtype).max


def _weight_dtype(dtype):
    if dtype in weight_types:
        return dtype
    if dtype in _widen:
        return _widen[dtype]
    raise TypeError(
        f"tropic: weights of dtype {dtype} are not supported; use one of "
        + ", ".join(str(t) for t in weight_types)
        + " (int8/int16/uint8/uint16/float16 are widened automatically)"
    )


def _index_array(a, what):
    a = np.asarray(a)
    if a.ndim != 1:
        raise ValueError(f"tropic: {what} must be a 1-D array, got shape {a.shape}")
    if a.dtype not in _index_types:
        if a.dtype.kind not in "iu" and a.size > 0:
            raise TypeError(f"tropic: {what} must hold integers, got dtype {a.dtype}")
        a = a.astype(np.int64)
    return np.ascontiguousarray(a)


def _weights(data, dtype):
    data = np.asarray(data)
    if data.ndim != 1:
        raise ValueError(f"tropic: the weights must be a 1-D array, got shape {data.shape}")
    w = _weight_dtype(np.dtype(dtype) if dtype is not None else data.dtype)
    if data.dtype != w:
        # A conversion to another type must keep every weight exactly (no silent rounding).
        converted = data.astype(w)
        if data.size and not np.array_equal(converted, data, equal_nan=data.dtype.kind == "f"):
            raise ValueError(f"tropic: the weights do not all convert exactly to {w}")
        data = converted
    return np.ascontiguousarray(data), w


def _is_graphblas_matrix(a):
    t = type(a)
    return t.__module__.startswith("graphblas") and t.__name__ == "Matrix"


def _square(shape):
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"tropic: the adjacency matrix must be square (N x N), got shape {shape}")
    return int(shape[0])


def _build(A, dtype=None, symmetrize=False):
    """Any supported input -> the C++ graph of its weight type."""
    if isinstance(A, Graph):
        return A._g
    if isinstance(A, tuple) and len(A) == 3:
        indptr = _index_array(A[0], "indptr")
        if indptr.size == 0:
            raise ValueError("tropic: indptr must have n + 1 >= 1 entries")
        indices = _index_array(A[1], "indices")
        data, w = _weights(A[2], dtype)
        n = indptr.size - 1
        return _graph_class(w).from_csr(n, indptr, indices, data, symmetrize)
    if _is_graphblas_matrix(A):
        n = _square(A.shape)
        rows, cols, values = A.to_coo()
        if values.dtype == np.bool_:
            raise TypeError("tropic: a BOOL GraphBLAS matrix has no weights; cast it first")
        data, w = _weights(values, dtype)
        return _graph_class(w).from_coo(
            n, _index_array(rows, "rows"), _index_array(cols, "columns"), data, symmetrize
        )
    try:
        import scipy.sparse as sp
    except ImportError:  # pragma: no cover - scipy is a dependency
        sp = None
    if sp is not None and sp.issparse(A):
        n = _square(A.shape)
        if A.format == "csr":
            data, w = _weights(A.data, dtype)
            return _graph_class(w).from_csr(
                n, _index_array(A.indptr, "indptr"), _index_array(A.indices, "indices"), data,
                symmetrize,
            )
        # CSC, COO and the rest: as coordinates, duplicates kept (tropic keeps the lightest;
        # scipy's own tocsr() would sum them).
        coo = A if A.format == "coo" else A.tocoo()
        data, w = _weights(coo.data, dtype)
        return _graph_class(w).from_coo(
            n, _index_array(coo.row, "rows"), _index_array(coo.col, "columns"), data, symmetrize
        )
    raise TypeError(
        "tropic: A must be a scipy.sparse matrix or array, a python-graphblas Matrix, an "
        f"(indptr, indices, data) triple or a tropic.Graph, got {type(A).__name__}"
    )


def _graph_class(dtype):
    return getattr(_tropic, "graph_" + np.dtype(dtype).name)


class Graph:
    """A graph converted to tropic's CSR once (and, on a GPU, uploaded on the first GPU solve and
    kept there; with ``device=[0, 1, ...]``, split over those GPUs once and kept), for many
    ``sssp`` calls.

    ``Graph(A, dtype=None, symmetrize=False)``: A as for :func:`sssp`; ``dtype`` converts the
    weights (exactly, else ValueError); ``symmetrize`` adds v -> u for every u -> v (an undirected
    graph; a pair of opposite arcs keeps the lighter weight).

    Zero-copy: a CSR input (scipy CSR or an ``(indptr, indices, data)`` triple) whose column ids
    are int32 or uint32, whose weights have a supported dtype and whose rows are sorted without
    self-loops is not copied: the Graph keeps references to its arrays and uploads them to the GPU
    from there (checked again first). CPU algorithms read tropic's own CSR, copied on their first
    solve. Other inputs are converted once, here.
    """

    def __init__(self, A, *, dtype=None, symmetrize=False):
        self._g = _build(A, dtype, symmetrize)
        self.last_stats = None

    @property
    def n(self):
        """Number of vertices."""
        return self._g.n

    @property
    def arcs(self):
        """Number of arcs after duplicates and self-loops were removed."""
        return self._g.arcs

    @property
    def dtype(self):
        return np.dtype(type(self._g).__name__[len("graph_"):])

    @property
    def on_device(self):
        """True once the matrix is resident on a GPU."""
        return self._g.on_device

    def sssp(self, source, *, algorithm="auto", delta=None, parents=False, device=0,
             cutoff=None):
        """Shortest distances from ``source`` (a vertex id, or a sequence of them); see
        :func:`sssp`. ``self.last_stats`` then holds the solve's statistics (algorithm run,
        delta, buckets, milliseconds, ...; summed over the sources for several; call_milliseconds:
        the C++ call's wall time, the solve with its setup and download)."""
        if isinstance(source, (bool, np.bool_)):
            raise TypeError("tropic: source must be an integer vertex id, got a bool")
        many = not isinstance(source, (int, np.integer)) and np.ndim(source) == 1
        if not many:
            source = operator.index(source)
        if cutoff is None:
            cutoff = np.inf
        else:
            cutoff = float(cutoff)
            if not cutoff >= 0:
                raise ValueError(f"tropic: cutoff must be >= 0 (or None for none), got {cutoff}")
        if delta is None:
            delta = 0.0  # tropic's "automatic"
        else:
            delta = float(delta)
            if not delta > 0:
                raise ValueError(f"tropic: delta must be > 0 (or None for automatic), got {delta}")
        if not isinstance(algorithm, str):
            raise TypeError("tropic: algorithm must be a name, e.g. 'auto' or 'dijkstra'")
        ordinal, devices = _device_arguments(device)
        if many:
            sources = np.asarray(source)
            if sources.size and sources.dtype.kind not in "iu":
                raise TypeError(f"tropic: sources must be integer vertex ids, got {sources.dtype}")
            sources = np.ascontiguousarray(sources, dtype=np.int64)
            dist, par, stats = self._g.sssp_many(sources, algorithm, delta, bool(parents),
                                                 ordinal, cutoff, devices)
            shape = (sources.size, self.n)
            dist = dist.reshape(shape)
            par = par.reshape(shape) if parents else None
        else:
            dist, par, stats = self._g.sssp(source, algorithm, delta, bool(parents), ordinal,
                                            cutoff, devices)
        self.last_stats = stats
        return (dist, par) if parents else dist

    def to_scipy(self):
        """The graph as a scipy.sparse.csr_array (a copy; rows sorted, duplicates merged)."""
        import scipy.sparse as sp

        indptr, indices, data = self._g.arrays()
        return sp.csr_array((data, indices, indptr), shape=(self.n, self.n))

    def __repr__(self):
        return f"tropic.Graph(n={self.n}, arcs={self.arcs}, dtype={self.dtype})"


def _device_arguments(device):
    """``device``: one CUDA ordinal, or a sequence of them (two or more: several GPUs)."""
    if isinstance(device, (bool, np.bool_)):
        raise TypeError("tropic: device must be a CUDA ordinal or a sequence of them, got a bool")
    if isinstance(device, (int, np.integer)):
        return int(device), []
    devices = [operator.index(d) for d in device]
    if not devices:
        raise ValueError("tropic: the device list is empty")
    return devices[0], (devices if len(devices) > 1 else [])


def sssp(A, source, *, algorithm="auto", delta=None, parents=False, device=0, cutoff=None):
    """Shortest paths from ``source`` in the graph ``A``: one vertex id, or a sequence of them
    (then one solve for all: SuiteSparse:GraphBLAS batches them on the CPU, the GPU reuses one
    upload; the result has a row per source, shape (k, n), duplicates allowed).

    A: a scipy.sparse matrix or array (any format; A[u, v] = w is the arc u -> v), a
    python-graphblas Matrix, an ``(indptr, indices, data)`` CSR triple, or a :class:`Graph`.
    algorithm: "auto" (on a GPU, where a device exists, adds or delta_stepping by the graph's
    size and depth -- the README's rule --, else SuiteSparse:GraphBLAS on the CPU), "dijkstra",
    "graphblas_cpu", or a GPU algorithm ("delta_stepping", "bellman_ford", "adds", "near_far",
    "workfront", "rdbs", "da2cf", "edge_wise"), which raises NoDeviceError where no device is
    usable. delta: the bucket width (None: automatic).
    device: the CUDA device ordinal, or a sequence of ordinals of this host: two or more run
    delta_stepping (or "auto") with the graph split by rows over them, the distances exchanged
    through NCCL, the same answers as one GPU (the README's "Several GPUs"; a :class:`Graph`
    keeps its split on those devices for its next calls, as it keeps one GPU's upload; a call on
    one GPU lets the split go). cutoff: scipy's ``limit``: vertices farther than it are reported
    unreachable and not searched past (None: no cutoff).

    Returns the distances (a numpy array of the weight type; ``tropic.infinity(dtype)`` where
    unreachable), and with ``parents=True`` a pair (distances, parents): int64, -1 for the source
    and unreachable vertices, any u with dist[u] + w(u, v) == dist[v] otherwise.
    Errors raise subclasses of TropicError that are also ValueError (bad input, negative weight),
    IndexError (source out of range), MemoryError, NotImplementedError, OverflowError (a distance
    that does not fit the weight type), RuntimeError (no device, CUDA).
    """
    g = A if isinstance(A, Graph) else Graph(A)
    return g.sssp(source, algorithm=algorithm, delta=delta, parents=parents, device=device,
                  cutoff=cutoff)


def read_graph(path, *, dtype=np.float64, unit_weights=False, graph=False):
    """Reads a graph file with tropic's reader (Matrix Market, DIMACS .gr, SNAP edge list, Galois
    binary .gr, tropic's binary cache; detected by content, .gz transparently).

    Returns a scipy.sparse.csr_array of ``dtype`` (rows sorted, parallel arcs keeping the
    lightest, self-loops dropped), or with ``graph=True`` a :class:`Graph` without the copy.
    """
    w = _weight_dtype(np.dtype(dtype))
    cg = getattr(_tropic, "read_graph_" + w.name)(str(path), bool(unit_weights))
    g = Graph.__new__(Graph)
    g._g = cg
    g.last_stats = None
    return g if graph else g.to_scipy()
