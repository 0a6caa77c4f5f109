"""The engine's small default actor stacks (64 KiB, see init_simgrid) must not limit
the long-lived actors that serialise input JSON: a profile nested 900 levels deep is forwarded
in SIMULATION_BEGINS by the server actor, which has a large stack."""

import pytest

from datasched.runner import run_simulation
from tests.conftest import TEST_DATA, read_jobs_csv, write_workload

pytestmark = pytest.mark.engine

PLATFORM = TEST_DATA / "closed_form.xml"


def test_deeply_nested_profile_json_is_forwarded(tmp_path):
    nested: object = 1
    for _ in range(900):  # below Python's json recursion limit (the decision process parses it too)
        nested = {"n": nested}
    profiles = {"d": {"type": "delay", "delay": 5, "notes": nested}}
    w = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], profiles)
    result = run_simulation(PLATFORM, w, str(TEST_DATA / "scriptedSched.py"), tmp_path / "out", decision_timeout=30)
    rows = read_jobs_csv(result.jobs_csv)
    assert rows["0"]["final_state"] == "COMPLETED_SUCCESSFULLY"
    assert float(rows["0"]["execution_time"]) == 5.0
