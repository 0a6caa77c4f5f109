"""Snakemake script: one seed-000 Figure 9 platform (a catalogue system with n I/O servers)."""

from pathlib import Path

from datasched.analysis.path_values import path_fields
from datasched.analysis.seed000.fig9.spec import platform_params
from datasched.platforms import generate, write

sm = snakemake  # noqa: F821 (injected by Snakemake)
fields = path_fields(sm.wildcards.fig9p)
params = platform_params(sm.params.spec, fields["topology"], fields["mode"], int(fields["servers"]))
out = Path(sm.output[0])
tmp = out.with_name(out.name + ".tmp")
write(generate(params), tmp)
tmp.replace(out)
Path(sm.log[0]).write_text(f"{sm.wildcards.fig9p}: {params.name}\n")
