"""Seed 001 WfCommons sweep: which runs a config makes and the NVM peak it reads."""

from __future__ import annotations

from pathlib import Path

from datasched.analysis import seed001_wfcommons as wf


def spec() -> wf.WfSweepSpec:
    return wf.parse_spec(
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
    assert wf.peak_occupancy(rows) == (6.0, 5.0)
    assert wf.peak_occupancy([]) == (0.0, 0.0)
