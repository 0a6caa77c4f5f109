"""KILL_JOB, CALL_ME_LATER and the end of the simulation as Batsim 4.2.1 handles them,
message for message (TIMING.md, "Walltime and kills" and "End of the simulation").

A raw decision process (tests/data/triggeredSched.py) answers scripted events and logs
every message it receives. On tests/data/protocol_timing.xml a message between actors of
the master costs c = 1 ms (+ 1e-15 s for its byte), so every date below is the `now` T
of the round that sent the decision plus whole multiples of c. The mailbox rules that
order same-date messages (TIMING.md "Control messages are simulated communications"):
the server takes one message at a time; when a transfer ends, its sender runs before
the actors the server creates while handling it. So after a reply's last decision
message, its SCHED_READY is queued before the KILLING_DONE of a killer that message
created.

Batsim 4.2.1 sources (git tag v4.2.1):
- src/server.cpp 877-915 `server_on_kill_jobs`: a job whose kill was already requested
  is dropped from the KILL_JOB; a job must be running or complete (else abort); a
  killer actor is created only if some job is left.
- src/jobs_execution.cpp 640-722 `killer_process`: a job that has not started aborts
  the run; only running jobs are killed (and get a progress); KILLING_DONE always sent.
- src/server.cpp 616-670 `server_on_killing_done`: JOB_COMPLETED for each job it
  really killed, then JOB_KILLED with the killer's ids (progress for killed ones only).
- src/server.cpp 108-136 and 1057-1067: SIMULATION_ENDS is sent only when the
  decision process is ready, the mailbox empty, no event is waiting to be sent, and no
  job, killer or CALL_ME_LATER waiter is pending: it always goes alone, one message
  after the reply to the last events.
- src/server.cpp 917-932, 530-536: each CALL_ME_LATER creates a counted waiter
  (jobs_execution.cpp 587-617 sleeps until the date, then WAITING_DONE costs c).
- src/server.cpp 140-151: leaving the loop with a waiter, killer or switching host left (a
  CALL_ME_LATER, KILL_JOB or SET_RESOURCE_STATE sent in reply to SIMULATION_ENDS) aborts the run.
"""

import json

import pytest

from tests.conftest import TEST_DATA, read_jobs_csv, run_engine_with_peer, write_workload

pytestmark = pytest.mark.engine

PLATFORM = TEST_DATA / "protocol_timing.xml"
C = 1e-3  # master -> master message: latency 1 ms (+ 1e-15 s)
TOL = 1e-9
LONG = {"long": {"type": "delay", "delay": 100}, "short": {"type": "delay", "delay": 1}}


def execute(job, alloc):
    return {"type": "EXECUTE_JOB", "data": {"job_id": job, "alloc": alloc}}


def kill(*jobs):
    return {"type": "KILL_JOB", "data": {"job_ids": list(jobs)}}


def call_me_later(date):
    return {"type": "CALL_ME_LATER", "data": {"timestamp": date}}


def on(event_type, send, **data):
    return {"on": {"type": event_type, **data}, "send": send}


def run_triggered(tmp_path, jobs, profiles, rules, platform=PLATFORM, engine_args=()):
    """Runs the engine against triggeredSched.py; returns (process, messages, jobs rows)."""
    workload = write_workload(tmp_path, jobs, profiles)
    script, log = tmp_path / "script.json", tmp_path / "log.json"
    script.write_text(json.dumps(rules))
    process = run_engine_with_peer(
        "triggeredSched.py", [str(script), str(log)], platform, workload, tmp_path / "out", engine_args
    )
    messages = json.loads(log.read_text()) if log.exists() else []
    jobs_csv = tmp_path / "out_jobs.csv"
    rows = read_jobs_csv(jobs_csv) if process.returncode == 0 else {}
    return process, messages, rows


def round_with(messages, event_type, **data):
    """The first message holding an event of `event_type` whose data has `data`."""
    for m in messages:
        for e in m["events"]:
            if e["type"] == event_type and all(e["data"].get(k) == v for k, v in data.items()):
                return m
    raise AssertionError(f"no {event_type} {data} in {messages}")


def after(messages, message):
    return messages[messages.index(message) + 1 :]


def summary(message):
    return [(e["type"], e["timestamp"]) for e in message["events"]]


def assert_simulation_ends_alone(message, now):
    assert message["events"] == [{"timestamp": message["now"], "type": "SIMULATION_ENDS", "data": {}}]
    assert message["now"] == pytest.approx(now, abs=TOL)


def two_running_jobs_then_at_10(send):
    """Jobs 0 (h0) and 1 (h1) run a 100 s delay; the round of the REQUESTED_CALL at 10 s sends `send`."""
    jobs = [{"id": i, "subtime": 0, "res": 1, "profile": "long"} for i in range(2)]
    rules = [
        on("JOB_SUBMITTED", [execute("w0!0", "0")], job_id="w0!0"),
        on("JOB_SUBMITTED", [execute("w0!1", "1"), call_me_later(10)], job_id="w0!1"),
        on("REQUESTED_CALL", send),
    ]
    return jobs, rules


def test_second_kill_of_a_job_in_the_same_reply_is_dropped(tmp_path):
    """T = now of the REQUESTED_CALL round (10 + c). KILL_JOB #1 is received at T + c:
    job 0 is killed then (finish_time T + c); KILL_JOB #2 at T + 2c is dropped (no
    killer); the killer's KILLING_DONE, queued at T + c, arrives at T + 3c; the reply's
    SCHED_READY at T + 4c starts the round (now T + 4c) with JOB_COMPLETED and ONE
    JOB_KILLED, both at T + 3c. A second killer would have added a JOB_KILLED at T + 5c."""
    jobs, rules = two_running_jobs_then_at_10([kill("w0!0"), kill("w0!0")])
    process, messages, rows = run_triggered(tmp_path, jobs, LONG, rules)
    assert process.returncode == 0, process.stderr
    t = round_with(messages, "REQUESTED_CALL")["now"]
    assert t == pytest.approx(10 + C, abs=TOL)
    assert float(rows["0"]["finish_time"]) == pytest.approx(t + C, abs=TOL)
    killed = round_with(messages, "JOB_KILLED")
    assert killed["now"] == pytest.approx(t + 4 * C, abs=TOL)
    assert [e["type"] for e in killed["events"]] == ["JOB_COMPLETED", "JOB_KILLED"]
    assert all(e["timestamp"] == pytest.approx(t + 3 * C, abs=TOL) for e in killed["events"])
    assert killed["events"][1]["data"]["job_ids"] == ["w0!0"]
    elapsed = float(rows["0"]["finish_time"]) - float(rows["0"]["starting_time"])
    assert killed["events"][1]["data"]["job_progress"]["w0!0"]["progress"] == pytest.approx(elapsed / 100)


def test_kill_of_a_job_already_killed_sends_nothing(tmp_path):
    """T = now of the JOB_KILLED round; the decision process kills job 0 again. Batsim
    drops it (no killer, no KILLING_DONE, no JOB_KILLED): the reply's SCHED_READY
    arrives at T + 2c (KILL_JOB at T + c, then it) and SIMULATION_ENDS goes alone then."""
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "long"}]
    rules = [
        on("JOB_SUBMITTED", [execute("w0!0", "0"), call_me_later(10)], job_id="w0!0"),
        on("REQUESTED_CALL", [kill("w0!0")]),
        on("JOB_KILLED", [kill("w0!0")]),
    ]
    process, messages, _ = run_triggered(tmp_path, jobs, LONG, rules)
    assert process.returncode == 0, process.stderr
    killed = round_with(messages, "JOB_KILLED")
    assert [e["type"] for e in killed["events"]] == ["JOB_COMPLETED", "JOB_KILLED"]
    rest = after(messages, killed)
    assert len(rest) == 1
    assert_simulation_ends_alone(rest[0], killed["now"] + 2 * C)


def test_kill_lists_only_the_jobs_not_already_being_killed(tmp_path):
    """One reply at T kills [w0!0], then [w0!1, w0!0]. KILL #1 (T + c) starts killer A
    for job 0; KILL #2 (T + 2c) starts killer B for job 1 only (job 0's kill is already
    requested), which kills it at T + 2c. Queue: A's KILLING_DONE (T + 3c), SCHED_READY
    (T + 4c, mailbox not empty: no round), B's KILLING_DONE (T + 5c): one round at T + 5c
    with job 0's JOB_COMPLETED and JOB_KILLED [w0!0] at T + 3c, then job 1's at T + 5c;
    SIMULATION_ENDS alone at T + 6c."""
    jobs, rules = two_running_jobs_then_at_10([kill("w0!0"), kill("w0!1", "w0!0")])
    process, messages, rows = run_triggered(tmp_path, jobs, LONG, rules)
    assert process.returncode == 0, process.stderr
    t = round_with(messages, "REQUESTED_CALL")["now"]
    assert float(rows["0"]["finish_time"]) == pytest.approx(t + C, abs=TOL)
    assert float(rows["1"]["finish_time"]) == pytest.approx(t + 2 * C, abs=TOL)
    killed = round_with(messages, "JOB_KILLED")
    assert killed["now"] == pytest.approx(t + 5 * C, abs=TOL)
    assert summary(killed) == [
        ("JOB_COMPLETED", pytest.approx(t + 3 * C, abs=TOL)),
        ("JOB_KILLED", pytest.approx(t + 3 * C, abs=TOL)),
        ("JOB_COMPLETED", pytest.approx(t + 5 * C, abs=TOL)),
        ("JOB_KILLED", pytest.approx(t + 5 * C, abs=TOL)),
    ]
    assert [e["data"]["job_ids"] for e in killed["events"][1::2]] == [["w0!0"], ["w0!1"]]
    assert list(killed["events"][3]["data"]["job_progress"]) == ["w0!1"]
    rest = after(messages, killed)
    assert len(rest) == 1
    assert_simulation_ends_alone(rest[0], t + 6 * C)


def test_kill_of_a_completed_job_is_acknowledged_without_progress(tmp_path):
    """T = now of job 0's JOB_COMPLETED round; the decision process kills it. Batsim
    starts a killer that kills nothing: KILL_JOB at T + c, SCHED_READY at T + 2c (the
    killer is still pending: no SIMULATION_ENDS), KILLING_DONE at T + 3c gives a round
    with JOB_KILLED [w0!0], empty job_progress and no JOB_COMPLETED; SIMULATION_ENDS
    alone at T + 4c."""
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "short"}]
    rules = [
        on("JOB_SUBMITTED", [execute("w0!0", "0")], job_id="w0!0"),
        on("JOB_COMPLETED", [kill("w0!0")], job_id="w0!0"),
    ]
    process, messages, rows = run_triggered(tmp_path, jobs, LONG, rules)
    assert process.returncode == 0, process.stderr
    assert rows["0"]["final_state"] == "COMPLETED_SUCCESSFULLY"
    t = round_with(messages, "JOB_COMPLETED")["now"]
    rest = after(messages, round_with(messages, "JOB_COMPLETED"))
    assert len(rest) == 2
    assert rest[0]["now"] == pytest.approx(t + 3 * C, abs=TOL)
    assert rest[0]["events"] == [
        {"timestamp": rest[0]["now"], "type": "JOB_KILLED", "data": {"job_ids": ["w0!0"], "job_progress": {}}}
    ]
    assert_simulation_ends_alone(rest[1], t + 4 * C)


@pytest.mark.parametrize(
    "send,message",
    [
        ([kill("w0!0")], "KILL_JOB: job 'w0!0' cannot be killed: it is SUBMITTED"),
        ([{"type": "REJECT_JOB", "data": {"job_id": "w0!0"}}, kill("w0!0")], "it is REJECTED"),
        (
            [{"type": "CHANGE_JOB_STATE", "data": {"job_id": "w0!0", "job_state": "RUNNING"}}, kill("w0!0")],
            "has no execution to kill",
        ),
    ],
)
def test_kill_of_a_job_that_never_started_stops_the_run(tmp_path, send, message):
    """Batsim aborts: server.cpp 896-898 (a submitted job is neither running nor
    complete) and jobs_execution.cpp 653-656 (a rejected job "has not been started");
    a job set RUNNING by CHANGE_JOB_STATE has no task for cancel_ptask (jobs_execution.cpp
    620-637, a null pointer in Batsim): we stop with one line instead of crashing."""
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "short"}]
    process, _, _ = run_triggered(tmp_path, jobs, LONG, [on("JOB_SUBMITTED", send, job_id="w0!0")])
    assert process.returncode != 0
    assert message in process.stderr
    assert "Traceback" not in process.stderr and "Oops" not in process.stderr


def test_simulation_ends_alone_after_the_reply_to_the_last_completion(tmp_path):
    """T = now of the round with the last JOB_COMPLETED: the reply's SCHED_READY
    arrives at T + c, nothing else is left to send, so SIMULATION_ENDS goes alone with
    now = T + c (not in the same message as the last JOB_COMPLETED)."""
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "short"}]
    process, messages, _ = run_triggered(
        tmp_path, jobs, LONG, [on("JOB_SUBMITTED", [execute("w0!0", "0")], job_id="w0!0")]
    )
    assert process.returncode == 0, process.stderr
    completed = round_with(messages, "JOB_COMPLETED")
    assert [e["type"] for e in completed["events"]] == ["JOB_COMPLETED"]
    assert after(messages, completed) == [messages[-1]]
    assert_simulation_ends_alone(messages[-1], completed["now"] + C)


def test_pending_call_me_later_delays_the_end(tmp_path):
    """Job 0 (1 s) ends long before the CALL_ME_LATER date D = 50: Batsim keeps its
    waiter counted, so the simulation goes on: the waiter sleeps until D, its
    WAITING_DONE costs c (REQUESTED_CALL round, now D + c), and SIMULATION_ENDS goes
    alone one SCHED_READY later, at D + 2c."""
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "short"}]
    rules = [on("JOB_SUBMITTED", [execute("w0!0", "0"), call_me_later(50)], job_id="w0!0")]
    process, messages, rows = run_triggered(tmp_path, jobs, LONG, rules)
    assert process.returncode == 0, process.stderr
    assert float(rows["0"]["finish_time"]) < 2
    completed = round_with(messages, "JOB_COMPLETED")
    assert [e["type"] for e in completed["events"]] == ["JOB_COMPLETED"]
    called, end = after(messages, completed)
    assert summary(called) == [("REQUESTED_CALL", pytest.approx(50 + C, abs=TOL))]
    assert called["now"] == pytest.approx(50 + C, abs=TOL)
    assert_simulation_ends_alone(end, 50 + 2 * C)


def test_two_call_me_later_at_the_same_date_give_two_calls(tmp_path):
    """Two CALL_ME_LATER for D = 10 in one reply: two waiters, two WAITING_DONE queued
    at D, received at D + c and D + 2c; the round starts once the mailbox is empty
    (D + 2c) with two REQUESTED_CALL events."""
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "long"}]
    rules = [
        on("JOB_SUBMITTED", [execute("w0!0", "0"), call_me_later(10), call_me_later(10)], job_id="w0!0"),
        on("REQUESTED_CALL", [kill("w0!0")]),
    ]
    process, messages, _ = run_triggered(tmp_path, jobs, LONG, rules)
    assert process.returncode == 0, process.stderr
    called = round_with(messages, "REQUESTED_CALL")
    assert called["now"] == pytest.approx(10 + 2 * C, abs=TOL)
    assert summary(called) == [
        ("REQUESTED_CALL", pytest.approx(10 + C, abs=TOL)),
        ("REQUESTED_CALL", pytest.approx(10 + 2 * C, abs=TOL)),
    ]


SWITCH_OFF = {"type": "SET_RESOURCE_STATE", "data": {"resources": "0", "state": "2"}}  # energy.xml: sleep


@pytest.mark.parametrize(
    "send,platform,engine_args,event",
    [
        ([call_me_later(500)], PLATFORM, [], "CALL_ME_LATER"),
        ([kill("w0!0")], PLATFORM, [], "KILL_JOB"),
        ([SWITCH_OFF], TEST_DATA / "energy.xml", ["-E"], "SET_RESOURCE_STATE"),
    ],
)
def test_work_requested_in_reply_to_simulation_ends_stops_the_run(tmp_path, send, platform, engine_args, event):
    """Batsim asserts on leaving its loop that no waiter, killer or switching host is left
    (server.cpp 149-151): a CALL_ME_LATER, KILL_JOB or SET_RESOURCE_STATE answering
    SIMULATION_ENDS aborts."""
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "short"}]
    rules = [on("JOB_SUBMITTED", [execute("w0!0", "0")], job_id="w0!0"), on("SIMULATION_ENDS", send)]
    process, _, _ = run_triggered(tmp_path, jobs, LONG, rules, platform, engine_args)
    assert process.returncode != 0
    assert f"sent {event} in reply to SIMULATION_ENDS" in process.stderr
    assert "Oops" not in process.stderr
