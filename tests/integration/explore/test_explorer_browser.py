"""The explorer page in a real browser (headless Chromium, Debian's ``chromium`` package that
``make setup`` installs from scripts/apt-packages.txt): it loads without JavaScript errors,
its Gantt has one drawn bar per job (the storage demo's jobs run on contiguous resources),
and the numbers it shows equal the run's CSVs. Each test saves a screenshot beside its page
(the path is printed; ``pytest -s`` shows it) for a person to look at."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from datasched.analysis.explore import explore
from datasched.analysis.explore_browser import find_browser, rendered_dom, screenshot
from datasched.cli import main
from tests.conftest import HPC2N

pytestmark = [pytest.mark.engine, pytest.mark.slow]

BROWSER = find_browser() or ""
needs_browser = pytest.mark.skipif(
    not BROWSER,
    reason="no chromium on PATH: `make setup` installs Debian's chromium package (scripts/apt-packages.txt); "
    "this machine could not",
)


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def _attribute(dom: str, element_id: str, name: str) -> str:
    match = re.search(rf'<[^>]*id="{element_id}"[^>]*>', dom)
    assert match, f"no element {element_id} in the rendered page"
    value = re.search(rf'{name}="([^"]*)"', match.group(0))
    assert value, f"{element_id} has no {name} (the page's script did not finish)"
    return value.group(1)


def _cell(dom: str, key: str, run: int) -> float:
    match = re.search(rf'<td class="num" data-key="{key}" data-run="{run}">([^<]*)</td>', dom)
    assert match, f"summary cell {key} of run {run} not in the page"
    return float(match.group(1).split()[0])


def _check_page(page: Path, folders: list[Path], contiguous: bool) -> str:
    """The page rendered without errors; per run, the Gantt drew one bar per contiguous range
    of each job's resources (so one per job when ``contiguous``), covering every job, and the
    summary shows the CSVs' figures (6 significant digits)."""
    dom, log = rendered_dom(page, BROWSER)
    assert 'data-rendered="1"' in dom, "the page's script did not finish"
    body = re.search(r"<body[^>]*>", dom)
    assert body and 'data-js-errors="0"' in body.group(0), re.search(r'id="explorer-errors">([^<]*)', dom)
    assert "Uncaught" not in log, log
    for i, folder in enumerate(folders):
        jobs = _rows(folder / "out_jobs.csv")
        intervals = sum(len(j["allocated_resources"].split()) for j in jobs)
        if contiguous:
            assert intervals == len(jobs)
        assert int(_attribute(dom, f"fig-gantt-{i}", "data-bars")) == intervals
        assert int(_attribute(dom, f"fig-gantt-{i}", "data-bar-jobs")) == len(jobs)
        assert int(_attribute(dom, f"fig-gantt-{i}", "data-jobs")) == len(jobs)
        schedule = _rows(folder / "out_schedule.csv")[0]
        for key, column in (
            ("makespan", "makespan"),
            ("mean_wait", "mean_waiting_time"),
            ("max_wait", "max_waiting_time"),
            ("mean_slowdown", "mean_slowdown"),
            ("max_slowdown", "max_slowdown"),
        ):
            assert _cell(dom, key, i) == pytest.approx(float(schedule[column]), rel=1e-5, abs=1e-9), key
        assert _cell(dom, "jobs", i) == len(jobs)
        utilisation = _rows(folder / "out_utilisation.csv")[0]["utilisation"]
        assert _cell(dom, "utilisation", i) == pytest.approx(float(utilisation), rel=1e-5)
    return dom


@needs_browser
def test_storage_demo_page_renders_and_matches_the_csvs(tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["demo", "--storage", "--output", str(out)]) == 0
    page = out / "explorer.html"
    assert f"explorer:     {page}" in capsys.readouterr().out
    dom = _check_page(page, [out], contiguous=True)
    # where each job's data lived: one table row per out_io.csv row, same devices, same GB
    io_rows = _rows(out / "out_io.csv")
    table = re.search(r'<table class="storage" data-run="0">(.*?)</table>', dom, re.S)
    assert table
    rendered = re.findall(
        r"<tr><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td>(.*?)</tr>", table.group(1)
    )
    assert [(r[0], r[3]) for r in rendered] == [(row["job_id"], row["devices"]) for row in io_rows]
    for (_, _, _, _, cells), row in zip(rendered, io_rows, strict=True):
        first = float(re.findall(r">([0-9.]+)<", cells)[0])  # the first shown tier: dram
        assert first == pytest.approx(float(row["dram_bytes"]) / 1e9, abs=5e-4)
    # the measured link load (the demo writes out_links.csv): the busiest link is drawn first and
    # its step curve integrates to the bytes the CSV gives it (sum of rate x window length)
    assert "Per-link load (measured" in dom and "(estimated)" not in dom
    embedded = re.search(r'id="explorer-figures"[^>]*>(.*?)</script>', dom, re.S)
    assert embedded
    trace = json.loads(embedded.group(1))["fig-load-0"]["data"][0]
    totals: dict[str, float] = {}
    for row in _rows(out / "out_links.csv"):
        totals[row["link"]] = totals.get(row["link"], 0.0) + float(row["bytes"])
    assert trace["name"] == max(sorted(totals), key=lambda name: totals[name])
    xs, ys = trace["x"], trace["y"]
    drawn = sum(y * 1e9 * (x1 - x0) for x0, x1, y in zip(xs, xs[1:], ys, strict=False))
    assert drawn == pytest.approx(totals[trace["name"]], rel=1e-9)
    png = screenshot(page, tmp_path / "storage-demo.png", BROWSER, size=(1400, 3000))
    assert png.stat().st_size > 50_000, "a blank screenshot"
    print(f"screenshot: {png}")


@needs_browser
def test_two_run_comparison_page(tmp_path):
    """FCFS and EASY on the same 60 HPC2N jobs, one page: two Gantts, one summary column each."""
    workload = tmp_path / "w.json"
    platform = tmp_path / "p.xml"
    assert main(["workload", "from-swf", str(HPC2N), "--max-jobs", "60", "-o", str(workload)]) == 0
    assert (
        main(
            ["platform", "generate", "--topology", "torus", "--dims", "4,4,8", "--mode", "san", "--out", str(platform)]
        )
        == 0
    )
    folders = []
    for policy in ("fcfs", "easy"):
        folder = tmp_path / policy
        assert (
            main(
                [
                    "run",
                    "--platform",
                    str(platform),
                    "--workload",
                    str(workload),
                    "--scheduler",
                    policy,
                    "--output",
                    str(folder),
                ]
            )
            == 0
        )
        folders.append(folder)
    page = explore([str(f) for f in folders], tmp_path / "compare.html")
    dom = _check_page(page, folders, contiguous=False)
    assert "datasched run --platform" in dom  # the exact commands are shown
    png = screenshot(page, tmp_path / "compare.png", BROWSER, size=(1400, 2600))
    assert png.stat().st_size > 50_000
