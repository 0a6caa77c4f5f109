"""The seed-003 artifact's steps on a tiny sweep: every case simulated
(analysis/seed003_qos.run_case), reported, plotted; the same twice (byte-identical)."""

from __future__ import annotations

import pytest

from datasched.analysis.seed003 import figure, report, runs, spec, table

pytestmark = [pytest.mark.engine, pytest.mark.slow]


def test_tiny_sweep_rows_report_and_figure(tmp_path):
    sweep = spec.parse_spec(
        {
            "ssd_write_bw": [4e9],
            "granularity": [65536],
            "sizes": [1024, 4194304],
            "latency_iterations": 3,
            "bandwidth_iterations": 1,
            "window": 4,
            "weight_sls": [1, 7],
            "stencil_iterations": 3,
            "stencil_compute": [0.001],
            "cg_iterations": 3,
        }
    )
    outputs = {}
    for attempt in ("a", "b"):
        csvs = []
        for case in sweep.cases():
            out = tmp_path / attempt / case.path / "runs.csv"
            runs.run_case(sweep, case, out.parent, out)
            csvs.append(out)
        outputs[attempt] = [p.read_bytes() for p in csvs]
        rows = table.read_rows(csvs)
    assert outputs["a"] == outputs["b"]
    benches = {r["bench"] for r in rows}
    kinds = ("latency", "bandwidth", "bibw", "alltoall", "allreduce")
    assert benches == {"stencil", "cg", *kinds, *(f"weights-{k}" for k in kinds)}
    e = table.effects(rows, 4e9, 65536.0)
    # A network-bound noise on SL0 slows a 4 MiB message; on SL1 (strict) at most by pieces.
    assert e.latency_sl0_us > 100 and 0 <= e.latency_sl1_us < e.latency_sl0_us
    # The collectives' largest size here is 1 KiB (sizes above 1 MiB are point-to-point only).
    assert {r["size"] for r in rows if r["bench"] == "alltoall"} == {1024}
    assert table.weights_spread(rows) == dict.fromkeys(kinds, 0.0)  # SL1 and SL7: identical
    text = report.format_report(rows, sweep, "test", "f.png")
    (row,) = [line for line in text.splitlines() if "I/O on SL1 … SL7 (weights 2 … 128): no difference" in line]
    assert "spread latency 0.00 µs, bandwidth 0.00 MB/s, bibw 0.00 MB/s" in row, row
    assert row.endswith("| reproduced | all 5 parts |"), row
    assert "## Why ours differ" in text
    assert "every run used SimGrid's fair_bottleneck solver" in text
    png = figure.plot(rows, sweep, tmp_path / "f.png", "test")
    assert png.stat().st_size > 10_000
