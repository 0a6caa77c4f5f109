"""Hostile workload JSON files given to the engine: each stops it before the simulation
with one line naming the file (and line, job or profile) and the problem, and leaves no
output (not even a stale one)."""

from __future__ import annotations

import json
import subprocess

import pytest

from datasched.engine import find_engine
from tests.integration.hostile.engine_helpers import ONE_JOB, PLATFORM, EngineOutcome, run_engine

pytestmark = pytest.mark.engine

DELAY = {"p": {"type": "delay", "delay": 1}}


def doc(jobs=None, profiles=None, **top):
    body = {"jobs": jobs if jobs is not None else [job()], "profiles": profiles if profiles is not None else DELAY}
    return json.dumps(body | top)


def job(**fields):
    return {"id": 1, "subtime": 0, "res": 1, "profile": "p"} | fields


def without(key):
    j = job()
    del j[key]
    return doc([j])


def profile(p):
    return doc(profiles={"p": p})


# (case id, file text, fragments of the error line besides the file name)
CASES = [
    ("empty-file", "", ["malformed JSON", "line 1"]),
    ("truncated", '{"jobs": [\n  {"id": 1,\n', ["malformed JSON", "line 3"]),
    ("trailing-comma", '{"jobs": [],\n "profiles": {},\n}', ["malformed JSON", "line 3"]),
    ("nan-literal", '{"jobs": [{"id": 1, "subtime": NaN}], "profiles": {}}', ["malformed JSON", "line 1"]),
    ("single-quotes", "{'jobs': []}", ["malformed JSON"]),
    ("invalid-utf8", b'{"jobs": [], "profiles": {"\xff\xfe": {}}}', ["malformed JSON"]),
    ("top-level-array", "[]", ["top level must be a JSON object"]),
    ("top-level-number", "42", ["top level must be a JSON object"]),
    ("no-profiles", '{"jobs": []}', ["missing object 'profiles'"]),
    ("profiles-array", '{"jobs": [], "profiles": []}', ["missing object 'profiles'"]),
    ("no-jobs", '{"profiles": {}}', ["missing array 'jobs'"]),
    ("jobs-object", '{"jobs": {}, "profiles": {}}', ["missing array 'jobs'"]),
    ("job-number", doc([5]), ["every job must be a JSON object"]),
    ("job-no-id", without("id"), ["a job has no 'id' field"]),
    ("job-id-float", doc([job(id=1.5)]), ["job id 1.5 must be a string or an integer"]),
    ("job-id-null", doc([job(id=None)]), ["job id null"]),
    ("job-id-other-workload", doc([job(id="w9!1")]), ["job 'w9!1' does not belong to workload 'w0'"]),
    ("duplicate-job-id", doc([job(), job()]), ["job 'w0!1'", "duplicate job id"]),
    ("subtime-missing", without("subtime"), ["job 'w0!1'", "missing field 'subtime'"]),
    ("subtime-string", doc([job(subtime="0")]), ["job 'w0!1'", "'subtime' must be a number"]),
    ("subtime-negative", doc([job(subtime=-1)]), ["job 'w0!1'", "'subtime' must be >= 0"]),
    (
        "subtime-overflow",
        '{"jobs": [{"id": 1, "subtime": 1e400, "res": 1, "profile": "p"}], "profiles": {}}',
        ["line 1", "number overflow parsing '1e400'"],
    ),
    ("subtime-huge", doc([job(subtime=1e308)]), ["job 'w0!1'", "'subtime' must be >= 0 and <= 1e23"]),
    ("subtime-bool", doc([job(subtime=True)]), ["job 'w0!1'", "'subtime' must be a number"]),
    ("walltime-zero", doc([job(walltime=0)]), ["job 'w0!1'", "'walltime' must be > 0"]),
    ("walltime-negative", doc([job(walltime=-5)]), ["job 'w0!1'", "'walltime' must be > 0"]),
    ("walltime-string", doc([job(walltime="1h")]), ["job 'w0!1'", "'walltime' must be a number"]),
    ("res-zero", doc([job(res=0)]), ["job 'w0!1'", "'res' must be a positive integer"]),
    ("res-negative", doc([job(res=-2)]), ["job 'w0!1'", "'res' must be a positive integer"]),
    ("res-float", doc([job(res=2.5)]), ["job 'w0!1'", "'res' must be a positive integer"]),
    ("res-string", doc([job(res="2")]), ["job 'w0!1'", "'res' must be a positive integer"]),
    ("res-beyond-int", doc([job(res=3_000_000_000)]), ["job 'w0!1'", "'res' must be a positive integer (at most"]),
    ("res-beyond-int64", doc([job(res=10**20)]), ["job 'w0!1'", "'res' must be a positive integer"]),
    ("res-missing", without("res"), ["job 'w0!1'", "'res'"]),
    ("profile-missing", without("profile"), ["job 'w0!1'", "field 'profile'"]),
    # a NUL in a quoted name is written as \x00 and does not end the message (InputError
    # stores one_line(message); what() stopped at the NUL before)
    ("nul-in-profile-name", doc([job(profile="a\u0000b-tail")]), ["unknown profile 'a\\x00b-tail'"]),
    ("nul-in-profile-type", profile({"type": "dela\u0000y-tail", "delay": 1}), ["type 'dela\\x00y-tail'"]),
    ("profile-number", doc([job(profile=3)]), ["job 'w0!1'", "field 'profile'"]),
    ("profile-unknown", doc([job(profile="q")]), ["job 'w0!1'", "unknown profile 'q'"]),
    ("profile-not-object", profile(5), ["profile 'p'", "must be a JSON object"]),
    ("profile-no-type", profile({"delay": 1}), ["profile 'p'", "missing field 'type'"]),
    ("profile-type-number", profile({"type": 1}), ["profile 'p'", "field 'type' must be a string"]),
    ("profile-unknown-type", profile({"type": "teleport"}), ["profile 'p'", "unknown profile type 'teleport'"]),
    ("profile-smpi", profile({"type": "smpi", "trace": "t"}), ["profile 'p'", "not supported"]),
    ("delay-missing", profile({"type": "delay"}), ["profile 'p'", "missing field 'delay'"]),
    ("delay-negative", profile({"type": "delay", "delay": -1}), ["profile 'p'", "'delay' must be a number >= 0"]),
    ("delay-string", profile({"type": "delay", "delay": "5"}), ["profile 'p'", "'delay' must be a number"]),
    (
        "delay-overflow",
        '{"jobs": [],\n"profiles": {"p": {"type": "delay", "delay": -1e400}}}',
        ["line 2", "number overflow"],
    ),
    (
        "parallel-cpu-empty",
        profile({"type": "parallel", "cpu": [], "com": []}),
        ["profile 'p'", "'cpu' must not be empty"],
    ),
    ("parallel-com-size", profile({"type": "parallel", "cpu": [1, 1], "com": [0]}), ["profile 'p'", "expected 4"]),
    (
        "parallel-cpu-negative",
        profile({"type": "parallel", "cpu": [-1], "com": [0]}),
        ["profile 'p'", "'cpu[0]' must be"],
    ),
    ("parallel-cpu-not-array", profile({"type": "parallel", "cpu": 5, "com": []}), ["profile 'p'", "array of numbers"]),
    ("homogeneous-no-cpu", profile({"type": "parallel_homogeneous", "com": 0}), ["profile 'p'", "missing field 'cpu'"]),
    (
        "homogeneous-com-negative",
        profile({"type": "parallel_homogeneous", "cpu": 1, "com": -1}),
        ["profile 'p'", "'com'"],
    ),
    ("composed-empty", profile({"type": "composed", "seq": []}), ["profile 'p'", "'seq' must be a non-empty array"]),
    ("composed-unknown", profile({"type": "composed", "seq": ["zz"]}), ["profile 'p'", "unknown profile 'zz'"]),
    ("composed-cycle", profile({"type": "composed", "seq": ["p"]}), ["profile 'p'", "cycle"]),
    ("composed-repeat-zero", profile({"type": "composed", "seq": ["p"], "repeat": 0}), ["profile 'p'", "'repeat'"]),
    (
        "composed-repeat-huge",
        profile({"type": "composed", "seq": ["p"], "repeat": 10**12}),
        ["profile 'p'", "'repeat'"],
    ),
    ("ret-float", profile({"type": "delay", "delay": 1, "ret": 0.5}), ["profile 'p'", "'ret' must be an integer"]),
    ("ret-huge", profile({"type": "delay", "delay": 1, "ret": 2**40}), ["profile 'p'", "'ret' must be an integer"]),
    (
        "pfs-negative-bytes",
        profile({"type": "parallel_homogeneous_pfs", "bytes_to_read": -1}),
        ["profile 'p'", "bytes_to_read"],
    ),
    (
        "staging-no-from",
        profile({"type": "data_staging", "nb_bytes": 1, "to": "a"}),
        ["profile 'p'", "missing field 'from'"],
    ),
]


@pytest.mark.parametrize("text,fragments", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_workload(tmp_path, text, fragments):
    workload = tmp_path / "hostile.json"
    workload.write_bytes(text if isinstance(text, bytes) else text.encode())
    outcome = run_engine(tmp_path, PLATFORM, workload)
    outcome.assert_error("hostile.json", *fragments)


def test_deeply_nested_json_is_an_error_not_a_crash(tmp_path):
    workload = tmp_path / "hostile.json"
    workload.write_text('{"jobs": ' + "[" * 100_000 + "]" * 100_000 + ', "profiles": {}}')
    outcome = run_engine(tmp_path, PLATFORM, workload, timeout=60)
    outcome.assert_error("hostile.json", "line 1", "nested deeper than 1000 levels")


def test_missing_workload_file(tmp_path):
    """Refused by the command-line parser, which names the option and the file."""
    outcome = run_engine(tmp_path, PLATFORM, tmp_path / "absent.json", stale=False)
    assert outcome.status != 0 and "absent.json" in outcome.err and "does not exist" in outcome.err


@pytest.mark.parametrize(
    ("prefix_of", "problem"),
    [
        (lambda d: d / "absent" / "out", "the folder '{d}/absent' does not exist"),
        (lambda d: d / "a-file" / "out", "'{d}/a-file' is not a folder"),
    ],
    ids=["missing-folder", "file-as-folder"],
)
def test_an_unusable_output_folder_is_refused_before_the_simulation(tmp_path, prefix_of, problem):
    """A bad -e is refused when the command line is read (exit 2, the option named), not
    after a whole simulation when the first output file is written."""
    (tmp_path / "a-file").write_text("")
    workload = tmp_path / "one.json"
    workload.write_text(ONE_JOB)
    prefix = prefix_of(tmp_path)
    r = subprocess.run(
        [str(find_engine()), "-p", str(PLATFORM), "-w", str(workload), "-e", str(prefix)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    outcome = EngineOutcome(r.returncode, r.stderr)
    outcome.assert_error(f"option -e '{prefix}'", problem.format(d=tmp_path))
    assert r.returncode == 2
