from hypothesis import given
from hypothesis import strategies as st

from datasched.platforms import naming


@given(st.integers(1, 5000))
def test_byte_order_equals_rank_order(n):
    names = [naming.node_name(r, n) for r in range(n)]
    assert sorted(names) == names  # so Batsim id == topology rank
    assert [naming.rank_of(x, n) for x in names] == list(range(n))


def test_examples():
    assert naming.node_name(0, 64) == "node-100" and naming.node_name(63, 64) == "node-163"
    assert naming.node_name(599, 600) == "node-1599"
    assert naming.padded("io-", 3, 128) == "io-003"
