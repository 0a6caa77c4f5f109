"""Hostile SWF traces and `from-swf` options: each is refused with one line naming the
file (and line, job or option) and the problem, and no workload is written."""

from __future__ import annotations

import json

import pytest

from datasched.workloads.swf_convert import ConversionOptions
from tests.unit.hostile.conftest import assert_absent

HEADER = "; MaxProcs: 16\n"


def job(number=1, submit=0, run=100, procs=4, req_time=200, req_procs=None, status=1):
    """One 18-field SWF line."""
    req_procs = procs if req_procs is None else req_procs
    fields = [number, submit, 10, run, procs, run, -1, req_procs, req_time, -1, status, 1, 1, -1, -1, 1, -1, -1]
    return " ".join(str(f) for f in fields) + "\n"


GOOD = HEADER + job(1) + job(2, submit=5)

# (case id, file text, extra options, fragments the error line must contain)
CASES = [
    ("empty-file", "", [], ["no job to convert", "the file is empty"]),
    ("blank-lines-only", "\n\n   \n", [], ["no job to convert", "empty"]),
    ("header-only", HEADER + "; Computer: x\n", [], ["no job to convert", "header/comment lines only"]),
    (
        "17-fields",
        HEADER + "1 0 10 100 4 100 -1 4 200 -1 1 1 1 -1 -1 1 -1\n",
        [],
        [":2:", "expected 18 fields, found 17"],
    ),
    ("19-fields", HEADER + job().strip() + " 7\n", [], [":2:", "found 19"]),
    ("21-fields-extended", HEADER + job().strip() + " n1 q1 r1\n", [], [":2:", "found 21", "--extra-fields ignore"]),
    (
        "17-fields-extra-ignored",
        HEADER + " ".join(job().split()[:17]) + "\n",
        ["--extra-fields", "ignore"],
        [":2:", "expected 18 fields, found 17"],
    ),
    (
        "extended-but-bad-standard-field",
        HEADER + job(run="x").strip() + " n1 q1 1024\n",
        ["--extra-fields", "ignore"],
        [":2:", "field 4 (run_time)"],
    ),
    ("extra-fields-bogus", GOOD, ["--extra-fields", "drop"], ["--extra-fields", "invalid choice"]),
    ("trailing-comment", HEADER + job().strip() + " ; note\n", [], [":2:", "found 20"]),
    ("job-number-text", HEADER + job().replace("1 0 10", "abc 0 10", 1), [], [":2:", "field 1 (job_number)", "'abc'"]),
    ("run-time-text", HEADER + job(run="x"), [], [":2:", "field 4 (run_time)", "'x'"]),
    ("run-time-nan", HEADER + job(run="nan"), [], [":2:", "field 4", "'nan'"]),
    ("submit-inf", HEADER + job(submit="inf"), [], [":2:", "field 2 (submit_time)", "'inf'"]),
    ("requested-time-overflow", HEADER + job(req_time="1e400"), [], [":2:", "field 9 (requested_time)", "1e400"]),
    ("negative-job-number", HEADER + job(number=-3), [], [":2:", "job number must be a non-negative integer"]),
    ("float-job-number", HEADER + job(number=1.5), [], [":2:", "job number must be a non-negative integer"]),
    ("negative-run-time", HEADER + job(run=-5), [], [":2:", "field 4 (run_time) is negative (-5)"]),
    ("negative-processors", HEADER + job(procs=-3), [], [":2:", "field 5 (allocated_processors) is negative"]),
    ("negative-requested-time", HEADER + job(req_time=-2), [], [":2:", "field 9 (requested_time) is negative"]),
    ("negative-requested-procs", HEADER + job(req_procs=-7), [], [":2:", "field 8 (requested_processors)"]),
    ("duplicate-job-number", HEADER + job(4) + job(4, submit=9), [], [":3:", "duplicate job number 4", "line 2"]),
    ("garbage-bytes", HEADER + "\x00\xff\xfe garbage \x01\n", [], [":2:", "expected 18 fields"]),
    ("html-page", "<html><body>404</body></html>\n", [], [":1:", "expected 18 fields"]),
    ("json-instead", '{"jobs": []}\n', [], [":1:", "expected 18 fields"]),
    (
        "all-malformed-skipped",
        HEADER + "1 2 3\n" + "x y z\n",
        ["--on-malformed", "skip"],
        ["no job to convert", "all 2 job line(s) are malformed", "line 2"],
    ),
    ("unknown-run-time-kept", HEADER + job(run=-1), ["--no-drop-zero-runtime"], [":2:", "job 1", "unknown run time"]),
    ("zero-size-kept", HEADER + job(procs=0, req_procs=0), ["--no-drop-zero-size"], [":2:", "job 1", "processor"]),
    (
        "all-zero-size",
        HEADER + job(1, procs=0, req_procs=0) + job(2, procs=-1, req_procs=-1),
        [],
        ["no job left after cleaning", "zero_size=2"],
    ),
    ("all-zero-runtime", HEADER + job(1, run=0) + job(2, run=-1), [], ["no job left", "zero_runtime=2"]),
    ("all-too-wide", HEADER + job(1, procs=64) + job(2, procs=17), [], ["no job left", "wider_than_platform=2"]),
    (
        "all-failed",
        HEADER + job(1, status=0) + job(2, status=5),
        ["--drop-failed-cancelled"],
        ["no job left", "failed_cancelled=2"],
    ),
    ("window-excludes-all", GOOD, ["--start-time", "1000"], ["no job left", "outside_time_window=2"]),
    ("window-end-before-all", GOOD, ["--end-time", "0"], ["no job left", "outside_time_window=2"]),
    ("no-maxprocs-header", job(1), [], ["header has no positive MaxProcs/MaxNodes", "--platform-nodes"]),
    ("maxprocs-text", "; MaxProcs: many\n" + job(1), [], ["MaxProcs", "--platform-nodes"]),
    ("maxprocs-zero", "; MaxProcs: 0\n" + job(1), [], ["MaxProcs"]),
    (
        "negative-submit-unshifted",
        HEADER + job(1, submit=-5) + job(2, submit=3),
        ["--no-shift-to-zero"],
        [":2:", "job 1", "submit time -5 is negative", "--start-time 0"],
    ),
    (
        "negative-submit-shifted",
        HEADER + job(1, submit=3) + job(2, submit=-500),
        [],
        [":3:", "job 2", "submit time -500 is negative"],
    ),
    ("unknown-submit-shifted", HEADER + job(7, submit=-1), [], [":2:", "job 7", "submit time -1 is negative"]),
    ("unknown-submit-unshifted", HEADER + job(7, submit=-1), ["--no-shift-to-zero"], [":2:", "job 7", "negative"]),
    (
        "submit-beyond-clock",
        HEADER + job(1, submit="1e400"),
        ["--no-shift-to-zero"],
        [":2:", "field 2 (submit_time) is not a number: '1e400'"],
    ),
    (
        "run-time-beyond-clock",
        HEADER + job(1, run="1e400", req_time="1e401"),
        [],
        [":2:", "field 4 (run_time) is not a number: '1e400'"],
    ),
    ("walltime-factor-nan", GOOD, ["--walltime-factor", "nan"], ["walltime_factor"]),
    ("walltime-factor-inf", GOOD, ["--walltime-factor", "inf"], ["walltime_factor"]),
    (
        "walltime-factor-below-one",
        GOOD,
        ["--walltime-factor", "0.5"],
        ["walltime_factor", "greater than or equal to 1"],
    ),
    ("walltime-margin-negative", GOOD, ["--walltime-margin=-3"], ["walltime_margin"]),
    ("walltime-fixed-missing", GOOD, ["--walltime-fallback", "fixed"], ["walltime_fixed"]),
    ("walltime-fixed-zero", GOOD, ["--walltime-fallback", "fixed", "--walltime-fixed", "0"], ["walltime_fixed"]),
    ("host-speed-missing", GOOD, ["--profile-type", "parallel_homogeneous"], ["host_speed"]),
    ("host-speed-nan", GOOD, ["--profile-type", "parallel_homogeneous", "--host-speed", "nan"], ["host_speed"]),
    ("host-speed-negative", GOOD, ["--profile-type", "parallel_homogeneous", "--host-speed=-1e9"], ["host_speed"]),
    ("cores-per-node-zero", GOOD, ["--cores-per-node", "0"], ["cores_per_node"]),
    ("cores-per-node-text", GOOD, ["--cores-per-node", "four"], ["--cores-per-node", "invalid int value"]),
    ("max-jobs-zero", GOOD, ["--max-jobs", "0"], ["max_jobs"]),
    ("platform-nodes-negative", GOOD, ["--platform-nodes=-4"], ["platform_nodes"]),
    ("start-after-end", GOOD, ["--start-time", "10", "--end-time", "5"], ["end_time must be greater than start_time"]),
    ("start-time-nan", GOOD, ["--start-time", "nan"], ["start_time"]),
    ("on-malformed-bogus", GOOD, ["--on-malformed", "ignore"], ["--on-malformed", "invalid choice"]),
    ("processors-field-bogus", GOOD, ["--processors-field", "both"], ["--processors-field", "invalid choice"]),
]


@pytest.mark.parametrize("text,options,fragments", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_swf(cli, tmp_path, text, options, fragments):
    swf = tmp_path / "trace.swf"
    swf.write_bytes(text.encode("utf-8", errors="surrogateescape"))
    out = tmp_path / "w.json"
    outcome = cli("workload", "from-swf", swf, "-o", out, *options)
    # The trace is named, except in option errors, which name the option instead.
    first = fragments[0]
    option_error = first in ConversionOptions.model_fields or first.startswith(("--", "end_time"))
    outcome.assert_one_line_error(*fragments, *([] if option_error else ["trace.swf"]))
    assert_absent(out)


def test_a_walltime_beyond_what_batsim_can_write_is_refused(cli, tmp_path):
    """Issue 32 item 3: Batsim 4.2.1 reads a walltime of 1e300 s but aborts writing it in
    JOB_SUBMITTED (printf("%6f") into 32 bytes: numbers above 1e23 do not fit)."""
    swf = tmp_path / "trace.swf"
    swf.write_text(HEADER + job(1, req_time="1e300"))
    outcome = cli("workload", "from-swf", swf, "-o", tmp_path / "w.json")
    assert outcome.status != 0
    assert ":2: job 1: walltime 1e+300 s is beyond the largest date Batsim 4.2.1 can write (1e+23 s)" in outcome.err


def test_far_submit_and_run_times_convert_as_batsim_accepts_them(cli, tmp_path):
    """Issue 32 item 3: Batsim 4.2.1 runs dates up to 1e17 s (its test_long_workload.json)
    and beyond; the converter refused submit or run times above 1e12 s before."""
    swf = tmp_path / "trace.swf"
    swf.write_text(HEADER + job(1, submit="1e17", run="5e13", req_time="1e14"))
    outcome = cli("workload", "from-swf", swf, "--no-shift-to-zero", "-o", tmp_path / "w.json")
    assert outcome.status == 0, outcome.err
    converted = json.loads((tmp_path / "w.json").read_text())["jobs"][0]
    assert converted["subtime"] == 1e17 and converted["walltime"] == 1e14


def test_the_good_trace_of_the_corpus_converts(cli, tmp_path):
    """The corpus's baseline is valid: each case fails for its own defect only."""
    swf = tmp_path / "trace.swf"
    swf.write_text(GOOD)
    outcome = cli("workload", "from-swf", swf, "-o", tmp_path / "w.json")
    assert outcome.status == 0, outcome.err
    assert (tmp_path / "w.json").is_file()


@pytest.mark.parametrize("kind", ["missing", "folder"])
def test_unreadable_trace(cli, tmp_path, kind):
    swf = tmp_path / "trace.swf"
    if kind == "folder":
        swf.mkdir()
    outcome = cli("workload", "from-swf", swf, "-o", tmp_path / "w.json")
    outcome.assert_one_line_error("trace.swf", "cannot read SWF file")
    assert_absent(tmp_path / "w.json")


@pytest.mark.parametrize("kind", ["output-is-a-folder", "parent-is-a-file", "parent-unwritable"])
def test_unwritable_output(cli, tmp_path, kind):
    swf = tmp_path / "trace.swf"
    swf.write_text(GOOD)
    if kind == "output-is-a-folder":
        out = tmp_path / "out.json"
        out.mkdir()
        fragment = "Is a directory"
    elif kind == "parent-is-a-file":
        (tmp_path / "afile").write_text("")
        out = tmp_path / "afile" / "w.json"
        fragment = "afile"
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        out = locked / "w.json"
        fragment = "Permission denied"
        import os

        if os.geteuid() == 0:
            pytest.skip("root ignores directory permissions")
    outcome = cli("workload", "from-swf", swf, "-o", out)
    outcome.assert_one_line_error(str(out.parent.name), fragment)


def test_extended_trace_with_extra_fields_ignored_is_converted_and_reported(cli, tmp_path):
    """The 21-field archives (18 standard fields + node list, queue name, resource spec):
    --extra-fields ignore converts them and says how many lines were cut."""
    import json

    swf = tmp_path / "trace.swf"
    swf.write_text(HEADER + job(1).strip() + " n1 q1 1024\n" + job(2, submit=5).strip() + " n2 q1 1024\n")
    out = tmp_path / "w.json"
    outcome = cli("workload", "from-swf", swf, "-o", out, "--extra-fields", "ignore")
    assert outcome.status == 0, outcome.err
    assert "2 line(s) had more than 18 fields" in outcome.err and "1024" in outcome.err
    document = json.loads(out.read_text())
    assert [j["id"] for j in document["jobs"]] == [1, 2]
    assert document["datasched_meta"]["report"]["extra_field_lines"] == 2


def test_extended_trace_placeholder_columns_are_reported(cli, tmp_path):
    """A column holding 1 or 1024 on every job of an extended trace is named in the
    summary and the metadata (values unchanged: one value cannot tell "unknown" from a
    real 1); a column with two values, or a value that is not a placeholder, is not."""
    import json

    lines = [
        # number submit wait run alloc cpu mem req_procs req_time req_mem status user group exe queue part prec think
        f"{n} {5 * n} 10 100 {1 + n % 2} 100 1024 1 200 1024 1 {n} 1 -1 7 1 -1 -1 n{n} q1 1024\n"
        for n in (1, 2, 3)
    ]
    swf = tmp_path / "trace.swf"
    swf.write_text(HEADER + "".join(lines))
    out = tmp_path / "w.json"
    outcome = cli("workload", "from-swf", swf, "-o", out, "--extra-fields", "ignore")
    assert outcome.status == 0, outcome.err
    warning = next(line for line in outcome.err.splitlines() if "placeholder suspects" in line)
    assert str(swf) in warning
    assert "used_memory=1024, requested_processors=1 (used by the conversion), requested_memory=1024" in warning
    assert "status=1 (used by the conversion), group_id=1, partition_number=1;" in warning
    for absent in ("allocated_processors", "user_id", "queue_number", "wait_time"):  # two values, or not 1/1024
        assert absent not in warning
    report = json.loads(out.read_text())["datasched_meta"]["report"]
    assert report["placeholder_suspects"]["used_memory"] == 1024
    standard = tmp_path / "std.swf"  # the same kind of columns in an 18-field trace: nothing suspected
    standard.write_text(HEADER + job(1) + job(2, submit=5))
    assert cli("workload", "from-swf", standard, "-o", tmp_path / "std.json").status == 0
    assert "placeholder_suspects" not in json.loads((tmp_path / "std.json").read_text())["datasched_meta"]["report"]
