"""Figures 8 and 9 of seed 000 drawn by one routine: both are multi-application sweeps whose
per-run numbers are (mean total time, mean waiting time), read from each simulation's
``out_jobs.csv`` or, when the full variant accumulates, from the committed summaries
(analysis/accumulate.py). Each figure's package supplies the same pieces as a
:class:`FigureSteps` (``fig8.report.STEPS``, ``fig9.report.STEPS``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.accumulate import artifact_metrics, with_progress, write_pending


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
    png, plotted, report = outputs
    spec, metrics, progress = artifact_metrics(name, spec, report.parent, accumulate=accumulate, sims=sims)
    results = {figure.run_type.from_path(u): (m["mean_total_s"], m["mean_wait_s"]) for u, m in metrics.items()}
    if spec is None:
        write_pending(png, plotted, report, title, figure.columns, progress)
        return len(results)
    rows = figure.table_rows(spec, results)
    figure.write_table(rows, plotted)
    figure.plot(rows, png, title)
    text = figure.format_report(rows, spec, variant, png.name)
    report.write_text(with_progress(text, progress) if progress else text)
    return len(results)
