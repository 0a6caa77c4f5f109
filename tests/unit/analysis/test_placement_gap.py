"""The allocators-against-the-optimum artifact: scenarios, placements and the report's numbers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasched.analysis.placement_gap import placements, report, scenarios, table
from datasched.analysis.placement_gap.runs import evaluate
from datasched.analysis.placement_gap.spec import ONLINE, OPTIMUM, PlacementGapSpec
from datasched.policy.platform import HostInfo, PlatformView
from datasched.policy.topology import HostDistances

SPEC = PlacementGapSpec({"t": Path("unused.xml")}, 6, 3, (1, 2, 4), (1, 2), 0.5, 7)


def _torus_view(side: int) -> PlatformView:
    """side x side torus, host id = x + side * y; hops = wrap-around Manhattan distance."""
    coords = [(i % side, i // side) for i in range(side * side)]

    def hops(a: int, b: int) -> int:
        return sum(min(abs(p - q), side - abs(p - q)) for p, q in zip(coords[a], coords[b], strict=True))

    matrix = np.array([[hops(a, b) for b in range(side * side)] for a in range(side * side)])
    hosts = tuple(HostInfo(i, f"n{i}") for i in range(side * side))
    return PlatformView(hosts, HostDistances(matrix, "test torus"))


def test_scenarios_are_seeded_and_fit_the_free_hosts():
    first = scenarios.scenario(SPEC, 16, 3)
    assert scenarios.scenario(SPEC, 16, 3) == first
    assert scenarios.scenario(SPEC, 16, 4) != first
    free, jobs = first
    assert len(free) == 8 and sum(j.hosts for j in jobs) <= len(free)
    assert all(1 <= len(j.holders) <= 2 and 1e9 <= j.bytes <= 10e9 for j in jobs)


def test_every_method_places_each_job_on_disjoint_free_hosts_and_none_beats_the_optimum():
    view = _torus_view(4)
    rows = evaluate(SPEC, "t", view)
    assert {r["method"] for r in rows} == set(SPEC.methods())
    for row in rows:
        assert row["hops_per_byte"] >= row["optimum_hops_per_byte"] - 1e-9
    free, jobs = scenarios.scenario(SPEC, view.nb_hosts, 0)
    for name in SPEC.allocators:
        placed = placements.allocator_placement(name, jobs, free, view)
        used = [h for hosts in placed.values() for h in hosts]
        assert len(used) == len(set(used)) and set(used) <= set(free)
        assert all(len(placed[j.id]) == j.hosts for j in jobs)


def test_summary_ratio_and_reading_follow_the_rows():
    """Two moments: costs 3 and 5 against optima 2 and 5 -> ratio 8/7, one moment at the optimum."""
    rows = []
    for scenario, (cost, best) in enumerate([(3.0, 2.0), (5.0, 5.0)]):
        for method, value in ((OPTIMUM, best), (ONLINE, best), ("sequential", cost)):
            rows.append(
                {
                    "platform": "t",
                    "scenario": scenario,
                    "method": method,
                    "bytes": 1.0,
                    "cost": value,
                    "hops_per_byte": value,
                    "optimum_hops_per_byte": best,
                }
            )
    by_method = {r["method"]: r for r in table.summary(rows)}
    assert by_method["sequential"]["ratio_to_optimum"] == pytest.approx(8 / 7)
    assert by_method["sequential"]["at_optimum"] == 1 and by_method["sequential"]["worst_excess_hops"] == 1.0
    assert by_method[OPTIMUM]["ratio_to_optimum"] == 1.0
    text = "\n".join(report.reading(table.summary(rows)))
    assert "`sequential` at 1.14x" in text and "none" not in text
