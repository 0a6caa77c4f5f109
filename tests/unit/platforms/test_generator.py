"""Generated XML: deterministic, well-formed, conventions respected."""

import xml.etree.ElementTree as ET
from pathlib import Path

from hypothesis import given

from datasched.platforms import (
    DragonflyParams,
    ForwardingParams,
    InterconnectParams,
    StagingParams,
    StorageNetworkParams,
    SystemParams,
    TorusParams,
    generate,
    to_xml,
)
from datasched.platforms.catalog import catalog, write_catalog
from datasched.platforms.validate import check_bytes, check_tree
from tests.strategies import platform_params

CATALOG_DIR = Path(__file__).resolve().parents[3] / "platforms" / "catalog"


def small(mode="unified", topology=None, k=2):
    return SystemParams(
        name="t",
        storage_mode=mode,
        storage=StorageNetworkParams(io_servers=k),
        interconnect=InterconnectParams(topology=topology or TorusParams(dims=(2, 2, 2))),
    )


def test_same_params_give_identical_bytes():
    assert to_xml(generate(small())) == to_xml(generate(small()))


def test_header_doctype_and_version():
    text = to_xml(generate(small())).decode()
    assert text.splitlines()[1] == '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
    assert ET.fromstring(text.encode()).get("version") == "4.1"


def test_unified_roles_and_counts():
    model = generate(small("unified", k=3))
    assert model.role_counts() == {"master": 1, "compute_node": 8, "dram": 8, "nvm": 8, "io_server": 3}
    assert {h.role for h in model.hosts if h.datasched_role in ("dram", "nvm", "io_server")} == {"storage"}
    owners = {h.owner for h in model.hosts if h.datasched_role == "nvm"}
    assert owners == set(model.hosts_with("compute_node"))


def test_san_has_no_nvm():
    model = generate(small("san"))
    assert "nvm" not in model.role_counts()
    assert b"nvm" not in to_xml(model)


def test_node_properties_in_cluster():
    root = generate(small()).root
    cluster = root.find(".//cluster")
    assert cluster is not None
    values = {p.get("id"): p.get("value") for p in cluster.findall("prop")}
    assert values["role"] == "compute_node"
    assert values["nvm_read_bw"] == "2000000000" and values["nvm_write_bw"] == "1000000000"
    assert values["dram_bw"] == "10000000000"


def test_nvm_endpoint_links_are_the_device_rates():
    root = generate(small()).root
    links = {el.get("id"): el.get("bandwidth") for el in root.iter("link")}
    assert links["node-10-nvm-read"] == "2000000000Bps"
    assert links["node-10-nvm-write"] == "1000000000Bps"
    assert links["node-10-dram-link"] == "10000000000Bps"
    assert links["node-10-eth"] == "1250000000Bps"
    assert links["io-0-be"] == "5000000000Bps"


def test_dragonfly_is_explicit_and_seed_sized():
    model = generate(small(topology=DragonflyParams(p=2, a=4, h=2)))
    assert len(model.hosts_with("compute_node")) == 72
    # one global link per pair of the 9 groups
    assert len([name for name in model.links["interconnect"] if name.startswith("ic_global_")]) == 36


def test_dragonfly_hosts_give_the_allocators_hop_distances(tmp_path):
    """Explicit zones carry no topology SimGrid's cluster attributes would; the hosts'
    topology_path g<g>/r<r> does: 2 hops on one router, 4 in one group, 6 between groups."""
    from datasched.policy.platform import HostInfo
    from datasched.policy.topology import distances_for

    path = tmp_path / "df.xml"
    path.write_bytes(to_xml(generate(small(topology=DragonflyParams(p=2, a=4, h=2)))))
    hosts: list[HostInfo] = []
    for element in ET.parse(path).getroot().iter("host"):
        props = {str(p.get("id")): str(p.get("value")) for p in element.iter("prop")}
        if props.get("datasched_role") == "compute_node":
            hosts.append(HostInfo(len(hosts), str(element.get("id")), props))
    distances = distances_for(hosts, path)
    assert distances is not None
    m = distances.matrix  # ranks: (group * 4 + router) * 2 + slot
    assert m[0, 1] == 2 and m[0, 2] == 4 and m[0, 8] == 6


def test_setups():
    fwd = generate(ForwardingParams())
    assert fwd.role_counts() == {"master": 1, "compute_node": 32, "forwarder": 4, "io_server": 4}
    stg = generate(StagingParams())
    assert stg.role_counts() == {"master": 1, "compute_node": 160, "staging": 16}


def test_structural_checks_catch_errors():
    root = generate(small()).root
    link = next(root.iter("link"))
    link.set("bandwidth", "-5Bps")
    ET.SubElement(next(root.iter("zone")), "route", {"src": "nowhere", "dst": "master"})
    errors = check_tree(root)
    assert any("bandwidth" in e for e in errors)
    assert any("'nowhere'" in e for e in errors)


def test_catalog_is_up_to_date(tmp_path):
    """The checked-in XMLs equal a fresh `datasched platform catalog` run."""
    written = write_catalog(tmp_path)
    assert {p.name for p in written} == {f"{n}.xml" for n in catalog()}
    for path in written:
        checked_in = CATALOG_DIR / path.name
        assert checked_in.exists(), f"{path.name} missing from platforms/catalog (regenerate it)"
        assert checked_in.read_bytes() == path.read_bytes(), f"{path.name} is stale (regenerate it)"


@given(platform_params())
def test_random_valid_params_pass_structural_checks(params):
    data = to_xml(generate(params))
    assert check_bytes(data) == []
