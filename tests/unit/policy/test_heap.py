"""The decision process's start-up heap: the collector is off until the policy has begun,
then every object alive is frozen out of its reach and automatic collection resumes; and the decision
process's environment keeps numpy's BLAS on one thread unless the user chose otherwise."""

from __future__ import annotations

import gc

import pytest

from datasched.policy.heap import defer_collection, set_aside_startup_heap
from datasched.runner import decision_environment


@pytest.fixture
def restored_collector():
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    if enabled:
        gc.enable()
    else:
        gc.disable()


def test_collection_waits_for_the_start_up_heap_then_resumes(restored_collector):
    defer_collection()
    assert not gc.isenabled()
    kept = [[i] for i in range(100)]  # a start-up table: 100 containers the collector tracks
    set_aside_startup_heap()
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(kept)  # out of the collector's reach


def test_blas_runs_on_one_thread_unless_the_user_said_otherwise(monkeypatch):
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    assert decision_environment()["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    assert decision_environment()["OPENBLAS_NUM_THREADS"] == "4"
