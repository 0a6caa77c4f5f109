"""Running the engine alone on a hostile input: inputs are checked before it connects
to a decision process, so no decision process is needed and each case takes
milliseconds."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from datasched.engine import find_engine
from tests.conftest import TEST_DATA

PLATFORM = TEST_DATA / "closed_form.xml"
ONE_JOB = (
    '{"jobs": [{"id": 1, "subtime": 0, "res": 1, "profile": "p"}], "profiles": {"p": {"type": "delay", "delay": 1}}}'
)


@dataclass
class EngineOutcome:
    status: int
    err: str

    def assert_error(self, *fragments: str) -> None:
        """Non-zero exit, no C++ backtrace, and one `datasched-sim: error:` line naming
        every fragment."""
        assert self.status != 0, self.err
        assert "terminate called" not in self.err and "Backtrace" not in self.err, self.err
        errors = [line for line in self.err.splitlines() if line.startswith("datasched-sim: error:")]
        assert len(errors) == 1, self.err
        for fragment in fragments:
            assert fragment in errors[0], (fragment, errors[0])


def run_engine(
    tmp_path: Path, platform: Path, workload: Path, *extra: str, timeout: float = 30, stale: bool = True
) -> EngineOutcome:
    """Runs the engine alone; with ``stale``, an old complete-looking output is planted
    first, and must be gone afterwards (the engine removes a previous run's outputs
    before reading its inputs)."""
    prefix = tmp_path / "out"
    if stale:
        (tmp_path / "out_jobs.csv").write_text("job_id\n")
    r = subprocess.run(
        [str(find_engine()), "-p", str(platform), "-w", str(workload), "-e", str(prefix), "-s", "tcp://127.0.0.1:9"]
        + ["--decision-timeout", "2", *extra],
        capture_output=True,
        text=True,
        errors="replace",
        timeout=timeout,
    )
    leftovers = sorted(p.name for p in tmp_path.glob("out_*"))
    assert leftovers == [], f"outputs left behind: {leftovers}"
    return EngineOutcome(r.returncode, r.stderr)
