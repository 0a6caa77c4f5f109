"""Snakemake script: the Gantt chart of one (small) run, drawn by evalys."""

from pathlib import Path

from datasched.analysis.gantt import plot_gantt

sm = snakemake  # noqa: F821 (injected by Snakemake)
w = sm.wildcards
plot_gantt(sm.input.jobs, sm.output[0], title=f"{w.trace}: {w.policy} / {w.allocation} (seed {w.seed})")
Path(sm.log[0]).write_text(f"{sm.output[0]}\n")
