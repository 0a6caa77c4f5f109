"""Where Figure 7's read phases spend their time (storage against IPC class, from ``out_io.csv``),
read only for the two runs per judged model the report quotes, so the full variant's hundreds
of runs are not all opened."""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path

from datasched.analysis.seed000.fig7.spec import PANEL_A_REMOTE, Fig7Run, Fig7Spec, judged_io_models

#: The engine's per-job seconds (out_io.csv) that show where a policy's time goes.
BREAKDOWN_COLUMNS = ("read_phase_seconds", "storage_class_seconds", "ipc_class_seconds")


def breakdown_runs(spec: Fig7Spec) -> list[Fig7Run]:
    """The runs the report's breakdown reads: NP and FP at the largest STG-k, 50 % remote,
    activity sharing, per judged I/O model."""
    k = f"stg-{max(spec.stg_k)}"
    return [
        Fig7Run(k, PANEL_A_REMOTE, policy, "activity", io)
        for io in judged_io_models(spec.ios)
        for policy in ("np", "fp")
        if Fig7Run(k, PANEL_A_REMOTE, policy, "activity", io) in spec.runs()
    ]


def read_breakdown(sims: Path, runs: Sequence[Fig7Run]) -> dict[Fig7Run, dict[str, float]]:
    """Each run's :data:`BREAKDOWN_COLUMNS` from its out_io.csv (one application per run)."""
    out = {}
    for run in runs:
        with open(sims / run.path / "out_io.csv", newline="") as handle:
            (row,) = list(csv.DictReader(handle))
        out[run] = {column: float(row[column]) for column in BREAKDOWN_COLUMNS}
    return out


def breakdown_sentence(breakdown: Mapping[Fig7Run, Mapping[str, float]], spec: Fig7Spec) -> str:
    """NP against FP at the largest STG-k, 50 % remote, activity sharing, per judged model."""
    k = f"stg-{max(spec.stg_k)}"
    parts = []
    for io in judged_io_models(spec.ios):
        np_run = breakdown.get(Fig7Run(k, PANEL_A_REMOTE, "np", "activity", io))
        fp_run = breakdown.get(Fig7Run(k, PANEL_A_REMOTE, "fp", "activity", io))
        if np_run is None or fp_run is None:
            continue
        parts.append(
            f"`{io}` at {k.upper()}, 50 % remote: the read phases' total from {np_run['read_phase_seconds']:.1f} s "
            f"under NP to {fp_run['read_phase_seconds']:.1f} s under FP, the storage class's from "
            f"{np_run['storage_class_seconds']:.1f} s to {fp_run['storage_class_seconds']:.1f} s, the IPC class's from "
            f"{np_run['ipc_class_seconds']:.1f} s to {fp_run['ipc_class_seconds']:.1f} s (engine out_io.csv, summed "
            "over the phases)"
        )
    return "; ".join(parts) if parts else "no NP/FP pair at 50 % remote in this variant"
