"""Snakemake script: seed 004's figure, plotted numbers and report."""

from pathlib import Path

from datasched.analysis import seed004_interference as interference

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
cases = {case: Path(sm.params.cases) / case.path / "runs.csv" for case in spec.cases()}
rows = interference.summarise(cases)
interference.write_summary(rows, Path(sm.output.plotted))
interference.plot(
    rows, spec, Path(sm.output.figure), f"Seed 004 (storage daemons next to HPL) on datasched ({sm.params.variant})"
)
Path(sm.output.report).write_text(
    interference.format_report(rows, spec, sm.params.variant, Path(sm.output.figure).name)
)
Path(sm.log[0]).write_text(f"{len(cases)} cases\n")
