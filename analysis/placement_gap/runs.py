"""Allocators against the optimum step 2, the runs (no simulation): every moment of one platform
placed by every method and scored by the data-access cost, one row per (moment, method)."""

from __future__ import annotations

from typing import Any

from datasched.analysis.placement_gap.placements import allocator_placement, online_optimum
from datasched.analysis.placement_gap.scenarios import scenario
from datasched.analysis.placement_gap.spec import ONLINE, OPTIMUM, PlacementGapSpec
from datasched.policy.placement_optimum import access_cost, optimal_placement
from datasched.policy.platform import PlatformView


def evaluate(spec: PlacementGapSpec, label: str, view: PlatformView) -> list[dict[str, Any]]:
    """The rows of platform ``label``: each method's cost and hops per byte beside the joint
    optimum's; a moment whose optimum CP-SAT does not prove is an error, not a row."""
    assert view.distances is not None
    matrix = view.distances.matrix
    rows = []
    for index in range(spec.scenarios):
        free, jobs = scenario(spec, view.nb_hosts, index)
        total = sum(j.bytes for j in jobs)
        best = optimal_placement(jobs, free, matrix)
        if best.status != "OPTIMAL":
            raise RuntimeError(f"{label} scenario {index}: CP-SAT status {best.status}")
        placements = {OPTIMUM: best.hosts, ONLINE: online_optimum(jobs, free, matrix)}
        for name in spec.allocators:
            placements[name] = allocator_placement(name, jobs, free, view)
        for method in spec.methods():
            cost = access_cost(jobs, placements[method], matrix)
            rows.append(
                {
                    "platform": label,
                    "scenario": index,
                    "method": method,
                    "bytes": total,
                    "cost": cost,
                    "hops_per_byte": cost / total,
                    "optimum_hops_per_byte": best.cost / total,
                }
            )
    return rows
