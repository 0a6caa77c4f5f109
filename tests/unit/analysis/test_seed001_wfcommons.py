"""Seed 001 WfCommons sweep: which runs a config makes and the NVM peak it reads."""

from __future__ import annotations

from pathlib import Path

from datasched.analysis.seed001_wfcommons.measure import peak_occupancy
from datasched.analysis.seed001_wfcommons.spec import WfSweepSpec, parse_spec


def spec() -> WfSweepSpec:
    return parse_spec(
        {
            "apps": [{"name": "a", "instances": ["x.json", "y.json"]}],
            "variants": [
                {"name": "unaware", "policy": "workflow", "options": {"data_aware": False}},
                {"name": "aware", "policy": "workflow", "options": {"data_aware": True}, "needs_nvm": True},
            ],
            "platforms": ["scm", "san"],
            "styles": ["dependency"],
            "size_scales": [1, 10],
        },
        Path("/repo"),
    )


def test_variants_needing_nvm_run_only_on_scm():
    """2 instances x 2 scales x (scm: 2 variants + san: 1) = 12 runs."""
    runs = spec().runs()
    assert len(runs) == 12
    assert not [r for r in runs if r[2] == "san" and r[5].name == "aware"]
    assert runs[0][1] == Path("/repo/x.json")


def test_peak_occupancy_applies_one_dates_changes_together():
    """t=1: n0 4 GB; t=2: n0 1, n1 5 (total 6, one node 5); t=3: n1 0."""
    rows = [
        {"time": "1", "nvm": "n0", "used_bytes": "4"},
        {"time": "2", "nvm": "n0", "used_bytes": "1"},
        {"time": "2", "nvm": "n1", "used_bytes": "5"},
        {"time": "3", "nvm": "n1", "used_bytes": "0"},
    ]
    assert peak_occupancy(rows) == (6.0, 5.0)
    assert peak_occupancy([]) == (0.0, 0.0)


def test_summary_gives_the_mean_and_range_of_the_recorded_runs():
    """Three runs of one shape with T_all 10, 20, 90 s: mean 40 s, range [10..90] (a 95 % t
    interval, 40 -/+ 4.30 * 43.6 / sqrt(3), would reach below 0 s; it is not what is shown)."""
    from datasched.analysis.seed001_wfcommons.spec import METRICS
    from datasched.analysis.seed001_wfcommons.table import mean_range, summarise

    key = {"app": "a", "platform": "scm", "variant": "aware", "style": "dependency", "size_scale": 1.0}
    rows = [key | dict.fromkeys(METRICS, 0.0) | {"makespan": t} for t in (10.0, 20.0, 90.0)]
    (entry,) = summarise(rows)
    assert (entry["makespan"], entry["makespan_min"], entry["makespan_max"]) == (40.0, 10.0, 90.0)
    assert entry["instances"] == 3
    assert mean_range(entry, "makespan") == "40.0 [10.0..90.0]"
