"""ProtocolSession (the in-process codec) translates Batsim 4 messages as the pybatsim
adapter does. Reference for host sets: procset's text, which pybatsim sends."""

from __future__ import annotations

import json

from batsim.batsim import Job
from hypothesis import given
from hypothesis import strategies as st
from procset import ProcSet

from datasched.policy import create_policy
from datasched.policy.adapter import job_info_from_pybatsim
from datasched.policy.platform import StorageDaemons
from datasched.policy.session import ProtocolSession, alloc_intervals, alloc_text, job_info_from_json


@given(st.sets(st.integers(0, 300), min_size=1, max_size=80), st.randoms())
def test_alloc_text_is_procsets_text(hosts, rng):
    ordered = list(hosts)
    rng.shuffle(ordered)
    assert alloc_text(tuple(ordered)) == str(ProcSet(*ordered))
    assert ProcSet(*alloc_intervals(ordered)) == ProcSet(*ordered)


@given(
    walltime=st.one_of(st.none(), st.just(-1), st.integers(1, 10**6), st.floats(0.5, 1e6)),
    extra=st.dictionaries(st.sampled_from(["user", "datasched_swf", "dependencies"]), st.integers(), max_size=2),
)
def test_job_info_matches_the_adapters(walltime, extra):
    raw = {"id": "w0!7", "subtime": 12.5, "res": 3, "profile": "p", **extra}
    if walltime is not None:
        raw["walltime"] = walltime
    profile = {"type": "delay", "delay": 4}
    job = Job.from_json_dict(raw)
    job.profile_dict = profile
    ours, adapters = job_info_from_json(raw, profile), job_info_from_pybatsim(job)
    assert ours == adapters
    assert (dict(ours.profile), dict(ours.extra)) == (dict(adapters.profile), dict(adapters.extra))


_NOW = st.one_of(
    st.integers(0, 2**53), st.floats(0, 1e12, allow_nan=False), st.just(float("inf")), st.just(float("nan"))
)


@given(
    now=_NOW,
    jobs=st.lists(
        st.tuples(st.text(max_size=12), st.sets(st.integers(0, 300), min_size=1, max_size=20)), min_size=1, max_size=5
    ),
)
def test_a_reply_of_executions_is_json_dumps_byte_for_byte(now, jobs):
    """The written-out reply (ProtocolSession._executions_only) against the dictionaries through
    json.dumps, for any job id (quotes, backslashes, non-ASCII), host set and date."""
    from datasched.policy.decisions import Decision, ExecuteJob

    executions = [ExecuteJob(job_id, tuple(sorted(hosts))) for job_id, hosts in jobs]
    decisions: list[Decision] = list(executions)
    fast, reference = ProtocolSession(create_policy("fcfs", {})), ProtocolSession(create_policy("fcfs", {}))
    expected = json.dumps({"now": now, "events": reference._encode(now, decisions)}).encode()
    assert fast._executions_only(now, executions) == expected
    assert fast.nb_jobs_scheduled == reference.nb_jobs_scheduled == len(executions)


@given(now=_NOW)
def test_an_empty_reply_is_json_dumps_byte_for_byte(now):
    session = ProtocolSession(create_policy("fcfs", {}))
    assert session.handle(json.dumps({"now": now, "events": []})) == json.dumps({"now": now, "events": []}).encode()


def _message(now, *events):
    return json.dumps({"now": now, "events": [{"timestamp": now, **e} for e in events]})


BEGIN = {
    "type": "SIMULATION_BEGINS",
    "data": {
        "nb_resources": 2,
        "compute_resources": [{"id": 0, "name": "a0", "properties": {}}, {"id": 1, "name": "a1", "properties": {}}],
        "storage_resources": [],
        "profiles": {"w0": {"p": {"type": "delay", "delay": 5}}},
        "config": {},
    },
}


def _submitted(number, res):
    job = {"id": f"w0!{number}", "subtime": 1.0, "walltime": 10, "res": res, "profile": "p"}
    return {"type": "JOB_SUBMITTED", "data": {"job_id": job["id"], "job": job}}


def test_a_conversation_rejections_first_then_executions_as_pybatsim_orders_them():
    session = ProtocolSession(create_policy("fcfs"))
    assert json.loads(session.handle(_message(0.0, BEGIN))) == {"now": 0.0, "events": []}
    reply = json.loads(session.handle(_message(1.0, _submitted(1, 2), _submitted(2, 3))))
    assert [e["type"] for e in reply["events"]] == ["REJECT_JOB", "EXECUTE_JOB"]
    assert reply["events"][1]["data"] == {"job_id": "w0!1", "alloc": "0-1"}
    completed = {"type": "JOB_COMPLETED", "data": {"job_id": "w0!1", "job_state": "COMPLETED_SUCCESSFULLY"}}
    assert json.loads(session.handle(_message(6.0, completed)))["events"] == []
    session.handle(_message(6.0, {"type": "SIMULATION_ENDS", "data": {}}))
    assert session.finished
    assert (session.nb_jobs_submitted, session.nb_jobs_scheduled, session.nb_jobs_rejected) == (2, 1, 1)


def test_a_policy_learns_the_nodes_storage_daemons_from_the_engines_config():
    """datasched-sim --storage-daemons announces the daemons in SIMULATION_BEGINS' config;
    without the key the policy sees none (Batsim's config)."""
    plain = ProtocolSession(create_policy("fcfs"))
    plain.handle(_message(0.0, BEGIN))
    assert plain.policy.platform.storage.daemons is None
    described = {"request_size": 1000, "flops_per_request": 5.0, "flops_per_byte": 0.5}
    begin = json.loads(json.dumps(BEGIN))
    begin["data"]["config"] = {"datasched-storage-daemons": described}
    session = ProtocolSession(create_policy("fcfs"))
    session.handle(_message(0.0, begin))
    daemons = session.policy.platform.storage.daemons
    assert daemons == StorageDaemons(1000, 5.0, 0.5)
    # ceil(2500 / 1000) = 3 requests * 5 + 2500 * 0.5 = 1265 flops, as the engine counts them.
    assert daemons.flow_flops(2500) == 1265
    assert daemons.idle_flops_per_second == 0.0  # an engine before the idle load sends no key
    begin["data"]["config"]["datasched-storage-daemons"] = dict(described, idle_flops_per_second=2e9)
    idle = ProtocolSession(create_policy("fcfs"))
    idle.handle(_message(0.0, begin))
    assert idle.policy.platform.storage.daemons == StorageDaemons(1000, 5.0, 0.5, 2e9)
    assert idle.policy.platform.storage.daemons.idle_period == 0.0  # steady, as every engine before bursts
    begin["data"]["config"]["datasched-storage-daemons"] = dict(described, idle_flops_per_second=2e9, idle_period=0.5)
    bursts = ProtocolSession(create_policy("fcfs"))
    bursts.handle(_message(0.0, begin))
    assert bursts.policy.platform.storage.daemons == StorageDaemons(1000, 5.0, 0.5, 2e9, 0.5)


def test_a_policy_learns_the_staging_servers_and_their_groups_from_the_engines_config():
    """datasched-sim --staging-layer announces each server and the compute hosts writing
    through it (a Batsim interval set); without the key the policy sees none."""
    plain = ProtocolSession(create_policy("fcfs"))
    plain.handle(_message(0.0, BEGIN))
    assert plain.policy.platform.storage.staging is None
    begin = json.loads(json.dumps(BEGIN))
    described = {
        "servers": [{"id": 7, "name": "stage-0", "nodes": "0-1"}, {"id": 8, "name": "stage-1", "nodes": "2 3"}],
        "block_size": 1048576,
        "buffer_bytes": 67108864,
        "idle_seconds": 0.001,
        "drain_chunk": 4194304,
        "high_watermark": 0.9,
    }
    begin["data"]["config"] = {"datasched-staging-servers": described}
    session = ProtocolSession(create_policy("fcfs"))
    session.handle(_message(0.0, begin))
    staging = session.policy.platform.storage.staging
    assert staging is not None
    assert [(s.id, s.name, s.nodes) for s in staging.servers] == [(7, "stage-0", (0, 1)), (8, "stage-1", (2, 3))]
    assert dict(staging.server_of_host) == {0: 0, 1: 0, 2: 1, 3: 1}
    assert (staging.block_size, staging.buffer_bytes) == (1048576.0, 67108864.0)
