"""Snakemake script: one seed-003 case under every noise (analysis/seed003/)."""

import time
from pathlib import Path

from datasched.analysis.seed003.runs import run_case
from datasched.analysis.seed003.spec import Case

sm = snakemake  # noqa: F821 (injected by Snakemake)
start = time.perf_counter()
out = Path(sm.output.runs)
count = run_case(sm.params.spec, Case.from_path(sm.wildcards.seed003), out.parent, out)
Path(sm.log[0]).write_text(f"{sm.wildcards.seed003}: {count} rows, {time.perf_counter() - start:.2f} s wall\n")
