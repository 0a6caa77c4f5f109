"""Our own minimal checks of the SimGrid platform format (DTD version 4.1 subset we emit).

There is no DTD file on this machine and we do not vendor one: loading the file in
SimGrid (``datasched-sim --inspect``) is the authoritative check. These checks catch
mistakes earlier and with clearer messages: element/attribute names and order, required
attributes, enumerations, positive numbers, unique ids, dangling references, Batsim
roles (exactly one ``master``; ``role`` only master/compute_node/storage).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from .model import BATSIM_ROLES, DATASCHED_ROLES, PlatformModel

# element -> (required attributes, optional attributes, allowed children)
_SCHEMA: dict[str, tuple[set[str], set[str], set[str]]] = {
    "platform": ({"version"}, set(), {"zone"}),
    "zone": (
        {"id", "routing"},
        set(),
        {"prop", "zone", "cluster", "host", "router", "link", "host_link", "route", "zoneRoute"},
    ),
    "host_link": ({"id", "up", "down"}, set(), set()),
    "cluster": (
        {"id", "prefix", "suffix", "radical", "speed", "bw", "lat"},
        {"core", "sharing_policy", "topology", "topo_parameters", "loopback_bw", "loopback_lat", "router_id"},
        {"prop"},
    ),
    "host": ({"id", "speed"}, {"core"}, {"prop", "disk"}),
    "disk": ({"id", "read_bw", "write_bw"}, set(), {"prop"}),
    "prop": ({"id", "value"}, set(), set()),
    "router": ({"id"}, set(), set()),
    "link": ({"id", "bandwidth"}, {"latency", "sharing_policy"}, {"prop"}),
    "route": ({"src", "dst"}, {"symmetrical"}, {"link_ctn"}),
    "zoneRoute": ({"src", "dst", "gw_src", "gw_dst"}, {"symmetrical"}, {"link_ctn"}),
    "link_ctn": ({"id"}, {"direction"}, set()),
}
_ROUTING = {"Full", "Floyd", "Dijkstra", "DijkstraCache", "None", "Cluster"}
_SHARING = {"SHARED", "SPLITDUPLEX", "FATPIPE"}
_DIRECTION = {"UP", "DOWN", "NONE"}
_YESNO = {"YES", "NO"}
_TOPOLOGY = {"FLAT", "TORUS", "FAT_TREE", "DRAGONFLY"}
_ZONE_ORDER = {
    "prop": 0,
    "zone": 1,
    "cluster": 1,
    "host": 1,
    "router": 1,
    "link": 1,
    "host_link": 1,
    "route": 2,
    "zoneRoute": 2,
}
_QUANTITY = re.compile(r"^([0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)(Bps|s|f)$")


class PlatformCheckError(ValueError):
    """The generated XML breaks a rule of the platform format or of our conventions."""


def _quantity(value: str, unit: str, positive: bool) -> str | None:
    match = _QUANTITY.match(value)
    if not match or match.group(4) != unit:
        return f"{value!r} is not a number in {unit}"
    number = float(match.group(1))
    if positive and number <= 0:
        return f"{value!r} must be > 0"
    return None


def check_tree(root: ET.Element) -> list[str]:
    """Return every problem found (empty list = passes)."""
    errors: list[str] = []
    if root.tag != "platform" or root.get("version") != "4.1":
        errors.append("root must be <platform version=\"4.1\">")
    ids: dict[str, str] = {}
    links: set[str] = set()
    masters = 0
    generated_links = False

    def visit(el: ET.Element, parent: ET.Element | None) -> None:
        nonlocal masters, generated_links
        spec = _SCHEMA.get(el.tag)
        if spec is None:
            errors.append(f"unknown element <{el.tag}>")
            return
        required, optional, children = spec
        missing = required - set(el.keys())
        extra = set(el.keys()) - required - optional
        if missing:
            errors.append(f"<{el.tag} {el.get('id', '')}> lacks {sorted(missing)}")
        if extra:
            errors.append(f"<{el.tag} {el.get('id', '')}> has unknown attributes {sorted(extra)}")
        for child in el:
            if child.tag not in children:
                errors.append(f"<{child.tag}> not allowed in <{el.tag} {el.get('id', '')}>")
        if el.tag == "zone":
            ranks = [_ZONE_ORDER.get(c.tag, 1) for c in el]
            if ranks != sorted(ranks):
                errors.append(f"zone {el.get('id')}: props, then resources, then routes")
            if el.get("routing") not in _ROUTING:
                errors.append(f"zone {el.get('id')}: unknown routing {el.get('routing')!r}")
        if el.tag in ("zone", "cluster", "host", "router", "link"):
            ident = el.get("id", "")
            if ident in ids:
                errors.append(f"duplicate id {ident!r} ({ids[ident]} and {el.tag})")
            ids[ident] = el.tag
        if el.tag == "link":
            links.add(el.get("id", ""))
            if problem := _quantity(el.get("bandwidth", ""), "Bps", True):
                errors.append(f"link {el.get('id')}: bandwidth {problem}")
            if "latency" in el.keys() and (problem := _quantity(el.get("latency", ""), "s", False)):
                errors.append(f"link {el.get('id')}: latency {problem}")
            if el.get("sharing_policy", "SHARED") not in _SHARING:
                errors.append(f"link {el.get('id')}: bad sharing_policy")
        if el.tag == "host":
            if problem := _quantity(el.get("speed", ""), "f", True):
                errors.append(f"host {el.get('id')}: speed {problem}")
            host_props = {p.get("id"): p.get("value") for p in el.findall("prop")}
            role = host_props.get("role", "compute_node")
            if role not in BATSIM_ROLES:
                errors.append(f"host {el.get('id')}: role {role!r} is not a Batsim role")
            masters += role == "master"
            ours = host_props.get("datasched_role")
            if ours is not None and DATASCHED_ROLES.get(ours) != role:
                errors.append(f"host {el.get('id')}: datasched_role {ours!r} needs role {DATASCHED_ROLES.get(ours)!r}")
        if el.tag == "disk":
            for attr in ("read_bw", "write_bw"):
                if problem := _quantity(el.get(attr, ""), "Bps", True):
                    errors.append(f"disk {el.get('id')}: {attr} {problem}")
        if el.tag == "cluster":
            generated_links = True
            if el.get("topology", "FLAT") not in _TOPOLOGY:
                errors.append(f"cluster {el.get('id')}: unknown topology")
            for attr in ("bw", "loopback_bw"):
                if attr in el.keys() and (problem := _quantity(el.get(attr, ""), "Bps", True)):
                    errors.append(f"cluster {el.get('id')}: {attr} {problem}")
            role = {p.get("id"): p.get("value") for p in el.findall("prop")}.get("role", "compute_node")
            if role == "master":
                errors.append("a cluster cannot hold the master host")
        if el.tag in ("route", "zoneRoute") and el.get("symmetrical", "YES") not in _YESNO:
            errors.append(f"{el.tag} {el.get('src')}->{el.get('dst')}: bad symmetrical")
        if el.tag == "link_ctn" and el.get("direction", "NONE") not in _DIRECTION:
            errors.append(f"link_ctn {el.get('id')}: bad direction")
        for child in el:
            visit(child, el)

    visit(root, None)
    if masters != 1:
        errors.append(f"exactly one master host required, found {masters}")
    # References, checked once every id is known.
    for ctn in root.iter("link_ctn"):
        if ctn.get("id") not in links:
            errors.append(f"link_ctn refers to unknown link {ctn.get('id')!r}")
    for hl in root.iter("host_link"):
        if ids.get(hl.get("id", "")) != "host":
            errors.append(f"host_link {hl.get('id')!r} is not a host")
        for end in ("up", "down"):
            base = hl.get(end, "").removesuffix("_UP").removesuffix("_DOWN")
            if base not in links:
                errors.append(f"host_link {hl.get('id')}: unknown link {hl.get(end)!r}")
    for route in root.iter("route"):
        for end in ("src", "dst"):
            if ids.get(route.get(end, "")) not in ("host", "router"):
                errors.append(f"route {end} {route.get(end)!r} is not a host or router")
    for zr in root.iter("zoneRoute"):
        for end in ("src", "dst"):
            if ids.get(zr.get(end, "")) not in ("zone", "cluster"):
                errors.append(f"zoneRoute {end} {zr.get(end)!r} is not a zone")
        for end in ("gw_src", "gw_dst"):
            if zr.get(end, "") not in ids and not generated_links:
                errors.append(f"zoneRoute {end} {zr.get(end)!r} is unknown")
    return errors


def check_model(model: PlatformModel) -> None:
    errors = check_tree(model.root)
    if errors:
        shown = "; ".join(errors[:10])
        raise PlatformCheckError(f"platform {model.name!r}: {len(errors)} problem(s): {shown}")


def check_bytes(data: bytes) -> list[str]:
    """Check a serialised platform, including the DOCTYPE line. Bytes that are not
    UTF-8 or not well-formed XML are one problem each, like any other (never an
    exception)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"]
    if '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">' not in text.split("<platform", 1)[0]:
        return ["missing SimGrid DOCTYPE"]
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        return [f"not well-formed XML: {exc}"]
    return check_tree(root)
