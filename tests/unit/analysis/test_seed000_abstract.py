"""The abstract's two headline claims judged on hand-made Figure 6 rows (closed forms)."""

from __future__ import annotations

from datasched.analysis.seed000 import abstract


def rows(t_hits: dict[float, float], t_remote: dict[float, float]):
    """STG-1 and CACHE at 50 % remote over memory hits, STG-1 at 50 % hits over remote."""
    out = []
    for mem, t in t_hits.items():
        out.append({"storage": "stg-1", "mem_hit_pct": mem, "remote_pct": 50.0, "access": "D", "runtime_s": t})
        out.append({"storage": "cache", "mem_hit_pct": mem, "remote_pct": 50.0, "access": "D", "runtime_s": t})
    for remote, t in t_remote.items():
        if remote != 50.0:
            out.append({"storage": "stg-1", "mem_hit_pct": 50.0, "remote_pct": remote, "access": "D", "runtime_s": t})
            out.append({"storage": "cache", "mem_hit_pct": 50.0, "remote_pct": remote, "access": "D", "runtime_s": t})
    return out


def judged(table):
    return {v.key: (v.judgement.word.value, v.ours) for v in abstract.verdicts(table)}


def test_the_papers_numbers_are_reproduced():
    """0 → 100 % hits: 100 s → 90 s, a 10 % reduction; remote 0 → 100 %: 10 s → 100 s, 10× (+900 %)."""
    got = judged(rows({0.0: 100.0, 50.0: 95.0, 100.0: 90.0}, {0.0: 10.0, 50.0: 95.0, 100.0: 100.0}))
    assert (
        got["abstract.temporal-locality"][0] == "reproduced" and "up to 10.0 %" in got["abstract.temporal-locality"][1]
    )
    assert got["abstract.spatial-locality"][0] == "reproduced" and "up to 10.0×" in got["abstract.spatial-locality"][1]


def test_sixty_times_is_in_direction_not_reproduced():
    """62× (+6100 %) is 6.8 times the paper's +900 %: same sign, outside 0.5-2x."""
    got = judged(rows({0.0: 100.0, 50.0: 95.0, 100.0: 90.0}, {0.0: 10.0, 50.0: 95.0, 100.0: 620.0}))
    assert got["abstract.spatial-locality"][0] == "in direction"
