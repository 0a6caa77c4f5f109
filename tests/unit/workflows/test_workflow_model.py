"""Workflow format: Table 4 example, round trip, and rejection of bad references."""

from __future__ import annotations

import copy

import pytest
import yaml

from datasched.errors import UserError
from datasched.workflows import TABLE4_PATH
from datasched.workflows.model import (
    dump_workflow,
    find_cycle,
    load_workflow,
    topological_order,
    workflow_from_dict,
    workflow_to_dict,
)

#: Seed 001 Table 4, typed in from the paper: id -> (nodes, T_in, T_out, T_compute, T_run, in workflow)
TABLE4 = {
    1: (4, 10, 30, 50, 90, True),
    2: (1, 10, 0, 180, 190, False),
    3: (15, 10, 0, 30, 40, False),
    4: (1, 20, 10, 400, 430, False),
    5: (7, 10, 10, 70, 90, False),
    6: (15, 10, 10, 20, 40, False),
    7: (4, 30, 120, 180, 330, True),
    8: (8, 0, 60, 250, 310, False),
    9: (4, 10, 30, 10, 50, True),
    10: (2, 20, 30, 150, 200, False),
}


def small():
    """A minimal valid workflow document (a -> b with one data product)."""
    return {
        "name": "small",
        "system_nodes": 8,
        "steps": [
            {"id": 1, "nodes": 2, "workflow": "w", "phases": [{"kind": "write", "bytes": 10, "data": ["d"]}]},
            {
                "id": 2,
                "nodes": 4,
                "workflow": "w",
                "after": [1],
                "phases": [{"kind": "read", "bytes": 5, "data": ["d"]}, {"kind": "compute", "seconds": 3}],
            },
        ],
        "data": [{"name": "d", "bytes": 20, "producer": 1, "consumers": [2]}],
    }


def test_table4_example_matches_the_paper():
    wf = load_workflow(TABLE4_PATH)
    assert wf.system_nodes == 20
    assert sorted(wf.step_ids) == list(range(1, 11))
    for step in wf.steps:
        nodes, t_in, t_out, t_comp, t_run, in_wf = TABLE4[step.id]
        assert step.nodes == nodes
        kinds = [p.kind for p in step.phases]
        assert kinds == ["read", "compute", "write"]
        seconds = [p.nominal_seconds(wf.reference) for p in step.phases]
        assert seconds == [t_in, t_comp, t_out]
        assert sum(seconds) == t_run
        assert (step.workflow == "wf1") == in_wf
    assert wf.step(7).after == (1,) and wf.step(9).after == (7,)
    assert topological_order(wf, [1, 7, 9]) == [1, 7, 9]
    produced = {d.name: (d.producer, d.consumers) for d in wf.data}
    assert produced["wf1.job1_output"] == (1, (7,))
    assert produced["wf1.job7_output"] == (7, (9,))
    assert produced["wf1.input"] == (None, (1,))


def test_table4_round_trips_through_yaml(tmp_path):
    wf = load_workflow(TABLE4_PATH)
    assert workflow_from_dict(workflow_to_dict(wf)) == wf
    path = dump_workflow(wf, tmp_path / "again.yaml")
    again = load_workflow(path)
    assert again == wf
    assert dump_workflow(again, tmp_path / "third.yaml").read_bytes() == path.read_bytes()


def test_json_workflows_load_too(tmp_path):
    import json

    path = tmp_path / "w.json"
    path.write_text(json.dumps(small()))
    assert load_workflow(path).step(2).after == (1,)


def expect_error(doc, *fragments):
    with pytest.raises(UserError) as info:
        workflow_from_dict(doc, "w.yaml")
    message = str(info.value)
    assert message.startswith("w.yaml")
    for fragment in fragments:
        assert fragment in message, message
    return message


def test_cycle_is_rejected_and_printed():
    doc = small()
    doc["steps"][0]["after"] = [2]
    expect_error(doc, "dependency cycle", "1 -> 2 -> 1")
    doc = small()
    doc["steps"].append({"id": 3, "nodes": 1, "after": [3], "phases": [{"kind": "compute", "seconds": 1}]})
    expect_error(doc, "step 3 depends on itself")


def test_longer_cycle_is_found():
    assert find_cycle({1: (3,), 2: (1,), 3: (2,), 4: ()}) is not None
    assert find_cycle({1: (), 2: (1,), 3: (1, 2)}) is None


@pytest.mark.parametrize(
    "mutate, fragments",
    [
        (lambda d: d["steps"][1].update(after=[5]), ["step 2", "undefined step 5"]),
        (lambda d: d["data"][0].update(producer=9), ["data d", "producer", "undefined step 9"]),
        (lambda d: d["data"][0].update(consumers=[2, 8]), ["data d", "consumer", "undefined step 8"]),
        (lambda d: d["steps"][1]["phases"][0].update(data=["nope"]), ["step 2", "undefined data 'nope'"]),
        (lambda d: d["steps"][0]["phases"][0].update(data=["ghost"]), ["undefined data 'ghost'"]),
        (lambda d: d["steps"][1].update(after=[]), ["consumer step 2 does not come after producer step 1"]),
        (lambda d: d["data"][0].update(consumers=[]), ["step 2 reads data 'd' but is not one of its consumers"]),
        (lambda d: d["data"][0].update(producer=2), ["step 1 writes data 'd' whose producer is 2"]),
        (lambda d: d["data"][0].update(bytes=10), ["reads 20 B", "hold only 10 B"]),
        (lambda d: d["steps"][1].update(nodes=9), ["step 2 needs 9 nodes, system has 8"]),
        (lambda d: d["steps"].append(copy.deepcopy(d["steps"][0])), ["duplicate step id(s) [1]"]),
        (lambda d: d["data"].append(dict(d["data"][0])), ["duplicate data name(s) ['d']"]),
        (lambda d: d["steps"][1].update(colour="red"), ["steps.[id=2].colour", "Extra inputs"]),
        (lambda d: d.update(sytem_nodes=3), ["sytem_nodes"]),
        (lambda d: d["steps"][1]["phases"][1].update(flops=5), ["exactly one of seconds/flops/bytes"]),
        (
            lambda d: d["steps"][1]["phases"][1].update(kind="read", seconds=None, flops=5),
            ["flops is only for compute"],
        ),
        (lambda d: d["steps"][1]["phases"][1].update(nodes=5), ["step 2 phase 1 uses 5 nodes, step has 4"]),
    ],
)
def test_bad_references_are_rejected_with_a_clear_message(mutate, fragments):
    doc = small()
    workflow_from_dict(copy.deepcopy(doc))  # the base document is valid
    mutate(doc)
    expect_error(doc, *fragments)


def test_yaml_syntax_error_names_file_and_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("name: x\nsteps: [\n  {id: 1\n")
    with pytest.raises(UserError, match=r"broken.yaml:\d+:\d+: not valid YAML"):
        load_workflow(path)


def test_shipped_file_is_plain_yaml_with_the_format_tag():
    raw = yaml.safe_load(TABLE4_PATH.read_text())
    assert raw["format"] == "datasched-workflow/1"
    assert len(raw["steps"]) == 10
