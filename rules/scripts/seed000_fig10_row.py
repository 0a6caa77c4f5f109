"""Snakemake script: one seed-000 Figure 10 run's row (its applications' means), written
into the artifact's runs/ folder so that a long variant can be committed run by run."""

from pathlib import Path

from datasched.analysis import seed000_fig10 as fig10

sm = snakemake  # noqa: F821 (injected by Snakemake)
run = fig10.Fig10Run.from_path(sm.wildcards.fig10)
row = fig10.run_row(run, Path(sm.input.jobs))
fig10.write_run_rows([row], Path(sm.output[0]))
Path(sm.log[0]).write_text(f"{run.path}: {row}\n")
