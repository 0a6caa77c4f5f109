"""The decision process's start-up heap, set aside from the garbage collector.

Everything alive once a policy has begun (imported modules, the platform's parsed tree:
about 100,000 elements for a 600-host dragonfly, the policy's own tables) lives for the
whole run. Python's cyclic collector still traversed all of it at every full collection,
and the per-event objects of a long run trigger many: on seed 000's paper-sized Figure 9
runs the collector was over a quarter of the decision process's CPU. ``gc.freeze()`` moves
those objects to a permanent generation the collector no longer visits; objects created
later are collected as before, so nothing else changes. Until then the collector is off
(:func:`defer_collection`): start-up allocates little garbage but many long-lived objects,
and parsing the platform alone triggered dozens of full collections over a growing heap."""

from __future__ import annotations

import gc


def defer_collection() -> None:
    """Turns the cyclic collector off until :func:`set_aside_startup_heap` (call at the
    start of a process that will run one simulation)."""
    gc.disable()


def set_aside_startup_heap() -> None:
    """Freezes every object alive now and turns the collector (back) on: call once the
    policy has begun."""
    gc.collect()
    gc.freeze()
    gc.enable()
