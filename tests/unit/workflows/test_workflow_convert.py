"""Workflow -> workload JSON, and seed 001's three submission styles."""

from __future__ import annotations

import json

import pytest

from datasched.errors import UserError
from datasched.workflows import TABLE4_PATH
from datasched.workflows.convert import convert_workflow, workflow_to_workload
from datasched.workflows.model import load_workflow, workflow_from_dict
from datasched.workflows.submission import apply_style, chained, single_script, with_dependencies
from datasched.workloads.phases import EMBEDDED_PHASES_FIELD, validate_phase_profile

from .test_workflow_model import TABLE4


@pytest.fixture(scope="module")
def table4():
    return load_workflow(TABLE4_PATH)


def composed_seconds(doc, job):
    profile = doc["profiles"][job["profile"]]
    return [doc["profiles"][name]["delay"] for name in profile["seq"]]


def test_table4_workload_keeps_every_time_of_the_table(table4):
    doc = workflow_to_workload(table4)
    assert doc["nb_res"] == 20
    jobs = {j["id"]: j for j in doc["jobs"]}
    assert sorted(jobs) == list(range(1, 11))
    for job_id, (nodes, t_in, t_out, t_comp, t_run, in_wf) in TABLE4.items():
        job = jobs[job_id]
        assert job["res"] == nodes
        # zero-time phases (job 2's write: 0 s) are left out: Batsim 4.2.1 refuses a delay of 0
        assert composed_seconds(doc, job) == [t for t in (t_in, t_comp, t_out) if t > 0]
        assert job["walltime"] == t_run + 1  # Table 4's exact T_run + the 1 s tie-breaking margin
        exact = doc["profiles"][job["profile"]][EMBEDDED_PHASES_FIELD]
        validate_phase_profile(exact)
        assert [p["nominal_seconds"] for p in exact["phases"]] == [t_in, t_comp, t_out]
        assert (job["datasched_workflow"]["workflow"] == "wf1") == in_wf
    # the workflow 1 -> 7 -> 9 sums to the paper's 470 s of run time
    assert sum(jobs[i]["walltime"] - 1 for i in (1, 7, 9)) == 470
    exact = workflow_to_workload(table4, walltime_margin=0, walltime_factor=2)
    assert {j["id"]: j["walltime"] for j in exact["jobs"]} == {i: 2 * row[4] for i, row in TABLE4.items()}


def test_a_step_whose_phases_all_take_no_time_is_one_empty_ptask(table4):
    """A composed profile needs a non-empty seq in Batsim 4.2.1, and no delay of 0."""
    data = table4.model_dump(mode="json")
    data["steps"] = [{"id": 1, "name": "zero", "nodes": 1, "phases": [{"kind": "compute", "seconds": 0}]}]
    data.pop("data", None)
    doc = workflow_to_workload(workflow_from_dict(data))
    profile = doc["profiles"][doc["jobs"][0]["profile"]]
    assert [doc["profiles"][name] for name in profile["seq"]] == [{"type": "parallel_homogeneous", "cpu": 0, "com": 0}]


def test_table4_dependencies_and_data_declarations(table4):
    doc = workflow_to_workload(table4)
    jobs = {j["id"]: j for j in doc["jobs"]}
    assert jobs[7]["dependencies"] == [1] and jobs[9]["dependencies"] == [7]
    assert "dependencies" not in jobs[1] and "dependencies" not in jobs[2]
    assert jobs[7]["datasched_workflow"]["reads"] == [{"data": "wf1.job1_output", "bytes": 1.2e11, "producer": 1}]
    assert jobs[7]["datasched_workflow"]["writes"] == [{"data": "wf1.job7_output", "bytes": 4.8e11, "consumers": [9]}]
    assert jobs[9]["datasched_workflow"]["reads"] == [{"data": "wf1.job7_output", "bytes": 4e10, "producer": 7}]
    assert jobs[2]["datasched_workflow"]["reads"] == []
    data = {d["name"]: d for d in doc["datasched_data"]}
    assert data["wf1.input"] == {
        "name": "wf1.input",
        "bytes": 4e10,
        "producer": None,
        "consumers": [1],
        "workflow": "wf1",
    }
    assert data["wf1.result"]["consumers"] == [] and data["wf1.result"]["producer"] == 9


def test_phases_mode_and_determinism(table4, tmp_path):
    doc = workflow_to_workload(table4, mode="phases")
    assert {p["type"] for p in doc["profiles"].values()} == {"datasched_phases"}
    for profile in doc["profiles"].values():
        validate_phase_profile(profile)
        assert profile["storage"]["allocation"] == "san"
    a = convert_workflow(table4, tmp_path / "a.json")
    b = convert_workflow(load_workflow(TABLE4_PATH), tmp_path / "b.json")
    assert a.read_bytes() == b.read_bytes()
    assert json.loads(a.read_text())["datasched_meta"]["workflow"] == "nextgenio_table4"
    with pytest.raises(UserError, match="walltime_factor"):
        workflow_to_workload(table4, walltime_factor=0.5)


def test_single_script_style_eq_1_2(table4):
    merged = single_script(table4, "wf1")
    members = [s for s in merged.steps if s.workflow == "wf1"]
    assert len(members) == 1 and len(merged.steps) == 8
    job = members[0]
    assert job.id == 1 and job.nodes == 4  # R_max
    assert sum(p.nominal_seconds(merged.reference) for p in job.phases) == 470  # sum of T_run (eq. 1)
    doc = workflow_to_workload(merged)
    entry = next(j for j in doc["jobs"] if j["id"] == 1)
    assert entry["walltime"] == 471  # T_all + 1 s margin
    assert entry["res"] * (entry["walltime"] - 1) == 4 * 470  # R_all = R_max x T_all (eq. 2)
    data = {d.name: d for d in merged.data}
    assert data["wf1.job1_output"].producer == 1 and data["wf1.job1_output"].consumers == (1,)


def composite():
    """A composite workflow (seed 001 Fig. 3: 64, 32 then 1 node) plus an outside job."""
    return workflow_from_dict(
        {
            "name": "fig3",
            "system_nodes": 64,
            "steps": [
                {
                    "id": 10,
                    "nodes": 64,
                    "workflow": "w",
                    "phases": [{"kind": "compute", "seconds": 100}, {"kind": "write", "bytes": 1e9, "data": ["a"]}],
                },
                {
                    "id": 11,
                    "nodes": 32,
                    "workflow": "w",
                    "after": [10],
                    "phases": [{"kind": "read", "bytes": 1e9, "data": ["a"]}, {"kind": "compute", "seconds": 50}],
                },
                {"id": 12, "nodes": 1, "workflow": "w", "after": [10], "phases": [{"kind": "compute", "seconds": 10}]},
                {"id": 20, "nodes": 8, "after": [12], "phases": [{"kind": "compute", "seconds": 5}]},
            ],
            "data": [{"name": "a", "bytes": 64e9, "producer": 10, "consumers": [11]}],
        }
    )


def test_single_script_on_a_composite_workflow_keeps_each_steps_width():
    merged = single_script(composite())
    job = merged.step(10)
    assert job.nodes == 64
    assert [p.nodes for p in job.phases] == [64, 64, 32, 32, 1]
    assert merged.step(20).after == (10,)  # the outside job now waits for the merged job
    doc = workflow_to_workload(merged)
    phases = doc["profiles"]["step10"][EMBEDDED_PHASES_FIELD]["phases"]
    assert [p.get("nodes") for p in phases] == [64, 64, 32, 32, 1]


def test_chained_style_eq_3_4():
    chain = chained(composite())
    assert [chain.step(i).submission for i in (10, 11, 12)] == ["dependency", "chain", "chain"]
    assert chain.step(11).after == (10,) and chain.step(12).after == (11,)  # topological order 10, 11, 12
    assert chain.step(20).after == (12,) and chain.step(20).submission == "dependency"
    doc = workflow_to_workload(chain)
    jobs = {j["id"]: j for j in doc["jobs"]}
    assert jobs[11]["datasched_submit_after"] == [10] and "dependencies" not in jobs[11]
    assert jobs[12]["datasched_submit_after"] == [11]
    assert [jobs[i]["res"] for i in (10, 11, 12)] == [64, 32, 1]  # each step its own size


def test_dependency_style_and_dispatch(table4):
    dep = with_dependencies(chained(composite()))
    assert {dep.step(i).submission for i in (10, 11, 12)} == {"dependency"}
    assert apply_style(table4, "dependency") == with_dependencies(table4)
    assert apply_style(table4, "chain") == chained(table4)
    with pytest.raises(UserError, match="unknown submission style"):
        apply_style(table4, "batch")
    with pytest.raises(UserError, match="no steps belong to workflow 'zz'"):
        single_script(table4, "zz")
