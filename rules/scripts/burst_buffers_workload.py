"""Snakemake script: the multi-application workload of one system and seed of the burst-buffers
artifact (seed 000's generator, as Figure 8's), sized by the system's compute nodes."""

from pathlib import Path

from datasched.analysis.path_values import path_fields
from datasched.analysis.seed000.multi_application import compute_nodes
from datasched.workloads import markov

sm = snakemake  # noqa: F821 (injected by Snakemake)
fields = path_fields(sm.wildcards.burstw)
params = sm.params.spec.markov_params(int(fields["seed"]), compute_nodes(Path(sm.input.platform)))
out = Path(sm.output[0])
tmp = out.with_name(out.name + ".tmp")
markov.write(markov.generate_from_seed(markov.parse_params(params)), tmp, profile_mode="phases")
tmp.replace(out)
Path(sm.log[0]).write_text(f"{sm.wildcards.burstw}: {params}\n")
