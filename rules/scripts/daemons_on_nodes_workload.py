"""Snakemake script: the multi-application workload of one platform and seed of the
storage-daemons scheduling artifact (seed 000's generator, as Figure 8's)."""

from pathlib import Path

from datasched.analysis.path_values import path_fields
from datasched.analysis.seed000.multi_application import compute_nodes
from datasched.workloads import markov

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
fields = path_fields(sm.wildcards.daemonsw)
params = spec.markov_params(int(fields["seed"]), compute_nodes(spec.platforms[fields["platform"]]))
out = Path(sm.output[0])
tmp = out.with_name(out.name + ".tmp")
markov.write(markov.generate_from_seed(markov.parse_params(params)), tmp, profile_mode="phases")
tmp.replace(out)
Path(sm.log[0]).write_text(f"{sm.wildcards.daemonsw}: {params}\n")
