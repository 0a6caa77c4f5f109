"""Snakemake script: one unit's committed summary (analysis/accumulate.py) from its finished job."""

from pathlib import Path

from datasched.analysis.accumulate import read_cost, write_summary
from datasched.analysis.accumulating_artifacts import artifact

sm = snakemake  # noqa: F821 (injected by Snakemake)
metrics = artifact(sm.params.artifact).metrics(Path(sm.input.result))
write_summary(sm.output[0], sm.params.unit, sm.params.digest, metrics, read_cost(sm.input.cost))
Path(sm.log[0]).write_text(f"{sm.params.unit}: summary written to {sm.output[0]}\n")
