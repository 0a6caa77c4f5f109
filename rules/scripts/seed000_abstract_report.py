"""Snakemake script: the abstract's headline claims judged on Figure 6's plotted numbers."""

from pathlib import Path

from datasched.analysis.seed000 import abstract

sm = snakemake  # noqa: F821 (injected by Snakemake)
rows = abstract.read_fig6(Path(sm.input.fig6))
out = Path(sm.output.report)
out.parent.mkdir(parents=True, exist_ok=True)
source = Path(sm.input.fig6)
out.write_text(abstract.format_report(rows, sm.params.variant, f"{source.parent.name}/{source.name}"))
Path(sm.log[0]).write_text(f"{len(rows)} Figure 6 rows\n")
