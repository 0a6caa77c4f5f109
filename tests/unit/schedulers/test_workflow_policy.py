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


# ---- data movers and holds (prestage, post_move, hold) on the in-memory driver ----------

import math  # noqa: E402

import pytest  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from datasched.errors import UserError  # noqa: E402
from datasched.policy import StageData  # noqa: E402
from datasched.policy.rates import DataRates  # noqa: E402
from datasched.schedulers.workflow import hold_pays, move_seconds  # noqa: E402


def rates(read=2e9, write=1e9, link=1e9, capacity=None, hosts=4) -> DataRates:
    cap = dict.fromkeys(range(hosts), capacity) if capacity is not None else {}
    return DataRates(dict.fromkeys(range(hosts), read), dict.fromkeys(range(hosts), write), cap, {}, link)


@pytest.mark.parametrize(("wait", "expected"), [(3.999, True), (4.0, False), (5.0, False), (0.0, True)])
def test_hold_rule_both_sides_of_the_threshold(wait, expected):
    """T_move = max_h b_h / min(r_read, r_link, r_write) = 4e9 / min(2, 1, 1) GB/s = 4 s (the
    fuller holder; the other has 2e9 -> 2 s); hold iff T_wait < T_move."""
    stripes = {0: 4e9, 1: 2e9}
    assert move_seconds(stripes, rates()) == pytest.approx(4.0)
    assert hold_pays(wait, stripes, rates()) is expected


def test_hold_rule_uses_the_slowest_rate():
    """A 0.5 GB/s link makes the same 4 GB a move of 8 s: a 5 s wait is now worth a hold."""
    assert hold_pays(5.0, {0: 4e9}, rates(link=0.5e9)) and not hold_pays(5.0, {0: 4e9}, rates())


def test_movers_without_data_awareness_is_a_one_line_error():
    with pytest.raises(UserError, match="prestage, hold need data_aware: true") as info:
        create_policy("workflow", {"data_aware": False, "prestage": True, "hold": True})
    assert "\n" not in str(info.value)


def platform_with(rate: DataRates, hosts: int = 4) -> PlatformView:
    base = PlatformView.uniform(hosts)
    return PlatformView(base.hosts, None, base.storage, rate)


def test_prestage_of_a_moved_output_targets_the_running_predecessors_hosts():
    """Job 1 (hosts 0-1) writes d and ends at 10; job 3 (hosts 2-3, 30 s) runs; job 2 reads d
    after 1 and 3: at t = 10 it is a next step whose likely hosts are job 3's, so the
    policy moves d there (a post-move of an output needed elsewhere) and job 2 then starts
    on hosts 2-3 at t = 30."""
    jobs = [
        job(1, 0, writes=("d",), runtime=10.0),
        SimJob(JobInfo("w0!3", 0, 2, None, "p", phases(), {}), 30.0),
        SimJob(JobInfo("w0!2", 0, 2, None, "p", phases(("d",)), {"dependencies": [1, 3]}), 5.0),
    ]
    driver = InMemoryDriver(platform_with(rates()), jobs, stage_seconds=lambda s: 1.0)
    result = driver.run(create_policy("workflow", {"prestage": True}))
    assert [(t, s.item, s.to) for t, s in driver.stages] == [(10.0, "d", (2, 3))]
    assert result.outcomes["w0!2"].hosts == (2, 3) and result.outcomes["w0!2"].start == 30.0


@pytest.mark.parametrize("onto_busy", [False, True])
def test_prestage_keeps_off_nodes_where_a_running_job_does_io(onto_busy):
    """As above, but job 3 (hosts 2-3, 30 s) writes an item y: its write phase uses hosts
    2-3's NVM and NIC for its whole run as far as the policy knows. The move of d onto
    them would share that I/O, so by default nothing is staged (job 2 then reads d from
    hosts 0-1 at t = 30); with prestage_onto_busy the move is made at t = 10 as before."""
    jobs = [
        job(1, 0, writes=("d",), runtime=10.0),
        SimJob(JobInfo("w0!3", 0, 2, None, "p", phases(writes=("y",)), {}), 30.0),
        SimJob(JobInfo("w0!2", 0, 2, None, "p", phases(("d",)), {"dependencies": [1, 3]}), 5.0),
    ]
    driver = InMemoryDriver(platform_with(rates()), jobs, stage_seconds=lambda s: 1.0)
    result = driver.run(create_policy("workflow", {"prestage": True, "prestage_onto_busy": onto_busy}))
    assert [(t, s.item, s.to) for t, s in driver.stages] == ([(10.0, "d", (2, 3))] if onto_busy else [])
    assert result.outcomes["w0!2"].start == 30.0


def test_prestage_waits_until_the_items_holders_stop_their_io():
    """Job 1 (hosts 0-1) writes d and ends at 10; job 4 (hosts 0-1 after job 1, 20 s) writes
    z there; job 3 (hosts 2-3, 50 s) only computes; job 2 reads d after 1 and 3. From t = 10
    d's holders 0-1 do job 4's I/O, so the copy onto 2-3 (job 3 computes: no I/O) waits; at
    t = 30 job 4 ends and d is moved then, not at 10."""
    jobs = [
        job(1, 0, writes=("d",), runtime=10.0),
        SimJob(JobInfo("w0!3", 0, 2, None, "p", phases(), {}), 50.0),
        SimJob(JobInfo("w0!2", 0, 2, None, "p", phases(("d",)), {"dependencies": [1, 3]}), 5.0),
        SimJob(JobInfo("w0!4", 0, 2, None, "p", phases(writes=("z",)), {"dependencies": [1]}), 20.0),
    ]
    driver = InMemoryDriver(platform_with(rates()), jobs, stage_seconds=lambda s: 1.0)
    driver.run(create_policy("workflow", {"prestage": True}))
    assert [(t, s.item, s.to) for t, s in driver.stages] == [(30.0, "d", (2, 3))]


def test_prestage_onto_busy_needs_prestage():
    with pytest.raises(UserError, match="prestage_onto_busy needs prestage: true"):
        create_policy("workflow", {"prestage_onto_busy": True})


def test_prestage_never_targets_an_nvm_without_room():
    """Same run with 0.4 GB NVMs: d's stripe (0.5 GB) fits nowhere, nothing is staged."""
    jobs = [
        job(1, 0, writes=("d",), runtime=10.0),
        SimJob(JobInfo("w0!3", 0, 2, None, "p", phases(), {}), 30.0),
        SimJob(JobInfo("w0!2", 0, 2, None, "p", phases(("d",)), {"dependencies": [1, 3]}), 5.0),
    ]
    driver = InMemoryDriver(platform_with(rates(capacity=4e8)), jobs)
    driver.run(create_policy("workflow", {"prestage": True}))
    assert driver.stages == []


@st.composite
def workflows(draw):
    """Up to 8 two-node steps on 4..6 hosts; step i may read the items of earlier steps (and
    an initial item) and depend on their producers; random runtimes and NVM capacities."""
    n = draw(st.integers(1, 8))
    jobs = []
    for i in range(n):
        reads = (
            tuple(sorted(draw(st.sets(st.sampled_from([f"d{j}" for j in range(i)] or ["d0"]), max_size=2))))
            if i
            else ()
        )
        deps = sorted({int(r[1:]) for r in reads})
        extra: dict[str, object] = {"dependencies": deps} if deps else {}
        initial = draw(st.booleans())
        if initial:
            extra["datasched_workflow"] = {"reads": [{"data": "init", "bytes": 1e9, "producer": None}]}
            reads = (*reads, "init")
        info = JobInfo(f"w0!{i}", draw(st.sampled_from([0.0, 5.0])), 2, None, "p", phases(reads, (f"d{i}",)), extra)
        jobs.append(SimJob(info, draw(st.sampled_from([1.0, 4.0, 10.0]))))
    hosts = draw(st.integers(4, 6))
    capacity = draw(st.sampled_from([None, 2e8, 6e8, 1.5e9, 4e9]))
    return jobs, hosts, capacity, draw(st.sampled_from([0.0, 0.5, 3.0]))


class Audited:
    """Wraps the policy: after every round in which it staged onto a host, that host's
    booked bytes plus copies under way fit its capacity (the policy's own book)."""

    def __init__(self, policy, capacity):
        self.policy, self.capacity, self.violations = policy, capacity, []
        self.react_inner = policy.react
        policy.react = self.react

    def react(self, now, events):
        decisions = self.react_inner(now, events)
        staged = {h for d in decisions if isinstance(d, StageData) and not d.to_central for h in d.to}
        if staged and self.capacity is not None:
            load = self.policy.book.used()
            for s in self.policy.stages.values():
                if not s.to_central:
                    for h in s.to:
                        load[h] = load.get(h, 0.0) + self.policy.book.size.get(s.item, 0.0) / len(s.to)
            for h in staged:  # the room was checked with this very book: it must still hold
                if load.get(h, 0.0) > self.capacity * (1 + 1e-9):
                    self.violations.append((now, h, load[h]))
        return decisions


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workflows(), st.sampled_from(["prestage", "hold", "all"]))
def test_movers_and_holds_stay_valid_and_within_nvm_room(case, variant):
    """Every decision passes the validating wrapper (hosts, stage targets and ids), every
    step ends or is rejected (no hold deadlocks the queue), and no stage overfills an NVM
    by the policy's own book."""
    jobs, hosts, capacity, stage_time = case
    options = {"prestage": True, "post_move": True, "hold": True} if variant == "all" else {variant: True}
    policy = create_policy("workflow", options)
    audit = Audited(policy, capacity)
    driver = InMemoryDriver(platform_with(rates(capacity=capacity, hosts=hosts), hosts), jobs,
                            stage_seconds=lambda s: stage_time)  # fmt: skip
    result = driver.run(policy)
    assert all(o.state in ("completed", "rejected") for o in result.outcomes.values()), result.outcomes
    assert audit.violations == []
    assert math.isfinite(result.makespan)


def test_a_step_is_held_once_even_when_its_predecessor_overruns_its_estimate():
    """Job 0 (hosts 0-1, 1 s) writes a 1 kB item e that job 2 reads; job 2 also waits for
    job 1 (hosts 2-3), whose profile estimates 1 s but which runs 100 s. From t = 1 T_wait is
    0 and T_move = 500 B / 1 GB/s = 0.5 µs: the rule says hold, for 0.5 µs. Held once, job 2
    starts when job 1 ends (t = 100) after a handful of rounds; re-held at every wake-up it
    would take 2e8 rounds of 0.5 µs (the livelock once seen on WfCommons' Blast)."""

    def profile(reads: tuple[str, ...] = (), writes: tuple[str, ...] = (), nominal: float | None = None) -> dict:
        phase = {"kind": "write", "bytes": 1e3 * len(writes), "items": [{"name": n, "bytes": 1e3} for n in writes]}
        read = {"kind": "read", "bytes": 1e3 * len(reads), "items": [{"name": n, "bytes": 1e3} for n in reads]}
        phases: list[dict] = [read, phase]
        if nominal is not None:
            for p in phases:
                p["nominal_seconds"] = nominal / 2
        return {"type": "datasched_phases", "res": 2, "io_tasks": 2, "phases": phases}

    jobs = [
        SimJob(JobInfo("w0!0", 0, 2, None, "p", profile(writes=("e",)), {}), 1.0),
        SimJob(JobInfo("w0!1", 0, 2, None, "p", profile(nominal=1.0), {}), 100.0),
        SimJob(JobInfo("w0!2", 0, 2, None, "p", profile(reads=("e",)), {"dependencies": [0, 1]}), 5.0),
    ]
    policy = create_policy("workflow", {"hold": True})
    rounds = []
    inner = policy.react

    def counted(now, events):
        rounds.append(now)
        if len(rounds) > 1000:
            raise AssertionError(f"livelock: {len(rounds)} rounds, last at t = {now}")
        return inner(now, events)

    policy.react = counted
    result = InMemoryDriver(platform_with(rates()), jobs).run(policy)
    assert result.outcomes["w0!2"].start == 100.0
    assert len(rounds) < 20


# ---- the engine's evictions (DATASCHED_ITEM_EVICTED) in the policy's book ----------------

from datasched.policy import ItemEvicted, JobCompleted, JobSubmitted  # noqa: E402


def started(decisions) -> dict[str, tuple[int, ...]]:
    return {d.job_id: d.hosts for d in decisions if isinstance(d, ExecuteJob)}


def evicted_then_reader(evict_first: bool, *, evict: bool = True, **options) -> dict[str, tuple[int, ...]]:
    """6 hosts, every job 2 hosts. t = 0: job 1 (compute) on 0-1, job 2 (writes d) on 2-3,
    job 3 (compute) on 4-5. t = 10: job 2 ends (d booked on 2-3); job 4 (writes e, after 2)
    takes 2-3, the only free hosts, and the engine evicts d there for e's room (reported in
    the same message as job 2's completion when ``evict_first``, which is not the order it
    happened in, else in its own message). t = 13, 15, 20: jobs 4, 3, 1 end; job 5 (reads
    d, after 1 and 2) then starts with all 6 hosts free: on d's holders 2-3 if the book
    still has them, else at the lowest ids 0-1. Returns every start."""
    policy = create_policy("workflow", options)
    policy.begin(PlatformView.uniform(6), 0.0)
    jobs = [
        JobInfo("w0!1", 0, 2, None, "p", phases(), {}),
        JobInfo("w0!2", 0, 2, None, "p", phases(writes=("d",)), {}),
        JobInfo("w0!3", 0, 2, None, "p", phases(), {}),
        JobInfo("w0!4", 0, 2, None, "p", phases(writes=("e",)), {"dependencies": [2]}),
        JobInfo("w0!5", 0, 2, None, "p", phases(reads=("d",)), {"dependencies": [1, 2]}),
    ]
    starts = started(policy.react(0.0, [JobSubmitted(0.0, j) for j in jobs]))
    eviction = [ItemEvicted(10.0, "d", (2, 3), 1e9, True)] if evict else []
    if evict_first:
        starts |= started(policy.react(10.0, [*eviction, JobCompleted(10.0, "w0!2")]))
    else:
        starts |= started(policy.react(10.0, [JobCompleted(10.0, "w0!2")]))
        if eviction:
            starts |= started(policy.react(10.0, eviction))
    for now, job_id in ((13.0, "w0!4"), (15.0, "w0!3"), (20.0, "w0!1")):
        starts |= started(policy.react(now, [JobCompleted(now, job_id)]))
    assert policy.wants_item_evictions  # the runner asks the engine for the events
    assert ("d" in policy.item_hosts) is not evict and (not evict or "d" in policy.book.central)
    return starts


@pytest.mark.parametrize("evict_first", [False, True])
def test_evicted_item_no_longer_draws_its_reader_to_the_nodes_that_lost_it(evict_first):
    """See evicted_then_reader: without the event job 5 goes to 2-3 (the book's holders of
    d, which read it from central storage anyway); with it, at the lowest free ids 0-1,
    whichever order the completion and the eviction have inside their message."""
    assert evicted_then_reader(False, evict=False)["w0!5"] == (2, 3)
    starts = evicted_then_reader(evict_first)
    assert starts["w0!2"] == (2, 3) and starts["w0!4"] == (2, 3)
    assert starts["w0!5"] == (0, 1)


@pytest.mark.parametrize("evict", [False, True])
def test_evicted_item_is_staged_in_although_the_book_had_it_on_the_readers(evict):
    """4 hosts, prestage (onto busy nodes). t = 0: job 1 (writes d) on 0-1, job 2 (compute)
    on 2-3. t = 10: job 1 ends, d is booked on 0-1; job 4 (writes e, after 1) takes 0-1,
    and job 5 (reads d, after 1 and 4) is a next step whose likely hosts are its running
    predecessor's, 0-1: the book says they hold d, so nothing is staged. The engine then
    evicts d from 0-1 for e's room (own message, t = 10): with the event the book knows 0-1
    lost d, and the policy stages d in from central storage onto them; without it, never."""
    policy = create_policy("workflow", {"prestage": True, "prestage_onto_busy": True})
    policy.begin(platform_with(rates()), 0.0)
    jobs = [
        JobInfo("w0!1", 0, 2, None, "p", phases(writes=("d",)), {}),
        JobInfo("w0!2", 0, 2, None, "p", phases(), {}),
        JobInfo("w0!4", 0, 2, None, "p", phases(writes=("e",)), {"dependencies": [1]}),
        JobInfo("w0!5", 0, 2, None, "p", phases(reads=("d",)), {"dependencies": [1, 4]}),
    ]
    assert started(policy.react(0.0, [JobSubmitted(0.0, j) for j in jobs])) == {"w0!1": (0, 1), "w0!2": (2, 3)}
    decisions = policy.react(10.0, [JobCompleted(10.0, "w0!1")])
    assert started(decisions) == {"w0!4": (0, 1)} and not [d for d in decisions if isinstance(d, StageData)]
    later = policy.react(10.0, [ItemEvicted(10.0, "d", (0, 1), 1e9, True)] if evict else [])
    stages = [(d.item, d.to) for d in later if isinstance(d, StageData)]
    assert stages == ([("d", (0, 1))] if evict else [])
