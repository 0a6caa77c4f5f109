"""Snakemake script: one seed-000 Figure 10 run's row (its applications' means), written
into the artifact's runs/ folder so that a long variant can be committed run by run."""

from pathlib import Path

from datasched.analysis.seed000.fig10 import runs as fig10_runs
from datasched.analysis.seed000.fig10 import spec as fig10_spec

sm = snakemake  # noqa: F821 (injected by Snakemake)
run = fig10_spec.Fig10Run.from_path(sm.wildcards.fig10)
row = fig10_runs.run_row(run, Path(sm.input.jobs))
fig10_runs.write_run_rows([row], Path(sm.output[0]))
Path(sm.log[0]).write_text(f"{run.path}: {row}\n")
