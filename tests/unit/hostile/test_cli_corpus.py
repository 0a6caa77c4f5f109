"""Hostile command lines and configuration files for `datasched run`, `workload
markov/from-workflow`, `platform generate` and `reproduce`: each fails before any engine
runs (the test engine is a stand-in that fails loudly), with one line naming the
option or file and the problem, and without leaving a previous run's outputs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import TEST_DATA

PLATFORM = TEST_DATA / "closed_form.xml"


@pytest.fixture
def workload(tmp_path) -> Path:
    path = tmp_path / "w.json"
    path.write_text('{"jobs": [], "profiles": {}}')
    return path


def run_args(tmp_path, workload, **changes):
    args = {
        "--platform": str(PLATFORM),
        "--workload": str(workload),
        "--scheduler": "fcfs",
        "--output": str(tmp_path / "out"),
    }
    args |= changes
    return ["run", *[x for k, v in args.items() if v is not None for x in (k, v)]]


# (case id, changes to a valid `datasched run` command, fragments of the error line)
RUN_CASES = [
    ("platform-missing", {"--platform": "{tmp}/nope.xml"}, ["nope.xml", "input file not found"]),
    ("platform-folder", {"--platform": "{tmp}"}, ["is a folder, not a file"]),
    ("workload-missing", {"--workload": "{tmp}/nope.json"}, ["nope.json", "input file not found"]),
    ("workload-folder", {"--workload": "{tmp}"}, ["is a folder, not a file"]),
    ("options-not-json", {"--options": "{allocation: random"}, ["--options is not valid JSON"]),
    ("options-array", {"--options": "[1, 2]"}, ["--options must be a JSON object"]),
    ("options-string", {"--options": '"x"'}, ["--options must be a JSON object"]),
    ("options-unknown-key", {"--options": '{"bogus": 1}'}, ["bogus"]),
    ("options-bad-allocation", {"--options": '{"allocation": "teleport"}'}, ["allocation", "teleport"]),
    ("scheduler-folder", {"--scheduler": "{tmp}"}, ["--scheduler", "is a folder"]),
    (
        "scheduler-file-missing",
        {"--scheduler": "{tmp}/mySched.py"},
        ["--scheduler", "mySched.py", "no such scheduler file"],
    ),
    ("output-is-a-file", {"--output": "{tmp}/afile"}, ["afile", "is a file"]),
    ("output-under-a-file", {"--output": "{tmp}/afile/out"}, ["afile", "cannot create the output folder"]),
    ("decision-timeout-text", {"--decision-timeout": "soon"}, ["--decision-timeout", "invalid float value"]),
    ("no-platform", {"--platform": None}, ["--platform", "required"]),
    ("no-scheduler", {"--scheduler": None}, ["--scheduler", "required"]),
    ("engine-bogus", {"--engine": "bogus"}, ["--engine", "invalid choice"]),
    (
        "batsim-with-traffic-policy",
        {"--engine": "batsim", "--traffic-policy": "np"},
        ["--engine batsim", "--traffic-policy", "datasched-sim only"],
    ),
    ("batsim-with-ipc-fanout", {"--engine": "batsim", "--ipc-fanout": "8"}, ["--engine batsim", "--ipc-fanout"]),
]


@pytest.mark.parametrize("changes,fragments", [c[1:] for c in RUN_CASES], ids=[c[0] for c in RUN_CASES])
def test_hostile_run_command(cli, tmp_path, workload, changes, fragments):
    (tmp_path / "afile").write_text("")
    out = tmp_path / "out"
    out.mkdir()
    for name in ("out_jobs.csv", "out_schedule.csv", "out_machine_states.csv"):
        (out / name).write_text("a previous run's output\n")
    changes = {k: (v.replace("{tmp}", str(tmp_path)) if v else v) for k, v in changes.items()}
    outcome = cli(*run_args(tmp_path, workload, **changes))
    outcome.assert_one_line_error(*fragments)
    assert "this test runs the engine" not in outcome.err  # refused before the engine starts
    if "usage:" not in outcome.err and "--output" not in changes:  # (argparse exits before anything runs)
        assert sorted(p.name for p in out.glob("out_*.csv")) == [], "a failed run kept a previous run's outputs"


# (case id, argv after `datasched`, files to write {name: text}, fragments)
OTHER_CASES = [
    (
        "markov-set-without-equals",
        ["workload", "markov", "--seed", "1", "--set", "kind", "-o", "{tmp}/m.json"],
        {},
        ["--set expects KEY=VALUE", "'kind'"],
    ),
    (
        "markov-unknown-parameter",
        ["workload", "markov", "--seed", "1", "--set", "nope=3", "-o", "{tmp}/m.json"],
        {},
        ["nope"],
    ),
    (
        "markov-params-missing",
        ["workload", "markov", "--seed", "1", "--params", "{tmp}/p.yaml", "-o", "{tmp}/m.json"],
        {},
        ["p.yaml", "cannot read parameters"],
    ),
    (
        "markov-params-broken-yaml",
        ["workload", "markov", "--seed", "1", "--params", "{tmp}/p.yaml", "-o", "{tmp}/m.json"],
        {"p.yaml": "kind: multi\nsizes: {n_phases: 3\n"},
        ["p.yaml:3:1", "not valid YAML"],
    ),
    (
        "markov-params-list",
        ["workload", "markov", "--seed", "1", "--params", "{tmp}/p.yaml", "-o", "{tmp}/m.json"],
        {"p.yaml": "- 1\n- 2\n"},
        ["p.yaml", "must be a mapping"],
    ),
    ("markov-seed-text", ["workload", "markov", "--seed", "x", "-o", "{tmp}/m.json"], {}, ["--seed", "invalid int"]),
    (
        "workflow-missing",
        ["workload", "from-workflow", "{tmp}/wf.yaml", "-o", "{tmp}/m.json"],
        {},
        ["wf.yaml", "cannot read workflow file"],
    ),
    (
        "workflow-broken-yaml",
        ["workload", "from-workflow", "{tmp}/wf.yaml", "-o", "{tmp}/m.json"],
        {"wf.yaml": "name: x\nsteps: [\n"},
        ["wf.yaml:3", "not valid YAML/JSON"],
    ),
    (
        "workflow-not-a-workflow",
        ["workload", "from-workflow", "{tmp}/wf.yaml", "-o", "{tmp}/m.json"],
        {"wf.yaml": "steps: 5\n"},
        ["wf.yaml", "invalid workflow", "steps"],
    ),
    (
        "workflow-bad-style",
        ["workload", "from-workflow", "{tmp}/wf.yaml", "--style", "random", "-o", "{tmp}/m.json"],
        {},
        ["--style", "invalid choice"],
    ),
    (
        "platform-dims-text",
        ["platform", "generate", "--topology", "torus", "--dims", "a,b", "--out", "{tmp}/p.xml"],
        {},
        ["--dims", "expected comma-separated integers"],
    ),
    (
        "platform-dims-without-topology",
        ["platform", "generate", "--dims", "4,4", "--out", "{tmp}/p.xml"],
        {},
        ["--dims", "give --topology too"],
    ),
    (
        "platform-pah-two-values",
        ["platform", "generate", "--topology", "dragonfly", "--pah", "2,4", "--out", "{tmp}/p.xml"],
        {},
        ["--pah", "expected p,a,h"],
    ),
    (
        "platform-io-servers-negative",
        ["platform", "generate", "--io-servers=-1", "--out", "{tmp}/p.xml"],
        {},
        ["io_servers", "got -1"],
    ),
    (
        "platform-params-broken-yaml",
        ["platform", "generate", "--params", "{tmp}/pp.yaml", "--out", "{tmp}/p.xml"],
        {"pp.yaml": "kind: system\n  name: [x\n"},
        ["pp.yaml:2", "not valid YAML"],
    ),
    (
        "platform-params-broken-json",
        ["platform", "generate", "--params", "{tmp}/pp.json", "--out", "{tmp}/p.xml"],
        {"pp.json": '{"kind": "system",\n}'},
        ["pp.json:2", "not valid JSON"],
    ),
    ("platform-out-is-a-folder", ["platform", "generate", "--out", "{tmp}"], {}, ["Is a directory"]),
    (
        "sweep-config-broken-yaml",
        ["reproduce", "--configfile", "{tmp}/c.yaml"],
        {"c.yaml": "variant: quick\ntraces: [\n"},
        ["c.yaml:3:1", "not valid YAML"],
    ),
    (
        "sweep-config-not-a-mapping",
        ["reproduce", "--configfile", "{tmp}/c.yaml"],
        {"c.yaml": "- 1\n"},
        ["c.yaml", "must be a mapping"],
    ),
    (
        "sweep-config-missing",
        ["reproduce", "--configfile", "{tmp}/nope.yaml"],
        {},
        ["nope.yaml", "config file not found"],
    ),
    (
        "sweep-config-unknown-key",
        ["reproduce", "--configfile", "{tmp}/c.yaml"],
        {"c.yaml": "variant: quick\nbogus: 1\n"},
        ["c.yaml", "bogus"],
    ),
]


@pytest.mark.parametrize("argv,files,fragments", [c[1:] for c in OTHER_CASES], ids=[c[0] for c in OTHER_CASES])
def test_hostile_command(cli, tmp_path, argv, files, fragments):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    before = set(os.listdir(tmp_path))
    outcome = cli(*[a.replace("{tmp}", str(tmp_path)) for a in argv])
    outcome.assert_one_line_error(*fragments)
    assert set(os.listdir(tmp_path)) == before, "a failed command wrote a file"
