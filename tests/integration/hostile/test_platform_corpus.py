"""Hostile SimGrid platforms: the engine refuses each at load (or, for a missing route,
when a job first uses it) with one line naming the file (line, element, hosts) and the
problem, never a silent success, a bare SimGrid abort or a C++ backtrace."""

from __future__ import annotations

import json

import pytest

from datasched.runner import SimulationError, run_simulation
from tests.conftest import TEST_DATA
from tests.integration.hostile.engine_helpers import ONE_JOB, run_engine

pytestmark = pytest.mark.engine

HEAD = '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n'
MASTER = '<host id="master_host" speed="1Gf"/>\n'
HOST = '<host id="a" speed="1Gf"/>\n'


def zone(body: str, routing: str = "Full") -> str:
    return HEAD + f'<zone id="z" routing="{routing}">\n' + body + "</zone>\n</platform>\n"


def link(bw: str = "1GBps", lat: str = "0", name: str = "l") -> str:
    return f'<link id="{name}" bandwidth="{bw}" latency="{lat}"/>\n'


def cluster(**attrs: str) -> str:
    values = {"id": "c", "prefix": "n", "suffix": "", "radical": "0-3", "speed": "1Gf", "bw": "1GBps", "lat": "0"}
    values |= attrs
    text = " ".join(f'{k}="{v}"' for k, v in values.items())
    return HEAD + f'<zone id="root" routing="Full">\n<cluster {text}/>\n</zone>\n</platform>\n'


# (case id, platform text, fragments of the error line besides the file name)
CASES = [
    ("empty-file", "", ["cannot load platform", "Invalid XML"]),
    ("not-xml", "hello world\n", ["cannot load platform", "Invalid XML"]),
    ("truncated", HEAD + '<zone id="z" routing="Full">\n' + MASTER, ["cannot load platform", "Premature EOF"]),
    ("json-instead", '{"hosts": []}', ["cannot load platform", "Invalid XML"]),
    ("unknown-routing", zone(MASTER + HOST, routing="Fulll"), ["line 4", 'routing="Fulll" is not a SimGrid routing']),
    ("routing-empty", zone(MASTER + HOST, routing=""), ["line 4", 'routing=""']),
    (
        "routing-typo-nested",
        HEAD
        + '<zone id="r" routing="Full">\n<zone id="in" routing="Floid">\n'
        + MASTER
        + "</zone>\n</zone>\n</platform>\n",
        ["line 5", "<zone id=\"in\">", 'routing="Floid"'],
    ),
    ("speed-zero", zone(MASTER + '<host id="a" speed="0f"/>\n'), ["line 6", "host 'a'", "speed 0 flop/s"]),
    ("speed-negative", zone(MASTER + '<host id="a" speed="-1Gf"/>\n'), ["host 'a'", "speed -1e+09 flop/s"]),
    ("speed-overflow", zone(MASTER + '<host id="a" speed="1e400f"/>\n'), ["cannot load platform", "out of range"]),
    ("speed-text", zone(MASTER + '<host id="a" speed="fast"/>\n'), ["cannot load platform", "fast"]),
    ("speed-missing", zone(MASTER + '<host id="a"/>\n'), ["cannot load platform", "speed"]),
    ("pstate-zero", zone(MASTER + '<host id="a" speed="1Gf,0f"/>\n'), ["host 'a'", "(pstate 1)"]),
    ("master-speed-zero", zone('<host id="master_host" speed="0f"/>\n' + HOST), ["host 'master_host'", "speed 0"]),
    ("cores-zero", zone(MASTER + '<host id="a" speed="1Gf" core="0"/>\n'), ["line 6", "host 'a'", 'core="0"']),
    ("cores-negative", zone(MASTER + '<host id="a" speed="1Gf" core="-4"/>\n'), ["host 'a'", 'core="-4"']),
    ("cores-text", zone(MASTER + '<host id="a" speed="1Gf" core="many"/>\n'), ["host 'a'", 'core="many"']),
    ("bandwidth-zero", zone(MASTER + HOST + link(bw="0Bps")), ["line 7", "link 'l'", "bandwidth 0 B/s"]),
    ("bandwidth-negative", zone(MASTER + HOST + link(bw="-1GBps")), ["link 'l'", "bandwidth -1e+09"]),
    ("bandwidth-text", zone(MASTER + HOST + link(bw="fast")), ["cannot load platform", "fast"]),
    ("latency-negative", zone(MASTER + HOST + link(lat="-1s")), ["link 'l'", "latency -1 s"]),
    (
        "splitduplex-zero",
        zone(MASTER + HOST + '<link id="sd" bandwidth="0Bps" latency="0" sharing_policy="SPLITDUPLEX"/>\n'),
        ["line 7", "link 'sd'", "bandwidth 0"],
    ),
    ("cluster-speed-zero", cluster(speed="0f"), ["host 'n0'", "speed 0"]),
    ("cluster-bandwidth-zero", cluster(bw="0Bps"), ["bandwidth 0"]),
    ("cluster-cores-zero", cluster(core="0"), ["line 5", "cluster 'c'", 'core="0"']),
    ("duplicate-host", zone(MASTER + HOST + HOST), ["cannot load platform", "second host named 'a'"]),
    (
        "route-unknown-link",
        zone(MASTER + HOST + '<route src="a" dst="master_host"><link_ctn id="nope"/></route>\n'),
        ["cannot load platform", "nope"],
    ),
    (
        "route-unknown-host",
        zone(MASTER + HOST + link() + '<route src="zz" dst="a"><link_ctn id="l"/></route>\n'),
        ["cannot load platform", "zz"],
    ),
    ("unknown-element", zone(MASTER + HOST + '<gizmo id="g"/>\n'), ["cannot load platform", "Invalid XML"]),
    (
        "no-version",
        '<?xml version="1.0"?>\n<platform><zone id="z" routing="Full">' + MASTER + "</zone></platform>",
        ["cannot load platform"],
    ),
    ("only-master", zone(MASTER), ["no compute host"]),
    (
        "only-master-and-storage",
        zone(MASTER + '<host id="s" speed="1Gf"><prop id="role" value="storage"/></host>\n'),
        ["no compute host"],
    ),
    (
        "two-masters",
        zone(MASTER + '<host id="b" speed="1Gf"><prop id="role" value="master"/></host>\n' + HOST),
        ["several master hosts (b, master_host)"],
    ),
    ("no-master", zone(HOST), ["no master host"]),
    (
        "unknown-role",
        zone(MASTER + '<host id="a" speed="1Gf"><prop id="role" value="boss"/></host>\n'),
        ["host 'a'", "unknown role 'boss'"],
    ),
]


@pytest.mark.parametrize("text,fragments", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_platform(tmp_path, text, fragments):
    platform = tmp_path / "hostile.xml"
    platform.write_text(text)
    workload = tmp_path / "w.json"
    workload.write_text(ONE_JOB)
    outcome = run_engine(tmp_path, platform, workload)
    outcome.assert_error("hostile.xml", *fragments)


def test_platform_is_a_folder(tmp_path):
    (tmp_path / "p.xml").mkdir()
    workload = tmp_path / "w.json"
    workload.write_text(ONE_JOB)
    outcome = run_engine(tmp_path, tmp_path / "p.xml", workload, stale=False)
    assert outcome.status != 0 and "p.xml" in outcome.err and "directory" in outcome.err


# ---- routes: checked when a job first uses a pair of hosts -------------------------------

CLOSED_FORM = (TEST_DATA / "closed_form.xml").read_text()
EXCHANGE = {"type": "parallel_homogeneous", "cpu": 1e9, "com": 1e9}  # 1 Gflop and 1 GB per pair
TWO_ZONES = HEAD + (
    '<zone id="world" routing="Full">\n'
    '<zone id="za" routing="Full">\n'
    + MASTER
    + '<host id="h0" speed="1Gf"/>\n'
    + link(name="l0")
    + '<route src="master_host" dst="h0"><link_ctn id="l0"/></route>\n</zone>\n'
    '<zone id="zb" routing="Full">\n<host id="h1" speed="1Gf"/>\n</zone>\n</zone>\n</platform>\n'
)


def run_two_host_job(tmp_path, platform_text, alloc="0-1", res=2):
    platform = tmp_path / "p.xml"
    platform.write_text(platform_text)
    workload = tmp_path / "w.json"
    jobs = [{"id": 1, "subtime": 0, "res": res, "profile": "x"}]
    workload.write_text(json.dumps({"jobs": jobs, "profiles": {"x": EXCHANGE}}))
    out = tmp_path / "out"
    out.mkdir()
    (out / "out_jobs.csv").write_text("job_id\n")  # a previous run's output
    with pytest.raises(SimulationError) as err:
        run_simulation(
            platform,
            workload,
            str(TEST_DATA / "scriptedSched.py"),
            out,
            scheduler_options={"alloc": {"1": alloc}},
            decision_timeout=20,
        )
    assert not list(out.glob("out_*.csv")), "a failed run left outputs"
    return str(err.value)


def test_missing_route_in_a_full_zone_names_both_hosts(tmp_path):
    """The issue's case: with h0-h1's <route> deleted, SimGrid took the route as empty
    (a 1 GB exchange in 10 us instead of 2 s) and the run succeeded."""
    text = CLOSED_FORM.replace(
        '<route src="h0" dst="h1"><link_ctn id="a0"/><link_ctn id="shared"/><link_ctn id="a1"/></route>', ""
    )
    assert text != CLOSED_FORM
    message = run_two_host_job(tmp_path, text)
    assert "job 'w0!1'" in message and "no route between hosts 'h0' and 'h1'" in message, message
    assert "routing=\"Full\"" in message, message


def test_the_same_job_runs_when_the_route_exists(tmp_path):
    """Control: the check does not fire on a complete platform (the job takes its 2 s)."""
    platform = tmp_path / "p.xml"
    platform.write_text(CLOSED_FORM)
    workload = tmp_path / "w.json"
    workload.write_text(
        json.dumps({"jobs": [{"id": 1, "subtime": 0, "res": 2, "profile": "x"}], "profiles": {"x": EXCHANGE}})
    )
    result = run_simulation(
        platform, workload, str(TEST_DATA / "scriptedSched.py"), tmp_path / "out", decision_timeout=20
    )
    assert result.jobs_csv.is_file()


def test_missing_zone_route_names_both_hosts_and_zones(tmp_path):
    message = run_two_host_job(tmp_path, TWO_ZONES)
    assert "no route between hosts 'h0' and 'h1'" in message and "'za' and 'zb'" in message, message


def test_host_without_route_to_the_master(tmp_path):
    """h1 runs the job (first allocated host) but cannot report its end to the master."""
    message = run_two_host_job(tmp_path, TWO_ZONES, alloc="1", res=1)
    assert "job 'w0!1'" in message and "host 1 (h1)" in message and "cannot report" in message, message
