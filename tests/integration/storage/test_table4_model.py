"""Seed 001 Table 4 model runs on the engine (analysis/seed001_workflows/model_*.py): the storage
its platform stands for, checked in closed form on a two-step workflow."""

from __future__ import annotations

import csv

import pytest

from datasched.analysis.seed001_workflows import model_runs, model_spec
from datasched.workflows.model import Workflow

pytestmark = pytest.mark.engine

#: two 4-node steps, 1 -> 2: step 1 reads an external input (10 s) and writes an intermediate
#: item (10 s) that step 2 reads (10 s); 1 s of compute each
TWO_STEPS = {
    "name": "two",
    "system_nodes": 20,
    "steps": [
        {"id": 1, "nodes": 4, "workflow": "w", "phases": [
            {"kind": "read", "seconds": 10, "data": ["w.in"]}, {"kind": "compute", "seconds": 1},
            {"kind": "write", "seconds": 10, "data": ["w.mid"]}]},
        {"id": 2, "nodes": 4, "workflow": "w", "after": [1], "phases": [
            {"kind": "read", "seconds": 10, "data": ["w.mid"]}, {"kind": "compute", "seconds": 1}]},
    ],
    "data": [
        {"name": "w.in", "bytes": 4.0e10, "producer": None, "consumers": [1]},
        {"name": "w.mid", "bytes": 4.0e10, "producer": 1, "consumers": [2]},
    ],
}  # fmt: skip


@pytest.mark.parametrize("tier", ["ssd", "memory"])
def test_shared_lustre_and_node_tier_in_closed_form(tmp_path, tier):
    """r = 0.1 GB/s: every I/O phase moves S = 10 s x r = 1 GB per node. Data-unaware, each of
    the three phases crosses Lustre's aggregate L = 0.1 GB/s shared by the 4 nodes:
    T_all = 3 x 4S/L + 2 x 1 s = 122 s. Data-aware, the intermediate item stays on the node
    tier: T_all = 4S/L + S/B_write + S/B_read + 2 s (SSD: 40 + 2.174 + 1.818 + 2 = 45.99 s), of
    which step 1 takes 4S/L + 1 s + S/B_write (the write is the step's, the read the next one's)."""
    workflow = Workflow.model_validate(TWO_STEPS)
    p = model_spec.ParamSet(size_rate=1e8, lustre_bw=1e8, tier=tier, style="dependency", load=0.0)
    doc = model_runs.workload(workflow, p, 0, 2000.0)
    platform = model_runs.write_platform(tier, p.lustre_bw, workflow.reference.host_speed, tmp_path / "p.xml")
    size, lustre = 1e9, 1e8
    read_bw, write_bw, _ = model_spec.NODE_TIERS[tier]
    unaware = model_runs._run(platform, doc, False, tmp_path / "unaware")
    aware = model_runs._run(platform, doc, True, tmp_path / "aware")
    assert unaware["t_all"] == pytest.approx(3 * 4 * size / lustre + 2, rel=1e-6)
    assert aware["t_all"] == pytest.approx(4 * size / lustre + size / write_bw + size / read_bw + 2, rel=1e-6)
    assert unaware["wait9"] == 0.0  # no job 9 here: no wait reported
    with open(tmp_path / "aware" / "sim" / "out_jobs.csv", newline="") as handle:
        step1 = next(r for r in csv.DictReader(handle) if r["job_id"] == "1")
    assert float(step1["execution_time"]) == pytest.approx(4 * size / lustre + 1 + size / write_bw, rel=1e-6)
