"""`datasched workload ...` run as a user runs it: a subprocess, files under tmp_path."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from datasched.workflows import TABLE4_PATH
from tests.conftest import HPC2N, LUBLIN


def datasched(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "datasched.cli", "workload", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def test_from_swf_reports_counts_and_is_byte_identical(tmp_path):
    outputs = []
    for name in ("a.json", "b.json"):
        result = datasched("from-swf", HPC2N, "-o", tmp_path / name, "--max-jobs", "500", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert "500 jobs kept of 3170 parsed" in result.stdout
        outputs.append((tmp_path / name).read_bytes())
    assert outputs[0] == outputs[1]
    result = datasched("from-swf", LUBLIN, "-o", tmp_path / "l.json", "--walltime-factor", "2", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    doc = json.loads((tmp_path / "l.json").read_text())
    assert doc["datasched_meta"]["options"]["walltime_factor"] == 2.0
    assert all(job["walltime"] == 2 * doc["profiles"][job["profile"]]["delay"] + 1 for job in doc["jobs"])


def test_malformed_swf_rejected_or_skipped_with_a_warning(tmp_path):
    good = "1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 1 -1 -1"
    swf = tmp_path / "t.swf"
    swf.write_text(f"; MaxNodes: 8\n{good}\n2 0 5 100 -4 -1 -1 4 200 -1 1 1 1 -1 -1 1 -1 -1\n")
    rejected = datasched("from-swf", swf, "-o", tmp_path / "r.json", cwd=tmp_path)
    assert rejected.returncode == 2
    assert "t.swf:3: field 5 (allocated_processors) is negative" in rejected.stderr
    assert not (tmp_path / "r.json").exists()
    skipped = datasched("from-swf", swf, "-o", tmp_path / "s.json", "--on-malformed", "skip", cwd=tmp_path)
    assert skipped.returncode == 0
    assert "skipped malformed line" in skipped.stderr and "t.swf:3" in skipped.stderr
    assert "skipped 1 malformed line(s)" in skipped.stderr
    assert len(json.loads((tmp_path / "s.json").read_text())["jobs"]) == 1


def test_markov_seed_gives_identical_files_and_bad_keys_exit_2(tmp_path):
    params = tmp_path / "multi.yaml"
    params.write_text("kind: multi\nmax_tasks: 64\nn_apps: 12\nsizes: {n_phases: 15}\naccess_types: [D, A]\n")
    for name in ("a.json", "b.json"):
        result = datasched("markov", "--seed", "5", "--params", params, "-o", tmp_path / name, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    doc = json.loads((tmp_path / "a.json").read_text())
    assert doc["datasched_meta"]["seed"] == 5 and len(doc["jobs"]) == 12
    assert {j["datasched_app"]["storage"]["access"] for j in doc["jobs"]} <= {"disperse", "affinity"}
    other = datasched("markov", "--seed", "6", "--params", params, "-o", tmp_path / "c.json", cwd=tmp_path)
    assert other.returncode == 0 and (tmp_path / "c.json").read_bytes() != (tmp_path / "a.json").read_bytes()
    bad = datasched(
        "markov", "--seed", "5", "--set", "tasks=8", "--set", "io_tasks=9", "-o", tmp_path / "x.json", cwd=tmp_path
    )
    assert bad.returncode == 2 and "io_tasks (9) must be in [1, tasks=8]" in bad.stderr


def test_from_workflow_styles(tmp_path):
    counts = {}
    for style in ("as-written", "single-script", "chain", "dependency"):
        out = tmp_path / f"{style}.json"
        result = datasched("from-workflow", TABLE4_PATH, "--style", style, "-o", out, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        counts[style] = len(json.loads(out.read_text())["jobs"])
    assert counts == {"as-written": 10, "single-script": 8, "chain": 10, "dependency": 10}
    broken = tmp_path / "cycle.yaml"
    broken.write_text(
        "name: c\nsystem_nodes: 2\nsteps:\n"
        "  - {id: 1, nodes: 1, after: [2], phases: [{kind: compute, seconds: 1}]}\n"
        "  - {id: 2, nodes: 1, after: [1], phases: [{kind: compute, seconds: 1}]}\n"
    )
    result = datasched("from-workflow", broken, "-o", tmp_path / "c.json", cwd=tmp_path)
    assert result.returncode == 2 and "cycle.yaml: dependency cycle" in result.stderr


def test_from_wfcommons_then_from_workflow(tmp_path):
    instance = Path(__file__).resolve().parents[3] / "workflows/wfcommons_instances/blast-chameleon-small-002.json.gz"
    result = datasched("from-wfcommons", instance, "-o", tmp_path / "blast.yaml", "--system-nodes", "20", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "43 step(s), 127 data item(s)" in result.stdout
    result = datasched(
        "from-workflow", tmp_path / "blast.yaml", "--profiles", "phases", "-o", tmp_path / "w.json", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert len(json.loads((tmp_path / "w.json").read_text())["jobs"]) == 43
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"schemaVersion": "1.5", "workflow": {"specification": {"tasks": [{"id": "a", "parents": ["z"]}]}}}'
    )
    result = datasched("from-wfcommons", bad, "-o", tmp_path / "x.yaml", cwd=tmp_path)
    assert result.returncode == 2 and "bad.json: task 'a': no runtimeInSeconds" in result.stderr


def _profile_types(path: Path) -> set[str]:
    doc = json.loads(path.read_text())
    return {profile["type"] for name, profile in doc["profiles"].items() if "." not in name}


def test_generated_profiles_default_to_phases_and_to_composed_for_real_batsim(tmp_path):
    """Issue 33: the default profiles are the faithful ones for the default engine (phases on
    datasched-sim); `--engine batsim` picks composed and says so; phases for Batsim is refused."""
    small = ["--set", "kind=multi", "--set", "max_tasks=4", "--set", "n_apps=3"]
    default = datasched("markov", "--seed", "1", *small, "-o", tmp_path / "d.json", cwd=tmp_path)
    assert default.returncode == 0, default.stderr
    assert _profile_types(tmp_path / "d.json") == {"datasched_phases"}
    batsim = datasched("markov", "--seed", "1", *small, "--engine", "batsim", "-o", tmp_path / "b.json", cwd=tmp_path)
    assert batsim.returncode == 0, batsim.stderr
    assert _profile_types(tmp_path / "b.json") == {"composed"}
    assert "--engine batsim: writing composed profiles" in batsim.stderr
    asked = datasched(
        "markov", "--seed", "1", *small, "--profiles", "composed", "-o", tmp_path / "c.json", cwd=tmp_path
    )
    assert asked.returncode == 0 and asked.stderr == "" and _profile_types(tmp_path / "c.json") == {"composed"}
    refused = datasched(
        "markov", "--seed", "1", "--engine", "batsim", "--profiles", "phases", "-o", tmp_path / "x.json", cwd=tmp_path
    )
    assert refused.returncode == 2 and "real Batsim cannot run datasched_phases" in refused.stderr
    workflow = datasched("from-workflow", TABLE4_PATH, "-o", tmp_path / "wf.json", cwd=tmp_path)
    assert workflow.returncode == 0, workflow.stderr
    assert _profile_types(tmp_path / "wf.json") == {"datasched_phases"}
