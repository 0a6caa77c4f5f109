"""Snakemake script: convert one SWF trace (thin wrapper over datasched.analysis.pipeline)."""

from pathlib import Path

from datasched.analysis.pipeline import make_workload

sm = snakemake  # noqa: F821 (injected by Snakemake)
report = make_workload(sm.input.swf, sm.params.conversion, sm.output[0])
Path(sm.log[0]).write_text(
    f"{sm.input.swf} -> {sm.output[0]}: kept {report.kept_jobs} jobs, "
    f"dropped {report.dropped}, walltime fallback on {report.walltime_fallback_jobs} jobs\n"
)
