"""Property test over every experiment reader of the engine (issue 32): the
--io-forwarding, --interference and --qos-staging experiment files and the job layer's
--forwarding-layer file, each given as the documented example (examples/*.json, every
section present) with one random hostile change:

- a number replaced by a value no field accepts (wrong type, NaN/inf as strings,
  negative, huge, beyond 64 bits),
- a string replaced by a value of another type,
- an object or a list replaced by a scalar,
- an unknown key added to any object.

Each must exit 1 within the time bound with one line naming the experiment file and the
field's JSON path: never exit 0 (a run with other parameters than asked), never a hang,
traceback or abort. Examples per test: the Hypothesis profile's (``ci``: 60, derandomized;
``HYPOTHESIS_PROFILE=long`` for a long run, see docs/testing.md)."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from datasched.engine import find_engine
from tests.integration.hostile.test_experiment_limits import HOSTILE, MODES, assert_one_line

pytestmark = pytest.mark.engine

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = {
    "--io-forwarding": REPO / "examples" / "forwarding.json",
    "--interference": REPO / "examples" / "interference.json",
    "--qos-staging": REPO / "examples" / "qos.json",
}
#: The job layer's file (docs/forwarding.md, "Forwarding under the job layer"): every key.
FORWARDING_LAYER = {
    "scheduler": "twins",
    "window": 0.001,
    "max_in_flight": 4,
    "aggregation_limit": 8,
    "drain": False,
    "mapping": "block",
    "request_size": 65536,
    "pattern": "shared_strided",
    "stripe_size": 65536,
    "hdd_alpha": 0.1,
    "hdd_seek_scale": 1e6,
    "control_bytes": 1,
}
SECONDS_PER_CASE = 30

NOT_A_STRING: st.SearchStrategy[object] = st.one_of(
    st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False), st.booleans(), st.none(), st.just([])
)
NOT_A_BOOLEAN = st.one_of(st.integers(0, 1), st.sampled_from(["true", "false"]), st.none())
NOT_A_CONTAINER = st.one_of(st.integers(-5, 5), st.text(max_size=3), st.booleans(), st.none())
#: Keys no reader knows: an ASCII prefix no documented key has, then anything.
UNKNOWN_KEY: st.SearchStrategy[str] = st.text(max_size=6).map(lambda s: "zz_" + s)


def _places(doc: object, path: tuple = ()) -> list[tuple]:
    """Every path into ``doc``: the root's children, their children, ... (not the root)."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else []
    out = []
    for key, value in items:
        out.append((*path, key))
        out.extend(_places(value, (*path, key)))
    return out


def _get(doc: object, path: tuple) -> object:
    for key in path:
        doc = doc[key]  # type: ignore[index]
    return doc


def _as_engine_prints(text: str) -> str:
    """``text`` escaped as the engine escapes what it quotes (sim/src/common/one_line.hpp)."""
    out = ""
    for c in text:
        if c in "\n\r":
            out += {"\n": "\\n", "\r": "\\r"}[c]
        elif (ord(c) < 0x20 and c != "\t") or ord(c) == 0x7F:
            out += f"\\x{ord(c):02x}"
        elif c in "\x85\u2028\u2029":
            out += f"\\u{ord(c):04x}"
        else:
            out += c
    return out


def _named(path: tuple) -> str:
    """How the engine names the path of a field: ("applications", 0, "name") ->
    "applications[0].name"."""
    out = ""
    for key in path:
        key = key if isinstance(key, int) else _as_engine_prints(key)
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out


@st.composite
def hostile_change(draw, doc: dict) -> tuple[dict, str]:
    """(changed document, the prefix of the field path the error line must name)."""
    doc = json.loads(json.dumps(doc))
    kind = draw(st.sampled_from(["value", "unknown key"]), label="kind")
    if kind == "unknown key":
        objects = [()] + [p for p in _places(doc) if isinstance(_get(doc, p), dict)]
        path = draw(st.sampled_from(objects), label="object")
        taken = set(_get(doc, path))  # type: ignore[call-overload]
        key = draw(UNKNOWN_KEY.filter(lambda k: k not in taken), label="key")
        _get(doc, path)[key] = draw(st.one_of(st.integers(), st.text(max_size=3), st.none()), label="its value")  # type: ignore[index]
        return doc, _named((*path, key))
    path = draw(st.sampled_from(_places(doc)), label="field")
    old = _get(doc, path)
    if isinstance(old, bool):
        new = draw(NOT_A_BOOLEAN, label="value")
    elif isinstance(old, int | float):
        new = draw(HOSTILE, label="value")
    elif isinstance(old, str):
        new = draw(NOT_A_STRING, label="value")
    else:
        new = draw(NOT_A_CONTAINER, label="value")
    _get(doc, path[:-1])[path[-1]] = new  # type: ignore[index]
    # A list's entry may be named by the list (hosts: "expected a list of host names").
    while path and isinstance(path[-1], int):
        path = path[:-1]
    return doc, _named(path)


@pytest.fixture(scope="module")
def platforms(tmp_path_factory) -> dict[str, Path]:
    """The catalog's platforms, but for --qos-staging the generated one whose host names
    examples/qos.json uses (stg-0, its SAN port, pfs-0)."""
    from tests.integration.qos.conftest import staging_platform

    return MODES | {"--qos-staging": staging_platform(tmp_path_factory.mktemp("qos") / "staging.xml", clients=4)}


def run_experiment(tmp_path: Path, mode: str, doc: dict, platform: Path) -> subprocess.CompletedProcess:
    experiment = tmp_path / "exp.json"
    experiment.write_text(json.dumps(doc))
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    command = [str(find_engine()), mode, str(experiment), "-p", str(platform), "-e", str(out / "r")]
    return subprocess.run(command, capture_output=True, text=True, timeout=SECONDS_PER_CASE)


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mode=st.sampled_from(sorted(EXAMPLES)), data=st.data())
def test_any_hostile_change_to_an_experiment_is_one_line_in_bounded_time(tmp_path, platforms, mode, data):
    example = json.loads(EXAMPLES[mode].read_text())
    doc, field = data.draw(hostile_change(example), label="change")
    started = time.monotonic()
    proc = run_experiment(tmp_path, mode, doc, platforms[mode])
    assert time.monotonic() - started < SECONDS_PER_CASE
    assert_one_line(proc, f"exp.json: {field}")
    assert not list((tmp_path / "out").iterdir()), "a refused run wrote outputs"


WORKLOAD = (
    '{"nb_res": 1, "jobs": [{"id": 1, "subtime": 0, "res": 1, "profile": "p"}], '
    '"profiles": {"p": {"type": "delay", "delay": 1}}}'
)


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_hostile_change_to_a_forwarding_layer_is_one_line_in_bounded_time(tmp_path, data):
    """The job layer reads its file before it connects to a decision process: an
    accepted file would stop on the unreachable endpoint instead, not on exp.json."""
    doc, field = data.draw(hostile_change(FORWARDING_LAYER), label="change")
    layer = tmp_path / "exp.json"
    layer.write_text(json.dumps(doc))
    workload = tmp_path / "w.json"
    workload.write_text(WORKLOAD)
    command = [str(find_engine()), "-p", str(MODES["--io-forwarding"]), "-w", str(workload)]
    command += ["-e", str(tmp_path / "o"), "--forwarding-layer", str(layer), "-s", "tcp://127.0.0.1:9"]
    proc = subprocess.run([*command, "--decision-timeout", "2"], capture_output=True, text=True, timeout=60)
    assert_one_line(proc, f"exp.json: {field}")


@pytest.mark.parametrize("mode", sorted(EXAMPLES))
def test_the_unchanged_examples_are_accepted(tmp_path, platforms, mode):
    """The property's starting points are valid, so each refusal above is the change's."""
    proc = run_experiment(tmp_path, mode, json.loads(EXAMPLES[mode].read_text()), platforms[mode])
    assert proc.returncode == 0, proc.stderr
