"""Snakemake script: the --staging-layer file of the burst-buffers artifact's runs with staging
servers (block, buffer and drain sizes from the config)."""

import json
from pathlib import Path

sm = snakemake  # noqa: F821 (injected by Snakemake)
layer = sm.params.spec.layer()
out = Path(sm.output[0])
tmp = out.with_name(out.name + ".tmp")
tmp.write_text(json.dumps(layer, sort_keys=True) + "\n")
tmp.replace(out)
Path(sm.log[0]).write_text(f"{json.dumps(layer, sort_keys=True)}\n")
