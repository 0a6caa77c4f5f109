"""The runner under signals (issue 20): SIGTERM/SIGINT/SIGHUP stop both process groups,
print one line and exit 128 + signal; a SIGKILL of the runner, which no handler sees,
still takes both children down (parent-death signal). Checked by process group and by
the decision process's port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import TEST_DATA, write_workload

pytestmark = pytest.mark.engine

PLATFORM = TEST_DATA / "closed_form.xml"


def children_of(pid: int) -> list[int]:
    """Every live process whose parent is ``pid`` (from /proc)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(proc.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def port_in_use(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def wait_for(predicate, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


@pytest.fixture
def reap():
    """Kills the process groups a failed test would otherwise leave behind."""
    groups: list[int] = []
    yield groups
    for pgid in groups:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def start_hung_run(tmp_path, reap):
    """`datasched run` whose decision process hangs on the first submission: both
    children stay alive until something stops them. Returns (runner, [(pid, pgid)], port)."""
    workload = write_workload(
        tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], {"d": {"type": "delay", "delay": 5}}
    )
    out = tmp_path / "out"
    runner = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "datasched.cli",
            "run",
            "--platform",
            str(PLATFORM),
            "--workload",
            str(workload),
            "--scheduler",
            str(TEST_DATA / "hangSched.py"),
            "--output",
            str(out),
            "--decision-timeout",
            "300",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    reap.append(runner.pid)
    started = wait_for(
        lambda: (
            runner.poll() is not None or (len(children_of(runner.pid)) == 2 and (out / "out_scheduler.log").exists())
        )
    )
    if runner.poll() is not None:  # it failed before the hang: say why
        pytest.fail(f"the runner exited {runner.returncode} before hanging: {runner.communicate()[1][-2000:]}")
    assert started, children_of(runner.pid)
    # Wait until the hung decision process has received the submission (it holds its port).
    assert wait_for(lambda: "tcp://127.0.0.1:" in " ".join(cmdline(p) for p in children_of(runner.pid)))
    children = [(pid, os.getpgid(pid)) for pid in children_of(runner.pid)]
    reap.extend(pgid for _, pgid in children)
    port = next(
        int(arg.rsplit(":", 1)[1]) for pid, _ in children for arg in cmdline(pid).split() if arg.startswith("tcp://")
    )
    assert wait_for(lambda: port_in_use(port))
    return runner, children, port


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_stop_signal_stops_both_process_groups(tmp_path, sig, reap):
    runner, children, port = start_hung_run(tmp_path, reap)
    for pid, pgid in children:
        assert pgid == pid and pgid != os.getpgid(runner.pid), "each child leads its own process group"
    os.kill(runner.pid, sig)
    _, err = runner.communicate(timeout=30)
    assert runner.returncode == 128 + sig, (runner.returncode, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines == [
        f"datasched: error: interrupted by {signal.Signals(sig).name}: stopped the engine and the decision process "
        "(no outputs kept)"
    ], err
    for _, pgid in children:
        assert wait_for(lambda pgid=pgid: not group_alive(pgid), 10), f"process group {pgid} survived"
    assert not port_in_use(port), f"port {port} is still held"
    assert sorted(p.name for p in (tmp_path / "out").glob("out_*.csv*")) == []


def test_sigkill_of_the_runner_takes_both_children_down(tmp_path, reap):
    """No handler runs on SIGKILL: the children's parent-death signal does the work."""
    runner, children, port = start_hung_run(tmp_path, reap)
    runner.kill()
    runner.wait(timeout=10)
    for pid, pgid in children:
        assert wait_for(lambda pid=pid: not alive(pid), 10), f"process {pid} outlived the runner"
        assert wait_for(lambda pgid=pgid: not group_alive(pgid), 10)
    assert wait_for(lambda: not port_in_use(port), 10), f"port {port} is still held"
