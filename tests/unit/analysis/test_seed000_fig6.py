"""Seed 000 Figure 6's sweep, table and verdicts (analysis/seed000/fig6/)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from datasched.analysis.seed000.fig6 import claims as fig6_claims
from datasched.analysis.seed000.fig6 import report as fig6_report
from datasched.analysis.seed000.fig6 import spec as fig6_spec
from datasched.analysis.seed000.fig6 import table as fig6_table
from datasched.analysis.verdicts import Word

SPEC = fig6_spec.Fig6Spec(
    Path("p.xml"),
    tasks=72,
    n_phases=10,
    seed=1,
    stg_k=(1, 4, 16, 64),
    mem_levels=(0.0, 50.0, 100.0),
    remote_levels=(0.0, 50.0, 100.0),
)


def test_runs_cover_both_panels_once_each():
    runs = SPEC.runs()
    # 6 storages x (3 memory levels + 3 remote levels - the shared (50, 50)) x 2 access types,
    # plus Affinity with spread devices for the 4 STG-k
    assert len(runs) == 6 * 5 * 2 + 4 * 5 == len(set(runs))
    assert (
        fig6_spec.Fig6Run("stg-4", 50.0, 50.0, "As") in runs
        and fig6_spec.Fig6Run("cache", 50.0, 50.0, "As") not in runs
    )
    assert fig6_spec.Fig6Run("stg-4", 50.0, 50.0, "A") in runs
    assert all(r.remote == 50.0 or r.mem == 50.0 for r in runs)


def test_run_paths_round_trip_and_give_the_markov_parameters():
    run = fig6_spec.Fig6Run("stg-16", 25.0, 50.0, "A")
    assert fig6_spec.Fig6Run.from_path(run.path) == run
    params = run.markov_params(SPEC)
    assert (params["allocation"], params["stg_k"], params["access"], params["san_k"]) == ("internal", 16, "A", 4)
    assert "stg_k" not in fig6_spec.Fig6Run("cache", 0.0, 50.0, "D").markov_params(SPEC)
    spread = fig6_spec.Fig6Run("stg-16", 25.0, 50.0, "As")
    assert spread.markov_params(SPEC)["access"] == "A"
    assert spread.scheduler_options() == {"storage": {"name": "internal", "placement": "spread"}}
    assert run.scheduler_options() == {}


def synthetic(affinity_gain: float = 0.1, stg1_slowest: bool = True, unmapped_change: float = 0.0) -> list[dict]:
    """A table shaped like the paper's claims: fewer hits and more remote accesses cost,
    more devices help, CACHE best, Affinity helps STG-4..16 by ``affinity_gain`` and changes
    STG-1, CACHE and SAN by ``unmapped_change`` (0: the same runs, as in our model)."""
    results = {}
    for run in SPEC.runs():
        k = 64 if run.storage == "cache" else int(run.storage.removeprefix("stg-")) if run.storage != "san" else 8
        remote = 0.0 if run.storage in ("cache", "san") else run.remote
        base = (110 - run.mem) * (1 + remote / 10 / k) + (1 if run.storage != "cache" else 0)
        if not stg1_slowest and run.storage == "stg-4":
            base *= 1000
        if run.access.startswith("A") and run.storage in ("stg-4", "stg-16") and run.mem < 100 and remote > 0:
            base *= 1 - affinity_gain
        if run.access.startswith("A") and run.storage in ("stg-1", "cache", "san"):
            base *= 1 + unmapped_change
        results[run] = base
    return fig6_table.table_rows(results)


def test_verdicts_reproduce_a_table_that_has_the_papers_shape():
    verdicts = {v.key: v for v in fig6_claims.verdicts(synthetic(affinity_gain=0.2, unmapped_change=0.002))}
    # STG-64 is only ~8 % slower than CACHE in this table: the paper's "severely" (read as ~20 %) is not met
    assert verdicts.pop("fig6.stg64-vs-cache").judgement.word is Word.IN_DIRECTION
    assert [v.judgement.word for v in verdicts.values()] == [Word.REPRODUCED] * len(verdicts), verdicts
    text = fig6_report.format_report(synthetic(affinity_gain=0.2, unmapped_change=0.002), "set-up", "fig.png")
    assert text.count("| reproduced |") == len(verdicts) and "![Figure 6](fig.png)" in text
    assert "`../fig7-*/`" in text and "`../fig10-*/`" in text  # the other figures: where they are


def test_no_gain_where_affinity_and_disperse_are_the_same_runs_is_by_construction():
    """STG-1, CACHE and SAN: identical run times at every point mean the two mappings were the same
    simulation, which is no evidence for the paper's "no gain" (by construction, never counted as
    reproduced); a change of 0.2 % is a measured no-effect within ±1 % (reproduced), of 3 % not."""
    for change, expected in ((0.0, Word.BY_CONSTRUCTION), (0.002, Word.REPRODUCED), (0.03, Word.NOT_REPRODUCED)):
        verdicts = {v.key: v.judgement.word for v in fig6_claims.verdicts(synthetic(unmapped_change=change))}
        assert [verdicts[f"fig6.no-gain-{s}"] for s in ("stg-1", "cache", "san")] == [expected] * 3, (change, verdicts)


def test_a_gain_far_below_the_papers_20_percent_is_only_in_direction():
    """The old rule called any gain above 1 % "partly"; a 5 % gain is 0.25x of the paper's."""
    verdict = next(v for v in fig6_claims.verdicts(synthetic(affinity_gain=0.05)) if "Affinity improves" in v.claim)
    assert verdict.judgement.word is Word.IN_DIRECTION


@pytest.mark.parametrize(
    ("table", "claim"),
    [
        (synthetic(affinity_gain=-0.5), "Affinity improves"),
        (synthetic(stg1_slowest=False), "worst case is one NVM"),
    ],
)
def test_verdicts_say_when_a_claim_does_not_hold(table, claim):
    verdict = next(v for v in fig6_claims.verdicts(table) if claim in v.claim)
    assert verdict.judgement.word is Word.NOT_REPRODUCED, verdict


def test_the_plotted_csv_has_every_row_with_six_decimals(tmp_path):
    rows = synthetic()
    with open(fig6_table.write_table(rows, tmp_path / "t.csv"), newline="") as handle:
        written = list(csv.DictReader(handle))
    assert [tuple(w) for w in written] == [fig6_table.COLUMNS] * len(rows)
    assert [(w["storage"], float(w["mem_hit_pct"]), w["access"]) for w in written] == [
        (r["storage"], r["mem_hit_pct"], r["access"]) for r in rows
    ]
    assert [w["runtime_s"] for w in written] == [f"{r['runtime_s']:.6f}" for r in rows]
