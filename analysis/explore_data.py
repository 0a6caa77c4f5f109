"""What `datasched explore` shows of one run, read from the run's output folder.

Each function turns one output file (docs/outputs.md) into plain lists of numbers, so the
page (:mod:`datasched.analysis.explore_page`) only draws them and a test can compare every
figure with the CSV it came from. Nothing here is measured anew: the only derived series are
the queue length (from the jobs' submission and start dates), power (the energy file's
increments over time) and the per-device load, which ``out_io.csv`` gives per job only — it
is drawn as each job's bytes on a device spread evenly over the job's run, and labelled so.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from datasched.errors import UserError, read_utf8

from .link_load import DEFAULT_TOP, read_windows, summarise

#: The storage tiers of ``out_io.csv`` (``<tier>_bytes`` columns), in the order shown.
TIERS = ("dram", "local_nvm", "remote_nvm", "san", "network", "stage_in", "stage_out")

#: The tiers whose bytes go to or come from a job's ``devices`` (NVMs or I/O servers).
DEVICE_TIERS = ("local_nvm", "remote_nvm", "san", "stage_in", "stage_out")


@dataclass
class RunData:
    """Everything the page draws for one run; ``to_json`` is what the page embeds."""

    label: str
    folder: str
    command: str | None
    command_cwd: str | None
    summary: dict[str, float | int | None]
    jobs: dict[str, list[Any]]
    bars: dict[str, list[Any]]
    machine_states: dict[str, list[float]]
    queue: dict[str, list[float]]
    storage: dict[str, Any] | None = None
    nvm: dict[str, Any] | None = None
    energy: dict[str, list[float]] | None = None
    forwarding: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    #: ``out_links.csv`` (engine option --link-load-window): measured load of the busiest links
    links: dict[str, Any] | None = None
    #: Batsim resource id (as text) -> host name, when the run's platform could be inspected
    names: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _read_rows(path: Path) -> list[dict[str, str]]:
    """The rows of one output CSV; a file that is not UTF-8 text or not CSV (a damaged or
    foreign file in the run's folder) is one error naming it and the line."""
    try:
        text = read_utf8(path)
    except OSError as exc:
        raise UserError(f"{path}: cannot read: {exc.strerror}") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        return list(reader)
    except csv.Error as exc:
        raise UserError(f"{path}:{reader.line_num}: not a CSV file: {exc}") from None


def _number(row: dict[str, str], column: str, path: Path, line: int) -> float:
    try:
        return float(row[column])
    except (KeyError, TypeError, ValueError):
        raise UserError(f"{path}:{line}: column {column!r} is missing or not a number") from None


def resource_intervals(text: str) -> list[tuple[int, int]]:
    """``"0-3 8"`` (Batsim's interval set) as ``[(0, 3), (8, 8)]``."""
    intervals = []
    for part in text.split():
        low, _, high = part.partition("-")
        intervals.append((int(low), int(high or low)))
    return intervals


def read_jobs(path: Path) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """The jobs of ``out_jobs.csv`` (in the file's order) and the Gantt's bars: one bar per
    contiguous interval of a job's resources, so a job on resources ``0-3`` is one bar."""
    jobs: dict[str, list[Any]] = {k: [] for k in ("id", "profile", "submit", "start", "finish", "wait", "state")}
    jobs["resources"] = []
    bars: dict[str, list[Any]] = {k: [] for k in ("job", "low", "high", "start", "duration")}
    for line, row in enumerate(_read_rows(path), start=2):
        index = len(jobs["id"])
        jobs["id"].append(row.get("job_id", ""))
        jobs["profile"].append(row.get("profile", ""))
        jobs["state"].append(row.get("final_state", ""))
        jobs["resources"].append(row.get("allocated_resources", ""))
        for key, column in (("submit", "submission_time"), ("start", "starting_time"), ("finish", "finish_time")):
            jobs[key].append(_number(row, column, path, line))
        jobs["wait"].append(_number(row, "waiting_time", path, line))
        if jobs["start"][-1] < 0:  # rejected: never ran
            continue
        try:
            intervals = resource_intervals(row.get("allocated_resources", ""))
        except ValueError:
            raise UserError(f"{path}:{line}: allocated_resources is not an interval set") from None
        for low, high in intervals:
            bars["job"].append(index)
            bars["low"].append(low)
            bars["high"].append(high)
            bars["start"].append(jobs["start"][-1])
            bars["duration"].append(jobs["finish"][-1] - jobs["start"][-1])
    return jobs, bars


def queue_length(jobs: dict[str, list[Any]]) -> dict[str, list[float]]:
    """Jobs submitted and not yet started, after every change (a rejected job leaves the
    queue when it is submitted: Batsim rejects at submission)."""
    changes: dict[float, int] = {}
    for submit, start in zip(jobs["submit"], jobs["start"], strict=True):
        if start < 0 or start == submit:
            continue
        changes[submit] = changes.get(submit, 0) + 1
        changes[start] = changes.get(start, 0) - 1
    times, counts, waiting = [0.0], [0.0], 0
    for time in sorted(changes):
        waiting += changes[time]
        times.append(time)
        counts.append(float(waiting))
    return {"t": times, "n": counts}


def read_machine_states(path: Path) -> dict[str, list[float]]:
    """``out_machine_states.csv`` as columns (time, nb_computing, nb_idle, ...)."""
    columns: dict[str, list[float]] = {}
    if not path.exists():
        return columns
    for line, row in enumerate(_read_rows(path), start=2):
        for column in row:
            columns.setdefault(column, []).append(_number(row, column, path, line))
    return columns


def _first_row(path: Path) -> dict[str, str]:
    rows = _read_rows(path) if path.exists() else []
    return rows[0] if rows else {}


def summary(folder: Path, prefix: str, jobs: dict[str, list[Any]]) -> dict[str, float | int | None]:
    """The run's figures as its files state them: makespan, waits and slowdowns from
    ``_schedule.csv`` (Batsim's definitions), utilisation from ``_utilisation.csv`` (ours;
    absent on real Batsim), energy from ``_schedule.csv``'s ``consumed_joules`` (only with -E)."""
    schedule_path = folder / f"{prefix}_schedule.csv"
    schedule = _first_row(schedule_path)
    if not schedule:
        raise UserError(f"{schedule_path}: missing or empty (is {folder} the output folder of a run?)")
    figures: dict[str, float | int | None] = {"jobs": len(jobs["id"])}
    figures["succeeded"] = sum(state == "COMPLETED_SUCCESSFULLY" for state in jobs["state"])
    for key, column in (
        ("makespan", "makespan"),
        ("mean_wait", "mean_waiting_time"),
        ("max_wait", "max_waiting_time"),
        ("mean_slowdown", "mean_slowdown"),
        ("max_slowdown", "max_slowdown"),
    ):
        figures[key] = _number(schedule, column, schedule_path, 2)
    utilisation = _first_row(folder / f"{prefix}_utilisation.csv")
    figures["utilisation"] = float(utilisation["utilisation"]) if utilisation else None
    energy_file = folder / f"{prefix}_consumed_energy.csv"
    figures["energy_joules"] = _number(schedule, "consumed_joules", schedule_path, 2) if energy_file.exists() else None
    return figures


def read_storage(path: Path, jobs: dict[str, list[Any]]) -> dict[str, Any] | None:
    """``out_io.csv``: bytes per tier per job, each job's devices, and the devices' load
    over time (estimated: a job's device-tier bytes split evenly over its devices and spread
    evenly over its run; the engine reports bytes per job, not per device and date)."""
    if not path.exists():
        return None
    rows = _read_rows(path)
    index_of = {job_id: i for i, job_id in enumerate(jobs["id"])}
    table: dict[str, list[Any]] = {k: [] for k in ("job", "allocation", "access", "devices")}
    table.update({f"{tier}_bytes": [] for tier in TIERS})
    rate_changes: dict[str, dict[float, float]] = {}
    for line, row in enumerate(rows, start=2):
        job_id = row.get("job_id", "")
        table["job"].append(job_id)
        table["allocation"].append(row.get("allocation", ""))
        table["access"].append(row.get("access", ""))
        table["devices"].append(row.get("devices", ""))
        for tier in TIERS:
            table[f"{tier}_bytes"].append(_number(row, f"{tier}_bytes", path, line))
        devices = row.get("devices", "").split()
        i = index_of.get(job_id)
        if not devices or i is None or jobs["start"][i] < 0:
            continue
        start, finish = jobs["start"][i], jobs["finish"][i]
        if finish <= start:
            continue
        device_bytes = sum(_number(row, f"{tier}_bytes", path, line) for tier in DEVICE_TIERS)
        rate = device_bytes / len(devices) / (finish - start)
        for device in devices:
            changes = rate_changes.setdefault(device, {})
            changes[start] = changes.get(start, 0.0) + rate
            changes[finish] = changes.get(finish, 0.0) - rate
    load: dict[str, dict[str, list[float]]] = {}
    for device in sorted(rate_changes, key=lambda d: (len(d), d)):
        times, rates, current = [0.0], [0.0], 0.0
        for time in sorted(rate_changes[device]):
            current += rate_changes[device][time]
            times.append(time)
            rates.append(max(current, 0.0) if abs(current) > 1e-6 else 0.0)
        load[device] = {"t": times, "rate": rates}
    return {"tiers": list(TIERS), "table": table, "device_load": load}


def read_nvm(path: Path) -> dict[str, Any] | None:
    """``out_nvm.csv``: each NVM's used bytes after every change (every NVM starts empty)."""
    if not path.exists():
        return None
    series: dict[str, dict[str, Any]] = {}
    for line, row in enumerate(_read_rows(path), start=2):
        nvm = row.get("nvm", "")
        entry = series.setdefault(nvm, {"host": row.get("host", ""), "t": [0.0], "used": [0.0], "capacity": None})
        entry["t"].append(_number(row, "time", path, line))
        entry["used"].append(_number(row, "used_bytes", path, line))
        if row.get("capacity_bytes"):
            entry["capacity"] = _number(row, "capacity_bytes", path, line)
    return {"series": series}


#: The links the explorer draws: the busiest by bytes carried over the run.
BUSIEST_LINKS = 8


def read_links(path: Path, top: int = BUSIEST_LINKS) -> dict[str, Any] | None:
    """``out_links.csv`` (written when the run passed ``--engine-arg=--link-load-window=W``):
    the bytes each link carried per window, measured from SimGrid's link usage
    (sim/src/export/links_csv.hpp), read by :mod:`datasched.analysis.link_load`. Returns the
    ``top`` busiest links' mean rate per window (bytes / window length, a step curve back to 0
    after the last window), every link's total, busiest first, and the busiest links' table
    (``link_load.summarise``: bytes, busy seconds, mean and peak utilisation)."""
    if not path.exists():
        return None
    rows = read_windows(path)
    windows: dict[str, dict[float, tuple[float, float]]] = {}
    for row in rows:
        windows.setdefault(row.link, {})[row.start] = (row.end, row.bytes)
    summaries = summarise(rows, top=None)
    busiest = [s.link for s in summaries]
    series: dict[str, dict[str, list[float]]] = {}
    for link in busiest[:top]:
        # change points of a step curve: from t on, the rate is r (0 between busy windows)
        times, rates, last_end = [0.0], [0.0], 0.0
        for start in sorted(windows[link]):
            end, carried = windows[link][start]
            if start > last_end:
                times.append(last_end)
                rates.append(0.0)
            times.append(start)
            rates.append(carried / (end - start))
            last_end = end
        times.append(last_end)
        rates.append(0.0)
        series[link] = {"t": times, "rate": rates}
    table = [
        {
            "link": s.link,
            "bytes": s.bytes,
            "busy_seconds": s.busy_seconds,
            "mean_utilisation": s.mean_utilisation,
            "peak_utilisation": s.peak_utilisation,
            "peak_window_start": s.peak_window_start,
        }
        for s in summaries[:DEFAULT_TOP]
    ]
    return {"series": series, "totals": {s.link: s.bytes for s in summaries}, "table": table}


def read_energy(path: Path) -> dict[str, list[float]] | None:
    """``out_consumed_energy.csv``: cumulated energy, and power as the increment of energy
    over the time to the next row (the power held during that interval)."""
    if not path.exists():
        return None
    times, energy = [], []
    for line, row in enumerate(_read_rows(path), start=2):
        times.append(_number(row, "time", path, line))
        energy.append(_number(row, "energy", path, line))
    power_t, power = [], []
    for i in range(len(times) - 1):
        if times[i + 1] > times[i]:
            power_t.append(times[i])
            power.append((energy[i + 1] - energy[i]) / (times[i + 1] - times[i]))
    return {"t": times, "energy": energy, "power_t": power_t, "power": power}


def read_command(folder: Path, prefix: str) -> tuple[str | None, str | None]:
    """The command that produced the run and the folder it ran in, as the runner recorded
    them in ``_run.json`` (``None`` for runs made before it did, or by the engine alone)."""
    path = folder / f"{prefix}_run.json"
    if not path.exists():
        return None, None
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None, None
    if not isinstance(record, dict):
        return None, None
    command, cwd = record.get("command"), record.get("cwd")
    return (command if isinstance(command, str) else None), (cwd if isinstance(cwd, str) else None)


def platform_of_run(folder: Path, prefix: str) -> Path | None:
    """The platform file the run used: the engine's ``-p`` argument in ``_run.json``."""
    try:
        record = json.loads((folder / f"{prefix}_run.json").read_text())
        command = record["engine_command"]
        platform = Path(command[command.index("-p") + 1])
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
    return platform if platform.is_file() else None


def resource_names(platform: Path | None) -> dict[str, str]:
    """Batsim resource id -> host name, from our engine's ``--inspect`` of the platform (the
    ids the engine gave the hosts); empty when there is no platform or engine to ask."""
    if platform is None:
        return {}
    import subprocess

    from datasched.engine import find_engine

    try:
        done = subprocess.run(
            [str(find_engine()), "-p", str(platform), "--inspect"], capture_output=True, text=True, timeout=120
        )
        hosts = json.loads(done.stdout)["hosts"] if done.returncode == 0 else []
    except (UserError, OSError, ValueError, KeyError, subprocess.TimeoutExpired):
        return {}
    return {str(h["id"]): str(h["name"]) for h in hosts if isinstance(h, dict) and h.get("id") is not None}


def load_run(folder: str | Path, label: str | None = None, prefix: str = "out") -> RunData:
    """Reads one run's output folder (``folder/<prefix>_jobs.csv`` and its siblings)."""
    if not prefix or "/" in prefix or "\0" in prefix:  # "../x" would read outside the folder named
        raise UserError(f"--prefix: {prefix!r} is a file-name prefix of the run's outputs (like out), not a path")
    root = Path(folder)
    jobs_csv = root / f"{prefix}_jobs.csv"
    if not root.is_dir():
        raise UserError(f"{folder}: not a folder (give the --output folder of a run)")
    if not jobs_csv.is_file():
        raise UserError(f"{folder}: no {jobs_csv.name} (give the --output folder of a finished run)")
    jobs, bars = read_jobs(jobs_csv)
    forwarding = {
        name: _read_rows(root / f"{prefix}_{name}.csv")
        for name in ("forwarders", "servers")
        if (root / f"{prefix}_{name}.csv").exists()
    }
    command, cwd = read_command(root, prefix)
    return RunData(
        label=label or root.name,
        folder=str(folder),
        command=command,
        command_cwd=cwd,
        summary=summary(root, prefix, jobs),
        jobs=jobs,
        bars=bars,
        machine_states=read_machine_states(root / f"{prefix}_machine_states.csv"),
        queue=queue_length(jobs),
        storage=read_storage(root / f"{prefix}_io.csv", jobs),
        nvm=read_nvm(root / f"{prefix}_nvm.csv"),
        links=read_links(root / f"{prefix}_links.csv"),
        energy=read_energy(root / f"{prefix}_consumed_energy.csv"),
        forwarding=forwarding,
        names=resource_names(platform_of_run(root, prefix)),
    )


def run_labels(folders: list[str]) -> list[str]:
    """Short distinct labels: the folders' names, with parents added until they differ."""
    parts = [Path(f).resolve().parts for f in folders]
    depth = 1
    while depth < max(len(p) for p in parts):
        labels = ["/".join(p[-depth:]) for p in parts]
        if len(set(labels)) == len(labels):
            return labels
        depth += 1
    return ["/".join(p[-depth:]) for p in parts]
