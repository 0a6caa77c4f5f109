"""Snakemake script: every run of one seed-004 case (analysis/seed004/)."""

import time
from pathlib import Path

from datasched.analysis.accumulate import cpu_seconds, write_cost
from datasched.analysis.seed004.runs import run_case
from datasched.analysis.seed004.spec import Case

sm = snakemake  # noqa: F821 (injected by Snakemake)
start = time.perf_counter()
out = Path(sm.output.runs)
count = run_case(sm.params.spec, Case.from_path(sm.wildcards.seed004), out.parent, out)
cpu = cpu_seconds()
write_cost(sm.output.cost, cpu)
Path(sm.log[0]).write_text(
    f"{sm.wildcards.seed004}: {count} runs, {time.perf_counter() - start:.2f} s wall, {cpu:.1f} s CPU\n"
)
