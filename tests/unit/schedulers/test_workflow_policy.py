"""The workflow policy (schedulers/workflow.py) on the in-memory driver (no I/O model:
each job takes its stated runtime); the answers are worked out by hand in each test."""

from __future__ import annotations

from datasched.policy import JobInfo, PlatformView
from datasched.policy.decisions import ExecuteJob
from datasched.policy.driver import InMemoryDriver, SimJob
from datasched.policy.registry import create_policy


def phases(reads: tuple[str, ...] = (), writes: tuple[str, ...] = ()) -> dict:
    """A 2-node datasched_phases profile reading/writing 1 GB items."""
    return {
        "type": "datasched_phases",
        "res": 2,
        "io_tasks": 2,
        "phases": [
            {"kind": "read", "bytes": 5e8 * len(reads), "items": [{"name": n, "bytes": 1e9} for n in reads]},
            {"kind": "write", "bytes": 5e8 * len(writes), "items": [{"name": n, "bytes": 1e9} for n in writes]},
        ],
    }


def job(number: int, submit: float, *, reads=(), writes=(), **extra) -> SimJob:
    info = JobInfo(f"w0!{number}", submit, 2, None, "p", phases(reads, writes), extra)
    return SimJob(info, {1: 10.0, 2: 5.0}.get(number, 10.0) if "runtime" not in extra else extra["runtime"])


def run(jobs, **options):
    return InMemoryDriver(PlatformView.uniform(4), jobs).run(create_policy("workflow", options))


def sim(number: int, submit: float, runtime: float, **extra) -> SimJob:
    return SimJob(JobInfo(f"w0!{number}", submit, 2, None, "p", phases(), extra), runtime)


def test_dependency_waits_for_its_predecessor_even_with_free_hosts():
    """Job 2 (afterok 1) could start at t = 0 on hosts 2-3 but waits until job 1 ends at 10."""
    r = run([sim(1, 0, 10), sim(2, 0, 5, dependencies=[1])])
    assert r.outcomes["w0!2"].start == 10.0


def test_chained_step_queues_behind_jobs_submitted_meanwhile():
    """4 hosts. Job 1 (10 s) and job 3 (20 s) fill them at t = 0; job 4 arrives at t = 5.
    Job 2 follows job 1: chained, it enters the queue at t = 10 behind job 4, which takes
    job 1's hosts; job 2 starts when job 3 ends (t = 20). With a dependency it was queued
    at t = 0, ahead of job 4, and starts at t = 10 (eq. 4's queue term); job 4 then
    follows it at t = 15."""
    base = [sim(1, 0, 10), sim(3, 0, 20), sim(4, 5, 30)]
    chained = run([*base, sim(2, 0, 5, datasched_submit_after=[1])])
    assert chained.outcomes["w0!2"].start == 20.0 and chained.outcomes["w0!4"].start == 10.0
    dependent = run([*base, sim(2, 0, 5, dependencies=[1])])
    assert dependent.outcomes["w0!2"].start == 10.0 and dependent.outcomes["w0!4"].start == 15.0


def test_failed_dependency_rejects_the_step():
    """Job 1 reaches its 5 s walltime: job 2 (afterok 1) can never run and is rejected."""
    jobs = [SimJob(JobInfo("w0!1", 0, 2, 5.0, "p", phases(), {}), 10), sim(2, 0, 5, dependencies=[1])]
    r = InMemoryDriver(PlatformView.uniform(4), jobs).run(create_policy("workflow", {}))
    assert r.outcomes["w0!1"].state == "walltime_reached" and r.outcomes["w0!2"].state == "rejected"


def step_jobs():
    """Job 0 (5 s) takes hosts 0-1, job 1 (writes item d, 10 s) hosts 2-3; job 2 reads d
    after job 1. At t = 10 hosts 0-3 are free."""
    return [sim(0, 0, 5), job(1, 0, writes=("d",)), SimJob(job(2, 0, reads=("d",)).info, 5.0)]


def with_dependency(jobs):
    first, second, third = jobs
    info = third.info
    return [first, second, SimJob(JobInfo(info.id, 0, 2, None, "p", info.profile, {"dependencies": [1]}), 5.0)]


def test_data_aware_places_the_step_on_the_nodes_holding_its_input():
    """Data-aware: job 2 goes where job 1 wrote d (hosts 2-3); data-unaware: sequential (0-1)."""
    aware = run(with_dependency(step_jobs()), data_aware=True)
    unaware = run(with_dependency(step_jobs()), data_aware=False)
    assert aware.outcomes["w0!1"].hosts == (2, 3)
    assert aware.outcomes["w0!2"].hosts == (2, 3)
    assert unaware.outcomes["w0!2"].hosts == (0, 1)


def test_data_unaware_sends_every_item_to_central_storage():
    policy = create_policy("workflow", {"data_aware": False})
    policy.begin(PlatformView.uniform(4), 0)
    from datasched.policy.events import JobSubmitted

    decisions = policy.react(0, [JobSubmitted(0, job(1, 0, writes=("d",)).info)])
    assert isinstance(decisions[0], ExecuteJob)
    assert decisions[0].storage is not None and decisions[0].storage.to_json() == {"items_to": "central"}
