"""Issue 32's weak answers of the workflow converters, each now one error line naming the
file and the task or field, with nothing written: a truncated WfCommons ``.gz`` (was a
traceback), a runtime whose flops overflow (was ``flops: .inf`` written with exit 0, then a
traceback in ``from-workflow``), an absurd ``coreCount`` (passed both converters), and a
workflow file carrying ``.inf`` itself."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

import pytest

from tests.unit.hostile.conftest import assert_absent
from tests.unit.workflows.test_wfcommons import small


def _write(path: Path, doc: dict) -> Path:
    path.write_text(json.dumps(doc))
    return path


def test_truncated_gzip_instance_is_one_line(cli, tmp_path):
    whole = gzip.compress(json.dumps(small()).encode())
    cut = tmp_path / "cut.json.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    out = tmp_path / "w.yaml"
    cli("workload", "from-wfcommons", cut, "-o", out).assert_one_line_error("cut.json.gz", "not a complete gzip file")
    assert_absent(out)


def test_damaged_gzip_instance_is_one_line(cli, tmp_path):
    whole = bytearray(gzip.compress(json.dumps(small()).encode()))
    whole[len(whole) // 2] ^= 0xFF  # a flipped byte in the deflate data or the checksum
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(bytes(whole))
    out = tmp_path / "w.yaml"
    cli("workload", "from-wfcommons", bad, "-o", out).assert_one_line_error("bad.json.gz")
    assert_absent(out)


@pytest.mark.parametrize("where", ["runtime", "input sizes", "output sizes"])
def test_overflowing_amounts_are_refused_not_written_as_inf(cli, tmp_path, where):
    doc = copy.deepcopy(small())
    spec = doc["workflow"]["specification"]
    if where == "runtime":
        doc["workflow"]["execution"]["tasks"][1]["runtimeInSeconds"] = 1e300  # x 1e9 flop/s: inf
        fragments = ["task 'B'", "runtime 1e+300 s x host_speed", "overflows"]
    else:  # two files of 1e308 bytes: their sum is inf
        name = "f" if where == "input sizes" else "y"
        spec["files"] = [f | {"sizeInBytes": 1e308} if f["id"] in (name, "x") else f for f in spec["files"]]
        task = 0 if where == "input sizes" else 1
        spec["tasks"][task]["inputFiles" if where == "input sizes" else "outputFiles"].append("x")
        if where == "output sizes":  # x is then written by B: A must not also read it as external input
            spec["tasks"][0]["inputFiles"] = []
        fragments = ["overflows"]
    source = _write(tmp_path / "in.json", doc)
    out = tmp_path / "w.yaml"
    cli("workload", "from-wfcommons", source, "-o", out).assert_one_line_error("in.json", *fragments)
    assert_absent(out)


def test_absurd_core_count_is_refused_against_the_system(cli, tmp_path):
    doc = copy.deepcopy(small())
    doc["workflow"]["execution"]["tasks"][1]["coreCount"] = 1e15
    source = _write(tmp_path / "in.json", doc)
    out = tmp_path / "w.yaml"
    cli("workload", "from-wfcommons", source, "-o", out).assert_one_line_error(
        "in.json", "task 'B'", "coreCount 1,000,000,000,000,000", "the largest platform"
    )
    cli("workload", "from-wfcommons", source, "-o", out, "--system-nodes", "20").assert_one_line_error(
        "task 'B'", "more than system_nodes=20"
    )
    assert_absent(out)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("flops: .inf", "finite number"),
        ("flops: .nan", "finite number"),
    ],
)
def test_workflow_file_with_inf_is_one_line(cli, tmp_path, text, fragment):
    workflow = tmp_path / "wf.yaml"
    workflow.write_text(
        "format: datasched-workflow/1\nname: w\nsystem_nodes: 2\nsteps:\n"
        f"  - id: 1\n    nodes: 1\n    phases:\n      - kind: compute\n        {text}\n"
    )
    out = tmp_path / "w.json"
    cli("workload", "from-workflow", workflow, "-o", out).assert_one_line_error("wf.yaml", "flops", fragment)
    assert_absent(out)


def test_workflow_file_with_absurd_system_is_one_line(cli, tmp_path):
    workflow = tmp_path / "wf.yaml"
    workflow.write_text(
        "format: datasched-workflow/1\nname: w\nsystem_nodes: 1000000000000000\nsteps:\n"
        "  - id: 1\n    nodes: 1000000000000000\n    phases:\n      - kind: compute\n        flops: 1\n"
    )
    out = tmp_path / "w.json"
    cli("workload", "from-workflow", workflow, "-o", out).assert_one_line_error("wf.yaml", "system_nodes")
    assert_absent(out)
