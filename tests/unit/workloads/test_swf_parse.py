"""SWF parsing: named columns, headers, malformed lines, write/parse round trip."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

from datasched.errors import UserError
from datasched.workloads.swf import (
    N_FIELDS,
    SwfField,
    SwfJob,
    SwfTrace,
    parse_swf_lines,
    read_swf,
    write_swf,
)
from tests.conftest import HPC2N, LUBLIN
from tests.strategies import swf_header_values, swf_records

GOOD = "1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 1 -1 -1"


def plain_job_lines(path: Path) -> list[list[str]]:
    """Independent reading: non-comment, non-blank lines split on whitespace."""
    rows = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith(";"):
            rows.append(line.split())
    return rows


def test_the_enum_names_the_18_standard_columns_in_order():
    assert N_FIELDS == 18
    assert [f.value for f in SwfField] == list(range(1, 19))
    assert SwfField.REQUESTED_TIME.value == 9 and SwfField.REQUESTED_TIME.index == 8
    assert SwfField.THINK_TIME.value == 18


@pytest.mark.parametrize("path", [HPC2N, LUBLIN], ids=["hpc2n", "lublin"])
def test_shared_traces_parse_completely(path):
    trace = read_swf(path)
    rows = plain_job_lines(path)
    assert len(trace.jobs) == len(rows)
    assert trace.issues == []
    first, last = trace.jobs[0], trace.jobs[-1]
    assert first.job_number == int(rows[0][0]) and last.job_number == int(rows[-1][0])
    assert first[SwfField.RUN_TIME] == int(rows[0][3])
    assert first.line > 1  # line numbers count the header


def test_headers_are_kept_as_metadata():
    hpc2n = read_swf(HPC2N)
    assert hpc2n.header_int("MaxNodes") == 240
    assert hpc2n.header_int("MaxProcs") == 240
    assert hpc2n.header["Computer"] == "Linux cluster (Seth)"
    lublin = read_swf(LUBLIN)
    assert lublin.header_int("MaxNodes") == 256
    assert lublin.header_int("MaxProcs") is None
    assert lublin.header_int("MaxRuntime") == 162754


def test_float_fields_are_kept_exactly():
    trace = read_swf(HPC2N)
    job12 = next(j for j in trace.jobs if j.job_number == 12)
    assert job12[SwfField.AVERAGE_CPU_TIME] == pytest.approx(552.21)
    assert isinstance(job12[SwfField.RUN_TIME], int)


@pytest.mark.parametrize(
    "bad_line, message",
    [
        ("1 2 3", "expected 18 fields, found 3"),
        (GOOD + " 7", "expected 18 fields, found 19"),
        (GOOD.replace(" 100 ", " abc ", 1), "field 4 (run_time) is not a number"),
        (GOOD.replace(" 4 -1 -1 4 ", " -3 -1 -1 4 ", 1), "field 5 (allocated_processors) is negative"),
        (GOOD.replace("-1 -1 4 200", "-1 -1 -8 200", 1), "field 8 (requested_processors) is negative"),
        ("x" + GOOD[1:], "field 1 (job_number) is not a number"),
    ],
)
def test_malformed_lines_are_rejected_with_file_and_line(bad_line, message):
    lines = ["; MaxNodes: 8", GOOD, bad_line, GOOD.replace("1", "2", 1)]
    with pytest.raises(UserError) as info:
        parse_swf_lines(lines, path="trace.swf", on_error="reject")
    assert str(info.value).startswith("trace.swf:3: ")
    assert message in str(info.value)


def test_malformed_lines_can_be_skipped_and_are_counted():
    lines = [GOOD, "1 2 3", GOOD.replace("1", "2", 1), "2 nope", GOOD.replace("1", "3", 1)]
    trace = parse_swf_lines(lines, path="t.swf", on_error="skip")
    assert [j.job_number for j in trace.jobs] == [1, 2, 3]
    assert [(i.line, i.path) for i in trace.issues] == [(2, "t.swf"), (4, "t.swf")]
    assert "expected 18 fields" in trace.issues[0].message
    assert str(trace.issues[1]).startswith("t.swf:4: ")


def test_duplicate_job_numbers_are_malformed():
    with pytest.raises(UserError, match=r"t.swf:2: duplicate job number 1 \(first on line 1\)"):
        parse_swf_lines([GOOD, GOOD], path="t.swf")


def test_unknown_on_error_mode_is_refused():
    with pytest.raises(UserError, match="on_error"):
        parse_swf_lines([GOOD], on_error="ignore")  # type: ignore[arg-type]


def test_missing_file_names_the_file(tmp_path):
    with pytest.raises(UserError, match=r"nothere\.swf"):
        read_swf(tmp_path / "nothere.swf")


def test_real_file_line_numbers_point_at_the_bad_line(tmp_path):
    text = HPC2N.read_text().splitlines()
    # corrupt the 5th job line: drop its last field
    job_positions = [i for i, line in enumerate(text) if line.strip() and not line.startswith(";")]
    target = job_positions[4]
    text[target] = " ".join(text[target].split()[:-1])
    bad = tmp_path / "bad.swf"
    bad.write_text("\n".join(text) + "\n")
    with pytest.raises(UserError, match=rf"bad.swf:{target + 1}: expected 18 fields, found 17"):
        read_swf(bad)
    skipped = read_swf(bad, on_error="skip")
    assert len(skipped.issues) == 1 and skipped.issues[0].line == target + 1
    assert len(skipped.jobs) == len(plain_job_lines(HPC2N)) - 1


@settings(deadline=None, max_examples=60)
@given(records=swf_records(), computer=swf_header_values)
def test_write_then_parse_gives_the_same_jobs(tmp_path_factory, records, computer):
    trace = SwfTrace(
        jobs=[SwfJob(values=r) for r in records],
        header={"Computer": computer, "MaxNodes": "16"},
        comments=[";", "; free comment"],
    )
    path = tmp_path_factory.mktemp("swf") / "round.swf"
    write_swf(trace, path)
    back = read_swf(path)
    assert [j.values for j in back.jobs] == [j.values for j in trace.jobs]
    assert [type(v) for j in back.jobs for v in j.values] == [type(v) for j in trace.jobs for v in j.values]
    assert back.header == trace.header
    assert back.comments == trace.comments
    assert back.issues == []
