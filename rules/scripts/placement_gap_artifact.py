"""Snakemake script: the allocators-against-the-optimum figure, plotted numbers and report."""

from pathlib import Path

from datasched.analysis import placement_gap as gap

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
rows = []
for label, platform in spec.platforms.items():
    rows += gap.evaluate(spec, label, gap.platform_view(platform))
gap.write_table(rows, Path(sm.output.plotted))
gap.plot(rows, Path(sm.output.figure), f"Allocators against the data-access optimum ({sm.params.variant})")
Path(sm.output.report).write_text(gap.format_report(rows, spec, sm.params.variant, Path(sm.output.figure).name))
Path(sm.log[0]).write_text(f"{len(rows)} rows\n")
