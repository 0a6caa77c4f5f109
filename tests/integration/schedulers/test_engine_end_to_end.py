"""Every policy completes hpc2n.swf on a 240-host cluster through the engine.

(The comparison with pybatsim's own FCFS/EASY lives in ``test_pybatsim_comparison.py``;
it runs through ``datasched.runner``, which stops the engine when a decision process
dies, e.g. pybatsim's scheduler API refusing an allocation at date 0.)

Needs the engine binary (``DATASCHED_SIM`` or ``build/sim/datasched-sim``). The SWF
conversion and platform here are deliberately tiny local helpers, so the test does
not depend on the workloads/platforms packages: delay profiles with the SWF run
time, requested time as walltime, processors as hosts (HPC2N: 1 processor = 1 node
entry in this log's MaxNodes == MaxProcs == 240).
"""

from __future__ import annotations

import csv
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.engine, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[3]
TRACE = Path(os.environ.get("DATASCHED_TRACES", "/work/shared/traces")) / "hpc2n.swf"
NB_HOSTS = 240
MAX_JOBS = int(os.environ.get("DATASCHED_E2E_JOBS", "3171"))


def _engine() -> Path | None:
    for candidate in (os.environ.get("DATASCHED_SIM"), REPO / "build/sim/datasched-sim", Path("/work/main/build/sim/datasched-sim")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return Path(candidate)
    return None


def swf_to_batsim(swf: Path, nb_hosts: int, max_jobs: int) -> dict:
    jobs, profiles = [], {}
    for line in swf.read_text().splitlines():
        fields = line.split()
        if not fields or line.startswith(";"):
            continue
        job_id, submit, runtime, procs, requested_time = fields[0], float(fields[1]), float(fields[3]), int(fields[4]), float(fields[8])
        if runtime <= 0 or procs <= 0 or procs > nb_hosts:
            continue
        profile = f"delay_{runtime:g}"
        profiles[profile] = {"type": "delay", "delay": runtime}
        jobs.append({"id": job_id, "subtime": submit, "res": procs, "profile": profile,
                     "walltime": requested_time if requested_time > 0 else runtime})
        if len(jobs) == max_jobs:
            break
    return {"nb_res": nb_hosts, "jobs": jobs, "profiles": profiles}


def cluster_xml(nb_hosts: int) -> str:
    return f"""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="AS0" routing="Full">
    <cluster id="c" prefix="node" suffix="" radical="0-{nb_hosts - 1}" speed="1Gf" bw="10GBps" lat="1us"/>
    <zone id="master_zone" routing="Full">
      <host id="master_host" speed="1Gf"><prop id="role" value="master"/></host>
    </zone>
    <link id="master_link" bandwidth="10GBps" latency="1us"/>
    <zoneRoute src="c" dst="master_zone" gw_src="nodec_router" gw_dst="master_host"><link_ctn id="master_link"/></zoneRoute>
  </zone>
</platform>
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    engine = _engine()
    if engine is None or not TRACE.is_file():
        pytest.skip("engine binary or hpc2n trace not available")
    directory = tmp_path_factory.mktemp("hpc2n")
    workload = directory / "hpc2n.json"
    workload.write_text(json.dumps(swf_to_batsim(TRACE, NB_HOSTS, MAX_JOBS)))
    platform = directory / "cluster240.xml"
    # prefer the engine's own loader check: a platform it rejects fails here loudly
    platform.write_text(cluster_xml(NB_HOSTS))
    return engine, platform, workload


def _run(engine, platform, workload, out_dir: Path, decision_cmd: list[str]) -> list[dict]:
    out_dir.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    # files, not pipes: pybatsim logs every message and would block on a full pipe
    log = open(out_dir / "decision.log", "w")
    sched = subprocess.Popen([*decision_cmd, "--socket" if "datasched.policy.serve" in decision_cmd else "-s", f"tcp://*:{port}"],
                             cwd=out_dir, stdout=log, stderr=subprocess.STDOUT, text=True)
    try:
        sim = subprocess.run([str(engine), "-p", str(platform), "-w", str(workload), "-e", str(out_dir / "out"),
                              "-s", f"tcp://localhost:{port}"], cwd=out_dir, capture_output=True, text=True, timeout=1800)
        assert sim.returncode == 0, sim.stderr[-2000:]
        assert sched.wait(timeout=60) == 0, (out_dir / "decision.log").read_text()[-2000:]
    finally:
        if sched.poll() is None:
            sched.kill()
            sched.wait()
        log.close()
    with open(out_dir / "out_jobs.csv", newline="") as handle:
        return list(csv.DictReader(handle))


OUR = [sys.executable, "-m", "datasched.policy.serve", "--timeout", "600000"]


@pytest.mark.parametrize("policy", ["fcfs", "easy", "sjf", "conservative"])
@pytest.mark.parametrize("allocation", ["sequential", "random", "topology"])
def test_policy_completes_hpc2n(inputs, tmp_path, policy, allocation):
    engine, platform, workload = inputs
    rows = _run(engine, platform, workload, tmp_path, [*OUR, "--policy", policy, "--options", json.dumps({"allocation": allocation}),
                                                        "--platform", str(platform)])
    expected = len(json.loads(workload.read_text())["jobs"])
    assert len(rows) == expected
    assert {r["final_state"] for r in rows} <= {"COMPLETED_SUCCESSFULLY", "COMPLETED_WALLTIME_REACHED"}
