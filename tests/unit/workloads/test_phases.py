"""Phase profiles: nominal durations in closed form and the composed fallback mapping."""

from __future__ import annotations

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from datasched.workloads.phases import (
    EMBEDDED_PHASES_FIELD,
    AccessType,
    ItemUse,
    Phase,
    PhaseKind,
    ReferenceRates,
    StorageAllocation,
    StorageDescriptor,
    composed_fallback,
    nominal_seconds,
    phase_profile,
    validate_phase_profile,
)

RATES = ReferenceRates()  # DRAM 10 GB/s, NVM 2 GB/s read / 1 GB/s write, link 10 GB/s, host 1 Gflop/s
GB = 1e9


def storage(**kw):
    base = {"allocation": "internal", "stg_k": 4, "mem_hit_pct": 0, "remote_pct": 0, "access": "disperse", "san_k": 4}
    return StorageDescriptor(**(base | kw))


def test_access_type_accepts_table1_letters():
    assert AccessType.parse("D") is AccessType.DISPERSE
    assert AccessType.parse("a") is AccessType.AFFINITY
    assert AccessType.parse("local") is AccessType.LOCAL


@pytest.mark.parametrize(
    "kind, desc, io_tasks, expected",
    [
        (PhaseKind.READ, storage(allocation="cache"), 8, 1.0),  # 2 GB at 2 GB/s, own NVM
        (PhaseKind.WRITE, storage(allocation="cache"), 8, 2.0),  # 2 GB at 1 GB/s
        (PhaseKind.READ, storage(mem_hit_pct=100), 8, 0.2),  # all from DRAM at 10 GB/s
        (PhaseKind.READ, storage(mem_hit_pct=50, allocation="cache"), 8, 0.1 + 0.5),
        (PhaseKind.READ, storage(stg_k=4), 8, 2.0),  # 8 tasks share 4 NVMs: 2x
        (PhaseKind.READ, storage(stg_k=4, access="local"), 8, 1.0),  # local: no sharing
        (PhaseKind.READ, storage(stg_k=4, remote_pct=50), 8, 2.0 + 0.1),  # + 1 GB remote over 10 GB/s
        (PhaseKind.READ, storage(allocation="san", san_k=1), 8, 2 * 8 / 5),  # 16 GB through one 5 GB/s server
        (PhaseKind.READ, storage(allocation="san", san_k=64), 1, 2 / 1.25),  # front-end bound
    ],
)
def test_nominal_io_seconds_closed_form(kind, desc, io_tasks, expected):
    assert nominal_seconds(Phase(kind, 2 * GB), desc, 8, io_tasks, RATES) == pytest.approx(expected)


def test_nominal_compute_and_communicate():
    assert nominal_seconds(Phase(PhaseKind.COMPUTE, 5e9), storage(), 4, 1, RATES) == pytest.approx(5.0)
    assert nominal_seconds(Phase(PhaseKind.COMMUNICATE, 2e10), storage(), 4, 1, RATES) == pytest.approx(2.0)
    assert nominal_seconds(Phase(PhaseKind.COMMUNICATE, 2e10), storage(), 1, 1, RATES) == 0.0


def test_composed_fallback_mapping():
    phases = [
        Phase(PhaseKind.COMPUTE, 3e9),
        Phase(PhaseKind.COMMUNICATE, 9e8),
        Phase(PhaseKind.READ, 2 * GB),
        Phase(PhaseKind.WRITE, GB),
    ]
    desc = storage(remote_pct=50, stg_k=4)
    profiles = composed_fallback("app", phases, desc, res=4, io_tasks=4, rates=RATES)
    top = profiles["app"]
    assert top["type"] == "composed" and top["repeat"] == 1
    assert top["seq"] == ["app.0.cpu", "app.1.com", "app.2.dev", "app.2.net", "app.3.dev", "app.3.net"]
    assert profiles["app.0.cpu"] == {"type": "parallel_homogeneous", "cpu": 3e9, "com": 0}
    assert profiles["app.1.com"] == {"type": "parallel_homogeneous", "cpu": 0, "com": 3e8}  # 9e8 over 3 peers
    assert profiles["app.2.dev"] == {"type": "delay", "delay": pytest.approx(1.0)}  # 4 tasks / 4 NVMs, 2 GB/s
    # remote = 1 GB per task x 4 tasks spread over 4 x 3 pairs
    assert profiles["app.2.net"]["com"] == pytest.approx(4e9 / 12)
    assert profiles["app.3.dev"]["delay"] == pytest.approx(1.0)  # 1 GB at 1 GB/s
    validate_phase_profile(top[EMBEDDED_PHASES_FIELD])


def test_san_and_local_io_produce_no_interconnect_traffic():
    phases = [Phase(PhaseKind.READ, GB)]
    for desc in (
        storage(allocation="san", remote_pct=100),
        storage(access="local", remote_pct=100),
        storage(allocation="cache", remote_pct=100),
    ):
        profiles = composed_fallback("x", phases, desc, res=4, io_tasks=4, rates=RATES)
        assert profiles["x"]["seq"] == ["x.0.dev"], desc


def test_single_node_communication_is_left_out():
    """One node exchanges nothing: no sub-profile (real Batsim refuses a delay of 0)."""
    phases = [Phase(PhaseKind.COMPUTE, 1e9), Phase(PhaseKind.COMMUNICATE, GB)]
    profiles = composed_fallback("x", phases, storage(), res=1, io_tasks=1, rates=RATES)
    assert profiles["x"]["seq"] == ["x.0.cpu"]
    assert "x.1.com" not in profiles


def test_a_job_with_no_timed_step_is_one_empty_ptask():
    """Real Batsim refuses a composed profile with an empty seq and a delay of 0; a
    parallel_homogeneous of 0 flops and 0 bytes is valid there and takes no time."""
    profiles = composed_fallback("x", [Phase(PhaseKind.COMMUNICATE, GB)], storage(), res=1, io_tasks=1, rates=RATES)
    assert profiles["x"]["seq"] == ["x.empty"]
    assert profiles["x.empty"] == {"type": "parallel_homogeneous", "cpu": 0, "com": 0}


def _batsim_accepts(name: str, profile: dict) -> str | None:
    """Real Batsim 4.2.1's checks of the profile types the fallback uses (src/profiles.cpp):
    the reason it would refuse `profile`, or None."""
    if profile["type"] == "delay" and not profile["delay"] > 0:
        return f"{name}: non-strictly-positive delay {profile['delay']}"
    if profile["type"] == "parallel_homogeneous" and not (profile["cpu"] >= 0 and profile["com"] >= 0):
        return f"{name}: negative cpu or com"
    if profile["type"] == "composed" and not (profile["seq"] and profile["repeat"] > 0):
        return f"{name}: empty seq or repeat <= 0"
    return None


@given(
    kinds=st.lists(st.sampled_from(list(PhaseKind)), min_size=0, max_size=5),
    amount=st.sampled_from([0.0, 1.0, GB]),
    res=st.integers(1, 4),
    remote=st.sampled_from([0.0, 50.0, 100.0]),
    mem=st.sampled_from([0.0, 100.0]),
)
def test_every_fallback_profile_is_one_real_batsim_accepts(kinds, amount, res, remote, mem):
    phases = [Phase(kind, amount) for kind in kinds]
    desc = storage(remote_pct=remote, mem_hit_pct=mem)
    profiles = composed_fallback("x", phases, desc, res=res, io_tasks=res, rates=RATES)
    refusals = [why for name, p in profiles.items() if (why := _batsim_accepts(name, p))]
    assert refusals == []
    assert all(step in profiles for step in profiles["x"]["seq"])


def test_schema_rejects_unknown_fields_and_bad_values():
    good = phase_profile([Phase(PhaseKind.READ, GB, ("d1",))], storage(), 4, 2, RATES)
    validate_phase_profile(good)
    assert good["phases"][0]["data"] == ["d1"]
    for mutate in (
        lambda p: p.update(extra=1),
        lambda p: p["storage"].update(allocation="tape"),
        lambda p: p["storage"].update(mem_hit_pct=120),
        lambda p: p["phases"][0].update(kind="sleep"),
        lambda p: p["phases"][0].update(flops=1),
    ):
        bad = phase_profile([Phase(PhaseKind.READ, GB, ("d1",))], storage(), 4, 2, RATES)
        mutate(bad)
        with pytest.raises(jsonschema.ValidationError):
            validate_phase_profile(bad)


def test_storage_descriptor_enum_values():
    assert [a.value for a in StorageAllocation] == ["internal", "external", "cache", "san"]
    assert [a.value for a in AccessType] == ["disperse", "affinity", "local"]


def test_staging_fields_are_written_only_when_used():
    from pydantic import ValidationError

    from datasched.workloads.phases import (
        Phase,
        PhaseKind,
        ReferenceRates,
        StorageDescriptor,
        phase_profile,
        validate_phase_profile,
    )

    base = {"allocation": "internal", "stg_k": 1, "mem_hit_pct": 0, "remote_pct": 0, "access": "disperse", "san_k": 1}
    plain = phase_profile([Phase(PhaseKind.READ, 1e9)], StorageDescriptor(**base), 1, 1, ReferenceRates())
    assert "stage_in_bytes" not in plain["storage"] and "stage_out_bytes" not in plain["storage"]
    staged = phase_profile(
        [Phase(PhaseKind.READ, 1e9)], StorageDescriptor(**base, stage_in_bytes=5e9), 1, 1, ReferenceRates()
    )
    assert staged["storage"]["stage_in_bytes"] == 5e9 and "stage_out_bytes" not in staged["storage"]
    validate_phase_profile(staged)
    with pytest.raises(ValidationError, match="stage_out_bytes"):
        StorageDescriptor(**base, stage_out_bytes=-1.0)


def test_per_task_distribution_in_profile_nominal_and_fallback():
    """io_distribution per_task: each of the res - io_tasks other tasks gets io_tasks x S / res
    (S = 2 GB, res 4, io_tasks 2: 1 GB at 10 GB/s = 0.1 s more than without); the composed
    fallback spreads io_tasks x (res - io_tasks) x S / res = 2 GB over the 4 x 3 pairs; a
    profile without distribution does not carry the key."""
    read_phase = Phase(PhaseKind.READ, 2 * GB)
    desc = storage(allocation="cache", stg_k=4)
    plain = nominal_seconds(read_phase, desc, 4, 2, RATES)
    assert nominal_seconds(read_phase, desc, 4, 2, RATES, "per_task") == pytest.approx(plain + 0.1)
    assert nominal_seconds(read_phase, desc, 2, 2, RATES, "per_task") == pytest.approx(plain)
    profile = phase_profile([read_phase], desc, 4, 2, RATES, distribution="per_task")
    assert profile["io_distribution"] == "per_task"
    validate_phase_profile(profile)
    assert "io_distribution" not in phase_profile([read_phase], desc, 4, 2, RATES)
    profiles = composed_fallback("app", [read_phase], desc, res=4, io_tasks=2, rates=RATES, distribution="per_task")
    assert profiles["app"]["seq"] == ["app.0.dev", "app.0.dist"]
    assert profiles["app.0.dist"]["com"] == pytest.approx(2 * GB / 12)
    with pytest.raises(jsonschema.ValidationError):
        validate_phase_profile({**profile, "io_distribution": "broadcast"})


@pytest.mark.parametrize("field", ["bytes", "nominal_seconds", "item bytes", "stage_in_bytes", "stage_out_bytes"])
def test_schema_bounds_every_amount_at_the_engines_1e23(field):
    """Issue 32: the schema says what the engine reads (model/batsim_numbers.hpp): every
    amount at most MAX_AMOUNT = 1e23; 1e23 itself is valid, 2e23 is not."""
    from pydantic import ValidationError

    from datasched.workloads.phases import MAX_AMOUNT

    def profile(value: float) -> dict:
        p = phase_profile([Phase(PhaseKind.WRITE, GB, items=(ItemUse("x", GB),))], storage(), 4, 2, RATES)
        target = {"item bytes": p["phases"][0]["items"][0], "bytes": p["phases"][0]}.get(field)
        if field.startswith("stage_"):
            p["storage"][field] = value
        elif target is not None:
            target["bytes"] = value
        else:
            p["phases"][0][field] = value
        return p

    validate_phase_profile(profile(MAX_AMOUNT))
    with pytest.raises(jsonschema.ValidationError):
        validate_phase_profile(profile(2 * MAX_AMOUNT))
    if field.startswith("stage_"):
        base = {"allocation": "internal", "stg_k": 1, "mem_hit_pct": 0, "remote_pct": 0, "access": "disperse"}
        with pytest.raises(ValidationError, match=field):
            StorageDescriptor(**base, san_k=1, **{field: 2 * MAX_AMOUNT})
