"""Count-based availability profile for backfilling reservations.

``free(t)`` is a step function: how many compute hosts are free (or not yet
reserved) at time ``t``. Host identities are left out on purpose: when any large
enough set of free hosts is acceptable (see ``Allocator.any_subset_fits``), a
schedule that respects the counts at every instant can always be given concrete
hosts at each job's start, so counts are exact and much cheaper than host sets.
"""

from __future__ import annotations

import bisect
import math


class CapacityProfile:
    def __init__(self, nb_hosts: int, now: float) -> None:
        self.nb_hosts = nb_hosts
        self.times: list[float] = [now]  # free[i] holds over [times[i], times[i+1])
        self.free: list[int] = [nb_hosts]

    def _split(self, t: float) -> int:
        """Index of the step starting exactly at ``t`` (created if needed); ``t`` finite."""
        i = bisect.bisect_right(self.times, t) - 1
        if i < 0:
            raise ValueError(f"time {t} is before the profile start {self.times[0]}")
        if self.times[i] == t:
            return i
        self.times.insert(i + 1, t)
        self.free.insert(i + 1, self.free[i])
        return i + 1

    def _add(self, start: float, end: float, delta: int) -> None:
        start = max(start, self.times[0])
        if end <= start:
            return
        first = self._split(start)
        last = len(self.times) if math.isinf(end) else self._split(end)
        for i in range(first, last):
            self.free[i] += delta

    def occupy(self, start: float, end: float, count: int) -> None:
        self._add(start, end, -count)

    def release(self, start: float, end: float, count: int) -> None:
        self._add(start, end, count)

    def free_at(self, t: float) -> int:
        i = bisect.bisect_right(self.times, t) - 1
        return self.free[max(i, 0)]

    def earliest_start(self, after: float, duration: float, count: int) -> float:
        """Earliest ``t >= after`` with at least ``count`` free hosts over ``[t, t+duration)``."""
        if count > self.nb_hosts:
            return math.inf
        i = max(bisect.bisect_right(self.times, after) - 1, 0)
        candidate = max(after, self.times[0])
        while i < len(self.times):
            end = candidate + duration
            j = i
            feasible = True
            # the step holding ``candidate`` counts even for a zero-length job: it needs hosts too
            while j < len(self.times) and (self.times[j] < end or j == i):
                if self.free[j] < count:
                    feasible = False
                    break
                j += 1
            if feasible:
                return candidate
            # restart right after the blocking step
            i = j + 1
            if i >= len(self.times):
                return math.inf
            candidate = self.times[i]
        return math.inf
