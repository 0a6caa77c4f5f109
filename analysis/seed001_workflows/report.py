"""Seed 001 Table 4 step 6, the report: the model runs' claims and section (when there are model
rows), the bookkeeping runs' check, every run's numbers beside the paper's, the swept NVM rates,
and why ours differ from the paper."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from datasched.analysis.claims_table import claims_table, verdict_rules
from datasched.analysis.seed001_workflows.claims import claims
from datasched.analysis.seed001_workflows.model_claims import verdicts as model_verdicts
from datasched.analysis.seed001_workflows.model_report import section as model_section
from datasched.analysis.seed001_workflows.spec import PAPER_T_ALL, Seed001Spec


def bookkeeping_gap(ours: float, paper: float) -> str:
    """The per-run gap to the paper, as a number: the claims table says why it is not a verdict
    (the bookkeeping runs are *by construction*)."""
    return f"{100 * (ours - paper) / paper:+.0f} % (bookkeeping)"


def format_report(
    rows: Sequence[Mapping[str, Any]],
    spec: Seed001Spec,
    variant: str,
    figure: str,
    model_rows: Sequence[Mapping[str, Any]] = (),
    model_figure: str = "",
) -> str:
    """The artifact's report: the model runs' claims (when ``model_rows``), the bookkeeping
    runs' check, both sections' numbers and why ours differ from the paper."""
    verdicts = [*(model_verdicts(model_rows) if model_rows else []), *claims(rows)]
    lines = [
        f"# Seed 001, Table 4: workflows whose data stays on node SCM ({variant})",
        "",
        f"![T_all per style and NVM rates]({figure})",
        "",
        "Workflow 1 -> 7 -> 9 of the 20-node, 10-job example (`workflows/nextgenio_table4.yaml`), scheduled by "
        "`schedulers/workflow.py` (list scheduling in submission order, a job starts when its dependencies are "
        "done and it fits) with `data_aware` false (sequential hosts, every data item through the external "
        "file system) or true (steps on the nodes holding most of their input bytes, intermediate items kept on "
        "node NVM, the final output written to central storage), and two data-aware variants with the paper's "
        "further optimisations (its section 4.1, not evaluated there): **aware+prestage** (`prestage` + `post_move`: "
        "data movers copy the next steps' existing inputs to the nodes they will likely run on, and a final output "
        "goes to node NVM first and is staged out to central storage after the step, when the platform's NVM write "
        "is faster than the central path) and **aware+hold** (`hold`: free nodes holding a waiting step's input are "
        "kept for it while T_wait < T_move by the engine's rates). Paper: T_all = 490 s unaware, 280 s aware. "
        "T_safe: until the workflow's central outputs are on central storage (later than T_all only when a stage-out "
        "runs after the last step).",
        "",
        "![Figs. 8/9: per-node timelines](seed001_fig8_fig9_timelines.png)",
        "",
        "Figs. 8/9 (`analysis/seed001_workflows/timelines.py`): every job of the model runs (section *Table 4 as a "
        "model prediction*) at the best single parameter set and its first load seed, data-unaware and data-aware, "
        "drawn per node from the runs' `out_jobs.csv` (nodes, start, end) and `out_io.csv` (read, compute and write "
        "phase seconds in the profile's order); background-load jobs are the plain tan bars (unlabelled). A wait of a "
        "workflow step (the paper's 20 s for job 9) shows as the gap between its predecessor's end and its start; "
        "it comes out of the scheduler when other jobs hold the nodes it needs.",
        "",
        "## Claims",
        "",
        *claims_table(verdicts),
        "",
        *verdict_rules(),
        "",
        *(model_section(model_rows, spec.model, model_figure) if model_rows and spec.model else []),
        "## Bookkeeping runs: T_all, ours beside the paper (by construction)",
        "",
        "| NVM rates | style | policy | T_all (s) | paper (s) | gap | T_safe (s) | eq. 4 sum (s) | T_queue | "
        "T_run | T_I/O | T_compute | R_all eq. 2 | R_all eq. 3 (node-s) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        paper = PAPER_T_ALL[r["policy"]]
        lines.append(
            f"| {r['nvm']} | {r['style']} | data-{r['policy']} | {r['t_all']:.1f} | {paper:.0f} | "
            f"{bookkeeping_gap(r['t_all'], paper)} | {r['t_safe']:.1f} | {r['t_all_eq']:.1f} | {r['t_queue']:.1f} | "
            f"{r['t_run']:.1f} | "
            f"{r['t_io']:.1f} | {r['t_compute']:.1f} | {r['r_all_eq2']:.0f} | {r['r_all_eq3']:.0f} |"
        )
    lines += ["", "Per step (job: nodes, T_queue, T_run = T_I/O + T_compute, start):", ""]
    for r in rows:
        steps = "; ".join(
            f"job {t['job']}: {t['nodes']} nodes, queue {t['queue']:.1f}, run {t['run']:.1f} = {t['io']:.1f} + "
            f"{t['compute']:.1f}, start {t['start']:.1f}"
            for t in r["steps"]
        )
        lines.append(f"- {r['nvm']}, {r['style']}, data-{r['policy']}: {steps}")
    lines += [
        "",
        "## NVM rates (the swept assumption)",
        "",
        *(
            f"- `{v.name}`: read {v.read_bw / 1e9:g} GB/s, write {v.write_bw / 1e9:g} GB/s. {v.note}"
            for v in spec.nvm_variants
        ),
        "",
        "## Bookkeeping runs: why they differ from the paper (no parameter was tuned toward 490 s or 280 s)",
        "",
        "- **Data-unaware (paper 490 s)**: with single-script and dependency submission ours is 470 s = 90 + 330 "
        "+ 50, the paper's own sum of T_run: our list scheduler happens to have nodes free when each step is "
        "released, while the paper's 490 s includes a 20 s wait of job 9 whose nodes another job had taken (which "
        "job takes which nodes is a scheduler detail the paper does not give). With chaining, job 7 enters the "
        "queue only when job 1 ends (t = 90) and waits 40 s behind earlier jobs: 510 s, the queue term of eq. 4.",
        "- **Data-aware queue order**: the data-aware variant tries released steps whose inputs are on node NVM "
        "before other waiting jobs (schedulers/workflow.py), so no step waits there; that priority is part of "
        "what is compared, not only the placement.",
        "- **Data-aware with seed 000's NVM (2 GB/s read, 1 GB/s write)**: the paper takes SCM I/O as free; with "
        "a 1 GB/s NVM write, job 7 still writes its 480 GB in 120 s (as fast as the 1 GB/s external file "
        "system), and reads are only twice as fast. The saving is therefore small: that is the result of these "
        "rates, not an error.",
        "- **Data-aware with NVM rates scaled from the paper's Table 1** (memory-mapped file system against "
        "Lustre): intermediate I/O nearly vanishes, and T_all approaches the paper's 60 + 180 + 40 = 280 s "
        "(eq. 6); what remains is the residual NVM time.",
        "- The single-script style runs the three steps back to back in one 4-node job: no queue time between "
        "steps (eq. 1); chain and dependency styles queue each step (eq. 4); here the queue terms are zero or "
        "small because nodes free up when a step ends. R_all of eq. 2 (R_max x T_all) against eq. 3 "
        "(sum R_i x T_i) shows the single script's cost on a composite workflow (here all steps have 4 nodes: "
        "monolithic, so they agree up to queue time).",
        "",
        "- **aware+prestage**: pre-staging finds nothing to do here. Step 1 starts at t = 0 (its input cannot be "
        "loaded earlier), and steps 7 and 9 read items that do not exist before their predecessor ends and that are "
        "already on the nodes they run on; the independent jobs name no data. Post-moving changes only step 9's "
        "final output: with the Table 1 rates (NVM write 45.62 GB/s against the 1 GB/s central path) step 9 writes "
        "`wf1.result` to NVM in 0.7 s instead of 30 s, so T_all drops below the paper's 280 s (which keeps that "
        "30 s write), and the stage-out ends 30 s later in the background: T_safe is the aware variant's T_all. "
        "With seed 000's rates the NVM write (1 GB/s) is not faster than the central path (1 GB/s): no post-move, "
        "same T_all as aware. A closed-form case where pre-staging shortens a step is in "
        "tests/integration/storage/test_workflow_movers.py.",
        "- **aware+hold**: no hold is ever taken here, so T_all equals the aware variant's. The rule only applies "
        "while a step waits for a still-running predecessor and its input lies on free nodes; each workflow step "
        "here has one predecessor, so it is released the moment that predecessor ends, while the nodes holding its "
        "input are free, and starts on them at once. Both sides of the rule are shown in "
        "tests/integration/storage/test_workflow_movers.py.",
        "- **1LM / 2LM node modes** are not modelled. 1LM's app-direct NVM is what the named data items already are "
        "(items on node NVM at its read/write rates). 2LM would make NVM the main memory behind a DRAM cache: what "
        "it changes is the speed of memory accesses inside compute phases, and the phase model has no memory "
        "traffic (a compute phase is flops at the host speed), so any 2LM slow-down would be a factor we invent "
        "(the paper gives no number); the storage descriptor's `mem_hit_pct` is a DRAM cache for I/O, not for "
        "memory, and in 2LM the NVM's persistence is lost, so data could not stay on it between steps.",
        "",
        "Choices where the paper is silent: the platform (see `analysis/seed001_workflows/platform.py`), the data "
        "sizes (the workflow file: seconds x 1 GB/s per node), walltime = 10 x nominal (no job is killed; the list "
        "scheduler does not use walltimes), the placement rule of the data-aware variant (schedulers/workflow.py).",
        "",
        "Real workflow shapes (WfCommons instances, data-aware against unaware, every submission style, file "
        "sizes scaled) are a separate artifact: `paper-artifacts/seed001-wfcommons/`.",
        "",
    ]
    return "\n".join(lines)
