"""Helpers of the hostile-input corpus (issue 20): run a `datasched` command in-process
and check what a user would see."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from datasched.cli import main


@dataclass
class Outcome:
    status: int
    out: str
    err: str

    def assert_one_line_error(self, *fragments: str) -> None:
        """Non-zero exit, one `datasched: error:` line on stderr (no traceback), naming
        every fragment (the input and the problem)."""
        assert self.status not in (0, None), (self.status, self.err)
        assert "Traceback" not in self.err, self.err
        # ours: "datasched: error: ..."; argparse's: "datasched workload from-swf: error: ..."
        errors = [line for line in self.err.splitlines() if line.startswith("datasched") and ": error: " in line]
        assert len(errors) == 1, self.err
        for fragment in fragments:
            assert fragment in errors[0], (fragment, errors[0])


@pytest.fixture
def cli(capsys):
    """cli("workload", "from-swf", ...) -> Outcome (argparse's own exits included)."""

    def run(*argv: object) -> Outcome:
        try:
            status = main([str(a) for a in argv])
        except SystemExit as exc:  # argparse usage errors
            status = exc.code if isinstance(exc.code, int) else 2
        captured = capsys.readouterr()
        return Outcome(status, captured.out, captured.err)

    return run


def assert_absent(path: Path) -> None:
    assert not path.exists(), f"{path} was written by a failed command"
