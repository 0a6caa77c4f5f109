"""The free compute hosts of a queue policy: a set of ids ``0 .. n-1`` kept in order.

Why not a ``SortedSet``: a queue policy adds and removes whole allocations (tens to
hundreds of hosts) at every start and end, and hands the allocator the free hosts in
ascending order at every allocation. A sorted set pays a Python-level insertion or
deletion per host (on a 50,000-job trace that was a quarter of the decision
process's time). Here the set is one flag per host in a NumPy array: adding or
removing an allocation is one vectorised assignment, and the ascending tuple is built
in C once per change and cached until the next one.

Reads are those of a sorted set of ints: ``len``, truth value, ``in``, iteration in
ascending order, and :meth:`ascending` for the tuple itself.
(``tests/unit/policy/test_hostset.py`` checks it against a plain ``set`` on random
operation sequences.)
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator

import numpy as np


class HostSet:
    __slots__ = ("_ascending", "_count", "_flags")

    def __init__(self, nb_hosts: int, hosts: Iterable[int] = ()) -> None:
        self._flags = np.zeros(nb_hosts, dtype=bool)
        self._count = 0
        self._ascending: tuple[int, ...] | None = ()
        self.update(hosts)

    @classmethod
    def full(cls, nb_hosts: int) -> HostSet:
        """Every host ``0 .. nb_hosts-1``."""
        hosts = cls(nb_hosts)
        hosts._flags[:] = True
        hosts._count = nb_hosts
        hosts._ascending = None
        return hosts

    @property
    def capacity(self) -> int:
        """Number of host ids this set can hold (``0 .. capacity-1``)."""
        return len(self._flags)

    def _indices(self, hosts: Iterable[int]) -> list[int]:
        indices = hosts if isinstance(hosts, list) else list(hosts)
        if indices and (min(indices) < 0 or max(indices) >= len(self._flags)):
            raise ValueError(f"host ids must be in 0..{len(self._flags) - 1}: {sorted(indices)}")
        return indices

    def update(self, hosts: Iterable[int]) -> None:
        """Add ``hosts``."""
        indices = self._indices(hosts)
        if indices:
            self._flags[indices] = True
            self._changed()

    def difference_update(self, hosts: Iterable[int]) -> None:
        """Remove ``hosts`` (those absent are ignored)."""
        indices = self._indices(hosts)
        if indices:
            self._flags[indices] = False
            self._changed()

    def _changed(self) -> None:
        self._count = int(np.count_nonzero(self._flags))
        self._ascending = None

    def ascending(self) -> tuple[int, ...]:
        """The hosts in ascending order (cached until the set changes)."""
        if self._ascending is None:
            self._ascending = tuple(np.flatnonzero(self._flags).tolist())
        return self._ascending

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0

    def __contains__(self, host: object) -> bool:
        try:
            index = operator.index(host)  # type: ignore[arg-type]
        except TypeError:
            return False
        return 0 <= index < len(self._flags) and bool(self._flags[index])

    def __iter__(self) -> Iterator[int]:
        return iter(self.ascending())

    def __repr__(self) -> str:
        return f"HostSet({list(self.ascending())!r})"
