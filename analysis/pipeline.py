"""The steps the Snakemake rules run, each writing its outputs atomically.

Why atomic: a sweep is interrupted (Ctrl-C, a Slurm time limit, a node failure) and
resumed. Snakemake decides what to rerun from which outputs exist, so an output must
never exist half-written. Every step here writes into a temporary file or directory
next to its destination and renames it into place at the end (``os.replace`` is atomic
within a file system); a failed step leaves nothing behind but its temporary, which
the next attempt ignores and replaces.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def _temporary_sibling(path: Path, suffix: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=f".tmp{suffix}", dir=path.parent)
    os.close(fd)
    return Path(name)


def make_platform(params: Mapping[str, Any], output: str | Path, source: str = "platform") -> Path:
    """Generate the SimGrid platform XML of ``params`` (``datasched.platforms``)."""
    from datasched.platforms import generate, parse_params, write

    output = Path(output)
    tmp = _temporary_sibling(output, ".xml")
    try:
        write(generate(parse_params(params, source=source)), tmp)
        os.replace(tmp, output)
    finally:
        tmp.unlink(missing_ok=True)
    return output


def make_workload(swf: str | Path, options: Mapping[str, Any], output: str | Path):
    """Convert an SWF trace to a Batsim workload (``datasched.workloads.swf_convert``)."""
    from datasched.workloads.swf_convert import convert_swf, options_from_mapping

    output = Path(output)
    tmp = _temporary_sibling(output, ".json")
    try:
        report = convert_swf(swf, tmp, options_from_mapping(options))
        os.replace(tmp, output)
    finally:
        tmp.unlink(missing_ok=True)
    return report


def simulate(
    platform: str | Path,
    workload: str | Path,
    scheduler: str,
    scheduler_options: Mapping[str, Any],
    output_dir: str | Path,
    *,
    decision_timeout: float = 600.0,
    label: str = "",
    traffic_policy: str = "none",
    ipc_fanout: int = 0,
    engine_args: Sequence[str] = (),
) -> float:
    """Run one simulation into ``output_dir``; returns its wall-clock seconds.

    The runner writes into a temporary directory beside ``output_dir``; on success each
    output file is moved into ``output_dir`` with ``out_jobs.csv`` last, so a present
    ``out_jobs.csv`` always means a complete run. Progress goes to stderr (one line per
    10 % when not on a terminal), labelled with the run. ``ipc_fanout``: the engine's
    approximate all-to-all (datasched.runner.run_simulation; 0, the default, is exact).
    ``engine_args``: further engine options (e.g. ``["--sharing", "flow"]``).

    The policy (always one of ours: the experiment config checked its name and options)
    decides in the engine's process (``in_process``, as ``datasched run`` does by default):
    one process fewer per run and none of the policy imports in this one, the same
    decisions byte for byte (tests/integration/schedulers/test_inprocess.py);
    ``decision_timeout`` bounds each decision round there.
    """
    from datasched.run_cli import ProgressLine
    from datasched.runner import run_simulation

    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{output_dir.name}.", suffix=".tmp", dir=output_dir.parent))
    progress = ProgressLine(label or str(output_dir))
    start = time.monotonic()
    try:
        result = run_simulation(
            platform,
            workload,
            scheduler,
            tmp,
            scheduler_options=dict(scheduler_options),
            decision_timeout=decision_timeout,
            on_progress=progress,
            traffic_policy=traffic_policy,
            ipc_fanout=ipc_fanout,
            engine_args=list(engine_args),
            in_process=True,
        )
        progress.close()
        files = sorted(p for p in tmp.iterdir() if p.is_file())
        for path in sorted(files, key=lambda p: p == result.jobs_csv):  # the jobs file last
            os.replace(path, output_dir / path.name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    seconds = time.monotonic() - start
    print(f"[{label or output_dir}] done in {seconds:.1f} s", file=sys.stderr, flush=True)
    return seconds
