"""Snakemake script: the multi-application workload of one Figure 9 topology, server count and seed."""

from pathlib import Path

from datasched.analysis.path_values import path_fields
from datasched.analysis.seed000.fig9.spec import markov_params
from datasched.analysis.seed000.multi_application import compute_nodes
from datasched.workloads import markov

sm = snakemake  # noqa: F821 (injected by Snakemake)
fields = path_fields(sm.wildcards.fig9w)
nodes = compute_nodes(Path(sm.input.platform))
params = markov_params(sm.params.spec, int(fields["seed"]), int(fields["servers"]), nodes, fields["staging"])
out = Path(sm.output[0])
tmp = out.with_name(out.name + ".tmp")
markov.write(markov.generate_from_seed(markov.parse_params(params)), tmp, profile_mode="phases")
tmp.replace(out)
Path(sm.log[0]).write_text(f"{sm.wildcards.fig9w}: {params}\n")
