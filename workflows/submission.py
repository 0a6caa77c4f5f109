"""Seed 001's three ways users submit a workflow (section 2, Figs. 3-5), as
transformations ``Workflow -> Workflow`` of any valid workflow.

- :func:`single_script` (Fig. 3): one job at the maximum node count of the workflow's
  steps runs every step's phases back to back (topological order). One queue wait;
  resources R_all = R_max x T_all (eqs. 1-2).
- :func:`chained` (Fig. 4): every step is its own job with its own size; each job is
  *submitted* by its predecessor in a topological order when that one ends
  (``submission: chain``), so it queues behind everything submitted meanwhile
  (eqs. 3-4).
- :func:`with_dependencies` (Fig. 5): every step is its own job, all submitted at
  once, held by the scheduler until its ``after`` steps have completed
  (``submission: dependency``, Slurm ``afterok``).

Each function transforms the steps of one named workflow (``workflow=None``: every
workflow in the file) and leaves other steps untouched; the result is re-validated.
"""

from __future__ import annotations

from itertools import pairwise

from datasched.errors import UserError
from datasched.workflows.model import (
    DataProduct,
    Step,
    Workflow,
    topological_order,
    workflow_from_dict,
    workflow_to_dict,
)

STYLES = ("single-script", "chain", "dependency")


def _selected(workflow: Workflow, name: str | None) -> list[str]:
    names = sorted({s.workflow for s in workflow.steps if s.workflow is not None})
    if name is None:
        return names
    if name not in names:
        raise UserError(f"workflow {workflow.name}: no steps belong to workflow {name!r} (known: {names})")
    return [name]


def _rebuild(workflow: Workflow, steps: list[Step], data: list[DataProduct]) -> Workflow:
    updated = workflow.model_copy(update={"steps": tuple(steps), "data": tuple(data)})
    return workflow_from_dict(workflow_to_dict(updated), f"{workflow.name} (transformed)")


def single_script(workflow: Workflow, name: str | None = None) -> Workflow:
    """Merge each selected workflow into one job (id of its first step in topological
    order, nodes = max over steps, phases concatenated). Data produced and consumed
    inside the merged job keeps its declaration with the merged job as producer and
    consumer; dependencies on steps outside the workflow are kept."""
    steps = list(workflow.steps)
    data = list(workflow.data)
    for wf in _selected(workflow, name):
        members = [s.id for s in steps if s.workflow == wf]
        order = topological_order(workflow, members)
        first = order[0]
        by_id = {s.id: s for s in steps}
        merged = Step(
            id=first,
            nodes=max(by_id[i].nodes for i in order),
            phases=tuple(
                p.model_copy(update={"nodes": p.nodes or by_id[i].nodes}) for i in order for p in by_id[i].phases
            ),
            workflow=wf,
            after=tuple(sorted({a for i in order for a in by_id[i].after if a not in members})),
            submission="dependency",
            submit=min(by_id[i].submit for i in order),
            walltime=(sum(by_id[i].walltime for i in order) if all(by_id[i].walltime for i in order) else None),
            name=f"{wf} (single script)",
        )
        member_set = set(members)
        steps = [merged if s.id == first else s for s in steps if s.id not in member_set or s.id == first]
        # other steps that depended on a member now depend on the merged job
        steps = [
            s.model_copy(update={"after": tuple(sorted({first if a in member_set else a for a in s.after}))})
            if s.id != first
            else s
            for s in steps
        ]

        def remap(step_id: int | None) -> int | None:
            return first if step_id in member_set else step_id  # noqa: B023 (called in this iteration only)

        data = [
            d.model_copy(
                update={"producer": remap(d.producer), "consumers": tuple(sorted({remap(c) for c in d.consumers}))}
            )
            for d in data
        ]
    return _rebuild(workflow, steps, data)


def chained(workflow: Workflow, name: str | None = None) -> Workflow:
    """Each selected workflow becomes a chain in topological order: step k+1 is
    submitted by step k when it ends (its ``after`` becomes ``[step k]``; data
    dependencies stay satisfied because a topological order respects them)."""
    steps = {s.id: s for s in workflow.steps}
    for wf in _selected(workflow, name):
        members = [s.id for s in workflow.steps if s.workflow == wf]
        order = topological_order(workflow, members)
        for previous, current in pairwise(order):
            outside = [a for a in steps[current].after if a not in members]
            steps[current] = steps[current].model_copy(
                update={"after": tuple(sorted({previous, *outside})), "submission": "chain"}
            )
    return _rebuild(workflow, [steps[s.id] for s in workflow.steps], list(workflow.data))


def with_dependencies(workflow: Workflow, name: str | None = None) -> Workflow:
    """Every selected step is submitted up front and held on its ``after`` steps."""
    steps = list(workflow.steps)
    selected = set(_selected(workflow, name))
    steps = [s.model_copy(update={"submission": "dependency"}) if s.workflow in selected else s for s in steps]
    return _rebuild(workflow, steps, list(workflow.data))


def apply_style(workflow: Workflow, style: str, name: str | None = None) -> Workflow:
    """Dispatch on a style name from :data:`STYLES`."""
    if style == "single-script":
        return single_script(workflow, name)
    if style == "chain":
        return chained(workflow, name)
    if style == "dependency":
        return with_dependencies(workflow, name)
    raise UserError(f"unknown submission style {style!r} (expected one of {', '.join(STYLES)})")
