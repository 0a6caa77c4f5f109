"""Snakemake script: one platform of the burst-buffers artifact (a catalogue system in SAN mode
with S staging servers on its storage network)."""

from pathlib import Path

from datasched.analysis.path_values import path_fields
from datasched.platforms import generate, write

sm = snakemake  # noqa: F821 (injected by Snakemake)
fields = path_fields(sm.wildcards.burstp)
params = sm.params.spec.platform_params(fields["platform"], int(fields["servers"]))
out = Path(sm.output[0])
tmp = out.with_name(out.name + ".tmp")
write(generate(params), tmp)
tmp.replace(out)
Path(sm.log[0]).write_text(f"{sm.wildcards.burstp}: {params.name}\n")
