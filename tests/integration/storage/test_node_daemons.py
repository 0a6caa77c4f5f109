"""Node storage daemons (--storage-daemons, sim/src/services/node_daemons.hpp) against closed
forms, through the engine.

Platform: the 4-node star of conftest.star_platform (nodes of one 10 Gflop/s core, NVM
2 GB/s read / 1 GB/s write, 1 GB/s links, no latency). A flow of b bytes to or from X-nvm
costs X's daemon W = ceil(b / r) * c_r + b * c_b flops on X, in the flow's ptask: alone, the
ptask lasts max(b / path rate, W / S) (S = 10 Gflop/s); next to a compute activity on X,
SimGrid's fair-bottleneck solver gives each half of X's CPU while both run."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.integration.hostile.engine_helpers import run_engine
from tests.integration.storage.conftest import GB, compute, descriptor, phases_profile, read, write_phase
from tests.integration.storage.test_closed_form import one_job

pytestmark = pytest.mark.engine
TOL = 1e-6
S = 10e9  # flop/s of one node


def daemons(tmp_path: Path, **costs: float | str) -> list[str]:
    path = tmp_path / f"daemons-{len(list(tmp_path.glob('daemons-*')))}.json"
    path.write_text(json.dumps(costs))
    return ["--storage-daemons", str(path)]


def remote_read(run_phases, star, nbytes, engine_args):
    """node-10 reads ``nbytes`` from node-11's NVM: its run time."""
    platform, ids = star
    profile = phases_profile(1, descriptor("external", remote=100), [read(nbytes)])
    device = {"devices": [ids["node-11-nvm"]]}
    return one_job(run_phases, platform, ids, "node-10", profile, device, engine_args=engine_args).runtime("0")


def compute_and_read() -> tuple[dict, list]:
    """Job 0 computes 2e10 flop on one node; job 1 reads 2 GB, all remote, from stg_k = 1 NVM."""
    profiles = {
        "c": phases_profile(1, descriptor(), [compute(2e10)]),
        "r": phases_profile(1, descriptor("external", remote=100), [read(2 * GB)]),
    }
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "c"}, {"id": 1, "subtime": 0, "res": 1, "profile": "r"}]
    return profiles, jobs


def test_without_daemons_a_remote_read_runs_at_the_path_rate(run_phases, star):
    """t = b / 1 GB/s = 2 GB / 1 GB/s = 2 s (the reference the daemon cases change)."""
    assert remote_read(run_phases, star, 2 * GB, []) == pytest.approx(2.0, abs=TOL)


def test_a_cheap_daemon_never_binds(run_phases, star, tmp_path):
    """W = 2e9 B * 2 flop/B = 4e9 flop -> 0.4 s < 2 s on the path: t = max(2, 0.4) = 2 s."""
    t = remote_read(run_phases, star, 2 * GB, daemons(tmp_path, flops_per_byte=2))
    assert t == pytest.approx(2.0, abs=TOL)


def test_a_dear_daemon_sets_the_rate(run_phases, star, tmp_path):
    """W = 2e9 * 20 = 4e10 flop -> 4 s on node-11's core: t = max(2, 4) = 4 s."""
    t = remote_read(run_phases, star, 2 * GB, daemons(tmp_path, flops_per_byte=20))
    assert t == pytest.approx(4.0, abs=TOL)


def test_requests_are_counted_with_a_ceiling(run_phases, star, tmp_path):
    """r = 3e8 B: ceil(2e9 / 3e8) = 7 requests at c_r = 5e9 flop, plus 2e9 * 5 flop/B:
    W = 3.5e10 + 1e10 = 4.5e10 flop -> t = max(2, 4.5) = 4.5 s (a floor would give 4.0 s)."""
    args = daemons(tmp_path, request_size=300_000_000, flops_per_request=5e9, flops_per_byte=5)
    assert remote_read(run_phases, star, 2 * GB, args) == pytest.approx(4.5, abs=TOL)


def test_one_flows_daemon_work_runs_on_one_core_of_a_two_core_node(run_phases, tmp_path):
    """Nodes of two 10 Gflop/s cores: ptask_L07 bounds a ptask's work on a host by one core, so
    W = 2e9 * 20 = 4e10 flop take 4e10 / 1e10 = 4 s (not 2 s on both cores): t = max(2, 4) = 4 s."""
    from datasched.engine import find_engine
    from tests.integration.storage.conftest import resource_ids, star_platform

    platform = star_platform(tmp_path / "two-cores.xml", cores=2)
    t = remote_read(
        run_phases, (platform, resource_ids(find_engine(), platform)), 2 * GB, daemons(tmp_path, flops_per_byte=20)
    )
    assert t == pytest.approx(4.0, abs=TOL)


def test_local_nvm_writes_are_served_by_the_jobs_own_daemon(run_phases, star, tmp_path):
    """node-10 writes 4 GB to its own NVM (1 GB/s: 4 s alone); W = 4e9 * 20 = 8e10 flop on
    node-10 -> 8 s: t = max(4, 8) = 8 s."""
    platform, ids = star
    profile = phases_profile(1, descriptor(), [write_phase(4 * GB)])
    r = one_job(run_phases, platform, ids, "node-10", profile, engine_args=daemons(tmp_path, flops_per_byte=20))
    assert r.runtime("0") == pytest.approx(8.0, abs=TOL)


def test_a_job_computing_on_the_daemons_node_and_the_reader_share_its_core(run_phases, star, tmp_path):
    """Job 0 computes F = 2e10 flop on node-11 (2 s alone); job 1 on node-10 reads 2 GB from
    node-11's NVM with W = 2e9 * 20 = 4e10 flop on node-11 (4 s alone). Together each gets
    S/2 = 5e9 flop/s: job 0 ends at F / (S/2) = 4 s, when job 1 has done 2e10 of its W; the
    rest, 2e10, at S: 2 s more, t1 = 6 s (its bytes never need more than 0.5 GB/s of the
    1 GB/s path). Without daemons: 2 s and 2 s."""
    platform, ids = star
    profiles, jobs = compute_and_read()
    kwargs = {
        "alloc": {"0": str(ids["node-11"]), "1": str(ids["node-10"])},
        "storage": {"1": {"devices": [ids["node-11-nvm"]]}},
    }
    alone = run_phases(platform, jobs, profiles, **kwargs)
    assert (alone.runtime("0"), alone.runtime("1")) == pytest.approx((2.0, 2.0), abs=TOL)
    shared = run_phases(platform, jobs, profiles, **kwargs, engine_args=daemons(tmp_path, flops_per_byte=20))
    assert shared.runtime("0") == pytest.approx(4.0, abs=TOL)
    assert shared.runtime("1") == pytest.approx(6.0, abs=TOL)


# ---- idle load, steady (no idle_period): one capped background execution per serving node --


def compute_on(run_phases, star, node: str, flops: float, engine_args: list[str]):
    platform, ids = star
    return one_job(
        run_phases, platform, ids, node, phases_profile(1, descriptor(), [compute(flops)]), engine_args=engine_args
    )


@pytest.mark.parametrize(
    ("idle", "expected"),
    [
        # no idle load: t = F / S = 2e10 / 1e10 = 2 s (the reference)
        (0.0, 2.0),
        # L = 2.5e9 <= S / 2: fair-bottleneck fills the capped load first, the job gets the rest:
        # t = F / (S - L) = 2e10 / 7.5e9 = 2.666... s
        (2.5e9, 2e10 / 7.5e9),
        # L = S / 2 exactly: t = 2e10 / 5e9 = 4 s either way
        (5e9, 4.0),
        # L = 8e9 > S / 2: the cap does not bind, both get S / 2: t = F / (S / 2) = 4 s
        (8e9, 4.0),
    ],
)
def test_an_idle_load_takes_its_rate_from_a_job_on_its_node(run_phases, star, tmp_path, idle, expected):
    """Job 0 computes F = 2e10 flop on node-10, which serves its NVM, while its daemon's idle
    load L runs (one core of S = 1e10 flop/s)."""
    t = compute_on(run_phases, star, "node-10", 2e10, daemons(tmp_path, idle_flops_per_second=idle)).runtime("0")
    assert t == pytest.approx(expected, abs=TOL)


def test_an_idle_load_leaves_a_free_core_alone(run_phases, tmp_path):
    """Nodes of two cores: the job's activity uses one core (ptask_L07's bound) and the load
    L = 8e9 fits on the other: t = F / S = 2 s, unchanged."""
    from datasched.engine import find_engine
    from tests.integration.storage.conftest import resource_ids, star_platform

    platform = star_platform(tmp_path / "two-cores.xml", cores=2)
    star2 = (platform, resource_ids(find_engine(), platform))
    t = compute_on(run_phases, star2, "node-10", 2e10, daemons(tmp_path, idle_flops_per_second=8e9)).runtime("0")
    assert t == pytest.approx(2.0, abs=TOL)


def test_an_idle_load_neither_prolongs_the_run_nor_touches_its_schedule(run_phases, star, tmp_path):
    """The loads are daemons: the run ends when the last job does (the machine states' last row
    at 3 s, not at the loads' horizon), job 0 computes at S - L = 7.5e9 flop/s beside node-10's
    load, and a job that only waits (a delay profile) is not slowed at all."""
    platform, ids = star
    profiles = {"c": phases_profile(1, descriptor(), [compute(2e10)]), "d": {"type": "delay", "delay": 3.0}}
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "c"}, {"id": 1, "subtime": 0, "res": 1, "profile": "d"}]
    r = run_phases(
        platform,
        jobs,
        profiles,
        alloc={"0": str(ids["node-10"]), "1": str(ids["node-11"])},
        engine_args=daemons(tmp_path, idle_flops_per_second=2.5e9),
    )
    assert r.runtime("0") == pytest.approx(2e10 / 7.5e9, abs=TOL)
    assert r.runtime("1") == pytest.approx(3.0, abs=TOL)
    with open(r.out_dir / "out_machine_states.csv", newline="") as handle:
        times = [float(row["time"]) for row in csv.DictReader(handle)]
    assert max(times) == pytest.approx(3.0, abs=TOL)


# ---- idle bursts (idle_period given): the same load, with its timing ------------------


def two_node_compute(run_phases, star, flops: float, engine_args: list[str]) -> float:
    """One job on node-10 and node-11 computing ``flops`` on each (one ptask): its run time."""
    platform, ids = star
    profile = phases_profile(2, descriptor(), [compute(flops)])
    jobs = [{"id": 0, "subtime": 0, "res": 2, "profile": "p"}]
    alloc = {"0": f"{ids['node-10']} {ids['node-11']}"}
    return run_phases(platform, jobs, {"p": profile}, alloc=alloc, engine_args=engine_args).runtime("0")


def test_idle_bursts_slow_a_job_while_they_run(run_phases, star, tmp_path):
    """L = 2.5e9 flop/s in bursts of L * P = 2.5e9 flop every P = 1 s from t = 0 (aligned) on
    node-10, beside job 0 computing F = 2e10 flop there. While a burst runs both get S / 2 = 5e9
    flop/s: the burst lasts 0.5 s and the job does 2.5e9 + 0.5 * 1e10 = 7.5e9 flop per second.
    After 2 s it has 1.5e10; the third burst gives 2.5e9 by 2.5 s, the last 2.5e9 take 0.25 s at S:
    t = 2.75 s, where the steady load of the same rate gives F / (S - L) = 2.666... s."""
    bursts = daemons(tmp_path, idle_flops_per_second=2.5e9, idle_period=1, idle_phase="aligned")
    assert compute_on(run_phases, star, "node-10", 2e10, bursts).runtime("0") == pytest.approx(2.75, abs=TOL)


def test_idle_bursts_that_do_not_line_up_slow_a_job_on_two_nodes_more(run_phases, star, tmp_path):
    """The job computes F = 2e10 flop on each of node-10 and node-11 (one ptask, which progresses
    at the pace of its slower host). Aligned bursts slow both nodes at once: t = 2.75 s, as on one
    node (above); the steady load: F / (S - L) = 2.666... s. Bursts at phases drawn with a seed
    slow one node or the other for longer: t between 2.75 s (phases alike) and F / (S / 2) = 4 s
    (opposite phases: one node always bursting; the exact cases with chosen phases are
    sim/tests/test_idle_load.cpp's), the same for the same seed."""
    load = {"idle_flops_per_second": 2.5e9}
    steady = two_node_compute(run_phases, star, 2e10, daemons(tmp_path, **load))
    assert steady == pytest.approx(2e10 / 7.5e9, abs=TOL)
    aligned = daemons(tmp_path, **load, idle_period=1, idle_phase="aligned")
    assert two_node_compute(run_phases, star, 2e10, aligned) == pytest.approx(2.75, abs=TOL)
    drawn = [two_node_compute(run_phases, star, 2e10, daemons(tmp_path, **load, idle_period=1, idle_seed=1))]
    drawn.append(two_node_compute(run_phases, star, 2e10, daemons(tmp_path, **load, idle_period=1, idle_seed=1)))
    assert drawn[0] == drawn[1]
    assert 2.75 - TOL <= drawn[0] <= 4.0 + TOL


# ---- bad input: one line naming the file and field, or the option --------------------


@pytest.fixture(scope="module")
def phase_workload(tmp_path_factory):
    path = tmp_path_factory.mktemp("workload") / "w.json"
    profile = phases_profile(1, descriptor(), [read(GB)])
    path.write_text(
        json.dumps(
            {"nb_res": 1, "jobs": [{"id": 1, "subtime": 0, "res": 1, "profile": "p"}], "profiles": {"p": profile}}
        )
    )
    return path


@pytest.mark.parametrize(
    ("costs", "fragments"),
    [
        ({"flops_per_byte": 1, "per_byte": 2}, ["per_byte", "unknown"]),
        ({"request_size": 0}, ["request_size", ">= 1"]),
        ({"flops_per_request": -1}, ["flops_per_request", ">= 0"]),
        ({"idle_flops_per_second": -1}, ["idle_flops_per_second", ">= 0"]),
        ({"idle_flops_per_second": 1e6, "idle_period": 0}, ["idle_period", "> 0"]),
        ({"idle_phase": "aligned"}, ["idle_phase", "steady without idle_period"]),
        ({"idle_period": 1, "idle_phase": "staggered"}, ["idle_phase", "random"]),
        ({"idle_seed": 1}, ["idle_seed", "steady without idle_period"]),
        ({"idle_flops_per_second": 1e6, "idle_period": 1e-12}, ["idle_period", "--allow-long-run"]),
        ({"flops_per_metadata_op": 1}, ["flops_per_metadata_op", "unknown"]),
    ],
)
def test_a_bad_daemons_file_is_one_line_naming_the_file_and_field(tmp_path, star, phase_workload, costs, fragments):
    path = tmp_path / "d.json"
    path.write_text(json.dumps(costs))
    out = run_engine(tmp_path, star[0], phase_workload, "--storage-daemons", str(path))
    out.assert_error(str(path), *fragments)


def test_a_platform_without_node_nvm_is_refused(tmp_path, phase_workload):
    from tests.conftest import TEST_DATA

    path = tmp_path / "d.json"
    path.write_text("{}")
    out = run_engine(tmp_path, TEST_DATA / "closed_form.xml", phase_workload, "--storage-daemons", str(path))
    out.assert_error("--storage-daemons", "has no node NVM")


# ---- a placement policy that knows of the daemons ------------------------------------


@pytest.mark.parametrize(
    ("placement", "expected"),
    [
        # least_loaded: every load 0, every distance equal on the star: the lowest id, node 0,
        # where job 0 computes: the shared-core closed form above, 4 s and 6 s.
        ("least_loaded", (4.0, 6.0)),
        # idle_nodes: node 2 (idle): job 0 computes alone (2 s); job 1's daemon has node 2's
        # core to itself: max(2 GB / 1 GB/s, 4e10 / 1e10) = 4 s.
        ("idle_nodes", (2.0, 4.0)),
    ],
)
def test_fcfs_with_external_storage_placed_off_busy_nodes(tmp_path, star, placement, expected):
    """FCFS, sequential allocation: job 0 (compute 2e10 flop) on node 0, job 1 (reads 2 GB,
    all remote, stg_k 1) on node 1; the external assigner puts job 1's data on one NVM
    outside; daemons cost 20 flop/B."""
    from datasched.runner import run_simulation
    from tests.integration.storage.conftest import Run

    platform, _ = star
    profiles, jobs = compute_and_read()
    workload = tmp_path / "w.json"
    workload.write_text(json.dumps({"nb_res": 4, "jobs": jobs, "profiles": profiles}))
    options = {"storage": {"name": "external", "k": 1, "placement": placement}}
    out = tmp_path / "out"
    run_simulation(
        platform, workload, "fcfs", out, scheduler_options=options, engine_args=daemons(tmp_path, flops_per_byte=20)
    )
    result = Run(out)
    assert (result.runtime("0"), result.runtime("1")) == pytest.approx(expected, abs=TOL)
