"""The command blocks of the documentation (README.md and docs/*.md).

Convention: a fenced block whose language is ``sh``, ``bash``, ``shell`` or ``console`` is a
command block, and a test runs it from a scratch folder that sees the repository's files
(``tests/docs/test_doc_commands.py``). A block that cannot run there (the full set-up, a
cluster submission, a program that is not installed) is preceded by an HTML comment that says
why, which the rendered page does not show::

    <!-- not run: the full set-up takes many minutes; CI runs it -->
    ```sh
    make reproduce
    ```

In a ``console`` block only the lines that start with ``$ `` are commands (the others are
their output). Blocks in other languages (``json``, ``yaml``, ``python``, none) are never run,
so they must not hold commands: ``command_like_lines`` finds any that do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHELL_LANGUAGES = frozenset({"sh", "bash", "shell", "console"})
NOT_RUN = re.compile(r"^<!--\s*not run:\s*(?P<reason>.*?)\s*-->$")
FENCE = re.compile(r"^(?P<fence>```+|~~~+)\s*(?P<info>[^`]*)$")
#: Lines that look like a command of this project: they belong in a command block.
COMMAND_START = re.compile(r"^\s*(\$ )?(\.venv/bin/|build/sim/datasched-sim|make |datasched |bench/|python -m )")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  #: 1-based line of the opening fence
    language: str
    text: str
    not_run: str | None  #: the reason given in a "not run" comment, or None

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"

    @property
    def is_command(self) -> bool:
        return self.language in SHELL_LANGUAGES

    def script(self) -> str:
        """The block as a shell script (a console block: its ``$ `` lines)."""
        if self.language != "console":
            return self.text
        return "\n".join(line[2:] for line in self.text.splitlines() if line.startswith("$ ")) + "\n"


def doc_files() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def blocks(path: Path) -> list[Block]:
    """Every fenced block of one Markdown file; raises ValueError on an unclosed fence or a
    "not run" comment that is not right before a command block."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    pending: tuple[int, str] | None = None  # a "not run" comment waiting for its block
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        marker = NOT_RUN.match(stripped)
        opening = FENCE.match(stripped)
        if marker:
            if not marker["reason"]:
                raise ValueError(f"{path}:{i + 1}: a 'not run' comment must say why")
            pending = (i + 1, marker["reason"])
        elif opening:
            fence = opening["fence"]
            language = opening["info"].split()[0].lower() if opening["info"].strip() else ""
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip().startswith(fence)), None)
            if end is None:
                raise ValueError(f"{path}:{i + 1}: unclosed code fence")
            reason = None
            if pending is not None:
                if pending[0] != i or language not in SHELL_LANGUAGES:
                    raise ValueError(f"{path}:{pending[0]}: a 'not run' comment must come right before a command block")
                reason = pending[1]
                pending = None
            text = "\n".join(lines[i + 1 : end]) + "\n"
            found.append(Block(path, i + 1, language, text, reason))
            i = end
        elif stripped and pending is not None:
            raise ValueError(f"{path}:{pending[0]}: a 'not run' comment must come right before a command block")
        i += 1
    if pending is not None:
        raise ValueError(f"{path}:{pending[0]}: a 'not run' comment must come right before a command block")
    return found


def command_blocks() -> list[Block]:
    return [b for path in doc_files() for b in blocks(path) if b.is_command]


def command_like_lines(block: Block) -> list[str]:
    """Lines of a non-command block that look like commands (they would never be run)."""
    if block.is_command:
        return []
    return [line for line in block.text.splitlines() if COMMAND_START.match(line)]
