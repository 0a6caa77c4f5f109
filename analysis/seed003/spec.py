"""Seed 003 step 1, the specification: the paper's set-up and numbers and our stated choices as
constants, and the sweep (``artifacts.seed003_qos`` of a config) as cases."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from datasched.analysis.path_values import number, path_fields

MIB = 2**20


STAGING = {"server": "stg-0", "port": "stg-0-san", "pfs": "pfs-0"}


CLIENTS = [f"client-{i}" for i in range(8)]


#: AWP-ODC (paper: NX = NY = NZ = 256, 64 ranks as 4 × 4 × 4, TMAX 20 → 2001 iterations) on 8
#: nodes of 8 ranks: a 2 × 2 × 2 node grid of 2 × 2 × 2 rank blocks; a rank owns 64³ points.
AWP_GRID = [2, 2, 2]


AWP_HALO = 4 * (64 * 64) * 2 * 9 * 4  # 4 rank faces × 64² points × 2 layers × 9 fields × 4 B


AWP_ITERATIONS = 2001


#: NAS CG class C on 64 ranks (8 × 8, a process row per node): one transpose message of
#: na / 8 doubles per node pair and iteration.
CG_EXCHANGE = 150000 // 8 * 8


CG_ITERATIONS = 75 * 26


#: The paper's numbers (§VI).
PAPER = {
    "latency_sl0_us": 400.0,
    "latency_sl1_us": 80.0,
    "bandwidth_sl0_mbs": -700.0,
    "bandwidth_recovered_mbs": 674.0,
    "awp_sl0_pct": 17.9,
    "awp_sl1_pct": 8.0,
    "cg_sl0_pct": 32.77,
    "cg_sl1_pct": 9.31,
}


NOISES = ("none", "0", "1")


@dataclass(frozen=True)
class Seed003Spec:
    """``artifacts.seed003_qos`` of a config (config/schema.json)."""

    ssd_write_bw: tuple[float, ...]  # B/s, swept; the first is the headline
    granularity: tuple[float, ...]  # bytes, swept; the first is the headline
    sizes: tuple[int, ...]
    latency_iterations: int
    bandwidth_iterations: int
    window: int
    weight_sls: tuple[int, ...]
    stencil_iterations: int
    stencil_compute: tuple[float, ...]  # seconds per iteration, swept
    cg_iterations: int
    cg_compute: float
    noise_jitter: float = 0.0  # each dd block waits U[0, jitter) first (dd per-call overhead)
    seed: int = 1

    def cases(self) -> list[Case]:
        out = []
        for ssd in self.ssd_write_bw:
            for g in self.granularity:
                out += [Case(b, ssd, g) for b in ("micro", "collective", "stencil", "cg")]
        out.append(Case("weights", self.ssd_write_bw[0], self.granularity[0]))
        return out


@dataclass(frozen=True)
class Case:
    """One Snakemake job: a benchmark family on one platform (SSD) and granularity, every noise."""

    bench: str  # micro | collective | weights | stencil | cg
    ssd: float
    granularity: float

    @property
    def path(self) -> str:
        return f"bench={self.bench}/ssd={number(self.ssd)}/g={number(self.granularity)}"

    @classmethod
    def from_path(cls, path: str) -> Case:
        f = path_fields(path)
        return cls(f["bench"], float(f["ssd"]), float(f["g"]))


def parse_spec(data: Mapping[str, Any]) -> Seed003Spec:
    return Seed003Spec(
        ssd_write_bw=tuple(float(x) for x in data["ssd_write_bw"]),
        granularity=tuple(float(x) for x in data["granularity"]),
        sizes=tuple(int(x) for x in data["sizes"]),
        latency_iterations=int(data["latency_iterations"]),
        bandwidth_iterations=int(data["bandwidth_iterations"]),
        window=int(data.get("window", 64)),
        weight_sls=tuple(int(x) for x in data.get("weight_sls", range(1, 8))),
        stencil_iterations=int(data["stencil_iterations"]),
        stencil_compute=tuple(float(x) for x in data["stencil_compute"]),
        cg_iterations=int(data["cg_iterations"]),
        cg_compute=float(data.get("cg_compute", 0.001)),
        noise_jitter=float(data.get("noise_jitter", 0.0)),
        seed=int(data.get("seed", 1)),
    )
