"""Snakemake script: seed 001's Tables 1-3 runs, figure, plotted numbers and report."""

from pathlib import Path

from datasched.analysis import seed001_pagecache as pc

sm = snakemake  # noqa: F821 (injected by Snakemake)
work = Path(sm.params.work)
work.mkdir(parents=True, exist_ok=True)
spec = sm.params.spec
rows = pc.run_all(spec, work / "sims")
_, best, _ = pc.verdict_rows(spec, rows)
pc.write_table(spec, rows, best, Path(sm.output.plotted))
pc.plot(spec, rows, best, Path(sm.output.figure), f"Seed 001 Tables 1-3: producer-consumer I/O ({sm.params.variant})")
Path(sm.output.report).write_text(pc.format_report(spec, rows, sm.params.variant, Path(sm.output.figure).name))
pc.write_values(spec, rows, work / "values.json")
Path(sm.log[0]).write_text(f"{len(rows)} runs\n")
