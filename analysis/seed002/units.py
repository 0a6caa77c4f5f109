"""Seed 002 as a full variant that accumulates (analysis/accumulate.py): its units, blocks and
restricted spec, and the artifact drawn from per-unit numbers, the same way for both variants.

- A *unit* is one Snakemake job: a case (``cases/<case path>``: every configuration x seed of one
  test at one parameter set) or one run of the scheduling section
  (``scheduling/configuration=C/seed=S``). Its summary is its ``runs.csv`` rows as written.
- A *block* is a parameter set (HDD α, seek scale, server cache) over every pattern, operation,
  request size and IFER offset, named ``[α = 0.1, cache small]``; or ``[scheduling]``, every run of
  the scheduling section. Every claim is judged per parameter set and over the sweep of sets
  (reproduced only where one set satisfies them all), so a set is the smallest piece a verdict
  can use; the report from complete sets is the report of a config sweeping only those sets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.accumulate import replace, write_artifact_files, write_pending
from datasched.analysis.seed002 import figure, figure_ifer, figure_sizes, report, scheduling, table
from datasched.analysis.seed002.spec import Case, ParameterSet, Seed002Spec, restrict_to_sets, set_name

CASES = "cases/"
SCHEDULING = "scheduling/"
SCHEDULING_BLOCK = "[scheduling]"


def scheduling_unit(configuration: str, seed: int) -> str:
    return f"{SCHEDULING}configuration={configuration}/seed={seed}"


def units(spec: Seed002Spec) -> list[str]:
    """Every case, then every scheduling run (the scheduling section has no paper claim)."""
    runs = spec.scheduling.runs() if spec.scheduling is not None else []
    return [CASES + case.path for case in spec.cases()] + [scheduling_unit(c, s) for c, s in runs]


def _parameter_set(case: Case) -> ParameterSet:
    return (case.hdd_alpha, case.hdd_seek_scale, case.cache)


def block_name(parameter_set: ParameterSet) -> str:
    return f"[{set_name(*parameter_set)}]"


def block(unit: str) -> str:
    if unit.startswith(SCHEDULING):
        return SCHEDULING_BLOCK
    return block_name(_parameter_set(Case.from_path(unit.removeprefix(CASES))))


def restrict(spec: Seed002Spec, blocks: Sequence[str]) -> Seed002Spec:
    """``spec`` with only the complete parameter sets, and the scheduling section only when all of
    it is in."""
    kept = [p for p in spec.parameter_sets() if block_name(p) in blocks]
    restricted = restrict_to_sets(spec, kept)
    return replace(restricted, scheduling=spec.scheduling if SCHEDULING_BLOCK in blocks else None)


def draw(
    spec: Seed002Spec,
    metrics: Mapping[str, Mapping[str, Any]],
    outputs: tuple[Path, Path, Path, Path, Path, Path],
    variant: str,
) -> str:
    """Figures, plotted numbers and the report text from the units' rows (``metrics``: unit ->
    ``{"rows": runs.csv rows}``). ``outputs``: makespan figure, IFER figure, sizes figure,
    plotted CSV, scheduling CSV, report. A spec without a parameter set draws the scheduling
    section only."""
    png, ifer_png, sizes_png, plotted, scheduling_csv, _ = outputs
    cases = {case: metrics[CASES + case.path]["rows"] for case in spec.cases()}
    rows = table.summarise(spec, cases)
    table.write_summary(rows, plotted)
    figure.plot(rows, png, f"Seed 002 (TWINS) on datasched ({variant})")
    figure_ifer.plot_ifer(rows, ifer_png, f"Seed 002 IFER (2 × 64 processes) on datasched ({variant})")
    figure_sizes.plot_sizes(rows, sizes_png, f"Seed 002 request sizes on datasched ({variant})")
    runs_order = spec.scheduling.runs() if spec.scheduling is not None else []
    runs = scheduling.parse_rows([r for c, s in runs_order for r in metrics[scheduling_unit(c, s)]["rows"]])
    scheduling.write_rows(scheduling_csv, runs)
    section = scheduling.report_section(spec.scheduling, runs)
    return report.format_report(rows, spec, variant, png.name, scheduling=section)


def build(
    spec: Seed002Spec,
    outputs: tuple[Path, Path, Path, Path, Path, Path],
    variant: str,
    *,
    accumulate: bool,
    sims: Path,
) -> int:
    """Seed 002's artifact (``outputs`` as in :func:`draw`) from the simulations under ``sims``
    (the quick variant) or from the committed summaries beside the report (an accumulating full
    variant: the complete blocks only, the report saying how many units are in; with no complete
    parameter set, placeholders). Returns the number of units drawn."""
    png, ifer_png, sizes_png, plotted, scheduling_csv, report_md = outputs
    title = f"Seed 002 (TWINS) on datasched ({variant})"
    pending = False

    def drawn(judged: Any, metrics: Mapping[str, Mapping[str, Any]]) -> str:
        nonlocal pending
        if not judged.parameter_sets():  # only the scheduling runs are complete
            pending = True
            write_pending(png, plotted, report_md, title, table.SUMMARY_COLUMNS, "")
            return f"# {title}\n"
        return draw(judged, metrics, outputs, variant)

    count = write_artifact_files(
        "seed002_twins",
        spec,
        (png, plotted, report_md),
        accumulate=accumulate,
        sims=sims,
        title=title,
        columns=table.SUMMARY_COLUMNS,
        draw=drawn,
    )
    if pending or count == 0:  # the placeholders: the other figures and the scheduling CSV too
        for other in (ifer_png, sizes_png):
            other.write_bytes(png.read_bytes())
        scheduling.write_rows(scheduling_csv, [])
    return count
