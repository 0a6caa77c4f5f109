"""The decision process speaks Batsim 4's protocol: a fake simulator drives it over ZeroMQ.

The test plays the simulator's side (a REQ socket connecting to the process's
REP socket, exactly as Batsim and our engine do) without needing the engine.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import zmq

BEGIN_DATA = {
    "nb_resources": 3,
    "nb_compute_resources": 2,
    "nb_storage_resources": 1,
    "compute_resources": [
        {"id": 0, "name": "n0", "state": "idle", "properties": {}},
        {"id": 1, "name": "n1", "state": "idle", "properties": {}},
    ],
    "storage_resources": [{"id": 2, "name": "pfs", "state": "idle", "properties": {"role": "storage"}}],
    "config": {
        "profiles-forwarded-on-submission": False,
        "dynamic-jobs-enabled": False,
        "dynamic-jobs-acknowledged": False,
        "forward-unknown-events": False,
    },
    "allow_compute_sharing": False,
    "allow_storage_sharing": True,
    "profiles": {"w0": {"p": {"type": "delay", "delay": 10}}},
    "workloads": {"w0": "w.json"},
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _submitted(job_id, res, subtime, walltime):
    return {
        "timestamp": subtime,
        "type": "JOB_SUBMITTED",
        "data": {
            "job_id": job_id,
            "job": {"id": job_id, "subtime": subtime, "walltime": walltime, "res": res, "profile": "p"},
        },
    }


def _exchange(sock, now, events):
    sock.send_string(json.dumps({"now": now, "events": events}))
    assert sock.poll(20_000), "decision process did not answer"
    return json.loads(sock.recv_string())


def test_easy_over_the_wire(tmp_path):
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "datasched.policy.serve",
            "--policy",
            "easy",
            "--options",
            '{"allocation": "sequential"}',
            "--socket",
            f"tcp://*:{port}",
            "--timeout",
            "20000",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    context = zmq.Context()
    sock = context.socket(zmq.REQ)
    sock.connect(f"tcp://localhost:{port}")
    try:
        reply = _exchange(sock, 0.0, [{"timestamp": 0.0, "type": "SIMULATION_BEGINS", "data": BEGIN_DATA}])
        assert reply["events"] == []
        reply = _exchange(
            sock,
            0.0,
            [
                _submitted("w0!1", 1, 0.0, 100.0),
                _submitted("w0!2", 2, 0.0, 10.0),
                _submitted("w0!3", 1, 0.0, 50.0),
                _submitted("w0!4", 5, 0.0, 10.0),
            ],
        )
        kinds = [(e["type"], e["data"].get("job_id"), e["data"].get("alloc")) for e in reply["events"]]
        # job 1 starts on host 0; job 2 (2 hosts) must wait until 100; job 3 ends at 50 <= 100: backfilled
        assert ("EXECUTE_JOB", "w0!1", "0") in kinds and ("EXECUTE_JOB", "w0!3", "1") in kinds
        assert ("REJECT_JOB", "w0!4", None) in kinds  # wider than the machine
        assert not any(k[1] == "w0!2" and k[0] == "EXECUTE_JOB" for k in kinds)

        def done(j, t):
            return {
                "timestamp": t,
                "type": "JOB_COMPLETED",
                "data": {"job_id": j, "job_state": "COMPLETED_SUCCESSFULLY", "return_code": 0, "alloc": "0"},
            }

        assert _exchange(sock, 50.0, [done("w0!3", 50.0)])["events"] == []
        reply = _exchange(sock, 100.0, [done("w0!1", 100.0)])
        assert [(e["type"], e["data"]["job_id"], e["data"]["alloc"]) for e in reply["events"]] == [
            ("EXECUTE_JOB", "w0!2", "0-1")
        ]
        reply = _exchange(
            sock, 110.0, [done("w0!2", 110.0), {"timestamp": 110.0, "type": "SIMULATION_ENDS", "data": {}}]
        )
        assert reply["events"] == []
        assert proc.wait(timeout=20) == 0
    finally:
        sock.close(linger=0)
        context.term()
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def test_bad_options_exit_2_naming_the_option(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "datasched.policy.serve",
            "--policy",
            "easy",
            "--options",
            '{"allocation": {"name": "random", "seed": "x"}}',
            "--socket",
            f"tcp://*:{_free_port()}",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "option 'seed'" in proc.stderr
