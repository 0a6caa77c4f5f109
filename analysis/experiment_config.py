"""The experiment pipeline's configuration: validated once, before any rule runs.

Why a module and not only ``snakemake.utils.validate``: a sweep that fails after an
hour because of a typo in its config wastes the hour. So the Snakefile calls
:func:`load_config` at parse time, and everything that can be checked without running
a simulation is checked there, each error naming the key:

1. the JSON Schema ``config/schema.json`` (structure, unknown keys, negative counts);
2. every trace's platform parameters (``datasched.platforms.parse_params``) and SWF
   conversion options (``datasched.workloads.swf_convert.make_options``);
3. every (policy, allocation, seed) of every sweep, instantiated through the scheduler
   registry, so unknown policy/allocator names and bad options fail here.

The validated :class:`ExperimentConfig` also expands the sweeps into :class:`Run`
objects whose ``path`` encodes every parameter (hive style: ``trace=hpc2n/policy=easy/
allocation=random/seed=3``), which is what the rules and the tidy loader rely on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from datasched.analysis.burst_buffers.spec import BurstSpec
from datasched.analysis.burst_buffers.spec import parse_spec as parse_burst_spec
from datasched.analysis.daemons_on_nodes.spec import DaemonsSpec
from datasched.analysis.daemons_on_nodes.spec import parse_spec as parse_daemons_spec
from datasched.analysis.path_values import under_root
from datasched.analysis.placement_gap.spec import PlacementGapSpec
from datasched.analysis.placement_gap.spec import parse_spec as parse_placement_gap_spec
from datasched.analysis.seed000.fig6.spec import Fig6Spec
from datasched.analysis.seed000.fig6.spec import parse_spec as parse_fig6_spec
from datasched.analysis.seed000.fig7.spec import Fig7Spec
from datasched.analysis.seed000.fig7.spec import parse_spec as parse_fig7_spec
from datasched.analysis.seed000.fig8.spec import Fig8Spec
from datasched.analysis.seed000.fig8.spec import parse_spec as parse_fig8_spec
from datasched.analysis.seed000.fig9.spec import Fig9Spec
from datasched.analysis.seed000.fig9.spec import parse_spec as parse_fig9_spec
from datasched.analysis.seed000.fig10.spec import Fig10Spec
from datasched.analysis.seed000.fig10.spec import parse_spec as parse_fig10_spec
from datasched.analysis.seed001_pagecache.spec import PageCacheSpec
from datasched.analysis.seed001_pagecache.spec import parse_spec as parse_pagecache_spec
from datasched.analysis.seed001_wfcommons.spec import WfSweepSpec
from datasched.analysis.seed001_wfcommons.spec import parse_spec as parse_wfcommons_spec
from datasched.analysis.seed001_workflows.spec import Seed001Spec
from datasched.analysis.seed001_workflows.spec import parse_spec as parse_seed001_spec
from datasched.analysis.seed002.spec import Seed002Spec
from datasched.analysis.seed002.spec import parse_spec as parse_seed002_spec
from datasched.analysis.seed003.spec import Seed003Spec
from datasched.analysis.seed003.spec import parse_spec as parse_seed003_spec
from datasched.analysis.seed004.spec import Seed004Spec
from datasched.analysis.seed004.spec import parse_spec as parse_seed004_spec
from datasched.errors import UserError, parse_yaml, read_utf8, yaml_error

REPO_ROOT = Path(__file__).resolve().parents[1]
SCHEMA_PATH = REPO_ROOT / "config" / "schema.json"

#: Seed label of runs whose allocator has no randomness (they run once).
NO_SEED = "none"


@dataclass(frozen=True)
class TraceSpec:
    name: str
    swf: Path
    nodes: int
    platform: Mapping[str, Any]
    conversion: Mapping[str, Any]
    description: str = ""


@dataclass(frozen=True, order=True)
class Run:
    """One simulation of a sweep; ``path`` encodes all of its parameters."""

    trace: str
    policy: str
    allocation: str
    seed: str  # an integer as text, or NO_SEED

    @property
    def path(self) -> str:
        return f"trace={self.trace}/policy={self.policy}/allocation={self.allocation}/seed={self.seed}"

    @property
    def scheduler_options(self) -> dict[str, Any]:
        return scheduler_options(self.allocation, self.seed)


@dataclass(frozen=True)
class GanttSpec:
    trace: str
    policy: str
    allocation: str
    seed: str


@dataclass(frozen=True)
class PoliciesOnTraces:
    traces: tuple[str, ...]
    policies: tuple[str, ...]
    allocations: tuple[str, ...]
    seeds: tuple[int, ...]
    gantt: tuple[GanttSpec, ...] = ()

    def runs(self) -> list[Run]:
        """The full grid; deterministic allocators run once (seed ``none``)."""
        runs: list[Run] = []
        for trace in self.traces:
            for policy in self.policies:
                for allocation in self.allocations:
                    seeds = [str(s) for s in self.seeds] if is_stochastic(allocation) else [NO_SEED]
                    runs.extend(Run(trace, policy, allocation, seed) for seed in seeds)
        return runs


@dataclass(frozen=True)
class ExperimentConfig:
    variant: str
    results_dir: Path
    artifacts_dir: Path
    decision_timeout: float
    traffic_policy: str
    sim_mem_mb: int
    sim_runtime_min: int
    traces: Mapping[str, TraceSpec]
    policies_on_traces: PoliciesOnTraces | None
    seed000_fig6: Fig6Spec | None = None
    seed000_fig6_dir: Path | None = None
    seed000_fig8: Fig8Spec | None = None
    seed000_fig8_dir: Path | None = None
    seed000_fig9: Fig9Spec | None = None
    seed000_fig9_dir: Path | None = None
    placement_gap: PlacementGapSpec | None = None
    placement_gap_dir: Path | None = None
    seed002_twins: Seed002Spec | None = None
    seed002_twins_dir: Path | None = None
    seed003_qos: Seed003Spec | None = None
    seed003_qos_dir: Path | None = None
    seed004_interference: Seed004Spec | None = None
    seed004_interference_dir: Path | None = None
    seed001_workflows: Seed001Spec | None = None
    seed001_workflows_dir: Path | None = None
    seed001_wfcommons: WfSweepSpec | None = None
    seed001_wfcommons_dir: Path | None = None
    seed001_pagecache: PageCacheSpec | None = None
    seed001_pagecache_dir: Path | None = None
    #: Artifacts built from committed per-run summaries (analysis/accumulate.py).
    accumulate: tuple[str, ...] = ()
    seed000_fig7: Fig7Spec | None = None
    seed000_fig7_dir: Path | None = None
    seed000_fig10: Fig10Spec | None = None
    seed000_fig10_dir: Path | None = None
    seed000_abstract_dir: Path | None = None
    daemons_on_nodes: DaemonsSpec | None = None
    daemons_on_nodes_dir: Path | None = None
    burst_buffers: BurstSpec | None = None
    burst_buffers_dir: Path | None = None

    @property
    def seed000_abstract(self) -> bool:
        """Whether the abstract's headline claims are judged (from Figure 6's numbers)."""
        return self.seed000_abstract_dir is not None

    def all_runs(self) -> list[Run]:
        return self.policies_on_traces.runs() if self.policies_on_traces else []


# --------------------------------------------------------------------------- loading


def load_config_file(path: str | Path, overrides: Mapping[str, Any] | None = None) -> ExperimentConfig:
    """Read a YAML config (plus ``overrides``, like ``snakemake --config``) and validate it."""
    import yaml

    path = Path(path)
    try:
        data = parse_yaml(read_utf8(path), path)
    except FileNotFoundError:
        raise UserError(f"config file not found: {path}") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read the config file: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise yaml_error(path, exc) from None
    if not isinstance(data, dict):
        raise UserError(f"{path}: the configuration must be a mapping")
    data.update(overrides or {})
    return load_config(data, source=str(path))


def load_config(data: Mapping[str, Any], source: str = "config") -> ExperimentConfig:
    """Validate ``data`` completely; raise UserError ``"<source>: <key.path>: <reason>"``."""
    data = dict(data)
    check_schema(data, source)
    traces = {name: _trace(name, spec, source) for name, spec in data["traces"].items()}
    pot = data["artifacts"].get("policies_on_traces")
    fig6 = data["artifacts"].get("seed000_fig6")
    fig8 = data["artifacts"].get("seed000_fig8")
    fig9 = data["artifacts"].get("seed000_fig9")
    gap = data["artifacts"].get("placement_gap")
    twins = data["artifacts"].get("seed002_twins")
    qos = data["artifacts"].get("seed003_qos")
    interference = data["artifacts"].get("seed004_interference")
    workflows = data["artifacts"].get("seed001_workflows")
    wfcommons = data["artifacts"].get("seed001_wfcommons")
    pagecache = data["artifacts"].get("seed001_pagecache")
    fig7 = data["artifacts"].get("seed000_fig7")
    fig10 = data["artifacts"].get("seed000_fig10")
    abstract = data["artifacts"].get("seed000_abstract")
    daemons = data["artifacts"].get("daemons_on_nodes")
    burst = data["artifacts"].get("burst_buffers")
    if abstract and not fig6:
        raise UserError(f"{source}: artifacts.seed000_abstract: needs artifacts.seed000_fig6 (its numbers)")
    return ExperimentConfig(
        variant=data["variant"],
        results_dir=_repo_path(data["results_dir"]),
        artifacts_dir=_repo_path(data["artifacts_dir"]),
        decision_timeout=float(data.get("decision_timeout", 600)),
        traffic_policy=str(data.get("traffic_policy", "none")),
        sim_mem_mb=int(data.get("sim_resources", {}).get("mem_mb", 1000)),
        sim_runtime_min=int(data.get("sim_resources", {}).get("runtime", 60)),
        traces=traces,
        policies_on_traces=_policies_on_traces(pot, traces, source) if pot else None,
        seed000_fig6=_seed000_fig6(fig6, source) if fig6 else None,
        seed000_fig6_dir=_repo_path(fig6["dir"]) if fig6 else None,
        seed000_fig8=_seed000_fig8(fig8, source) if fig8 else None,
        seed000_fig8_dir=_repo_path(fig8["dir"]) if fig8 else None,
        seed000_fig9=_seed000_fig9(fig9, source) if fig9 else None,
        seed000_fig9_dir=_repo_path(fig9["dir"]) if fig9 else None,
        placement_gap=_placement_gap(gap, source) if gap else None,
        placement_gap_dir=_repo_path(gap["dir"]) if gap else None,
        seed002_twins=_seed002_twins(twins, source) if twins else None,
        seed002_twins_dir=_repo_path(twins["dir"]) if twins else None,
        seed003_qos=parse_seed003_spec(qos) if qos else None,
        seed003_qos_dir=_repo_path(qos["dir"]) if qos else None,
        seed004_interference=_seed004_interference(interference, source) if interference else None,
        seed004_interference_dir=_repo_path(interference["dir"]) if interference else None,
        seed001_workflows=_seed001_workflows(workflows, source) if workflows else None,
        seed001_workflows_dir=_repo_path(workflows["dir"]) if workflows else None,
        seed001_wfcommons=_seed001_wfcommons(wfcommons, source) if wfcommons else None,
        seed001_wfcommons_dir=_repo_path(wfcommons["dir"]) if wfcommons else None,
        seed001_pagecache=parse_pagecache_spec(pagecache) if pagecache else None,
        seed001_pagecache_dir=_repo_path(pagecache["dir"]) if pagecache else None,
        accumulate=_accumulate(data.get("accumulate", []), data["artifacts"], source),
        seed000_fig7=_seed000_fig7(fig7, source) if fig7 else None,
        seed000_fig7_dir=_repo_path(fig7["dir"]) if fig7 else None,
        seed000_fig10=_seed000_fig10(fig10, source) if fig10 else None,
        seed000_fig10_dir=_repo_path(fig10["dir"]) if fig10 else None,
        seed000_abstract_dir=_repo_path(abstract["dir"]) if abstract else None,
        daemons_on_nodes=_daemons_on_nodes(daemons, source) if daemons else None,
        daemons_on_nodes_dir=_repo_path(daemons["dir"]) if daemons else None,
        burst_buffers=_burst_buffers(burst, source) if burst else None,
        burst_buffers_dir=_repo_path(burst["dir"]) if burst else None,
    )


def _accumulate(names: list[str], artifacts: Mapping[str, Any], source: str) -> tuple[str, ...]:
    """The accumulating artifacts; each must be configured (the schema checks the names)."""
    missing = [n for n in names if n not in artifacts]
    if missing:
        raise UserError(f"{source}: accumulate: {', '.join(missing)} not configured under artifacts")
    return tuple(names)


@cache
def _schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text())


def check_schema(data: Mapping[str, Any], source: str) -> None:
    """JSON Schema validation; every violation is reported with its key path."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(_schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        raise UserError(f"{source}: invalid configuration: " + "; ".join(_describe(e) for e in errors))


def _describe(error) -> str:
    path = [str(p) for p in error.absolute_path]
    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        allowed = set(error.schema.get("properties", {}))
        unknown = sorted(str(k) for k in error.instance if k not in allowed)  # YAML keys may be numbers
        known = ", ".join(sorted(allowed))
        return "; ".join(f"{'.'.join([*path, k])}: unknown key (known: {known})" for k in unknown)
    if error.validator == "required":
        return f"{'.'.join(path) or '(top level)'}: {error.message}"
    return f"{'.'.join(path) or '(top level)'}: {error.message}"


def _repo_path(text: str) -> Path:
    return under_root(text, REPO_ROOT)


def _trace(name: str, spec: Mapping[str, Any], source: str) -> TraceSpec:
    from datasched.platforms import parse_params
    from datasched.workloads.swf_convert import options_from_mapping

    where = f"traces.{name}"
    swf = _repo_path(spec["swf"])
    if not swf.is_file():
        raise UserError(f"{source}: {where}.swf: file not found: {swf}")
    platform = dict(spec["platform"])
    if platform.setdefault("node_count", spec["nodes"]) != spec["nodes"]:
        raise UserError(
            f"{source}: {where}.platform.node_count ({platform['node_count']}) differs from "
            f"{where}.nodes ({spec['nodes']})"
        )
    try:
        parse_params(platform, source=f"{where}.platform")
    except UserError as exc:
        raise UserError(f"{source}: {exc}") from None
    conversion = dict(spec.get("conversion", {}))
    if conversion.setdefault("platform_nodes", spec["nodes"]) != spec["nodes"]:
        raise UserError(f"{source}: {where}.conversion.platform_nodes differs from {where}.nodes")
    try:
        options_from_mapping(conversion)
    except UserError as exc:
        raise UserError(f"{source}: {where}.conversion: {exc}") from None
    return TraceSpec(name, swf, spec["nodes"], platform, conversion, spec.get("description", ""))


def _seed001_workflows(spec: Mapping[str, Any], source: str) -> Seed001Spec:
    result = parse_seed001_spec(spec, REPO_ROOT)
    if not result.workflow.is_file():
        raise UserError(f"{source}: artifacts.seed001_workflows.workflow: file not found: {result.workflow}")
    return result


def _seed001_wfcommons(spec: Mapping[str, Any], source: str) -> WfSweepSpec:
    result = parse_wfcommons_spec(spec, REPO_ROOT)
    for app in result.apps:
        for path in app.instances:
            if not path.is_file():
                raise UserError(f"{source}: artifacts.seed001_wfcommons.apps[{app.name}]: file not found: {path}")
    return result


def _seed002_twins(spec: Mapping[str, Any], source: str) -> Seed002Spec:
    try:
        return parse_seed002_spec(spec)
    except ValueError as exc:
        raise UserError(f"{source}: artifacts.seed002_twins.{exc}") from None


def _seed004_interference(spec: Mapping[str, Any], source: str) -> Seed004Spec:
    try:
        return parse_seed004_spec(spec)
    except ValueError as exc:
        raise UserError(f"{source}: artifacts.seed004_interference.{exc}") from None


def _seed000_fig6(spec: Mapping[str, Any], source: str) -> Fig6Spec:
    where = "artifacts.seed000_fig6"
    result = parse_fig6_spec(spec, REPO_ROOT)
    if not result.platform.is_file():
        raise UserError(f"{source}: {where}.platform: file not found: {result.platform}")
    if 50.0 not in result.mem_levels or 50.0 not in result.remote_levels:
        raise UserError(f"{source}: {where}: mem_levels and remote_levels must contain 50 (the paper's fixed level)")
    if max(result.stg_k) > result.tasks:
        raise UserError(f"{source}: {where}.stg_k: {max(result.stg_k)} devices for {result.tasks} tasks")
    return result


def _seed000_fig8(spec: Mapping[str, Any], source: str) -> Fig8Spec:
    where = "artifacts.seed000_fig8"
    result = parse_fig8_spec(spec, REPO_ROOT)
    _check_platforms(result.platforms, f"{source}: {where}")
    _check_names([result.scheduler], _registry().policy_names(), f"{source}: {where}.scheduler", "scheduling policy")
    _check_names(
        [result.allocation], _registry().allocator_names(), f"{source}: {where}.allocation", "allocation policy"
    )
    return result


def _daemons_on_nodes(spec: Mapping[str, Any], source: str) -> DaemonsSpec:
    where = f"{source}: artifacts.daemons_on_nodes"
    result = parse_daemons_spec(spec, REPO_ROOT)
    _check_platforms(result.platforms, where)
    _check_names([result.scheduler], _registry().policy_names(), f"{where}.scheduler", "scheduling policy")
    _check_names(result.allocations, _registry().allocator_names(), f"{where}.allocations", "allocation policy")
    return result


def _burst_buffers(spec: Mapping[str, Any], source: str) -> BurstSpec:
    where = f"{source}: artifacts.burst_buffers"
    result = parse_burst_spec(spec)
    _check_catalogue_systems(result.topologies, ("san",), where)
    _check_names([result.scheduler], _registry().policy_names(), f"{where}.scheduler", "scheduling policy")
    _check_names(result.allocations, _registry().allocator_names(), f"{where}.allocations", "allocation policy")
    if result.block_size > result.buffer_bytes:
        raise UserError(
            f"{where}: block_size {result.block_size} is larger than buffer_bytes {result.buffer_bytes} "
            "(a staging server could never take a block)"
        )
    return result


def _seed000_fig7(spec: Mapping[str, Any], source: str) -> Fig7Spec:
    where = "artifacts.seed000_fig7"
    try:
        result = parse_fig7_spec(spec, REPO_ROOT)
    except ValueError as exc:
        raise UserError(f"{source}: {where}.{exc}") from None
    if not result.platform.is_file():
        raise UserError(f"{source}: {where}.platform: file not found: {result.platform}")
    if 50.0 not in result.remote_levels:
        raise UserError(f"{source}: {where}.remote_levels: must contain 50 (panel a's fixed level)")
    return result


def _seed000_fig10(spec: Mapping[str, Any], source: str) -> Fig10Spec:
    where = "artifacts.seed000_fig10"
    try:
        result = parse_fig10_spec(spec, REPO_ROOT)
    except ValueError as exc:
        raise UserError(f"{source}: {where}.{exc}") from None
    if not result.platform.is_file():
        raise UserError(f"{source}: {where}.platform.{result.topology}: file not found: {result.platform}")
    _check_names([result.scheduler], _registry().policy_names(), f"{source}: {where}.scheduler", "scheduling policy")
    _check_names(
        [result.allocation], _registry().allocator_names(), f"{source}: {where}.allocation", "allocation policy"
    )
    return result


def _check_catalogue_systems(topologies: Mapping[str, str], modes: tuple[str, ...], where: str) -> None:
    """Every ``label: system`` names a catalogue system in each of ``modes``."""
    from datasched.platforms.catalog import catalog

    known = catalog()
    for label, system in topologies.items():
        for mode in modes:
            if f"{system}-{mode}" not in known:
                raise UserError(
                    f"{where}.topologies.{label}: no catalogue system '{system}-{mode}' "
                    "(datasched platform catalog lists them)"
                )


def _seed000_fig9(spec: Mapping[str, Any], source: str) -> Fig9Spec:
    where = "artifacts.seed000_fig9"
    result = parse_fig9_spec(spec)
    _check_catalogue_systems(result.topologies, ("unified", "san"), f"{source}: {where}")
    _check_names([result.scheduler], _registry().policy_names(), f"{source}: {where}.scheduler", "scheduling policy")
    _check_names(
        [result.allocation], _registry().allocator_names(), f"{source}: {where}.allocation", "allocation policy"
    )
    return result


def _placement_gap(spec: Mapping[str, Any], source: str) -> PlacementGapSpec:
    where = "artifacts.placement_gap"
    result = parse_placement_gap_spec(spec, REPO_ROOT)
    _check_platforms(result.platforms, f"{source}: {where}")
    _check_names(
        list(result.allocators), _registry().allocator_names(), f"{source}: {where}.allocators", "allocation policy"
    )
    return result


def _policies_on_traces(spec: Mapping[str, Any], traces: Mapping[str, TraceSpec], source: str) -> PoliciesOnTraces:
    where = "artifacts.policies_on_traces"
    for i, trace in enumerate(spec["traces"]):
        if trace not in traces:
            raise UserError(
                f"{source}: {where}.traces[{i}]: unknown trace '{trace}' (defined under traces: {', '.join(traces)})"
            )
    _check_names(spec["policies"], _registry().policy_names(), f"{source}: {where}.policies", "scheduling policy")
    _check_names(
        spec["allocations"], _registry().allocator_names(), f"{source}: {where}.allocations", "allocation policy"
    )
    result = PoliciesOnTraces(
        tuple(spec["traces"]), tuple(spec["policies"]), tuple(spec["allocations"]), tuple(spec["seeds"])
    )
    for run in result.runs():  # full option validation, once per distinct combination
        if run.seed in (NO_SEED, str(result.seeds[0])):
            try:
                _registry().create_policy(run.policy, run.scheduler_options)
            except UserError as exc:
                raise UserError(f"{source}: {where}: {exc}") from None
    gantt = []
    for i, entry in enumerate(spec.get("gantt", [])):
        seed = str(entry.get("seed", NO_SEED))
        run = Run(entry["trace"], entry["policy"], entry["allocation"], seed)
        if run not in set(result.runs()):
            raise UserError(f"{source}: {where}.gantt[{i}]: {run.path} is not one of the sweep's runs")
        gantt.append(GanttSpec(run.trace, run.policy, run.allocation, run.seed))
    return PoliciesOnTraces(result.traces, result.policies, result.allocations, result.seeds, tuple(gantt))


def _check_platforms(platforms: Mapping[str, Path], where: str) -> None:
    """Every platform file a section names exists (``where``: the source and section)."""
    for label, platform in platforms.items():
        if not platform.is_file():
            raise UserError(f"{where}.platforms.{label}: file not found: {platform}")


def _check_names(names, known, where: str, what: str) -> None:
    for i, name in enumerate(names):
        if name not in known:
            raise UserError(f"{where}[{i}]: unknown {what} '{name}' (known: {', '.join(known)})")


def _registry():
    try:
        from datasched.policy import registry
    except ImportError as exc:  # the scheduler framework is part of the package; say what is missing
        raise UserError(f"the scheduler registry (datasched.policy.registry) cannot be imported: {exc}") from None
    return registry


def is_stochastic(allocation: str) -> bool:
    """An allocator is stochastic when its typed options have a ``seed``."""
    return "seed" in _registry().allocator_class(allocation).Params.model_fields


def scheduler_options(allocation: str, seed: str) -> dict[str, Any]:
    """The queue policy's options for ``allocation`` (with ``seed`` when it has one)."""
    if seed == NO_SEED:
        return {"allocation": allocation}
    return {"allocation": {"name": allocation, "seed": int(seed)}}
