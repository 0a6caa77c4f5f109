"""In-process decisions: the engine runs inside the policy's Python process.

    python -m datasched.policy.inprocess --policy easy [--options JSON] [--platform XML] \\
        [--no-validate] -- -p platform.xml -w workload.json -e out [engine options...]

Why: behind a socket every decision round costs a ZeroMQ round trip and two context
switches, plus pybatsim's per-event bookkeeping; on a 50,000-job trace (100,000
rounds) that alone is most of the wall time once the engine and the policy are fast.
Here the engine is loaded as a library (``build/sim/libdatasched-sim.so``, C entry
point in ``sim/src/embed.hpp``) and calls :class:`ProtocolSession` for each round:
the same Batsim 4 messages, the same policy objects and validating wrapper, byte for
byte the same replies, no socket. Everything after ``--`` is datasched-sim's command
line (``-s`` is ignored). Exit status: the engine's (0 on success); 2 on bad options.

This is an option for our own policies only: pybatsim schedulers and real Batsim keep
the protocol path (:mod:`datasched.policy.serve`), which stays the default.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import signal
import struct
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import BinaryIO

from datasched.engine import PRELOADED_VARIABLE, engine_library, tcmalloc_library
from datasched.errors import ERROR_PREFIX, USER_ERROR_STATUS, UserError
from datasched.policy.heap import defer_collection
from datasched.policy.serve import parse_options
from datasched.policy.session import ProtocolSession

#: int decide(void* user, const char* request, size_t size, const char** reply, size_t* reply_size)
DECIDE_FN = ctypes.CFUNCTYPE(
    ctypes.c_int,
    ctypes.c_void_p,
    ctypes.c_void_p,
    ctypes.c_size_t,
    ctypes.POINTER(ctypes.c_void_p),
    ctypes.POINTER(ctypes.c_size_t),
)


class EngineFailure(RuntimeError):
    """The in-process simulation ended with an error: ``code`` is the engine's exit
    status (datasched-sim's), ``message`` its one-line message (empty when the engine's
    command-line parser already printed it). The engine has stopped its actors and
    removed its partial outputs; this process goes on."""

    def __init__(self, code: int, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"datasched-sim: error: {message}" if message else f"datasched-sim exited with status {code}")


class DecisionTimeout(UserError):
    """The policy spent longer than the decision timeout on one round (raised inside the
    policy's code by the round's alarm, see :class:`_Decider`)."""


class _Decider:
    """The callback the engine calls once per decision round.

    ``timeout_s`` > 0 bounds each round as ``--decision-timeout`` bounds the engine's wait
    on the protocol path: an alarm armed before the policy is called raises
    :class:`DecisionTimeout` inside it (the engine then stops, naming it), so a policy that
    loops forever ends the run instead of hanging it. The alarm fires between Python
    bytecodes: a policy blocked inside one native call (a solver) is stopped when it returns.
    The bound holds inside :meth:`bounded` (the run), on the main thread only (Python runs
    signal handlers there alone), as ``python -m datasched.policy.inprocess`` runs."""

    def __init__(self, session, record: BinaryIO | None = None, timeout_s: float = 0.0) -> None:
        self.session = session
        self.record = record
        self.timeout_s = timeout_s
        self.error: BaseException | None = None
        self._reply = b""  # kept alive until the next call: the engine copies it
        self._armed = False  # inside bounded() on the main thread, with a timeout

    def _alarm(self, _signum, _frame) -> None:
        raise DecisionTimeout(
            f"the policy did not decide within {self.timeout_s:g} s (one decision round; see --decision-timeout)"
        )

    @contextlib.contextmanager
    def bounded(self):
        """The run's span: the alarm's handler is installed once here, so that a round only
        arms and disarms the timer (1.5 against 9 µs a round: a 50,000-job trace has 100,000
        rounds). Python delivers signals to the main thread only: elsewhere, no bound."""
        if self.timeout_s <= 0 or threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = signal.signal(signal.SIGALRM, self._alarm)
        self._armed = True
        try:
            yield
        finally:
            self._armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    def _handle(self, message: bytes) -> bytes:
        if not self._armed:
            return self.session.handle(message)
        signal.setitimer(signal.ITIMER_REAL, self.timeout_s)
        try:
            return self.session.handle(message)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    def __call__(self, _user, request, size, reply, reply_size) -> int:
        try:
            message = ctypes.string_at(request, size)
            self._reply = self._handle(message)
            if self.record is not None:  # bench/decision_replay.py's format
                self.record.write(struct.pack("<II", len(message), len(self._reply)) + message + self._reply)
        except BaseException as exc:
            self.error = exc
            from datasched.policy.validating import IllegalDecision

            if isinstance(exc, IllegalDecision | UserError):
                print(f"{ERROR_PREFIX}{exc}", file=sys.stderr)
            else:
                traceback.print_exc()
            sys.stderr.flush()
            return 1
        reply[0] = ctypes.cast(ctypes.c_char_p(self._reply), ctypes.c_void_p).value
        reply_size[0] = len(self._reply)
        return 0


def run(
    policy,
    engine_argv: list[str],
    platform_xml: str | None = None,
    record: BinaryIO | None = None,
    set_aside_heap: bool = False,
    timeout_s: float = 0.0,
) -> tuple[int, ProtocolSession]:
    """Runs the engine with ``engine_argv`` (its command line without the program name)
    and ``policy`` deciding in this process; returns the engine's exit code (0) and the
    session, or raises :class:`EngineFailure` naming the engine's error.
    ``record``: a binary file that receives every (request, reply) pair, in the format
    of ``bench/decision_replay.py`` (for ``bench/policy_replay.py``). ``set_aside_heap``:
    see :class:`ProtocolSession` (only for a process that runs this simulation alone).
    ``timeout_s``: the bound on one decision round (0: none; see :class:`_Decider`)."""
    library = ctypes.CDLL(str(engine_library()))
    library.datasched_sim_run.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), DECIDE_FN, ctypes.c_void_p]
    library.datasched_sim_run.restype = ctypes.c_int
    library.datasched_sim_last_error.argtypes = []
    library.datasched_sim_last_error.restype = ctypes.c_char_p
    session = ProtocolSession(policy, platform_xml=platform_xml, set_aside_heap=set_aside_heap)
    decider = _Decider(session, record, timeout_s)
    callback = DECIDE_FN(decider)
    args = ["datasched-sim", *engine_argv]
    argv = (ctypes.c_char_p * (len(args) + 1))(*[a.encode() for a in args], None)
    with decider.bounded():
        code = library.datasched_sim_run(len(args), argv, callback, None)
    if code != 0:
        raise EngineFailure(code, library.datasched_sim_last_error().decode(errors="replace"))
    return code, session


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m datasched.policy.inprocess", description=__doc__.splitlines()[0])
    parser.add_argument("--policy", required=True, help="registered policy name (see `datasched schedulers`)")
    parser.add_argument("--options", help="policy options as a JSON object")
    parser.add_argument("--options-file", help="file holding the policy options as a JSON object")
    parser.add_argument("--platform", help="platform XML, to read cluster topology for locality-aware allocation")
    parser.add_argument("--no-validate", action="store_true", help="skip the validating wrapper")
    parser.add_argument(
        "--timeout",
        type=float,
        default=0.0,
        help="seconds one decision round may take before the run stops (0, the default: no bound)",
    )
    parser.add_argument("--record", type=Path, help="write every request and reply here (bench/policy_replay.py)")
    parser.add_argument("engine_args", nargs=argparse.REMAINDER, help="-- then datasched-sim's options")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    tcmalloc = tcmalloc_library()
    if tcmalloc and not os.environ.get(PRELOADED_VARIABLE):
        # The allocator must be chosen before the process starts: re-execute once.
        env = dict(os.environ, **{PRELOADED_VARIABLE: "1"})
        env["LD_PRELOAD"] = " ".join(p for p in (env.get("LD_PRELOAD", ""), tcmalloc) if p)
        os.execve(sys.executable, [sys.executable, "-m", "datasched.policy.inprocess", *argv], env)
    defer_collection()  # until the policy has begun (datasched.policy.heap)
    args = build_parser().parse_args(argv)
    engine_args = args.engine_args[1:] if args.engine_args[:1] == ["--"] else args.engine_args
    from datasched.policy.registry import create_policy, policy_names
    from datasched.runner import with_policy_extensions

    try:
        if args.policy not in policy_names():
            raise UserError(
                f"--in-process runs datasched's own policies only; {args.policy!r} is not one "
                "(pybatsim schedulers use the protocol path: drop --in-process)"
            )
        if args.timeout < 0:
            raise UserError(f"--timeout must be >= 0 seconds, not {args.timeout:g}")
        options = parse_options(args.options, args.options_file)
        policy = create_policy(args.policy, options)
        engine_args = with_policy_extensions(policy, engine_args)
        if args.platform is not None and not Path(args.platform).is_file():
            raise UserError(f"{args.platform}: platform file not found")
        engine_library()
    except UserError as exc:
        print(f"{ERROR_PREFIX}{exc}", file=sys.stderr)
        return USER_ERROR_STATUS

    from datasched.policy.validating import ValidatingPolicy

    if not args.no_validate:
        policy = ValidatingPolicy(policy)
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        record = stack.enter_context(args.record.open("wb")) if args.record else None
        try:
            code, session = run(policy, engine_args, args.platform, record, set_aside_heap=True, timeout_s=args.timeout)
        except EngineFailure as failure:
            if failure.message:  # the same line datasched-sim prints
                print(failure, file=sys.stderr)
            return failure.code
    print(
        f"datasched policy {args.policy} (in process): {session.decision_rounds} decision rounds, "
        f"{session.nb_jobs_submitted} jobs submitted, {session.nb_jobs_scheduled} started, "
        f"{session.nb_jobs_rejected} rejected, {time.perf_counter() - started:.2f} s",
        file=sys.stderr,
    )
    return code


if __name__ == "__main__":
    sys.exit(main())
