"""scipy.sparse.csgraph's shortest-path interface on tropic: swap one import.

    from tropic.csgraph import dijkstra      # instead of scipy.sparse.csgraph

``dijkstra`` takes scipy's arguments and returns what scipy returns: float64 distances with
``np.inf`` where unreachable, int32 predecessors with -9999, the same shapes for ``indices`` None,
a scalar or a list, ``limit`` and ``min_only``. The input is read by scipy's own validation
(dense arrays: 0, inf and NaN are no edge; sparse: every stored entry is an edge, an explicit 0 a
zero-weight one), so the graph is the graph scipy would see. Differences: a negative weight
raises ValueError (scipy warns and returns distances it calls inaccurate); predecessors may
differ from scipy's where several shortest paths tie (each is a valid shortest-path tree), and
for ``min_only`` so may the source reported for a vertex at equal distance from two sources.

Several sources are one call (tropic.Graph.sssp with a list: batched on the CPU, one upload on
the GPU), and ``limit`` is tropic's cutoff: the search stops there instead of masking a full
solve.
"""

import numpy as np

from . import Graph

__all__ = ["dijkstra", "NULL_IDX"]

DTYPE = np.float64
ITYPE = np.int32
#: scipy's "no predecessor" value.
NULL_IDX = -9999


def _validate(csgraph, directed):
    """The N x N float64 CSR that scipy's dijkstra runs on."""
    try:
        from scipy.sparse.csgraph._validation import validate_graph
    except ImportError:  # pragma: no cover - a scipy that moved its private helper
        validate_graph = None
    if validate_graph is not None:
        return validate_graph(csgraph, directed, DTYPE, dense_output=False)
    import scipy.sparse as sp
    from scipy.sparse.csgraph import csgraph_from_dense

    if sp.issparse(csgraph):
        g = csgraph.tocsr().astype(DTYPE, copy=False)
    else:
        g = csgraph_from_dense(np.asarray(csgraph), null_value=0, infinity_null=True,
                               nan_null=True)
    if g.ndim != 2 or g.shape[0] != g.shape[1]:
        raise ValueError("compressed-sparse graph must be shape (N, N)")
    return g


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False,
             limit=np.inf, min_only=False, *, algorithm="auto", device=0):
    """scipy.sparse.csgraph.dijkstra on tropic; see scipy's documentation for the arguments.

    Extra keywords: ``algorithm`` (default "auto": the GPU's delta-stepping where a device
    exists, SuiteSparse:GraphBLAS on the CPU otherwise; "dijkstra" is tropic's CPU reference; any
    name of ``tropic.available_algorithms()``) and ``device`` (the CUDA device ordinal).
    """
    g = _validate(csgraph, directed)
    N = g.shape[0]

    # Sources, shapes and checks exactly as scipy (scipy/sparse/csgraph/_shortest_path.pyx).
    if indices is None:
        indices = np.arange(N, dtype=ITYPE)
        return_shape = (N,) if min_only else indices.shape + (N,)
    else:
        indices = np.array(indices, order="C", dtype=ITYPE, copy=True)
        return_shape = (N,) if min_only else indices.shape + (N,)
        indices = np.atleast_1d(indices).reshape(-1)
        indices[indices < 0] += N
        if np.any(indices < 0) or np.any(indices >= N):
            raise ValueError("indices out of range 0...N")
    limit = DTYPE(limit)
    if limit < 0:
        raise ValueError("limit must be >= 0")

    data = np.ones(g.data.shape, dtype=DTYPE) if unweighted else g.data
    if data.size and np.any(data < 0):
        raise ValueError(
            "Graph has negative weights: tropic's dijkstra needs weights >= 0 (scipy's warns and "
            "gives results it calls inaccurate); use scipy.sparse.csgraph.johnson or bellman_ford"
        )
    # scipy relaxes u -> v only when d(u) + w < d(v) <= inf: a NaN or +inf weight never relaxes
    # anything, so such an entry is no arc (tropic rejects non-finite weights outright).
    indptr, cols = g.indptr, g.indices
    keep = np.isfinite(data)
    if not keep.all():
        kept = np.concatenate([[0], np.cumsum(keep)])
        indptr, cols, data = kept[indptr], cols[keep], data[keep]
    if min_only:
        rows = np.repeat(np.arange(N, dtype=np.int64), np.diff(indptr))
        return _min_only(N, rows, cols, data, indices, directed, return_predecessors, limit,
                         return_shape, algorithm, device)

    # One conversion for all sources; symmetrize: u -> v and v -> u, the lighter of a pair, which
    # is what scipy's scan of A and A' per vertex computes.
    if N and len(indices):
        tg = Graph((indptr, cols, data), symmetrize=not directed)
        dist, pred = _solve(tg, indices.astype(np.int64), return_predecessors, limit, algorithm,
                            device)
    else:  # nothing to solve: the empty answer (all pairs of an empty graph, or no indices)
        dist = np.full((len(indices), N), np.inf, dtype=DTYPE)
        pred = np.full((len(indices), N), NULL_IDX, dtype=ITYPE) if return_predecessors else None
    if return_predecessors:
        return dist.reshape(return_shape), pred.reshape(return_shape)
    return dist.reshape(return_shape)


def _solve(tg, source, parents, limit, algorithm, device):
    """One source (an int) or several (an array, one row each): float64 distances, inf beyond
    ``limit`` (scipy relaxes an arc only while the new distance is <= limit, so exactly the
    vertices at distance > limit stay unreached: tropic's cutoff), and scipy's predecessors."""
    r = tg.sssp(source, algorithm=algorithm, parents=parents, device=device,
                cutoff=None if np.isinf(limit) else float(limit))
    d, p = (r if parents else (r, None))
    if parents:
        p = p.astype(ITYPE)
        p[p < 0] = NULL_IDX
    return d, p


def _min_only(N, rows, cols, data, indices, directed, return_predecessors, limit, return_shape,
              algorithm, device):
    """min over sources = one solve from a virtual vertex N with a zero-weight arc to every
    source; the vertex's own source is the root of its shortest-path tree below N."""
    dist = np.full(N, np.inf, dtype=DTYPE)
    pred = np.full(N, NULL_IDX, dtype=ITYPE)
    src = np.full(N, NULL_IDX, dtype=ITYPE)
    if N:
        sources = np.unique(indices).astype(np.int64)
        if directed:
            r, c, w = rows, cols, data
        else:  # both directions, then the virtual arcs (which must stay one-way)
            r, c, w = np.concatenate([rows, cols]), np.concatenate([cols, rows]), \
                np.concatenate([data, data])
        r = np.concatenate([r, np.full(sources.size, N, dtype=np.int64)])
        c = np.concatenate([c, sources])
        w = np.concatenate([w, np.zeros(sources.size, dtype=DTYPE)])
        import scipy.sparse as sp

        tg = Graph(sp.coo_array((w, (r, c)), shape=(N + 1, N + 1)))
        d, p = _solve(tg, N, True, limit, algorithm, device)
        dist = d[:N]
        dist[sources] = 0  # a source is its own root, whatever ties the solve broke
        p = p[:N].astype(np.int64)
        p[sources] = NULL_IDX
        p[p == N] = NULL_IDX
        # Roots by pointer jumping: anc[v] = v for a source, its parent otherwise, then
        # anc = anc[anc] until stable (log of the tree depth rounds).
        reached = np.isfinite(dist)
        anc = np.where(p >= 0, p, np.arange(N))
        while True:
            nxt = anc[anc]
            if np.array_equal(nxt, anc):
                break
            anc = nxt
        src[reached] = anc[reached]
        pred = p.astype(ITYPE)
    if return_predecessors:
        return dist.reshape(return_shape), pred.reshape(return_shape), src.reshape(return_shape)
    return dist.reshape(return_shape)
