"""Snakemake script: every configuration x seed of one seed-002 test (analysis/seed002/)."""

import time
from pathlib import Path

from datasched.analysis.accumulate import cpu_seconds, write_cost
from datasched.analysis.seed002.runs import run_case
from datasched.analysis.seed002.spec import Case

sm = snakemake  # noqa: F821 (injected by Snakemake)
start = time.perf_counter()
out = Path(sm.output.runs)
count = run_case(sm.params.spec, Case.from_path(sm.wildcards.seed002), Path(sm.params.platform), out.parent, out)
cpu = cpu_seconds()
write_cost(sm.output.cost, cpu)
Path(sm.log[0]).write_text(
    f"{sm.wildcards.seed002}: {count} rows, {time.perf_counter() - start:.2f} s wall, {cpu:.1f} s CPU\n"
)
