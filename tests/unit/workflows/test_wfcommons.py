"""WfCommons instances -> datasched workflows (workflows/wfcommons.py): the mapping on a
shipped real instance and on hand-made ones, the errors on bad instances, and a
Hypothesis property over generated DAGs."""

from __future__ import annotations

import copy
import gzip
import json
import math
from pathlib import Path

import pytest
from hypothesis import given

from datasched.errors import UserError
from datasched.workflows.model import Workflow, topological_order
from datasched.workflows.wfcommons import WfCommonsConversion, instance_to_workflow, load_instance, parse_instance
from tests.strategies import wfformat_instances

INSTANCES = Path(__file__).resolve().parents[3] / "workflows" / "wfcommons_instances"


def small() -> dict:
    """A -> B, A writes f (10 B) that B reads; A reads the external input x (4 B); B writes
    the final output y (6 B). A runs 2 s on 1 core, B 3 s on 4 cores."""
    return {
        "name": "small",
        "schemaVersion": "1.5",
        "workflow": {
            "specification": {
                "tasks": [
                    {
                        "name": "A",
                        "id": "A",
                        "parents": [],
                        "children": ["B"],
                        "inputFiles": ["x"],
                        "outputFiles": ["f"],
                    },
                    {
                        "name": "B",
                        "id": "B",
                        "parents": ["A"],
                        "children": [],
                        "inputFiles": ["f"],
                        "outputFiles": ["y"],
                    },
                ],
                "files": [{"id": "x", "sizeInBytes": 4}, {"id": "f", "sizeInBytes": 10}, {"id": "y", "sizeInBytes": 6}],
            },
            "execution": {
                "makespanInSeconds": 5,
                "tasks": [{"id": "A", "runtimeInSeconds": 2.0}, {"id": "B", "runtimeInSeconds": 3.0, "coreCount": 4}],
            },
        },
    }


def convert(doc: dict, **params) -> Workflow:
    return instance_to_workflow(parse_instance(doc, "in.json"), WfCommonsConversion(**params), "in.json")


def test_small_instance_maps_tasks_files_runtimes_and_cores():
    """flops = runtime x host_speed; B's 4 cores at 2 per node -> 2 nodes, each reading
    10 B / 2 and writing 6 B / 2; x has no producer (central input), y no consumer."""
    wf = convert(small(), host_speed=2e9, cores_per_node=2)
    a, b = wf.steps
    assert (a.id, a.name, a.nodes, a.after) == (1, "A", 1, ())
    assert (b.id, b.name, b.nodes, b.after) == (2, "B", 2, (1,))
    assert [(p.kind, p.bytes, p.flops, p.data) for p in b.phases] == [
        ("read", 5.0, None, ("f",)),
        ("compute", None, 6e9, ()),
        ("write", 3.0, None, ("y",)),
    ]
    data = {d.name: (d.bytes, d.producer, d.consumers) for d in wf.data}
    assert data == {"x": (4.0, None, (1,)), "f": (10.0, 1, (2,)), "y": (6.0, 2, ())}
    assert wf.system_nodes == 2 and wf.steps[0].workflow == "small"


def test_file_dependency_is_an_ordering_even_without_parents():
    doc = small()
    for task in doc["workflow"]["specification"]["tasks"]:
        task["parents"], task["children"] = [], []
    assert convert(doc).steps[1].after == (1,)


def test_schema_14_with_inline_files():
    doc = {
        "name": "old",
        "schemaVersion": "1.4",
        "workflow": {
            "tasks": [
                {
                    "name": "A",
                    "runtimeInSeconds": 1,
                    "parents": [],
                    "files": [{"link": "output", "name": "f", "size": 8}],
                },
                {
                    "name": "B",
                    "runtime": 2,
                    "cores": 1,
                    "parents": ["A"],
                    "files": [{"link": "input", "name": "f", "size": 8}],
                },
            ]
        },
    }
    wf = convert(doc)
    assert [s.after for s in wf.steps] == [(), (1,)]
    assert {d.name: (d.producer, d.consumers) for d in wf.data} == {"f": (1, (2,))}


def test_shipped_instance_converts_with_its_dag(tmp_path):
    path = INSTANCES / "epigenomics-chameleon-hep-1seq-100k-001.json.gz"
    raw = json.loads(gzip.decompress(path.read_bytes()))
    wf = instance_to_workflow(load_instance(path), WfCommonsConversion(system_nodes=20), str(path))
    tasks = raw["workflow"]["specification"]["tasks"]
    assert len(wf.steps) == len(tasks) == 41
    runtime = {t["id"]: t["runtimeInSeconds"] for t in raw["workflow"]["execution"]["tasks"]}
    by_name = {s.name: s for s in wf.steps}
    for task in tasks:
        step = by_name[task["id"]]
        assert {wf.step(a).name for a in step.after} >= set(task["parents"])
        compute = next(p for p in step.phases if p.kind == "compute")
        assert compute.flops == pytest.approx(runtime[task["id"]] * 1e9)
    topological_order(wf)  # a DAG


def one_line_error(doc: dict, *expected: str) -> str:
    with pytest.raises(UserError) as error:
        convert(doc)
    message = str(error.value)
    assert "\n" not in message and message.startswith("in.json"), message
    for text in expected:
        assert text in message, message
    return message


def test_cycle_is_an_error_naming_its_tasks():
    doc = small()
    doc["workflow"]["specification"]["tasks"][0]["parents"] = ["B"]
    one_line_error(doc, "dependency cycle", "'A'", "'B'")


def test_unknown_parent_is_an_error_naming_the_task():
    doc = small()
    doc["workflow"]["specification"]["tasks"][1]["parents"] = ["ghost"]
    one_line_error(doc, "task 'B'", "unknown parent 'ghost'")


def test_missing_file_size_is_an_error_naming_file_and_task():
    doc = small()
    doc["workflow"]["specification"]["files"] = doc["workflow"]["specification"]["files"][1:]
    one_line_error(doc, "task 'A'", "file 'x' has no size")


@pytest.mark.parametrize("size", [-1, "big", None, float("nan")])
def test_bad_file_size_is_an_error_naming_the_file(size):
    doc = small()
    doc["workflow"]["specification"]["files"][1]["sizeInBytes"] = size
    one_line_error(doc, "file 'f'")


def test_other_bad_instances():
    doc = small()
    doc["schemaVersion"] = "0.9"
    one_line_error(doc, "unsupported WfFormat schemaVersion '0.9'")
    doc = small()
    doc["workflow"]["execution"]["tasks"] = doc["workflow"]["execution"]["tasks"][:1]
    one_line_error(doc, "task 'B'", "no runtimeInSeconds")
    doc = small()
    doc["workflow"]["specification"]["tasks"][1]["outputFiles"] = ["f"]
    one_line_error(doc, "file 'f' is also written by task 'A'")
    doc = small()
    doc["workflow"]["specification"]["tasks"].append(copy.deepcopy(doc["workflow"]["specification"]["tasks"][0]))
    one_line_error(doc, "task 'A' is defined twice")
    doc = small()
    doc["workflow"]["specification"]["tasks"][0]["inputFiles"] = ["f"]
    one_line_error(doc, "reads and writes file 'f'")


def test_unreadable_and_non_json_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(UserError, match=r"bad.json: not a WfFormat JSON instance"):
        load_instance(bad)
    with pytest.raises(UserError, match=r"missing.json: cannot read"):
        load_instance(tmp_path / "missing.json")


@given(wfformat_instances())
def test_generated_dags_convert_to_valid_workflows(doc):
    """Any DAG converts: every parent and every input's producer comes before the step,
    a step reads exactly its inputs' bytes (over its nodes) and computes runtime x speed."""
    wf = convert(doc, cores_per_node=3)
    tasks = doc["workflow"]["specification"]["tasks"]
    sizes = {f["id"]: f["sizeInBytes"] for f in doc["workflow"]["specification"]["files"]}
    runs = {t["id"]: t for t in doc["workflow"]["execution"]["tasks"]}
    order = topological_order(wf)
    position = {s: i for i, s in enumerate(order)}
    for task, step in zip(tasks, wf.steps, strict=True):
        assert step.nodes == math.ceil(runs[task["id"]]["coreCount"] / 3)
        for parent in step.after:
            assert position[parent] < position[step.id]
        reads = [p for p in step.phases if p.kind == "read"]
        total = sum(sizes[f] for f in task["inputFiles"])
        assert sum((p.bytes or 0.0) * step.nodes for p in reads) == pytest.approx(total)
        compute = next(p for p in step.phases if p.kind == "compute")
        assert compute.flops == pytest.approx(runs[task["id"]]["runtimeInSeconds"] * 1e9)
