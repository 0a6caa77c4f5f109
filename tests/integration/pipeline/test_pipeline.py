"""The Snakemake pipeline end to end, run in subprocesses under tmp_path.

Each test runs Snakemake with ``--directory tmp_path`` (its own .snakemake state) and
overrides ``results_dir``/``artifacts_dir`` to point into tmp_path, so tests never
touch the repository's results and can run in parallel.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[3]
TEST_CONFIG = REPO / "config" / "test.yaml"

pytest.importorskip("datasched.policy.registry")


def snakemake(
    tmp_path: Path, *args: str, configfile: Path = TEST_CONFIG, results: Path | None = None, timeout: float = 600
) -> subprocess.CompletedProcess:
    results = results or tmp_path / "results"
    command = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(tmp_path),
        "--configfile",
        str(configfile),
        "--config",
        f"results_dir={results}",
        f"artifacts_dir={results / 'artifacts'}",
        "--cores",
        "2",
        *args,
    ]
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=tmp_path,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def job_counts(output: str) -> dict[str, int]:
    """The 'Job stats' table of a dry run."""
    return {m[1]: int(m[2]) for m in re.finditer(r"^(\w+)\s+(\d+)$", output, re.M)}


def test_dry_run_lists_every_expected_job(tmp_path):
    proc = snakemake(tmp_path, "--dry-run")
    assert proc.returncode == 0, proc.stderr + proc.stdout
    counts = job_counts(proc.stdout + proc.stderr)
    assert counts["simulate"] == 6  # 2 policies x (sequential + random x 2 seeds)
    assert counts["platform"] == counts["workload"] == 1
    assert counts["policies_on_traces_figure"] == counts["policies_on_traces_report"] == 1
    assert counts["gantt"] == 1
    assert "trace=hpc2n/policy=easy/allocation=random/seed=2/out_jobs.csv" in proc.stdout + proc.stderr


@pytest.mark.parametrize(
    "mutate, key",
    [
        (
            lambda c: c["artifacts"]["policies_on_traces"].update(policies=["fcfs", "nosuchpolicy"]),
            "artifacts.policies_on_traces.policies[1]",
        ),
        (lambda c: c.update(unexpected_key=1), "unexpected_key: unknown key"),
        (lambda c: c["traces"]["hpc2n"].update(nodes=-4), "traces.hpc2n.nodes"),
    ],
)
def test_invalid_config_stops_before_any_simulation(tmp_path, mutate, key):
    config = yaml.safe_load(TEST_CONFIG.read_text())
    mutate(config)
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(config))
    proc = snakemake(tmp_path, configfile=bad)
    assert proc.returncode != 0
    assert key in proc.stderr + proc.stdout
    assert "nothing was run" in proc.stderr + proc.stdout
    assert not (tmp_path / "results").exists()  # no platform, workload or simulation was produced


def test_lint_reports_only_the_justified_conda_warning(tmp_path):
    """The one lint left asks for a conda env/container per rule. Justified: the rules
    need the datasched package and the compiled engine, which come from the project's
    locked .venv (or the Nix flake), not from conda; see paper-artifacts/README.md."""
    proc = snakemake(tmp_path, "--lint")
    output = proc.stdout + proc.stderr
    lints = re.findall(r"^\s+\* (.+?):?$", output, re.M)
    assert lints, output
    assert set(lints) == {"Specify a conda environment or container for each rule."}, output
    assert "Lints for snakefile" not in output


@pytest.mark.engine
def test_artifact_regenerates_identically_and_resumes(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    for results in (first, second):
        proc = snakemake(tmp_path, results=results)
        assert proc.returncode == 0, proc.stderr[-4000:]
        # printed relative to the working directory (tmp_path) when inside it
        assert f"is ready in {results.name}/artifacts" in proc.stdout + proc.stderr
    name = "policies_on_traces_plotted.csv"
    plotted = (first / "artifacts" / name).read_bytes()
    assert plotted == (second / "artifacts" / name).read_bytes()
    assert plotted.count(b"\n") == 1 + 4 * 4  # header + 4 metrics x 2 policies x 2 allocations
    assert (first / "artifacts/report.md").read_bytes() == (second / "artifacts/report.md").read_bytes()
    assert (first / "artifacts/gantt/hpc2n_easy_random_seed-1.png").stat().st_size > 0

    # Nothing to do on a complete sweep.
    proc = snakemake(tmp_path, "--dry-run", results=second)
    assert "Nothing to be done" in proc.stdout + proc.stderr
    # An interrupted sweep: one run never finished, so nothing downstream exists either.
    # Resuming runs exactly that simulation, and gives the same artifact.
    (second / "sims/trace=hpc2n/policy=fcfs/allocation=random/seed=2/out_jobs.csv").unlink()
    shutil.rmtree(second / "tables")
    shutil.rmtree(second / "artifacts")
    proc = snakemake(tmp_path, "--dry-run", results=second)
    assert job_counts(proc.stdout + proc.stderr)["simulate"] == 1
    proc = snakemake(tmp_path, results=second)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert (second / "artifacts" / name).read_bytes() == plotted
    # No temporary file or folder is left next to finished runs.
    assert not [p for p in second.rglob("*") if ".tmp" in p.name]


@pytest.mark.engine
def test_editing_an_artifact_section_reruns_its_cases_and_nothing_else(tmp_path):
    """A seed artifact's cases are named by only some of its section's values, and Snakemake
    does not see a change inside the section object it gets as a parameter: the rules list
    the section's stamp (analysis/spec_stamp.py) as an input. Checked under
    ``--rerun-triggers mtime`` too, the trigger a cluster profile may restrict itself to."""
    config = yaml.safe_load(TEST_CONFIG.read_text())
    config["artifacts"]["seed004_interference"] = {
        "dir": str(tmp_path / "seed004"),
        "sizes": [16],
        "configurations": ["hpl-only", "lustre"],
        "placements": ["all"],
        "node_models": ["pinned"],
        "request_costs_us": [1],
        "idle_fractions": [0.01],
        "idle_periods": [1.0],
        "iterations": 2,
        "seeds": [1],
    }
    first = tmp_path / "first.yaml"
    first.write_text(yaml.safe_dump(config))
    proc = snakemake(tmp_path, "seed004_interference", configfile=first)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    again = snakemake(tmp_path, "--dry-run", "seed004_interference", configfile=first)
    assert "Nothing to be done" in again.stdout + again.stderr
    config["artifacts"]["seed004_interference"]["idle_fractions"] = [0.02]  # not in any case's path
    second = tmp_path / "second.yaml"
    second.write_text(yaml.safe_dump(config))
    for triggers in ((), ("--rerun-triggers", "mtime")):
        proc = snakemake(tmp_path, "--dry-run", "seed004_interference", *triggers, configfile=second)
        counts = job_counts(proc.stdout + proc.stderr)
        assert counts.get("seed004_interference_case") == 2, proc.stdout + proc.stderr  # hpl-only, lustre
        assert counts.get("seed004_interference_artifact") == 1
        assert "simulate" not in counts  # the policies_on_traces artifact is untouched
