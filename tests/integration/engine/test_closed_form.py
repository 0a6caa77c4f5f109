"""The engine against hand-computed dates on tests/data/closed_form.xml.

Control messages there cost ~1e-15 s, so a job starts at its submission date and its
duration is the model's closed form: under SimGrid's ptask_L07 model a parallel task
lasts (route latency) + max over its resources of (amount / capacity).
"""

import pytest

pytestmark = pytest.mark.engine

TOL = 1e-6


def f(row, column):
    return float(row[column])


def test_delay_job_lasts_its_delay(scripted):
    rows = scripted([{"id": 0, "subtime": 5, "res": 1, "profile": "d"}], {"d": {"type": "delay", "delay": 12.5}})
    r = rows["0"]
    assert r["final_state"] == "COMPLETED_SUCCESSFULLY"
    assert f(r, "starting_time") == pytest.approx(5, abs=TOL)
    assert f(r, "finish_time") == pytest.approx(17.5, abs=TOL)


@pytest.mark.parametrize(
    "cpu,com,expected",
    [
        ([1e9, 3e9], [0, 1e9, 0, 0], 0.001 + 3.0),  # computation dominates
        ([1e9, 1e9], [0, 4e9, 0, 0], 0.001 + 4.0),  # the shared link dominates
        ([2e9, 0], [0, 0, 0, 0], 2.0),  # no communication: no latency either
    ],
)
def test_parallel_job_closed_form(scripted, cpu, com, expected):
    rows = scripted(
        [{"id": 0, "subtime": 0, "res": 2, "profile": "p"}],
        {"p": {"type": "parallel", "cpu": cpu, "com": com}},
        alloc={"0": "0-1"},
    )
    assert f(rows["0"], "execution_time") == pytest.approx(expected, abs=TOL)


def test_two_jobs_share_a_link_fairly(scripted):
    """Two 2 GB transfers (h0->h1 and h2->h3) cross the 1 GB/s shared link at once:
    each gets 0.5 GB/s, so both last 1 ms + 4 s instead of 1 ms + 2 s alone."""
    profiles = {"t": {"type": "parallel", "cpu": [0, 0], "com": [0, 2e9, 0, 0]}}
    jobs = [{"id": 0, "subtime": 0, "res": 2, "profile": "t"}, {"id": 1, "subtime": 0, "res": 2, "profile": "t"}]
    rows = scripted(jobs, profiles, alloc={"0": "0-1", "1": "2-3"})
    for job in ("0", "1"):
        assert f(rows[job], "execution_time") == pytest.approx(0.001 + 4.0, abs=TOL)
    alone = scripted([jobs[0]], profiles, alloc={"0": "0-1"})
    assert f(alone["0"], "execution_time") == pytest.approx(0.001 + 2.0, abs=TOL)


def test_homogeneous_total_divides_amounts(scripted):
    """parallel_homogeneous_total cpu=4e9 on 2 hosts: 2e9 flops each = 2 s."""
    rows = scripted(
        [{"id": 0, "subtime": 0, "res": 2, "profile": "p"}],
        {"p": {"type": "parallel_homogeneous_total", "cpu": 4e9, "com": 0}},
        alloc={"0": "0-1"},
    )
    assert f(rows["0"], "execution_time") == pytest.approx(2.0, abs=TOL)


@pytest.mark.parametrize(
    "profile,walltime,state,runtime",
    [
        ({"type": "delay", "delay": 10}, 4, "COMPLETED_WALLTIME_REACHED", 4),
        ({"type": "delay", "delay": 10}, 10, "COMPLETED_WALLTIME_REACHED", 10),  # equal delay: killed (Batsim's rule)
        ({"type": "delay", "delay": 10}, 11, "COMPLETED_SUCCESSFULLY", 10),
        ({"type": "parallel_homogeneous", "cpu": 8e9, "com": 0}, 3, "COMPLETED_WALLTIME_REACHED", 3),
        ({"type": "parallel_homogeneous", "cpu": 8e9, "com": 0}, -1, "COMPLETED_SUCCESSFULLY", 8),
        # Up to 1e23, the largest number Batsim 4.2.1 can write in JOB_SUBMITTED (issue 32)
        ({"type": "delay", "delay": 10}, 1e23, "COMPLETED_SUCCESSFULLY", 10),
        ({"type": "parallel_homogeneous", "cpu": 8e9, "com": 0}, 1e13, "COMPLETED_SUCCESSFULLY", 8),
    ],
)
def test_walltime(scripted, profile, walltime, state, runtime):
    rows = scripted([{"id": 0, "subtime": 1, "res": 1, "profile": "p", "walltime": walltime}], {"p": profile})
    r = rows["0"]
    assert r["final_state"] == state
    assert r["success"] == ("1" if state == "COMPLETED_SUCCESSFULLY" else "0")
    assert f(r, "execution_time") == pytest.approx(runtime, abs=TOL)
    assert f(r, "finish_time") == pytest.approx(1 + runtime, abs=TOL)
    assert r["requested_time"] == f"{walltime:.6f}"  # printf's %.6f, as Batsim writes it


def test_composed_repeat(scripted):
    """repeat 3 x (delay 2 s, then a 1e9-byte transfer over the shared link: 1 ms + 1 s)."""
    profiles = {
        "wait": {"type": "delay", "delay": 2},
        "xfer": {"type": "parallel", "cpu": [0, 0], "com": [0, 1e9, 0, 0]},
        "loop": {"type": "composed", "repeat": 3, "seq": ["wait", "xfer"]},
    }
    rows = scripted([{"id": 0, "subtime": 0, "res": 2, "profile": "loop"}], profiles, alloc={"0": "0-1"})
    assert f(rows["0"], "execution_time") == pytest.approx(3 * (2 + 0.001 + 1.0), abs=TOL)


def test_composed_walltime_counts_every_step(scripted):
    profiles = {"wait": {"type": "delay", "delay": 2}, "loop": {"type": "composed", "repeat": 5, "seq": ["wait"]}}
    rows = scripted([{"id": 0, "subtime": 0, "res": 1, "profile": "loop", "walltime": 7}], profiles)
    assert rows["0"]["final_state"] == "COMPLETED_WALLTIME_REACHED"
    assert f(rows["0"], "execution_time") == pytest.approx(7, abs=TOL)


def test_kill_job(scripted):
    rows = scripted(
        [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], {"d": {"type": "delay", "delay": 100}}, kill_at={"0": 30}
    )
    assert rows["0"]["final_state"] == "COMPLETED_KILLED"
    assert f(rows["0"], "finish_time") == pytest.approx(30, abs=TOL)


# Jobs run in pooled actors that are reused from job to job (sim/src/execution/job_pool.hpp):
# a kill or a walltime must leave the actor ready for the next job, on whichever host.


def test_killed_delay_job_frees_its_actor_for_the_next_job(scripted):
    jobs = [
        {"id": 0, "subtime": 0, "res": 1, "profile": "long"},
        {"id": 1, "subtime": 40, "res": 1, "profile": "short"},
        {"id": 2, "subtime": 41, "res": 1, "profile": "short"},
    ]
    profiles = {"long": {"type": "delay", "delay": 100}, "short": {"type": "delay", "delay": 10}}
    rows = scripted(jobs, profiles, alloc={"0": "0", "1": "2", "2": "0"}, kill_at={"0": 30})
    assert rows["0"]["final_state"] == "COMPLETED_KILLED"
    assert f(rows["0"], "finish_time") == pytest.approx(30, abs=TOL)
    for job, start in (("1", 40), ("2", 41)):
        assert rows[job]["final_state"] == "COMPLETED_SUCCESSFULLY"
        assert f(rows[job], "starting_time") == pytest.approx(start, abs=TOL)
        assert f(rows[job], "finish_time") == pytest.approx(start + 10, abs=TOL)


@pytest.mark.parametrize("profile", ["ptask", "steps"])
def test_killed_parallel_task_stops_at_the_kill_date(scripted, profile):
    """A ptask (8 s alone), or the ptask step of a composed profile, killed at t=3: the
    job ends at 3 and the next jobs on the same hosts run as if alone."""
    profiles = {
        "ptask": {"type": "parallel_homogeneous", "cpu": 8e9, "com": 0},
        "wait": {"type": "delay", "delay": 1},
        "steps": {"type": "composed", "repeat": 1, "seq": ["wait", "ptask", "wait"]},
    }
    jobs = [
        {"id": 0, "subtime": 0, "res": 1, "profile": profile},
        {"id": 1, "subtime": 5, "res": 1, "profile": "ptask"},
        {"id": 2, "subtime": 6, "res": 1, "profile": "wait"},
    ]
    rows = scripted(jobs, profiles, alloc={"0": "1", "1": "1", "2": "3"}, kill_at={"0": 3})
    assert rows["0"]["final_state"] == "COMPLETED_KILLED"
    assert f(rows["0"], "finish_time") == pytest.approx(3, abs=TOL)
    assert rows["1"]["final_state"] == "COMPLETED_SUCCESSFULLY"
    assert f(rows["1"], "finish_time") == pytest.approx(5 + 8, abs=TOL)
    assert f(rows["2"], "finish_time") == pytest.approx(6 + 1, abs=TOL)


def test_walltime_on_parallel_task_then_next_job(scripted):
    """The timed-out ptask is cancelled once its completion is delivered: the next job on
    that host gets the whole CPU (8 s alone), and its actor is the reused one."""
    profiles = {"ptask": {"type": "parallel_homogeneous", "cpu": 8e9, "com": 0}}
    jobs = [
        {"id": 0, "subtime": 1, "res": 1, "profile": "ptask", "walltime": 3},
        {"id": 1, "subtime": 5, "res": 1, "profile": "ptask"},
    ]
    rows = scripted(jobs, profiles, alloc={"0": "2", "1": "2"})
    assert rows["0"]["final_state"] == "COMPLETED_WALLTIME_REACHED"
    assert f(rows["0"], "finish_time") == pytest.approx(1 + 3, abs=TOL)
    assert rows["1"]["final_state"] == "COMPLETED_SUCCESSFULLY"
    assert f(rows["1"], "finish_time") == pytest.approx(5 + 8, abs=TOL)
