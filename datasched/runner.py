"""Run one simulation: the engine and a decision process, side by side.

The decision process binds a ZeroMQ REP socket on a free port; the engine connects to
it. Both run in their own process groups so that neither can outlive the run: any
failure (either side exits non-zero) stops the other side, and the error message of the
side that failed is raised as ``SimulationError``. SIGINT and SIGTERM (Ctrl-C,
``timeout``, Slurm's scancel, Snakemake) stop both groups and raise ``Interrupted``;
and both children get a parent-death signal (Linux ``PR_SET_PDEATHSIG``), so even a
SIGKILL of the runner, which no handler can see, does not leave them running.
No output of a failed or interrupted run is left behind (the logs are kept).
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from datasched import batsim_backend
from datasched.engine import find_engine
from datasched.errors import ERROR_PREFIX, USER_ERROR_STATUS, Interrupted, UserError, refuse_special_file

#: How long the engine may keep running after the decision process exited normally.
EXIT_GRACE_SECONDS = 10.0

PROGRESS_RE = re.compile(
    r"completed=(\d+) total=(\d+) simulated_time=([0-9.eE+-]+)(?: succeeded=(\d+) killed=(\d+) rejected=(\d+))?"
)

#: The outputs of a run (``<prefix>_<suffix>``); a failed run leaves none of them, and a run
#: removes them all first, so a file of an earlier run never survives beside a later one. The
#: engine's part must cover ``datasched-sim --list-outputs`` (its one list,
#: sim/src/export/output_files.hpp; tests/integration/engine/test_output_list.py checks it);
#: then Batsim's own Pajé trace (``--engine batsim``) and the run record.
OUTPUT_SUFFIXES = (
    "jobs.csv",
    "schedule.csv",
    "machine_states.csv",
    "utilisation.csv",
    "io.csv",
    "data.csv",
    "consumed_energy.csv",
    "pstate_changes.csv",
    "forwarders.csv",
    "servers.csv",
    "nvm.csv",
    "links.csv",
    "staging.csv",
    "schedule.trace",
    "run.json",
)

#: The simulation engines: ours (``datasched-sim``) and real Batsim where it is on PATH.
ENGINES = ("sim", "batsim")

#: Signals that stop a run (both processes) instead of killing the runner alone.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

_PR_SET_PDEATHSIG = 1
try:
    _LIBC: ctypes.CDLL | None = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
except OSError:  # pragma: no cover - no libc symbols in the process
    _LIBC = None


class SimulationError(RuntimeError):
    """The engine or the decision process failed; the message says which and why."""


@dataclass(frozen=True)
class Progress:
    """``completed`` counts every job in a final state; ``succeeded``, ``killed``
    (walltime or kill) and ``rejected`` split it (the rest ended with an error code)."""

    completed: int
    total: int
    simulated_time: float
    succeeded: int = 0
    killed: int = 0
    rejected: int = 0


@dataclass
class SimulationResult:
    output_dir: Path
    prefix: str
    wall_seconds: float
    engine_command: list[str] = field(default_factory=list)
    scheduler_command: list[str] = field(default_factory=list)

    @property
    def jobs_csv(self) -> Path:
        return self.output_dir / f"{self.prefix}_jobs.csv"

    @property
    def schedule_csv(self) -> Path:
        return self.output_dir / f"{self.prefix}_schedule.csv"

    @property
    def machine_states_csv(self) -> Path:
        return self.output_dir / f"{self.prefix}_machine_states.csv"

    @property
    def utilisation_csv(self) -> Path:
        """Ours (datasched-sim only): the compute nodes' time per state over [0, makespan]."""
        return self.output_dir / f"{self.prefix}_utilisation.csv"


def free_port() -> int:
    """A TCP port that was free a moment ago (bind to port 0, read it, release it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scheduler_command(
    scheduler: str, endpoint: str, options: dict | None, timeout_s: float, platform: Path | None = None
) -> list[str]:
    """The command line of the decision process for ``scheduler``.

    ``scheduler`` is a policy registered in datasched's scheduler registry, a pybatsim
    scheduler name (e.g. ``easyBackfill``) or the path of a pybatsim scheduler file.
    Our policies' options are validated here, so a bad option fails before any process
    starts.
    """
    options_json = json.dumps(options or {}, sort_keys=True)
    if scheduler in _registered_policies():
        from datasched.policy.registry import create_policy

        create_policy(scheduler, options or {})  # raises UserError naming a bad option
        command = [
            sys.executable,
            "-m",
            "datasched.policy.serve",
            "--policy",
            scheduler,
            "--socket",
            endpoint,
            "--options",
            options_json,
            "--timeout",
            str(int(timeout_s * 1000)),
        ]
        if platform is not None:
            command += ["--platform", str(platform)]
        return command
    if "/" in scheduler or "." in scheduler:  # pybatsim reads any name with either as a file path
        path = Path(scheduler)
        if path.is_dir():
            raise UserError(f"--scheduler {scheduler}: is a folder; give a pybatsim scheduler file (.py) or a name")
        if not path.is_file():
            raise UserError(f"--scheduler {scheduler}: no such scheduler file (relative to {Path.cwd()})")
        # absolute: pybatsim runs in the output folder, where a relative path means something else
        scheduler = str(path.resolve())
    elif (names := pybatsim_scheduler_names()) and scheduler not in names:
        # refused here in one line, rather than by the decision process once the engine is up
        # (without pybatsim installed, the launcher's check below says so)
        raise UserError(
            f"--scheduler {scheduler}: no datasched policy, pybatsim scheduler or file of that name "
            f"(policies: {', '.join(sorted(_registered_policies()))}; pybatsim: {', '.join(names)})"
        )
    # pybatsim imports its schedulers from a top-level package named `schedulers`; run
    # its console script (not `python -m`, which would put the working directory, and
    # with it our own `schedulers/` folder, first on sys.path).
    launcher = Path(sys.executable).parent / "pybatsim"
    if not launcher.is_file():
        raise UserError(f"pybatsim is not installed next to {sys.executable} (run `make venv`)")
    return [str(launcher), scheduler, "-s", endpoint, "-t", str(int(timeout_s * 1000)), "-o", options_json]


def pybatsim_scheduler_names() -> list[str]:
    """The schedulers pybatsim 3.2.1 finds by name: the modules of its ``schedulers`` package
    (its launcher imports ``schedulers.<name>`` for a name without ``.`` or ``/``)."""
    from importlib.metadata import PackageNotFoundError, files

    try:
        installed = files("pybatsim") or []
    except PackageNotFoundError:
        return []
    return sorted(
        f.stem for f in installed if f.parent.as_posix() == "schedulers" and f.suffix == ".py" and f.stem != "__init__"
    )


def _registered_policies() -> set[str]:
    from datasched.policy.registry import policy_names

    return set(policy_names())


def remove_outputs(output_dir: str | Path, prefix: str = "out") -> None:
    """Deletes a previous run's outputs (and half-written ``.tmp`` files) in ``output_dir``,
    so that a failed run never leaves complete-looking files behind."""
    for suffix in OUTPUT_SUFFIXES:
        for name in (f"{prefix}_{suffix}", f"{prefix}_{suffix}.tmp"):
            try:
                (Path(output_dir) / name).unlink()
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise UserError(f"cannot remove the previous output {exc.filename}: {exc.strerror}") from None


def _autogroup_nice() -> int | None:
    """This process's autogroup nice value (Linux's autogroup scheduling), None where there is none."""
    try:
        return int(Path("/proc/self/autogroup").read_text().rsplit("nice", 1)[1])
    except (OSError, ValueError, IndexError):
        return None


def _child_setup(parent_pid: int) -> Callable[[], None]:
    """A ``preexec_fn`` for the engine and the decision process: they die with the runner
    (:func:`_die_with_parent`) and keep its autogroup nice value. Each child starts a session of
    its own (so that its whole group can be killed), and Linux's autogroup scheduler shares the CPU
    between sessions first, each new one at nice 0: a sweep started at autogroup nice 19 beside
    other work ran its engines at full weight (docs/benchmarks.md, *Beside background work*)."""
    die = _die_with_parent(parent_pid)
    nice = _autogroup_nice()

    def setup() -> None:
        die()
        if nice:  # runs after setsid(): the child's own autogroup
            try:
                with open("/proc/self/autogroup", "w") as handle:
                    handle.write(str(nice))
            except OSError:
                pass

    return setup


def _die_with_parent(parent_pid: int) -> Callable[[], None]:
    """A ``preexec_fn``: the child gets SIGKILL when the runner dies, however it dies.
    Linux sends it when the thread that forked exits; run_simulation forks from the
    thread that waits for the run, so that is the end of the run. If the runner died
    between fork and prctl, the child exits at once."""
    libc = _LIBC

    def setup() -> None:
        if libc is not None:
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent_pid:
            os._exit(1)

    return setup


class _StopSignals:
    """While active (main thread only: Python delivers signals there), SIGINT, SIGTERM
    and SIGHUP are recorded instead of killing the runner; the run loop polls
    ``signum`` and stops both processes."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> _StopSignals:
        if threading.current_thread() is threading.main_thread():
            for sig in STOP_SIGNALS:
                self._previous[sig] = signal.signal(sig, self._record)
        return self

    def _record(self, signum: int, _frame: object) -> None:
        if self.signum is None:
            self.signum = signum

    def __exit__(self, *exc_info: object) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)

    def check(self) -> None:
        if self.signum is not None:
            name = signal.Signals(self.signum).name
            raise Interrupted(
                self.signum, f"interrupted by {name}: stopped the engine and the decision process (no outputs kept)"
            )


def _kill_group(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=5)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


#: How the engine begins its one error line (sim/src/common/fatal.hpp)
ENGINE_ERROR_PREFIX = "datasched-sim: error: "


def _tail(path: Path, lines: int = 15, traceback_lines: int = 60) -> str:
    """What a failed process said last: its last Python traceback whole, from the
    ``Traceback (most recent call last):`` line (up to ``traceback_lines`` lines), else its
    last ``lines`` lines."""
    try:
        text = path.read_text(errors="replace").strip().splitlines()
    except FileNotFoundError:
        return ""
    starts = [i for i, line in enumerate(text) if line.startswith("Traceback (most recent call last):")]
    if starts and len(text) - starts[-1] <= traceback_lines:
        return "\n".join(text[starts[-1] :])
    return "\n".join(text[-lines:])


def _search_workload(workload: Path, pattern: re.Pattern[bytes]) -> bool:
    """Whether `pattern` occurs in a workload file, read in 1 MiB chunks (a byte search:
    the engine parses the file; this only decides how the run is set up)."""
    tail = b""
    with open(workload, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            if pattern.search(tail + chunk):
                return True
            tail = chunk[-64:]
    return False


def mentions_phase_profiles(workload: Path) -> bool:
    """Whether a workload carries phase descriptors: ``datasched_phases`` profiles or the
    Batsim-compatible ``composed`` fallback's ``datasched_phases_profile`` field (storage
    policies read the descriptor from either, so our engine forwards profiles)."""
    return _search_workload(workload, re.compile(rb"datasched_phases"))


def has_phase_profiles(workload: Path) -> bool:
    """Whether a workload has profiles of type ``datasched_phases``, which only our engine
    runs. The file is parsed: the composed fallback embeds a phase profile (with its
    ``type``) in an extra field that Batsim ignores, so a byte search cannot tell them apart.
    A file that is not a JSON workload is left to the engine to refuse."""
    if not mentions_phase_profiles(workload):
        return False
    try:
        with open(workload, "rb") as handle:
            profiles = json.load(handle).get("profiles", {})
    except (OSError, ValueError, AttributeError, RecursionError):
        return False
    return isinstance(profiles, dict) and any(
        isinstance(p, dict) and p.get("type") == "datasched_phases" for p in profiles.values()
    )


def absolute_file_arguments(arguments: Sequence[str]) -> list[str]:
    """The engine's extra arguments with every relative path of an existing file or folder
    made absolute (a bare argument, or the value of ``--option=value``): both engines run in the
    output folder, so a relative ``--events events.json`` or ``--sg-cfg=...`` must mean what it
    means in the caller's shell. Options and values that name nothing here are left alone."""

    def absolute(value: str) -> str:
        if not value or value.startswith("-") or Path(value).is_absolute() or not Path(value).exists():
            return value
        return str(Path(value).resolve())

    resolved = []
    for argument in arguments:
        if argument.startswith("--") and "=" in argument:
            option, _, value = argument.partition("=")
            resolved.append(f"{option}={absolute(value)}")
        else:
            resolved.append(absolute(argument))
    return resolved


def _sim_engine_args(workloads, engine_args, traffic_policy: str, ipc_fanout: int) -> list[str]:
    """Our engine's arguments: the user's plus those the runner's options stand for."""
    if traffic_policy != "none":
        engine_args = ["--traffic-policy", traffic_policy, *engine_args]
    if any(mentions_phase_profiles(w) for w in workloads) and "--forward-profiles-on-submission" not in engine_args:
        # storage policies read a phase job's descriptor (stg_k, san_k, io_tasks) from its profile
        engine_args = ["--forward-profiles-on-submission", *engine_args]
    if ipc_fanout:
        engine_args = ["--ipc-fanout", str(ipc_fanout), *engine_args]
    return list(engine_args)


ITEM_EVICTIONS_OPTION = "--datasched-item-evictions"


def with_policy_extensions(policy, engine_args: Sequence[str]) -> list[str]:
    """``engine_args`` with the engine options ``policy`` (one of ours, instantiated) asks
    for: ``--datasched-item-evictions`` when its
    :attr:`~datasched.policy.base.Policy.wants_item_evictions` is true (datasched-sim only)."""
    if ITEM_EVICTIONS_OPTION in engine_args or not policy.wants_item_evictions:
        return list(engine_args)
    return [ITEM_EVICTIONS_OPTION, *engine_args]


def _policy_extension_args(scheduler: str, options: dict | None, engine_args: Sequence[str]) -> list[str]:
    """Engine options our registered policies ask for on the protocol path
    (:func:`with_policy_extensions`); pybatsim schedulers get nothing, so their protocol
    stream stays Batsim's. (An in-process run asks its own policy: no second instance here.)"""
    if scheduler not in _registered_policies() or ITEM_EVICTIONS_OPTION in engine_args:
        return list(engine_args)
    from datasched.policy.registry import create_policy

    return with_policy_extensions(create_policy(scheduler, options or {}), engine_args)


def run_simulation(
    platform: str | Path,
    workload: str | Path | Sequence[str | Path],
    scheduler: str,
    output_dir: str | Path,
    *,
    scheduler_options: dict | None = None,
    engine_args: Sequence[str] = (),
    decision_timeout: float = 600.0,
    prefix: str = "out",
    on_progress: Callable[[Progress], None] | None = None,
    traffic_policy: str = "none",
    ipc_fanout: int = 0,
    engine: str = "sim",
    in_process: bool = False,
    command: str | None = None,
) -> SimulationResult:
    """Runs one simulation and returns where its outputs are.

    ``traffic_policy`` is the engine's arbitration between IPC and storage traffic
    (``none``, ``np``, ``ba:X``, ``fp``, ``weights:ipc=A,storage=B``; see
    sim/src/execution/traffic.hpp); the engine checks it and names it in its error.
    ``ipc_fanout`` > 0 runs large communicate phases as the engine's approximate,
    calibrated all-to-all (``--ipc-fanout``; sim/src/execution/phase_plan.hpp); 0 is exact.
    ``engine`` is ``sim`` (ours) or ``batsim`` (real Batsim on PATH, given only options it
    knows; see batsim_backend.py).
    A registered policy that wants the engine's evictions of named data items (e.g. the
    data-aware ``workflow`` policy) gets ``--datasched-item-evictions`` on our engine.
    ``in_process`` runs one of our registered policies inside the engine's process
    (:mod:`datasched.policy.inprocess`: same messages and decisions, no socket); the
    default is the protocol path, the only one for pybatsim schedulers.
    ``command`` is the user's command (``datasched run ...``) recorded in ``<prefix>_run.json``
    beside the processes' command lines (``datasched explore`` shows it).

    Raises UserError for missing inputs and SimulationError when either process fails.
    """
    platform = Path(platform).resolve()
    workloads = [Path(w).resolve() for w in ([workload] if isinstance(workload, (str, Path)) else workload)]
    for path in [platform, *workloads]:
        if path.is_dir():
            raise UserError(f"input {path} is a folder, not a file")
        refuse_special_file(path)
        if not path.is_file():
            raise UserError(f"input file not found: {path}")
    if engine not in ENGINES:
        raise UserError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
    engine_args = absolute_file_arguments(engine_args)
    if in_process and engine == "batsim":
        raise UserError("--in-process runs datasched-sim as a library; it cannot be combined with --engine batsim")
    engine_path: Path | None = None
    if engine == "batsim":
        batsim_backend.refuse_engine_only(traffic_policy, ipc_fanout)
        batsim_backend.check_options(engine_args)
        for w in workloads:
            if has_phase_profiles(w):
                raise UserError(
                    f"--engine batsim: workload {w} has datasched_phases profiles, which only datasched-sim runs "
                    "(generate it for real Batsim with `datasched workload markov|from-workflow --engine batsim`: "
                    "composed profiles)"
                )
        engine_path = batsim_backend.find_batsim()
    output_dir = Path(output_dir).resolve()
    if output_dir.exists() and not output_dir.is_dir():
        raise UserError(f"output folder {output_dir} is a file")
    try:
        output_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create the output folder {output_dir}: {exc.strerror}") from None
    remove_outputs(output_dir, prefix)
    if not os.access(output_dir, os.W_OK | os.X_OK):
        raise UserError(f"output folder {output_dir} is not writable")
    if engine_path is None:  # our engine
        engine_path, engine_args = find_engine(), _sim_engine_args(workloads, engine_args, traffic_policy, ipc_fanout)
        if not in_process:
            engine_args = _policy_extension_args(scheduler, scheduler_options, engine_args)

    last_error = None
    succeeded = False
    if in_process:
        try:
            with _StopSignals() as stop:
                result = _run_in_process(
                    platform,
                    workloads,
                    scheduler,
                    output_dir,
                    scheduler_options,
                    engine_args,
                    prefix,
                    on_progress,
                    stop,
                    decision_timeout,
                )
                write_run_record(result, command)
                succeeded = True
                return result
        finally:
            if not succeeded:
                remove_outputs(output_dir, prefix)
    try:
        with _StopSignals() as stop:
            for _attempt in range(3):  # a port can be taken between free_port() and bind
                port = free_port()
                try:
                    result = _run_once(
                        engine,
                        engine_path,
                        platform,
                        workloads,
                        scheduler,
                        output_dir,
                        port,
                        scheduler_options,
                        engine_args,
                        decision_timeout,
                        prefix,
                        on_progress,
                        stop,
                    )
                    write_run_record(result, command)
                    succeeded = True
                    return result
                except _PortInUse as exc:
                    last_error = exc
            raise SimulationError(f"could not find a free port for the decision process: {last_error}")
    finally:
        if not succeeded:
            remove_outputs(output_dir, prefix)


def write_run_record(result: SimulationResult, command: str | None) -> Path:
    """``<prefix>_run.json``: the command that produced the run (the user's, when the CLI ran
    it), the folder it ran in, and the engine's and decision process's command lines. No
    date and no port (the port is replaced by ``PORT``), so the same run writes the same file."""

    def scrub(argv: list[str]) -> list[str]:
        return [re.sub(r"tcp://127\.0\.0\.1:\d+", "tcp://127.0.0.1:PORT", a) for a in argv]

    record = {
        "command": command or shlex.join(scrub(result.engine_command)),
        "cwd": os.getcwd(),
        "engine_command": scrub(result.engine_command),
        "scheduler_command": scrub(result.scheduler_command),
    }
    path = result.output_dir / f"{result.prefix}_run.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    return path


class _PortInUse(Exception):
    pass


def _run_once(
    engine,
    engine_path,
    platform,
    workloads,
    scheduler,
    output_dir,
    port,
    scheduler_options,
    engine_args,
    decision_timeout,
    prefix,
    on_progress,
    stop: _StopSignals,
) -> SimulationResult:
    stop.check()
    sched_cmd = scheduler_command(scheduler, f"tcp://127.0.0.1:{port}", scheduler_options, decision_timeout, platform)
    endpoint = f"tcp://127.0.0.1:{port}"
    if engine == "batsim":
        engine_cmd = batsim_backend.command(
            engine_path, platform, workloads, output_dir / prefix, endpoint, engine_args
        )
    else:
        engine_cmd = [str(engine_path), "-p", str(platform)]
        for w in workloads:
            engine_cmd += ["-w", str(w)]
        engine_cmd += [
            "-e",
            str(output_dir / prefix),
            "-s",
            endpoint,
            "--decision-timeout",
            str(decision_timeout),
            "--progress",
            "1",
            *engine_args,
        ]
    sched_log = output_dir / f"{prefix}_scheduler.log"
    engine_log = output_dir / f"{prefix}_engine.log"
    start = time.monotonic()
    sched = engine_proc = None
    try:
        with open(sched_log, "wb") as slog:
            sched = subprocess.Popen(
                sched_cmd,
                stdout=slog,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                cwd=output_dir,
                env=decision_environment(),
                preexec_fn=_child_setup(os.getpid()),
            )
        # Batsim writes no progress lines but tens of MB of log: its stderr goes straight to the file
        engine_proc, reader = _start_engine(
            engine_cmd, output_dir, engine_log, on_progress, progress_lines=engine != "batsim"
        )
        sched_exit_time = None
        while True:
            stop.check()
            engine_rc = engine_proc.poll()
            sched_rc = sched.poll()
            if engine_rc is not None:
                break
            if sched_rc == 0:
                # A decision process exits right after SIMULATION_ENDS; the engine then
                # finishes within milliseconds. Still running long after: it is stuck.
                sched_exit_time = sched_exit_time or time.monotonic()
                if time.monotonic() - sched_exit_time > EXIT_GRACE_SECONDS:
                    _kill_group(engine_proc)
                    reader.join(timeout=5)
                    raise SimulationError(
                        f"the decision process ({scheduler}) exited before the end of the simulation:\n"
                        f"{_tail(sched_log)}\n(command: {shlex.join(sched_cmd)})"
                    )
            if sched_rc is not None and sched_rc != 0:
                _kill_group(engine_proc)
                reader.join(timeout=5)
                log = _tail(sched_log)
                if "Address already in use" in log:
                    raise _PortInUse(log)
                raise SimulationError(
                    f"the decision process ({scheduler}) exited with status {sched_rc} before the end of the "
                    f"simulation:\n{log}\n(its log: {sched_log}; command: {shlex.join(sched_cmd)})"
                )
            time.sleep(0.02)
        reader.join(timeout=10)
        stop.check()
        if engine_rc != 0:
            line = _engine_error(engine_log) if engine != "batsim" else None
            if line is not None:
                raise SimulationError(f"{line} (datasched-sim exited with status {engine_rc}; log: {engine_log})")
            raise SimulationError(
                f"the engine ({'batsim' if engine == 'batsim' else 'datasched-sim'}) exited with status "
                f"{engine_rc}:\n{_tail(engine_log)}\n"
                f"(decision process log: {sched_log}; command: {shlex.join(engine_cmd)})"
            )
        try:
            sched.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        return SimulationResult(output_dir, prefix, time.monotonic() - start, engine_cmd, sched_cmd)
    finally:
        _kill_group(engine_proc)
        _kill_group(sched)


def decision_environment() -> dict[str, str]:
    """The environment of a decision process: ours, with numpy's BLAS on one thread unless
    the user chose otherwise. Policies use numpy for element-wise work (distances), never
    for the linear algebra BLAS threads speed up, and an idle BLAS thread pool spins: 3 %
    of a paper-sized run's decision process on a 2-core machine."""
    env = dict(os.environ)
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    return env


def in_process_command(
    scheduler: str,
    options: dict | None,
    platform: Path,
    engine_args: Sequence[str],
    decision_timeout: float = 0.0,
) -> tuple[list[str], dict[str, str]]:
    """Command line and environment of an in-process run (datasched/policy/inprocess.py);
    the environment preloads tcmalloc as the engine binary links it. The child checks the
    policy and its options and adds the engine options its policy asks for, so this
    process never imports the policies (about 0.6 s of CPU a run; docs/benchmarks.md)."""
    from datasched.engine import PRELOADED_VARIABLE, tcmalloc_library

    command = [
        sys.executable,
        "-m",
        "datasched.policy.inprocess",
        "--policy",
        scheduler,
        "--options",
        json.dumps(options or {}, sort_keys=True),
        "--platform",
        str(platform),
        "--timeout",
        f"{decision_timeout:g}",
        "--",
        *engine_args,
    ]
    env = dict(decision_environment(), **{PRELOADED_VARIABLE: "1"})
    tcmalloc = tcmalloc_library()
    if tcmalloc:
        env["LD_PRELOAD"] = " ".join(p for p in (env.get("LD_PRELOAD", ""), tcmalloc) if p)
    return command, env


def _run_in_process(
    platform,
    workloads,
    scheduler,
    output_dir,
    scheduler_options,
    engine_args,
    prefix,
    on_progress,
    stop: _StopSignals,
    decision_timeout: float = 0.0,
) -> SimulationResult:
    stop.check()
    args = ["-p", str(platform)]
    for w in workloads:
        args += ["-w", str(w)]
    args += ["-e", str(output_dir / prefix), "--progress", "1", *engine_args]
    command, env = in_process_command(scheduler, scheduler_options, platform, args, decision_timeout)
    log_path = output_dir / f"{prefix}_engine.log"
    start = time.monotonic()
    proc = None
    try:
        proc, reader = _start_engine(command, output_dir, log_path, on_progress, env)
        while proc.poll() is None:
            stop.check()
            time.sleep(0.02)
        reader.join(timeout=10)
        stop.check()
        refusal = _child_error(log_path) if proc.returncode == USER_ERROR_STATUS else None
        if refusal is not None:  # the child refused the policy or its options before the engine began
            raise UserError(refusal)
        if proc.returncode != 0:
            line = _engine_error(log_path)
            if line is not None:
                raise SimulationError(
                    f"{line} (the in-process simulation exited with status {proc.returncode}; log: {log_path})"
                )
            raise SimulationError(
                f"the in-process simulation ({scheduler}) exited with status {proc.returncode}:\n"
                f"{_tail(log_path)}\n(command: {shlex.join(command)})"
            )
        return SimulationResult(output_dir, prefix, time.monotonic() - start, command, command)
    finally:
        _kill_group(proc)


def _engine_error(log_path: Path) -> str | None:
    """The engine's own one-line error (``datasched-sim: error: ...``, its last line), without
    the prefix: the whole message of a run the engine refused (bad input, an illegal decision);
    when that line points above, the in-process policy's own error line. None when the engine
    ended otherwise (a crash, a signal, a SimGrid abort): the caller shows the log's tail."""
    try:
        lines = log_path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return None
    if not lines or not lines[-1].startswith(ENGINE_ERROR_PREFIX):
        return None
    last = lines[-1][len(ENGINE_ERROR_PREFIX) :]
    if "its message is above" not in last:
        return last
    # an in-process policy's refusal is its own one line just above; a SimGrid abort's
    # message may span lines, and is left to the log's tail
    if len(lines) > 1 and lines[-2].startswith(ERROR_PREFIX):
        return lines[-2][len(ERROR_PREFIX) :]
    return None


def _child_error(log_path: Path) -> str | None:
    """The message of the last error line (:data:`~datasched.errors.ERROR_PREFIX`) a child
    process wrote."""
    try:
        lines = log_path.read_text(errors="replace").splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        if line.startswith(ERROR_PREFIX):
            return line[len(ERROR_PREFIX) :]
    return None


def _start_engine(
    command: list[str],
    cwd: Path,
    log_path: Path,
    on_progress,
    env: dict[str, str] | None = None,
    progress_lines: bool = True,
) -> tuple[subprocess.Popen, threading.Thread]:
    """The engine in its own process group (killed with the runner), its stderr pumped into
    ``log_path`` and progress lines by a daemon thread; both paths (protocol, in-process) use it.
    Without ``progress_lines`` (real Batsim, which writes none) the engine's stderr is the log
    file itself: the runner copies nothing (Batsim's 74 MB log on delay_50k cost it 8-9 s of
    CPU read line by line; bench/runner_stderr.py)."""
    if not progress_lines:
        with open(log_path, "wb") as log:
            straight: subprocess.Popen = subprocess.Popen(
                command,
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,
                cwd=cwd,
                env=env,
                preexec_fn=_child_setup(os.getpid()),
            )
        idle = threading.Thread(target=lambda: None, daemon=True)
        idle.start()
        return straight, idle
    proc = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        text=True,
        errors="replace",
        cwd=cwd,
        env=env,
        preexec_fn=_child_setup(os.getpid()),
    )
    reader = threading.Thread(target=_pump_engine_stderr, args=(proc, log_path, on_progress), daemon=True)
    reader.start()
    return proc, reader


def _pump_engine_stderr(proc: subprocess.Popen, log_path: Path, on_progress) -> None:
    assert proc.stderr is not None  # started with stderr=PIPE
    with open(log_path, "w") as log:
        for line in proc.stderr:
            match = PROGRESS_RE.search(line)
            if match and "[datasched-sim progress]" in line:
                if on_progress:
                    counts = [int(g) for g in match.groups()[3:] if g is not None]
                    on_progress(Progress(int(match[1]), int(match[2]), float(match[3]), *counts))
                continue
            log.write(line)
            log.flush()
