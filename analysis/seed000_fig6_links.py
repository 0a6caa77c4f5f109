"""Which link limits Figure 6's remote NVM reads, under which routing: the bytes each link of
the 72-node (2,4,2) dragonfly carries in one read phase's remote tier, per storage
assignment, access pattern and routing, worked out from the routes alone.

Why this is enough to explain Affinity against Disperse: the engine runs a phase's remote
reads as one SimGrid parallel task, whose flows advance together at the rate its busiest link
allows (``ptask_L07``), so alone the tier takes ``max over links (bytes / capacity)``. The
routes are those of :mod:`datasched.platforms.dragonfly`, which the platform tests check
against the routes SimGrid returns; the device choice is the engine's
(``sim/src/execution/phase_plan.cpp``): Disperse reads ``R / k'`` from each of the k' devices
not on the task's node, Affinity reads R from device ``floor(i * k / m)``, a task whose device is
its own node reads locally.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from datasched.platforms import dragonfly as df

#: The (2,4,2) dragonfly of Figure 6: p nodes per router, a routers per group, h global ports
#: per router, g groups; every link 1.25 GB/s, the NVM read link 2 GB/s.
P, A, H, GROUPS = 2, 4, 2, 9
NODES = P * A * GROUPS
LINK_BW, NVM_READ_BW = 1.25e9, 2e9


def device_nodes(k: int, tasks: int, placement: str) -> list[int]:
    """Ranks of the k devices: the first k nodes (the engine's default, ``first``) or the first
    task of each Affinity group (``spread``, schedulers/storage_internal.py)."""
    if placement == "first":
        return list(range(k))
    return [-(-j * tasks // k) for j in range(k)]


def remote_flows(k: int, access: str, tasks: int = NODES, placement: str = "first") -> list[tuple[int, int, float]]:
    """(device node, task node, share of the task's remote bytes R) of one remote tier."""
    devices = device_nodes(k, tasks, placement)
    flows = []
    for task in range(tasks):
        if access == "affinity":
            targets = [devices[task * k // tasks]]
        else:
            targets = [d for d in devices if d != task] or devices
        flows += [(d, task, 1.0 / len(targets)) for d in targets if d != task]
    return flows


def _node_link(rank: int) -> str:
    g, r = divmod(rank // P, A)
    return f"ic_g{g}_r{r}_n{rank % P}"


def link_loads(flows: Sequence[tuple[int, int, float]], routing: str, seed: int = 1) -> Counter:
    """Bytes (in units of R) per (link, direction), and per device read link ("nvm<rank>", "read")."""
    loads: Counter = Counter()
    for device, task, share in flows:
        src, dst = divmod(device // P, A), divmod(task // P, A)
        loads[(f"nvm{device}", "read")] += share
        loads[(_node_link(device), "UP")] += share
        for hop in df.router_path(src, dst, H, GROUPS, routing, seed):  # type: ignore[arg-type]
            loads[hop] += share
        loads[(_node_link(task), "DOWN")] += share
    return loads


@dataclass(frozen=True)
class Bottleneck:
    """The busiest link of each kind, in units of R, and the tier's time alone in units of
    R / 1.25 GB/s (the NVM read link counts at 1.25/2 of its load: it is 2 GB/s)."""

    device: float
    node: float
    local: float
    global_: float

    @property
    def time(self) -> float:
        return max(self.device * LINK_BW / NVM_READ_BW, self.node, self.local, self.global_)

    @property
    def limit(self) -> str:
        kinds = {
            "device NVM": self.device * LINK_BW / NVM_READ_BW,
            "node link": self.node,
            "local link": self.local,
            "global link": self.global_,
        }
        return max(kinds, key=lambda name: kinds[name])


def bottleneck(loads: Counter) -> Bottleneck:
    def busiest(kind) -> float:
        return max((v for (link, _), v in loads.items() if kind(link)), default=0.0)

    return Bottleneck(
        device=busiest(lambda link: link.startswith("nvm")),
        node=busiest(lambda link: link.startswith("ic_g") and "_n" in link),
        local=busiest(lambda link: link.startswith("ic_g") and "_n" not in link and "global" not in link),
        global_=busiest(lambda link: link.startswith("ic_global_")),
    )


def table(stg_k: Sequence[int], seed: int = 1) -> list[dict[str, object]]:
    """One row per (STG-k, access, routing) for the report, with Affinity's time over Disperse's."""
    rows = []
    for k in stg_k:
        for routing in ("minimal", "valiant"):
            disperse = bottleneck(link_loads(remote_flows(k, "disperse"), routing, seed))
            for label, access, placement in (
                ("D", "disperse", "first"),
                ("A", "affinity", "first"),
                ("As", "affinity", "spread"),
            ):
                b = bottleneck(link_loads(remote_flows(k, access, placement=placement), routing, seed))
                rows.append(
                    {
                        "stg": f"stg-{k}",
                        "routing": routing,
                        "access": label,
                        "device": b.device,
                        "node": b.node,
                        "local": b.local,
                        "global": b.global_,
                        "time": b.time,
                        "limit": b.limit,
                        "vs_disperse": b.time / disperse.time,
                    }
                )
    return rows
