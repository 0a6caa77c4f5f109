"""Snakemake script: the Markov application of one seed-000 Figure 6 variant."""

from pathlib import Path

from datasched.analysis.seed000.fig6.spec import Fig6Run
from datasched.workloads import markov

sm = snakemake  # noqa: F821 (injected by Snakemake)
run = Fig6Run.from_path(sm.wildcards.fig6)
params = markov.parse_params(run.markov_params(sm.params.spec))
out = Path(sm.output[0])
tmp = out.with_name(out.name + ".tmp")
markov.write(markov.generate_from_seed(params), tmp, profile_mode="phases")
tmp.replace(out)
Path(sm.log[0]).write_text(f"{run.path}: {run.markov_params(sm.params.spec)}\n")
