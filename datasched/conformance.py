"""Conformance against real Batsim 4.2.1: rerun each reference case on our engine with
the same pybatsim scheduler and compare every output file Batsim left in the case.

A case folder holds ``platform.xml``, ``workload.json``, ``case.json`` (``scheduler`` and
``batsim_extra_args``) and Batsim's outputs renamed ``expected_<file>``: ``jobs.csv``
always, ``schedule.csv``, ``machine_states.csv`` and, for ``-E`` runs,
``consumed_energy.csv`` and ``pstate_changes.csv``. Each kind of file has its comparer
in ``OUTPUT_KINDS``:

* jobs, job by job: final state, allocated resources, starting and finish times
  (|delta| <= 1e-6 s);
* every other file, row by row and column by column: equal text, or numbers within
  1e-6 relative (``max(1, |Batsim's|) x 1e-6``: a figure printed with 6 decimals may
  differ by one unit of its last digit); the schedule's wall-clock columns and
  version string are not comparable and are skipped.

``regenerate_case`` runs a case on real Batsim (``--engine batsim``) and writes its
outputs as a new reference folder.
"""

from __future__ import annotations

import csv
import json
import shlex
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from datasched.engine import REPO_ROOT
from datasched.runner import SimulationError, run_simulation

#: Real Batsim 4.2.1 reference runs, kept in the repository (see its README.md).
DEFAULT_CASES = REPO_ROOT / "tests" / "data" / "conformance"
TIME_TOLERANCE = 1e-6
RELATIVE_TOLERANCE = 1e-6
#: How many differences of one file a result keeps (the count is always reported).
MAX_DIFFERENCES = 50

#: Columns of Batsim's schedule that no rerun reproduces: wall-clock seconds and the
#: program's version string.
SCHEDULE_NOT_COMPARABLE = ("batsim_version", "scheduling_time", "simulation_time")


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


def compare_jobs_files(expected: Path, actual: Path) -> list[str]:
    return compare_jobs(read_jobs(expected), read_jobs(actual))


def _same_value(expected: str, actual: str) -> bool:
    if expected == actual:
        return True
    try:
        e, a = float(expected), float(actual)
    except ValueError:
        return False
    return abs(a - e) <= RELATIVE_TOLERANCE * max(1.0, abs(e))


def compare_rows(expected: Path, actual: Path, skip: Sequence[str] = ()) -> list[str]:
    """Row by row, column by column (columns named in ``skip`` are not compared)."""
    with open(expected, newline="") as f:
        e_rows = list(csv.reader(f))
    with open(actual, newline="") as f:
        a_rows = list(csv.reader(f))
    if not e_rows or not a_rows or e_rows[0] != a_rows[0]:
        return [f"columns {a_rows[0] if a_rows else []} != Batsim's {e_rows[0] if e_rows else []}"]
    header = e_rows[0]
    diffs = []
    if len(e_rows) != len(a_rows):
        diffs.append(f"{len(a_rows) - 1} rows != Batsim's {len(e_rows) - 1}")
    for number, (e, a) in enumerate(zip(e_rows[1:], a_rows[1:], strict=False), start=1):
        for column, e_value, a_value in zip(header, e, a, strict=False):
            if column not in skip and not _same_value(e_value, a_value):
                diffs.append(f"row {number}: {column} {a_value} != Batsim's {e_value}")
    return diffs


@dataclass(frozen=True)
class OutputKind:
    """One output file of a run (``out_<suffix>``) and its reference (``expected_<suffix>``)."""

    name: str
    suffix: str
    compare: Callable[[Path, Path], list[str]]

    @property
    def reference(self) -> str:
        return f"expected_{self.suffix}"

    def output(self, prefix: str = "out") -> str:
        return f"{prefix}_{self.suffix}"


#: Every kind of reference file a case may hold, with its comparer.
OUTPUT_KINDS = (
    OutputKind("jobs", "jobs.csv", compare_jobs_files),
    OutputKind("schedule", "schedule.csv", partial(compare_rows, skip=SCHEDULE_NOT_COMPARABLE)),
    OutputKind("machine_states", "machine_states.csv", compare_rows),
    OutputKind("consumed_energy", "consumed_energy.csv", compare_rows),
    OutputKind("pstate_changes", "pstate_changes.csv", compare_rows),
)


@dataclass
class CaseResult:
    name: str
    identical: bool
    nb_jobs: int = 0
    differences: list[str] = field(default_factory=list)
    #: kind name -> "identical", "different" or "missing" (no output file), for each
    #: reference the case holds
    files: dict[str, str] = field(default_factory=dict)

    def files_text(self) -> str:
        """``jobs ok, schedule ok, machine_states DIFFERENT``: one word per compared file."""
        return ", ".join(
            f"{name} {'ok' if status == 'identical' else status.upper()}" for name, status in self.files.items()
        )


def compare_outputs(case: Path, output_dir: Path, prefix: str = "out") -> CaseResult:
    """Compares every reference file of ``case`` with the run's outputs in ``output_dir``."""
    result = CaseResult(case.name, True)
    for kind in OUTPUT_KINDS:
        reference = case / kind.reference
        if not reference.is_file():
            continue
        output = output_dir / kind.output(prefix)
        if not output.is_file():
            diffs = [f"{output.name} was not written"]
            result.files[kind.name] = "missing"
        else:
            diffs = kind.compare(reference, output)
            result.files[kind.name] = "different" if diffs else "identical"
        shown = diffs[:MAX_DIFFERENCES]
        if len(diffs) > len(shown):
            shown.append(f"... {len(diffs) - len(shown)} more differences")
        result.differences += [f"{kind.name}: {d}" for d in shown]
        result.identical = result.identical and not diffs
    with open(case / "expected_jobs.csv", newline="") as f:
        result.nb_jobs = sum(1 for _ in csv.DictReader(f))
    return result


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


def case_scheduler(case: Path, scheduler: str) -> str:
    """The case's scheduler: a ``.py`` file of the case folder by its path, else as named."""
    if scheduler.endswith(".py") and (case / scheduler).is_file():
        return str(case / scheduler)
    return scheduler


def run_case(case: Path, work_dir: Path, engine: str = "sim", replay: bool = True) -> None:
    """Runs a case into ``work_dir``: with the case's own scheduler, or (``replay``) by
    replaying Batsim's decisions when the case is justified in JUSTIFIED_BY_REPLAY."""
    spec = json.loads((case / "case.json").read_text())
    scheduler, options = case_scheduler(case, spec["scheduler"]), None
    if replay and case.name in JUSTIFIED_BY_REPLAY:
        scheduler = str(REPLAY_SCHEDULER)
        options = {
            "reference": str(case / "expected_jobs.csv"),
            "window": 0.05,
            "sched_delay": 0.005 if spec["scheduler"] == "fillerSched" else 0.0,
        }
    run_simulation(
        case / "platform.xml",
        case / "workload.json",
        scheduler,
        work_dir,
        scheduler_options=options,
        engine_args=shlex.split(spec.get("batsim_extra_args", "")),
        decision_timeout=120,
        engine=engine,
    )


def check_case(case: Path, work_dir: Path, engine: str = "sim") -> CaseResult:
    """Runs a case (see run_case) and compares every reference file it holds."""
    try:
        run_case(case, work_dir, engine)
    except SimulationError as exc:
        return CaseResult(case.name, False, 0, [f"run failed: {exc}"], {"run": "failed"})
    return compare_outputs(case, work_dir)


def regenerate_case(case: Path, into: Path, engine: str = "batsim", overwrite: bool = False) -> CaseResult:
    """Runs ``case`` on ``engine`` with its own scheduler and writes a complete case folder
    ``into/<case name>``: the case's inputs, and the run's outputs as ``expected_*``
    files (the kinds the case holds; every kind written, for a case that holds none).
    Writing into the case folder itself needs ``overwrite``. Returns how the run's
    outputs compare with the case's references (before they are replaced)."""
    target = into / case.name
    in_place = target.resolve() == case.resolve()
    if in_place and not overwrite:
        raise ValueError(f"regenerating into {case} would replace its references: give another folder")
    held = [k for k in OUTPUT_KINDS if (case / k.reference).is_file()]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            run_case(case, Path(tmp), engine, replay=False)
        except SimulationError as exc:
            return CaseResult(case.name, False, 0, [f"run failed: {exc}"], {"run": "failed"})
        if held:
            result = compare_outputs(case, Path(tmp))
            kinds = held
        else:
            kinds = [k for k in OUTPUT_KINDS if (Path(tmp) / k.output()).is_file()]
            result = CaseResult(case.name, True, 0, [], {k.name: "new" for k in kinds})
        target.mkdir(parents=True, exist_ok=True)
        if not in_place:
            for item in case.iterdir():
                if item.is_file() and not item.name.startswith("expected_"):
                    shutil.copy2(item, target / item.name)
        for kind in kinds:
            output = Path(tmp) / kind.output()
            if output.is_file():
                shutil.copy2(output, target / kind.reference)
    return result
