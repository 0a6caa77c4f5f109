"""Snakemake script: generate one platform (thin wrapper over datasched.analysis.pipeline)."""

from pathlib import Path

from datasched.analysis.pipeline import make_platform

sm = snakemake  # noqa: F821 (injected by Snakemake)
out = make_platform(sm.params.platform, sm.output[0], source=f"traces.{sm.wildcards.trace}.platform")
Path(sm.log[0]).write_text(f"platform {out} from {sm.params.platform}\n")
