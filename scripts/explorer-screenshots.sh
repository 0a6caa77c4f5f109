#!/usr/bin/env bash
# The explorer screenshots of the README (docs/img/explorer-*.png) and of an artifact page
# (docs/img/report-page.png, docs/outputs.md): the page of
# `datasched demo --storage` and a two-run comparison (FCFS and EASY on the same 200 HPC2N
# jobs), rendered by headless Chromium (analysis/explore_browser.py). Run from the
# repository root after `make setup`; the runs go to out/explorer-shots/.
set -euo pipefail
ds=.venv/bin/datasched
out=out/explorer-shots
mkdir -p "$out" docs/img
$ds demo --storage --output "$out/storage-demo" > /dev/null
$ds workload from-swf tests/data/traces/hpc2n.swf --max-jobs 200 -o "$out/hpc2n.json" > /dev/null
$ds platform generate --topology torus --dims 4,4,8 --mode san --out "$out/torus128.xml" > /dev/null
for policy in fcfs easy; do
  $ds run --platform "$out/torus128.xml" --workload "$out/hpc2n.json" --scheduler "$policy" \
    --output "$out/$policy" > /dev/null
done
$ds explore "$out/fcfs" "$out/easy" -o "$out/compare.html"
.venv/bin/python - "$out" <<'PY'
import sys
from pathlib import Path

from datasched.analysis.explore_browser import find_browser, screenshot

out = Path(sys.argv[1])
from datasched.analysis.report_html import write_plotly

write_plotly()  # the artifact page loads it from paper-artifacts/.plotly/
browser = find_browser()
if browser is None:
    sys.exit("explorer-screenshots: no chromium on PATH (scripts/apt-packages.txt)")
for page, png, height in (
    (out / "storage-demo" / "explorer.html", Path("docs/img/explorer-storage-demo.png"), 2200),
    (out / "compare.html", Path("docs/img/explorer-compare.png"), 2350),
    (Path("paper-artifacts/seed000-storage/fig8-quick/report.html"), Path("docs/img/report-page.png"), 1500),
):
    print(screenshot(page, png, browser, size=(1250 if "report" in png.name else 1300, height)))
PY
