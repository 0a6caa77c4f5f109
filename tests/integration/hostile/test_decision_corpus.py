"""Hostile replies of a decision process: the engine stops with one line saying what
was wrong with the reply (blaming the decision process, not itself), exits non-zero and
writes no output."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from datasched.engine import find_engine
from datasched.runner import free_port
from tests.conftest import TEST_DATA, write_workload

pytestmark = pytest.mark.engine

EXEC = '{"now": 0, "events": [{"timestamp": 0, "type": "EXECUTE_JOB", "data": {"job_id": "w0!1", "alloc": "%s"}}]}'
DELAY = {"d": {"type": "delay", "delay": 1}}


def reply(*events: tuple[str, dict]) -> str:
    """A reply at now = 0 with these (type, data) events."""
    return json.dumps({"now": 0, "events": [{"timestamp": 0, "type": t, "data": d} for t, d in events]})


# (case id, first reply text, fragments of the engine's error line)
CASES = [
    ("not-json", "hello", ["the decision process sent malformed JSON"]),
    ("empty", "", ["malformed JSON"]),
    ("now-overflow", '{"now": 1e400, "events": []}', ["malformed JSON", "number overflow"]),
    ("now-huge", '{"now": 1e308, "events": []}', ["now = ", "beyond the largest date Batsim can write (1e23 s)"]),
    ("now-missing", '{"events": []}', ["no numeric 'now' field"]),
    ("now-string", '{"now": "0", "events": []}', ["no numeric 'now' field"]),
    ("events-missing", '{"now": 0}', ["no 'events' array"]),
    ("timestamp-overflow", EXEC.replace('"timestamp": 0', '"timestamp": 1e400') % "0", ["number overflow"]),
    ("timestamp-after-now", EXEC.replace('"timestamp": 0', '"timestamp": 5') % "0", ["is after the message's now"]),
    ("deep-nesting", '{"now": 0, "events": ' + "[" * 50_000 + "]" * 50_000 + "}", ["nested deeper than 1000 levels"]),
    (
        "call-me-later-huge",
        reply(("CALL_ME_LATER", {"timestamp": 1e300})),
        ["CALL_ME_LATER", "beyond the largest date Batsim can write"],
    ),
    ("unknown-event", reply(("TELEPORT", {})), ["unknown event type 'TELEPORT'"]),
    ("unknown-job", reply(("EXECUTE_JOB", {"job_id": "w0!9", "alloc": "0"})), ["w0!9", "does not exist"]),
    ("alloc-text", EXEC % "zero", ["job 'w0!1'", "invalid interval set 'zero'"]),
    ("alloc-negative", EXEC % "-1", ["job 'w0!1'", "invalid interval set '-1'"]),
    ("execute-before-submission", EXEC % "0", ["job 'w0!1' cannot start: it is NOT_SUBMITTED"]),
    (
        "reject-twice",
        reply(("REJECT_JOB", {"job_id": "w0!1"}), ("REJECT_JOB", {"job_id": "w0!1"})),
        ["REJECT_JOB", "w0!1", "cannot be rejected: it is NOT_SUBMITTED"],
    ),
]


def run_against_reply(tmp_path, reply: str, decision_timeout: int) -> subprocess.CompletedProcess:
    """The engine, one delay job, and a peer that answers ``reply`` verbatim to every message."""
    workload = write_workload(tmp_path, [{"id": 1, "subtime": 0, "res": 1, "profile": "d"}], DELAY)
    (tmp_path / "reply.txt").write_text(reply)
    endpoint = f"tcp://127.0.0.1:{free_port()}"
    peer = subprocess.Popen([sys.executable, str(TEST_DATA / "rawTextSched.py"), endpoint, str(tmp_path / "reply.txt")])
    try:
        return subprocess.run(
            [
                str(find_engine()),
                "-p",
                str(TEST_DATA / "closed_form.xml"),
                "-w",
                str(workload),
                "-e",
                str(tmp_path / "out"),
                "-s",
                endpoint,
                "--decision-timeout",
                str(decision_timeout),
            ],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=60,
        )
    finally:
        peer.kill()
        peer.wait()


@pytest.mark.parametrize("text,fragments", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_reply(tmp_path, text, fragments):
    r = run_against_reply(tmp_path, text, 10)
    assert r.returncode != 0, r.stderr
    assert "terminate called" not in r.stderr and "Backtrace" not in r.stderr, r.stderr
    errors = [line for line in r.stderr.splitlines() if line.startswith("datasched-sim: error:")]
    assert len(errors) == 1, r.stderr
    for fragment in fragments:
        assert fragment in errors[0], (fragment, errors[0])
    assert "did not answer" not in errors[0]  # blamed for what it sent, not for a timeout
    assert sorted(p.name for p in tmp_path.glob("out_*")) == []


def test_the_corpus_peer_runs_a_good_reply_to_the_end(tmp_path):
    """Control: the same peer with a valid first reply lets the run finish."""
    r = run_against_reply(tmp_path, json.dumps({"now": 0, "events": []}), 3)
    # Nobody ever starts job 1: the engine reports the deadlock, naming the job.
    assert r.returncode != 0 and "w0!1" in r.stderr and "deadlock" in r.stderr, r.stderr
