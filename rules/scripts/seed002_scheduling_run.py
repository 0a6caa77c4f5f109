"""Snakemake script: one configuration x seed of seed 002's scheduling section
(analysis/seed002/scheduling.py)."""

import time
from pathlib import Path

from datasched.analysis.accumulate import cpu_seconds, write_cost
from datasched.analysis.seed002.scheduling import run_one, write_rows

sm = snakemake  # noqa: F821 (injected by Snakemake)
start = time.perf_counter()
out = Path(sm.output.run)
configuration, seed = sm.wildcards.seed002_configuration, int(sm.wildcards.seed002_seed)
row = run_one(sm.params.spec.scheduling, configuration, seed, Path(sm.params.platform), out.parent / "work")
write_rows(out, [row])
cpu = cpu_seconds()
write_cost(sm.output.cost, cpu)
Path(sm.log[0]).write_text(f"{configuration} seed {seed}: {time.perf_counter() - start:.2f} s wall, {cpu:.1f} s CPU\n")
