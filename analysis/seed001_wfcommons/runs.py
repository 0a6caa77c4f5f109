"""Seed 001 on WfCommons shapes step 2, the runs: the two platforms, the instances converted to
workloads (file sizes scaled), every run on the engine (the rows are kept with
``analysis/runs_json.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from datasched.analysis.path_values import number
from datasched.analysis.seed001_wfcommons.measure import measure
from datasched.analysis.seed001_wfcommons.spec import WfSweepSpec
from datasched.analysis.seed001_workflows.platform import table4_platform


def write_platform(spec: WfSweepSpec, platform: str, path: Path) -> Path:
    """Seed 001's Table 4 platform (analysis/seed001_workflows/platform.py) with the spec's torus,
    node speed and storage NIC; ``scm``: node NVM (``nvm_read_bw``/``nvm_write_bw``); ``san``: the
    same system without node NVM."""
    node: dict[str, float] = {"speed": spec.host_speed}
    if platform == "scm":
        node |= {"nvm_read_bw": spec.nvm_read_bw, "nvm_write_bw": spec.nvm_write_bw}
    mode: Literal["unified", "san"] = "unified" if platform == "scm" else "san"
    name = f"seed001-wfcommons-{platform}"
    return table4_platform(name, node, spec.node_nic_bw, path, storage_mode=mode, torus=spec.torus)


def scaled(workflow: Any, scale: float) -> Any:
    """The workflow with every data item and read/write phase ``scale`` times larger."""
    from datasched.workflows.model import workflow_from_dict, workflow_to_dict

    if scale == 1.0:
        return workflow
    doc = workflow_to_dict(workflow)
    for item in doc.get("data", []):
        item["bytes"] = item.get("bytes", 0) * scale
    for step in doc["steps"]:
        for phase in step["phases"]:
            if phase["kind"] in ("read", "write") and "bytes" in phase:
                phase["bytes"] *= scale
    return workflow_from_dict(doc, f"{workflow.name} (sizes x {scale:g})")


def run_all(spec: WfSweepSpec, work: Path) -> list[dict[str, Any]]:
    """Every run of the spec; one row of metrics per run."""
    from datasched.runner import run_simulation
    from datasched.workflows.convert import workflow_to_workload
    from datasched.workflows.submission import apply_style
    from datasched.workflows.wfcommons import WfCommonsConversion, instance_to_workflow, load_instance
    from datasched.workloads.jsonio import write_json

    platforms = {p: write_platform(spec, p, work / f"platform-{p}.xml") for p in spec.platforms}
    conversion = WfCommonsConversion(host_speed=spec.host_speed, system_nodes=spec.nodes)
    workflows: dict[Path, Any] = {}
    workloads: dict[tuple[Path, str, float], Path] = {}
    rows = []
    for app, inst, platform, style, scale, variant in spec.runs():
        if inst not in workflows:
            workflows[inst] = instance_to_workflow(load_instance(inst), conversion, str(inst))
        key = (inst, style, scale)
        tag = f"{inst.name.split('.')[0]}/style={style}/scale={number(scale)}"
        if key not in workloads:
            doc = workflow_to_workload(
                apply_style(scaled(workflows[inst], scale), style), mode="phases", walltime_factor=spec.walltime_factor
            )
            workloads[key] = write_json(doc, work / "workloads" / f"{tag}.json")
        out = work / "sims" / tag / f"platform={platform}" / f"variant={variant.name}"
        result = run_simulation(
            platforms[platform],
            workloads[key],
            variant.policy,
            out,
            scheduler_options=dict(variant.options),
            in_process=True,
        )
        rows.append(
            {
                "app": app.name,
                "instance": inst.name.split(".")[0],
                "platform": platform,
                "variant": variant.name,
                "style": style,
                "size_scale": scale,
                **measure(result.jobs_csv.parent),
            }
        )
    return rows
