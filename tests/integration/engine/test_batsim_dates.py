"""Issue 32 item 3: the engine accepts every date Batsim 4.2.1 accepts and computes what
it computes there. Batsim reads any finite number and runs SimGrid's double clock to it
(its own test_long_workload.json goes to 1e17 s), but writes every number of its protocol
with printf("%6f") into 32 bytes and aborts when the text needs 31 characters: above 1e23
(the double 99999999999999991611392, 30 characters). Checked on the real build: a
walltime, submit time or delay of 1e23 runs; 2e23 (or a walltime of 1e308) aborts; so does
a job ending past 1e23. The engine refuses those with one line instead.

Platform tests/data/closed_form.xml: control messages cost ~1e-15 s. Beyond 2^53 s a
double's step (ulp) is 2 s or more, so those costs vanish in every sum: a job submitted
alone at S starts at S, and a delay d ends at fl(S + d), the double nearest S + d
(SimGrid's clock is a double, as Batsim's). At S = 1e17 the step is 16 s, so a delay of
20.2 s ends at S + 16 and its execution_time is 16; at S = 1e13 (step 2^-9 s) a delay of
1e13 ends at 2e13 exactly. A walltime of 1e23 never fires.
"""

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
            {"id": 1, "subtime": S, "res": 1, "profile": "short", "walltime": 1e23},
        ],
        {"long": {"type": "delay", "delay": 1e13}, "short": {"type": "delay", "delay": 20.2}},
    )
    assert rows["0"]["final_state"] == "COMPLETED_SUCCESSFULLY"
    assert float(rows["0"]["starting_time"]) == pytest.approx(1e13, abs=1e-6)
    assert float(rows["0"]["finish_time"]) == pytest.approx(2e13, abs=1e-6)
    assert rows["1"]["final_state"] == "COMPLETED_SUCCESSFULLY"  # a walltime of 1e23 does not fire
    assert float(rows["1"]["starting_time"]) == S
    assert float(rows["1"]["execution_time"]) == 16.0
    assert float(rows["1"]["finish_time"]) == S + 16
    assert rows["1"]["requested_time"] == "99999999999999991611392.000000"  # Batsim's "%f" of 1e23


def test_a_job_ending_past_1e23_is_one_error_line_naming_it(tmp_path):
    """Submitted at 1e23 with a delay of 1e10: it ends at fl(1e23 + 1e10) > 1e23, a
    timestamp real Batsim aborts writing in JOB_COMPLETED."""
    from datasched.runner import SimulationError

    with pytest.raises(SimulationError) as error:
        run(tmp_path, [{"id": 1, "subtime": 1e23, "res": 1, "profile": "p"}], {"p": {"type": "delay", "delay": 1e10}})
    message = str(error.value)  # the engine's line alone, with its status and log
    assert "\n" not in message, message
    assert message.startswith("job 'w0!1'") and "beyond the largest date Batsim can write (1e23 s)" in message, message


@pytest.mark.parametrize(
    ("job", "delay", "fragments"),
    [
        ({"subtime": -1}, 1, ["'subtime' must be >= 0"]),
        ({"subtime": 2e23}, 1, ["'subtime' must be >= 0 and <= 1e23 s"]),
        ({"subtime": 0, "walltime": 2e23}, 1, ["'walltime' must be <= 1e23 s"]),
        ({"subtime": 0, "walltime": 1e308}, 1, ["'walltime' must be <= 1e23 s"]),
        ({"subtime": 0}, 2e23, ["profile 'p'", "'delay' must be a number >= 0 and <= 1e23 s"]),
    ],
    ids=["negative-subtime", "subtime-2e23", "walltime-2e23", "walltime-1e308", "delay-2e23"],
)
def test_what_batsim_refuses_is_refused_at_load(tmp_path, job, delay, fragments):
    """Batsim has no date before 0, and aborts on a number it cannot write (above 1e23)."""
    workload = write_workload(
        tmp_path, [{"id": 1, "res": 1, "profile": "p"} | job], {"p": {"type": "delay", "delay": delay}}
    )
    run_engine(tmp_path, TEST_DATA / "closed_form.xml", workload).assert_error(*fragments)


def test_workload_numbers_are_converted_as_batsims_rapidjson(tmp_path):
    """Batsim reads its workload with rapidjson's default flags: the 17 significant digits of
    100000000000007.25 are gathered into an integer (rounded to a double once, being above
    2^53) and then divided by 100 (rounded again), which gives 100000000000007.234375, one
    step (2^-6 s) below the nearest double; real Batsim's out_jobs.csv shows that value."""
    rows = run(
        tmp_path,
        [{"id": 0, "subtime": 100000000000007.25, "res": 1, "profile": "p"}],
        {"p": {"type": "delay", "delay": 1}},
    )
    assert rows["0"]["submission_time"] == "100000000000007.234375"
