"""Issue 32 item 3: the engine accepts every date Batsim 4.2.1 accepts and computes what
it computes there (Batsim runs its own test_long_workload.json to 1e17 s and takes any
finite walltime); it refuses only a negative submit time, a non-finite value, and a
clock that would overflow to infinity.

Platform tests/data/closed_form.xml: control messages cost ~1e-15 s. Beyond 2^53 s a
double's step (ulp) is 2 s or more, so those costs vanish in every sum: a job submitted
alone at S starts at S, and a delay d ends at fl(S + d), the double nearest S + d
(SimGrid's clock is a double, as Batsim's). At S = 1e17 the step is 16 s, so a delay of
20.2 s ends at S + 16 and its execution_time is 16; at S = 1e13 (step 2^-9 s) a delay of
1e13 ends at 2e13 exactly. A walltime of 1e308 never fires.
"""

import sys

import pytest

from tests.conftest import TEST_DATA, read_jobs_csv, write_workload
from tests.integration.hostile.engine_helpers import run_engine

pytestmark = pytest.mark.engine


def run(tmp_path, jobs, profiles):
    from datasched.runner import run_simulation

    workload = write_workload(tmp_path, jobs, profiles)
    result = run_simulation(
        TEST_DATA / "closed_form.xml", workload, "easyBackfill", tmp_path / "out", decision_timeout=30
    )
    return read_jobs_csv(result.jobs_csv)


def test_dates_beyond_1e12_run_with_double_arithmetic(tmp_path):
    S = 1e17
    assert S + 20.2 == S + 16  # the closed form the test relies on: one step is 16 s
    rows = run(
        tmp_path,
        [
            {"id": 0, "subtime": 1e13, "res": 1, "profile": "long"},
            {"id": 1, "subtime": S, "res": 1, "profile": "short", "walltime": 1e308},
        ],
        {"long": {"type": "delay", "delay": 1e13}, "short": {"type": "delay", "delay": 20.2}},
    )
    assert rows["0"]["final_state"] == "COMPLETED_SUCCESSFULLY"
    assert float(rows["0"]["starting_time"]) == pytest.approx(1e13, abs=1e-6)
    assert float(rows["0"]["finish_time"]) == pytest.approx(2e13, abs=1e-6)
    assert rows["1"]["final_state"] == "COMPLETED_SUCCESSFULLY"  # a walltime of 1e308 does not fire
    assert float(rows["1"]["starting_time"]) == S
    assert float(rows["1"]["execution_time"]) == 16.0
    assert float(rows["1"]["finish_time"]) == S + 16
    assert rows["1"]["requested_time"] == f"{1e308:f}"  # Batsim writes "%f" of the walltime


def test_a_clock_overflowing_to_infinity_is_one_error_line(tmp_path):
    """fl(1.5e308 + 1e308) = inf: no double represents that end date (nor can the protocol
    send it), so the run stops naming the job instead of writing an infinite date."""
    from datasched.runner import SimulationError

    big = sys.float_info.max * 0.9
    with pytest.raises(SimulationError) as error:
        run(tmp_path, [{"id": 1, "subtime": big, "res": 1, "profile": "p"}], {"p": {"type": "delay", "delay": big}})
    lines = [line for line in str(error.value).splitlines() if "datasched-sim: error:" in line]
    assert len(lines) == 1, error.value
    assert "job 'w0!1'" in lines[0] and "beyond the largest representable date" in lines[0], lines[0]


def test_negative_submit_time_is_still_refused(tmp_path):
    """Batsim has no use for a date before 0 (its submitter would send the job at 0)."""
    workload = write_workload(
        tmp_path, [{"id": 1, "subtime": -1, "res": 1, "profile": "p"}], {"p": {"type": "delay", "delay": 1}}
    )
    run_engine(tmp_path, TEST_DATA / "closed_form.xml", workload).assert_error("job 'w0!1'", "'subtime' must be >= 0")
