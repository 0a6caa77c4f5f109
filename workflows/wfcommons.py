"""WfCommons instances (WfFormat JSON) -> the datasched workflow format (:mod:`.model`).

WfCommons (https://wfcommons.org) publishes executions of real scientific workflows as
*instances* in WfFormat: tasks with their parents/children, the files each task reads and
writes (with sizes) and each task's measured runtime. This module reads WfFormat 1.5
(``workflow.specification`` {tasks, files} + ``workflow.execution`` {tasks}) and the
older 1.4 (``workflow.tasks`` with inline ``files`` [{link: input|output, name, size}]),
optionally gzip-compressed (``.gz``), and builds one datasched workflow whose steps are
the instance's tasks. We parse the JSON ourselves (the ``wfcommons`` package would add
SciPy and 73 MB of WfChef recipes for a format this small); ``workflows/wfcommons_instances/``
ships a few real instances.

Mapping (every choice written down; the options are :class:`WfCommonsConversion`):

====================  ==================================================================
WfCommons             datasched workflow
====================  ==================================================================
task                  one step (job), ids 1..n in the instance's task order; ``name`` is
                      the task id; ``workflow`` is the instance name
task cores            ``nodes = ceil(cores / cores_per_node)`` (``coreCount``, 1.4
                      ``cores``; absent: 1 core). Our jobs own whole nodes; a task's
                      runtime is kept on every node it gets (no speed-up model)
runtime               a compute phase of ``runtime x host_speed`` flops per node, so it
                      lasts the measured runtime at that speed (``host_speed``: the
                      platform's compute speed, given by the caller). The measured runtime
                      also contains the task's own I/O on the machine it ran on; we add
                      our read/write phases on top (an upper bound on its I/O time)
parents, children     ``after`` (temporal dependencies), plus the producer of every input
                      file (a file dependency is an ordering too)
file                  a named data item (``data``): bytes = its size, producer = the task
                      that outputs it (none: an input on central storage before the run),
                      consumers = the tasks that read it
inputs / outputs      a read phase of the task's input files, then the compute phase, then
                      a write phase of its outputs (bytes per node = total / nodes, split
                      among the files by size as :mod:`.convert` does). Files no task
                      reads are final outputs: written to central storage
====================  ==================================================================

Errors (one line naming the file and the task or file; :class:`~datasched.errors.UserError`):
not JSON, an unsupported ``schemaVersion``, a task without id or runtime, duplicate task
ids, a parent or child that is not a task, a file without size or with a negative or
non-numeric size, a file written by two tasks, a task that reads a file it writes, and
dependency cycles (the cycle is named).
"""

from __future__ import annotations

import gzip
import json
import math
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, PositiveFloat, PositiveInt

from datasched.errors import UserError, one_line, parse_json, refuse_special_file
from datasched.platforms.params import MAX_TOPOLOGY_NODES
from datasched.workflows.model import (
    FORMAT_TAG,
    DataProduct,
    Reference,
    Step,
    Workflow,
    WorkflowPhase,
    find_cycle,
    workflow_from_dict,
    workflow_to_dict,
)
from datasched.workloads.phases import MAX_AMOUNT

SUPPORTED_SCHEMAS = ("1.4", "1.5")


class WfCommonsConversion(BaseModel):
    """Options of the conversion (module docstring). Finite numbers only: an infinite
    host speed would be blamed on the first task's runtime."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    host_speed: PositiveFloat = 1e9  # flop/s per node: runtime x host_speed flops
    cores_per_node: PositiveInt = 1  # a task of c cores takes ceil(c / cores_per_node) nodes
    system_nodes: PositiveInt | None = None  # default: the widest task
    io_bandwidth: PositiveFloat = 1e9  # the workflow's reference rate (only for `seconds` phases)


@dataclass(frozen=True)
class Task:
    id: str
    runtime: float
    cores: int
    parents: tuple[str, ...]
    children: tuple[str, ...]
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]


@dataclass(frozen=True)
class Instance:
    """A WfCommons instance reduced to what the conversion uses."""

    name: str
    schema: str
    tasks: tuple[Task, ...]
    file_sizes: dict[str, float]


# ------------------------------------------------------------------------ reading


def _number(value: Any, where: str, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise UserError(f"{where}: {what} must be a finite number, got {one_line(json.dumps(value))[:60]}")
    if value < 0:
        raise UserError(f"{where}: {what} is negative ({value})")
    return float(value)


def _names(value: Any, where: str, what: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UserError(f"{where}: {what} must be a list of names")
    return tuple(value)


def _mapping(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise UserError(f"{where}: expected a JSON object")
    return value


def _task_id(raw: dict[str, Any], source: str, index: int) -> str:
    task_id = raw.get("id", raw.get("name"))
    if not isinstance(task_id, str) or not task_id:
        raise UserError(f"{source}: task #{index + 1} has no id (or name)")
    return task_id


def _cores(value: Any, where: str) -> int:
    if value is None:
        return 1
    cores = _number(value, where, "coreCount")
    if cores < 1 or cores != int(cores):
        raise UserError(f"{where}: coreCount must be a positive integer, got {value}")
    return int(cores)


def _parse_v15(doc: dict[str, Any], source: str) -> tuple[list[Task], dict[str, float]]:
    workflow = _mapping(doc.get("workflow"), f"{source}: workflow")
    spec = _mapping(workflow.get("specification"), f"{source}: workflow.specification")
    execution = workflow.get("execution")
    runs: dict[str, dict[str, Any]] = {}
    if execution is not None:
        for raw in _mapping(execution, f"{source}: workflow.execution").get("tasks") or []:
            raw = _mapping(raw, f"{source}: workflow.execution.tasks")
            if isinstance(raw.get("id"), str):
                runs[raw["id"]] = raw
    sizes: dict[str, float] = {}
    for raw in spec.get("files") or []:
        raw = _mapping(raw, f"{source}: workflow.specification.files")
        file_id = raw.get("id")
        if not isinstance(file_id, str) or not file_id:
            raise UserError(f"{source}: a file of workflow.specification.files has no id")
        if "sizeInBytes" not in raw:
            raise UserError(f"{source}: file {file_id!r} has no sizeInBytes")
        sizes[file_id] = _number(raw["sizeInBytes"], f"{source}: file {file_id!r}", "sizeInBytes")
    tasks = []
    raw_tasks = spec.get("tasks")
    if not isinstance(raw_tasks, list) or not raw_tasks:
        raise UserError(f"{source}: workflow.specification.tasks must be a non-empty list")
    for index, raw in enumerate(raw_tasks):
        raw = _mapping(raw, f"{source}: task #{index + 1}")
        task_id = _task_id(raw, source, index)
        where = f"{source}: task {task_id!r}"
        run = runs.get(task_id)
        if run is None or "runtimeInSeconds" not in run:
            raise UserError(f"{where}: no runtimeInSeconds in workflow.execution.tasks (the conversion needs one)")
        tasks.append(
            Task(
                id=task_id,
                runtime=_number(run["runtimeInSeconds"], where, "runtimeInSeconds"),
                cores=_cores(run.get("coreCount"), where),
                parents=_names(raw.get("parents"), where, "parents"),
                children=_names(raw.get("children"), where, "children"),
                inputs=_names(raw.get("inputFiles"), where, "inputFiles"),
                outputs=_names(raw.get("outputFiles"), where, "outputFiles"),
            )
        )
    return tasks, sizes


def _parse_v14(doc: dict[str, Any], source: str) -> tuple[list[Task], dict[str, float]]:
    workflow = _mapping(doc.get("workflow"), f"{source}: workflow")
    raw_tasks = workflow.get("tasks", workflow.get("jobs"))
    if not isinstance(raw_tasks, list) or not raw_tasks:
        raise UserError(f"{source}: workflow.tasks must be a non-empty list")
    tasks = []
    sizes: dict[str, float] = {}
    for index, raw in enumerate(raw_tasks):
        raw = _mapping(raw, f"{source}: task #{index + 1}")
        task_id = _task_id(raw, source, index)
        where = f"{source}: task {task_id!r}"
        runtime = raw.get("runtimeInSeconds", raw.get("runtime"))
        if runtime is None:
            raise UserError(f"{where}: no runtime (runtimeInSeconds)")
        inputs: list[str] = []
        outputs: list[str] = []
        for f in raw.get("files") or []:
            f = _mapping(f, f"{where}: files")
            name = f.get("name", f.get("id"))
            if not isinstance(name, str) or not name:
                raise UserError(f"{where}: a file has no name")
            size = f.get("sizeInBytes", f.get("size"))
            if size is None:
                raise UserError(f"{where}: file {name!r} has no size")
            size = _number(size, f"{where}: file {name!r}", "size")
            if name in sizes and sizes[name] != size:
                raise UserError(f"{where}: file {name!r} has size {size:g}, another task gave {sizes[name]:g}")
            sizes[name] = size
            link = f.get("link")
            if link not in ("input", "output"):
                raise UserError(f"{where}: file {name!r} has link {link!r} (expected input or output)")
            (inputs if link == "input" else outputs).append(name)
        tasks.append(
            Task(
                id=task_id,
                runtime=_number(runtime, where, "runtime"),
                cores=_cores(raw.get("coreCount", raw.get("cores")), where),
                parents=_names(raw.get("parents"), where, "parents"),
                children=_names(raw.get("children"), where, "children"),
                inputs=tuple(inputs),
                outputs=tuple(outputs),
            )
        )
    return tasks, sizes


def parse_instance(doc: Any, source: str) -> Instance:
    """An :class:`Instance` from a parsed WfFormat document; errors name ``source``."""
    doc = _mapping(doc, f"{source}: the instance")
    schema = str(doc.get("schemaVersion", ""))
    if schema not in SUPPORTED_SCHEMAS:
        raise UserError(
            f"{source}: unsupported WfFormat schemaVersion {schema or '(none)'!r} (supported: "
            f"{', '.join(SUPPORTED_SCHEMAS)})"
        )
    tasks, sizes = (_parse_v15 if schema == "1.5" else _parse_v14)(doc, source)
    name = doc.get("name")
    return Instance(
        name=name if isinstance(name, str) and name else Path(source).name,
        schema=schema,
        tasks=tuple(tasks),
        file_sizes=sizes,
    )


def load_instance(path: str | Path) -> Instance:
    """Read a WfFormat JSON instance (``.gz``: gzip-compressed)."""
    path = Path(path)
    refuse_special_file(path)
    try:
        raw = path.read_bytes()
        if path.suffix == ".gz":
            raw = gzip.decompress(raw)
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        # A cut download ends before gzip's end-of-stream marker (EOFError); a damaged one
        # fails its checksum (BadGzipFile) or its deflate data (zlib.error).
        raise UserError(f"{path}: not a complete gzip file (truncated or damaged?): {exc}") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read WfCommons instance: {exc.strerror or exc}") from None
    try:
        doc = parse_json(raw.decode("utf-8"), path)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{path}: not a WfFormat JSON instance: {exc}") from None
    return parse_instance(doc, str(path))


# ------------------------------------------------------------------------ mapping


def _check(instance: Instance, source: str) -> tuple[dict[str, int], dict[str, str]]:
    """Task numbers (1..n) and each file's producer; raises on the errors listed above."""
    number: dict[str, int] = {}
    for task in instance.tasks:
        if task.id in number:
            raise UserError(f"{source}: task {task.id!r} is defined twice")
        number[task.id] = len(number) + 1
    producer: dict[str, str] = {}
    for task in instance.tasks:
        where = f"{source}: task {task.id!r}"
        for kind, names in (("parent", task.parents), ("child", task.children)):
            for other in names:
                if other not in number:
                    raise UserError(f"{where}: unknown {kind} {other!r}")
        for name in (*task.inputs, *task.outputs):
            if name not in instance.file_sizes:
                raise UserError(f"{where}: file {name!r} has no size (not in workflow.specification.files)")
        for name in task.outputs:
            if name in producer and producer[name] != task.id:
                raise UserError(f"{where}: file {name!r} is also written by task {producer[name]!r}")
            producer[name] = task.id
        both = sorted(set(task.inputs) & set(task.outputs))
        if both:
            raise UserError(f"{where}: reads and writes file {both[0]!r} (an item cannot be its own input)")
    return number, producer


def _finite(value: float, where: str, what: str) -> float:
    """``value`` if the engine can compute with it: finite and at most ``MAX_AMOUNT``
    (1e23 flops or bytes, the engine's limit). An overflow (1e300 s x 1e9 flop/s) or an
    absurd amount is an error naming the task, never a ``.inf`` written into the
    workflow nor a file the engine then refuses."""
    if not math.isfinite(value):
        raise UserError(f"{where}: {what} overflows a double ({value}); the instance's numbers are absurd")
    if value > MAX_AMOUNT:
        raise UserError(f"{where}: {what} is {value:.6g}, above {MAX_AMOUNT:g} (the largest amount the engine takes)")
    return value


def _nodes(task: Task, params: WfCommonsConversion, where: str) -> int:
    """Nodes of ``task``: at most ``system_nodes`` when given, else at most the largest
    platform the generator builds (``MAX_TOPOLOGY_NODES``)."""
    nodes = math.ceil(task.cores / params.cores_per_node)
    limit = params.system_nodes or MAX_TOPOLOGY_NODES
    if nodes > limit:
        target = f"system_nodes={params.system_nodes}" if params.system_nodes else f"{limit:,} (the largest platform)"
        raise UserError(
            f"{where}: coreCount {task.cores:,} needs {nodes:,} nodes of {params.cores_per_node} cores, "
            f"more than {target}"
        )
    return nodes


def instance_to_workflow(
    instance: Instance, params: WfCommonsConversion | None = None, source: str = "<instance>"
) -> Workflow:
    """The datasched :class:`~datasched.workflows.model.Workflow` of ``instance``."""
    params = params or WfCommonsConversion()
    number, producer = _check(instance, source)
    after: dict[int, set[int]] = {n: set() for n in number.values()}
    for task in instance.tasks:
        me = number[task.id]
        after[me].update(number[p] for p in task.parents)
        after[me].update(number[producer[f]] for f in task.inputs if f in producer)
        for child in task.children:
            after[number[child]].add(me)
    cycle = find_cycle({n: tuple(sorted(deps)) for n, deps in after.items()})
    if cycle:
        names = {n: t for t, n in number.items()}
        path = " -> ".join(repr(names[c]) for c in reversed(cycle))
        raise UserError(f"{source}: task {names[cycle[-1]]!r}: dependency cycle {path}")
    consumers: dict[str, list[int]] = {}
    steps = []
    for task in instance.tasks:
        me = number[task.id]
        where = f"{source}: task {task.id!r}"
        nodes = _nodes(task, params, where)
        phases: list[WorkflowPhase] = []
        if task.inputs:
            total = _finite(sum(instance.file_sizes[f] for f in task.inputs), where, "the sizes of its inputFiles")
            phases.append(WorkflowPhase(kind="read", bytes=total / nodes, data=tuple(task.inputs)))
            for f in task.inputs:
                consumers.setdefault(f, []).append(me)
        flops = _finite(task.runtime * params.host_speed, where, f"runtime {task.runtime:g} s x host_speed")
        phases.append(WorkflowPhase(kind="compute", flops=flops))
        if task.outputs:
            total = _finite(sum(instance.file_sizes[f] for f in task.outputs), where, "the sizes of its outputFiles")
            phases.append(WorkflowPhase(kind="write", bytes=total / nodes, data=tuple(task.outputs)))
        steps.append(
            Step(
                id=me,
                name=task.id,
                nodes=nodes,
                workflow=instance.name,
                after=tuple(sorted(after[me])),
                phases=tuple(phases),
            )
        )
    used = sorted({f for t in instance.tasks for f in (*t.inputs, *t.outputs)})
    data = [
        DataProduct(
            name=f,
            bytes=instance.file_sizes[f],
            producer=number[producer[f]] if f in producer else None,
            consumers=tuple(sorted(set(consumers.get(f, ())))),
        )
        for f in used
    ]
    widest = max(s.nodes for s in steps)
    system_nodes = params.system_nodes or widest
    if system_nodes < widest:
        raise UserError(f"{source}: a task needs {widest} nodes, more than system_nodes={system_nodes}")
    doc = {
        "format": FORMAT_TAG,
        "name": instance.name,
        "description": f"WfCommons instance {instance.name} (WfFormat {instance.schema}), from {Path(source).name}",
        "system_nodes": system_nodes,
        "reference": Reference(host_speed=params.host_speed, io_bandwidth=params.io_bandwidth).model_dump(),
        "steps": [s.model_dump() for s in steps],
        "data": [d.model_dump() for d in data],
        "notes": [
            f"converted by datasched workload from-wfcommons: {len(steps)} tasks, {len(data)} files, "
            f"host_speed {params.host_speed:g} flop/s, cores_per_node {params.cores_per_node}"
        ],
    }
    return workflow_from_dict(workflow_to_dict(workflow_from_dict(doc, source)), source)
