"""Issue 33's defaults of `datasched run`: our policies run in process unless `--protocol`
(pybatsim schedulers always over the protocol); relative paths mean what they mean in the
caller's shell; a decision process's traceback is shown as it is. Which path a run took is read
from its ``out_run.json`` (the command lines the runner started)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from datasched.cli import main

pytestmark = pytest.mark.engine

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
DATA = Path(__file__).resolve().parents[2] / "data"


def _run(tmp_path: Path, scheduler: str, *extra: str, output: str = "out") -> int:
    return main(
        [
            "run",
            "--platform",
            str(EXAMPLES / "demo_platform.xml"),
            "--workload",
            str(EXAMPLES / "demo_workload.json"),
            "--scheduler",
            scheduler,
            "--output",
            str(tmp_path / output),
            *extra,
        ]
    )


def _started(folder: Path) -> str:
    record = json.loads((folder / "out_run.json").read_text())
    return " ".join(record["engine_command"] + record["scheduler_command"])


def test_our_policies_run_in_process_by_default_and_over_the_protocol_on_request(tmp_path):
    assert _run(tmp_path, "easy", output="default") == 0
    assert "datasched.policy.inprocess" in _started(tmp_path / "default")
    assert _run(tmp_path, "easy", "--protocol", output="protocol") == 0
    assert "datasched.policy.serve" in _started(tmp_path / "protocol")
    # the same decisions either way
    assert (tmp_path / "default/out_jobs.csv").read_bytes() == (tmp_path / "protocol/out_jobs.csv").read_bytes()
    assert _run(tmp_path, "schedFcfs", output="pybatsim") == 0  # pybatsim: always the protocol
    assert "pybatsim" in _started(tmp_path / "pybatsim")


def test_in_process_and_protocol_exclude_each_other(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        _run(tmp_path, "easy", "--protocol", "--in-process")
    assert exit_info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def _reject_all(folder: Path) -> Path:
    """A pybatsim scheduler file that rejects every job (and ignores machine events)."""
    folder.mkdir()
    path = folder / "rejectAll.py"
    path.write_text(
        "from batsim.batsim import BatsimScheduler\n\n\n"
        "class RejectAll(BatsimScheduler):\n"
        "    def onJobSubmission(self, job):\n"
        "        self.bs.reject_jobs([job])\n\n"
        "    def onNotifyEventMachineUnavailable(self, machines):\n"
        "        self.seen_unavailable = True\n"
    )
    return path


def test_relative_scheduler_file_means_the_callers_folder(tmp_path, monkeypatch, capsys):
    """`--scheduler sched/rejectAll.py` names a file of the folder the command runs in, although
    the decision process starts in the output folder (before: pybatsim looked there)."""
    _reject_all(tmp_path / "sched")
    monkeypatch.chdir(tmp_path)
    assert _run(tmp_path, "sched/rejectAll.py", output="rel") == 0
    assert "40 jobs: 0 succeeded, 0 killed, 40 rejected" in capsys.readouterr().out
    assert str(tmp_path / "sched" / "rejectAll.py") in _started(tmp_path / "rel")


def test_relative_conformance_cases_folder(tmp_path, monkeypatch, capsys):
    """A replayed case reads its reference file in the decision process: `--cases` relative to
    the caller's folder must still find it (before: FileNotFoundError in the output folder)."""
    monkeypatch.chdir(DATA.parent)
    assert main(["conformance", "--cases", "data/conformance", "--case", "pfs_contention_filler"]) == 0
    assert "1/1 cases identical" in capsys.readouterr().out


def test_relative_engine_argument_file(tmp_path, monkeypatch):
    """`--engine-arg=--events --engine-arg=events.txt`: the engine runs in the output folder, the
    file is in the caller's (before: the engine refused the missing file)."""
    (tmp_path / "events.txt").write_text('{"type": "machine_unavailable", "resources": "0", "timestamp": 5}\n')
    scheduler = _reject_all(tmp_path / "sched")
    monkeypatch.chdir(tmp_path)
    assert _run(tmp_path, str(scheduler), "--engine-arg=--events", "--engine-arg=events.txt", output="ev") == 0

    assert str(tmp_path / "events.txt") in _started(tmp_path / "ev")


def test_a_decision_process_traceback_is_shown_as_it_is(tmp_path, capsys, monkeypatch):
    """Our message is one line; the pybatsim scheduler's traceback follows it line by line
    (no literal \\n), from its `Traceback` line, and the message names its log."""
    monkeypatch.chdir(DATA.parent.parent)
    assert _run(tmp_path, "tests/data/crashSched.py", output="crash") == 2
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert lines[0].startswith("datasched: error: the decision process (tests/data/crashSched.py) exited with status")
    assert lines[1] == "Traceback (most recent call last):"
    assert "RuntimeError: crashSched: deliberate failure on job w0!0" in lines
    assert "\\n" not in err and f"its log: {tmp_path / 'crash' / 'out_scheduler.log'}" in err


def test_batsim_stderr_goes_straight_to_the_log(tmp_path):
    """Real Batsim's path (no progress lines): the engine's stderr is the log file itself, so
    the runner copies nothing; the log holds every byte, in order. (Stand-in engine: `sh`.)"""
    from datasched.runner import _start_engine

    script = "i=0; while [ $i -lt 2000 ]; do echo \"[batsim/INFO] line $i\" >&2; i=$((i+1)); done"
    proc, reader = _start_engine(["sh", "-c", script], tmp_path, tmp_path / "log", None, progress_lines=False)
    assert proc.stderr is None  # not a pipe: nothing for the runner to read
    proc.wait()
    reader.join()
    lines = (tmp_path / "log").read_text().splitlines()
    assert lines == [f"[batsim/INFO] line {i}" for i in range(2000)]


@pytest.mark.parametrize("scheduler", ["fcfs", "easyBackfill"])
def test_bad_input_the_engine_finds_is_one_line_naming_file_and_line(tmp_path, capsys, scheduler):
    """A malformed workload reaches the engine (in-process for our policy, the protocol path for
    pybatsim's): `datasched run` prints the engine's line alone, naming the file and line, with
    the engine's status and log on the same line (before: a header, the line, the command)."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"jobs": [\n  {"id": 1,,}\n]}\n')
    status = main(
        ["run", "--platform", str(EXAMPLES / "demo_platform.xml"), "--workload", str(bad), "--scheduler", scheduler]
        + ["--output", str(tmp_path / "out")]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert status != 0 and len(err) == 1, err
    assert err[0].startswith(f"datasched: error: malformed JSON in '{bad}' at line 2"), err
    assert "exited with status 1; log: " in err[0]


@pytest.mark.skipif(not Path("/proc/self/autogroup").exists(), reason="no autogroup scheduling on this kernel")
def test_the_engine_keeps_the_runners_autogroup_nice(tmp_path):
    """The engine runs in a session of its own, which Linux gives an autogroup at nice 0; a runner
    whose autogroup is at nice 7 (a sweep started beside other work) must pass it on, or its
    engines take an equal share of the CPU from everything else. Checked in a fresh session, so
    this test's own autogroup is untouched."""
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent(
        f"""
        from pathlib import Path
        from datasched.runner import _start_engine
        Path("/proc/self/autogroup").write_text("7")
        proc, _ = _start_engine(["sleep", "5"], Path({str(tmp_path)!r}), Path({str(tmp_path / "log")!r}), None,
                                progress_lines=False)
        print(Path(f"/proc/{{proc.pid}}/autogroup").read_text().split()[-1])
        proc.kill()
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, start_new_session=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "7", done.stdout
