"""Hypothesis strategies shared by the test suite, one section per package."""

from __future__ import annotations

from hypothesis import strategies as st

# --------------------------------------------------------------------------- platforms

_positive_bw = st.floats(min_value=1e6, max_value=1e12, allow_nan=False, allow_infinity=False)
_latency = st.one_of(st.just(0.0), st.floats(min_value=1e-9, max_value=1e-3, allow_nan=False, allow_infinity=False))


@st.composite
def platform_topologies(draw):
    """Small but varied interconnects (<= 64 nodes so SimGrid loads them quickly)."""
    from datasched.platforms import DragonflyParams, FatTreeParams, TorusParams

    kind = draw(st.sampled_from(["torus", "fat_tree", "dragonfly"]))
    if kind == "torus":
        dims = draw(st.lists(st.integers(2, 4), min_size=1, max_size=3))
        return TorusParams(dims=tuple(dims))
    if kind == "fat_tree":
        k = draw(st.integers(2, 4))
        levels = draw(st.integers(1, 3 if k <= 3 else 2))
        return FatTreeParams(k=k, levels=levels)
    p, a, h = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 2))
    groups = draw(st.one_of(st.none(), st.integers(2, a * h + 1)))
    return DragonflyParams(p=p, a=a, h=h, groups=groups)


@st.composite
def system_params(draw):
    from datasched.platforms import InterconnectParams, NodeParams, StorageNetworkParams, SystemParams

    return SystemParams(
        name=draw(st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)),
        storage_mode=draw(st.sampled_from(["unified", "san"])),
        interconnect=InterconnectParams(
            topology=draw(platform_topologies()), link_bw=draw(_positive_bw), link_lat=draw(_latency)
        ),
        node=NodeParams(
            speed=draw(st.floats(1e6, 1e12)),
            cores=draw(st.integers(1, 64)),
            nvm_read_bw=draw(_positive_bw),
            nvm_write_bw=draw(_positive_bw),
            dram_bw=draw(_positive_bw),
        ),
        storage=StorageNetworkParams(
            io_servers=draw(st.integers(1, 16)), node_nic_bw=draw(_positive_bw), backend_lat=draw(_latency)
        ),
    )


@st.composite
def setup_params(draw):
    from datasched.platforms import ForwardingParams, StagingParams

    if draw(st.booleans()):
        return ForwardingParams(
            clients=draw(st.integers(1, 40)), forwarders=draw(st.integers(1, 8)), servers=draw(st.integers(1, 8)),
            link_bw=draw(_positive_bw), hdd_read_bw=draw(_positive_bw),
        )
    return StagingParams(
        clients=draw(st.integers(1, 40)), staging_servers=draw(st.integers(1, 8)), link_bw=draw(_positive_bw)
    )


def platform_params():
    return st.one_of(system_params(), setup_params())
