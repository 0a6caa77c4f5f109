"""``datasched reproduce --only NAME [--max-cpu-hours H]``: the next slice of an accumulating
artifact (analysis/accumulate.py), then its figure and report from every committed summary.

One Snakemake call per block of the slice (``--keep-going``: a failed or killed job costs only
itself; it has no summary, so the next slice runs it again), then one for the artifact, drawn from
the summaries then present. Blocks run one call after another because Snakemake runs a call's jobs
in its own order, not the targets': a slice cut short (by its wall guard, or by the user) would
otherwise leave a few runs of every block and no new complete block, which the figure cannot use.
With a budget and no cluster executor, the calls are also stopped (SIGINT: Snakemake ends its jobs;
finished summaries stay) once they have run 1.5 x the budget's wall time on the given cores, in
case the estimate was far off.
"""

from __future__ import annotations

import itertools
import math
import signal
import subprocess
import sys
import time
from pathlib import Path

from datasched.errors import UserError

from .accumulate import estimate_cpu_s, next_slice, scan, spec_digest, summary_path
from .accumulating_artifacts import artifact
from .experiment_config import REPO_ROOT, ExperimentConfig


def plan(
    exp: ExperimentConfig, names: list[str], budget_cpu_s: float | None, workdir: Path = REPO_ROOT
) -> tuple[list[list[str]], list[str]]:
    """(summary files to produce, as Snakemake run in ``workdir`` names them, one list per block in
    run order; one line per artifact saying where it stands and what runs)."""
    groups: list[list[str]] = []
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
        for _, block in itertools.groupby(chosen, key=art.accumulating.block):
            groups.append([_relative(summary_path(folder, unit), workdir) for unit in block])
        spent = math.fsum(measured.values()) / 3600
        lines.append(
            f"{name}: {len(found)}/{len(ordered)} planned {art.accumulating.unit_label} committed"
            f" ({spent:.2f} CPU hours)"
            + (f", {stale} stale" if stale else "")
            + f"; this slice: {len(chosen)} {art.accumulating.unit_label}, about {estimate / 3600:.2f} CPU hours"
        )
    return groups, lines


def _relative(path: Path, workdir: Path) -> str:
    """Relative to Snakemake's working directory when inside it, as the rules name their outputs."""
    return str(path.relative_to(workdir)) if path.is_relative_to(workdir) else str(path)


def uses_cluster(extra: list[str]) -> bool:
    flags = ("--executor", "-e", "--profile", "--workflow-profile")
    return any(a in flags or a.startswith(("--executor=", "--profile=")) for a in extra)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_guarded(command: list[str], wall_s: float | None) -> int:
    """Runs ``command``; past ``wall_s`` seconds it gets SIGINT, then SIGTERM 120 s later. The
    child gets SIGINT's default action back: a shell starts background jobs (``nohup … &``) with
    SIGINT ignored, and Snakemake would then ignore the graceful stop too."""
    proc = subprocess.Popen(command, cwd=REPO_ROOT, preexec_fn=_default_sigint)
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
    groups, lines = plan(exp, names, budget, workdir)
    for line in lines:
        print(f"datasched: {line}", file=sys.stderr)
    status = 0
    if groups:
        wall = None if budget is None or uses_cluster(extra) else 1.5 * budget / max(cores, 1) + 300
        deadline = None if wall is None else time.monotonic() + wall
        units = sum(map(len, groups))
        print(
            f"datasched: running {units} units in {len(groups)} block(s), one after another",
            file=sys.stderr,
            flush=True,
        )
        for group in groups:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                status = 1
                break
            # --force: a stale summary (of an edited config) exists but must be made again.
            status = run_guarded([*base, *extra, "--keep-going", "--force", *group], left) or status
        if status != 0:
            print("datasched: some units did not finish; the next slice runs them again", file=sys.stderr)
    rebuilt = subprocess.run([*base, *extra, *names], cwd=REPO_ROOT).returncode
    _, after = plan(exp, names, 0, workdir)
    for line in after:
        print(f"datasched: now {line.split('; this slice')[0]}", file=sys.stderr)
    return status or rebuilt
