"""Seed 001 Tables 1-3 (analysis/seed001_pagecache/): the benchmark's workload, the paper's
numbers as the text states them, the configs, and the pinned harness policy."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from datasched.analysis.seed001_pagecache.claims import PAPER
from datasched.analysis.seed001_pagecache.runs import workload
from datasched.analysis.seed001_pagecache.spec import PAPER_T3, param_sets, parse_spec
from datasched.policy.decisions import ExecuteJob, RejectJob
from datasched.policy.events import CompletionState, JobCompleted, JobInfo, JobSubmitted

CONFIG = Path(__file__).resolve().parents[3] / "config"


def test_workload_pairs_each_consumer_with_its_producer():
    w = workload("ssd", pairs=3, files=2, size=1e8, jitter=0, seed=1)
    assert [j["id"] for j in w["jobs"]] == [0, 1, 2, 3, 4, 5]
    assert [j.get("dependencies") for j in w["jobs"]] == [None, [0], None, [2], None, [4]]
    write = w["profiles"]["w1"]["phases"][0]
    assert write["kind"] == "write" and write["bytes"] == 2e8
    assert [i["name"] for i in write["items"]] == ["p1-f0", "p1-f1"]
    assert "to" not in write["items"][0]  # SSD: the node's NVM
    lustre = workload("lustre", pairs=1, files=1, size=1e9, jitter=0, seed=1)
    assert lustre["profiles"]["w0"]["phases"][0]["items"][0]["to"] == "central"
    assert "to" not in lustre["profiles"]["r0"]["phases"][0]["items"][0]


def test_jitter_is_seeded_and_bounded():
    a = workload("ssd", pairs=36, files=1, size=1e9, jitter=10, seed=7)
    b = workload("ssd", pairs=36, files=1, size=1e9, jitter=10, seed=7)
    c = workload("ssd", pairs=36, files=1, size=1e9, jitter=10, seed=8)
    starts = [j["subtime"] for j in a["jobs"] if j["id"] % 2 == 0]
    assert a == b and a != c
    assert all(0 <= s < 10 for s in starts) and len(set(starts)) > 1


def test_paper_values_match_the_text():
    """Section 4: SSD "up to five times" faster than Lustre, memory "around twelve" times
    faster than the SSD and "around fifty eight" times faster than Lustre; Table 3's
    Lustre/SSD "5.7-6.4x" against "3.6-4.6x" for one pair; variability "5-12 %" (SSD) and
    "9-54 %" (Lustre) as max/min - 1."""
    assert PAPER["t1.lustre-over-ssd"] == pytest.approx(4.76, abs=0.01)
    assert PAPER["t1.ssd-over-memory"] == pytest.approx(12.3, abs=0.05)
    assert PAPER["t1.lustre-over-memory"] == pytest.approx(58.6, abs=0.05)
    assert PAPER["t3.lustre-over-ssd"] == pytest.approx(6.44, abs=0.01)
    ssd = sorted(mx / mn - 1 for mx, mn in PAPER_T3["ssd"].values())
    lustre = sorted(mx / mn - 1 for mx, mn in PAPER_T3["lustre"].values())
    assert ssd[0] == pytest.approx(0.049, abs=0.001) and ssd[-1] == pytest.approx(0.127, abs=0.001)
    assert lustre[0] == pytest.approx(0.094, abs=0.001) and lustre[-1] == pytest.approx(0.542, abs=0.001)


@pytest.mark.parametrize("variant", ["quick", "full"])
def test_configs_parse_and_quick_spans_full(variant):
    full = parse_spec(yaml.safe_load((CONFIG / "full.yaml").read_text())["artifacts"]["seed001_pagecache"])
    spec = parse_spec(yaml.safe_load((CONFIG / f"{variant}.yaml").read_text())["artifacts"]["seed001_pagecache"])
    for name in ("memory_bws", "dirty_ratios", "jitters"):
        ours, whole = getattr(spec, name), getattr(full, name)
        assert min(ours) == min(whole) and max(ours) == max(whole), name
    for k in (0, 1):  # OST counts and rates
        ours_k, whole_k = [o[k] for o in spec.osts], [o[k] for o in full.osts]
        assert min(ours_k) == min(whole_k) and max(ours_k) == max(whole_k)
    sizes = (len(spec.osts), len(spec.memory_bws), len(spec.dirty_ratios), len(spec.jitters))
    assert len(param_sets(spec)) == sizes[0] * sizes[1] * sizes[2] * sizes[3]


def _job(number: int, deps: list[int] | None = None) -> JobInfo:
    return JobInfo(f"w0!{number}", 0.0, 1, None, extra={"dependencies": deps} if deps else {})


def test_pinned_starts_a_consumer_when_its_producer_completed():
    from datasched.schedulers.pinned import Pinned, PinnedParams

    policy = Pinned(PinnedParams(hosts=(3,)))
    first = policy.react(0.0, [JobSubmitted(0.0, _job(0)), JobSubmitted(0.0, _job(1, [0])), JobSubmitted(0.0, _job(2))])
    assert first == [ExecuteJob("w0!0", (3,)), ExecuteJob("w0!2", (3,))]
    assert policy.react(5.0, [JobCompleted(5.0, "w0!0")]) == [ExecuteJob("w0!1", (3,))]


def test_pinned_rejects_a_consumer_whose_producer_failed():
    from datasched.schedulers.pinned import Pinned, PinnedParams

    policy = Pinned(PinnedParams())
    policy.react(0.0, [JobSubmitted(0.0, _job(0)), JobSubmitted(0.0, _job(1, [0]))])
    failed = JobCompleted(1.0, "w0!0", CompletionState.COMPLETED_FAILED)
    assert policy.react(1.0, [failed]) == [RejectJob("w0!1")]
