"""Paired comparisons of settings over workload seeds, for the scheduling artifacts that are not a
paper's figure (storage daemons on the nodes, burst buffers in front of the SAN).

Each seed's workload is compared against itself under the other setting, so the spread between
workloads does not hide the difference between settings: the ratio of the two mean total times,
per seed, then its mean and 95 % t interval over the seeds. A report reads one word from each
ratio by a stated rule: *faster* / *slower* when the interval lies wholly below / above 1, else
*no clear difference*."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable, Mapping, MutableMapping, Sequence
from typing import Any, TypeVar

from datasched.analysis.stats import MeanCI, mean_ci95

Run = TypeVar("Run", bound=Hashable)

#: the words of the rule, in the order a count lists them
WORDS = ("faster", "slower", "no clear difference")


def paired_ratio(
    results: Mapping[Run, tuple[float, float]], runs: Sequence[Run], partners: Sequence[Run]
) -> MeanCI | None:
    """Mean total time of each run over its partner's (same seed), summarised over the seeds;
    None when the partners are the runs themselves or one of them was not run."""
    if list(partners) == list(runs) or any(p not in results for p in partners):
        return None
    return mean_ci95([results[r][0] / results[p][0] for r, p in zip(runs, partners, strict=True)])


def partners_of(runs: Sequence[Run], field: str, value: Any) -> list[Run]:
    """Each run (a dataclass) with ``field`` set to ``value``: the other side of a comparison."""
    change = {field: value}
    return [dataclasses.replace(run, **change) for run in runs]  # type: ignore[type-var]


def ratio_columns(name: str) -> tuple[str, str, str]:
    """The plotted CSV's columns of comparison ``name``: mean and interval."""
    return name, f"{name}_ci95_low", f"{name}_ci95_high"


def put_ratio(row: MutableMapping[str, Any], name: str, ratio: MeanCI | None) -> None:
    """Writes ``ratio`` into ``row``'s columns of comparison ``name`` (empty when not compared)."""
    mean, low, high = ratio_columns(name)
    row[mean] = ratio.mean if ratio else ""
    row[low] = ratio.low if ratio else ""
    row[high] = ratio.high if ratio else ""


def ratio_word(row: Mapping[str, Any], name: str) -> str | None:
    """Comparison ``name`` of ``row`` by the rule; None when not compared or from one seed (no
    interval)."""
    if row[name] == "" or row["n_seeds"] < 2:
        return None
    high, low = row[f"{name}_ci95_high"], row[f"{name}_ci95_low"]
    return "faster" if high < 1 else "slower" if low > 1 else "no clear difference"


def ratio_text(row: Mapping[str, Any], name: str) -> str:
    """Comparison ``name`` of ``row`` for a report's table: mean, interval and the rule's word."""
    if row[name] == "":
        return "—"
    word = ratio_word(row, name)
    if word is None:
        return f"{row[name]:.3f} (one seed)"
    return f"{row[name]:.3f} [{row[f'{name}_ci95_low']:.3f}, {row[f'{name}_ci95_high']:.3f}] *{word}*"


def count_line(rows: Iterable[Mapping[str, Any]], name: str, what: str) -> str | None:
    """One line of a report's summary: how comparison ``name`` came out over ``rows`` (None when
    none of them has a word)."""
    words = [w for w in (ratio_word(r, name) for r in rows) if w]
    if not words:
        return None
    counts = ", ".join(f"{words.count(w)} *{w}*" for w in WORDS)
    return f"- {what}: {counts} of {len(words)} paired comparisons;"
