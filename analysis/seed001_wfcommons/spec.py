"""Seed 001 on WfCommons shapes step 1, the specification: the applications and their recorded
instances, the compared variants, platforms, submission styles and file-size scales
(``artifacts.seed001_wfcommons`` of a config), and the metrics every run reports."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from datasched.analysis.path_values import under_root

PLATFORMS = ("scm", "san")


#: The paper's change of T_all from data-unaware to data-aware scheduling (Table 4: 490 s -> 280 s),
#: in %: the value the report judges each variant against and the figure marks.
PAPER_CHANGE_PCT = -43.0


METRICS = (
    "makespan",
    "interconnect_bytes",
    "central_write_bytes",
    "central_read_bytes",
    "peak_nvm_bytes",
    "peak_node_nvm_bytes",
)


@dataclass(frozen=True)
class App:
    name: str
    instances: tuple[Path, ...]


@dataclass(frozen=True)
class Variant:
    """A scheduler and its options: the compared variable. A later pre-staging variant is
    one more entry in the config (its options, e.g. the policy's pre-staging switch)."""

    name: str
    policy: str
    options: Mapping[str, Any] = field(default_factory=dict)
    needs_nvm: bool = False
    note: str = ""


@dataclass(frozen=True)
class WfSweepSpec:
    apps: tuple[App, ...]
    variants: tuple[Variant, ...]
    platforms: tuple[str, ...]
    styles: tuple[str, ...]
    size_scales: tuple[float, ...]
    nvm_read_bw: float = 2e9
    nvm_write_bw: float = 1e9
    node_nic_bw: float = 1e9
    host_speed: float = 1e9
    torus: tuple[int, ...] = (5, 2, 2)
    walltime_factor: float = 10.0

    @property
    def nodes(self) -> int:
        n = 1
        for d in self.torus:
            n *= d
        return n

    def runs(self) -> list[tuple[App, Path, str, str, float, Variant]]:
        return [
            (app, inst, platform, style, scale, variant)
            for app in self.apps
            for inst in app.instances
            for scale in self.size_scales
            for style in self.styles
            for platform in self.platforms
            for variant in self.variants
            if platform == "scm" or not variant.needs_nvm
        ]


def parse_spec(data: Mapping[str, Any], repo_root: Path) -> WfSweepSpec:
    """The config section (validated against config/schema.json before)."""
    return WfSweepSpec(
        apps=tuple(App(str(a["name"]), tuple(under_root(i, repo_root) for i in a["instances"])) for a in data["apps"]),
        variants=tuple(
            Variant(
                str(v["name"]),
                str(v["policy"]),
                dict(v.get("options", {})),
                bool(v.get("needs_nvm", False)),
                str(v.get("note", "")),
            )
            for v in data["variants"]
        ),
        platforms=tuple(str(p) for p in data["platforms"]),
        styles=tuple(str(s) for s in data["styles"]),
        size_scales=tuple(float(s) for s in data["size_scales"]),
        nvm_read_bw=float(data.get("nvm_read_bw", 2e9)),
        nvm_write_bw=float(data.get("nvm_write_bw", 1e9)),
        node_nic_bw=float(data.get("node_nic_bw", 1e9)),
        host_speed=float(data.get("host_speed", 1e9)),
        torus=tuple(int(d) for d in data.get("torus", (5, 2, 2))),
        walltime_factor=float(data.get("walltime_factor", 10.0)),
    )
