import pytest

from datasched.analysis.allocation import mean_pairwise_hops, parse_procset


def test_procset_text_is_expanded():
    assert parse_procset("0-3 7 9-10") == [0, 1, 2, 3, 7, 9, 10]
    assert parse_procset("5") == [5]
    assert parse_procset("") == []


def test_hops_wrap_around_each_ring():
    # ring of 8: nodes 0 and 7 are neighbours through the wrap-around link
    assert mean_pairwise_hops([0, 7], [8]) == 1
    assert mean_pairwise_hops([0, 4], [8]) == 4
    # 2x2 square on a 4x4 torus: 4 pairs at 1 hop, 2 diagonals at 2 hops
    assert mean_pairwise_hops([0, 1, 4, 5], [4, 4]) == pytest.approx((4 * 1 + 2 * 2) / 6)


def test_single_node_job_has_no_distance():
    assert mean_pairwise_hops([3], [4, 4]) != mean_pairwise_hops([3], [4, 4])  # NaN
