"""Full variants that accumulate: one committed summary per simulation, the figure from
whatever is committed.

A full variant costs CPU hours to tens of CPU hours; nobody runs it in one sitting on a
laptop, and on a cluster a sweep may be cut by a time limit. So an accumulating artifact
(``accumulate:`` in the config) keeps, for each *unit* (one Snakemake simulation job), a small
summary — the numbers its figure needs, never raw traces — as a stable file under the
artifact's folder, ``<dir>/runs/<unit path>.json``, which is committed. A later sitting, on any
machine, runs only the units without a summary (:func:`next_slice`), and the figure and report
are rebuilt from the summaries present (:func:`load`), saying how many of the planned units are
in (:meth:`Progress.line`).

Partial results must not bias the figure: units are run in *blocks* (a workload seed of Fig. 8
or 9, an HPL size of seed 004; :class:`Accumulating`), and the figure is drawn from the complete
blocks only, through the artifact's own spec restricted to them — so a figure from k complete
seeds is exactly the figure a config with those k seeds gives.

A summary records the digest of the spec it was computed under (:func:`spec_digest`); one whose
digest differs from the current config's (the section was edited since) is *stale*: not used,
counted, and run again. It also records the CPU seconds the unit took (measured, so not
reproducible; nothing derived reads it except the slice planner and the progress line's total).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.spec_stamp import canonical
from datasched.errors import UserError

#: The committed summaries' folder inside an artifact's folder.
RUNS_DIR = "runs"


def cpu_seconds() -> float:
    """CPU seconds of this process and its waited-for children (the engine and the decision
    process of a simulation) so far."""
    import resource

    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def write_cost(path: str | Path, cpu_s: float) -> Path:
    """A simulation job's measured CPU seconds, beside its outputs (read by its summary)."""
    target = Path(path)
    target.write_text(json.dumps({"cpu_s": round(cpu_s, 1)}) + "\n")
    return target


def read_cost(path: str | Path) -> float:
    try:
        return float(json.loads(Path(path).read_text())["cpu_s"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UserError(f"{path}: not a cost file ({exc})") from None


def spec_digest(spec: Any, repo_root: Path) -> str:
    """A short digest of ``spec``'s canonical JSON with the checkout's own path removed (specs
    hold absolute platform paths; the same config in another clone must give the same digest)."""
    text = canonical(spec).replace(str(repo_root) + "/", "")
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def summary_path(folder: str | Path, unit: str) -> Path:
    return Path(folder) / RUNS_DIR / f"{unit}.json"


def write_summary(path: str | Path, unit: str, digest: str, metrics: Mapping[str, Any], cpu_s: float) -> Path:
    """Atomically writes one unit's summary (floats keep every digit: JSON writes ``repr``)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    doc = {"unit": unit, "spec": digest, "metrics": dict(metrics), "cpu_s": round(float(cpu_s), 1)}
    partial = target.with_name(target.name + ".partial")
    partial.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    partial.replace(target)
    return target


@dataclass(frozen=True)
class Summary:
    unit: str
    digest: str
    metrics: Mapping[str, Any]
    cpu_s: float


def read_summary(path: Path) -> Summary:
    try:
        doc = json.loads(path.read_text())
        return Summary(str(doc["unit"]), str(doc["spec"]), doc["metrics"], float(doc["cpu_s"]))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UserError(f"{path}: not a run summary ({exc})") from None


@dataclass(frozen=True)
class Accumulating:
    """How one artifact accumulates: its units in run order, the block each belongs to, and its
    spec restricted to some complete blocks (``None`` when no block is complete)."""

    name: str
    units: Callable[[Any], list[str]]
    block: Callable[[str], Any]
    restrict: Callable[[Any, list[Any]], Any]
    unit_label: str = "runs"  # what a unit is called in reports ("cases" for seed 004)

    def ordered_units(self, spec: Any) -> list[str]:
        """Units block by block (blocks in their first appearance's order), so that every slice
        completes blocks before it starts new ones."""
        units = self.units(spec)
        first: dict[Any, int] = {}
        for unit in units:
            first.setdefault(self.block(unit), len(first))
        return sorted(units, key=lambda u: first[self.block(u)])  # stable: plan order within a block


@dataclass(frozen=True)
class Progress:
    name: str
    planned: int
    done: int
    stale: int
    blocks_used: tuple[Any, ...]
    blocks_planned: int
    cpu_s: float
    unit_label: str = "runs"

    def line(self, block_label: str) -> str:
        """The report's progress sentence (no measured time: reports stay reproducible)."""
        where = f"committed summaries in `{RUNS_DIR}/`"
        if self.done == self.planned and not self.stale:
            return f"**Complete: {self.done}/{self.planned} planned {self.unit_label}** ({where})."
        used = ", ".join(map(str, self.blocks_used)) or "none yet"
        text = (
            f"**Partial: {self.done}/{self.planned} planned {self.unit_label} are in** ({where}; "
            f"the rest run with `datasched reproduce --full --only {self.name} --max-cpu-hours H`, docs/cluster.md). "
            f"Figure and verdicts from the complete {block_label}s only: {used} "
            f"({len(self.blocks_used)}/{self.blocks_planned})."
        )
        if self.stale:
            many = self.stale != 1
            text += (
                f" {self.stale} {'summaries' if many else 'summary'} of an earlier configuration "
                f"{'are' if many else 'is'} ignored and will be rerun."
            )
        return text


@dataclass(frozen=True)
class Loaded:
    spec: Any  # restricted to the complete blocks; None when there is none
    metrics: dict[str, Mapping[str, Any]]  # unit -> metrics, of the complete blocks only
    progress: Progress


def scan(acc: Accumulating, spec: Any, folder: str | Path, digest: str) -> tuple[dict[str, Summary], int]:
    """The planned units' current summaries in ``folder`` and the number of stale ones."""
    found: dict[str, Summary] = {}
    stale = 0
    for unit in acc.units(spec):
        path = summary_path(folder, unit)
        if not path.is_file():
            continue
        summary = read_summary(path)
        if summary.unit != unit:
            raise UserError(f"{path}: holds unit {summary.unit!r}, expected {unit!r}")
        if summary.digest == digest:
            found[unit] = summary
        else:
            stale += 1
    return found, stale


def load(acc: Accumulating, spec: Any, folder: str | Path, digest: str) -> Loaded:
    """The committed summaries of the complete blocks, and the progress over the whole plan."""
    units = acc.ordered_units(spec)
    found, stale = scan(acc, spec, folder, digest)
    blocks = list(dict.fromkeys(acc.block(u) for u in units))
    complete = [b for b in blocks if all(u in found for u in units if acc.block(u) == b)]
    restricted = acc.restrict(spec, complete) if complete else None
    used = set(acc.units(restricted)) if restricted is not None else set()
    progress = Progress(
        name=acc.name,
        planned=len(units),
        done=len(found),
        stale=stale,
        blocks_used=tuple(complete),
        blocks_planned=len(blocks),
        cpu_s=math.fsum(s.cpu_s for s in found.values()),
        unit_label=acc.unit_label,
    )
    return Loaded(restricted, {u: found[u].metrics for u in units if u in used}, progress)


def estimate_cpu_s(unit: str, measured: Mapping[str, float], default: float) -> float:
    """A unit's expected CPU seconds: the mean of the measured units that differ from it in the
    last path field only (usually the seed); without any, the larger of ``default`` (the
    variant's documented average) and the mean of every measured unit (a unit of a new group,
    e.g. seed 004's next HPL size, usually costs more than the small ones measured before it,
    and a budget is better undershot than overrun)."""
    group = unit.rsplit("/", 1)[0]
    same = [s for u, s in measured.items() if u.rsplit("/", 1)[0] == group]
    if same:
        return math.fsum(same) / len(same)
    overall = math.fsum(measured.values()) / len(measured) if measured else 0.0
    return max(overall, default)


def next_slice(
    ordered: Sequence[str], measured: Mapping[str, float], budget_cpu_s: float | None, default_cpu_s: float
) -> list[str]:
    """The next units to run, in plan order: every missing one without a budget; with one, the
    longest prefix of the missing units whose estimated CPU time fits (at least one unit, so that
    every sitting makes progress)."""
    missing = [u for u in ordered if u not in measured]
    if budget_cpu_s is None:
        return missing
    chosen: list[str] = []
    spent = 0.0
    for unit in missing:
        cost = estimate_cpu_s(unit, measured, default_cpu_s)
        if chosen and spent + cost > budget_cpu_s:
            break
        chosen.append(unit)
        spent += cost
    return chosen


def replace(spec: Any, **changes: Any) -> Any:
    """``dataclasses.replace`` for the artifacts' frozen specs (a restricted spec)."""
    return dataclasses.replace(spec, **changes)


def with_progress(report: str, line: str) -> str:
    """The report with the progress sentence as its first paragraph after the title."""
    title, _, rest = report.partition("\n")
    return f"{title}\n\n{line}\n{rest}"


def write_pending(figure: Path, plotted: Path, report: Path, title: str, columns: Sequence[str], line: str) -> None:
    """The artifact's files while no block is complete: a figure saying so, the plotted CSV's
    header, and a report with the title and the progress sentence."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from datasched.analysis.style import save

    fig, ax = plt.subplots(figsize=(6, 2))
    ax.axis("off")
    ax.text(0.5, 0.5, "no complete block of runs committed yet", ha="center", va="center")
    fig.suptitle(title)
    save(fig, figure)
    plotted.write_text(",".join(columns) + "\n")
    report.write_text(f"# {title}\n\n{line}\n")


def load_artifact(name: str, spec: Any, folder: str | Path) -> tuple[Loaded, str]:
    """An accumulating artifact's committed summaries and its report's progress sentence."""
    from datasched.analysis.accumulating_artifacts import artifact
    from datasched.analysis.experiment_config import REPO_ROOT

    art = artifact(name)
    loaded = load(art.accumulating, spec, folder, spec_digest(spec, REPO_ROOT))
    return loaded, loaded.progress.line(art.block_label)


def artifact_metrics(
    name: str, spec: Any, folder: str | Path, *, accumulate: bool, sims: str | Path
) -> tuple[Any, dict[str, Mapping[str, Any]], str]:
    """An artifact's per-unit numbers, read the same way whether or not it accumulates:
    (spec, unit -> metrics, progress sentence). Accumulating: the committed summaries of the
    complete blocks, the spec restricted to them (``None`` when no block is complete). Otherwise:
    every planned unit's metrics computed from its simulation's result file under ``sims`` by
    the same function that writes a summary, the spec as given and no progress sentence."""
    from datasched.analysis.accumulating_artifacts import artifact

    if accumulate:
        loaded, line = load_artifact(name, spec, folder)
        return loaded.spec, dict(loaded.metrics), line
    art = artifact(name)
    return spec, {unit: art.metrics(Path(sims) / unit / art.result) for unit in art.accumulating.units(spec)}, ""


def write_artifact_files(
    name: str,
    spec: Any,
    outputs: tuple[Path, Path, Path],
    *,
    accumulate: bool,
    sims: str | Path,
    title: str,
    columns: Sequence[str],
    draw: Callable[[Any, Mapping[str, Mapping[str, Any]]], str],
) -> int:
    """An artifact's figure, plotted CSV and report (``outputs``: in that order) from its
    per-unit numbers (:func:`artifact_metrics`, summaries read beside the report):
    ``draw(spec, metrics)`` writes the figure and the plotted CSV and returns the report's text,
    which gets the progress sentence when the variant accumulates; with no complete block yet,
    the pending placeholders. Returns the number of units drawn."""
    png, plotted, report = outputs
    judged, metrics, progress = artifact_metrics(name, spec, report.parent, accumulate=accumulate, sims=sims)
    if judged is None:
        write_pending(png, plotted, report, title, columns, progress)
        return 0
    text = draw(judged, metrics)
    report.write_text(with_progress(text, progress) if progress else text)
    return len(metrics)
