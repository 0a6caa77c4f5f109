"""Figures 8 and 9 of seed 000 drawn by one routine: both are multi-application sweeps whose
per-run numbers are (mean total time, mean waiting time), read from each simulation's
``out_jobs.csv`` or, when the full variant accumulates, from the committed summaries
(analysis/accumulate.py). Each figure's package supplies the same pieces as a
:class:`FigureSteps` (``fig8.report.STEPS``, ``fig9.report.STEPS``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.accumulate import write_artifact_files


@dataclass(frozen=True)
class FigureSteps:
    """What one multi-application figure brings to :func:`write_artifact`: its run type (with
    ``from_path`` and ``path``), its plotted CSV's columns, and its table, figure and report steps."""

    run_type: Any
    columns: tuple[str, ...]
    table_rows: Callable[..., list[dict[str, Any]]]
    write_table: Callable[..., Path]
    plot: Callable[..., Path]
    format_report: Callable[..., str]


def write_artifact(
    figure: FigureSteps,
    name: str,
    spec: Any,
    *,
    variant: str,
    accumulate: bool,
    sims: Path,
    outputs: tuple[Path, Path, Path],
    title: str,
) -> int:
    """Writes the figure, plotted CSV and report (``outputs``, in that order); returns the
    number of runs read. A partial accumulating variant with no complete block writes the
    pending placeholders instead."""

    def draw(judged: Any, metrics: Mapping[str, Mapping[str, Any]]) -> str:
        results = {figure.run_type.from_path(u): (m["mean_total_s"], m["mean_wait_s"]) for u, m in metrics.items()}
        rows = figure.table_rows(judged, results)
        figure.write_table(rows, outputs[1])
        figure.plot(rows, outputs[0], title)
        return figure.format_report(rows, judged, variant, outputs[0].name)

    return write_artifact_files(
        name, spec, outputs, accumulate=accumulate, sims=sims, title=title, columns=figure.columns, draw=draw
    )
