"""A configuration section as a file, so that editing it reruns what it drives.

The artifact rules pass their typed section of the configuration (a dataclass such as
``Seed004Spec``) to their scripts as a Snakemake *parameter*, and the case files they write
are named by only some of its values. Snakemake 9.27 does not rerun such a job when a value
inside that object changes (checked: adding a daemon cost to seed 004's quick section left
every case "up to date", and the artifact then mixed old and new settings). So each rule
also takes, as an *input*, a stamp file holding the section's canonical JSON. The stamp is
rewritten only when its content changes, so an unchanged configuration reruns nothing and a
changed one reruns every job of that artifact by modification time — which also holds under
``--rerun-triggers mtime`` on clusters.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any


def canonical(spec: Any) -> str:
    """The section as sorted JSON (paths and other objects by their string form). A dataclass
    may name, in ``STAMP_OMITTED_AT_DEFAULT``, optional fields added after summaries were
    committed under its digest: while such a field keeps its default it is left out, so the
    sections that do not use it keep their digest (analysis/accumulate.py)."""
    if not (dataclasses.is_dataclass(spec) and not isinstance(spec, type)):
        return json.dumps(spec, sort_keys=True, indent=1, default=str) + "\n"
    data = dataclasses.asdict(spec)
    defaults = {f.name: f.default for f in dataclasses.fields(spec)}
    for name in getattr(spec, "STAMP_OMITTED_AT_DEFAULT", ()):
        if getattr(spec, name) == defaults[name]:
            del data[name]
    return json.dumps(data, sort_keys=True, indent=1, default=str) + "\n"


def write_spec_stamp(path: str | Path, spec: Any) -> str:
    """Writes ``spec``'s canonical JSON to ``path`` unless the file already holds exactly
    that (its modification time then stays); returns the path as given."""
    target = Path(path)
    text = canonical(spec)
    if not target.is_file() or target.read_text() != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.write_text(text)
        partial.replace(target)  # never a half-written stamp beside a finished run
    return str(path)
