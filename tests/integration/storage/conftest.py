"""Shared set-up of the storage-model tests: small platforms whose flows can be worked
out by hand, phase profiles, and a runner that starts each job where the test says
(tests/data/scriptedSched.py) with the storage devices it names."""

from __future__ import annotations

import csv
import itertools
import json
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import TEST_DATA

pytestmark = pytest.mark.engine

GB = 1e9


@pytest.fixture(scope="session")
def engine() -> Path:
    from datasched.engine import find_engine

    return find_engine()


def star_platform(
    path: Path,
    *,
    nodes: int = 4,
    link_bw: float = 1 * GB,
    io_servers: int = 2,
    nvm_capacity: float | None = None,
    cores: int = 1,
) -> Path:
    """platforms/' generator: a one-level fat-tree (k = nodes) is a star: node X reaches
    node Y through X's up-link and Y's down-link (SPLITDUPLEX, ``link_bw`` each way, 0 s).
    Per node: DRAM 10 GB/s, NVM 2 GB/s read / 1 GB/s write, 10 GbE (1.25 GB/s) to the
    storage front-end; ``io_servers`` servers with a 1.25 GB/s front-end link each."""
    from datasched.platforms import FatTreeParams, InterconnectParams, SystemParams, generate, write

    params = SystemParams(
        storage_mode="unified",
        interconnect=InterconnectParams(topology=FatTreeParams(k=nodes, levels=1), link_bw=link_bw, link_lat=0),
        storage={"io_servers": io_servers, "frontend_lat": 0, "backend_lat": 0},
        node={"cores": cores, **({"nvm_capacity": nvm_capacity} if nvm_capacity is not None else {})},
    )
    return write(generate(params), path)


@pytest.fixture(scope="module")
def star(tmp_path_factory, engine):
    """The 4-node star of :func:`star_platform` (1 GB/s links) and its resource ids, per module."""
    path = star_platform(tmp_path_factory.mktemp("star") / "star.xml")
    return path, resource_ids(engine, path)


Hop = tuple[str, str | None]  # (link name, direction UP/DOWN or None)


def endpoint_platform(
    path: Path,
    zone_id: str,
    nodes: list[str],
    core_links: list[tuple[str, float, float]],
    network: Callable[[str, str], list[Hop]],
) -> Path:
    """A hand-written Full-routing platform: a master, the compute ``nodes`` (each behind
    a 100 GB/s access link ``X-access``), SPLITDUPLEX ``core_links`` (name, bandwidth,
    latency), node-to-node routes given by ``network(src, dst)`` (access links included),
    and per node the generator's endpoint layout: X-nvm behind X-nvm-read (2 GB/s) and
    X-nvm-write (1 GB/s), X-dram behind X-dram-link (10 GB/s), with properties
    datasched_role and node as platforms/ writes them."""
    root = ET.Element("platform", version="4.1")
    zone = ET.SubElement(root, "zone", id=zone_id, routing="Full")

    def host(name: str, props: dict[str, str]) -> None:
        element = ET.SubElement(zone, "host", id=name, speed="1000000000f")
        for key, value in props.items():
            ET.SubElement(element, "prop", id=key, value=value)

    host("master", {"role": "master", "datasched_role": "master"})
    for n in nodes:
        host(n, {"role": "compute_node", "datasched_role": "compute_node"})
        host(f"{n}-nvm", {"role": "storage", "datasched_role": "nvm", "node": n})
        host(f"{n}-dram", {"role": "storage", "datasched_role": "dram", "node": n})

    def link(name: str, bw: float, policy: str = "SHARED", latency: float = 0) -> None:
        ET.SubElement(zone, "link", id=name, bandwidth=f"{bw:.0f}Bps", latency=f"{latency!r}s", sharing_policy=policy)

    for name, bw, latency in core_links:
        link(name, bw, "SPLITDUPLEX", latency)
    link("master-link", 1e12, "FATPIPE")
    for n in nodes:
        link(f"{n}-access", 100 * GB)
        link(f"{n}-nvm-read", 2 * GB)
        link(f"{n}-nvm-write", 1 * GB)
        link(f"{n}-dram-link", 10 * GB)

    def route(src: str, dst: str, hops: list[Hop]) -> None:
        element = ET.SubElement(zone, "route", src=src, dst=dst, symmetrical="NO")
        for name, direction in hops:
            attrs = {"id": name} if direction is None else {"id": name, "direction": direction}
            ET.SubElement(element, "link_ctn", attrs)

    for a, b in itertools.permutations(nodes, 2):
        route(a, b, network(a, b))
    for n in nodes:
        route(n, "master", [("master-link", None)])
        route("master", n, [("master-link", None)])
        for m in nodes:
            base = network(n, m) if n != m else []
            route(f"{n}-nvm", m, [(f"{n}-nvm-read", None), *base])
            route(m, f"{n}-nvm", [*(network(m, n) if n != m else []), (f"{n}-nvm-write", None)])
            route(f"{n}-dram", m, [(f"{n}-dram-link", None), *base])
            route(m, f"{n}-dram", [*(network(m, n) if n != m else []), (f"{n}-dram-link", None)])
    header = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    path.write_text(header + ET.tostring(root, encoding="unicode") + "\n")
    return path


def dumbbell_platform(path: Path, *, side: int = 3, bottleneck_bw: float = 1 * GB, mid_latency: float = 0) -> Path:
    """A hand-written dumbbell (platforms/ builds no such thing): nodes L0..L{side-1} and
    R0..R{side-1}, each behind a fast 100 GB/s access link; every left-to-right flow
    crosses the one ``mid`` link (SPLITDUPLEX, ``bottleneck_bw`` each way, ``mid_latency``
    seconds; every other link has none). Endpoints as endpoint_platform's."""
    left = [f"L{i}" for i in range(side)]
    right = [f"R{i}" for i in range(side)]

    def network(src: str, dst: str) -> list[Hop]:
        hops: list[Hop] = [(f"{src}-access", None)]
        if (src in left) != (dst in left):
            hops.append(("mid", "UP" if src in left else "DOWN"))
        return hops + [(f"{dst}-access", None)]

    return endpoint_platform(path, "dumbbell", left + right, [("mid", bottleneck_bw, mid_latency)], network)


def line_platform(path: Path, positions: dict[str, int], *, hops: int = 4, latency: float = 0) -> Path:
    """A hand-written line of switches S0 .. S{hops} joined by links c1 .. c{hops}
    (c_i between S{i-1} and S{i}; SPLITDUPLEX, 1 GB/s each way, ``latency`` s). Node X
    hangs at switch ``positions[X]`` behind a 100 GB/s access link; a flow from a node at
    position i to one at j > i crosses c{i+1} .. c{j} UP (DOWN the other way). Endpoints
    as endpoint_platform's. Chains of flows sharing one link each, pairwise, are built by
    placing nodes along the line."""

    def network(src: str, dst: str) -> list[Hop]:
        a, b = positions[src], positions[dst]
        between: list[Hop] = (
            [(f"c{i}", "UP") for i in range(a + 1, b + 1)] if a < b else [(f"c{i}", "DOWN") for i in range(a, b, -1)]
        )
        return [(f"{src}-access", None), *between, (f"{dst}-access", None)]

    core = [(f"c{i}", 1 * GB, latency) for i in range(1, hops + 1)]
    return endpoint_platform(path, "line", list(positions), core, network)


def resource_ids(engine: Path, platform: Path) -> dict[str, int]:
    out = subprocess.run(
        [str(engine), "-p", str(platform), "--inspect"], capture_output=True, text=True, check=True
    ).stdout
    return {h["name"]: h["id"] for h in json.loads(out)["hosts"]}


def descriptor(
    allocation: str = "internal",
    *,
    k: int = 1,
    mem: float = 0,
    remote: float = 0,
    access: str = "disperse",
    san_k: int = 1,
    **extra: float,
) -> dict[str, Any]:
    return {
        "allocation": allocation,
        "stg_k": k,
        "mem_hit_pct": mem,
        "remote_pct": remote,
        "access": access,
        "san_k": san_k,
        **extra,
    }


def phases_profile(
    res: int, storage: dict[str, Any], phases: list[dict[str, Any]], io_tasks: int | None = None
) -> dict[str, Any]:
    full = []
    for phase in phases:
        phase = {"nominal_seconds": 0, **phase}
        if phase["kind"] == "communicate":
            phase.setdefault("pattern", "all_to_all")
        full.append(phase)
    return {
        "type": "datasched_phases",
        "version": 1,
        "res": res,
        "io_tasks": io_tasks or res,
        "storage": storage,
        "phases": full,
    }


def read(nbytes: float, **extra: Any) -> dict[str, Any]:
    return {"kind": "read", "bytes": nbytes, **extra}


def write_phase(nbytes: float) -> dict[str, Any]:
    return {"kind": "write", "bytes": nbytes}


def communicate(nbytes: float) -> dict[str, Any]:
    return {"kind": "communicate", "bytes": nbytes}


def compute(flops: float) -> dict[str, Any]:
    return {"kind": "compute", "flops": flops}


class Run:
    """Outputs of one simulation: ``jobs[number]`` and ``io[number]`` rows (numbers parsed)."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        with open(out_dir / "out_jobs.csv", newline="") as handle:
            self.jobs = {row["job_id"]: row for row in csv.DictReader(handle)}
        self.io: dict[str, dict[str, Any]] = {}
        io_path = out_dir / "out_io.csv"
        if io_path.exists():
            with open(io_path, newline="") as handle:
                for row in csv.DictReader(handle):
                    self.io[row["job_id"]] = {k: (v if k in _TEXT_COLUMNS else float(v)) for k, v in row.items()}

    def runtime(self, job: str) -> float:
        return float(self.jobs[job]["execution_time"])


_TEXT_COLUMNS = {"job_id", "workload_name", "final_state", "allocation", "access", "devices"}

Runner = Callable[..., Run]


@pytest.fixture
def run_phases(tmp_path: Path, engine: Path) -> Runner:
    """run_phases(platform, jobs, profiles, alloc={"0": "1"}, storage={"0": {...}},
    policy="np", engine_args=[...], workload_extra={"datasched_data": [...]}) -> Run.
    Every job is started at its submission on the hosts ``alloc`` names (resource ids),
    with ``storage`` as EXECUTE_JOB's datasched_storage; ``workload_extra`` adds
    top-level fields to the workload."""
    from datasched.runner import run_simulation

    counter = itertools.count()

    def run(
        platform: Path,
        jobs: list[dict[str, Any]],
        profiles: dict[str, Any],
        *,
        alloc: dict[str, str],
        storage: dict[str, Any] | None = None,
        policy: str = "np",
        kill_at: dict[str, float] | None = None,
        engine_args: list[str] | None = None,
        workload_extra: dict[str, Any] | None = None,
    ) -> Run:
        index = next(counter)
        workload = tmp_path / f"workload{index}.json"
        workload.write_text(json.dumps({"nb_res": 1, "jobs": jobs, "profiles": profiles, **(workload_extra or {})}))
        options = {"alloc": alloc, "storage": storage or {}, "kill_at": kill_at or {}}
        result = run_simulation(
            platform,
            workload,
            str(TEST_DATA / "scriptedSched.py"),
            tmp_path / f"out{index}",
            scheduler_options=options,
            decision_timeout=60,
            engine_args=["--traffic-policy", policy, *(engine_args or [])],
        )
        return Run(result.jobs_csv.parent)

    return run
