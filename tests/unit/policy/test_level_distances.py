"""The vectorised distance matrices (fat-tree/dragonfly levels, switch chains) equals the pairwise definition
(``_LevelCoord.distance``: 0 on one host, 2 x (levels below the first differing group), and
2 x (depth + 2) between clusters) on every pair, whatever the row blocking."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from datasched.policy.topology import _level_matrix, _LevelCoord, _tree_matrix, _TreeCoord


@st.composite
def same_depth_coordinates(draw):
    depth = draw(st.integers(1, 4))
    group = st.tuples(*[st.integers(0, 2)] * depth)
    return [_LevelCoord(draw(group), draw(st.sampled_from(["a", "b"]))) for _ in range(draw(st.integers(1, 30)))]


@settings(max_examples=200, deadline=None)
@given(coords=same_depth_coordinates(), rows_per_block=st.integers(1, 8))
def test_every_pair_matches_the_pairwise_distance(coords, rows_per_block):
    matrix = _level_matrix(coords, rows_per_block=rows_per_block)
    expected = np.array([[0 if i == j else a.distance(b) for j, b in enumerate(coords)] for i, a in enumerate(coords)])
    assert (matrix == expected).all()


def test_a_dragonfly_like_example():
    # depth 4 (group, chassis, router, node): same router 2, same chassis 4, same group 6, other group 8.
    coords = [_LevelCoord(g, "c") for g in [(0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 1, 2), (0, 1, 2, 3), (1, 2, 3, 4)]]
    assert _level_matrix(coords)[0].tolist() == [0, 2, 4, 6, 8]


@st.composite
def switch_chains(draw):
    chain = st.lists(st.sampled_from(["g0", "g1", "r0", "r1", "c"]), min_size=1, max_size=4).map(tuple)
    return [_TreeCoord(draw(chain)) for _ in range(draw(st.integers(1, 30)))]


@settings(max_examples=200, deadline=None)
@given(coords=switch_chains(), rows_per_block=st.integers(1, 8))
def test_switch_chains_match_the_pairwise_distance(coords, rows_per_block):
    """Chains of any lengths (one a prefix of another, equal chains, the same name at two
    levels): ``_TreeCoord.distance`` on every pair, 0 on the diagonal."""
    matrix = _tree_matrix(coords, rows_per_block=rows_per_block)
    expected = np.array([[0 if i == j else a.distance(b) for j, b in enumerate(coords)] for i, a in enumerate(coords)])
    assert (matrix == expected).all()


def test_a_generator_dragonfly_example():
    # "g/r" chains: same router 2 (up and down one switch), same group 4, other group 6.
    coords = [_TreeCoord(tuple(p.split("/"))) for p in ["g0/r0", "g0/r0", "g0/r1", "g1/r0"]]
    assert _tree_matrix(coords)[0].tolist() == [0, 2, 4, 6]
