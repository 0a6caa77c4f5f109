"""The seed-004 artifact's steps on a tiny sweep: every run of each case simulated
(analysis/seed004/runs.run_case), summarised, reported and plotted; the same twice."""

from __future__ import annotations

import pytest

from datasched.analysis.seed004 import figure, report, runs, spec, table

pytestmark = [pytest.mark.engine, pytest.mark.slow]


def test_tiny_sweep_summary_report_and_figure(tmp_path):
    sweep = spec.parse_spec(
        {
            "sizes": [16],
            "configurations": ["hpl-only", "single", "lustre"],
            "placements": ["all", "io_nodes"],
            "node_models": ["pinned"],
            "request_costs_us": [1, 10],
            "idle_fractions": [0.01],
            "idle_periods": [0.1],
            "iterations": 2,
            "seeds": [1],
        }
    )
    outputs = {}
    for attempt in ("a", "b"):
        cases = {}
        for case in sweep.cases():
            out = tmp_path / attempt / case.path / "runs.csv"
            assert runs.run_case(sweep, case, out.parent, out) == len(case.runs(sweep))
            cases[case] = out
        outputs[attempt] = {c: p.read_bytes() for c, p in cases.items()}
    assert outputs["a"] == outputs["b"]  # byte-identical
    rows = table.summarise(cases)
    single = {(r["placement"], r["request_cost_us"]): r["slowdown_pct"] for r in rows if r["configuration"] == "single"}
    # More service work, more slowdown; no service on HPL nodes, no slowdown.
    assert single[("all", 10.0)] > single[("all", 1.0)] > 0
    assert single[("io_nodes", 1.0)] == single[("io_nodes", 10.0)] == 0
    idle = next(r for r in rows if r["configuration"] == "hpl-only" and r["idle_fraction"] > 0)
    assert idle["slowdown_pct"] > 0
    text = report.format_report(rows, sweep, "test", "f.png")
    assert "| one IOR node next to HPL (HPL slowdown) | +7–13 % |" in text
    assert "The daemon CPU costs are not in the paper" in text
    png = figure.plot(rows, sweep, tmp_path / "f.png", "test")
    assert png.stat().st_size > 10_000
