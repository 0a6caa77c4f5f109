"""Phase jobs' SAN writes through staging servers (--staging-layer,
sim/src/services/staging_layer.hpp) against closed forms, through the engine.

Platform (hand-written, Full routing, no latency): compute nodes node-0 and node-1 behind
their own 1 GB/s NIC, each with a DRAM endpoint (where SAN writes leave the node, 10 GB/s
to its NIC); a staging server ``stage-0`` whose SSD
writes at D = 0.5 GB/s and reads at R = 1 GB/s, reached by the nodes through ``stage-in``
(B = 1 GB/s) and draining through ``stage-out`` (10 GB/s); one I/O server ``io-0`` behind
``io-link`` (P = 0.25 GB/s), which every SAN flow crosses.

A write phase of W bytes, san_k = 1, from one I/O task, in blocks of b (n = W / b):
  direct (no staging): W / min(B, P) = W / P;
  staged, buffer >= W: the blocks arrive one after the other at B: W / B;
  staged, buffer = b: a block is granted once the previous one is on the SSD:
      n b / B + (n - 1) b / D;
  drain: the SSD writer ends at t_ssd (blocks written in arrival order at D), the mover
  starts at t_ssd + tau (idle), reads a chunk at R and sends it at min(10 GB/s, P):
      end = t_ssd + tau + W / R + W / P for one chunk (drain_chunk >= W).
"""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.integration.storage.conftest import GB, descriptor, phases_profile, resource_ids, write_phase

pytestmark = pytest.mark.engine
TOL = 1e-6
B, D, R, P = 1 * GB, 0.5 * GB, 1 * GB, 0.25 * GB
TAU = 1e-3
W = 1 * GB
BLOCK = 0.25 * GB


def staging_platform(
    path: Path,
    *,
    staging_role: str = "storage",
    with_staging: bool = True,
    drain_route: bool = True,
    disks: int = 1,
    disk_size: str = f"{100 * GB:.0f}",
) -> Path:
    root = ET.Element("platform", version="4.1")
    zone = ET.SubElement(root, "zone", id="staging-test", routing="Full")

    def host(name: str, props: dict[str, str]) -> ET.Element:
        element = ET.SubElement(zone, "host", id=name, speed="1000000000f")
        for key, value in props.items():
            ET.SubElement(element, "prop", id=key, value=value)
        return element

    def link(name: str, bw: float) -> None:
        ET.SubElement(zone, "link", id=name, bandwidth=f"{bw:.0f}Bps", latency="0s")

    def route(src: str, dst: str, links: list[str]) -> None:
        element = ET.SubElement(zone, "route", src=src, dst=dst)
        for name in links:
            ET.SubElement(element, "link_ctn", id=name)

    host("master", {"role": "master"})
    nodes = ["node-0", "node-1"]
    for n in nodes:
        host(n, {"role": "compute_node"})
        host(f"{n}-dram", {"role": "storage", "datasched_role": "dram", "node": n})
        link(f"{n}-nic", B)
        link(f"{n}-dram-link", 10 * GB)
    host("io-0", {"role": "storage", "datasched_role": "io_server"})
    link("io-link", P)
    link("stage-in", B)
    link("stage-out", 10 * GB)
    link("master-link", 100 * GB)
    if with_staging:
        stage = host("stage-0", {"role": staging_role, "datasched_role": "staging"})
        for d in range(disks):
            disk = ET.Element("disk", id=f"ssd{d or ''}", read_bw=f"{R:.0f}Bps", write_bw=f"{D:.0f}Bps")
            ET.SubElement(disk, "prop", id="size", value=disk_size)
            stage.insert(d, disk)
        if drain_route:
            route("stage-0", "io-0", ["stage-out", "io-link"])
    for n in nodes:
        route(n, "master", ["master-link"])
        route(f"{n}-dram", "io-0", [f"{n}-dram-link", f"{n}-nic", "io-link"])
        route(n, f"{n}-dram", [f"{n}-dram-link"])
        if with_staging:
            route(f"{n}-dram", "stage-0", [f"{n}-dram-link", f"{n}-nic", "stage-in"])
    header = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    path.write_text(header + ET.tostring(root, encoding="unicode") + "\n")
    return path


@pytest.fixture(scope="module")
def staging(tmp_path_factory, engine):
    path = staging_platform(tmp_path_factory.mktemp("staging") / "staging.xml")
    return path, resource_ids(engine, path)


def layer(tmp_path: Path, **fields: float) -> list[str]:
    path = tmp_path / f"layer-{len(list(tmp_path.glob('layer-*')))}.json"
    path.write_text(json.dumps({"block_size": BLOCK, "buffer_bytes": 2 * W} | fields))
    return ["--staging-layer", str(path)]


def write_and_wait(run_phases, staging, engine_args, *, wait: float = 20.0):
    """Job 0 writes W to the SAN (san_k = 1, io-0) from node-0; job 1 sleeps ``wait`` s on
    node-1 so that the run lasts past the drain."""
    platform, ids = staging
    profiles = {
        "w": phases_profile(1, descriptor("san", san_k=1), [write_phase(W)]),
        "sleep": {"type": "delay", "delay": wait},
    }
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "w"}, {"id": 1, "subtime": 0, "res": 1, "profile": "sleep"}]
    run = run_phases(
        platform,
        jobs,
        profiles,
        alloc={"0": str(ids["node-0"]), "1": str(ids["node-1"])},
        storage={"0": {"devices": [ids["io-0"]]}},
        engine_args=engine_args,
    )
    assert run.jobs["0"]["final_state"] == "COMPLETED_SUCCESSFULLY"
    return run


def staging_row(run) -> dict[str, str]:
    with open(run.out_dir / "out_staging.csv", newline="") as handle:
        (row,) = list(csv.DictReader(handle))
    return row


def test_without_staging_the_write_runs_at_the_io_servers_rate(run_phases, staging):
    """t = W / min(B, P) = 1 GB / 0.25 GB/s = 4 s; no staging output."""
    run = write_and_wait(run_phases, staging, [])
    assert run.runtime("0") == pytest.approx(W / P, abs=TOL)
    assert not (run.out_dir / "out_staging.csv").exists()


def test_a_staged_write_ends_when_the_server_has_absorbed_it(run_phases, staging, tmp_path):
    """buffer >= W: t = W / B = 1 s (four blocks of 0.25 GB, one after the other); the job's
    san tier counts the W bytes and that second."""
    run = write_and_wait(run_phases, staging, layer(tmp_path))
    assert run.runtime("0") == pytest.approx(W / B, abs=TOL)
    assert run.io["0"]["san_bytes"] == W
    assert run.io["0"]["san_seconds"] == pytest.approx(W / B, abs=TOL)


def test_the_drain_starts_once_the_server_is_idle_and_ends_at_the_io_servers_rate(run_phases, staging, tmp_path):
    """Block i (i = 1..4) arrives at i b / B and is written to the SSD at D in order: the SSD
    writer ends at t_ssd = b / B + n b / D = 0.25 + 2 = 2.25 s; the mover starts at t_ssd + tau
    and sends one chunk (drain_chunk = W): end = 2.25 + 0.001 + W / R + W / P = 7.251 s."""
    run = write_and_wait(run_phases, staging, layer(tmp_path, drain_chunk=W, idle_seconds=TAU))
    row = staging_row(run)
    t_ssd = BLOCK / B + W / D
    assert row["server"] == "stage-0"
    assert float(row["absorbed_bytes"]) == W and float(row["drained_bytes"]) == W
    assert (int(row["blocks"]), int(row["chunks"]), int(row["forced_chunks"])) == (4, 1, 0)
    assert float(row["first_drain"]) == pytest.approx(t_ssd + TAU, abs=TOL)
    assert float(row["last_drain_end"]) == pytest.approx(t_ssd + TAU + W / R + W / P, abs=TOL)
    assert float(row["left_bytes"]) == 0


def test_a_run_that_ends_before_the_drain_reports_what_is_left(run_phases, staging, tmp_path):
    """The run ends at 2 s (job 1's sleep), before t_ssd + tau: nothing drained, W left."""
    run = write_and_wait(run_phases, staging, layer(tmp_path, drain_chunk=W), wait=2.0)
    row = staging_row(run)
    assert float(row["drained_bytes"]) == 0
    assert float(row["left_bytes"]) == W


def test_a_one_block_buffer_makes_each_block_wait_for_the_ssd(run_phases, staging, tmp_path):
    """buffer = b: block k + 1 is granted when block k is on the SSD:
    t = n b / B + (n - 1) b / D = 1 + 1.5 = 2.5 s."""
    run = write_and_wait(run_phases, staging, layer(tmp_path, buffer_bytes=BLOCK))
    n = W / BLOCK
    assert run.runtime("0") == pytest.approx(n * BLOCK / B + (n - 1) * BLOCK / D, abs=TOL)


def test_chunks_of_a_quarter_drain_in_four_rounds(run_phases, staging, tmp_path):
    """drain_chunk = b: four chunks, each read (b / R) then sent (b / P), back to back:
    end = t_ssd + tau + 4 (b / R + b / P) = 2.251 + 4 (0.25 + 1) = 7.251 s (the same bytes
    through the same serial path as one chunk)."""
    run = write_and_wait(run_phases, staging, layer(tmp_path, drain_chunk=BLOCK, idle_seconds=TAU))
    row = staging_row(run)
    assert int(row["chunks"]) == 4
    t_ssd = BLOCK / B + W / D
    assert float(row["last_drain_end"]) == pytest.approx(t_ssd + TAU + 4 * (BLOCK / R + BLOCK / P), abs=TOL)


# ---- bad input: one line naming the file and field, or the platform -----------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"block_size": 0}, "block_size"),
        ({"high_watermark": 1.5}, "high_watermark"),
        ({"drain_chunk": -1}, "drain_chunk"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_a_bad_layer_file_is_one_line_naming_the_field(run_phases, staging, tmp_path, fields, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(fields))
    with pytest.raises(Exception) as failure:
        write_and_wait(run_phases, staging, ["--staging-layer", str(path)])
    text = str(failure.value)
    assert "bad.json" in text and message in text


@pytest.mark.parametrize(
    ("platform_kwargs", "message"),
    [
        ({"with_staging": False}, "no staging server"),
        ({"staging_role": "compute_node"}, "must also have role=storage"),
        ({"drain_route": False}, "no route between hosts 'stage-0' and 'io-0'"),
        ({"disks": 2}, "host 'stage-0' has 2 disks; the staging server needs one SSD"),
        # No capacity in the file: the disk's size property must be a finite positive number.
        ({"disk_size": "inf"}, "disk 'ssd' of 'stage-0' has no positive \"size\" property"),
        ({"disk_size": "12 GB"}, "disk 'ssd' of 'stage-0' has no positive \"size\" property"),
    ],
)
def test_a_platform_without_a_usable_staging_host_is_refused(run_phases, engine, tmp_path, platform_kwargs, message):
    platform = staging_platform(tmp_path / "p.xml", **platform_kwargs)
    with pytest.raises(Exception) as failure:
        write_and_wait(run_phases, (platform, resource_ids(engine, platform)), layer(tmp_path))
    assert message in str(failure.value)


def test_two_disks_on_a_staging_host_are_not_answered_with_a_field_the_file_lacks(run_phases, engine, tmp_path):
    # The layer file names no disk (seed 003's QoS input does): nothing may suggest naming one.
    platform = staging_platform(tmp_path / "p.xml", disks=2)
    with pytest.raises(Exception) as failure:
        write_and_wait(run_phases, (platform, resource_ids(engine, platform)), layer(tmp_path))
    assert "has 2 disks" in str(failure.value) and "name it" not in str(failure.value)


def test_forwarding_and_staging_are_one_path_or_the_other(run_phases, staging, tmp_path):
    """Both options at once are refused in one line."""
    fwd = tmp_path / "fwd.json"
    fwd.write_text(json.dumps({"scheduler": "fifo"}))
    with pytest.raises(Exception) as failure:
        write_and_wait(run_phases, staging, [*layer(tmp_path), "--forwarding-layer", str(fwd)])
    assert "cannot be combined" in str(failure.value)


# ---- the generator's staging servers ------------------------------------------------


def test_a_generated_system_stages_writes_at_the_nic_rate_and_drains_over_the_back_end(run_phases, engine, tmp_path):
    """platforms/' 4-node star with one staging server (storage.staging_servers = 1), no
    latency: node NIC N = 1.25 GB/s and the server's front-end NIC 1.25 GB/s, so W = 1 GB is
    absorbed in W / N = 0.8 s (blocks of 0.25 GB, buffer 2 GB); the server drains it over
    the back-end network to io-0 while job 1 sleeps 20 s: W drained, nothing left."""
    from datasched.platforms import FatTreeParams, InterconnectParams, SystemParams, generate, write

    params = SystemParams(
        storage_mode="unified",
        interconnect=InterconnectParams(topology=FatTreeParams(k=4, levels=1), link_bw=1 * GB, link_lat=0),
        storage={"io_servers": 1, "frontend_lat": 0, "backend_lat": 0, "staging_servers": 1},
    )
    platform = write(generate(params), tmp_path / "system.xml")
    ids = resource_ids(engine, platform)
    run = write_and_wait(
        run_phases, (platform, ids | {"node-0": ids["node-10"], "node-1": ids["node-11"]}), layer(tmp_path)
    )
    assert run.runtime("0") == pytest.approx(W / 1.25e9, abs=TOL)
    row = staging_row(run)
    assert row["server"] == "stage-0"
    assert float(row["drained_bytes"]) == W and float(row["left_bytes"]) == 0


@pytest.mark.parametrize(
    ("allocation", "expected"),
    [
        # sequential: nodes 0 and 1, both behind server 0: its front-end NIC (1.25 GB/s) is
        # shared, each write of W gets half: 2 W / 1.25 GB/s = 1.6 s.
        ("sequential", (2 * W / 1.25e9, 2 * W / 1.25e9)),
        # staging_spread: job 0 on node 0 (server 0), job 1 on node 2 (server 1, the least busy
        # group): each write alone on its server, W / 1.25 GB/s = 0.8 s.
        ("staging_spread", (W / 1.25e9, W / 1.25e9)),
    ],
)
def test_a_staging_aware_allocation_spreads_writes_over_the_servers_the_engine_announces(
    tmp_path, allocation, expected
):
    """The generator's 4-node star with 2 staging servers (nodes 0-1 write through stage-0,
    2-3 through stage-1, the engine's floor(c * S / N)); FCFS starts two one-host jobs at 0,
    each writing W = 1 GB to io-0 (storage `san`, k = 1). The policy learns the groups only
    from SIMULATION_BEGINS (datasched-staging-servers)."""
    from datasched.platforms import FatTreeParams, InterconnectParams, SystemParams, generate, write
    from datasched.runner import run_simulation
    from tests.integration.storage.conftest import Run

    params = SystemParams(
        storage_mode="unified",
        interconnect=InterconnectParams(topology=FatTreeParams(k=4, levels=1), link_bw=1 * GB, link_lat=0),
        storage={"io_servers": 1, "frontend_lat": 0, "backend_lat": 0, "staging_servers": 2},
    )
    platform = write(generate(params), tmp_path / "system.xml")
    profiles = {"w": phases_profile(1, descriptor("san", san_k=1), [write_phase(W)])}
    jobs = [{"id": i, "subtime": 0, "res": 1, "profile": "w"} for i in range(2)]
    workload = tmp_path / "w.json"
    workload.write_text(json.dumps({"nb_res": 4, "jobs": jobs, "profiles": profiles}))
    out = tmp_path / "out"
    options = {"allocation": allocation, "storage": {"name": "san", "k": 1}}
    run_simulation(platform, workload, "fcfs", out, scheduler_options=options, engine_args=layer(tmp_path))
    result = Run(out)
    assert (result.runtime("0"), result.runtime("1")) == pytest.approx(expected, abs=TOL)
    with open(out / "out_staging.csv", newline="") as handle:
        absorbed = {row["server"]: float(row["absorbed_bytes"]) for row in csv.DictReader(handle)}
    assert absorbed == (
        {"stage-0": 2 * W, "stage-1": 0} if allocation == "sequential" else {"stage-0": W, "stage-1": W}
    )
