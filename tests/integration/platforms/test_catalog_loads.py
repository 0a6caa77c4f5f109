"""Every checked-in catalog platform loads in SimGrid with the hosts and roles we expect."""

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings

from datasched.platforms import SystemParams, generate, write
from datasched.platforms.catalog import catalog
from tests.strategies import platform_params

pytestmark = pytest.mark.engine

CATALOG = Path(__file__).resolve().parents[3] / "platforms" / "catalog"


@pytest.mark.parametrize("name", list(catalog()))
def test_catalog_platform_loads_with_expected_roles(name, inspect_platform):
    params = catalog()[name]
    model = generate(params)
    info = inspect_platform(CATALOG / f"{name}.xml")
    hosts = info["hosts"]
    assert len(hosts) == len(model.hosts)
    ours = Counter(h["properties"].get("datasched_role") for h in hosts)
    assert ours == Counter(model.role_counts())
    batsim = Counter(h["properties"].get("role") for h in hosts)
    assert batsim["master"] == 1
    assert set(batsim) <= {"master", "compute_node", "storage"}
    if isinstance(params, SystemParams):
        n = params.interconnect.topology.node_count
        assert ours["compute_node"] == n
        assert ours["dram"] == n
        assert ours.get("nvm", 0) == (n if params.storage_mode == "unified" else 0)
        assert ours["io_server"] == params.storage.io_servers
        nvm_disks = [d for h in hosts for d in h["disks"] if d["name"] == "nvm"]
        assert all(d["read_bandwidth"] == 2e9 and d["write_bandwidth"] == 1e9 for d in nvm_disks)


@settings(max_examples=15)
@given(platform_params())
def test_random_valid_params_load_in_simgrid(tmp_path_factory, inspect_platform, params):
    path = write(generate(params), tmp_path_factory.mktemp("hyp") / "p.xml")
    info = inspect_platform(path)
    assert len(info["hosts"]) == len(generate(params).hosts)
