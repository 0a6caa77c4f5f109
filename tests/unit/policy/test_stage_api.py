"""The policy-side data-mover API: StageData out (DATASCHED_STAGE), StageDone in
(DATASCHED_STAGE_DONE) and ItemEvicted in (DATASCHED_ITEM_EVICTED), through the in-process
codec, the pybatsim adapter and the validating wrapper; the platform data rates a policy
reads."""

from __future__ import annotations

import json
import math

import pytest

from datasched.errors import UserError
from datasched.policy import ItemEvicted, PlatformView, StageData, StageDone, create_policy
from datasched.policy.base import Policy
from datasched.policy.platform import HostInfo
from datasched.policy.rates import rates_for
from datasched.policy.session import ProtocolSession
from datasched.policy.validating import IllegalDecision, ValidatingPolicy


class Recorder(Policy):
    """Stages item ``x`` onto hosts 0-1 and to central storage at the first event; records events."""

    name = "recorder"
    description = "test"

    def __init__(self) -> None:
        from datasched.policy.params import PolicyParams

        super().__init__(PolicyParams())
        self.seen: list = []

    def react(self, now, events):
        self.seen.extend(events)
        if len(self.seen) == len(events):
            return [StageData("s1", "x", (0, 1)), StageData("s2", "x")]
        return []


def begins() -> dict:
    compute = [{"id": i, "name": f"n{i}", "state": "idle", "properties": {}} for i in range(2)]
    return {
        "type": "SIMULATION_BEGINS",
        "data": {"config": {}, "compute_resources": compute, "storage_resources": [], "profiles": {}},
    }


def test_session_sends_data_stage_and_reads_its_answer():
    policy = Recorder()
    session = ProtocolSession(policy)
    session.handle(json.dumps({"now": 0, "events": [begins()]}))
    notify = {"type": "NOTIFY", "data": {"type": "no_more_static_job_to_submit"}}
    reply = json.loads(session.handle(json.dumps({"now": 1, "events": [notify]})))
    assert [e["type"] for e in reply["events"]] == ["DATASCHED_STAGE", "DATASCHED_STAGE"]
    assert reply["events"][0]["data"] == {"stage_id": "s1", "item": "x", "to": [0, 1]}
    assert reply["events"][1]["data"] == {"stage_id": "s2", "item": "x", "to": "central"}
    done = {"stage_id": "s1", "item": "x", "kind": "stage_in", "bytes": 4e9, "start_time": 1}
    session.handle(json.dumps({"now": 5, "events": [{"type": "DATASCHED_STAGE_DONE", "data": done}]}))
    assert policy.seen[-1] == StageDone(5, "s1", "x", "stage_in", 4e9, 1.0)


def test_pybatsim_adapter_takes_stage_done_out_before_pybatsim_parses():
    """pybatsim 3.2.1 raises on unknown event types: the adapter's receive wrapper removes
    DATASCHED_STAGE_DONE from the message and hands it to the policy with the others."""
    from datasched.policy.adapter import PybatsimAdapter

    class Network:
        def recv(self, blocking=True):
            done = {"stage_id": "s1", "item": "x"}
            return {"now": 3, "events": [{"type": "DATASCHED_STAGE_DONE", "data": done}, {"type": "X"}]}

    class Bs:
        network = Network()

    adapter = PybatsimAdapter(Recorder())
    adapter.bs = Bs()
    adapter._intercept_stage_done()
    message = adapter.bs.network.recv()
    assert message["events"] == [{"type": "X"}]
    adapter.onBeforeEvents()
    assert adapter._events == [StageDone(3, "s1", "x", "", 0.0, 3.0)]


@pytest.mark.parametrize(
    ("stage", "message"),
    [
        (StageData("", "x", (0,)), "non-empty string"),
        (StageData("s", "", (0,)), "non-empty name"),
        (StageData("s", "x", ()), "neither 'central' nor a list"),
        (StageData("s", "x", "elsewhere"), "neither 'central' nor a list"),
        (StageData("s", "x", (0, 0)), "listed twice"),
        (StageData("s", "x", (5,)), "target host 5 does not exist"),
    ],
)
def test_validating_wrapper_names_the_bad_stage(stage, message):
    class One(Recorder):
        def react(self, now, events):
            return [stage]

    wrapped = ValidatingPolicy(One())
    wrapped.begin(PlatformView.uniform(2), 0)
    with pytest.raises(IllegalDecision, match=message) as info:
        wrapped.react(0, [])
    assert "\n" not in str(info.value)


def test_validating_wrapper_refuses_a_stage_id_used_twice():
    class Twice(Recorder):
        def react(self, now, events):
            return [StageData("s", "x", (0,)), StageData("s", "y")]

    wrapped = ValidatingPolicy(Twice())
    wrapped.begin(PlatformView.uniform(2), 0)
    with pytest.raises(IllegalDecision, match="already used"):
        wrapped.react(0, [])


def test_rates_from_properties_and_platform_xml(tmp_path):
    """platforms/' layout: NVM rates and capacity from host properties, the storage NIC
    from ``<host>-eth``, the interconnect from the cluster's ``bw``; silence is inf."""
    from datasched.platforms import FatTreeParams, InterconnectParams, SystemParams, generate, write

    params = SystemParams(
        storage_mode="unified",
        interconnect=InterconnectParams(topology=FatTreeParams(k=2, levels=1), link_bw=3e9, link_lat=0),
        node={"nvm_read_bw": 4e9, "nvm_write_bw": 1.5e9, "nvm_capacity": 1e11},
        storage={"io_servers": 1, "node_nic_bw": 1.25e9},
    )
    path = write(generate(params), tmp_path / "p.xml")
    props = {"nvm_read_bw": "4e9", "nvm_write_bw": "1.5e9", "nvm_capacity": "1e11"}
    import xml.etree.ElementTree as ET

    cluster = next(ET.parse(path).getroot().iter("cluster"))
    first = f"{cluster.get('prefix')}{str(cluster.get('radical')).split('-')[0]}{cluster.get('suffix', '')}"
    rates = rates_for([HostInfo(0, first, props)], path)
    assert (rates.nvm_read(0), rates.nvm_write(0), rates.nvm_capacity(0)) == (4e9, 1.5e9, 1e11)
    assert rates.central(0) == 1.25e9 and rates.link_bw == 3e9
    assert rates.move(0, 0) == 1.5e9
    bare = rates_for([HostInfo(0, "h0")])
    assert bare.move(0, 0) == math.inf and bare.nvm_capacity(0) == math.inf


def test_rates_bad_property_is_one_line():
    with pytest.raises(UserError, match=r"host 'h0' property nvm_read_bw is 'fast'"):
        rates_for([HostInfo(0, "h0", {"nvm_read_bw": "fast"})])


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1.25GBps", 1.25e9), ("10Gbps", 1.25e9), ("100MiBps", 100 * 2**20), ("5e9", 5e9), ("2kBps", 2e3), ("x", None)],
)
def test_simgrid_bandwidth_units(text, expected):
    """SimGrid's units (decimal and binary prefixes, bytes or bits); unreadable: no rate."""
    from datasched.policy.rates import _xml_bandwidth

    assert _xml_bandwidth(text) == (pytest.approx(expected) if expected else None)


# ---- DATASCHED_ITEM_EVICTED (asked for with --datasched-item-evictions) ----------------

EVICTED = {"item": "x", "nodes": [0, 1], "nvms": [7, 8], "bytes": 4e9, "written_back": True, "on_central": True}


def test_session_reads_item_evicted_dated_by_the_eviction():
    policy = Recorder()
    session = ProtocolSession(policy)
    session.handle(json.dumps({"now": 0, "events": [begins()]}))
    event = {"type": "DATASCHED_ITEM_EVICTED", "data": {**EVICTED, "date": 15.0}}
    session.handle(json.dumps({"now": 15, "events": [event]}))
    assert policy.seen == [ItemEvicted(15.0, "x", (0, 1), 4e9, True, True)]


def test_pybatsim_adapter_takes_item_evicted_out_before_pybatsim_parses():
    from datasched.policy.adapter import PybatsimAdapter

    class Network:
        def recv(self, blocking=True):
            evicted = {"type": "DATASCHED_ITEM_EVICTED", "data": {**EVICTED, "date": 3.0}}
            return {"now": 3, "events": [evicted, {"type": "X"}]}

    class Bs:
        network = Network()

    adapter = PybatsimAdapter(Recorder())
    adapter.bs = Bs()
    adapter._intercept_stage_done()
    assert adapter.bs.network.recv()["events"] == [{"type": "X"}]
    adapter.onBeforeEvents()
    assert adapter._events == [ItemEvicted(3.0, "x", (0, 1), 4e9, True, True)]


def test_runner_asks_the_engine_for_evictions_only_for_policies_that_want_them():
    """A data-aware workflow policy gets --datasched-item-evictions; the data-unaware one,
    other policies and pybatsim schedulers get the arguments unchanged (Batsim's stream)."""
    from datasched.runner import ITEM_EVICTIONS_OPTION, _policy_extension_args

    assert _policy_extension_args("workflow", {}, ["--x"]) == [ITEM_EVICTIONS_OPTION, "--x"]
    assert _policy_extension_args("workflow", {"data_aware": False}, ["--x"]) == ["--x"]
    assert _policy_extension_args("fcfs", {}, []) == []
    assert _policy_extension_args("easyBackfill", {}, []) == []
    assert _policy_extension_args("workflow", {}, [ITEM_EVICTIONS_OPTION]) == [ITEM_EVICTIONS_OPTION]
    wrapped = ValidatingPolicy(create_policy("workflow", {}))
    assert wrapped.wants_item_evictions
