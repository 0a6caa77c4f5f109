"""Snakemake script: the single application of one seed-000 Figure 7 point (storage, remote)."""

from pathlib import Path

from datasched.analysis.seed000.fig7.spec import Fig7Run
from datasched.workloads import markov

sm = snakemake  # noqa: F821 (injected by Snakemake)
run = Fig7Run.from_path(f"{sm.wildcards.fig7w}/policy=np/sharing=activity")
params = run.markov_params(sm.params.spec)
out = Path(sm.output[0])
tmp = out.with_name(out.name + ".tmp")
markov.write(markov.generate_from_seed(markov.parse_params(params)), tmp, profile_mode="phases")
tmp.replace(out)
Path(sm.log[0]).write_text(f"{sm.wildcards.fig7w}: {params}\n")
