"""Conservative backfilling: a reservation for every queued job.

Every waiting job holds a reservation in a host-count profile built from running
jobs' requested walltimes. At each event the queue is compressed in submission
order: a job leaves its slot and takes the earliest slot that fits given all other
reservations — never later than the one it had, since that slot is still free.
A job starts when its reservation is now. So no job's reservation ever moves
later, as long as jobs run no longer than their walltimes (Batsim kills them at
the walltime).

One exception is handled by keeping the old slot: on an engine, a reservation is
often reached a few microseconds late (the end that frees its hosts reaches the
policy after the protocol's message delays), so the job's window, re-placed at "now",
overlaps by those microseconds the next reservation that starts exactly at its old
end, and the profile would push the job thousands of seconds later (seen on the
hpc2n quick run: 34 times, e.g. 4 us late -> 5,597 s later). The job keeps its slot
instead; ``clamped`` records each case. In memory (no message delays) it never fires
(tests/unit/schedulers/test_policy_properties.py).
"""

from __future__ import annotations

import math

from datasched.policy.decisions import Decision
from datasched.policy.profile import CapacityProfile
from datasched.policy.queue import QueuePolicy
from datasched.policy.registry import register_policy


@register_policy
class Conservative(QueuePolicy):
    name = "conservative"
    description = "conservative backfilling: every queued job keeps a reservation that never moves later"

    def __init__(self, params) -> None:
        super().__init__(params)
        self.reservations: dict[str, float] = {}
        #: every reservation each job was given, in order (for tests and diagnostics)
        self.reservation_history: dict[str, list[float]] = {}
        #: (job, kept reservation, later slot the profile computed) each time the guard fired
        self.clamped: list[tuple[str, float, float]] = []

    def schedule(self, now: float) -> list[Decision]:
        profile = CapacityProfile(self.platform.nb_hosts, now)
        for running in self.running.values():
            profile.occupy(now, max(running.expected_end, now), len(running.hosts))
        queue = list(self.waiting.values())
        for job in queue:
            if job.id in self.reservations:
                start = max(self.reservations[job.id], now)
                profile.occupy(start, start + self._duration(job), job.requested_hosts)
        for job in queue:
            duration = self._duration(job)
            old = self.reservations.get(job.id)
            if old is not None:
                old = max(old, now)
                profile.release(old, old + duration, job.requested_hosts)
            start = profile.earliest_start(now, duration, job.requested_hosts)
            if old is not None and start > old:
                # reached microseconds late (message delays): keep the slot (see the module docstring)
                self.clamped.append((job.id, old, start))
                start = old
            profile.occupy(start, start + duration, job.requested_hosts)
            self.reservations[job.id] = start
            history = self.reservation_history.setdefault(job.id, [])
            if not history or history[-1] != start:
                history.append(start)
        started: list[Decision] = []
        for job in queue:
            if self.reservations[job.id] <= now:
                decision = self.try_start(job, now)
                if decision is not None:
                    started.append(decision)
                    del self.reservations[job.id]
        return started

    @staticmethod
    def _duration(job) -> float:
        return math.inf if job.walltime is None else job.walltime
