"""Seed 001 Table 4 / section 4.1: the 20-node, 10-job example, data-unaware against
data-aware workflow scheduling, per submission style (Figs. 3-5, eqs. 1-5).

Each run converts ``workflows/nextgenio_table4.yaml`` with a submission style
(``datasched workload from-workflow --style S --profiles phases``: every read/write phase
names its data items), builds the 20-node platform, and runs the ``workflow`` policy
(schedulers/workflow.py) with ``data_aware`` false or true. The paper gives T_all = 490 s
(unaware, job 9 waiting 20 s) and 280 s (aware, with SCM I/O cost taken as 0).

Platform (our choices, the paper states none; written in the report): a 5x2x2 torus of
20 nodes (10 GB/s links, never the bottleneck here), 1 Gflop/s nodes (the workflow file's
``reference.host_speed``), one I/O server whose front-end (100 GB/s) is not a bottleneck
and a 1 GB/s storage NIC per node (``reference.io_bandwidth``: the rate at which the
workflow file converted Table 4's seconds into bytes, so external I/O takes Table 4's
times). Node NVM rates are the swept assumption: ``nvm_variants``, e.g. seed 000's
2 GB/s read / 1 GB/s write, or rates scaled from the paper's own Table 1 (memory-mapped
file system against Lustre, 10 x 1 GB: write 137.77 s vs 3.02 s, read 153.64 s vs 1.95 s).

These runs are the *bookkeeping* check (claim ``table4.sums``, by construction). The paper's
T_all, reduction and job 9 claims are judged on the model runs of
:mod:`datasched.analysis.seed001_table4_model` (sizes, storage rates and background load swept).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.claims_table import Verdict, claims_table, verdict_rules
from datasched.analysis.seed001_table4_model import ModelSpec, parse_model_spec
from datasched.analysis.verdicts import VerdictError, by_construction

WORKFLOW_STEPS = (1, 7, 9)  # Table 4: jobs 1 -> 7 -> 9
#: the compared variants of schedulers/workflow.py: name -> its options (everything else equal)
POLICY_OPTIONS: dict[str, dict[str, bool]] = {
    "unaware": {"data_aware": False},
    "aware": {"data_aware": True},
    "aware+prestage": {"data_aware": True, "prestage": True, "post_move": True},
    "aware+hold": {"data_aware": True, "hold": True},
}
POLICIES = tuple(POLICY_OPTIONS)
#: the paper's T_all per variant: 490 s data-unaware, 280 s data-aware (its section 4.1
#: names pre-loading and post-moving as a further optimisation it does not evaluate)
PAPER_T_ALL = {p: 490.0 if p == "unaware" else 280.0 for p in POLICIES}


@dataclass(frozen=True)
class NvmVariant:
    name: str
    read_bw: float
    write_bw: float
    note: str = ""


@dataclass(frozen=True)
class Seed001Spec:
    workflow: Path
    styles: tuple[str, ...]
    nvm_variants: tuple[NvmVariant, ...]
    walltime_factor: float = 10.0
    #: Table 4 as a model prediction (analysis/seed001_table4_model.py); None: bookkeeping only
    model: ModelSpec | None = None

    def runs(self) -> list[tuple[str, NvmVariant, str]]:
        return [(s, v, p) for v in self.nvm_variants for s in self.styles for p in POLICIES]


def parse_spec(data: Mapping[str, Any], repo_root: Path) -> Seed001Spec:
    path = Path(str(data["workflow"]))
    return Seed001Spec(
        workflow=path if path.is_absolute() else repo_root / path,
        styles=tuple(str(s) for s in data["styles"]),
        nvm_variants=tuple(
            NvmVariant(str(v["name"]), float(v["read_bw"]), float(v["write_bw"]), str(v.get("note", "")))
            for v in data["nvm_variants"]
        ),
        walltime_factor=float(data.get("walltime_factor", 10.0)),
        model=parse_model_spec(data["model"]) if "model" in data else None,
    )


def write_platform(variant: NvmVariant, reference: Any, path: Path) -> Path:
    from datasched.platforms import InterconnectParams, SystemParams, TorusParams, generate, write

    params = SystemParams(
        name=f"seed001-table4-{variant.name}",
        storage_mode="unified",
        interconnect=InterconnectParams(topology=TorusParams(dims=[5, 2, 2]), link_bw=1e10, link_lat=0),
        node={"speed": reference.host_speed, "nvm_read_bw": variant.read_bw, "nvm_write_bw": variant.write_bw},
        storage={
            "io_servers": 1,
            "node_nic_bw": reference.io_bandwidth,
            "server_frontend_bw": 1e11,
            "frontend_lat": 0,
            "backend_lat": 0,
        },
    )
    return write(generate(params), path)


def run_all(spec: Seed001Spec, work: Path) -> list[dict[str, Any]]:
    """Every (style, NVM variant, policy) run; one row per run with T_all and eqs. 1-5 terms."""
    from datasched.runner import run_simulation
    from datasched.workflows.convert import workflow_to_workload
    from datasched.workflows.model import load_workflow
    from datasched.workflows.submission import apply_style
    from datasched.workloads.jsonio import write_json

    workflow = load_workflow(spec.workflow)
    rows = []
    for variant in spec.nvm_variants:
        platform = write_platform(variant, workflow.reference, work / f"platform-{variant.name}.xml")
        for style in spec.styles:
            styled = apply_style(workflow, style)
            workload = work / f"workload-{style}.json"
            doc = workflow_to_workload(styled, mode="phases", walltime_factor=spec.walltime_factor)
            write_json(doc, workload)
            for policy in POLICIES:
                out = work / f"sims/nvm={variant.name}/style={style}/policy={policy}"
                result = run_simulation(
                    platform,
                    workload,
                    "workflow",
                    out,
                    scheduler_options=POLICY_OPTIONS[policy],
                    in_process=True,
                )
                rows.append(measure(result.jobs_csv.parent, doc, style, variant.name, policy))
    return rows


def _read(path: Path) -> dict[str, dict[str, str]]:
    with open(path, newline="") as handle:
        return {row["job_id"]: row for row in csv.DictReader(handle)}


def _stage_out_ends(path: Path) -> list[float]:
    """End dates of the data movers' stage-outs (out_data.csv; absent: none moved)."""
    if not path.exists():
        return []
    with open(path, newline="") as handle:
        return [float(r["end_time"]) for r in csv.DictReader(handle) if r["event"] == "stage_out"]


def measure(out: Path, workload: Mapping[str, Any], style: str, variant: str, policy: str) -> dict[str, Any]:
    """T_all and the eqs. 1-5 terms of the workflow's jobs (jobs 1, 7, 9, or the merged
    single-script job). T(i,queue) = start - max(submission, end of its predecessors):
    for a dependency or chained step, the time it waited once it could have run."""
    jobs = _read(out / "out_jobs.csv")
    io = _read(out / "out_io.csv")
    stage_outs = _stage_out_ends(out / "out_data.csv")
    steps = [j for j in workload["jobs"] if (j.get("datasched_workflow") or {}).get("workflow")]
    end: dict[str, float] = {}
    terms: list[dict[str, Any]] = []
    for step in sorted(steps, key=lambda j: float(jobs[str(j["id"])]["starting_time"])):
        key = str(step["id"])
        row = jobs[key]
        start, finish = float(row["starting_time"]), float(row["finish_time"])
        preds = [end[str(p)] for p in step.get("dependencies", []) + step.get("datasched_submit_after", [])]
        ready = max([float(step["subtime"]), *preds])
        end[key] = finish
        t_io = float(io[key]["read_phase_seconds"]) + float(io[key]["write_phase_seconds"])
        terms.append(
            {
                "job": key,
                "nodes": int(step["res"]),
                "queue": start - ready,
                "run": float(row["execution_time"]),
                "io": t_io,
                "compute": float(io[key]["compute_phase_seconds"]),
                "start": start,
            }
        )
    first_submit = min(float(j["subtime"]) for j in steps)
    t_all = max(end.values()) - first_submit
    # when the workflow's data is safe on central storage: a post-moved output gets there
    # after its step ended, in the background
    t_safe = max([max(end.values()), *stage_outs]) - first_submit
    t_all_eq4 = sum(t["queue"] + t["run"] for t in terms)  # eq. 4 (eq. 1 for one job)
    r_max = max(t["nodes"] for t in terms)
    return {
        "nvm": variant,
        "style": style,
        "policy": policy,
        "t_all": t_all,
        "t_safe": t_safe,
        "t_all_eq": t_all_eq4,
        "t_queue": sum(t["queue"] for t in terms),
        "t_run": sum(t["run"] for t in terms),
        "t_io": sum(t["io"] for t in terms),
        "t_compute": sum(t["compute"] for t in terms),
        "r_all_eq2": r_max * t_all,  # eq. 2: R_max x T_all (what a single script holds)
        "r_all_eq3": sum(t["nodes"] * t["run"] for t in terms),  # eq. 3: sum R_i x T_i
        "makespan": max(float(r["finish_time"]) for r in jobs.values()),
        "steps": terms,
    }


COLUMNS = ("nvm", "style", "policy", "t_all", "t_safe", "t_all_eq", "t_queue", "t_run", "t_io", "t_compute",
           "r_all_eq2", "r_all_eq3", "makespan")  # fmt: skip


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow([*COLUMNS, "paper_t_all"])
        for r in rows:
            writer.writerow([*(f"{r[c]:.3f}" if isinstance(r[c], float) else r[c] for c in COLUMNS),
                             f"{PAPER_T_ALL[r['policy']]:.0f}"])  # fmt: skip


def plot(rows: Sequence[Mapping[str, Any]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{r['nvm']}\n{r['style']}" for r in rows if r["policy"] == "unaware"]
    fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(POLICIES) * len(labels)), 4))
    width = 0.8 / len(POLICIES)
    for k, policy in enumerate(POLICIES):
        values = [r["t_all"] for r in rows if r["policy"] == policy]
        offset = (k - (len(POLICIES) - 1) / 2) * width
        ax.bar([i + offset for i in range(len(values))], values, width, label=f"data-{policy}", color=f"C{k}")
    for paper, label in ((490.0, "paper, data-unaware"), (280.0, "paper, data-aware")):
        ax.axhline(paper, linestyle="--", color="grey" if paper > 300 else "black", linewidth=1, label=label)
    ax.set_xticks(range(len(labels)), labels, fontsize=8)
    ax.set_ylabel("T_all of workflow 1 -> 7 -> 9 (s)")
    ax.set_title(title)
    # beside the axes: inside, at any corner, it covered the first or last group's bars
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _verdict(ours: float, paper: float) -> str:
    """The per-run gap to the paper, as a number: the claims table says why it is not a verdict."""
    return f"{100 * (ours - paper) / paper:+.0f} % (bookkeeping)"


#: Why Table 4's checks are bookkeeping: which input definition makes each outcome.
UNAWARE_BY_CONSTRUCTION = (
    "Table 4's data sizes are defined as its I/O seconds × 1 GB/s (workflows/nextgenio_table4.yaml), so the "
    "data-unaware T_all is Table 4's own sum of seconds"
)
AWARE_BY_CONSTRUCTION = (
    "with the paper-table1 rates node NVM I/O takes ≈ 0 s, so the data-aware T_all is Table 4's compute "
    "seconds plus its central writes; with other NVM rates it is the same sizes divided by those rates: "
    "arithmetic on the table either way"
)


def claims(rows: Sequence[Mapping[str, Any]]) -> list[Verdict]:
    """The bookkeeping runs' check, labelled *by construction* (never counted as reproduced):
    at 1 GB/s sizes on a 1 GB/s path they give back Table 4's own sums (470/490 s, 280 s).
    The paper's T_all claims are judged on the model runs
    (:func:`datasched.analysis.seed001_table4_model.verdicts`)."""
    parts = []
    for policy, why in (("unaware", UNAWARE_BY_CONSTRUCTION), ("aware", AWARE_BY_CONSTRUCTION)):
        mine = [r for r in rows if r["policy"] == policy]
        if not mine:
            raise VerdictError(f"seed 001: no data-{policy} run")
        values = ", ".join(f"{r['nvm']}/{r['style']} {float(r['t_all']):.0f} s" for r in mine)
        parts.append((f"data-{policy}: {values}", why))
    return [
        Verdict(
            "table4.sums",
            "Table 4's sums of T_run (bookkeeping runs, sizes = seconds × 1 GB/s)",
            "90 + 330 + 50 = 470 s (+20 s wait); 60 + 180 + 40 = 280 s",
            "; ".join(p[0] for p in parts),
            by_construction("; ".join(p[1] for p in parts)),
        )
    ]


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
    from datasched.analysis import seed001_table4_model as model
    from datasched.analysis import seed001_table4_model_report as model_report

    verdicts = [*(model.verdicts(model_rows) if model_rows else []), *claims(rows)]
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
        "Figs. 8/9 (`analysis/seed001_timelines.py`): every job of the model runs (section *Table 4 as a model "
        "prediction*) at the best single parameter set and its first load seed, data-unaware and data-aware, drawn "
        "per node from the runs' `out_jobs.csv` (nodes, start, end) and `out_io.csv` (read, compute and write phase "
        "seconds in the profile's order); background-load jobs are the plain tan bars (unlabelled). A wait of a "
        "workflow step (the paper's 20 s for job 9) shows as the gap between its predecessor's end and its start; "
        "it comes out of the scheduler when other jobs hold the nodes it needs.",
        "",
        "## Claims",
        "",
        *claims_table(verdicts),
        "",
        *verdict_rules(),
        "",
        *(model_report.section(model_rows, spec.model, model_figure) if model_rows and spec.model else []),
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
            f"{_verdict(r['t_all'], paper)} | {r['t_safe']:.1f} | {r['t_all_eq']:.1f} | {r['t_queue']:.1f} | "
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
        "Choices where the paper is silent: the platform (see `analysis/seed001_workflows.py`), the data sizes "
        "(the workflow file: seconds x 1 GB/s per node), walltime = 10 x nominal (no job is killed; the list "
        "scheduler does not use walltimes), the placement rule of the data-aware variant (schedulers/workflow.py).",
        "",
        "Real workflow shapes (WfCommons instances, data-aware against unaware, every submission style, file "
        "sizes scaled) are a separate artifact: `paper-artifacts/seed001-wfcommons/`.",
        "",
    ]
    return "\n".join(lines)


def write_runs_json(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    path.write_text(json.dumps(list(rows), indent=1, sort_keys=True) + "\n")
