"""What the seed-000 artifacts share: a verdict row, the engine's node count of a
platform, per-run means of a multi-application run, and the report's claims table."""

from __future__ import annotations

import csv
import json
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.stats import mean_ci95
from datasched.analysis.verdicts import Judgement


@dataclass(frozen=True)
class Verdict:
    """One of the paper's stated results beside ours; ``judgement`` comes from
    :mod:`datasched.analysis.verdicts` (the one set of rules every artifact uses) and ``key``
    is the claim's id in the seed's claims file (``paper-artifacts/claims/``), which the
    scoreboard reads back from the report's table."""

    key: str
    claim: str
    paper: str
    ours: str
    judgement: Judgement


def claims_table(verdicts: Sequence[Verdict]) -> list[str]:
    """The report's Markdown table of claims (the scoreboard parses it: keep one row per claim)."""
    return [
        "| key | claim | paper | ours | verdict | why |",
        "|---|---|---|---|---|---|",
        *(f"| {v.key} | {v.claim} | {v.paper} | {v.ours} | {v.judgement.word} | {v.judgement.why} |" for v in verdicts),
    ]


def verdict_rules() -> list[str]:
    """The report's paragraph on the verdict words (one text for every artifact)."""
    return [
        "Verdicts follow one set of rules for every artifact (`analysis/verdicts.py`): *reproduced* = same sign",
        "as the paper, magnitude within 0.5×–2× of the paper's and the 95 % interval over seeds excluding 0 (a",
        "claim the paper states as a direction only: same sign, interval excluding 0); *in direction* = same sign",
        "and interval excluding 0, another magnitude; *not reproduced* = opposite sign, interval excluding 0, or",
        "an interval including 0 that ends below 0.5× the paper's effect (the paper's effect is excluded);",
        "*inconclusive* = the interval includes 0 and reaches 0.5× the paper's effect; *consistent for some",
        "parameter* = holds at some swept value of a parameter the paper does not give, while no single parameter",
        "set satisfies every claim of the figure; *by construction* = follows from an input definition; *missing*",
        "= not produced.",
    ]


def compute_nodes(platform: Path) -> int:
    """The platform's compute nodes, as the engine counts them (``datasched-sim --inspect``)."""
    from datasched.engine import find_engine

    out = subprocess.run(
        [str(find_engine()), "-p", str(platform), "--inspect"], capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        raise RuntimeError(f"{platform}: {out.stderr.strip() or 'datasched-sim --inspect failed'}")
    return int(json.loads(out.stdout)["nb_compute_resources"])


def run_means(jobs_csv: Path) -> tuple[float, float]:
    """(mean total time, mean waiting time) of one run's applications; every one must
    have completed (a killed or failed application would make the mean meaningless)."""
    with open(jobs_csv, newline="") as handle:
        rows = list(csv.DictReader(handle))
    bad = [r["job_id"] for r in rows if r["final_state"] != "COMPLETED_SUCCESSFULLY"]
    if bad or not rows:
        raise RuntimeError(f"{jobs_csv}: applications {bad or '(none)'} did not complete")
    total = sum(float(r["turnaround_time"]) for r in rows) / len(rows)
    wait = sum(float(r["waiting_time"]) for r in rows) / len(rows)
    return total, wait


def path_fields(path: str) -> dict[str, str]:
    """``"a=1/b=x"`` -> ``{"a": "1", "b": "x"}`` (the artifacts' result paths)."""
    return dict(part.split("=", 1) for part in path.split("/"))


def multi_application_params(
    seed: int, n_apps: int, n_phases: int, nb_nodes: int, *, san_k: int, staging: str
) -> dict[str, Any]:
    """The markov generator's parameters for Figures 8 and 9: Table 1's multi-application
    column over the whole system (Tasks ~ U{1..nb_nodes}), every application drawn as
    Internal (so each has an STG-k; storage policies override the allocation), all at
    t = 0, no walltime, staging over the first ``san_k`` servers."""
    return {
        "kind": "multi",
        "seed": seed,
        "n_apps": n_apps,
        "max_tasks": nb_nodes,
        "allocations": ["internal"],
        "san_k_choices": [san_k],
        "staging": staging,
        "walltime_factor": None,
        "sizes": {"n_phases": n_phases},
    }


def write_rows(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], path: Path) -> Path:
    """A plotted-numbers CSV: floats as ``%.6f`` (as Batsim's CSVs), the rest as they are."""
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{v:.6f}" if isinstance(v, float) else v) for k, v in row.items()})
    return path


def run_settings(data: Mapping[str, Any]) -> dict[str, Any]:
    """How a multi-application artifact runs its simulations (config keys shared by
    Figures 8 and 9, with their defaults): queue policy, allocation, traffic policy and
    the engine's all-to-all mode."""
    return {
        "scheduler": str(data.get("scheduler", "fcfs")),
        "allocation": str(data.get("allocation", "sequential")),
        "traffic_policy": str(data.get("traffic_policy", "np")),
        "ipc_fanout": int(data.get("ipc_fanout", 0)),
    }


#: The per-group columns of :func:`seed_summary`, in the plotted CSVs' order.
SUMMARY_COLUMNS = ("n_seeds", "mean_total_s", "ci95_low_s", "ci95_high_s", "mean_wait_s")


def seed_summary(values: Sequence[tuple[float, float]]) -> dict[str, Any]:
    """One group's (mean total, mean wait) per seed summarised: the mean total time with
    its 95 % t interval over the seeds, and the mean waiting time."""
    ci = mean_ci95([v[0] for v in values])
    return {
        "n_seeds": len(values),
        "mean_total_s": ci.mean,
        "ci95_low_s": ci.low,
        "ci95_high_s": ci.high,
        "mean_wait_s": sum(v[1] for v in values) / len(values),
    }
