"""The node page cache (sim/src/model/page_cache.hpp) against closed-form times.

Platform ``star`` (conftest.star_platform): per node DRAM 10 GB/s (B_mem), NVM 2 GB/s
read (B_r) and 1 GB/s write (B_w); the cache is configured on the DRAM endpoints
(page_cache_capacity C, page_cache_dirty_ratio r: dirty limit L = C x r). A writer's
dirty part d = min(S, L - dirty) goes at B_mem, the rest at the device's rate, after it:
T_write = d / B_mem + (S - d) / B_w. A read of an item whose h bytes are cached:
T_read = max(h / B_mem, (S - h) / B_r) (hits and misses run together, on separate links).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tests.integration.storage.conftest import GB, descriptor, phases_profile, resource_ids, star_platform
from tests.integration.storage.test_bad_input import engine_alone

pytestmark = pytest.mark.engine
TOL = 1e-6
S = 4 * GB


def cached_platform(path: Path, capacity: float | str | None, ratio: float | str | None) -> Path:
    """The star with every DRAM endpoint given the page-cache properties (None: left out),
    written as text so that bad values reach the engine as they are."""
    star_platform(path)
    extra = "".join(
        f'<prop id="{key}" value="{value}" />'
        for key, value in (("page_cache_capacity", capacity), ("page_cache_dirty_ratio", ratio))
        if value is not None
    )
    text = path.read_text()
    marker = '<prop id="datasched_role" value="dram" />'
    assert marker in text
    path.write_text(text.replace(marker, marker + extra))
    return path


@pytest.fixture(scope="module")
def big(tmp_path_factory, engine):
    """C = 100 GB, r = 0.2: L = 20 GB."""
    path = cached_platform(tmp_path_factory.mktemp("big") / "p.xml", 100 * GB, 0.2)
    return path, resource_ids(engine, path)


def writes(name: str, nbytes: float = S, **item) -> dict:
    return phases_profile(
        1, descriptor(), [{"kind": "write", "bytes": nbytes, "items": [{"name": name, "bytes": nbytes, **item}]}]
    )


def reads(name: str, nbytes: float = S) -> dict:
    return phases_profile(
        1, descriptor(), [{"kind": "read", "bytes": nbytes, "items": [{"name": name, "bytes": nbytes}]}]
    )


def job(number: int, profile: str, subtime: float) -> dict:
    return {"id": number, "subtime": subtime, "res": 1, "profile": profile}


def on_node10(ids: dict, *numbers: int) -> dict:
    return {str(n): str(ids["node-10"]) for n in numbers}


def data_rows(result) -> list[dict]:
    with open(result.out_dir / "out_data.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def test_write_below_the_dirty_limit_takes_size_over_memory_rate(run_phases, big):
    """S = 4 GB < L = 20 GB: T = S / B_mem = 4 / 10 = 0.4 s (against S / B_w = 4 s uncached)."""
    platform, ids = big
    r = run_phases(platform, [job(0, "w", 0)], {"w": writes("d")}, alloc=on_node10(ids, 0))
    assert r.runtime("0") == pytest.approx(0.4, abs=TOL)
    flush = [row for row in data_rows(r) if row["event"] == "flush"]
    # The flush of the 4 dirty GB on the 1 GB/s write link: from 0.4 s to 0.4 + 4 / 1 = 4.4 s.
    assert [(float(f["start_time"]), float(f["end_time"]), float(f["bytes"])) for f in flush] == [
        pytest.approx((0.4, 4.4, S))
    ]


def test_write_beyond_the_dirty_limit_goes_on_at_the_device_rate(run_phases, tmp_path, engine):
    """C = 10 GB, r = 0.1: L = 1 GB. T = L / B_mem + (S - L) / B_w = 0.1 + 3 = 3.1 s."""
    platform = cached_platform(tmp_path / "p.xml", 10 * GB, 0.1)
    ids = resource_ids(engine, platform)
    r = run_phases(platform, [job(0, "w", 0)], {"w": writes("d")}, alloc=on_node10(ids, 0))
    assert r.runtime("0") == pytest.approx(3.1, abs=TOL)


def test_read_after_write_of_a_cached_file_takes_size_over_memory_rate(run_phases, big):
    """The reader on the writer's node: T = S / B_mem = 0.4 s (uncached: S / B_r = 2 s)."""
    platform, ids = big
    r = run_phases(
        platform, [job(0, "w", 0), job(1, "r", 10)], {"w": writes("d"), "r": reads("d")}, alloc=on_node10(ids, 0, 1)
    )
    assert r.runtime("1") == pytest.approx(0.4, abs=TOL)
    assert [row["event"] for row in data_rows(r) if row["job_id"] == "w0!1"] == ["read_page_cache"]


def test_read_of_an_evicted_file_takes_size_over_device_rate(run_phases, tmp_path, engine):
    """C = 4 GB, r = 0 (write-through): writing a takes S / B_w = 4 s and caches it clean;
    writing b evicts a (LRU). Reading b (t = 20): S / B_mem = 0.4 s; reading a (t = 30):
    S / B_r = 2 s, and that miss fills the cache, evicting b: reading b again, 2 s."""
    platform = cached_platform(tmp_path / "p.xml", 4 * GB, 0)
    ids = resource_ids(engine, platform)
    r = run_phases(
        platform,
        [job(0, "wa", 0), job(1, "wb", 10), job(2, "rb", 20), job(3, "ra", 30), job(4, "rb", 40)],
        {"wa": writes("a"), "wb": writes("b"), "ra": reads("a"), "rb": reads("b")},
        alloc=on_node10(ids, 0, 1, 2, 3, 4),
    )
    assert r.runtime("0") == pytest.approx(4.0, abs=TOL)
    assert r.runtime("2") == pytest.approx(0.4, abs=TOL)
    assert r.runtime("3") == pytest.approx(2.0, abs=TOL)
    assert r.runtime("4") == pytest.approx(2.0, abs=TOL)


def test_partly_cached_read_overlaps_hits_and_misses(run_phases, tmp_path, engine):
    """C = 5 GB, r = 0: after a (4 GB) then b (4 GB), 1 GB of a is left cached.
    T_read(a) = max(1 / B_mem, 3 / B_r) = max(0.1, 1.5) = 1.5 s."""
    platform = cached_platform(tmp_path / "p.xml", 5 * GB, 0)
    ids = resource_ids(engine, platform)
    r = run_phases(
        platform,
        [job(0, "wa", 0), job(1, "wb", 10), job(2, "ra", 20)],
        {"wa": writes("a"), "wb": writes("b"), "ra": reads("a")},
        alloc=on_node10(ids, 0, 1, 2),
    )
    assert r.runtime("2") == pytest.approx(1.5, abs=TOL)


def test_flush_shares_the_device_with_other_writes(run_phases, big):
    """Job 0 writes 4 GB into the cache (0.4 s); its flush runs on the 1 GB/s write link from
    0.4 s. Job 1 (t = 1 s) writes 2 GB of anonymous data to the same NVM: two flows share
    the link, each at B_w / 2, so T = 2 / 0.5 = 4 s (alone: 2 s); the link then busy
    with 6 GB from 0.4 s, the flush ends at 0.4 + 6 / 1 = 6.4 s."""
    platform, ids = big
    plain = phases_profile(1, descriptor(), [{"kind": "write", "bytes": 2 * GB}])
    r = run_phases(
        platform,
        [job(0, "w", 0), job(1, "plain", 1)],
        {"w": writes("d"), "plain": plain},
        alloc=on_node10(ids, 0, 1),
        engine_args=["--enable-compute-sharing"],
    )
    assert r.runtime("1") == pytest.approx(4.0, abs=TOL)
    (flush,) = [row for row in data_rows(r) if row["event"] == "flush"]
    assert float(flush["end_time"]) == pytest.approx(6.4, abs=TOL)


def test_writers_sharing_a_device_each_get_its_rate_over_their_number(run_phases, star_uncached):
    """36 producers on one node write 1 GB each to its NVM at once, no cache: each gets
    B_w / 36, so every one takes 36 x 1 GB / 1 GB/s = 36 s."""
    platform, ids = star_uncached
    n = 36
    jobs = [job(i, f"w{i}", 0) for i in range(n)]
    profiles = {f"w{i}": writes(f"f{i}", 1 * GB) for i in range(n)}
    r = run_phases(platform, jobs, profiles, alloc=on_node10(ids, *range(n)), engine_args=["--enable-compute-sharing"])
    assert [r.runtime(str(i)) for i in range(n)] == [pytest.approx(36.0, abs=TOL)] * n


@pytest.fixture(scope="module")
def star_uncached(tmp_path_factory, engine):
    path = star_platform(tmp_path_factory.mktemp("plain") / "p.xml")
    return path, resource_ids(engine, path)


@pytest.mark.parametrize(
    ("capacity", "ratio", "message"),
    [
        ("lots", None, "page_cache_capacity='lots' (expected a number)"),
        (-1, None, "page_cache_capacity=-1"),
        (100 * GB, 1.5, "page_cache_dirty_ratio=1.5"),
        (100 * GB, -0.2, "page_cache_dirty_ratio=-0.2"),
        (None, 0.2, "has page_cache_dirty_ratio but no page_cache_capacity"),
    ],
)
def test_bad_page_cache_parameters_name_host_and_property(engine, tmp_path, capacity, ratio, message):
    platform = cached_platform(tmp_path / "p.xml", capacity, ratio)
    out = engine_alone(engine, platform, tmp_path, [job(0, "w", 0)], {"w": writes("d")})
    assert out.returncode != 0
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert "Traceback" not in out.stderr
    assert any("DRAM endpoint 'node-10-dram'" in line and message in line for line in lines), out.stderr
