"""Snakemake script: the multi-application workload of one seed-000 Figure 8 topology and seed."""

from pathlib import Path

from datasched.analysis.path_values import path_fields
from datasched.analysis.seed000.fig8 import spec as fig8_spec
from datasched.analysis.seed000.multi_application import compute_nodes
from datasched.workloads import markov

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
fields = path_fields(sm.wildcards.fig8w)
platform = spec.platforms[fields["topology"]]
params = fig8_spec.markov_params(spec, int(fields["seed"]), compute_nodes(platform))
out = Path(sm.output[0])
tmp = out.with_name(out.name + ".tmp")
markov.write(markov.generate_from_seed(markov.parse_params(params)), tmp, profile_mode="phases")
tmp.replace(out)
Path(sm.log[0]).write_text(f"{sm.wildcards.fig8w}: {params}\n")
