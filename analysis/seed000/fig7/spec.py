"""Figure 7 step 1, the specification: traffic policies, sharing units and I/O models over the
storage assignments and shares of remote accesses, as runs with their result paths."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.path_values import number, path_fields

#: Figure 7's fixed point: 50 % memory hits, Disperse; panel a at 50 % remote accesses.
MEM_HIT_PCT = 50.0


PANEL_A_REMOTE = 50.0


#: The I/O model of a run: DISTRIBUTION-IO_TASKS (``none-72``, ``per_task-64``).
IO_DISTRIBUTIONS = ("none", "per_task")


def io_model_parts(label: str) -> tuple[str, int]:
    """``per_task-64`` -> ("per_task", 64); a ValueError names the label otherwise."""
    distribution, _, count = label.rpartition("-")
    if distribution not in IO_DISTRIBUTIONS or not count.isdigit() or int(count) < 1:
        raise ValueError(f"io_models: {label!r} is not DISTRIBUTION-IO_TASKS (DISTRIBUTION in none, per_task)")
    return distribution, int(count)


def judged_io_models(labels: Sequence[str]) -> list[str]:
    """The models the verdicts read: those with distribution (the paper's 5.1), else all."""
    distributed = [label for label in labels if io_model_parts(label)[0] == "per_task"]
    return distributed or list(labels)


@dataclass(frozen=True)
class FlowGrid:
    """The points also run with ``--sharing flow`` (10 to 50 times costlier per run than the
    default per-activity sharing): a subset of the activity grid."""

    stg_k: tuple[int, ...] = ()
    ba_levels: tuple[float, ...] = ()
    remote_levels: tuple[float, ...] = ()


@dataclass(frozen=True)
class Fig7Spec:
    platform: Path
    tasks: int
    n_phases: int
    seed: int
    stg_k: tuple[int, ...]
    ba_levels: tuple[float, ...]  # % of a contended link to IPC
    remote_levels: tuple[float, ...]  # panel b's x axis
    flow: FlowGrid = FlowGrid()
    io_models: tuple[str, ...] = ()  # empty: every task does its own I/O (none-TASKS)

    @property
    def ios(self) -> tuple[str, ...]:
        return self.io_models or (f"none-{self.tasks}",)

    @property
    def storages(self) -> tuple[str, ...]:
        return tuple(f"stg-{k}" for k in self.stg_k)

    @property
    def sharing(self) -> tuple[str, ...]:
        return ("activity", "flow") if self.flow.stg_k else ("activity",)

    def runs(self) -> list[Fig7Run]:
        """Panel a: NP and every BA level at 50 % remote; panel b: NP and FP at every remote
        level; per I/O model and storage (shared points run once); the activity grid, then
        the flow one."""
        runs: dict[Fig7Run, None] = {}
        grids = [("activity", self.stg_k, self.ba_levels, self.remote_levels)]
        if self.flow.stg_k:
            grids.append(("flow", self.flow.stg_k, self.flow.ba_levels, self.flow.remote_levels))
        for io in self.ios:
            for sharing, stg_k, ba_levels, remote_levels in grids:
                for k in stg_k:
                    storage = f"stg-{k}"
                    for policy in ("np", *(f"ba:{number(x)}" for x in ba_levels)):
                        runs[Fig7Run(storage, PANEL_A_REMOTE, policy, sharing, io)] = None
                    for remote in remote_levels:
                        for policy in ("np", "fp"):
                            runs[Fig7Run(storage, float(remote), policy, sharing, io)] = None
        return list(runs)


@dataclass(frozen=True)
class Fig7Run:
    storage: str  # stg-K
    remote: float
    policy: str  # np | fp | ba:X
    sharing: str  # activity | flow
    io: str  # DISTRIBUTION-IO_TASKS

    @property
    def workload_path(self) -> str:
        return f"io={self.io}/storage={self.storage}/remote={number(self.remote)}"

    @property
    def path(self) -> str:
        return f"{self.workload_path}/policy={self.policy.replace(':', '-')}/sharing={self.sharing}"

    @classmethod
    def from_path(cls, path: str) -> Fig7Run:
        f = path_fields(path)
        policy = f["policy"].replace("-", ":", 1) if f["policy"].startswith("ba-") else f["policy"]
        return cls(f["storage"], float(f["remote"]), policy, f["sharing"], f["io"])

    def markov_params(self, spec: Fig7Spec) -> dict[str, Any]:
        """Figure 6's single application (datasched.workloads.markov) at Figure 7's point."""
        distribution, io_tasks = io_model_parts(self.io)
        return {
            "kind": "single",
            "seed": spec.seed,
            "tasks": spec.tasks,
            "io_tasks": io_tasks,
            "io_distribution": distribution,
            "allocation": "internal",
            "stg_k": int(self.storage.removeprefix("stg-")),
            "mem_hit_pct": MEM_HIT_PCT,
            "remote_pct": self.remote,
            "access": "D",
            "sizes": {"n_phases": spec.n_phases},
        }

    def engine_args(self) -> list[str]:
        return ["--sharing", self.sharing]


def parse_spec(data: Mapping[str, Any], repo_root: Path) -> Fig7Spec:
    platform = Path(data["platform"])
    flow = data.get("flow") or {}
    spec = Fig7Spec(
        platform=platform if platform.is_absolute() else repo_root / platform,
        tasks=int(data["tasks"]),
        n_phases=int(data["n_phases"]),
        seed=int(data["seed"]),
        stg_k=tuple(int(k) for k in data["stg_k"]),
        ba_levels=tuple(float(x) for x in data["ba_levels"]),
        remote_levels=tuple(float(r) for r in data["remote_levels"]),
        flow=FlowGrid(
            stg_k=tuple(int(k) for k in flow.get("stg_k", ())),
            ba_levels=tuple(float(x) for x in flow.get("ba_levels", ())),
            remote_levels=tuple(float(r) for r in flow.get("remote_levels", ())),
        ),
        io_models=tuple(str(m) for m in data.get("io_models", ())),
    )
    for label in spec.io_models:
        if io_model_parts(label)[1] > spec.tasks:
            raise ValueError(f"io_models: {label!r} has more I/O tasks than the {spec.tasks} tasks")
    if max(spec.stg_k) > spec.tasks:
        raise ValueError(f"stg_k: {max(spec.stg_k)} devices for {spec.tasks} tasks")
    for name in ("stg_k", "ba_levels", "remote_levels"):
        extra = set(getattr(spec.flow, name)) - set(getattr(spec, name))
        if extra:
            raise ValueError(f"flow.{name}: {sorted(extra)} not in the activity grid's {name} (flow is a subset)")
    return spec
