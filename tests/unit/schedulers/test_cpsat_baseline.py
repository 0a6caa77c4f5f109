"""The CP-SAT baseline: never worse than a heuristic when optimal; plans replay exactly."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasched.errors import UserError
from datasched.optimum.schedule import (
    Instance,
    OfflineJob,
    Plan,
    SolveOptions,
    instance_from_workload,
    objective_value,
    solve,
)
from datasched.policy import PlatformView, create_policy
from datasched.policy.driver import InMemoryDriver
from tests.strategies import sim_workloads

HEURISTICS = ["fcfs", "sjf", "easy", "conservative"]
OBJECTIVES = ["makespan", "total_waiting", "total_weighted_completion"]


def _offline(jobs):
    return [OfflineJob(j.info.id, j.info.submit_time, j.runtime, j.info.requested_hosts) for j in jobs]


@settings(deadline=None, max_examples=25)
@given(
    workload=sim_workloads(max_hosts=4, max_jobs=6, walltimes="exact", min_runtime=1),
    objective=st.sampled_from(OBJECTIVES),
    host_model=st.sampled_from(["cumulative", "explicit"]),
)
def test_optimal_objective_is_never_worse_than_any_heuristic(workload, objective, host_model):
    nb_hosts, jobs = workload
    offline = _offline(jobs)
    plan = solve(
        Instance(tuple(offline), nb_hosts), SolveOptions(objective=objective, host_model=host_model, time_limit_s=20)
    )
    assert plan.status in {"OPTIMAL", "FEASIBLE"}
    assert objective_value(objective, offline, plan.starts) == pytest.approx(plan.objective)
    if not plan.optimal:
        return
    for name in HEURISTICS:
        result = InMemoryDriver(PlatformView.uniform(nb_hosts), jobs).run(create_policy(name))
        starts = {k: o.start for k, o in result.outcomes.items() if o.start is not None}
        assert len(starts) == len(offline), name
        heuristic = objective_value(objective, offline, starts)
        assert plan.objective is not None and plan.objective <= heuristic + 1e-6, (name, plan.objective, heuristic)


@settings(deadline=None, max_examples=20)
@given(
    workload=sim_workloads(max_hosts=4, max_jobs=6, walltimes="exact", min_runtime=1),
    host_model=st.sampled_from(["cumulative", "explicit"]),
)
def test_replaying_a_plan_reproduces_its_starts_and_hosts(tmp_path_factory, workload, host_model):
    nb_hosts, jobs = workload
    plan = solve(
        Instance(tuple(_offline(jobs)), nb_hosts), SolveOptions(objective="total_waiting", host_model=host_model)
    )
    path = tmp_path_factory.mktemp("plan") / "plan.json"
    plan.write(path)
    result = InMemoryDriver(PlatformView.uniform(nb_hosts), jobs).run(create_policy("replay", {"plan": str(path)}))
    for job in jobs:
        outcome = result.outcomes[job.info.id]
        assert outcome.start == plan.starts[job.info.id]
        assert outcome.hosts == plan.hosts[job.info.id]


def test_plan_records_status_bound_gap_and_round_trips(tmp_path):
    jobs = tuple(OfflineJob(str(i), float(i), 3.0 + i % 4, 1 + i % 3) for i in range(8))
    plan = solve(Instance(jobs, 3), SolveOptions(objective="makespan"))
    assert plan.status == "OPTIMAL" and plan.gap == 0.0 and plan.bound == plan.objective
    plan.write(tmp_path / "p.json")
    again = Plan.read(tmp_path / "p.json")
    assert again.starts == plan.starts and again.hosts == plan.hosts and again.status == "OPTIMAL"


def test_instance_from_workload_needs_delay_profiles(tmp_path):
    workload: dict[str, Any] = {
        "nb_res": 4,
        "jobs": [{"id": "1", "subtime": 0, "res": 2, "profile": "p"}],
        "profiles": {"p": {"type": "parallel_homogeneous", "cpu": 1e9, "com": 0}},
    }
    path = tmp_path / "w.json"
    path.write_text(json.dumps(workload))
    with pytest.raises(UserError, match=r"job '1'.*delay"):
        instance_from_workload(path, 4)
    workload["profiles"]["p"] = {"type": "delay", "delay": 7.5}
    path.write_text(json.dumps(workload))
    assert instance_from_workload(path, 4).jobs[0].runtime == 7.5


def test_replay_rejects_a_job_missing_from_the_plan(tmp_path):
    from datasched.policy.driver import SimJob
    from datasched.policy.events import JobInfo

    Plan({"a": 0.0}, {"a": (0,)}, "OPTIMAL", 1.0, 1.0, 0.0, 0.0).write(tmp_path / "p.json")
    jobs = [SimJob(JobInfo("a", 0.0, 1, 1.0), 1.0), SimJob(JobInfo("b", 0.0, 1, 1.0), 1.0)]
    with pytest.raises(UserError, match="'b' has no planned start"):
        InMemoryDriver(PlatformView.uniform(2), jobs).run(create_policy("replay", {"plan": str(tmp_path / "p.json")}))
