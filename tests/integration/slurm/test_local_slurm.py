"""The cluster route on a real Slurm: scripts/local-slurm starts a one-node cluster on this
machine, a small sweep runs through the Snakemake Slurm executor (profiles/local-slurm), its
outputs must equal a local run's byte for byte, a job over its time limit must be reported and
rerun, and the cluster is stopped again.

Root and Debian's packages are needed (the script installs them); where they cannot be
installed the test skips, saying why. It starts daemons and owns /etc/slurm/slurm.conf while it
runs, so it runs under ``make test-slurm`` (DATASCHED_SLURM_TESTS=1), not inside ``make test``.
Everything that could hang runs under a timeout.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from datasched.conformance import SCHEDULE_NOT_COMPARABLE
from tests.integration.pipeline.test_pipeline import REPO, TEST_CONFIG, snakemake

pytestmark = [
    pytest.mark.engine,
    pytest.mark.skipif(
        os.environ.get("DATASCHED_SLURM_TESTS") != "1",
        reason="starts Slurm daemons as root: run by `make test-slurm` (DATASCHED_SLURM_TESTS=1)",
    ),
]

LOCAL_SLURM = REPO / "scripts" / "local-slurm"
PROFILE = REPO / "profiles" / "local-slurm"


def local_slurm(action: str, seconds: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["timeout", "-k", "10", str(seconds), str(LOCAL_SLURM), action], capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def cluster():
    started = local_slurm("start", seconds=600)  # the first start installs the packages
    if started.returncode == 3:
        pytest.skip(f"no local Slurm here: {started.stderr.strip()}")
    assert started.returncode == 0, started.stdout + started.stderr
    try:
        yield
    finally:
        stopped = local_slurm("stop")
        assert stopped.returncode == 0, stopped.stdout + stopped.stderr
        assert local_slurm("status").returncode == 1  # nothing answers any more


def small_sweep(tmp_path: Path) -> Path:
    """Two simulations of the test trace (FCFS and EASY, sequential allocation) and their figure."""
    config = yaml.safe_load(TEST_CONFIG.read_text())
    pot = config["artifacts"]["policies_on_traces"]
    pot.update(policies=["fcfs", "easy"], allocations=["sequential"], seeds=[1])
    pot.pop("gantt", None)
    path = tmp_path / "sweep.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def outputs(results: Path) -> dict[str, bytes]:
    """Every output file of a run, byte for byte, except what no rerun reproduces: logs, the
    schedule's wall-clock columns (datasched.conformance.SCHEDULE_NOT_COMPARABLE), and the
    provenance record ``out_run.json``, which names the folders the run was started in and wrote
    to (docs/outputs.md): a result of *where* the run happened, not of its inputs."""
    out = {}
    for path in sorted(results.rglob("*")):
        name = str(path.relative_to(results))
        if not path.is_file() or "logs" in Path(name).parts or name.endswith(".log") or path.name == "out_run.json":
            continue
        out[name] = comparable_schedule(path) if path.name == "out_schedule.csv" else path.read_bytes()
    return out


def comparable_schedule(path: Path) -> bytes:
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows and set(SCHEDULE_NOT_COMPARABLE) <= set(rows[0]), path
    kept = [{k: v for k, v in row.items() if k not in SCHEDULE_NOT_COMPARABLE} for row in rows]
    return repr(kept).encode()


def test_a_sweep_through_slurm_equals_the_local_run(cluster, tmp_path):
    config = small_sweep(tmp_path)
    local, slurm = tmp_path / "local", tmp_path / "slurm"
    local.mkdir()
    slurm.mkdir()
    ran = snakemake(local, "policies_on_traces", configfile=config, results=local / "results")
    assert ran.returncode == 0, ran.stderr[-3000:]
    start = time.monotonic()
    through = ("policies_on_traces", "--profile", str(PROFILE))
    ran = snakemake(slurm, *through, configfile=config, results=slurm / "results", timeout=600)
    seconds = time.monotonic() - start
    assert ran.returncode == 0, ran.stderr[-5000:]
    log = ran.stdout + ran.stderr
    assert log.count("SLURM jobid") >= 2 or log.count("SLURM run ID") >= 1, log[-3000:]
    print(f"two simulations through the local Slurm: {seconds:.0f} s")
    here, there = outputs(local / "results"), outputs(slurm / "results")
    assert len([k for k in here if k.startswith("sims/") and k.endswith("out_jobs.csv")]) == 2, sorted(here)
    assert "artifacts/policies_on_traces_plotted.csv" in here
    assert here.keys() == there.keys()
    different = [name for name in here if here[name] != there[name]]
    assert not different, f"differ between the local and the Slurm run: {different}"


SLOW_SNAKEFILE = """
rule all:
    input: "done.txt"

rule slow:
    output: "done.txt"
    resources: runtime=1
    shell: "if [ -e slow.flag ]; then sleep 180; fi; echo done > {output}"
"""


def test_a_job_over_its_time_limit_is_reported_and_reruns(cluster, tmp_path):
    (tmp_path / "Snakefile").write_text(SLOW_SNAKEFILE)
    (tmp_path / "slow.flag").touch()
    command = [
        "timeout", "-k", "30", "400",
        sys.executable, "-m", "snakemake", "--directory", str(tmp_path),
        "--profile", str(PROFILE), "--jobs", "1",
    ]  # fmt: skip
    first = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, check=False)
    assert first.returncode not in (0, 124), first.stderr[-3000:]  # failed, not hung
    assert "TIMEOUT" in first.stdout + first.stderr, first.stderr[-3000:]
    assert not (tmp_path / "done.txt").exists()
    (tmp_path / "slow.flag").unlink()  # the resumed run is fast enough
    second = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, check=False)
    assert second.returncode == 0, second.stderr[-3000:]
    assert (tmp_path / "done.txt").read_text() == "done\n"
