"""The seed-003 artifact's steps on a tiny sweep: every case simulated
(analysis/seed003_qos.run_case), reported, plotted; the same twice (byte-identical)."""

from __future__ import annotations

import pytest

from datasched.analysis import seed003_qos as qos

pytestmark = [pytest.mark.engine, pytest.mark.slow]


def test_tiny_sweep_rows_report_and_figure(tmp_path):
    spec = qos.parse_spec(
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
        for case in spec.cases():
            out = tmp_path / attempt / case.path / "runs.csv"
            qos.run_case(spec, case, out.parent, out)
            csvs.append(out)
        outputs[attempt] = [p.read_bytes() for p in csvs]
        rows = qos.read_rows(csvs)
    assert outputs["a"] == outputs["b"]
    benches = {r["bench"] for r in rows}
    kinds = ("latency", "bandwidth", "bibw", "alltoall", "allreduce")
    assert benches == {"stencil", "cg", *kinds, *(f"weights-{k}" for k in kinds)}
    e = qos.effects(rows, 4e9, 65536.0)
    # A network-bound noise on SL0 slows a 4 MiB message; on SL1 (strict) at most by pieces.
    assert e.latency_sl0_us > 100 and 0 <= e.latency_sl1_us < e.latency_sl0_us
    # The collectives' largest size here is 1 KiB (sizes above 1 MiB are point-to-point only).
    assert {r["size"] for r in rows if r["bench"] == "alltoall"} == {1024}
    assert qos.weights_spread(rows) == dict.fromkeys(kinds, 0.0)  # SL1 and SL7: identical
    report = qos.format_report(rows, spec, "test", "f.png")
    (row,) = [line for line in report.splitlines() if "I/O on SL1 … SL7 (weights 2 … 128): no difference" in line]
    assert "spread latency 0.00 µs, bandwidth 0.00 MB/s, bibw 0.00 MB/s" in row, row
    assert row.endswith("| reproduced | all 5 parts |"), row
    assert "## Why ours differ" in report
    assert "every run used SimGrid's fair_bottleneck solver" in report
    png = qos.plot(rows, spec, tmp_path / "f.png", "test")
    assert png.stat().st_size > 10_000
