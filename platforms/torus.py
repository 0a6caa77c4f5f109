"""Hop distance on a torus: the one implementation behind the topology-aware allocator
(``datasched.policy.topology``), the allocation-compactness metric
(``datasched.analysis.allocation``) and the route tests.

SimGrid ranks a torus's nodes with the first dimension varying fastest, and routes
dimension by dimension, the shorter way round each ring; the hop count is therefore
the wrap-around Manhattan distance::

    dims (4, 3):  rank = x + 4*y        ranks 0 and 3: |0-3| = 3 one way, 4-3 = 1 the other
        y=2   8  9 10 11                → 1 hop (the ring wraps);
        y=1   4  5  6  7                ranks 1 and 10: x 1->2 (1 hop), y 0->2 (1 hop, wrapping)
        y=0   0  1  2  3                → 2 hops
             x=0 1  2  3
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def torus_coordinates(ranks: Sequence[int] | np.ndarray, dims: Sequence[int]) -> np.ndarray:
    """One row of coordinates per rank, first dimension varying fastest."""
    rest = np.asarray(ranks, dtype=np.int64)
    columns = []
    for size in dims:
        columns.append(rest % size)
        rest = rest // size
    return np.stack(columns, axis=-1)


def torus_hops_between(a: Sequence[int] | np.ndarray, b: Sequence[int] | np.ndarray, dims: Sequence[int]) -> np.ndarray:
    """Hop counts between coordinates ``a`` and ``b`` (last axis = dimensions; the other
    axes broadcast, so ``c[:, None, :]`` and ``c[None, :, :]`` give a pairwise matrix)."""
    sizes = np.asarray(dims, dtype=np.int64)
    delta = np.abs(np.asarray(a, dtype=np.int64) - np.asarray(b, dtype=np.int64))
    return np.minimum(delta, sizes - delta).sum(axis=-1)


def torus_hop_matrix(ranks: Sequence[int] | np.ndarray, dims: Sequence[int]) -> np.ndarray:
    """Pairwise hop counts between the nodes of ``ranks``."""
    coords = torus_coordinates(ranks, dims)
    return torus_hops_between(coords[:, None, :], coords[None, :, :], dims)


def torus_hops(rank_a: int, rank_b: int, dims: Sequence[int]) -> int:
    """Hop count between two nodes given by their ranks."""
    return int(torus_hops_between(torus_coordinates([rank_a], dims)[0], torus_coordinates([rank_b], dims)[0], dims))
