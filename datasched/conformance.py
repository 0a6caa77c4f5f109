"""Conformance against real Batsim 4.2.1: rerun each reference case on our engine with
the same pybatsim scheduler and compare the schedules job by job.

A case folder holds ``platform.xml``, ``workload.json``, ``case.json`` (``scheduler``, a
pybatsim scheduler name or a ``.py`` file of the case folder, and ``batsim_extra_args``)
and Batsim's ``expected_jobs.csv``. Compared per job: final state, allocated resources,
starting and finish times (|delta| <= 1e-6 s). Cases run with ``-E`` also have Batsim's
energy outputs, compared row by row (see compare_energy).
"""

from __future__ import annotations

import csv
import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from datasched.engine import REPO_ROOT
from datasched.runner import SimulationError, run_simulation

#: Real Batsim 4.2.1 reference runs, kept in the repository (see its README.md).
DEFAULT_CASES = REPO_ROOT / "tests" / "data" / "conformance"
TIME_TOLERANCE = 1e-6


@dataclass
class CaseResult:
    name: str
    identical: bool
    nb_jobs: int = 0
    differences: list[str] = field(default_factory=list)


def case_dirs(root: Path = DEFAULT_CASES) -> list[Path]:
    return sorted(p for p in Path(root).iterdir() if (p / "case.json").is_file())


def read_jobs(path: Path) -> dict[tuple[str, str], dict[str, str]]:
    with open(path, newline="") as f:
        return {(row["workload_name"], row["job_id"]): row for row in csv.DictReader(f)}


def compare_jobs(expected: dict, actual: dict) -> list[str]:
    """Human-readable differences between two job tables (empty when identical)."""
    diffs = []
    for key in sorted(set(expected) | set(actual)):
        job = "!".join(key)
        if key not in actual:
            diffs.append(f"job {job}: missing from our output")
            continue
        if key not in expected:
            diffs.append(f"job {job}: not in Batsim's output")
            continue
        e, a = expected[key], actual[key]
        for column in ("final_state", "allocated_resources"):
            if e[column] != a[column]:
                diffs.append(f"job {job}: {column} {a[column]!r} != Batsim's {e[column]!r}")
        for column in ("starting_time", "finish_time"):
            if abs(float(e[column]) - float(a[column])) > TIME_TOLERANCE:
                diffs.append(f"job {job}: {column} {a[column]} != Batsim's {e[column]}")
    return diffs


#: Relative tolerance on the numbers of the energy files (times, joules, watts).
ENERGY_TOLERANCE = 1e-6


def _close(expected: str, actual: str) -> bool:
    """Two numbers within ENERGY_TOLERANCE relative (absolute below 1); "NA" only equals "NA"."""
    if expected == "NA" or actual == "NA":
        return expected == actual
    e, a = float(expected), float(actual)
    return abs(e - a) <= ENERGY_TOLERANCE * max(1.0, abs(e))


def _read_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def compare_energy(case: Path, work_dir: Path, prefix: str = "out") -> list[str]:
    """Differences between Batsim's energy outputs (``expected_consumed_energy.csv``,
    ``expected_pstate_changes.csv``, when the case has them) and ours, row by row and
    column by column: numbers within ENERGY_TOLERANCE, strings (event type, machine
    set, pstate) equal, and ``epower`` "NA" exactly where Batsim writes it (no time
    passed since the previous row: this needs the dates themselves to be Batsim's, to
    the floating-point step).
    """
    diffs: list[str] = []
    columns = {
        "consumed_energy": (("time", "energy", "wattmin", "epower"), ("event_type",)),
        "pstate_changes": (("time",), ("machine_id", "new_pstate")),
    }
    for name, (numeric, textual) in columns.items():
        expected_path = case / f"expected_{name}.csv"
        if not expected_path.is_file():
            continue
        actual_path = work_dir / f"{prefix}_{name}.csv"
        if not actual_path.is_file():
            diffs.append(f"{name}: our run wrote no {actual_path.name}")
            continue
        expected, actual = _read_rows(expected_path), _read_rows(actual_path)
        if len(expected) != len(actual):
            diffs.append(f"{name}: {len(actual)} rows != Batsim's {len(expected)}")
        for i, (e, a) in enumerate(zip(expected, actual, strict=False), start=2):  # row count checked above
            for column in textual:
                if e[column] != a[column]:
                    diffs.append(f"{name} line {i}: {column} {a[column]!r} != Batsim's {e[column]!r}")
            for column in numeric:
                if not _close(e[column], a[column]):
                    diffs.append(f"{name} line {i}: {column} {a[column]} != Batsim's {e[column]}")
    return diffs


#: Cases whose reference schedule no engine can reproduce deterministically, with the
#: reason. They are checked by replaying Batsim's own decisions (see replaySched.py):
#: the engine must then give every job the same start and finish times.
JUSTIFIED_BY_REPLAY = {
    "pfs_contention_filler": (
        "pybatsim 3.2.1's fillerSched iterates `set(self.openJobs)`, a set of Job objects hashed by "
        "memory address, so its choice among fitting jobs depends on the process's memory layout: on our "
        "engine the same case gives different schedules when only the size of the environment changes "
        "(tests/integration/engine/test_conformance.py shows it). The reference is one draw of that order. We "
        "replay Batsim's decisions instead (same hosts, same 5 ms scheduling delay) and require identical "
        "start and finish times for every job, which is what the engine is responsible for."
    ),
}

REPLAY_SCHEDULER = Path(__file__).with_name("replaySched.py")


def check_case(case: Path, work_dir: Path) -> CaseResult:
    """Runs a case the way the suite requires: with the case's own scheduler, or by
    replaying Batsim's decisions when the case is justified in JUSTIFIED_BY_REPLAY."""
    spec = json.loads((case / "case.json").read_text())
    scheduler, options = spec["scheduler"], None
    if scheduler.endswith(".py") and (case / scheduler).is_file():  # a scheduler file shipped with the case
        scheduler = str((case / scheduler).resolve())
    if case.name in JUSTIFIED_BY_REPLAY:
        scheduler = str(REPLAY_SCHEDULER)
        options = {
            "reference": str(case / "expected_jobs.csv"),
            "window": 0.05,
            "sched_delay": 0.005 if spec["scheduler"] == "fillerSched" else 0.0,
        }
    try:
        run_simulation(
            case / "platform.xml",
            case / "workload.json",
            scheduler,
            work_dir,
            scheduler_options=options,
            engine_args=shlex.split(spec.get("batsim_extra_args", "")),
            decision_timeout=120,
        )
    except SimulationError as exc:
        return CaseResult(case.name, False, 0, [f"run failed: {exc}"])
    expected = read_jobs(case / "expected_jobs.csv")
    diffs = compare_jobs(expected, read_jobs(work_dir / "out_jobs.csv"))
    diffs += compare_energy(case, work_dir)
    return CaseResult(case.name, not diffs, len(expected), diffs)
