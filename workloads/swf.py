"""Standard Workload Format (SWF) reading and writing.

SWF (Parallel Workloads Archive, Feitelson et al.) is one job per line, 18
whitespace-separated numeric fields, ``-1`` meaning "unknown"; lines starting with ``;``
are header comments, ``; Key: value`` for the standard header keys (``MaxNodes``,
``MaxProcs``, ...). This module only parses and writes; cleaning and conversion to
Batsim JSON live in :mod:`datasched.workloads.swf_convert`.

Malformed job lines are never dropped silently: with ``on_error="reject"`` the first one
raises :class:`~datasched.errors.UserError` naming file and line; with ``on_error="skip"``
each is recorded in :attr:`SwfTrace.issues` (and counted by the caller/CLI).
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from datasched.errors import UserError, refuse_special_file

OnError = Literal["reject", "skip"]

#: SWF's marker for an unknown value.
UNKNOWN = -1


class SwfField(enum.IntEnum):
    """The 18 SWF columns; the value is the 1-based column number of the standard."""

    JOB_NUMBER = 1
    SUBMIT_TIME = 2
    WAIT_TIME = 3
    RUN_TIME = 4
    ALLOCATED_PROCESSORS = 5
    AVERAGE_CPU_TIME = 6
    USED_MEMORY = 7
    REQUESTED_PROCESSORS = 8
    REQUESTED_TIME = 9
    REQUESTED_MEMORY = 10
    STATUS = 11
    USER_ID = 12
    GROUP_ID = 13
    EXECUTABLE_NUMBER = 14
    QUEUE_NUMBER = 15
    PARTITION_NUMBER = 16
    PRECEDING_JOB_NUMBER = 17
    THINK_TIME = 18

    @property
    def index(self) -> int:
        """0-based position in a split line."""
        return self.value - 1


N_FIELDS = len(SwfField)

#: Fields whose value must be ``-1`` (unknown) or ``>= 0``: a negative size or duration
#: other than the unknown marker is a corrupt record, not a modelling choice.
NON_NEGATIVE_FIELDS = (
    SwfField.RUN_TIME,
    SwfField.ALLOCATED_PROCESSORS,
    SwfField.REQUESTED_PROCESSORS,
    SwfField.REQUESTED_TIME,
)


class SwfStatus(enum.IntEnum):
    """Field 11 codes of the SWF standard."""

    UNKNOWN = -1
    FAILED = 0
    COMPLETED = 1
    PARTIAL_TO_BE_CONTINUED = 2
    PARTIAL_LAST = 3
    PARTIAL_FAILED = 4
    CANCELLED = 5


Number = int | float


@dataclass(frozen=True)
class SwfJob:
    """One job record: the 18 values in column order plus the source line number."""

    values: tuple[Number, ...]
    line: int = 0

    def __post_init__(self) -> None:
        if len(self.values) != N_FIELDS:
            raise ValueError(f"an SWF job has {N_FIELDS} fields, got {len(self.values)}")

    def __getitem__(self, key: SwfField) -> Number:
        return self.values[key.index]

    @property
    def job_number(self) -> int:
        return int(self[SwfField.JOB_NUMBER])


@dataclass(frozen=True)
class SwfIssue:
    """A malformed line found while parsing (kept so skipping is never silent)."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class SwfTrace:
    """A parsed SWF file: header key/values (in file order), other comment lines, the job
    records in file order, and the malformed lines that were skipped."""

    jobs: list[SwfJob]
    header: dict[str, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    issues: list[SwfIssue] = field(default_factory=list)
    source: str = "<memory>"
    #: With ``extra_fields="ignore"``: how many job lines had more than 18 fields, and the
    #: first such line's number and trailing text (extended archives: node list, queue
    #: name, resource spec), so that what was ignored is reported, never silent.
    extra_field_lines: int = 0
    first_extra_fields: tuple[int, str] | None = None

    def header_int(self, key: str) -> int | None:
        """An integer header value (``MaxNodes``, ``MaxProcs``...), or None if absent or
        not an integer."""
        raw = self.header.get(key)
        if raw is None:
            return None
        try:
            return int(raw.split()[0])
        except (ValueError, IndexError):
            return None


_HEADER_RE = re.compile(r"^;\s*([A-Za-z][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$")
_INT_RE = re.compile(r"^[+-]?\d+$")


def parse_number(token: str) -> Number:
    """An SWF value: int when written as an integer, float otherwise (``552.21``).
    Raises ValueError for anything that is not a finite number."""
    if _INT_RE.match(token):
        return int(token)
    value = float(token)  # raises ValueError for non-numeric text
    if not math.isfinite(value):
        raise ValueError(token)
    return value


ExtraFields = Literal["reject", "ignore"]


def parse_job_line(text: str, line: int, path: str, extra_fields: ExtraFields = "reject") -> SwfJob:
    """Parse one job line; raises :class:`UserError` naming ``path:line`` if malformed.
    ``extra_fields="ignore"`` keeps the 18 standard fields of a longer line."""
    tokens = text.split()
    if len(tokens) > N_FIELDS and extra_fields == "ignore":
        tokens = tokens[:N_FIELDS]
    if len(tokens) != N_FIELDS:
        hint = " (an extended trace? --extra-fields ignore keeps the first 18)" if len(tokens) > N_FIELDS else ""
        raise UserError(f"{path}:{line}: expected {N_FIELDS} fields, found {len(tokens)}{hint}")
    values: list[Number] = []
    for swf_field, token in zip(SwfField, tokens, strict=True):
        try:
            values.append(parse_number(token))
        except ValueError:
            raise UserError(
                f"{path}:{line}: field {swf_field.value} ({swf_field.name.lower()}) is not a number: {token!r}"
            ) from None
    job_number = values[SwfField.JOB_NUMBER.index]
    if not isinstance(job_number, int) or job_number < 0:
        raise UserError(f"{path}:{line}: job number must be a non-negative integer, got {job_number!r}")
    for swf_field in NON_NEGATIVE_FIELDS:
        value = values[swf_field.index]
        if value < 0 and value != UNKNOWN:
            raise UserError(
                f"{path}:{line}: field {swf_field.value} ({swf_field.name.lower()}) is negative ({value}); "
                f"only -1 (unknown) is allowed"
            )
    return SwfJob(values=tuple(values), line=line)


def parse_swf_lines(
    lines: Iterable[str], *, path: str = "<memory>", on_error: OnError = "reject", extra_fields: ExtraFields = "reject"
) -> SwfTrace:
    """Parse SWF text given as lines. Blank lines are ignored (they are not records).
    Duplicate job numbers are malformed records too (job ids must be unique in Batsim)."""
    if on_error not in ("reject", "skip"):
        raise UserError(f"on_error must be 'reject' or 'skip', got {on_error!r}")
    trace = SwfTrace(jobs=[], source=path)
    seen: dict[int, int] = {}
    for line_no, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        if text.startswith(";"):
            match = _HEADER_RE.match(text)
            if match and match.group(1) not in trace.header:
                trace.header[match.group(1)] = match.group(2)
            else:
                trace.comments.append(text)
            continue
        try:
            job = parse_job_line(text, line_no, path, extra_fields)
            if extra_fields == "ignore" and len(text.split()) > N_FIELDS:
                trace.extra_field_lines += 1
                if trace.first_extra_fields is None:
                    trace.first_extra_fields = (line_no, " ".join(text.split()[N_FIELDS:]))
            if job.job_number in seen:
                raise UserError(
                    f"{path}:{line_no}: duplicate job number {job.job_number} (first on line {seen[job.job_number]})"
                )
        except UserError as exc:
            if on_error == "reject":
                raise
            trace.issues.append(SwfIssue(path=path, line=line_no, message=str(exc).split(": ", 1)[1]))
            continue
        seen[job.job_number] = line_no
        trace.jobs.append(job)
    return trace


def read_swf(path: str | Path, *, on_error: OnError = "reject", extra_fields: ExtraFields = "reject") -> SwfTrace:
    """Parse an SWF file. ``on_error="reject"`` raises on the first malformed line;
    ``"skip"`` records it in ``trace.issues`` and goes on."""
    path = Path(path)
    refuse_special_file(path)
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return parse_swf_lines(handle, path=str(path), on_error=on_error, extra_fields=extra_fields)
    except OSError as exc:
        raise UserError(f"{path}: cannot read SWF file: {exc.strerror}") from None


def format_number(value: Number) -> str:
    """Text of one value; ``repr`` for floats so parsing gives back the same float."""
    return str(value) if isinstance(value, int) else repr(float(value))


def format_job_line(job: SwfJob) -> str:
    return " ".join(format_number(v) for v in job.values)


def write_swf(trace: SwfTrace, path: str | Path) -> Path:
    """Write header (``; Key: value``), free comments, then one line per job."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    out = [f"; {key}: {value}" for key, value in trace.header.items()]
    out += list(trace.comments)
    out += [format_job_line(job) for job in trace.jobs]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path
