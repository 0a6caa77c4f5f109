"""How compact job allocations are: mean hop distance between a job's nodes on a torus.

With ``delay`` profiles the allocation policy cannot change *when* jobs run, only
*where*; this metric makes that visible (and is what locality-aware allocation
minimises). Batsim ids of the generator's torus platforms equal topology ranks
(platforms/README.md, "Host names and Batsim ids"); SimGrid's torus ranks vary the
first dimension fastest, and routes are dimension-ordered with the shorter way round
each ring, so the hop count is the wrap-around Manhattan distance.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def parse_procset(text: str) -> list[int]:
    """Batsim's interval-set text ``"0-3 7 9-10"`` -> ``[0, 1, 2, 3, 7, 9, 10]``."""
    ids: list[int] = []
    for part in str(text).split():
        low, _, high = part.partition("-")
        ids.extend(range(int(low), int(high or low) + 1))
    return ids


def torus_coordinates(ranks: Sequence[int], dims: Sequence[int]) -> np.ndarray:
    """Rows of coordinates, first dimension varying fastest."""
    ranks = np.asarray(ranks, dtype=np.int64)
    coords = []
    for size in dims:
        coords.append(ranks % size)
        ranks = ranks // size
    return np.stack(coords, axis=1)


def mean_pairwise_hops(ranks: Sequence[int], dims: Sequence[int]) -> float:
    """Mean torus hop distance over the job's node pairs (NaN for one node)."""
    if len(ranks) < 2:
        return float("nan")
    coords = torus_coordinates(ranks, dims)
    total = np.zeros((len(ranks), len(ranks)), dtype=np.int64)
    for axis, size in enumerate(dims):
        delta = np.abs(coords[:, axis, None] - coords[None, :, axis])
        total += np.minimum(delta, size - delta)
    n = len(ranks)
    return float(total.sum()) / (n * (n - 1))
