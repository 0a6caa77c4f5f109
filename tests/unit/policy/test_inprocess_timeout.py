"""The in-process decision timeout: one decision round that takes longer than the bound
stops the run with one line naming the bound (the protocol path's ``--decision-timeout``),
and a round within the bound is answered as usual."""

from __future__ import annotations

import ctypes
import time

import pytest

from datasched.policy.inprocess import DecisionTimeout, _Decider


class _Session:
    """A stand-in for ProtocolSession: each round takes ``seconds`` of Python work."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def handle(self, message: bytes) -> bytes:
        end = time.monotonic() + self.seconds
        while time.monotonic() < end:  # busy, as a policy stuck in a loop would be
            pass
        return b"reply to " + message


def _call(decider: _Decider, message: bytes) -> tuple[int, bytes]:
    request = ctypes.create_string_buffer(message, len(message))
    reply = (ctypes.c_void_p * 1)()
    size = (ctypes.c_size_t * 1)()
    with decider.bounded():  # as run() wraps the engine's run
        code = decider(None, ctypes.addressof(request), len(message), reply, size)
    address = reply[0]
    return code, ctypes.string_at(address, size[0]) if code == 0 and address is not None else b""


def test_a_round_within_the_bound_is_answered():
    decider = _Decider(_Session(0.01), timeout_s=2.0)
    assert _call(decider, b"m") == (0, b"reply to m")
    assert decider.error is None


def test_a_round_beyond_the_bound_stops_with_one_line(capsys):
    """A 5 s round against a 0.2 s bound: the alarm raises inside the policy's code after
    0.2 s, the engine is told (status 1) and the one line names the bound."""
    decider = _Decider(_Session(5.0), timeout_s=0.2)
    start = time.monotonic()
    code, _ = _call(decider, b"m")
    assert code == 1
    assert time.monotonic() - start < 2.0
    assert isinstance(decider.error, DecisionTimeout)
    err = capsys.readouterr().err
    assert err == (
        "datasched: error: the policy did not decide within 0.2 s (one decision round; see --decision-timeout)\n"
    )


def test_no_bound_means_no_alarm():
    """timeout_s = 0: the round runs to its end however long (the library's default)."""
    decider = _Decider(_Session(0.3), timeout_s=0.0)
    assert _call(decider, b"m")[0] == 0


def test_the_alarm_is_disarmed_after_each_round():
    """A round that ends in time leaves no alarm behind to fire during the engine's work, and
    the run's end restores the previous handler."""
    import signal

    decider = _Decider(_Session(0.0), timeout_s=0.5)
    before = signal.getsignal(signal.SIGALRM)
    _call(decider, b"m")
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before
    time.sleep(0.6)  # would be interrupted by a stray alarm's DecisionTimeout


@pytest.mark.parametrize("value", ["-1"])
def test_a_negative_bound_is_refused(value, capsys, monkeypatch):
    from datasched.engine import PRELOADED_VARIABLE
    from datasched.policy.inprocess import main

    monkeypatch.setenv(PRELOADED_VARIABLE, "1")  # main() must not re-execute pytest
    assert main(["--policy", "fcfs", "--timeout", value, "--", "-p", "x.xml"]) == 2
    assert "--timeout must be >= 0 seconds, not -1" in capsys.readouterr().err


def test_a_run_off_the_main_thread_is_not_bounded():
    """Signals reach Python's main thread only: on another thread the round runs unbounded
    (and setting a handler there would fail the round)."""
    import threading

    results: list[tuple[int, bytes]] = []
    decider = _Decider(_Session(0.3), timeout_s=0.1)
    worker = threading.Thread(target=lambda: results.append(_call(decider, b"m")))
    worker.start()
    worker.join()
    assert results == [(0, b"reply to m")]
