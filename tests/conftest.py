"""Shared pytest set-up: Hypothesis profiles and helpers to run the engine."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=30, deadline=None)
settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
#: A long property run (e.g. the experiment readers' hostile changes, docs/testing.md):
#: HYPOTHESIS_PROFILE=long pytest tests/integration/hostile/test_experiment_properties.py
settings.register_profile("long", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REPO = Path(__file__).resolve().parents[1]
TEST_DATA = REPO / "tests" / "data"
#: Real traces and Batsim reference runs, copied into the repository (see each folder's README).
TRACES = TEST_DATA / "traces"
CONFORMANCE = TEST_DATA / "conformance"
HPC2N = TRACES / "hpc2n.swf"
LUBLIN = TRACES / "lublin_256.swf"


@pytest.fixture(scope="session")
def _engine_stub(tmp_path_factory) -> Path:
    stub = tmp_path_factory.mktemp("no-engine") / "datasched-sim"
    stub.write_text("#!/bin/sh\necho 'this test runs the engine: mark it with @pytest.mark.engine' >&2\nexit 97\n")
    stub.chmod(0o755)
    return stub


@pytest.fixture(autouse=True)
def _engine_only_for_engine_tests(request, monkeypatch, _engine_stub):
    """A test without the ``engine`` marker gets a stand-in engine that fails, so the
    marker cannot be forgotten: ``pytest -m "not engine"`` then really needs no engine."""
    if request.node.get_closest_marker("engine") is None:
        monkeypatch.setenv("DATASCHED_SIM", str(_engine_stub))


def write_workload(directory: Path, jobs: list[dict], profiles: dict, name: str = "workload.json") -> Path:
    path = directory / name
    path.write_text(json.dumps({"nb_res": 4, "jobs": jobs, "profiles": profiles}))
    return path


def assert_valid_delay_schedule(rows: list[dict[str, str]], workload: dict, nb_hosts: int, tol: float = 1e-4) -> None:
    """What a correct run of ``delay`` jobs must show in _jobs.csv, whatever the policy:
    every job of the workload once, started no earlier than submitted, on exactly the
    number of distinct existing hosts it asked for, for min(delay, walltime) seconds
    (killed exactly when the walltime is the shorter), and no host given to two jobs at
    once. ``tol`` covers the engine's microsecond control-message latencies."""
    from procset import ProcSet

    jobs = {str(j["id"]): j for j in workload["jobs"]}
    assert sorted(r["job_id"] for r in rows) == sorted(jobs)
    busy: dict[int, list[tuple[float, float]]] = {}
    for r in rows:
        job = jobs[r["job_id"]]
        delay = workload["profiles"][job["profile"]]["delay"]
        walltime = job.get("walltime", -1)
        killed = 0 < walltime <= delay
        assert r["final_state"] == ("COMPLETED_WALLTIME_REACHED" if killed else "COMPLETED_SUCCESSFULLY"), r
        start, finish = float(r["starting_time"]), float(r["finish_time"])
        assert start >= float(job["subtime"]) - tol, r
        assert abs((finish - start) - (walltime if killed else delay)) <= tol, r
        hosts = list(ProcSet.from_str(r["allocated_resources"]))
        assert len(hosts) == job["res"] == int(r["requested_number_of_resources"]), r
        assert all(0 <= h < nb_hosts for h in hosts), r
        for h in hosts:
            busy.setdefault(h, []).append((start, finish))
    for h, spans in busy.items():
        spans.sort()
        for (_, end), (begin, _) in pairwise(spans):
            assert begin >= end - tol, f"host {h} runs two jobs at once around t={begin}"


def read_jobs_csv(path: Path) -> dict[str, dict[str, str]]:
    with open(path, newline="") as f:
        return {row["job_id"]: row for row in csv.DictReader(f)}


@pytest.fixture
def scripted(tmp_path):
    """Runs a workload on the closed-form platform with tests/data/scriptedSched.py."""
    from datasched.runner import run_simulation

    def run(jobs, profiles, platform=TEST_DATA / "closed_form.xml", **options):
        workload = write_workload(tmp_path, jobs, profiles)
        result = run_simulation(
            platform,
            workload,
            str(TEST_DATA / "scriptedSched.py"),
            tmp_path / "out",
            scheduler_options=options,
            decision_timeout=30,
        )
        return read_jobs_csv(result.jobs_csv)

    return run


def run_engine_with_peer(
    peer: str, peer_args: list[str], platform: Path, workload: Path, out: Path, engine_args=(), timeout: float = 60
) -> subprocess.CompletedProcess:
    """Runs the engine against a test decision process ``tests/data/<peer>`` (given the endpoint
    first, then ``peer_args``), with a 10 s decision timeout; the peer is always stopped."""
    from datasched.engine import find_engine
    from datasched.runner import free_port

    endpoint = f"tcp://127.0.0.1:{free_port()}"
    process = subprocess.Popen([sys.executable, str(TEST_DATA / peer), endpoint, *peer_args])
    command = [str(find_engine()), "-p", str(platform), "-w", str(workload), "-e", str(out), "-s", endpoint]
    try:
        return subprocess.run(
            [*command, "--decision-timeout", "10", *engine_args], capture_output=True, text=True, timeout=timeout
        )
    finally:
        process.kill()
        process.wait()


def run_engine_mode(
    engine: Path,
    mode_flag: str,
    platform: Path,
    doc: dict,
    directory: Path,
    name: str,
    check: bool,
    extra_args: Sequence[str] = (),
) -> tuple[Path, subprocess.CompletedProcess]:
    """Runs one engine experiment mode (--io-forwarding, --qos-staging, --interference):
    writes ``doc`` as ``directory/name.json``, outputs go to ``directory/name/out_*``;
    ``extra_args`` are more engine options. With ``check``, asserts exit status 0 (showing
    the engine's stderr otherwise)."""
    experiment = directory / f"{name}.json"
    experiment.write_text(json.dumps(doc))
    prefix = directory / name / "out"
    prefix.parent.mkdir(exist_ok=True)
    proc = subprocess.run(
        [str(engine), mode_flag, str(experiment), "-p", str(platform), "-e", str(prefix), *extra_args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if check:
        assert proc.returncode == 0, proc.stderr
    return prefix, proc


def pytest_terminal_summary(terminalreporter) -> None:
    """When the docs test ran, one line with its inventory: how many command blocks the docs
    hold, how many were run and how many are marked "not run" (tests/docs/blocks.py)."""
    ran_docs = any(
        getattr(report, "nodeid", "").startswith("tests/docs/")
        for reports in terminalreporter.stats.values()
        for report in reports
    )
    if not ran_docs:
        return
    from tests.docs.blocks import command_blocks

    blocks = command_blocks()
    not_run = sum(1 for b in blocks if b.not_run)
    terminalreporter.write_line(
        f"docs command blocks (README.md, docs/*.md): {len(blocks)}, {len(blocks) - not_run} run by "
        f"tests/docs/test_doc_commands.py, {not_run} marked not run"
    )
