"""Seed 002 (TWINS) artifact logic (analysis/seed002/): experiment documents, paths, intervals, claims."""

from __future__ import annotations

import dataclasses
import math

import pytest

from datasched.analysis.seed002.claims import best_set, gain, sweep_verdicts, verdicts
from datasched.analysis.seed002.figure import plot
from datasched.analysis.seed002.figure_ifer import plot_ifer
from datasched.analysis.seed002.figure_sizes import plot_sizes
from datasched.analysis.seed002.intervals import mean_ci, t_quantile
from datasched.analysis.seed002.report_tables import seek_movement_table
from datasched.analysis.seed002.runs import case_experiment, ifer_applications, paper_experiment
from datasched.analysis.seed002.spec import CONFIGURATIONS, CacheSetting, Case, Seed002Spec, parse_spec
from datasched.analysis.verdicts import VerdictError, Word
from datasched.errors import UserError

SPEC = Seed002Spec(
    scale=1 / 32,
    patterns=("shared_strided",),
    operations=("read", "write"),
    request_sizes=(32768,),
    configurations=tuple(CONFIGURATIONS),
    hdd_alpha=(0.1,),
    seeds=(1, 2),
    ifer_dt=(-0.5,),
)


def test_paper_experiment_has_the_papers_setup():
    """32 nodes x 4 processes, 4 forwarders, 4 servers, 32 MiB per process at scale 1."""
    doc = paper_experiment(
        scheduler="twins", window=0.008, pattern="shared_strided", operation="read", request_size=32768, seed=3
    )
    assert doc["clients"] == {"nodes": 32, "processes_per_node": 4}
    assert doc["forwarding"]["forwarders"] == 4 and doc["forwarding"]["window"] == 0.008
    assert doc["servers"]["count"] == 4
    (app,) = doc["applications"]
    assert app["processes"] * app["bytes_per_process"] == 4 * 2**30
    direct = paper_experiment(
        scheduler="direct", pattern="shared_strided", operation="read", request_size=32768, seed=3
    )
    assert direct["mode"] == "direct" and "forwarding" not in direct


def test_ifer_offsets_start_the_right_application_first():
    """dt > 0: A starts first (B at dt); dt < 0: B first (A at -dt)."""
    a, b = ifer_applications(dt=0.5, operation="read", request_size=32768, scale=1, jitter=0)
    assert (a["start"], b["start"]) == (0.0, 0.5) and a["processes"] == b["processes"] == 64
    a, b = ifer_applications(dt=-0.5, operation="read", request_size=32768, scale=1, jitter=0)
    assert (a["start"], b["start"]) == (0.5, 0.0)


def test_case_paths_round_trip():
    for case in SPEC.cases():
        assert Case.from_path(case.path) == case
    assert len(SPEC.cases()) == 2 + 1


def test_t_quantiles_match_the_tables():
    """t(0.975, 1) = 12.706, t(0.975, 7) = 2.365 (tabulated); t(0.9985, 7) = 4.44."""
    assert t_quantile(0.975, 1) == pytest.approx(12.706, abs=2e-3)
    assert t_quantile(0.975, 7) == pytest.approx(2.365, abs=2e-3)
    assert t_quantile(0.9985, 7) == pytest.approx(4.44, abs=0.01)
    mean, half = mean_ci([1.0, 3.0])
    assert mean == 2 and half == pytest.approx(t_quantile(0.9985, 1) * math.sqrt(2) / math.sqrt(2))


def _rows(times: dict[str, float], ci997: float = 0.5, **key) -> list[dict]:
    base = {
        "kind": "single",
        "pattern": "shared_strided",
        "operation": "read",
        "request_size": 32768,
        "hdd_alpha": 0.1,
        "dt": 0.0,
        "runs": 8,
    } | key
    return [base | {"configuration": c, "makespan_mean": t, "makespan_ci997": ci997} for c, t in times.items()]


def _both(strided: dict[str, float], contiguous: dict[str, float], alpha: float = 0.1) -> list[dict]:
    return _rows(strided, hdd_alpha=alpha) + _rows(contiguous, pattern="shared_contiguous", hdd_alpha=alpha)


PAPER_LIKE = (
    {"no-forwarding": 50.0, "fifo": 35.0, "twins-8ms": 25.0},
    {"no-forwarding": 50.0, "fifo": 35.0, "twins-1ms": 28.0},
)


def test_gain_and_verdicts():
    """Gain = 100 (T_other − T_twins) / T_other: 50 -> 25 s is 50 %; judged by analysis/verdicts.py."""
    rows = _both(*PAPER_LIKE)
    got = gain(rows, "twins-8ms", "no-forwarding", pattern="shared_strided")
    assert got is not None and got[0] == pytest.approx(50)
    words = {v.claim: v.judgement.word for v in verdicts(rows, 0.1, 32768)}
    assert words["shared 1D-strided small reads: twins-8ms faster than no-forwarding"] is Word.REPRODUCED
    assert words["shared 1D-strided small reads: twins-8ms faster than fifo"] is Word.REPRODUCED  # 28.6 %
    noisy = _rows(PAPER_LIKE[0], ci997=20.0) + _rows(PAPER_LIKE[1], pattern="shared_contiguous")
    words = {v.claim: v.judgement.word for v in verdicts(noisy, 0.1, 32768)}
    assert words["shared 1D-strided small reads: twins-8ms faster than fifo"] is Word.INCONCLUSIVE


def test_a_missing_case_is_an_error_not_a_dropped_row():
    with pytest.raises(VerdictError):
        # the contiguous pattern was run, but its TWINS 1 ms case is absent
        verdicts(_rows(PAPER_LIKE[0]) + _rows({"fifo": 35.0}, pattern="shared_contiguous"), 0.1, 32768)


def test_sweep_over_alpha_needs_one_alpha_for_every_claim():
    """Strided holds at α = 0.1 only, contiguous at α = 0.5 only: no α reproduces both."""
    bad = {"no-forwarding": 50.0, "fifo": 35.0, "twins-8ms": 49.0, "twins-1ms": 49.0}
    rows = _both(PAPER_LIKE[0], bad, 0.1) + _both(bad, PAPER_LIKE[1], 0.5)
    words = {v.key: v.judgement for v in sweep_verdicts(rows, (0.1, 0.5), 32768)}
    assert words["twins.strided-vs-no-forwarding"].word is Word.CONSISTENT_FOR_SOME
    assert "α = 0.1" in words["twins.strided-vs-no-forwarding"].why
    good = _both(*PAPER_LIKE, 0.1) + _both(bad, PAPER_LIKE[1], 0.5)
    words = {v.key: v.judgement for v in sweep_verdicts(good, (0.1, 0.5), 32768)}
    assert all(j.word is Word.REPRODUCED and "α = 0.1" in j.why for j in words.values())


def test_config_errors_name_the_key(tmp_path):
    from datasched.analysis.experiment_config import load_config_file
    from tests.integration.pipeline.test_pipeline import TEST_CONFIG

    text = (TEST_CONFIG.parent / "quick.yaml").read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("configurations: [no-forwarding,", "configurations: [teleport,"))
    with pytest.raises(UserError, match=r"artifacts\.seed002_twins\.configurations"):
        load_config_file(bad)
    bad.write_text(text.replace("    scale: 0.015625", "    scale: 0.015625\n    colour: red"))
    with pytest.raises(UserError, match=r"seed002_twins\.colour: unknown key"):
        load_config_file(bad)


def test_drain_configuration_is_twins_with_drain():
    """``twins-8ms-drain``: TWINS, 8 ms windows, the engine's drain option; the others never drain."""
    case = Case("single", "shared_strided", "read", 32768, 0.1, 0.0)
    drained = case_experiment(case, SPEC, "twins-8ms-drain", 1)["forwarding"]
    assert (drained["scheduler"], drained["window"], drained["drain"]) == ("twins", 0.008, True)
    assert "drain" not in case_experiment(case, SPEC, "twins-8ms", 1)["forwarding"]


def _plot_rows(alphas, sizes):
    return [
        {
            "kind": "single",
            "pattern": pattern,
            "operation": "read",
            "request_size": size,
            "hdd_alpha": alpha,
            "dt": 0.0,
            "configuration": configuration,
            "makespan_mean": 1.0 + alpha,
            "makespan_ci997": 0.1,
        }
        for alpha in alphas
        for size in sizes
        for pattern in ("shared_strided", "file_per_process")
        for configuration in ("fifo", "twins-8ms")
    ]


@pytest.mark.parametrize(
    ("alphas", "sizes", "panels"),
    [((0.1,), (32768,), 1), ((0.0, 0.5), (32768, 262144), 4), ((0.0, 0.1, 0.5), (32768,), 3)],
)
def test_plot_gives_one_panel_per_alpha_and_request_size(monkeypatch, tmp_path, alphas, sizes, panels):
    """Makespans differ by orders of magnitude across α: each (α, size) gets its own axes,
    and each panel shows only its own tests (2 patterns × 2 configurations = 4 bars)."""
    from datasched.analysis import style

    figures = []
    monkeypatch.setattr(style, "save", lambda fig, png: figures.append(fig))
    plot(_plot_rows(alphas, sizes), tmp_path / "f.png", "t")
    (fig,) = figures
    assert len(fig.axes) == panels
    assert all(len(ax.patches) == 4 for ax in fig.axes)


def test_seek_scales_are_swept_only_where_alpha_is_positive():
    """The seek spread multiplies α: at α = 0 every seek scale is the same linear disk, so
    (0, s > 0) is not a parameter set; every other (α, seek) pair is, with its own cases."""
    spec = Seed002Spec(
        scale=1 / 32,
        patterns=("shared_strided",),
        operations=("read",),
        request_sizes=(32768,),
        configurations=("fifo",),
        hdd_alpha=(0.0, 0.5),
        seeds=(1,),
        hdd_seek_scale=(0.0, 2**20),
    )
    assert spec.parameter_sets() == [(0.0, 0.0, "none"), (0.5, 0.0, "none"), (0.5, 2**20, "none")]
    cases = spec.cases()
    assert len(cases) == 3
    for case in cases:
        assert Case.from_path(case.path) == case
    seeky = next(c for c in cases if c.hdd_seek_scale > 0)
    assert "/seek=1048576/" in seeky.path
    assert case_experiment(seeky, spec, "fifo", 1)["servers"]["hdd_seek_scale"] == 2**20
    assert "hdd_seek_scale" not in case_experiment(cases[0], spec, "fifo", 1)["servers"]


def test_best_set_names_the_set_with_most_claims_and_what_it_fails():
    """α = 0.1 reproduces all four read claims; α = 0.5 (seek 1 MiB) only the contiguous ones:
    α = 0.1 is named, failing nothing; without it, the seek set is named with the strided claims failed."""
    bad = {"no-forwarding": 50.0, "fifo": 35.0, "twins-8ms": 49.0, "twins-1ms": 49.0}
    seeky = [r | {"hdd_seek_scale": float(2**20)} for r in _both(bad, PAPER_LIKE[1], 0.5)]
    rows = _both(*PAPER_LIKE, 0.1) + seeky
    name, held, failed = best_set(rows, (0.1, 0.5), 32768, (0.0, float(2**20)))
    assert name == "α = 0.1" and len(held) == 4 and failed == []
    name, held, failed = best_set(seeky, (0.5,), 32768, (float(2**20),))
    assert name == "α = 0.5, seek scale 1 MiB"
    assert set(failed) == {"twins.strided-vs-no-forwarding", "twins.strided-vs-fifo"}
    table = seek_movement_table(rows, (0.1, 0.5), 32768, (0.0, float(2**20)))
    assert any(line.startswith("| 0.5 | twins.contiguous-vs-fifo | – |") for line in table)


def test_ifer_figure_has_dt_on_the_x_axis_one_line_per_configuration(monkeypatch, tmp_path):
    """The paper's form: x = dt, one line per configuration, a panel per parameter set."""
    from datasched.analysis import style

    figures = []
    monkeypatch.setattr(style, "save", lambda fig, png: figures.append(fig))
    rows = [
        {"kind": "ifer", "hdd_alpha": 0.1, "hdd_seek_scale": 0.0, "dt": dt, "configuration": c}
        | {"makespan_mean": 1.0 + dt, "makespan_ci997": 0.1}
        for dt in (-1.0, 0.0, 1.0)
        for c in ("fifo", "twins-8ms")
    ]
    plot_ifer(rows, tmp_path / "i.png", "t")
    (fig,) = figures
    (ax,) = fig.axes
    assert ax.get_xlabel().startswith("dt")
    assert [c.get_label() for c in ax.containers] == ["fifo", "twins-8ms"]
    assert list(ax.containers[0].lines[0].get_xdata()) == [-1.0, 0.0, 1.0]


def test_sizes_figure_marks_the_papers_table(monkeypatch, tmp_path):
    """Three panels (leaving clients, leaving I/O nodes, arriving at servers), one bar per
    forwarding configuration and test, the paper's HBRR values as marks."""
    from datasched.analysis import style

    figures = []
    monkeypatch.setattr(style, "save", lambda fig, png: figures.append(fig))
    rows = [
        r
        | {
            "mean_client_request_size": 32768.0,
            "mean_dispatch_size": 58000.0 if r["configuration"] == "hbrr" else 32768.0,
            "mean_server_request_size": 46000.0,
        }
        for r in _both({"fifo": 1.0, "hbrr": 1.0, "no-forwarding": 2.0}, {"fifo": 1.0, "hbrr": 1.0}, 0.1)
    ]
    plot_sizes(rows, tmp_path / "s.png", "t")
    (fig,) = figures
    assert [ax.get_title() for ax in fig.axes] == ["leaving clients", "leaving I/O nodes", "arriving at servers"]
    assert all(len(ax.patches) == 2 * 2 for ax in fig.axes)  # fifo, hbrr × strided, contiguous reads


def test_cache_settings_are_swept_on_the_count_only_curve_scaled_with_the_variant():
    """A cache setting joins every α on the count-only curve (not the seek-aware one); its dirty
    threshold is given at the paper's scale and shrinks with the variant's bytes per process (the
    same share of the data absorbed); the read-ahead window does not."""
    spec = Seed002Spec(
        scale=1 / 32,
        patterns=("shared_strided",),
        operations=("write",),
        request_sizes=(32768,),
        configurations=("fifo",),
        hdd_alpha=(0.0, 0.5),
        seeds=(1,),
        hdd_seek_scale=(0.0, 2**20),
        server_caches=(CacheSetting("wb", 2**30, 2**20),),
        memory_bandwidth=5e9,
    )
    assert spec.parameter_sets() == [
        (0.0, 0.0, "none"),
        (0.0, 0.0, "wb"),
        (0.5, 0.0, "none"),
        (0.5, 0.0, "wb"),
        (0.5, 2**20, "none"),
    ]
    cached = next(c for c in spec.cases() if c.cache == "wb" and c.hdd_alpha == 0.5)
    assert "/cache=wb/" in cached.path and Case.from_path(cached.path) == cached
    servers = case_experiment(cached, spec, "fifo", 1)["servers"]
    assert servers["cache"] == {"memory_bandwidth": 5e9, "write_behind": 2**25, "read_ahead": 2**20}
    with pytest.raises(ValueError, match="unique and not 'none'"):
        parse_spec(
            {
                "scale": 1,
                "patterns": ["shared_strided"],
                "operations": ["read"],
                "request_sizes": [32768],
                "configurations": ["fifo"],
                "hdd_alpha": [0.1],
                "seeds": [1],
                "server_cache": {"settings": [{"name": "none", "write_behind": 1}]},
            }
        )


def _pace_rows(read_gap: float, write_gap: float, ci997: float) -> list[dict]:
    """FIFO rows of both shared patterns and operations with the given pace (seconds)."""
    out = []
    for pattern in ("shared_strided", "shared_contiguous"):
        for operation, gap in (("read", read_gap), ("write", write_gap)):
            (row,) = _rows({"fifo": 30.0}, pattern=pattern, operation=operation)
            out.append(row | {"mean_arrival_gap": gap, "arrival_gap_ci997": ci997})
    return out


def test_pace_claim_is_the_read_gaps_reduction_against_the_write_gap():
    """Paper: 26.09 µs (read) vs 50.92 µs (write), 100 (50.92 − 26.09) / 50.92 = 48.8 % shorter.
    Ours 25 vs 50 µs: 50 % shorter, reproduced; equal gaps within a wide interval: not reproduced
    (the interval ends below half the paper's effect); writes faster: opposite sign."""
    from datasched.analysis.seed002.claims import PAPER_PACE_REDUCTION, pace_claim

    assert PAPER_PACE_REDUCTION == 48.8

    def word(value):
        assert value is not None
        return value.claim.judge(value.ours).word

    got = pace_claim(_pace_rows(25e-6, 50e-6, 0.5e-6))
    assert got is not None and got.key == "pace.read-vs-write" and got.ours.mean == pytest.approx(50.0)
    assert word(got) is Word.REPRODUCED and got.text.startswith("25.00 µs vs 50.00 µs: +50.0 %")
    same = pace_claim(_pace_rows(40e-6, 40e-6, 1e-6))
    assert same is not None and same.ours.mean == 0 and word(same) is Word.NOT_REPRODUCED
    assert word(pace_claim(_pace_rows(60e-6, 30e-6, 1e-6))) is Word.NOT_REPRODUCED
    assert pace_claim(_rows({"fifo": 30.0})) is None  # rows written before the pace: no claim


def test_arrival_gap_is_the_mean_over_servers_of_span_over_requests_minus_one():
    """Server 0: 5 reads from 1 s to 2 s, gap 0.25 s; server 1: 3 reads from 0 to 1 s, gap 0.5 s;
    server 2: one read (no gap); mean (0.25 + 0.5) / 2."""
    from datasched.analysis.seed002.runs import arrival_gap

    def server(n, first, last):
        return {"read_requests": str(n), "first_read_arrival": str(first), "last_read_arrival": str(last),
                "write_requests": "0", "first_write_arrival": "0", "last_write_arrival": "0"}  # fmt: skip

    assert arrival_gap([server(5, 1.0, 2.0), server(3, 0.0, 1.0), server(1, 3.0, 3.0)]) == pytest.approx(0.375)
    assert math.isnan(arrival_gap([server(1, 3.0, 3.0)]))


def test_size_bars_never_get_a_negative_length():
    """fsum(3 × 0.1) / 3 rounds above 0.1: max − mean would be −1.4e-17, which matplotlib refuses."""
    from datasched.analysis.seed002.figure_sizes import mean_and_range

    mean, low, high = mean_and_range([0.1, 0.1, 0.1])
    assert mean == pytest.approx(0.1) and low >= 0.0 and high >= 0.0
    assert mean_and_range([1.0, 2.0, 6.0]) == (3.0, 2.0, 3.0)


def _size_rows(grown: dict[tuple[str, str], float], ci997: float) -> list[dict]:
    """HBRR rows of both shared patterns and operations whose requests leave the I/O nodes and
    arrive at the servers ``grown[pattern, operation]`` KiB above the clients' 32 KiB."""
    out = []
    for (pattern, operation), kib in grown.items():
        (row,) = _rows({"hbrr": 30.0}, pattern=pattern, operation=operation)
        size = 32768.0 + 1024 * kib
        out.append(
            row
            | {"mean_client_request_size": 32768.0, "mean_dispatch_size": size, "mean_server_request_size": size}
            | {"dispatch_size_ci997": 1024 * ci997, "server_size_ci997": 1024 * ci997}
        )
    return out


def test_size_claims_judge_the_growth_over_the_clients_size_per_pattern():
    """Paper, leaving the I/O nodes: 32 → 58 KB, a growth of +26 (KB read as KiB). Requests never
    aggregated (32 KiB, growth 0) are *not reproduced* — as a level, 32 KiB is 0.55× of 58 and fell
    within 0.5–2×; a growth of +26 KiB is reproduced; the operation that grows less decides
    (strided write +2 KiB: only in direction though the read grows +30); arriving at the servers the
    paper's contiguous growth is the mean of its read and write, (43 − 32 + 44 − 32) / 2 = +11.5."""
    from datasched.analysis.seed002.claims import size_claims

    ops = [(p, o) for p in ("shared_contiguous", "shared_strided") for o in ("read", "write")]

    def judged(grown: dict[tuple[str, str], float], ci997: float = 0.5) -> dict[str, tuple[float, float, Word]]:
        return {
            c.key: (c.claim.paper, c.ours.mean, c.claim.judge(c.ours).word)
            for c in size_claims(_size_rows(grown, ci997))
        }

    never = judged(dict.fromkeys(ops, 0.0), ci997=0.0)
    assert never["hbrr.growth-leaving-forwarders.contiguous"] == (26.0, 0.0, Word.NOT_REPRODUCED)
    assert never["hbrr.growth-arriving-servers.contiguous"] == (11.5, 0.0, Word.NOT_REPRODUCED)
    assert never["hbrr.growth-arriving-servers.strided"][0] == 17.5
    grown = judged(dict.fromkeys(ops, 26.0) | {("shared_strided", "write"): 2.0, ("shared_strided", "read"): 30.0})
    assert grown["hbrr.growth-leaving-forwarders.contiguous"] == (26.0, 26.0, Word.REPRODUCED)
    assert grown["hbrr.growth-leaving-forwarders.strided"] == (26.0, 2.0, Word.IN_DIRECTION)
    assert size_claims(_rows({"hbrr": 30.0})) == []  # rows written before the size intervals: no claim


def test_summary_rows_carry_the_size_intervals_over_seeds(tmp_path):
    """Seeds' sizes leaving the I/O nodes 40 and 44 KiB: mean 42, the 99.7 % half-width
    t(0.9985, 1) × sd / √2 with sd = 2√2 KiB; one size per run (an IFER run's two rows count once)."""
    from datasched.analysis.seed002.table import summarise

    case = Case("single", "shared_strided", "read", 32768, 0.1, 0.0)
    runs = [
        {"configuration": "hbrr", "seed": str(seed), "application": app, "makespan": "1.0"}
        | {"mean_client_request_size": "32768", "mean_dispatch_size": str(size), "mean_queue_wait": "0"}
        | {"mean_server_request_size": str(size), "server_concurrency": "1", "server_balance": "1"}
        | {"mean_arrival_gap": "1e-5"}
        for seed, size in ((1, 40 * 1024), (2, 44 * 1024))
        for app in ("A", "B")
    ]
    spec = dataclasses.replace(SPEC, configurations=("hbrr",))
    (row,) = summarise(spec, {case: runs})
    assert row["mean_dispatch_size"] == 42 * 1024
    half = t_quantile(0.9985, 1) * 2 * math.sqrt(2) * 1024 / math.sqrt(2)
    assert row["dispatch_size_ci997"] == pytest.approx(half) and row["server_size_ci997"] == pytest.approx(half)
