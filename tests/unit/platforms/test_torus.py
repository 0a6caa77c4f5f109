"""The one torus hop-distance implementation (datasched.platforms.torus)."""

import numpy as np

from datasched.platforms.torus import torus_coordinates, torus_hop_matrix, torus_hops


def test_first_dimension_varies_fastest():
    assert torus_coordinates([0, 1, 4, 5], [4, 2]).tolist() == [[0, 0], [1, 0], [0, 1], [1, 1]]


def test_the_docstring_examples():
    assert torus_hops(0, 3, (4, 3)) == 1  # the x ring wraps
    assert torus_hops(1, 10, (4, 3)) == 2  # one hop in x, one (wrapping) in y


def test_matrix_is_symmetric_with_a_zero_diagonal_and_matches_the_pairs():
    ranks = [0, 5, 17, 42, 63]
    matrix = torus_hop_matrix(ranks, (4, 4, 4))
    assert (matrix == matrix.T).all() and not np.diag(matrix).any()
    assert matrix.tolist() == [[torus_hops(a, b, (4, 4, 4)) for b in ranks] for a in ranks]
    assert matrix.max() <= 2 + 2 + 2  # at most half of each ring
