"""Staging-aware allocation by write volume: the job's writing hosts behind the staging server with
the fewest bytes still to come from the jobs this allocator placed.

Why: ``staging_spread`` orders the servers by how busy their groups of hosts are, a stateless
proxy that sees neither how much a running job writes nor where its writers sit (a job's writes
leave from its first ``io_tasks`` hosts only). In the burst-buffers quick artifact it did not even
out the servers (the busiest of 4 absorbed 45 % of the bytes, as under ``sequential``).

This allocator reads what a job will write from its ``datasched_phases`` profile: per write phase,
``bytes`` from each of its writers (the first ``min(nodes, io_tasks)`` hosts of the allocation),
less the ``mem_hit_pct`` share that stays in the node's memory (workloads/README.md, section 3).
It keeps a ledger: for each job it placed, the bytes each server will absorb from it. A job
leaves the ledger once one of its hosts is free again (it ended: the engine frees a job's hosts
together). The next job's lowest host goes to the group of the server with the fewest bytes in
the ledger (ties: the least busy group, then the lowest index), its other hosts as
``staging_spread`` places them.

What it cannot see: a running job's progress (its whole volume counts until it ends), jobs placed
by another allocator, and a reservation: EASY asks its allocator for the head job's future hosts,
and that choice sits in the ledger until the job starts (its entry is then replaced) or one of
those hosts is free. Jobs without a forwarded phase profile count as writing nothing. Without
staging servers it is sequential allocation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from datasched.policy.allocation import AllocationRequest, Allocator
from datasched.policy.params import PolicyParams
from datasched.policy.registry import register_allocator
from datasched.schedulers.alloc_staging_spread import place_by_groups


@register_allocator
class StagingBytesAllocator(Allocator):
    name = "staging_bytes"
    description = "the job's writing hosts behind the staging server with the fewest bytes still to absorb"

    def __init__(self, params: PolicyParams) -> None:
        super().__init__(params)
        self.ledger: dict[str, tuple[frozenset[int], dict[int, float]]] = {}  # job -> (hosts, server -> bytes)

    def choose(self, request: AllocationRequest) -> tuple[int, ...] | None:
        staging = request.platform.storage.staging
        free = set(request.free_hosts)
        self.ledger = {job: entry for job, entry in self.ledger.items() if not entry[0] & free}
        queued: dict[int, float] = {}
        for _, charged in self.ledger.values():
            for server, amount in charged.items():
                queued[server] = queued.get(server, 0.0) + amount
        hosts = place_by_groups(request, lambda group, busy: (queued.get(group, 0.0), busy, group))
        if hosts is not None and staging is not None and staging.servers:
            per_server: dict[int, float] = {}
            for writers, amount in writes_per_task(request.job.profile, len(hosts)):
                for host in hosts[:writers]:
                    server = staging.server_of_host.get(host, -1)
                    per_server[server] = per_server.get(server, 0.0) + amount
            self.ledger[request.job.id] = (frozenset(hosts), per_server)
        return hosts


def writes_per_task(profile: Mapping[str, Any], nb_hosts: int) -> Sequence[tuple[int, float]]:
    """Per write phase of a ``datasched_phases`` profile: (writers, bytes each sends off the node).

    Writers are the first ``min(nodes, io_tasks)`` hosts (``nodes`` defaults to all, ``io_tasks``
    to the job's hosts); the ``mem_hit_pct`` share of the bytes stays in memory. Anything else
    (another profile type, a profile not forwarded, malformed numbers) writes nothing here: the
    engine has already refused a malformed profile when it read the workload.
    """
    if not profile or profile.get("type") != "datasched_phases":
        return ()
    storage = profile.get("storage")
    memory = _number(storage.get("mem_hit_pct"), 0.0) if isinstance(storage, Mapping) else 0.0
    io_tasks = int(_number(profile.get("io_tasks"), nb_hosts))
    out = []
    for phase in profile.get("phases") or ():
        if isinstance(phase, Mapping) and phase.get("kind") == "write":
            active = int(_number(phase.get("nodes"), nb_hosts))
            writers = max(0, min(active, io_tasks, nb_hosts))
            amount = _number(phase.get("bytes"), 0.0) * (1.0 - memory / 100.0)
            if writers and amount > 0:
                out.append((writers, amount))
    return out


def _number(value: object, default: float) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
        return float(value)
    return default
