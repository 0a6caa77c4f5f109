"""Every kind of generated workload loads and runs in the datasched-sim engine.

Platform: a small star written here with ElementTree (one 1 Gflop/s host per node, each
behind its own 1 GB/s link, full routing), so the test does not depend on the platform
generator. The decision process is pybatsim's fillerSched (it ignores dependencies, so
only per-job facts are asserted, never an ordering)."""

from __future__ import annotations

import csv
import itertools
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from datasched.errors import UserError
from tests.unit.workloads.test_swf_parse import HPC2N, LUBLIN

pytestmark = pytest.mark.engine
HOST_SPEED = 1e9


@pytest.fixture(scope="module")
def engine():
    from datasched.engine import find_engine

    try:
        return find_engine()
    except UserError as exc:
        pytest.skip(f"engine not built: {exc}")


def star_platform(path: Path, nodes: int) -> Path:
    root = ET.Element("platform", version="4.1")
    zone = ET.SubElement(root, "zone", id="star", routing="Full")
    names = ["master"] + [f"node-{i:03d}" for i in range(nodes)]
    for name in names:
        host = ET.SubElement(zone, "host", id=name, speed=f"{HOST_SPEED:.0f}f")
        ET.SubElement(host, "prop", id="role", value="master" if name == "master" else "compute_node")
    for name in names:
        ET.SubElement(zone, "link", id=f"up-{name}", bandwidth="1GBps", latency="1us")
    for src, dst in itertools.combinations(names, 2):
        route = ET.SubElement(zone, "route", src=src, dst=dst)
        ET.SubElement(route, "link_ctn", id=f"up-{src}")
        ET.SubElement(route, "link_ctn", id=f"up-{dst}")
    header = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    path.write_text(header + ET.tostring(root, encoding="unicode") + "\n")
    return path


def run(engine, tmp_path: Path, workload: Path, nodes: int) -> list[dict[str, str]]:
    from datasched.runner import run_simulation

    platform = star_platform(tmp_path / "platform.xml", nodes)
    result = run_simulation(platform, workload, "fillerSched", tmp_path / "out", decision_timeout=120)
    with open(result.jobs_csv, newline="") as handle:
        return list(csv.DictReader(handle))


def test_swf_delay_workload_runs(engine, tmp_path):
    from datasched.workloads.swf_convert import ConversionOptions, convert_swf

    out = tmp_path / "hpc2n.json"
    convert_swf(HPC2N, out, ConversionOptions(max_jobs=40, runtime_over_walltime="extend", platform_nodes=240))
    doc = json.loads(out.read_text())
    rows = run(engine, tmp_path, out, 240)
    assert len(rows) == 40
    runtime = {str(j["id"]): doc["profiles"][j["profile"]]["delay"] for j in doc["jobs"]}
    for row in rows:
        assert row["final_state"] == "COMPLETED_SUCCESSFULLY"
        assert float(row["execution_time"]) == pytest.approx(runtime[row["job_id"]], abs=1e-3)


def test_swf_parallel_homogeneous_runs_at_trace_speed(engine, tmp_path):
    from datasched.workloads.swf_convert import ConversionOptions, convert_swf

    out = tmp_path / "lublin.json"
    convert_swf(
        LUBLIN,
        out,
        ConversionOptions(
            max_jobs=30,
            platform_nodes=64,
            profile_type="parallel_homogeneous",
            host_speed=HOST_SPEED,
            walltime_factor=2.0,
        ),
    )
    doc = json.loads(out.read_text())
    rows = run(engine, tmp_path, out, 64)
    assert len(rows) == 30
    expected = {str(j["id"]): doc["profiles"][j["profile"]]["cpu"] / HOST_SPEED for j in doc["jobs"]}
    for row in rows:  # compute-only, one job per host: exactly the trace run time
        assert row["final_state"] == "COMPLETED_SUCCESSFULLY"
        assert float(row["execution_time"]) == pytest.approx(expected[row["job_id"]], rel=1e-6, abs=1e-3)


def test_markov_composed_workload_runs(engine, tmp_path):
    from datasched.workloads.markov import MultiApplicationParams, generate_from_seed, write

    params = MultiApplicationParams(
        seed=3, max_tasks=8, n_apps=6, sizes={"n_phases": 8}, rates={"host_speed": HOST_SPEED, "link_bandwidth": 1e9}
    )
    out = write(generate_from_seed(params), tmp_path / "markov.json")
    doc = json.loads(out.read_text())
    rows = run(engine, tmp_path, out, 8)
    assert len(rows) == 6
    nominal = {str(j["id"]): j["datasched_app"]["nominal_seconds"] for j in doc["jobs"]}
    for row in rows:
        assert row["final_state"] == "COMPLETED_SUCCESSFULLY"
        # alone on its nodes the run time is at least the sum of the delays and compute parts
        assert float(row["execution_time"]) > 0
        assert float(row["execution_time"]) <= 10 * nominal[row["job_id"]]


def test_table4_workflow_runs_with_table_times(engine, tmp_path):
    from datasched.workflows import TABLE4_PATH
    from datasched.workflows.convert import convert_workflow
    from datasched.workflows.model import load_workflow

    out = convert_workflow(load_workflow(TABLE4_PATH), tmp_path / "table4.json")
    rows = run(engine, tmp_path, out, 20)
    t_run = {"1": 90, "2": 190, "3": 40, "4": 430, "5": 90, "6": 40, "7": 330, "8": 310, "9": 50, "10": 200}
    assert sorted(r["job_id"] for r in rows) == sorted(t_run)
    for row in rows:
        assert row["final_state"] == "COMPLETED_SUCCESSFULLY"
        assert float(row["execution_time"]) == pytest.approx(t_run[row["job_id"]], abs=1e-3)


@pytest.mark.parametrize("style", ["single-script", "chain", "dependency"])
def test_submission_styles_load(engine, tmp_path, style):
    from datasched.workflows import TABLE4_PATH
    from datasched.workflows.convert import convert_workflow
    from datasched.workflows.model import load_workflow
    from datasched.workflows.submission import apply_style

    workflow = apply_style(load_workflow(TABLE4_PATH), style)
    out = convert_workflow(workflow, tmp_path / f"{style}.json")
    rows = run(engine, tmp_path, out, 20)
    assert len(rows) == len(workflow.steps)
    assert all(r["final_state"] == "COMPLETED_SUCCESSFULLY" for r in rows)
    if style == "single-script":
        merged = next(r for r in rows if r["job_id"] == "1")
        assert float(merged["execution_time"]) == pytest.approx(470, abs=1e-3)  # sum of T_run, eq. 1


def test_phase_profiles_run_on_the_storage_model(engine, tmp_path):
    """Markov applications as datasched_phases profiles, under pybatsim's fillerSched
    (which knows nothing of storage: the engine derives each job's devices), on the
    catalog's 8-node unified platform with 2 I/O servers."""
    from datasched.platforms.catalog import catalog_path
    from datasched.runner import run_simulation
    from datasched.workloads.markov import MultiApplicationParams, generate_from_seed, write

    params = MultiApplicationParams(seed=3, max_tasks=4, n_apps=4, sizes={"n_phases": 6}, san_k_choices=[1, 2])
    out = write(generate_from_seed(params), tmp_path / "phases.json", profile_mode="phases")
    doc = json.loads(out.read_text())
    platform = catalog_path("small-test-unified")
    result = run_simulation(
        platform, out, "fillerSched", tmp_path / "out", decision_timeout=120, engine_args=["--traffic-policy", "np"]
    )
    with open(result.jobs_csv, newline="") as handle:
        rows = list(csv.DictReader(handle))
    with open(result.jobs_csv.parent / "out_io.csv", newline="") as handle:
        io = {row["job_id"]: row for row in csv.DictReader(handle)}
    assert len(rows) == 4 and all(r["final_state"] == "COMPLETED_SUCCESSFULLY" for r in rows)
    for job in doc["jobs"]:
        profile = doc["profiles"][job["profile"]]
        row = io[str(job["id"])]
        assert row["allocation"] == profile["storage"]["allocation"]
        io_bytes = sum(float(row[f"{tier}_bytes"]) for tier in ("dram", "local_nvm", "remote_nvm", "san"))
        phase_bytes = sum(
            p["bytes"] * min(p.get("nodes") or profile["res"], profile["io_tasks"])
            for p in profile["phases"]
            if p["kind"] in ("read", "write")
        )
        assert io_bytes == pytest.approx(phase_bytes, rel=1e-9)
