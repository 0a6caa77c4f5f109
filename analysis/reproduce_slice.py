"""``datasched reproduce --only NAME [--max-cpu-hours H]``: the next slice of an accumulating
artifact (analysis/accumulate.py), then its figure and report from every committed summary.

Two Snakemake calls: the first asks for the slice's summary files (``--keep-going``: a failed or
killed job costs only itself; it has no summary, so the next slice runs it again), the second for
the artifact, drawn from the summaries then present. With a budget and no cluster executor, the
first call is also stopped (SIGINT: Snakemake ends its jobs; finished summaries stay) once it has
run 1.5 x the budget's wall time on the given cores, in case the estimate was far off.
"""

from __future__ import annotations

import math
import signal
import subprocess
import sys
from pathlib import Path

from datasched.errors import UserError

from .accumulate import estimate_cpu_s, next_slice, scan, spec_digest, summary_path
from .accumulating_artifacts import artifact
from .experiment_config import REPO_ROOT, ExperimentConfig


def plan(
    exp: ExperimentConfig, names: list[str], budget_cpu_s: float | None, workdir: Path = REPO_ROOT
) -> tuple[list[str], list[str]]:
    """(summary files to produce, as Snakemake run in ``workdir`` names them; one line per
    artifact saying where it stands and what runs)."""
    targets: list[str] = []
    lines: list[str] = []
    remaining = budget_cpu_s
    for name in names:
        if name not in exp.accumulate:
            known = ", ".join(exp.accumulate) or "none"
            raise UserError(f"--only {name}: this config does not accumulate it (its accumulate: list: {known})")
        art = artifact(name)
        spec = art.spec(exp)
        folder = art.folder(exp)
        found, stale = scan(art.accumulating, spec, folder, spec_digest(spec, REPO_ROOT))
        measured = {unit: summary.cpu_s for unit, summary in found.items()}
        ordered = art.accumulating.ordered_units(spec)
        exhausted = remaining is not None and remaining <= 0
        chosen = [] if exhausted else next_slice(ordered, measured, remaining, art.default_cpu_s)
        estimate = math.fsum(estimate_cpu_s(u, measured, art.default_cpu_s) for u in chosen)
        if remaining is not None:
            remaining -= estimate
        targets += [_relative(summary_path(folder, unit), workdir) for unit in chosen]
        spent = math.fsum(measured.values()) / 3600
        lines.append(
            f"{name}: {len(found)}/{len(ordered)} planned {art.accumulating.unit_label} committed"
            f" ({spent:.2f} CPU hours)"
            + (f", {stale} stale" if stale else "")
            + f"; this slice: {len(chosen)} {art.accumulating.unit_label}, about {estimate / 3600:.2f} CPU hours"
        )
    return targets, lines


def _relative(path: Path, workdir: Path) -> str:
    """Relative to Snakemake's working directory when inside it, as the rules name their outputs."""
    return str(path.relative_to(workdir)) if path.is_relative_to(workdir) else str(path)


def uses_cluster(extra: list[str]) -> bool:
    flags = ("--executor", "-e", "--profile", "--workflow-profile")
    return any(a in flags or a.startswith(("--executor=", "--profile=")) for a in extra)


def run_guarded(command: list[str], wall_s: float | None) -> int:
    """Runs ``command``; past ``wall_s`` seconds it gets SIGINT, then SIGTERM 120 s later."""
    proc = subprocess.Popen(command, cwd=REPO_ROOT)
    try:
        return proc.wait(timeout=wall_s)
    except subprocess.TimeoutExpired:
        print(f"datasched: the slice ran past {(wall_s or 0) / 3600:.2f} h of wall time: stopping it", file=sys.stderr)
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            proc.terminate()
            proc.wait()
        return 1


def run_slice(
    exp: ExperimentConfig,
    names: list[str],
    max_cpu_hours: float | None,
    cores: int,
    base: list[str],
    extra: list[str],
    workdir: Path = REPO_ROOT,
) -> int:
    """``base`` is the Snakemake command without targets, run in ``workdir`` (its --directory);
    ``extra`` the user's arguments."""
    if max_cpu_hours is not None and max_cpu_hours <= 0:
        raise UserError(f"--max-cpu-hours {max_cpu_hours:g}: must be positive")
    budget = max_cpu_hours * 3600 if max_cpu_hours is not None else None
    targets, lines = plan(exp, names, budget, workdir)
    for line in lines:
        print(f"datasched: {line}", file=sys.stderr)
    status = 0
    if targets:
        wall = None if budget is None or uses_cluster(extra) else 1.5 * budget / max(cores, 1) + 300
        print(f"datasched: running {len(targets)} units", file=sys.stderr, flush=True)
        # --force: a stale summary (of an edited config) exists but must be made again.
        status = run_guarded([*base, *extra, "--keep-going", "--force", *targets], wall)
        if status != 0:
            print("datasched: some units did not finish; the next slice runs them again", file=sys.stderr)
    rebuilt = subprocess.run([*base, *extra, *names], cwd=REPO_ROOT).returncode
    _, after = plan(exp, names, 0, workdir)
    for line in after:
        print(f"datasched: now {line.split('; this slice')[0]}", file=sys.stderr)
    return status or rebuilt
