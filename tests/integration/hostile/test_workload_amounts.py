"""Issue 32: every workload number that becomes a date (a profile's flops, bytes or
seconds, a data item's bytes, an external event's date) is refused when the workload is
read if it is above 1e23, the largest number Batsim 4.2.1 writes in its protocol
(sim/src/model/batsim_numbers.hpp). Before, each of these loaded: the run then stopped
at the end of the phase (naming the job, not the profile and field) or, for the profiles
the engine does not simulate alone, after connecting to the decision process.

One row per reader of profile.cpp, phase_profile.cpp, workload.cpp and
external_events.cpp; each expects exit non-zero and one line naming the file, the
profile (or entry, or line) and the field, with the value."""

from __future__ import annotations

import json

import pytest

from tests.integration.hostile.engine_helpers import PLATFORM, run_engine

pytestmark = pytest.mark.engine

BEYOND = 2e23
RANGE = "must be a number >= 0 and <= 1e23"


def phases(**changes: object) -> dict:
    """A one-phase datasched_phases profile; ``changes`` replace the storage fields
    (``storage_*``) or the phase's fields."""
    storage = {"allocation": "internal", "stg_k": 1, "mem_hit_pct": 0, "remote_pct": 0, "access": "disperse"}
    storage["san_k"] = 1
    phase: dict = {"kind": "write", "bytes": 10, "nominal_seconds": 1}
    for key, value in changes.items():
        if key.startswith("storage_"):
            storage[key.removeprefix("storage_")] = value
        else:
            phase[key] = value
    if "flops" in phase:
        phase = {"kind": "compute", "flops": phase["flops"], "nominal_seconds": phase["nominal_seconds"]}
    return {"type": "datasched_phases", "version": 1, "res": 1, "io_tasks": 1, "storage": storage, "phases": [phase]}


def workload(profile: dict, **top: object) -> str:
    jobs = [{"id": 1, "subtime": 0, "res": 1, "profile": "p"}]
    return json.dumps({"nb_res": 1, "jobs": jobs, "profiles": {"p": profile}} | top)


# (case id, profile, field the line names, value as the engine prints it)
PROFILE_CASES = [
    ("delay", {"type": "delay", "delay": BEYOND}, "delay", "2e+23"),
    ("parallel-cpu", {"type": "parallel", "cpu": [1, 1e300], "com": [0, 0, 0, 0]}, "cpu[1]", "1e+300"),
    ("parallel-com", {"type": "parallel", "cpu": [1], "com": [BEYOND]}, "com[0]", "2e+23"),
    ("homogeneous-cpu", {"type": "parallel_homogeneous", "cpu": 1e300, "com": 0}, "cpu", "1e+300"),
    ("homogeneous-com", {"type": "parallel_homogeneous", "cpu": 0, "com": BEYOND}, "com", "2e+23"),
    ("homogeneous-total-cpu", {"type": "parallel_homogeneous_total", "cpu": BEYOND, "com": 0}, "cpu", "2e+23"),
    ("pfs-read", {"type": "parallel_homogeneous_pfs", "bytes_to_read": BEYOND}, "bytes_to_read", "2e+23"),
    ("pfs-write", {"type": "parallel_homogeneous_pfs", "bytes_to_write": 1e300}, "bytes_to_write", "1e+300"),
    ("staging", {"type": "data_staging", "nb_bytes": BEYOND, "from": "a", "to": "b"}, "nb_bytes", "2e+23"),
    ("phase-flops", phases(flops=1e300, nominal_seconds=1), "flops", "1e+300"),
    ("phase-bytes", phases(bytes=BEYOND), "bytes", "2e+23"),
    ("phase-nominal-seconds", phases(nominal_seconds=1e300), "nominal_seconds", "1e+300"),
    ("phase-item-bytes", phases(bytes=10, items=[{"name": "x", "bytes": BEYOND}]), "bytes", "2e+23"),
    ("stage-in-bytes", phases(storage_stage_in_bytes=BEYOND), "stage_in_bytes", "2e+23"),
    ("stage-out-bytes", phases(storage_stage_out_bytes=1e300), "stage_out_bytes", "1e+300"),
    ("phase-bytes-string", phases(bytes="1e300"), "bytes", '"1e300"'),
]


@pytest.mark.parametrize(
    ("profile", "field", "value"), [c[1:] for c in PROFILE_CASES], ids=[c[0] for c in PROFILE_CASES]
)
def test_profile_amount_beyond_batsims_range_is_refused_at_load(tmp_path, profile, field, value):
    path = tmp_path / "hostile.json"
    path.write_text(workload(profile))
    outcome = run_engine(tmp_path, PLATFORM, path)
    outcome.assert_error("hostile.json", "profile 'p'", f"field '{field}' {RANGE}", f"got {value}")


def test_profile_amount_of_1e23_is_accepted(tmp_path):
    """The bound itself loads (the run then stops only at the unreachable decision
    process): the check refuses what is above 1e23, not 1e23."""
    path = tmp_path / "w.json"
    path.write_text(workload({"type": "parallel_homogeneous", "cpu": 1e23, "com": 1e23}))
    outcome = run_engine(tmp_path, PLATFORM, path)
    outcome.assert_error("decision")
    assert "1e23" not in outcome.err, outcome.err


def test_initial_data_item_beyond_batsims_range_is_refused_at_load(tmp_path):
    """datasched_data sizes are moved by the data mover (DATASCHED_STAGE) and read by phases."""
    path = tmp_path / "hostile.json"
    path.write_text(workload({"type": "delay", "delay": 1}, datasched_data=[{"name": "x", "bytes": 1e300}]))
    outcome = run_engine(tmp_path, PLATFORM, path)
    outcome.assert_error("hostile.json", "datasched_data[0]", f"field 'bytes' {RANGE} bytes", "got 1e+300")


@pytest.mark.parametrize(("stamp", "shown"), [(1e300, "1e+300"), (BEYOND, "2e+23"), (-1, "-1")])
def test_external_event_date_beyond_batsims_range_is_refused_at_load(tmp_path, stamp, shown):
    path = tmp_path / "w.json"
    path.write_text(workload({"type": "delay", "delay": 1}))
    events = tmp_path / "events.txt"
    events.write_text(json.dumps({"timestamp": 0, "type": "x"}) + "\n" + json.dumps({"timestamp": stamp, "type": "x"}))
    outcome = run_engine(tmp_path, PLATFORM, path, "--events", str(events), "--forward-unknown-events")
    outcome.assert_error("events.txt', line 2", f"field 'timestamp' {RANGE} s", f"got {shown}")
