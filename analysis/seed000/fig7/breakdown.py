"""Where Figure 7's read phases spend their time (storage against IPC class, each run's summary's
:data:`~datasched.analysis.seed000.fig7.summary.BREAKDOWN_COLUMNS`), quoted by the report for
two runs per judged I/O model."""

from __future__ import annotations

from collections.abc import Mapping

from datasched.analysis.seed000.fig7.spec import PANEL_A_REMOTE, Fig7Run, Fig7Spec, judged_io_models


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
