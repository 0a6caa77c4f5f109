"""Snakemake script: seed 001's Table 4 runs (bookkeeping and model), figures, plotted numbers
and report."""

import dataclasses
import json
from pathlib import Path

from datasched.analysis.runs_json import write_runs_json
from datasched.analysis.seed001_workflows import (
    figure,
    model_claims,
    model_figure,
    model_runs,
    model_spec,
    model_table,
    runs,
    table,
    timelines,
)
from datasched.analysis.seed001_workflows.report import format_report

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
work = Path(sm.params.work)
work.mkdir(parents=True, exist_ok=True)
rows = runs.run_all(spec, work)
table.write_table(rows, Path(sm.output.plotted))
figure.plot(rows, Path(sm.output.figure), f"Seed 001 Table 4: T_all of workflow 1 -> 7 -> 9 ({sm.params.variant})")
if spec.model is None:
    raise SystemExit("artifacts.seed001_workflows.model: missing (the model runs make the claims)")
model_rows = model_runs.run_all(spec.model, spec.workflow, work)
model_table.write_table(model_rows, Path(sm.output.model_plotted))
title = f"Seed 001 Table 4 from the storage model ({sm.params.variant})"
model_figure.plot(model_rows, spec.model, Path(sm.output.model_figure), title)
# Figs. 8/9: the model runs at the best single parameter set (first load seed), unaware vs
# aware, and the data-unaware run of the same set under the highest background load
best = model_claims.best_parameter_set(model_rows)
loaded = dataclasses.replace(best, load=max(spec.model.load_intensities))
panels = []
for p, aware, fig in (
    (best, False, "Fig. 8: data-unaware"),
    (best, True, "Fig. 9: data-aware"),
    *([(loaded, False, "Fig. 8 under background load")] if loaded != best else []),
):
    seed = model_spec.seeds_of(spec.model, p.load)[0]
    run = model_runs.run_dir(work, p, seed, aware)
    panels.append((f"{fig} ({p.name}, seed {seed})", run / "sim", json.loads((run / "workload.json").read_text())))
timelines.plot_timelines(
    panels,
    Path(sm.output.timelines),
    f"Seed 001 Figs. 8/9 from the model runs ({sm.params.variant})",
    nodes=20,
    background_first_id=model_runs.BACKGROUND_FIRST_ID,
)
report = format_report(
    rows, spec, sm.params.variant, Path(sm.output.figure).name, model_rows, Path(sm.output.model_figure).name
)
Path(sm.output.report).write_text(report)
write_runs_json(rows, work / "runs.json")
write_runs_json(model_rows, work / "model_runs.json")
Path(sm.log[0]).write_text(f"{len(rows)} bookkeeping runs, {len(model_rows)} model rows\n")
