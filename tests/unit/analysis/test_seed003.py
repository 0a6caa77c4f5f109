"""Seed 003's artifact logic without the engine: case paths, verdict rule, effects, spec parsing."""

from __future__ import annotations

import math

import pytest

from datasched.analysis.seed003 import claims, spec, table
from datasched.analysis.verdicts import VerdictError, Word


def _spec(**over):
    data = {
        "ssd_write_bw": [1e9, 4e9],
        "granularity": [65536],
        "sizes": [1, 4194304],
        "latency_iterations": 2,
        "bandwidth_iterations": 1,
        "stencil_iterations": 2,
        "stencil_compute": [0.001],
        "cg_iterations": 2,
    }
    return spec.parse_spec(data | over)


def test_cases_and_paths_round_trip():
    cases = _spec().cases()
    assert [c.bench for c in cases].count("weights") == 1  # weights only at the headline SSD and g
    assert len(cases) == 2 * 4 + 1  # micro, collective, stencil, cg per SSD; weights once
    for case in cases:
        assert spec.Case.from_path(case.path) == case


def test_a_one_mebibyte_granularity_names_its_case_exactly():
    """``{g:g}`` wrote 1048576 as 1.04858e+06, read back as 1048580: every 1 MiB lookup was NaN."""
    sweep = _spec(granularity=[65536, 1048576])
    assert {c.granularity for c in sweep.cases()} == {65536.0, 1048576.0}
    for case in sweep.cases():
        assert spec.Case.from_path(case.path).granularity == case.granularity


def _effects(lat0, awp0, ssd=1e9):
    return table.Effects(ssd, 65536.0, lat0, 80.0, -700.0, 674.0, 250.0, 15.0, 32.77, 9.31, ((0.001, 0.5, awp0, 8.0),))


NO_SPREAD = dict.fromkeys(table.WEIGHT_PARTS, 0.0)


def test_the_sweep_needs_one_set_for_every_claim():
    """Latency fits at SSD 1 GB/s, AWP at 4 GB/s: neither set fits both, so both are only consistent."""
    words = {v.key: v.judgement for v in claims.verdicts([_effects(400, 1.0), _effects(2000, 17.9, 4e9)], NO_SPREAD)}
    assert words["qos.latency-sl0"].word is Word.CONSISTENT_FOR_SOME and "SSD 1 GB/s" in words["qos.latency-sl0"].why
    assert words["qos.awp-sl0"].word is Word.CONSISTENT_FOR_SOME and "SSD 4 GB/s" in words["qos.awp-sl0"].why
    assert words["qos.latency-sl1"].word is Word.CONSISTENT_FOR_SOME  # reproduced at both sets, jointly at none


def test_a_nan_effect_is_an_error():
    with pytest.raises(VerdictError):
        claims.verdicts([_effects(math.nan, 17.9)], NO_SPREAD)


def _row(bench, noise, **values):
    base = {"bench": bench, "ssd": 1e9, "granularity": 65536.0, "noise": noise, "compute": 0.0, "size": 0}
    base.update(latency=math.nan, bandwidth=math.nan, runtime=math.nan, comm=math.nan, solver="x", max_flows=1)
    return base | values


def test_effects_are_differences_against_no_io():
    """Latency and bandwidth differences at the largest size; CG and stencil in % of no I/O."""
    big = 4194304
    rows = [
        _row("latency", "none", size=big, latency=1.0e-3),
        _row("latency", "0", size=big, latency=1.4e-3),
        _row("latency", "1", size=big, latency=1.08e-3),
        _row("bandwidth", "none", size=big, bandwidth=3.0e9),
        _row("bandwidth", "0", size=big, bandwidth=2.3e9),
        _row("bandwidth", "1", size=big, bandwidth=2.974e9),
        _row("alltoall", "none", size=1 << 20, latency=1.0e-3),
        _row("alltoall", "0", size=1 << 20, latency=1.25e-3),
        _row("alltoall", "1", size=1 << 20, latency=1.015e-3),
        _row("cg", "none", comm=1.0),
        _row("cg", "0", comm=1.3277),
        _row("cg", "1", comm=1.0931),
        _row("stencil", "none", compute=0.001, runtime=2.0, comm=1.0),
        _row("stencil", "0", compute=0.001, runtime=2.358),
        _row("stencil", "1", compute=0.001, runtime=2.16),
    ]
    e = table.effects(rows, 1e9, 65536.0)
    assert e.latency_sl0_us == pytest.approx(400) and e.latency_sl1_us == pytest.approx(80)
    assert e.bandwidth_sl0_mbs == pytest.approx(-700) and e.bandwidth_recovered_mbs == pytest.approx(674)
    assert e.alltoall_sl0_us == pytest.approx(250) and e.alltoall_sl1_us == pytest.approx(15)
    assert e.cg_sl0_pct == pytest.approx(32.77) and e.cg_sl1_pct == pytest.approx(9.31)
    assert len(e.awp) == 1 and e.awp[0] == pytest.approx((0.001, 0.5, 17.9, 8.0))
    verdicts = claims.verdicts([e], NO_SPREAD)
    assert all(v.judgement.word is Word.REPRODUCED for v in verdicts), verdicts
