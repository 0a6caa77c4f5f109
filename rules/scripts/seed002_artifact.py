"""Snakemake script: seed 002's figure, plotted numbers, scheduling-section numbers and report."""

from pathlib import Path

from datasched.analysis.seed002 import figure, figure_ifer, figure_sizes, report, scheduling, table

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
cases = {case: Path(sm.params.cases) / case.path / "runs.csv" for case in spec.cases()}
rows = table.summarise(spec, cases)
table.write_summary(rows, Path(sm.output.plotted))
figure.plot(rows, Path(sm.output.figure), f"Seed 002 (TWINS) on datasched ({sm.params.variant})")
figure_ifer.plot_ifer(
    rows, Path(sm.output.ifer), f"Seed 002 IFER (2 × 64 processes) on datasched ({sm.params.variant})"
)
figure_sizes.plot_sizes(rows, Path(sm.output.sizes), f"Seed 002 request sizes on datasched ({sm.params.variant})")
runs = scheduling.read_rows([Path(p) for p in sm.input.scheduling])
scheduling.write_rows(Path(sm.output.scheduling), runs)
section = scheduling.report_section(spec.scheduling, runs)
Path(sm.output.report).write_text(
    report.format_report(rows, spec, sm.params.variant, Path(sm.output.figure).name, scheduling=section)
)
Path(sm.log[0]).write_text(f"{len(cases)} tests, {len(runs)} scheduling runs\n")
