"""Invariants every queue policy must keep, over random small workloads (in-memory driver)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasched.policy import PlatformView, create_policy
from datasched.policy.driver import InMemoryDriver
from datasched.policy.topology import HostDistances
from tests.strategies import allocation_names, any_subset_allocation_names, sim_workloads

QUEUE_POLICIES = ["fcfs", "sjf", "easy", "conservative"]


def _platform(nb_hosts: int, with_topology: bool) -> PlatformView:
    if not with_topology:
        return PlatformView.uniform(nb_hosts)
    import numpy as np

    ids = np.arange(nb_hosts)
    # a ring: distance = shorter way round
    delta = np.abs(ids[:, None] - ids[None, :])
    return PlatformView.uniform(nb_hosts, HostDistances(np.minimum(delta, nb_hosts - delta), "test ring"))


def _run(policy_name, allocation, nb_hosts, jobs, with_topology=False):
    policy = create_policy(policy_name, {"allocation": allocation})
    result = InMemoryDriver(_platform(nb_hosts, with_topology), jobs).run(policy)
    return policy, result


@settings(deadline=None)
@given(
    workload=sim_workloads(oversized=True),
    policy_name=st.sampled_from(QUEUE_POLICIES),
    allocation=allocation_names,
    with_topology=st.booleans(),
)
def test_no_host_shared_jobs_start_once_after_submission_and_all_end(workload, policy_name, allocation, with_topology):
    nb_hosts, jobs = workload
    _, result = _run(policy_name, allocation, nb_hosts, jobs, with_topology)
    outcomes = list(result.outcomes.values())
    for o in outcomes:
        job = next(j for j in jobs if j.info.id == o.job_id)
        if job.info.requested_hosts > nb_hosts:
            assert o.state == "rejected"
            continue
        assert o.state in {"completed", "walltime_reached", "killed"}, (o, policy_name)
        assert o.start is not None and o.start >= o.submit_time
        assert len(o.hosts) == job.info.requested_hosts == len(set(o.hosts))
        assert all(0 <= h < nb_hosts for h in o.hosts)
    ran = [o for o in outcomes if o.start is not None]
    for i, a in enumerate(ran):
        for b in ran[i + 1 :]:
            if set(a.hosts) & set(b.hosts):
                assert not (a.start < b.finish and b.start < a.finish), (a, b)


@settings(deadline=None)
@given(workload=sim_workloads(), allocation=allocation_names)
def test_fcfs_starts_jobs_in_submission_order(workload, allocation):
    nb_hosts, jobs = workload
    _, result = _run("fcfs", allocation, nb_hosts, jobs)
    starts = [result.outcomes[j.info.id].start for j in jobs]  # jobs are in submission order
    assert starts == sorted(starts)


@settings(deadline=None)
@given(workload=sim_workloads(walltimes="exact"), allocation=allocation_names)
def test_easy_never_starts_the_head_after_its_reservation(workload, allocation):
    """For every allocator: count-based reservations where any host set fits, the
    head's actual hosts otherwise (``contiguous``)."""
    nb_hosts, jobs = workload
    policy, result = _run("easy", allocation, nb_hosts, jobs)
    for job_id, reservation in policy.head_reservations.items():
        assert result.outcomes[job_id].start <= reservation, (job_id, reservation)


@settings(deadline=None)
@given(workload=sim_workloads(walltimes="upper"), allocation=any_subset_allocation_names)
def test_conservative_never_delays_a_reservation(workload, allocation):
    nb_hosts, jobs = workload
    policy, result = _run("conservative", allocation, nb_hosts, jobs)
    assert policy.clamped == []  # the profile itself never put a reservation later
    for job in jobs:
        history = policy.reservation_history[job.info.id]
        assert history == sorted(history, reverse=True), history
        assert result.outcomes[job.info.id].start <= history[0]


@pytest.mark.parametrize("policy_name", QUEUE_POLICIES)
def test_same_inputs_and_seed_give_identical_schedules(policy_name):
    from datasched.policy.driver import SimJob
    from datasched.policy.events import JobInfo

    jobs = [SimJob(JobInfo(str(i), float(i % 5), 1 + (i * 7) % 5, 12.0), float(3 + (i * 5) % 9)) for i in range(40)]
    runs = [
        {
            k: (o.start, o.hosts)
            for k, o in _run(policy_name, {"name": "random", "seed": 42}, 6, jobs)[1].outcomes.items()
        }
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    other = {
        k: (o.start, o.hosts) for k, o in _run(policy_name, {"name": "random", "seed": 43}, 6, jobs)[1].outcomes.items()
    }
    assert other != runs[0]
