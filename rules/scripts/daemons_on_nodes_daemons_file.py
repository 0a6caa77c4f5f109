"""Snakemake script: the --storage-daemons file of one platform and daemon cost (the cost in
seconds of a node's CPU per GB, turned into flops per byte at the platform's node speed);
an empty object at cost 0, which the simulation rule does not pass (no daemons)."""

import json
from pathlib import Path

from datasched.analysis.daemons_on_nodes.spec import DaemonsRun, node_speed
from datasched.analysis.path_values import path_fields

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
fields = path_fields(sm.wildcards.daemonsf)
platform = spec.platforms[fields["platform"]]
run = DaemonsRun(fields["platform"], "", "", float(fields["cost"]), 0)
daemons = run.daemons(spec, node_speed(platform)) if run.cpu_s_per_gb > 0 else {}
out = Path(sm.output[0])
tmp = out.with_name(out.name + ".tmp")
tmp.write_text(json.dumps(daemons, sort_keys=True) + "\n")
tmp.replace(out)
Path(sm.log[0]).write_text(f"{sm.wildcards.daemonsf}: {json.dumps(daemons, sort_keys=True)}\n")
