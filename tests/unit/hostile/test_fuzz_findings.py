"""Inputs the fuzzers found (issue 20, bench/fuzz and tests/fuzz): each crashed a reader
with a Python exception other than our one-line UserError. Now each is refused with one
line naming the file (line and column, job or key) and the problem; nothing is written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from datasched.platforms.validate import check_bytes

TEST_CONFIG = (Path(__file__).resolve().parents[3] / "config" / "test.yaml").read_bytes()
NOT_UTF8 = b"name: \xc9t\xe9\n"  # Latin-1, as an editor on another system may save it
WORKFLOW = ["workload", "from-workflow", "{tmp}/in.yaml", "-o", "{tmp}/w.json"]
PARAMS = ["platform", "generate", "--params", "{tmp}/in.yaml", "--out", "{tmp}/p.xml"]
CONFIG = ["reproduce", "--configfile", "{tmp}/in.yaml"]
MARKOV = ["workload", "markov", "--seed", "1", "--params", "{tmp}/in.yaml", "-o", "{tmp}/m.json"]
CPSAT = ["cpsat-plan", "--workload", "{tmp}/in.yaml", "--hosts", "4", "--output", "{tmp}/plan.json"]


def job(**fields):
    return {"id": 1, "subtime": 0, "res": 1, "profile": "p"} | fields


def workload(jobs=None, profiles=None) -> str:
    import json

    return json.dumps(
        {
            "jobs": [job()] if jobs is None else jobs,
            "profiles": {"p": {"type": "delay", "delay": 1}} if profiles is None else profiles,
        }
    )


# (case id, argv, input file content, fragments of the error line besides the file name)
CASES = [
    # UnicodeDecodeError tracebacks: every text reader now goes through errors.read_utf8
    ("workflow-not-utf8", WORKFLOW, NOT_UTF8, ["in.yaml:1:7", "not UTF-8 text (byte 0xc9)"]),
    ("platform-params-not-utf8", PARAMS, NOT_UTF8, ["in.yaml:1:7", "not UTF-8 text"]),
    ("sweep-config-not-utf8", CONFIG, b"variant: quick\n" + NOT_UTF8, ["in.yaml:2:7", "not UTF-8 text"]),
    ("markov-params-not-utf8", MARKOV, NOT_UTF8, ["in.yaml:1:7", "not UTF-8 text"]),
    ("cpsat-workload-not-utf8", CPSAT, b'{"jobs": [], "profiles": {"\xff": {}}}', ["in.yaml:1:28", "not UTF-8"]),
    # a PyYAML reader error (no line mark) printed its two-line message
    ("workflow-nul-character", WORKFLOW, b"\x00", ["in.yaml", "not valid YAML/JSON", "unacceptable character #x0000"]),
    ("sweep-config-nul-character", CONFIG, b"variant: \x00", ["in.yaml", "not valid YAML", "#x0000"]),
    # a numeric YAML key broke the wording of "unknown key" (TypeError in str.join)
    ("sweep-config-numeric-key", CONFIG, b"? 3\n", ["in.yaml", "invalid configuration", "3: unknown key"]),
    # a YAML key that is not a string reached Model(**data): TypeError "keywords must be strings"
    (
        "workflow-numeric-key",
        WORKFLOW,
        b"7777777777777:\n",
        ["invalid workflow", "7777777777777: Keys should be strings"],
    ),
    ("markov-numeric-key", MARKOV, b"kind: single\n3: 4\n", ["invalid markov parameter(s): 3: Keys should be"]),
    # a number as a conversion option key reached make_options(**conversion): TypeError
    (
        "sweep-config-conversion-numeric-key",
        CONFIG,
        TEST_CONFIG.replace(b"conversion: {max_jobs: 40}", b"conversion: { 40}"),
        ["traces.hpc2n.conversion", "40: Keys should be strings"],
    ),
    # a key or value with a line break, quoted in the message, split the error over lines:
    # every UserError now escapes control characters
    (
        "workflow-key-with-newline",
        WORKFLOW,
        b'{"name": "x", "system_nodes": 2, "steps": [], "bad\\nkey": 1}',
        ["invalid workflow", "bad\\nkey: Extra inputs are not permitted"],
    ),
    ("sweep-config-key-with-newline", CONFIG, b'"a\\nb": 1\n', ["in.yaml", "a\\nb: unknown key"]),
    # the CP-SAT baseline's workload reader assumed the document's structure
    ("cpsat-top-level-array", CPSAT, b"[]", ["the top level must be a JSON object"]),
    ("cpsat-jobs-object", CPSAT, b'{"jobs": {}, "profiles": {}}', ["missing array 'jobs'"]),
    ("cpsat-profiles-array", CPSAT, b'{"jobs": [], "profiles": []}', ["missing object 'profiles'"]),
    ("cpsat-job-number", CPSAT, workload(jobs=[5]).encode(), ["job #0", "every job must be a JSON object"]),
    ("cpsat-job-no-id", CPSAT, workload(jobs=[{"subtime": 0}]).encode(), ["job #0", "'id' must be a string"]),
    ("cpsat-profile-number", CPSAT, workload(profiles={"p": 5}).encode(), ["job '1'", "needs a 'delay' profile"]),
    (
        "cpsat-delay-missing",
        CPSAT,
        workload(profiles={"p": {"type": "delay"}}).encode(),
        ["job '1'", "'profile 'p': delay' must be a finite number >= 0, got None"],
    ),
    ("cpsat-nan-literal", CPSAT, b'{"jobs": [{"id": 1, "subtime": NaN}], "profiles": {}}', ["NaN is not a JSON"]),
    ("cpsat-subtime-huge-int", CPSAT, workload(jobs=[job(subtime=10**400)]).encode(), ["job '1'", "'subtime'"]),
    ("cpsat-res-float", CPSAT, workload(jobs=[job(res=1.5)]).encode(), ["job '1'", "'res' must be a positive"]),
    # atheris, platform_params, at input 15,628 of the 2026-11-25 run: a fat tree's k**levels with
    # levels = 10**12 was computed (the run never ended); topologies are bounded at 10**7 nodes
    (
        "platform-params-fat-tree-levels",
        PARAMS,
        b"interconnect:\n  topology: {kind: fat_tree, k: 5, levels: 1000000000000.0}\n",
        ["in.yaml", "interconnect.topology", "5**1000000000000", "10,000,000"],
    ),
]


@pytest.mark.parametrize("argv,content,fragments", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_fuzz_finding_is_one_line_error(cli, tmp_path, argv, content, fragments):
    (tmp_path / "in.yaml").write_bytes(content)
    before = set(os.listdir(tmp_path))
    outcome = cli(*[a.replace("{tmp}", str(tmp_path)) for a in argv])
    outcome.assert_one_line_error(str(tmp_path / "in.yaml"), *fragments)
    assert set(os.listdir(tmp_path)) == before, "a failed command wrote a file"


@pytest.mark.parametrize(
    "data,problem",
    [
        (b"\xff<platform/>", "not UTF-8 text (byte 0xff at offset 0)"),
        (b'<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">', "not well-formed"),
        (b'<?xml v-1ersion="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform/>', "XML"),
    ],
)
def test_platform_check_reports_unreadable_xml_as_a_problem(data, problem):
    """check_bytes raised UnicodeDecodeError / ParseError; a checker reports problems."""
    problems = check_bytes(data)
    assert len(problems) == 1 and problem in problems[0], problems


def test_huge_cluster_radical_is_not_expanded(tmp_path):
    """The topology reader of the locality-aware allocators expanded a cluster's radical
    into a list: "0-99999999999999999999" raised OverflowError, "0-1000000000" would
    take gigabytes. Ranks are now computed per host name from the ranges: with radical
    "first-last,...", host n<k> has rank (k - first) + the sizes of the ranges before its
    own, so n37 has rank 37 under "0-63" and under "0-10^20", and n0 rank 2 under "10-11,0-61"."""
    from datasched.policy.topology import HostCoordinates, coordinates_from_xml

    def platform(radical: str) -> HostCoordinates:
        path = tmp_path / "p.xml"
        path.write_text(
            '<?xml version="1.0"?>\n<platform version="4.1"><zone id="z" routing="Full">'
            f'<cluster id="c" prefix="n" suffix="" radical="{radical}" speed="1Gf" bw="1GBps" lat="0"'
            ' topology="TORUS" topo_parameters="4,4,4"/></zone></platform>\n'
        )
        return coordinates_from_xml(path)

    small, huge = platform("0-63"), platform("0-99999999999999999999")
    assert huge.get("n37") == small.get("n37") is not None
    assert small.get("n64") is None and small.get("n037") is None and small.get("x37") is None
    assert platform("0-1000000000").get("n5") == small.get("n5")
    gapped = platform("10-11,0-61")  # ranks follow the radical's order: n0 is rank 2
    assert gapped.get("n0") == small.get("n2")
