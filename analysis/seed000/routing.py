"""The interconnect routing a seed-000 platform file declares, and the sentence the reports of
Figures 7, 8 and 10 say about it (Figure 6 has its own section: ``fig6.report_routing``)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def platform_routing(path: Path) -> str:
    """The interconnect routing a platform file declares: the dragonfly's root-zone property
    ``routing`` (``minimal`` when absent: files written before the option), ``DOR`` for a
    torus, ``static`` for a fat-tree (SimGrid's own routing of each)."""
    import xml.etree.ElementTree as ET

    root = ET.parse(path).getroot().find("zone")
    zone_props = {p.get("id"): p.get("value") for p in root.findall("prop")} if root is not None else {}
    topology = zone_props.get("topology")
    if topology == "torus":
        return "DOR"
    if topology == "fat_tree":
        return "static"
    return str(zone_props.get("routing", "minimal"))


def dragonfly_routing_note(platforms: Iterable[Path]) -> str:
    """What the dragonfly platforms of a run route with (each file says: platforms/README.md);
    a path that is not a file (a unit test's placeholder) says nothing."""
    routings = sorted({platform_routing(Path(p)) for p in platforms if Path(p).is_file()} - {"DOR", "static"})
    if not routings:
        return "Routing on the dragonfly: see platforms/README.md (Valiant in the paper)."
    if routings == ["valiant"]:
        return (
            "The dragonfly routes with Valiant as in the paper, with one seeded intermediate group per pair of "
            "routers rather than per flow (docs/design.md, \"Routing as seed 000 has it\")."
        )
    return f"Routing on the dragonfly is {', '.join(routings)} here, Valiant in the paper."
