"""Seed 001 Table 4 step 2, the bookkeeping runs: per NVM variant its platform, per submission
style the styled workload, and per compared policy one engine run (in process), each measured
as it ends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from datasched.analysis.seed001_workflows.measure import measure
from datasched.analysis.seed001_workflows.platform import table4_platform
from datasched.analysis.seed001_workflows.spec import POLICIES, POLICY_OPTIONS, NvmVariant, Seed001Spec


def write_platform(variant: NvmVariant, reference: Any, path: Path) -> Path:
    """The 20-node platform with the variant's node NVM rates; the storage NIC at the rate
    the workflow file converted Table 4's seconds into bytes (``reference.io_bandwidth``)."""
    node = {"speed": reference.host_speed, "nvm_read_bw": variant.read_bw, "nvm_write_bw": variant.write_bw}
    return table4_platform(f"seed001-table4-{variant.name}", node, reference.io_bandwidth, path)


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
