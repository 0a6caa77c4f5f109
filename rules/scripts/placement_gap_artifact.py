"""Snakemake script: the allocators-against-the-optimum figure, plotted numbers and report."""

from pathlib import Path

from datasched.analysis.placement_gap import figure, table
from datasched.analysis.placement_gap.platform_view import platform_view
from datasched.analysis.placement_gap.report import format_report
from datasched.analysis.placement_gap.runs import evaluate

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
rows = []
for label, platform in spec.platforms.items():
    rows += evaluate(spec, label, platform_view(platform))
table.write_table(rows, Path(sm.output.plotted))
figure.plot(rows, Path(sm.output.figure), f"Allocators against the data-access optimum ({sm.params.variant})")
Path(sm.output.report).write_text(format_report(rows, spec, sm.params.variant, Path(sm.output.figure).name))
Path(sm.log[0]).write_text(f"{len(rows)} rows\n")
