"""The documentation's commands work: every command block of README.md and docs/*.md is run
(issue 33), so the docs cannot rot unnoticed.

Each block runs with ``bash -euo pipefail`` in a scratch folder whose entries are links to the
repository's top-level files and folders, so a block uses the paths a reader types at the
repository root (``.venv/bin/datasched``, ``examples/…``) while what it writes (``W.json``,
``out/…``) stays in the scratch folder. A block must therefore be self-contained: it may not
rely on a file that an earlier block wrote. Blocks marked "not run" (``tests/docs/blocks.py``
says how) are reported as skipped with their reason. Test ids are ``FILE:LINE`` of the block.
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from tests.docs.blocks import REPO, Block, blocks, command_blocks, command_like_lines, doc_files

#: Seconds one block may take. Blocks are meant to take seconds; this bounds a hung one on a
#: loaded machine.
BLOCK_TIMEOUT = 300
#: Top-level entries of the repository a block must not see: what runs write, and git's data.
NOT_LINKED = {".git", "out", "results", ".snakemake", ".pytest_cache", ".ruff_cache", ".mypy_cache"}


def _param(block: Block):
    marks = [pytest.mark.skip(reason=f"not run: {block.not_run}")] if block.not_run else []
    return pytest.param(block, id=block.name, marks=marks)


COMMAND_BLOCKS = command_blocks()


def _git_status() -> str | None:
    if not (REPO / ".git").exists():
        return None
    proc = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=REPO, capture_output=True, text=True
    )
    return proc.stdout if proc.returncode == 0 else None


@pytest.mark.engine
@pytest.mark.parametrize("block", [_param(b) for b in COMMAND_BLOCKS])
def test_command_block_runs(block: Block, tmp_path):
    for entry in REPO.iterdir():
        if entry.name not in NOT_LINKED:
            (tmp_path / entry.name).symlink_to(entry)
    before = _git_status()
    env = dict(os.environ)
    env.pop("DATASCHED_SIM", None)  # the repository's engine, as a reader has it
    proc = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block.script()],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=BLOCK_TIMEOUT,
        check=False,
    )
    assert proc.returncode == 0, (
        f"{block.name} failed with status {proc.returncode}\n--- block\n{block.script()}"
        f"--- stdout (end)\n{proc.stdout[-3000:]}\n--- stderr (end)\n{proc.stderr[-3000:]}"
    )
    assert _git_status() == before, f"{block.name} changed files of the repository"


def test_the_docs_have_command_blocks_and_every_skip_says_why():
    assert len(COMMAND_BLOCKS) >= 20, [b.name for b in COMMAND_BLOCKS]
    runnable = [b for b in COMMAND_BLOCKS if b.not_run is None]
    # Most blocks run: a page that marks everything "not run" defeats the test.
    assert len(runnable) >= 0.7 * len(COMMAND_BLOCKS), [b.name for b in COMMAND_BLOCKS if b.not_run]
    assert all(b.not_run and len(b.not_run) >= 10 for b in COMMAND_BLOCKS if b.not_run is not None)


def test_no_command_hides_in_a_block_that_is_not_run():
    hidden = {b.name: command_like_lines(b) for path in doc_files() for b in blocks(path) if command_like_lines(b)}
    assert not hidden, f"commands in blocks whose language is not sh/bash/console (never run): {hidden}"


def test_the_not_run_marker_is_parsed(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "text\n<!-- not run: needs a cluster -->\n```sh\nsbatch x\n```\n\n```console\n$ echo hi\nhi\n```\n"
        "```json\n{}\n```\n"
    )
    found = blocks(page)
    assert [(b.language, b.not_run) for b in found] == [("sh", "needs a cluster"), ("console", None), ("json", None)]
    assert found[1].script() == "echo hi\n"
    page.write_text("<!-- not run: a reason -->\n\n```sh\nls\n```\n")
    with pytest.raises(ValueError, match="right before a command block"):
        blocks(page)
    page.write_text("<!-- not run: -->\n```sh\nls\n```\n")
    with pytest.raises(ValueError, match="must say why"):
        blocks(page)
    page.write_text("```sh\nls\n")
    with pytest.raises(ValueError, match="unclosed"):
        blocks(page)


def _scoreboard_counts() -> dict[tuple[str, str], tuple[int, int]]:
    """(seed, variant) -> (reproduced, claims) from the generated scoreboard."""
    text = (REPO / "paper-artifacts" / "README.md").read_text(encoding="utf-8")
    table = text.split("### Count per verdict", 1)[1].split("\n\n", 2)[1]
    lines = table.splitlines()
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    counts = {}
    for row in lines[2:]:
        cells = dict(zip(header, (c.strip() for c in row.strip("|").split("|")), strict=True))
        counts[(cells["seed"], cells["variant"])] = (int(cells["reproduced"]), int(cells["claims"]))
    return counts


def test_seeds_page_counts_match_the_scoreboard():
    """docs/seeds.md summarises the scoreboard per seed; it must say what the scoreboard says."""
    counts = _scoreboard_counts()
    seeds = sorted({seed for seed, _ in counts})
    assert seeds == ["000", "001", "002", "003", "004"]
    page = (REPO / "docs" / "seeds.md").read_text(encoding="utf-8")
    row = re.compile(r"^\| (?P<seed>\d{3}) \|.*\| (?P<status>[^|]*) \|$", re.M)
    rows = {m["seed"]: m["status"] for m in row.finditer(page)}
    for seed in seeds:
        (q, qn), (f, fn) = counts[(seed, "quick")], counts[(seed, "full")]
        assert rows.get(seed) == f"quick {q}/{qn}, full {f}/{fn} reproduced", (seed, rows.get(seed))


def test_relative_links_and_named_paths_exist():
    """Every relative Markdown link of the docs, and every repository path they name in code
    spans (`sim/src/qos/README.md`, `examples/qos.json`), exists; patterns (``*``, ``{a,b}``,
    ``seedNNN``) are not paths."""
    link = re.compile(r"\]\((?!https?://|#)([^)#\s]+)")
    folders = "docs|examples|sim|schedulers|platforms|workloads|workflows|analysis|bench|tests|simgrid|config|rules"
    named = re.compile(rf"`((?:{folders}|paper-artifacts|datasched|scripts)/[\w./-]+)`")
    missing = []
    for page in doc_files():
        text = page.read_text(encoding="utf-8")
        for target in link.findall(text):
            if not (page.parent / target).exists():
                missing.append(f"{page.relative_to(REPO)}: link {target}")
        for path in named.findall(text):
            if any(placeholder in path for placeholder in ("*", "{", "NNN")):
                continue
            if not (REPO / path.rstrip(".")).exists():
                missing.append(f"{page.relative_to(REPO)}: `{path}`")
    assert not missing, missing
