"""Issue 32, at the engine's door: each value below used to run (exit 0) with other
parameters than asked, or hang; each is now exit 1 and one line naming the experiment
file, the field (its JSON path), the allowed range and the value. And the run-cost
estimates: a parameter that makes a run explode is refused with the estimate.

The experiment readers check everything before the platform matters, so most cases take
milliseconds; the TWINS window case runs a small experiment to its end."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from datasched.engine import find_engine

pytestmark = pytest.mark.engine

CATALOG = Path(__file__).resolve().parents[3] / "platforms" / "catalog"
FORWARDING_PLATFORM = CATALOG / "seed002-forwarding.xml"
INTERFERENCE_PLATFORM = CATALOG / "seed004-ondemand.xml"
QOS_PLATFORM = CATALOG / "seed003-staging.xml"


def forwarding_doc(**forwarding: object) -> dict:
    return {
        "mode": "forwarded",
        "clients": {"nodes": 2, "processes_per_node": 2},
        "servers": {"count": 2},
        "forwarding": {"forwarders": 1, "scheduler": "twins"} | forwarding,
        "applications": [
            {
                "name": "A",
                "processes": 4,
                "pattern": "shared_strided",
                "operation": "write",
                "request_size": 1_000_000,
                "bytes_per_process": 8_000_000,
            }
        ],
    }


def interference_doc() -> dict:
    return {
        "hpl": {"hosts": ["node-000", "node-001"], "iterations": 10, "flops_per_iteration": 1.6e12},
        "services": {"storage": ["node-000", "node-001"], "metadata": ["node-000"]},
        "daemon_costs": {"idle_flops_per_second": 1e6, "idle_period": 0.5},
    }


def qos_doc() -> dict:
    return {
        "benchmark": {
            "kind": "latency",
            "hosts": ["client-000", "client-001"],
            "sizes": [8],
            "iterations": 10,
        }
    }


MODES = {
    "--io-forwarding": FORWARDING_PLATFORM,
    "--interference": INTERFERENCE_PLATFORM,
    "--qos-staging": QOS_PLATFORM,
}


def run_mode(tmp_path: Path, mode: str, doc: dict, *extra: str, timeout: float = 60) -> subprocess.CompletedProcess:
    experiment = tmp_path / "exp.json"
    experiment.write_text(json.dumps(doc))
    (tmp_path / "out").mkdir(exist_ok=True)
    command = [str(find_engine()), mode, str(experiment), "-p", str(MODES[mode]), "-e", str(tmp_path / "out" / "r")]
    return subprocess.run([*command, *extra], capture_output=True, text=True, timeout=timeout)


def assert_one_line(proc: subprocess.CompletedProcess, *fragments: str) -> str:
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("datasched-sim: error: ") and "exp.json: " in lines[0], lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def _set(doc: dict, path: str, value: object) -> dict:
    *parents, last = path.split(".")
    node = doc
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    node[last] = value
    return doc


# (mode, field path in the document, value, what the message names)
CASES = [
    ("--interference", "hpl.iterations", 2**31, "hpl.iterations: must be an integer >= 1 and <= 1000000000"),
    ("--interference", "hpl.iterations", 2**32 + 3, "hpl.iterations: must be an integer >= 1 and <= 1000000000"),
    ("--interference", "services.storage_workers", 2**32, "services.storage_workers: must be an integer >= 1"),
    (
        "--interference",
        "hpl.flops_per_iteration",
        1e308,
        "hpl.flops_per_iteration: must be a number > 0 and <= 1e+18 (flops per node)",
    ),
    ("--io-forwarding", "applications.0.processes", 2**32 + 8, "applications[0].processes: must be an integer >= 1"),
    ("--io-forwarding", "forwarding.max_in_flight", 2**32, "forwarding.max_in_flight: must be an integer >= 1"),
    ("--qos-staging", "benchmark.iterations", 2**32 + 5, "benchmark.iterations: must be an integer >= 1"),
]
#: A memory section of the interference mode (sim/src/interference/README.md, "Memory bandwidth").
MEMORY = {"bandwidth": 3.41e11, "hpl_bytes_per_flop": 0.0417, "io_copies": 4}
DOCS = {"--interference": interference_doc, "--io-forwarding": forwarding_doc, "--qos-staging": qos_doc}


@pytest.mark.parametrize(("mode", "path", "value", "message"), CASES, ids=[f"{c[1]}={c[2]!r}" for c in CASES])
def test_out_of_range_integer_is_one_line_naming_file_field_and_value(tmp_path, mode, path, value, message):
    proc = run_mode(tmp_path, mode, _set(DOCS[mode](), path, value))
    line = assert_one_line(proc, message)
    assert json.dumps(value) in line or f"{value:g}" in line, line
    assert not list((tmp_path / "out").iterdir()), "a refused run wrote outputs"


def test_forwarding_layer_max_in_flight_2_to_32_is_one_line(tmp_path):
    """The job layer's file (--forwarding-layer) reads the same field with the same range."""
    layer = tmp_path / "exp.json"
    layer.write_text(json.dumps({"scheduler": "fifo", "max_in_flight": 2**32}))
    workload = tmp_path / "w.json"
    workload.write_text(
        '{"nb_res": 1, "jobs": [{"id": 1, "subtime": 0, "res": 1, "profile": "p"}], '
        '"profiles": {"p": {"type": "delay", "delay": 1}}}'
    )
    command = [str(find_engine()), "-p", str(FORWARDING_PLATFORM), "-w", str(workload), "-e", str(tmp_path / "o")]
    command += ["--forwarding-layer", str(layer), "-s", "tcp://127.0.0.1:9", "--decision-timeout", "2"]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert_one_line(proc, "max_in_flight: must be an integer >= 1 and <= 1000000", "got 4294967296")


@pytest.mark.parametrize("window", [1e-9, 1.5e-9, 3e-9])
def test_tiny_twins_window_runs_to_its_end(tmp_path, window):
    """A 1 ns window (the documented minimum) made the forwarders' workers wait for "now"
    forever (a rounding of now / window past 10^7 windows); it now runs like a 1 ms one,
    in well under the timeout."""
    started = time.monotonic()
    proc = run_mode(tmp_path, "--io-forwarding", forwarding_doc(window=window), timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - started < 30
    rows = (tmp_path / "out" / "r_applications.csv").read_text().splitlines()
    assert len(rows) == 2 and rows[1].startswith("A,4,shared_strided,write,1000000,32000000,32,"), rows


def test_tiny_idle_period_is_refused_with_the_estimate(tmp_path):
    """idle_period 1e-9 would run for days (bursts linear in 1 / idle_period): refused
    before the run, with the estimate and the flag that goes on."""
    doc = _set(interference_doc(), "daemon_costs.idle_period", 1e-9)
    proc = run_mode(tmp_path, "--interference", doc)
    assert_one_line(
        proc,
        "daemon_costs.idle_period: this run simulates at least 5.36e+10 idle bursts",
        "3 services x at least 17.9 s of HPL compute / idle_period 1e-09 s",
        "--allow-long-run",
    )


def test_huge_iteration_count_is_refused_with_the_estimate(tmp_path):
    doc = _set(interference_doc(), "hpl.iterations", 10**9)
    proc = run_mode(tmp_path, "--interference", _set(doc, "daemon_costs.idle_flops_per_second", 0))
    assert_one_line(proc, "hpl.iterations: this run simulates at least 2e+09 HPL steps", "--allow-long-run")


def test_huge_request_count_is_refused_with_the_estimate(tmp_path):
    doc = forwarding_doc()
    doc["applications"][0] |= {"request_size": 1, "bytes_per_process": 10**12}
    proc = run_mode(tmp_path, "--io-forwarding", doc)
    assert_one_line(proc, "applications: this run simulates at least 8e+12 messages", "--allow-long-run")


def test_huge_benchmark_is_refused_with_the_estimate(tmp_path):
    proc = run_mode(tmp_path, "--qos-staging", _set(qos_doc(), "benchmark.iterations", 10**9))
    assert_one_line(proc, "benchmark.iterations: this run simulates at least 2e+09 messages", "--allow-long-run")


def test_a_cheap_run_is_not_refused(tmp_path):
    """The estimate stays silent below the budget: the test data's ordinary runs pass."""
    proc = run_mode(tmp_path, "--interference", interference_doc())
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def _numeric_leaves(doc: object, path: tuple = ()) -> list[tuple]:
    if isinstance(doc, bool):
        return []
    if isinstance(doc, int | float):
        return [path]
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else []
    return [leaf for key, value in items for leaf in _numeric_leaves(value, (*path, key))]


def _dotted(path: tuple) -> str:
    """("applications", 0, "processes") -> "applications[0].processes" (as the engine names it);
    a trailing index (an entry of a list of numbers) is dropped: the message names the list."""
    while path and isinstance(path[-1], int):
        path = path[:-1]
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out


#: Values no numeric field of any experiment reader accepts: wrong types, NaN/inf spelled
#: as strings, negatives (every field's minimum is >= 0), magnitudes above every maximum,
#: integers beyond 64 signed bits.
HOSTILE = st.one_of(
    st.text(max_size=4),
    st.sampled_from(["NaN", "inf", "-inf", "1e400"]),
    st.booleans(),
    st.none(),
    st.lists(st.integers(0, 3), max_size=2),
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: x < 0 or x > 1e19),
    st.integers(max_value=-1),
    st.integers(min_value=2**63, max_value=2**64 - 1),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mode=st.sampled_from(sorted(DOCS)), data=st.data())
def test_any_hostile_number_in_any_reader_is_one_line_in_bounded_time(tmp_path, mode, data):
    """Property over the three experiment readers, through the engine binary: a random
    numeric field given a random hostile value exits 1 within seconds, with one line naming
    the file and the field; never exit 0 (which would mean other parameters than asked)."""
    doc = DOCS[mode]()
    path = data.draw(st.sampled_from(_numeric_leaves(doc)), label="field")
    value = data.draw(HOSTILE, label="value")
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    started = time.monotonic()
    proc = run_mode(tmp_path, mode, doc, timeout=30)
    assert time.monotonic() - started < 30
    assert_one_line(proc, f"exp.json: {_dotted(path)}: ")


def test_memory_traffic_beyond_a_simgrid_io_size_is_one_line(tmp_path):
    """HPL's memory bytes per node and iteration (hpl_bytes_per_flop x flops_per_iteration,
    1e7 x 1.6e12) would not fit SimGrid's I/O size: refused in one line, nothing written."""
    doc = interference_doc() | {"memory": {"bandwidth": 1e11, "hpl_bytes_per_flop": 1e7}}
    proc = run_mode(tmp_path, "--interference", doc)
    assert_one_line(
        proc,
        "memory.hpl_bytes_per_flop: hpl_bytes_per_flop x hpl.flops_per_iteration must be <= 1e+18 bytes, got 1.6e+19",
    )
    assert not list((tmp_path / "out").iterdir()), "a refused run wrote outputs"


def test_a_memory_section_runs(tmp_path):
    """The same experiment with a memory resource: it runs, silently."""
    doc = interference_doc() | {"memory": MEMORY}
    proc = run_mode(tmp_path, "--interference", doc)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
