"""SWF -> Batsim conversion: exact job counts after each cleaning option on both shared
traces. Every expected count is computed here by an independent plain pass over the
file's columns (like ``awk``), never by the converter's own code."""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import pytest

from datasched.errors import UserError
from datasched.workloads.swf import read_swf
from datasched.workloads.swf_convert import ConversionOptions, build_workload, convert_swf, make_options
from tests.conftest import HPC2N, LUBLIN


def columns(path: Path) -> list[list[float]]:
    """Plain awk-like pass: numeric columns of every job line ($1..$18 -> [0..17])."""
    rows = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith(";"):
            rows.append([float(x) for x in line.split()])
    return rows


H = columns(HPC2N)
L = columns(LUBLIN)
RUN, ALLOC, REQ_PROCS, REQ_TIME, STATUS, SUBMIT = 3, 4, 7, 8, 10, 1


def procs(r):
    return r[ALLOC] if r[ALLOC] != -1 else r[REQ_PROCS]


def count(rows, predicate):
    return sum(1 for r in rows if predicate(r))


@functools.cache
def parsed(path):
    return read_swf(path)  # conversion never mutates the trace, so tests can share it


def convert(path, **options):
    doc, report = build_workload(parsed(path), make_options(**options))
    return doc, report


def test_independent_pass_sees_what_the_readme_describes():
    assert len(H) == 3170 and len(L) == 10000  # hpc2n README says 3,171: it counts the trailing blank line
    assert count(H, lambda r: r[REQ_TIME] > 0) == 3170
    assert count(L, lambda r: r[REQ_TIME] == -1) == 10000


def test_default_options_drop_only_unusable_jobs_hpc2n():
    doc, report = convert(HPC2N)
    expected = count(H, lambda r: r[RUN] > 0 and procs(r) > 0 and procs(r) <= 240)
    assert len(doc["jobs"]) == expected == report.kept_jobs
    assert report.dropped["zero_runtime"] == count(H, lambda r: r[RUN] <= 0)
    assert doc["nb_res"] == 240


def test_default_options_lublin_keeps_all_but_wider_than_256():
    doc, report = convert(LUBLIN)
    assert len(doc["jobs"]) == count(L, lambda r: r[RUN] > 0 and 0 < procs(r) <= 256)
    assert doc["nb_res"] == 256


@pytest.mark.parametrize("path, rows", [(HPC2N, H), (LUBLIN, L)], ids=["hpc2n", "lublin"])
def test_drop_failed_cancelled(path, rows):
    doc, report = convert(path, drop_failed_cancelled=True, platform_nodes=4096)
    expected = count(rows, lambda r: r[STATUS] not in (0, 5) and r[RUN] > 0 and procs(r) > 0)
    assert len(doc["jobs"]) == expected
    assert report.dropped["failed_cancelled"] == count(rows, lambda r: r[STATUS] in (0, 5))


def test_keeping_zero_runtime_jobs_refuses_unknown_runtimes_by_name():
    with pytest.raises(UserError, match=r"hpc2n.swf:\d+: job 16 has unknown run time"):
        convert(HPC2N, drop_zero_runtime=False)


def test_keeping_zero_runtime_on_lublin_changes_nothing_because_all_run():
    doc, _ = convert(LUBLIN, drop_zero_runtime=False, platform_nodes=256)
    assert len(doc["jobs"]) == count(L, lambda r: procs(r) > 0)


@pytest.mark.parametrize("path, rows", [(HPC2N, H), (LUBLIN, L)], ids=["hpc2n", "lublin"])
@pytest.mark.parametrize("width", [16, 64, 128])
def test_wider_than_platform_drop_or_keep(path, rows, width):
    usable = lambda r: r[RUN] > 0 and procs(r) > 0  # noqa: E731
    dropped_doc, report = convert(path, platform_nodes=width)
    assert len(dropped_doc["jobs"]) == count(rows, lambda r: usable(r) and procs(r) <= width)
    assert report.dropped["wider_than_platform"] == count(rows, lambda r: usable(r) and procs(r) > width)
    kept_doc, _ = convert(path, platform_nodes=width, wider_than_platform="keep")
    assert len(kept_doc["jobs"]) == count(rows, usable)
    assert kept_doc["nb_res"] == width
    assert max(j["res"] for j in kept_doc["jobs"]) == max(procs(r) for r in rows if usable(r))


@pytest.mark.parametrize("cores", [2, 3, 8])
def test_processors_to_nodes_conversion(cores):
    doc, _ = convert(LUBLIN, cores_per_node=cores)
    nodes_capacity = math.ceil(256 / cores)
    expected = [math.ceil(procs(r) / cores) for r in L if r[RUN] > 0 and math.ceil(procs(r) / cores) <= nodes_capacity]
    assert doc["nb_res"] == nodes_capacity
    assert sorted(j["res"] for j in doc["jobs"]) == sorted(expected)


def test_requested_processors_preference():
    doc, _ = convert(HPC2N, processors_field="requested")
    req = lambda r: r[REQ_PROCS] if r[REQ_PROCS] != -1 else r[ALLOC]  # noqa: E731
    expected = sorted(int(req(r)) for r in H if r[RUN] > 0 and 0 < req(r) <= 240)
    assert sorted(j["res"] for j in doc["jobs"]) == expected


@pytest.mark.parametrize("path, rows", [(HPC2N, H), (LUBLIN, L)], ids=["hpc2n", "lublin"])
def test_time_window_and_shift(path, rows):
    usable = [r for r in rows if r[RUN] > 0 and 0 < procs(r) <= 4096]
    start = usable[len(usable) // 4][SUBMIT]
    end = usable[len(usable) // 2][SUBMIT]
    doc, report = convert(path, platform_nodes=4096, start_time=start, end_time=end)
    inside = [r for r in usable if start <= r[SUBMIT] < end]
    assert len(doc["jobs"]) == len(inside)
    assert report.dropped["outside_time_window"] == len(usable) - len(inside)
    first = min(r[SUBMIT] for r in inside)
    assert sorted(j["subtime"] for j in doc["jobs"]) == sorted(r[SUBMIT] - first for r in inside)
    unshifted, _ = convert(path, platform_nodes=4096, start_time=start, end_time=end, shift_to_zero=False)
    assert min(j["subtime"] for j in unshifted["jobs"]) == first


@pytest.mark.parametrize("path", [HPC2N, LUBLIN], ids=["hpc2n", "lublin"])
@pytest.mark.parametrize("limit", [1, 100, 2500])
def test_max_jobs_keeps_the_first_usable_jobs(path, limit):
    rows = H if path == HPC2N else L
    doc, _ = convert(path, max_jobs=limit)
    nb = 240 if path == HPC2N else 256
    first_ids = [int(r[0]) for r in rows if r[RUN] > 0 and 0 < procs(r) <= nb][:limit]
    assert sorted(j["id"] for j in doc["jobs"]) == sorted(first_ids)


def test_walltime_is_the_requested_time_on_hpc2n():
    doc, report = convert(HPC2N)
    by_id = {int(r[0]): r for r in H}
    assert all(j["walltime"] == by_id[j["id"]][REQ_TIME] for j in doc["jobs"])
    assert report.walltime_fallback_jobs == 0
    over = count(H, lambda r: r[RUN] > 0 and r[RUN] > r[REQ_TIME])
    assert over == 320 and report.runtime_over_walltime_jobs == over


def test_runtime_over_walltime_extend_and_clip():
    extended, _ = convert(HPC2N, runtime_over_walltime="extend")
    assert all(j["walltime"] >= extended["profiles"][j["profile"]]["delay"] for j in extended["jobs"])
    by_id = {int(r[0]): r for r in H}
    for job in extended["jobs"]:
        row = by_id[job["id"]]
        assert job["walltime"] == (row[RUN] + 1 if row[RUN] > row[REQ_TIME] else row[REQ_TIME])
    clipped, _ = convert(HPC2N, runtime_over_walltime="clip")
    assert all(clipped["profiles"][j["profile"]]["delay"] <= j["walltime"] for j in clipped["jobs"])
    changed = sum(1 for j in clipped["jobs"] if clipped["profiles"][j["profile"]]["delay"] != by_id[j["id"]][RUN])
    assert changed == 320


def test_lublin_walltime_fallbacks():
    by_id = {int(r[0]): r for r in L}
    doc, report = convert(LUBLIN)
    assert report.walltime_fallback_jobs == len(doc["jobs"])
    assert all(j["walltime"] == by_id[j["id"]][RUN] + 1 for j in doc["jobs"])  # default 1 s margin
    assert all(j["datasched_swf"]["walltime_from_fallback"] for j in doc["jobs"])
    doc, _ = convert(LUBLIN, walltime_factor=1.5, walltime_margin=0)
    assert all(j["walltime"] == pytest.approx(1.5 * by_id[j["id"]][RUN]) for j in doc["jobs"])
    doc, _ = convert(LUBLIN, walltime_fallback="fixed", walltime_fixed=3600)
    assert {j["walltime"] for j in doc["jobs"]} == {3600}
    doc, _ = convert(LUBLIN, walltime_fallback="max_runtime")
    assert {j["walltime"] for j in doc["jobs"]} == {162754}  # the header's MaxRuntime
    assert max(r[RUN] for r in L) <= 162754


def test_delay_and_parallel_homogeneous_profiles():
    by_id = {int(r[0]): r for r in L}
    doc, _ = convert(LUBLIN, max_jobs=50)
    for job in doc["jobs"]:
        assert doc["profiles"][job["profile"]] == {"type": "delay", "delay": by_id[job["id"]][RUN]}
    doc, _ = convert(LUBLIN, max_jobs=50, profile_type="parallel_homogeneous", host_speed=2e9)
    for job in doc["jobs"]:
        assert doc["profiles"][job["profile"]] == {
            "type": "parallel_homogeneous",
            "cpu": by_id[job["id"]][RUN] * 2e9,
            "com": 0,
        }


def test_option_errors_name_the_key():
    with pytest.raises(UserError, match="colour"):
        make_options(colour="red")
    with pytest.raises(UserError, match="host_speed"):
        make_options(profile_type="parallel_homogeneous")
    with pytest.raises(UserError, match="walltime_fixed"):
        make_options(walltime_fallback="fixed")
    with pytest.raises(UserError, match="cores_per_node"):
        make_options(cores_per_node=0)


def test_no_platform_size_is_an_error(tmp_path):
    swf = tmp_path / "noheader.swf"
    swf.write_text("1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 1 -1 -1\n")
    with pytest.raises(UserError, match=r"noheader\.swf: header has no positive MaxProcs/MaxNodes"):
        convert_swf(swf, tmp_path / "out.json")
    convert_swf(swf, tmp_path / "out.json", ConversionOptions(platform_nodes=8))
    assert json.loads((tmp_path / "out.json").read_text())["nb_res"] == 8


def test_output_is_batsim_shaped_integer_ids_and_byte_identical(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    convert_swf(HPC2N, a)
    convert_swf(HPC2N, b)
    assert a.read_bytes() == b.read_bytes()
    doc = json.loads(a.read_text())
    assert set(doc) == {"nb_res", "jobs", "profiles", "datasched_meta"}
    for job in doc["jobs"]:
        assert isinstance(job["id"], int)
        assert job["profile"] in doc["profiles"]
        assert job["res"] >= 1 and job["walltime"] > 0 and job["subtime"] >= 0
    assert [j["subtime"] for j in doc["jobs"]] == sorted(j["subtime"] for j in doc["jobs"])
    meta = doc["datasched_meta"]
    assert meta["source"] == "hpc2n.swf" and len(meta["source_sha256"]) == 64
    assert meta["swf_header"]["MaxNodes"] == "240"
