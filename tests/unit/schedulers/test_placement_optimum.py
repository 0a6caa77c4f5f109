"""The data-access placement optimum (datasched.policy.placement_optimum), checked by hand."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasched.analysis.placement_gap.placements import online_optimum
from datasched.errors import UserError
from datasched.policy.placement_optimum import PlacementJob, access_cost, optimal_placement

# 2x2 torus, host id = x + 2y: the hop distance is the Hamming distance of (x, y).
TORUS_2X2 = np.array([[0, 1, 1, 2], [1, 0, 2, 1], [1, 2, 0, 1], [2, 1, 1, 0]])


def test_two_by_two_torus_optimum_by_hand():
    """A: 3 hosts, 3 bytes from host 0 -> per host d(h, 0) = 0, 1, 1, 2.
    B: 1 host, 5 bytes from host 1 -> per host 5 d(h, 1) = 5, 0, 10, 5.
    B on 1 leaves A {0, 2, 3}: 0 + 1 + 2 = 3; B on 3 leaves A {0, 1, 2}: 2 + 5 = 7;
    B on 0: 5 + 4 = 9; B on 2: 10 + 2 = 12. Optimum 3. Placing A first (its own
    optimum {0, 1, 2}) forces B onto 3: 7."""
    jobs = [PlacementJob("A", 3, (0,), 3.0), PlacementJob("B", 1, (1,), 5.0)]
    best = optimal_placement(jobs, range(4), TORUS_2X2)
    assert best.status == "OPTIMAL"
    assert best.hosts == {"A": (0, 2, 3), "B": (1,)}
    assert best.cost == pytest.approx(3.0)
    online = online_optimum(jobs, range(4), TORUS_2X2)
    assert online == {"A": (0, 1, 2), "B": (3,)}
    assert access_cost(jobs, online, TORUS_2X2) == pytest.approx(7.0)


def test_cost_is_bytes_times_mean_hops_over_holders():
    """One task on host 0 reading 4 bytes from holders 1 and 3: 4 x (1 + 2) / 2 = 6."""
    job = PlacementJob("j", 1, (1, 3), 4.0)
    assert access_cost([job], {"j": (0,)}, TORUS_2X2) == pytest.approx(6.0)


def test_more_hosts_than_free_is_a_clear_error():
    with pytest.raises(UserError, match="5 hosts requested, only 4 free"):
        optimal_placement([PlacementJob("j", 5, (0,), 1.0)], range(4), TORUS_2X2)


@st.composite
def small_cases(draw):
    n = draw(st.integers(3, 6))
    points = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    matrix = np.array([[abs(a - b) for b in points] for a in points])
    free = sorted(draw(st.sets(st.integers(0, n - 1), min_size=2)))
    jobs, room = [], len(free)
    for j in range(draw(st.integers(1, 3))):
        hosts = draw(st.integers(1, 2))
        if hosts <= room:
            holders = tuple(sorted(draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=2))))
            jobs.append(PlacementJob(f"j{j}", hosts, holders, float(draw(st.integers(1, 9)))))
            room -= hosts
    return matrix, free, jobs


@settings(deadline=None, max_examples=40)
@given(case=small_cases())
def test_optimum_equals_exhaustive_search(case):
    """min over every disjoint assignment of free hosts = the model's optimum."""
    matrix, free, jobs = case
    best = float("inf")
    for order in itertools.permutations(free, sum(j.hosts for j in jobs)):
        hosts, k = {}, 0
        for job in jobs:
            hosts[job.id] = order[k : k + job.hosts]
            k += job.hosts
        best = min(best, access_cost(jobs, hosts, matrix))
    found = optimal_placement(jobs, free, matrix)
    assert found.cost == pytest.approx(best, rel=1e-6, abs=1e-9)
