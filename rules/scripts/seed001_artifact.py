"""Snakemake script: seed 001's Table 4 runs, figure, plotted numbers and report."""

import json
from pathlib import Path

from datasched.analysis import seed001_timelines as tl
from datasched.analysis import seed001_workflows as s1

sm = snakemake  # noqa: F821 (injected by Snakemake)
work = Path(sm.params.work)
work.mkdir(parents=True, exist_ok=True)
rows = s1.run_all(sm.params.spec, work)
s1.write_table(rows, Path(sm.output.plotted))
s1.plot(rows, Path(sm.output.figure), f"Seed 001 Table 4: T_all of workflow 1 -> 7 -> 9 ({sm.params.variant})")
# Figs. 8/9: the dependency style (the paper's recommendation) at the first NVM rates, data-unaware vs aware
nvm = sm.params.spec.nvm_variants[0].name
workload = json.loads((work / "workload-dependency.json").read_text())
tl.plot_timelines(
    [
        (
            f"Fig. 8: data-unaware ({nvm} NVM, dependency style)",
            work / f"sims/nvm={nvm}/style=dependency/policy=unaware",
            workload,
        ),
        (
            f"Fig. 9: data-aware ({nvm} NVM, dependency style)",
            work / f"sims/nvm={nvm}/style=dependency/policy=aware",
            workload,
        ),
    ],
    Path(sm.output.timelines),
    f"Seed 001 Figs. 8/9 from the Table 4 runs ({sm.params.variant})",
    nodes=20,
)
report = s1.format_report(rows, sm.params.spec, sm.params.variant, Path(sm.output.figure).name)
Path(sm.output.report).write_text(report)
s1.write_runs_json(rows, work / "runs.json")
Path(sm.log[0]).write_text(f"{len(rows)} runs\n")
