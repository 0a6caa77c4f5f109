"""The conformance comparers (datasched/conformance.py), on small hand-written files."""

from __future__ import annotations

from datasched import conformance
from tests.conftest import CONFORMANCE


def write(path, text):
    path.write_text(text)
    return path


def test_rows_equal_within_one_unit_of_the_sixth_decimal(tmp_path):
    """|delta| <= 1e-6 x max(1, |Batsim's|): 0.000001 apart passes, 0.000003 does not;
    at 1e6, 1 apart passes (relative)."""
    e = write(tmp_path / "e.csv", "a,b,c\n1.000000,1000000.0,x\n")
    assert conformance.compare_rows(e, write(tmp_path / "a.csv", "a,b,c\n1.000001,1000001.0,x\n")) == []
    diffs = conformance.compare_rows(e, write(tmp_path / "b.csv", "a,b,c\n1.000003,1000000.0,y\n"))
    assert diffs == ["row 1: a 1.000003 != Batsim's 1.000000", "row 1: c y != Batsim's x"]


def test_rows_report_columns_row_counts_and_skip_columns(tmp_path):
    e = write(tmp_path / "e.csv", "time,n\n1,2\n3,4\n")
    assert conformance.compare_rows(e, write(tmp_path / "a.csv", "time,m\n1,2\n3,4\n"))[0].startswith("columns")
    assert conformance.compare_rows(e, write(tmp_path / "b.csv", "time,n\n1,2\n")) == ["1 rows != Batsim's 2"]
    assert conformance.compare_rows(e, write(tmp_path / "c.csv", "time,n\n9,2\n9,4\n"), skip=("time",)) == []


def test_schedule_skips_only_wall_clock_columns_and_version():
    assert set(conformance.SCHEDULE_NOT_COMPARABLE) == {"batsim_version", "scheduling_time", "simulation_time"}


def test_every_reference_file_of_every_case_has_a_comparer():
    """A new kind of Batsim output in a case must get a comparer, not be ignored."""
    known = {kind.reference for kind in conformance.OUTPUT_KINDS}
    for case in conformance.case_dirs(CONFORMANCE):
        for path in case.glob("expected_*"):
            assert path.name in known, f"{case.name}/{path.name} has no comparer in OUTPUT_KINDS"


def test_compare_outputs_names_each_file(tmp_path):
    """Each reference the case holds is reported: identical, different, or missing."""
    case = CONFORMANCE / "tuto1_easy"
    (tmp_path / "out_jobs.csv").write_bytes((case / "expected_jobs.csv").read_bytes())
    schedule = (case / "expected_schedule.csv").read_text().replace(",0.008152,", ",7.0,")  # time_idle
    (tmp_path / "out_schedule.csv").write_text(schedule)
    result = conformance.compare_outputs(case, tmp_path)
    assert result.files == {"jobs": "identical", "schedule": "different", "machine_states": "missing"}
    assert not result.identical and result.nb_jobs == 3
    assert "schedule: row 1: time_idle 7.0 != Batsim's 0.008152" in result.differences


def test_epower_is_compared_on_every_row(tmp_path):
    """Our dates are Batsim's to the floating-point step, so epower is compared on every
    row, also between rows of one written date, and "NA" (no time passed since the previous
    row) only equals "NA"."""
    e = write(
        tmp_path / "e.csv", "time,energy,event_type,wattmin,epower\n0,0,s,1,NA\n1.000000,5,e,1,5\n1.000000,5,s,1,7\n"
    )
    a = write(
        tmp_path / "a.csv", "time,energy,event_type,wattmin,epower\n0,0,s,1,NA\n1.000000,5,e,1,6\n1.000000,5,s,1,NA\n"
    )
    kind = next(k for k in conformance.OUTPUT_KINDS if k.name == "consumed_energy")
    assert kind.compare(e, a) == ["row 2: epower 6 != Batsim's 5", "row 3: epower NA != Batsim's 7"]
