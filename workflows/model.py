"""The datasched workflow format (YAML or JSON) and its validation.

A workflow file describes a set of jobs ("steps") on a system of ``system_nodes``
nodes. Steps that form a workflow (seed 001 section 2.1) name it in ``workflow``, list
the steps that must finish first in ``after`` (temporal dependencies) and read/write
declared data products. Other steps are ordinary independent jobs (Table 4 mixes both).

    format: datasched-workflow/1
    name: example
    system_nodes: 20
    reference: {host_speed: 1.0e9, io_bandwidth: 1.0e9}   # converts `seconds` phases
    steps:
      - id: 1
        nodes: 4
        workflow: wf1
        after: []                    # temporal dependencies (step ids)
        submission: dependency       # or chain (see datasched.workflows.submission)
        phases:
          - {kind: read, seconds: 10, data: [wf1.input]}
          - {kind: compute, seconds: 50}
          - {kind: write, seconds: 30, data: [wf1.d1]}
    data:
      - {name: wf1.input, bytes: 4.0e10, producer: null, consumers: [1]}
      - {name: wf1.d1, bytes: 1.2e11, producer: 1, consumers: [7]}

A phase gives exactly one amount: ``seconds`` (nominal duration, converted with
``reference``: flops = seconds x host_speed, bytes per node = seconds x io_bandwidth),
``flops`` (compute) or ``bytes`` (read/write: per node; communicate: sent per node).
``nodes`` (optional) says how many of the step's nodes take part in the phase (the first
n of its allocation), as when a single job script runs ``mpirun -n 1`` inside a 64-node
allocation; by default all of them.

Validation (all errors name the file and the step / data item / key):
unknown keys; duplicate step ids or data names; ``after`` or data producer/consumer
referring to an undefined step; a phase referring to undefined data; a write of data the
step does not produce; a read of data the step does not consume; a consumer that does not
(transitively) come after the producer; reading more bytes than the data holds; steps
wider than the system; dependency cycles (the cycle is printed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from datasched.errors import UserError, parse_yaml, read_utf8, yaml_error
from datasched.platforms.params import MAX_TOPOLOGY_NODES
from datasched.workloads.phases import MAX_AMOUNT

FORMAT_TAG: Literal["datasched-workflow/1"] = "datasched-workflow/1"

#: Amounts (flops, bytes) and durations of a workflow: finite, never ``.inf`` (a converter
#: multiplying absurd inputs must fail here, not write a file no reader takes back).
Amount = Annotated[float, Field(ge=0, allow_inf_nan=False)]
#: Rates of the reference: finite and positive.
Rate = Annotated[float, Field(gt=0, allow_inf_nan=False)]
#: Node counts: at most the largest platform the generator builds (platforms/params.py).
NodeCount = Annotated[int, Field(ge=1, le=MAX_TOPOLOGY_NODES)]

PhaseKindName = Literal["compute", "communicate", "read", "write"]
Submission = Literal["dependency", "chain"]


class Reference(BaseModel):
    """Rates that turn ``seconds`` phases into amounts (the file's stated assumption)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    host_speed: Rate = 1e9  # flop/s per node
    io_bandwidth: Rate = 1e9  # B/s per node to/from external storage
    link_bandwidth: Rate = 1e10  # B/s per node for communicate phases


class WorkflowPhase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: PhaseKindName
    seconds: Amount | None = None
    flops: Amount | None = None
    bytes: Amount | None = None
    data: tuple[str, ...] = ()
    nodes: NodeCount | None = None  # active nodes (first n of the job's); None: all

    @model_validator(mode="after")
    def one_amount(self) -> WorkflowPhase:
        given = [k for k in ("seconds", "flops", "bytes") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"a {self.kind} phase needs exactly one of seconds/flops/bytes, got {given or 'none'}")
        if self.flops is not None and self.kind != "compute":
            raise ValueError(f"flops is only for compute phases, not {self.kind}")
        if self.bytes is not None and self.kind == "compute":
            raise ValueError("a compute phase takes flops or seconds, not bytes")
        if self.data and self.kind not in ("read", "write"):
            raise ValueError(f"only read/write phases reference data, not {self.kind}")
        return self

    def amount(self, ref: Reference) -> float:
        """flops (compute) or bytes per node (other kinds)."""
        if self.seconds is None:
            return float(self.flops if self.flops is not None else self.bytes)  # type: ignore[arg-type]
        rate = {"compute": ref.host_speed, "communicate": ref.link_bandwidth}.get(self.kind, ref.io_bandwidth)
        return self.seconds * rate

    def nominal_seconds(self, ref: Reference) -> float:
        if self.seconds is not None:
            return self.seconds
        rate = {"compute": ref.host_speed, "communicate": ref.link_bandwidth}.get(self.kind, ref.io_bandwidth)
        return self.amount(ref) / rate


class Step(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: int = Field(ge=0)
    nodes: NodeCount
    phases: tuple[WorkflowPhase, ...] = Field(min_length=1)
    workflow: str | None = None
    after: tuple[int, ...] = ()
    submission: Submission = "dependency"
    submit: Amount = 0.0
    walltime: Rate | None = None  # seconds: finite and > 0
    name: str | None = None


class DataProduct(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    bytes: Amount
    producer: int | None = None  # None: exists before the workflow (external input)
    consumers: tuple[int, ...] = ()


class Workflow(BaseModel):
    """A validated workflow file (see module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["datasched-workflow/1"] = FORMAT_TAG
    name: str
    description: str = ""
    system_nodes: NodeCount
    reference: Reference = Reference()
    steps: tuple[Step, ...] = Field(min_length=1)
    data: tuple[DataProduct, ...] = ()
    notes: tuple[str, ...] = ()

    def step(self, step_id: int) -> Step:
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(step_id)

    @property
    def step_ids(self) -> list[int]:
        return [s.id for s in self.steps]


def find_cycle(edges: dict[int, tuple[int, ...]]) -> list[int] | None:
    """A dependency cycle as a list of step ids (first == last), or None.
    ``edges[s]`` are the steps ``s`` comes after."""
    colour: dict[int, int] = {}  # 1 = on stack, 2 = done
    stack: list[int] = []

    def visit(node: int) -> list[int] | None:
        colour[node] = 1
        stack.append(node)
        for prev in edges.get(node, ()):
            if colour.get(prev) == 1:
                return stack[stack.index(prev) :] + [prev]
            if prev not in colour:
                found = visit(prev)
                if found:
                    return found
        stack.pop()
        colour[node] = 2
        return None

    for node in sorted(edges):
        if node not in colour:
            found = visit(node)
            if found:
                return found
    return None


def topological_order(workflow: Workflow, ids: list[int] | None = None) -> list[int]:
    """Steps (restricted to ``ids``) in an order compatible with ``after``; ties broken
    by id so the order is deterministic."""
    wanted = set(workflow.step_ids if ids is None else ids)
    pending = {s.id: {a for a in s.after if a in wanted} for s in workflow.steps if s.id in wanted}
    order: list[int] = []
    while pending:
        ready = sorted(s for s, deps in pending.items() if not deps)
        if not ready:
            raise UserError(f"workflow {workflow.name}: dependency cycle among steps {sorted(pending)}")
        first = ready[0]
        order.append(first)
        del pending[first]
        for deps in pending.values():
            deps.discard(first)
    return order


def ancestors(workflow: Workflow, step_id: int) -> set[int]:
    seen: set[int] = set()
    todo = list(workflow.step(step_id).after)
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(workflow.step(current).after)
    return seen


def check_references(workflow: Workflow, where: str) -> None:
    """Cross-reference checks that need the whole file (module docstring)."""
    ids = [s.id for s in workflow.steps]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise UserError(f"{where}: duplicate step id(s) {dup}")
    known = set(ids)
    for step in workflow.steps:
        for index, phase in enumerate(step.phases):
            if phase.nodes is not None and phase.nodes > step.nodes:
                raise UserError(
                    f"{where}: step {step.id} phase {index} uses {phase.nodes} nodes, step has {step.nodes}"
                )
        if step.nodes > workflow.system_nodes:
            raise UserError(f"{where}: step {step.id} needs {step.nodes} nodes, system has {workflow.system_nodes}")
        for prev in step.after:
            if prev not in known:
                raise UserError(f"{where}: step {step.id}: 'after' refers to undefined step {prev}")
            if prev == step.id:
                raise UserError(f"{where}: step {step.id} depends on itself")
    cycle = find_cycle({s.id: s.after for s in workflow.steps})
    if cycle:
        raise UserError(f"{where}: dependency cycle: {' -> '.join(str(c) for c in reversed(cycle))}")
    names = [d.name for d in workflow.data]
    dup_names = sorted({n for n in names if names.count(n) > 1})
    if dup_names:
        raise UserError(f"{where}: duplicate data name(s) {dup_names}")
    products = {d.name: d for d in workflow.data}
    for item in workflow.data:
        if item.producer is not None and item.producer not in known:
            raise UserError(f"{where}: data {item.name}: producer refers to undefined step {item.producer}")
        for consumer in item.consumers:
            if consumer not in known:
                raise UserError(f"{where}: data {item.name}: consumer refers to undefined step {consumer}")
            if (
                item.producer is not None
                and consumer != item.producer
                and item.producer not in ancestors(workflow, consumer)
            ):
                raise UserError(
                    f"{where}: data {item.name}: consumer step {consumer} does not come after producer step "
                    f"{item.producer} (add it to 'after')"
                )
    for step in workflow.steps:
        for index, phase in enumerate(step.phases):
            _check_engine_range(phase, workflow.reference, f"{where}: step {step.id} phase {index} ({phase.kind})")
            for name in phase.data:
                product = products.get(name)
                if product is None:
                    raise UserError(
                        f"{where}: step {step.id} phase {index} ({phase.kind}) refers to undefined data {name!r}"
                    )
                item = product
                if phase.kind == "write" and item.producer != step.id:
                    raise UserError(f"{where}: step {step.id} writes data {name!r} whose producer is {item.producer}")
                if phase.kind == "read" and step.id not in item.consumers:
                    raise UserError(f"{where}: step {step.id} reads data {name!r} but is not one of its consumers")
            if phase.kind == "read" and phase.data:
                total_read = phase.amount(workflow.reference) * (phase.nodes or step.nodes)
                available = sum(products[n].bytes for n in phase.data)
                if total_read > available * (1 + 1e-9):
                    raise UserError(
                        f"{where}: step {step.id} phase {index} reads {total_read:g} B but data "
                        f"{list(phase.data)} hold only {available:g} B"
                    )


def _check_engine_range(phase: WorkflowPhase, ref: Reference, where: str) -> None:
    """A phase's amount and nominal duration at most ``MAX_AMOUNT`` (1e23), the engine's
    bound for every profile number: a larger one (1e300 flops, or 1e20 s at 1e9 flop/s)
    is refused here, naming the step, not in the engine after a conversion that
    succeeded."""
    unit = "flops" if phase.kind == "compute" else "bytes per node"
    for what, value in ((unit, phase.amount(ref)), ("nominal seconds", phase.nominal_seconds(ref))):
        if value > MAX_AMOUNT:
            raise UserError(f"{where}: {value:.6g} {what}, above {MAX_AMOUNT:g} (the largest amount the engine takes)")


def workflow_from_dict(data: Any, where: str = "<workflow>") -> Workflow:
    """Validate a parsed document; errors name ``where`` and the offending key path."""
    if not isinstance(data, dict):
        raise UserError(f"{where}: a workflow file must be a mapping at top level")
    try:
        workflow = Workflow.model_validate(data)  # not Workflow(**data): YAML keys may be numbers
    except ValidationError as exc:
        parts = []
        for err in exc.errors():
            loc = list(err["loc"])
            # name steps by their id rather than their list position when possible
            if len(loc) >= 2 and loc[0] == "steps" and isinstance(loc[1], int):
                steps = data.get("steps") or []
                if loc[1] < len(steps) and isinstance(steps[loc[1]], dict) and "id" in steps[loc[1]]:
                    loc[1] = f"[id={steps[loc[1]]['id']}]"
            parts.append(f"{'.'.join(str(p) for p in loc) or 'workflow'}: {err['msg']}")
        raise UserError(f"{where}: invalid workflow: " + "; ".join(parts)) from None
    check_references(workflow, where)
    return workflow


def load_workflow(path: str | Path) -> Workflow:
    """Read a workflow from YAML (``.yaml``/``.yml``) or JSON (any other suffix; JSON is
    valid YAML, so both parse with the safe YAML loader)."""
    path = Path(path)
    try:
        text = read_utf8(path)
    except OSError as exc:
        raise UserError(f"{path}: cannot read workflow file: {exc.strerror}") from None
    try:
        data = parse_yaml(text, path)
    except yaml.YAMLError as exc:
        raise yaml_error(path, exc, "YAML/JSON") from None
    return workflow_from_dict(data, str(path))


def workflow_to_dict(workflow: Workflow) -> dict[str, Any]:
    """Plain data for YAML/JSON output, omitting defaults so files stay readable;
    ``workflow_from_dict(workflow_to_dict(w)) == w``."""
    return workflow.model_dump(mode="json", exclude_defaults=True) | {"format": FORMAT_TAG}


def dump_workflow(workflow: Workflow, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        yaml.safe_dump(workflow_to_dict(workflow), sort_keys=True, default_flow_style=None), encoding="utf-8"
    )
    return path
