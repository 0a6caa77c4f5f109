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

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from datasched.platforms import dragonfly as df

#: The (2,4,2) dragonfly of Figure 6: p nodes per router, a routers per group, h global ports
#: per router, g groups; every link 1.25 GB/s, the NVM read link 2 GB/s.
P, A, H, GROUPS = 2, 4, 2, 9


NODES = P * A * GROUPS


LINK_BW, NVM_READ_BW, NVM_WRITE_BW = 1.25e9, 2e9, 1e9


#: Bytes per (link, direction), and per device link ("nvm<rank>", "read" | "write").
Loads = defaultdict[tuple[str, str], float]


def device_nodes(k: int, tasks: int, placement: str) -> list[int]:
    """Ranks of the k devices: the first k nodes (the engine's default, ``first``) or the first
    task of each Affinity group (``spread``, schedulers/storage_internal.py)."""
    if placement == "first":
        return list(range(k))
    return [-(-j * tasks // k) for j in range(k)]


def remote_flows(
    k: int, access: str, tasks: int = NODES, placement: str = "first", keep_own: bool = False
) -> list[tuple[int, int, float]]:
    """(device node, task node, share of the task's remote bytes R) of one remote tier; a
    share whose device is the task's own node is read locally (kept only with ``keep_own``)."""
    devices = device_nodes(k, tasks, placement)
    flows = []
    for task in range(tasks):
        if access == "affinity":
            targets = [devices[task * k // tasks]]
        else:
            targets = [d for d in devices if d != task] or devices
        flows += [(d, task, 1.0 / len(targets)) for d in targets if keep_own or d != task]
    return flows


def _node_link(rank: int) -> str:
    g, r = divmod(rank // P, A)
    return f"ic_g{g}_r{r}_n{rank % P}"


def link_loads(
    flows: Sequence[tuple[int, int, float]],
    routing: str,
    seed: int = 1,
    op: str = "read",
    local: Sequence[float] | None = None,
) -> Loads:
    """Bytes (in units of the remote share's unit) per (link, direction) and per device link
    (``("nvm<rank>", "read" | "write")``) of one I/O phase: the remote flows (read: device ->
    task; write: task -> device) and, if given, ``local[x]`` bytes that task x moves to or
    from its own NVM (the local tier, which shares the NVM link with the remote one)."""
    loads: Loads = defaultdict(float)
    for device, task, share in flows:
        src, dst = divmod(device // P, A), divmod(task // P, A)
        if op == "write":
            src, dst = dst, src
        loads[(f"nvm{device}", op)] += share
        loads[(_node_link(device), "UP" if op == "read" else "DOWN")] += share
        for hop in df.router_path(src, dst, H, GROUPS, routing, seed):  # type: ignore[arg-type]
            loads[hop] += share
        loads[(_node_link(task), "DOWN" if op == "read" else "UP")] += share
    for task, nbytes in enumerate(local or ()):
        if nbytes:
            loads[(f"nvm{task}", op)] += nbytes
    return loads


def local_bytes(k: int, access: str, remote: float, tasks: int = NODES, placement: str = "first") -> list[float]:
    """Per task, the device bytes (unit: the task's device bytes) that stay on its own NVM:
    the ``1 - remote`` share, plus the remote share of a device that is its own node."""
    own = [1.0 - remote] * tasks
    for device, task, share in remote_flows(k, access, tasks, placement, keep_own=True):
        if device == task:
            own[task] += remote * share
    return own


def phase_loads(k: int, access: str, placement: str, remote: float, op: str, routing: str, seed: int = 1) -> Loads:
    """Every link's bytes in one read or write phase of Figure 6's application, in units of a
    task's device bytes (its bytes not served by memory), ``remote`` of them from the devices."""
    flows = [(d, t, remote * share) for d, t, share in remote_flows(k, access, placement=placement)]
    return link_loads(flows, routing, seed, op, local_bytes(k, access, remote, placement=placement))


@dataclass(frozen=True)
class Bottleneck:
    """The busiest link of each kind (bytes, in the loads' unit) and the phase's time alone
    in units of that many bytes at 1.25 GB/s: the NVM link counts at 1.25/2 of its load for
    reads (2 GB/s) and at its load for writes (1 GB/s). A lower bound of the phase's time, and
    its value when one link limits every tier (the tiers share it and it stays busy)."""

    device: float
    node: float
    local: float
    global_: float
    op: str = "read"

    @property
    def _device_time(self) -> float:
        return self.device * LINK_BW / (NVM_READ_BW if self.op == "read" else NVM_WRITE_BW)

    @property
    def time(self) -> float:
        return max(self._device_time, self.node, self.local, self.global_)

    @property
    def limit(self) -> str:
        kinds = {
            f"device NVM {self.op}": self._device_time,
            "node link": self.node,
            "local link": self.local,
            "global link": self.global_,
        }
        return max(kinds, key=lambda name: kinds[name])


def bottleneck(loads: Loads, op: str = "read") -> Bottleneck:
    def busiest(kind) -> float:
        return max((v for (link, _), v in loads.items() if kind(link)), default=0.0)

    return Bottleneck(
        device=busiest(lambda link: link.startswith("nvm")),
        node=busiest(lambda link: link.startswith("ic_g") and "_n" in link),
        local=busiest(lambda link: link.startswith("ic_g") and "_n" not in link and "global" not in link),
        global_=busiest(lambda link: link.startswith("ic_global_")),
        op=op,
    )


#: The access patterns of Figure 6's panels b/d: label, access, device placement.
PATTERNS = (("D", "disperse", "first"), ("A", "affinity", "first"), ("As", "affinity", "spread"))


def table(stg_k: Sequence[int], remote: float = 0.5, seed: int = 1) -> list[dict[str, Any]]:
    """One row per (STG-k, routing, operation, access pattern): the busiest links of one I/O
    phase with ``remote`` of its device bytes remote, its time alone (unit: a task's device
    bytes at 1.25 GB/s) and Affinity's time over Disperse's."""
    rows = []
    for k in stg_k:
        for routing in ("minimal", "valiant"):
            for op in ("read", "write"):
                times = {}
                for label, access, placement in PATTERNS:
                    b = bottleneck(phase_loads(k, access, placement, remote, op, routing, seed), op)
                    times[label] = b.time
                    rows.append(
                        {
                            "stg": f"stg-{k}",
                            "routing": routing,
                            "op": op,
                            "access": label,
                            "time": b.time,
                            "limit": b.limit,
                            "vs_disperse": b.time / times["D"],
                        }
                    )
    return rows
