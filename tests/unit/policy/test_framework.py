"""Registry, typed options, validating wrapper, profile and topology of the policy framework."""

from __future__ import annotations

import argparse
import json
import math
import textwrap

import numpy as np
import pytest

from datasched.errors import UserError
from datasched.policy import ExecuteJob, JobInfo, JobSubmitted, PlatformView, Policy, create_policy
from datasched.policy.allocation import AllocationRequest
from datasched.policy.driver import InMemoryDriver, SimJob
from datasched.policy.platform import HostInfo
from datasched.policy.profile import CapacityProfile
from datasched.policy.registry import allocator_class, allocator_names, policy_names
from datasched.policy.topology import distances_for
from datasched.policy.validating import IllegalDecision, ValidatingPolicy


def test_every_file_in_schedulers_is_discovered_by_qualified_name():
    assert {"fcfs", "easy", "sjf", "conservative", "replay"} <= set(policy_names())
    assert {"sequential", "random", "topology", "contiguous"} <= set(allocator_names())
    assert allocator_class("random").__module__ == "datasched.schedulers.alloc_random"


@pytest.mark.parametrize(
    "options, message",
    [
        ({"alocation": "random"}, "unknown option 'alocation'"),
        ({"allocation": "nope"}, "unknown allocation policy 'nope'"),
        ({"allocation": {"name": "random", "seed": "x"}}, "option 'seed'"),
        ({"allocation": {"name": "random", "sed": 1}}, "unknown option 'sed'"),
        ({"skip_blocked": "maybe"}, "option 'skip_blocked'"),
    ],
)
def test_bad_options_are_user_errors_naming_the_option(options, message):
    with pytest.raises(UserError, match=message):
        create_policy("sjf", options)


def test_unknown_policy_lists_the_known_ones():
    with pytest.raises(UserError, match=r"unknown scheduler policy 'fifo'.*easy"):
        create_policy("fifo")


class _Careless(Policy):
    """Starts every submitted job on host 0, whatever it asked for."""

    name = "careless"
    description = "test only"

    def react(self, now, events):
        return [ExecuteJob(e.job.id, (0,) * self.hosts) for e in events if isinstance(e, JobSubmitted)]

    hosts = 1


@pytest.mark.parametrize(
    "hosts, jobs, message",
    [
        (1, [("a", 0.0, 1), ("b", 0.0, 1)], "host 0, which is busy with job 'a'"),
        (1, [("a", 0.0, 2)], "gave job 'a' 1 hosts, it requested 2"),
        (2, [("a", 0.0, 2)], "a host twice"),
    ],
)
def test_validating_wrapper_rejects_illegal_decisions(hosts, jobs, message):
    policy = _Careless(Policy.Params())
    policy.hosts = hosts
    sim = [SimJob(JobInfo(i, t, n, 5.0), 5.0) for i, t, n in jobs]
    with pytest.raises(IllegalDecision, match=message):
        InMemoryDriver(PlatformView.uniform(4), sim).run(policy)


def test_validating_wrapper_rejects_a_second_start_and_unknown_hosts():
    wrapper = ValidatingPolicy(_Careless(Policy.Params()))
    wrapper.begin(PlatformView.uniform(2), 0.0)
    job = JobInfo("a", 0.0, 1, 1.0)
    wrapper.inner.react = lambda now, events: [ExecuteJob("a", (0,)), ExecuteJob("a", (1,))]  # type: ignore[method-assign]
    with pytest.raises(IllegalDecision, match="job 'a', which is not waiting \\(it is running\\)"):
        wrapper.react(0.0, [JobSubmitted(0.0, job)])
    wrapper = ValidatingPolicy(_Careless(Policy.Params()))
    wrapper.begin(PlatformView.uniform(2), 0.0)
    wrapper.inner.react = lambda now, events: [ExecuteJob("a", (5,))]  # type: ignore[method-assign]
    with pytest.raises(IllegalDecision, match="host 5, which does not exist"):
        wrapper.react(0.0, [JobSubmitted(0.0, job)])


def test_capacity_profile_finds_the_earliest_window():
    profile = CapacityProfile(4, 0.0)
    profile.occupy(0.0, 10.0, 3)  # 1 free until 10
    profile.occupy(12.0, 20.0, 4)  # none free 12..20
    assert profile.earliest_start(0.0, 5.0, 1) == 0.0
    assert profile.earliest_start(0.0, 2.0, 2) == 10.0
    assert profile.earliest_start(0.0, 3.0, 2) == 20.0
    assert profile.earliest_start(0.0, math.inf, 4) == 20.0
    assert profile.earliest_start(0.0, 0.0, 4) == 10.0  # a zero-length job still needs its hosts
    assert profile.earliest_start(0.0, 1.0, 5) == math.inf


def _torus_xml(tmp_path):
    path = tmp_path / "torus.xml"
    path.write_text(
        textwrap.dedent("""\
        <?xml version='1.0'?>
        <!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
        <platform version="4.1">
          <zone id="AS0" routing="Full">
            <cluster id="c" prefix="node-" suffix="" radical="0-15" speed="1Gf" bw="1GBps" lat="1us"
                     topology="TORUS" topo_parameters="4,4"/>
          </zone>
        </platform>""")
    )
    return path


def test_torus_distances_follow_simgrid_ranks_not_batsim_ids(tmp_path):
    names = sorted(f"node-{i}" for i in range(16))  # Batsim numbers hosts by name bytes
    hosts = tuple(HostInfo(i, n) for i, n in enumerate(names))
    distances = distances_for(hosts, _torus_xml(tmp_path))
    assert distances is not None
    by_name = {h.name: h.id for h in hosts}
    d = lambda a, b: distances.distance(by_name[f"node-{a}"], by_name[f"node-{b}"])  # noqa: E731
    assert d(0, 1) == 1 and d(0, 3) == 1  # wrap-around in x
    assert d(0, 4) == 1 and d(0, 5) == 2 and d(0, 10) == 4


def test_no_topology_means_none_and_host_properties_work():
    plain = tuple(HostInfo(i, f"h{i}") for i in range(3))
    assert distances_for(plain) is None
    tree = tuple(HostInfo(i, f"h{i}", {"topology_path": p}) for i, p in enumerate(["g0/s0", "g0/s0", "g0/s1", "g1/s2"]))
    found = distances_for(tree)
    assert found is not None
    m = found.matrix
    assert m[0, 1] == 2 and m[0, 2] == 4 and m[0, 3] == 6 and (m == m.T).all()


def test_fat_tree_and_dragonfly_distances_grow_with_the_common_level(tmp_path):
    path = tmp_path / "p.xml"
    path.write_text("""<?xml version='1.0'?><platform version="4.1"><zone id="z" routing="Full">
      <cluster id="ft" prefix="f" suffix="" radical="0-15" speed="1Gf" bw="1GBps" lat="1us"
               topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2"/>
      <cluster id="df" prefix="d" suffix="" radical="0-15" speed="1Gf" bw="1GBps" lat="1us"
               topology="DRAGONFLY" topo_parameters="2,1;2,1;2,1;2"/>
    </zone></platform>""")
    hosts = tuple(HostInfo(i, n) for i, n in enumerate([f"f{i}" for i in range(16)]))
    found = distances_for(hosts, path)
    assert found is not None
    m = found.matrix
    assert m[0, 1] == 2 and m[0, 4] == 4
    hosts = tuple(HostInfo(i, n) for i, n in enumerate([f"d{i}" for i in range(16)]))
    found = distances_for(hosts, path)
    assert found is not None
    m = found.matrix
    assert m[0, 1] < m[0, 2] < m[0, 4] < m[0, 8]


def test_distances_are_computed_on_first_use_once_and_malformed_coordinates_refused_at_start(tmp_path, monkeypatch):
    """A policy that never asks for a distance does not pay for the n x n matrix; one that
    does gets it computed once; a bad ``torus_coords`` is refused when the distances are made."""
    import datasched.policy.topology as topology

    calls: list[int] = []
    compute = topology._pairwise_matrix

    def counted(coords):
        calls.append(1)
        return compute(coords)

    monkeypatch.setattr(topology, "_pairwise_matrix", counted)
    hosts = tuple(HostInfo(i, f"h{i}", {"topology_path": p}) for i, p in enumerate(["g0/s0", "g0/s1", "g1/s2"]))
    found = distances_for(hosts)
    assert found is not None and calls == []
    assert found.distance(0, 1) == 4 and found.distance(0, 2) == 6 and calls == [1]
    assert found.matrix[1, 2] == 6 and calls == [1]
    bad = tuple(HostInfo(i, f"h{i}", {"torus_coords": "0,x", "torus_dims": "2,2"}) for i in range(2))
    with pytest.raises(UserError, match="torus_coords"):
        distances_for(bad)


def test_topology_allocator_picks_a_compact_set_and_degrades_to_sequential():
    ids = np.arange(8)
    ring = np.minimum(np.abs(ids[:, None] - ids[None, :]), 8 - np.abs(ids[:, None] - ids[None, :]))
    from datasched.policy.topology import HostDistances

    allocator = allocator_class("topology")(allocator_class("topology").Params())
    job = JobInfo("j", 0.0, 3, 1.0)
    free = (0, 2, 4, 5, 6)
    chosen = allocator.choose(AllocationRequest(job, free, PlatformView.uniform(8, HostDistances(ring, "ring")), 0.0))
    assert chosen == (4, 5, 6)
    assert allocator.choose(AllocationRequest(job, free, PlatformView.uniform(8), 0.0)) == (0, 2, 4)


def test_contiguous_allocator_needs_a_consecutive_block():
    allocator = allocator_class("contiguous")(allocator_class("contiguous").Params())
    job = JobInfo("j", 0.0, 3, 1.0)
    assert allocator.choose(AllocationRequest(job, (0, 1, 3, 4, 5), PlatformView.uniform(8), 0.0)) == (3, 4, 5)
    assert allocator.choose(AllocationRequest(job, (0, 1, 3, 4, 6), PlatformView.uniform(8), 0.0)) is None


def test_schedulers_command_lists_policies_with_parameters(capsys):
    from datasched.policy import cli

    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    args = parser.parse_args(["schedulers", "--json"])
    assert args.func(args) == 0
    data = json.loads(capsys.readouterr().out)
    easy = next(p for p in data["policies"] if p["name"] == "easy")
    assert "EASY" in easy["description"] and easy["parameters"][0]["name"] == "allocation"
    random_alloc = next(a for a in data["allocators"] if a["name"] == "random")
    assert random_alloc["parameters"] == [
        {
            "name": "seed",
            "type": "int",
            "default": "0",
            "description": "seed of the allocator's private random generator",
        }
    ]
