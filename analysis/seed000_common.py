"""What the seed-000 artifacts share: a verdict row, the engine's node count of a
platform, per-run means of a multi-application run, and the report's claims table."""

from __future__ import annotations

import csv
import json
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Verdict:
    """One of the paper's stated results beside ours."""

    claim: str
    paper: str
    ours: str
    verdict: str  # reproduced [in magnitude | in direction] | partly | not reproduced


def claims_table(verdicts: Sequence[Verdict]) -> list[str]:
    """The report's Markdown table of claims."""
    return [
        "| claim | paper | ours | verdict |",
        "|---|---|---|---|",
        *(f"| {v.claim} | {v.paper} | {v.ours} | {v.verdict} |" for v in verdicts),
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
