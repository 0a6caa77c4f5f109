"""The seed-002 artifact's steps on a tiny sweep: every configuration and seed of one test
simulated (analysis/seed002/runs.run_case), summarised, reported; the same twice."""

from __future__ import annotations

import pytest

from datasched.analysis.seed002.report import format_report
from datasched.analysis.seed002.runs import run_case
from datasched.analysis.seed002.spec import CONFIGURATIONS, Seed002Spec
from datasched.analysis.seed002.table import read_case_rows, summarise
from datasched.platforms.catalog import catalog_path

pytestmark = [pytest.mark.engine, pytest.mark.slow]


def test_tiny_sweep_summary_and_report(tmp_path):
    spec = Seed002Spec(
        scale=4 / 1024,  # 128 KiB per process: 4 requests of 32 KiB
        patterns=("shared_strided",),
        operations=("read",),
        request_sizes=(32768,),
        configurations=tuple(CONFIGURATIONS),
        hdd_alpha=(0.1,),
        seeds=(1, 2),
        ifer_dt=(0.0,),
    )
    platform = catalog_path("seed002-forwarding")
    outputs = {}
    for attempt in ("a", "b"):
        cases = {}
        for case in spec.cases():
            out = tmp_path / attempt / case.path / "runs.csv"
            rows = run_case(spec, case, platform, out.parent, out)
            assert rows == len(spec.configurations) * len(spec.seeds) * (2 if case.kind == "ifer" else 1)
            cases[case] = out
        outputs[attempt] = {c: p.read_bytes() for c, p in cases.items()}
        summary = summarise(spec, {c: read_case_rows(p) for c, p in cases.items()})
    assert outputs["a"] == outputs["b"]  # byte-identical
    assert len(summary) == len(spec.cases()) * len(spec.configurations)
    # HBRR aggregates in a shared 1D-strided file; TWINS and FIFO never do.
    hbrr = next(r for r in summary if r["kind"] == "single" and r["configuration"] == "hbrr")
    fifo = next(r for r in summary if r["kind"] == "single" and r["configuration"] == "fifo")
    assert hbrr["mean_dispatch_size"] > 32768 and fifo["mean_dispatch_size"] == 32768
    report = format_report(summary, spec, "test", "f.png")
    assert (
        "| twins.strided-vs-no-forwarding | shared 1D-strided small reads: twins-8ms faster than no-forwarding |"
        in report
    )
    assert "IFER (2 × 64 processes" in report and "twins-8ms faster than fifo" in report
    assert "## What drives our numbers" in report
