"""The data-access optimum of placing a handful of jobs at one moment (CP-SAT).

Given free compute hosts, host-to-host hop distances and, per job, its host count
``n_j``, the hosts ``D_j`` whose NVM holds its data and the bytes ``B_j`` it
reads, choose hosts ``S_j`` (disjoint, free) minimising the data-access cost::

    cost = sum_j B_j * mean_{h in S_j, k in D_j} d(h, k)     (bytes x hops)

i.e. every task reads an equal share of the job's bytes, spread evenly over the
holders, and a byte costs one unit per link it crosses. That is what the
``data_aware`` allocator's first term estimates; this model gives the value it
could reach, so an allocator's excess over it is measured, not guessed.

The cost is linear in the assignment ``x[j, h]`` (a transportation problem), so
the model is small at 72–512 hosts. What it leaves out, on purpose: the job's own
IPC (the allocators' compactness term is quadratic in the assignment), link loads
(the ``max link load`` objective would need routes), and the choice of devices
(fixed here: they are where the data already is). Integer coefficients: each
host's cost is rounded to 1e-9 of the largest cost, so the optimum is exact up to
that relative precision; the reported cost is recomputed in floating point.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from datasched.errors import UserError


@dataclass(frozen=True)
class PlacementJob:
    id: str
    hosts: int
    holders: tuple[int, ...]  # compute hosts whose NVM holds the job's data
    bytes: float


@dataclass(frozen=True)
class Placement:
    hosts: dict[str, tuple[int, ...]]
    cost: float
    status: str
    wall_time_s: float


def host_costs(job: PlacementJob, free: Sequence[int], distances: np.ndarray) -> np.ndarray:
    """Per free host: the bytes one task of the job moves times their mean hop distance."""
    if not job.holders:
        return np.zeros(len(free))
    mean_hops = distances[np.ix_(np.asarray(free), np.asarray(job.holders))].mean(axis=1)
    return job.bytes / job.hosts * mean_hops


def access_cost(jobs: Sequence[PlacementJob], hosts: Mapping[str, Sequence[int]], distances: np.ndarray) -> float:
    """The objective above for any placement (optimal or an allocator's)."""
    return float(sum(host_costs(j, list(hosts[j.id]), distances).sum() for j in jobs))


def optimal_placement(
    jobs: Sequence[PlacementJob],
    free_hosts: Sequence[int],
    distances: np.ndarray,
    *,
    time_limit_s: float = 30.0,
    workers: int = 1,
) -> Placement:
    from ortools.sat.python import cp_model

    free = sorted(free_hosts)
    if sum(j.hosts for j in jobs) > len(free):
        raise UserError(f"{sum(j.hosts for j in jobs)} hosts requested, only {len(free)} free")
    costs = [host_costs(j, free, distances) for j in jobs]
    top = max((float(c.max()) for c in costs if len(c)), default=0.0)
    scale = 1e9 / top if top > 0 else 1.0
    model = cp_model.CpModel()
    x = [[model.new_bool_var(f"x_{j}_{h}") for h in range(len(free))] for j in range(len(jobs))]
    for j, job in enumerate(jobs):
        model.add(sum(x[j]) == job.hosts)
    for h in range(len(free)):
        model.add_at_most_one(x[j][h] for j in range(len(jobs)))
    model.minimize(sum(round(costs[j][h] * scale) * x[j][h] for j in range(len(jobs)) for h in range(len(free))))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit_s
    solver.parameters.num_workers = workers
    t0 = time.perf_counter()
    status = solver.solve(model)
    wall = time.perf_counter() - t0
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Placement({}, float("nan"), solver.status_name(status), wall)
    chosen = {job.id: tuple(free[h] for h in range(len(free)) if solver.value(x[j][h])) for j, job in enumerate(jobs)}
    return Placement(chosen, access_cost(jobs, chosen, distances), solver.status_name(status), wall)
