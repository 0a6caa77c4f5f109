"""Real Batsim 4.2.1 as a simulation backend (``--engine batsim``).

Batsim is not installable from a package registry; the Nix flake's with-batsim shell puts
``batsim`` on PATH. The runner gives it the same inputs, decision process and output
folder as our engine, and only options Batsim 4.2.1 knows: the table below is its
command line (docopt usage in ``src/batsim.cpp`` at tag v4.2.1), with the number of
values each option takes. Options of our engine alone (``--traffic-policy``,
``--ipc-fanout``, ...) are refused with one line instead of being passed on: Batsim
would stop on them with its whole usage text.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

from datasched.errors import UserError

ENGINE_NAME = "batsim"

#: Batsim 4.2.1's options that a user may add (``--engine-arg``, a case's
#: ``batsim_extra_args``), with how many values each takes.
BATSIM_OPTIONS: dict[str, int] = {
    "-W": 1,
    "--workflow": 1,
    "--WS": 2,
    "--workflow-start": 2,
    "--events": 1,
    "-m": 1,
    "--master-host": 1,
    "-r": 1,
    "--add-role-to-hosts": 1,
    "-E": 0,
    "--energy": 0,
    "--enable-redis": 0,
    "--redis-hostname": 1,
    "--redis-port": 1,
    "--redis-prefix": 1,
    "--disable-schedule-tracing": 0,
    "--disable-machine-state-tracing": 0,
    "--mmax": 1,
    "--mmax-workload": 0,
    "--forward-profiles-on-submission": 0,
    "--enable-dynamic-jobs": 0,
    "--acknowledge-dynamic-jobs": 0,
    "--enable-profile-reuse": 0,
    "-v": 1,
    "--verbosity": 1,
    "-q": 0,
    "--quiet": 0,
    "--workflow-jobs-limit": 1,
    "--ignore-beyond-last-workflow": 0,
    "--enable-compute-sharing": 0,
    "--disable-storage-sharing": 0,
    "--sched-cfg": 1,
    "--sched-cfg-file": 1,
    "--sg-cfg": 1,
    "--sg-log": 1,
    "--forward-unknown-events": 0,
}

#: Batsim options the runner sets itself (inputs, output prefix, socket) or that do not
#: run a simulation.
RUNNER_OPTIONS = {
    "-p": "--platform",
    "--platform": "--platform",
    "-w": "--workload",
    "--workload": "--workload",
    "-e": "--output",
    "--export": "--output",
    "-s": "the runner's own socket",
    "--socket-endpoint": "the runner's own socket",
    "--no-sched": "--scheduler (a run always has a decision process)",
    "--dump-execution-context": "nothing (it does not run a simulation)",
    "-h": "nothing (it does not run a simulation)",
    "--help": "nothing (it does not run a simulation)",
    "--version": "nothing (it does not run a simulation)",
    "--simgrid-version": "nothing (it does not run a simulation)",
}


def find_batsim() -> Path:
    """The ``batsim`` executable on PATH, or a UserError saying where to get it."""
    found = shutil.which(ENGINE_NAME)
    if not found:
        raise UserError(
            "--engine batsim: `batsim` is not on PATH (real Batsim 4.2.1 comes with the Nix flake's with-batsim "
            "shell: `nix develop .#with-batsim`; see docs/running.md)"
        )
    return Path(found)


def check_options(engine_args: Sequence[str]) -> None:
    """Raises UserError on the first argument Batsim 4.2.1 would not accept here."""
    args = list(engine_args)
    i = 0
    while i < len(args):
        arg = args[i]
        name, has_value = (arg.split("=", 1)[0], True) if arg.startswith("--") and "=" in arg else (arg, False)
        if name in RUNNER_OPTIONS:
            raise UserError(f"--engine batsim: engine option {name} is set by `datasched run` ({RUNNER_OPTIONS[name]})")
        if name not in BATSIM_OPTIONS:
            raise UserError(
                f"--engine batsim: {name} is not an option of Batsim 4.2.1 (an option of datasched-sim only, or a typo)"
            )
        nb_values = BATSIM_OPTIONS[name] - (1 if has_value else 0)
        if i + nb_values >= len(args) and nb_values > 0:
            raise UserError(f"--engine batsim: option {name} needs {BATSIM_OPTIONS[name]} value(s)")
        i += 1 + nb_values


def refuse_engine_only(traffic_policy: str, ipc_fanout: int) -> None:
    """Our engine's modelling options have no meaning in Batsim: refuse them."""
    if traffic_policy != "none":
        raise UserError("--engine batsim: --traffic-policy is an option of datasched-sim only (Batsim 4.2.1 has none)")
    if ipc_fanout:
        raise UserError("--engine batsim: --ipc-fanout is an option of datasched-sim only (Batsim 4.2.1 has none)")


def command(
    batsim: Path, platform: Path, workloads: Sequence[Path], export_prefix: Path, endpoint: str, engine_args
) -> list[str]:
    """Batsim's command line: the same inputs and output prefix as our engine's."""
    cmd = [str(batsim), "-p", str(platform)]
    for workload in workloads:
        cmd += ["-w", str(workload)]
    return [*cmd, "-e", str(export_prefix), "-s", endpoint, *engine_args]
