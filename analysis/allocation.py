"""How compact job allocations are: mean hop distance between a job's nodes on a torus.

With ``delay`` profiles the allocation policy cannot change *when* jobs run, only
*where*; this metric makes that visible (and is what locality-aware allocation
minimises). Batsim ids of the generator's torus platforms equal topology ranks
(platforms/README.md, "Host names and Batsim ids"); SimGrid's torus ranks vary the
first dimension fastest, and routes are dimension-ordered with the shorter way round
each ring, so the hop count is the wrap-around Manhattan distance (``datasched.platforms.torus``).
"""

from __future__ import annotations

from collections.abc import Sequence

from procset import ProcSet

from datasched.platforms.torus import torus_hop_matrix


def parse_procset(text: str) -> list[int]:
    """Batsim's interval-set text ``"0-3 7 9-10"`` -> ``[0, 1, 2, 3, 7, 9, 10]`` (procset's parser)."""
    return list(ProcSet.from_str(str(text)))


def mean_pairwise_hops(ranks: Sequence[int], dims: Sequence[int]) -> float:
    """Mean torus hop distance over the job's node pairs (NaN for one node)."""
    n = len(ranks)
    if n < 2:
        return float("nan")
    return float(torus_hop_matrix(ranks, dims).sum()) / (n * (n - 1))
