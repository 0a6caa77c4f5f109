"""Protocol messages are 1-byte SimGrid communications that share links with parallel
tasks, as Batsim's are (TIMING.md, "Control messages under contention").

Platform tests/data/contended_messages.xml: job A is a parallel task sending W bytes
h0 -> h1 over "bb" (bandwidth B, latency L); job D is a delay job of d seconds on h2,
whose actor reports its end to the server on the master through "bb" too; job E
(submitted at 1 s, when no host is free) starts once D's completion has been received.
Every other control message costs ~1e-15 s.

Under SimGrid's ptask_L07 model a transfer shares nothing during its latency; then its
solver ("fairbottleneck", the default that Batsim and the engine both keep) gives each
of the n actions crossing a saturated link B/n bytes per second. D's 1-byte
JOB_COMPLETED, sent at d, crosses "bb" from d + L with A's transfer: 1 byte at B/2, so
  D's completion is received, and E starts, at   t3 = d + L + 2 / B
instead of d + L + 1 / B on an idle link, and A (which lends half of "bb" during those
2 / B seconds, and again to E's own completion message from h2 at t3 + 1 + L) ends at
  t2 = L + (W + 2) / B.
A message that did not cross the link (sent from the master instead of the job's host)
or did not share it would give E a start of about d and A an end of L + W / B.
"""

import pytest

from tests.conftest import TEST_DATA, read_jobs_csv, write_workload

pytestmark = pytest.mark.engine

W, B, L, d = 1e7, 1e6, 1e-3, 2.0  # bytes, bytes/s, s, s


def test_completion_message_waits_for_the_parallel_task_on_its_link(tmp_path):
    from datasched.runner import run_simulation

    jobs = [
        {"id": 0, "subtime": 0, "res": 2, "profile": "transfer", "walltime": 100},
        {"id": 1, "subtime": 0, "res": 1, "profile": "delay", "walltime": 100},
        {"id": 2, "subtime": 1, "res": 1, "profile": "short", "walltime": 100},
    ]
    profiles = {
        "transfer": {"type": "parallel", "cpu": [0, 0], "com": [0, W, 0, 0]},
        "delay": {"type": "delay", "delay": d},
        "short": {"type": "delay", "delay": 1},
    }
    workload = write_workload(tmp_path, jobs, profiles)
    result = run_simulation(
        TEST_DATA / "contended_messages.xml", workload, "easyBackfill", tmp_path / "out", decision_timeout=30
    )
    rows = read_jobs_csv(result.jobs_csv)
    assert rows["0"]["allocated_resources"] == "0-1"
    assert rows["1"]["allocated_resources"] == "2"

    t3 = d + L + 2 / B
    t2 = L + (W + 2) / B
    assert rows["2"]["allocated_resources"] == "2"  # D's host, freed first: E reports through "bb" too
    # out_jobs.csv has 6 decimals: 1e-7 tells 2 / B (2 us) from 1 / B apart.
    assert float(rows["1"]["finish_time"]) == pytest.approx(d, abs=1e-7)
    assert float(rows["2"]["starting_time"]) == pytest.approx(t3, abs=1e-7)
    assert float(rows["0"]["finish_time"]) == pytest.approx(t2, abs=1e-7)
