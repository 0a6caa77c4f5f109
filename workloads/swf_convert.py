"""SWF trace -> Batsim 4 workload JSON, with documented, optional cleaning.

Pipeline (each stage counted in :class:`ConversionReport` so nothing disappears silently):

1. *status*: with ``drop_failed_cancelled`` drop status 0 (failed) and 5 (cancelled).
2. *runtime*: with ``drop_zero_runtime`` drop jobs whose run time (field 4) is 0 or
   unknown (-1). Without it, 0-second jobs are kept and an unknown run time is an error
   naming the job and line (there is nothing to simulate).
3. *size*: processors = allocated (field 5), or requested (field 8) when field 5 is -1
   (``processors_field`` swaps the preference); nodes = ceil(processors /
   ``cores_per_node``). With ``drop_zero_size`` drop jobs with 0 or unknown processors;
   without it, such a job is an error naming job and line.
4. *width*: jobs wider than the platform (``platform_nodes``, else the header's
   ``MaxProcs`` or ``MaxNodes`` divided by ``cores_per_node``) are dropped
   (``wider_than_platform="drop"``) or kept (``"keep"``: the scheduler must reject them).
5. *window*: keep jobs with ``start_time <= submit < end_time`` (original trace seconds).
6. *count*: keep the first ``max_jobs`` jobs (file order) left after stages 1-5.
7. *shift*: with ``shift_to_zero`` subtract the first kept job's submit time.

Walltime = requested time (field 9). When it is -1 (Lublin-model traces have no user
estimates) the ``walltime_fallback`` decides:
``"runtime"`` (default): ``walltime_factor`` x run time + ``walltime_margin``, i.e.
estimates that are exact (factor 1) or uniformly pessimistic, the usual baseline when a
trace has no estimates. The margin (default 1 s) keeps a derived walltime strictly above
the run time: a job whose run time *equals* its walltime is killed by our engine (and
the tie is engine-dependent), which would turn "exact estimates" into "every job killed";
``"fixed"``: ``walltime_fixed`` seconds for every such job; ``"max_runtime"``: the
header's ``MaxRuntime`` (else the largest run time in the trace).
Jobs whose run time exceeds their walltime (320 in hpc2n.swf: real systems allow a
grace period) are handled by ``runtime_over_walltime``: ``"keep"`` (the simulation kills
them at the walltime, as Batsim does), ``"extend"`` (walltime := run time + margin) or ``"clip"``
(run time := walltime).

Profiles: ``delay`` with the run time (default; insensitive to the platform) or
``parallel_homogeneous`` with ``cpu = run time x host_speed`` flops per node and no
communication, so that contention on a node can stretch the job.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PositiveFloat, PositiveInt, ValidationError, model_validator

from datasched.errors import UserError
from datasched.workloads.jsonio import sha256_of_file, write_json
from datasched.workloads.swf import (
    UNKNOWN,
    ExtraFields,
    Number,
    OnError,
    SwfField,
    SwfIssue,
    SwfJob,
    SwfStatus,
    SwfTrace,
    read_swf,
)

GENERATOR_NAME = "datasched.workloads.swf_convert"
FORMAT_VERSION = 1


class ConversionOptions(BaseModel):
    """Every cleaning/conversion choice; unknown keys are rejected by name."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    cores_per_node: PositiveInt = 1
    processors_field: Literal["allocated", "requested"] = "allocated"
    platform_nodes: PositiveInt | None = None
    drop_failed_cancelled: bool = False
    drop_zero_runtime: bool = True
    drop_zero_size: bool = True
    wider_than_platform: Literal["drop", "keep"] = "drop"
    start_time: float | None = None
    end_time: float | None = None
    max_jobs: PositiveInt | None = None
    shift_to_zero: bool = True
    walltime_fallback: Literal["runtime", "fixed", "max_runtime"] = "runtime"
    walltime_factor: float = Field(default=1.0, ge=1.0)
    walltime_fixed: PositiveFloat | None = None
    walltime_margin: float = Field(default=1.0, ge=0.0)
    runtime_over_walltime: Literal["keep", "extend", "clip"] = "keep"
    profile_type: Literal["delay", "parallel_homogeneous"] = "delay"
    host_speed: PositiveFloat | None = None
    keep_swf_fields: bool = True

    @model_validator(mode="after")
    def check_dependent_options(self) -> ConversionOptions:
        if self.walltime_fallback == "fixed" and self.walltime_fixed is None:
            raise ValueError("walltime_fallback='fixed' needs walltime_fixed (seconds)")
        if self.profile_type == "parallel_homogeneous" and self.host_speed is None:
            raise ValueError("profile_type='parallel_homogeneous' needs host_speed (flop/s per node)")
        if self.start_time is not None and self.end_time is not None and self.end_time <= self.start_time:
            raise ValueError("end_time must be greater than start_time")
        return self


def make_options(**kwargs: Any) -> ConversionOptions:
    """Build options, turning pydantic's errors into a :class:`UserError` naming the key."""
    return options_from_mapping(kwargs)


def options_from_mapping(data: Mapping[Any, Any]) -> ConversionOptions:
    """:func:`make_options` for a mapping read from a file, whose keys may be numbers
    (``make_options(**data)`` raised TypeError for a YAML key such as ``40``)."""
    try:
        return ConversionOptions.model_validate(dict(data))
    except ValidationError as exc:
        parts = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err["loc"]) or "options"
            parts.append(f"{loc}: {err['msg']}")
        raise UserError("invalid SWF conversion option(s): " + "; ".join(parts)) from None


@dataclass
class ConversionReport:
    """How many jobs each stage removed, and the facts the output is built on."""

    source: str
    parsed_jobs: int
    malformed_lines: int
    dropped: dict[str, int] = field(default_factory=dict)
    kept_jobs: int = 0
    nb_res: int = 0
    walltime_fallback_jobs: int = 0
    runtime_over_walltime_jobs: int = 0
    issues: list[SwfIssue] = field(default_factory=list)
    extra_field_lines: int = 0
    #: extended traces: standard fields holding one placeholder-like value on every job
    placeholder_suspects: dict[str, Number] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        suspects = {"placeholder_suspects": dict(self.placeholder_suspects)} if self.placeholder_suspects else {}
        return suspects | {
            "parsed_jobs": self.parsed_jobs,
            "malformed_lines": self.malformed_lines,
            "dropped": dict(self.dropped),
            "kept_jobs": self.kept_jobs,
            "nb_res": self.nb_res,
            "walltime_fallback_jobs": self.walltime_fallback_jobs,
            "runtime_over_walltime_jobs": self.runtime_over_walltime_jobs,
            "extra_field_lines": self.extra_field_lines,
        }


@dataclass(frozen=True)
class CleanJob:
    """A job that survived cleaning, in the units the workload needs."""

    job: SwfJob
    nodes: int
    runtime: float
    walltime: float
    walltime_from_fallback: bool


def processors_of(job: SwfJob, preference: str) -> float:
    first, second = (
        (SwfField.ALLOCATED_PROCESSORS, SwfField.REQUESTED_PROCESSORS)
        if preference == "allocated"
        else (SwfField.REQUESTED_PROCESSORS, SwfField.ALLOCATED_PROCESSORS)
    )
    value = job[first]
    return job[second] if value == UNKNOWN else value


def nodes_for(processors: float, cores_per_node: int) -> int:
    """Whole nodes needed for ``processors`` cores (0 for 0 or unknown)."""
    if processors <= 0:
        return 0
    return math.ceil(processors / cores_per_node)


def platform_size(trace: SwfTrace, options: ConversionOptions) -> int:
    """Node count of the target platform: explicit option, else the header's MaxProcs
    (or MaxNodes when MaxProcs is absent) over cores_per_node."""
    if options.platform_nodes is not None:
        return options.platform_nodes
    capacity = trace.header_int("MaxProcs") or trace.header_int("MaxNodes")
    if not capacity or capacity <= 0:
        raise UserError(
            f"{trace.source}: header has no positive MaxProcs/MaxNodes; give platform_nodes (--platform-nodes)"
        )
    return nodes_for(capacity, options.cores_per_node)


def fallback_walltime(
    job: SwfJob, runtime: float, trace: SwfTrace, options: ConversionOptions, max_runtime: float
) -> float:
    if options.walltime_fallback == "runtime":
        return runtime * options.walltime_factor + options.walltime_margin
    if options.walltime_fallback == "fixed":
        assert options.walltime_fixed is not None
        return float(options.walltime_fixed)
    header_max = trace.header_int("MaxRuntime")
    return float(header_max) if header_max and header_max > 0 else max_runtime


#: Values that extended archives write where SWF means -1 (unknown) (issue 20).
PLACEHOLDER_VALUES = (1, 1024)
#: Fields the conversion reads: a placeholder there changes the workload, not just metadata.
USED_FIELDS = (
    SwfField.SUBMIT_TIME,
    SwfField.RUN_TIME,
    SwfField.ALLOCATED_PROCESSORS,
    SwfField.REQUESTED_PROCESSORS,
    SwfField.REQUESTED_TIME,
    SwfField.STATUS,
)


def placeholder_suspects(trace: SwfTrace) -> dict[str, Number]:
    """Standard fields of an extended trace (lines longer than 18 fields) that hold the
    same placeholder-like value (1 or 1024) on every job, field name -> value.

    Why only suspects: one value cannot tell "unknown" from a real 1 (a single queue, a
    serial job, a completed status) or a real 1024; a whole column of it, in an archive
    known to write placeholders, can. So nothing is changed; the summary names them and
    the user decides (workloads/README.md, *Extended traces*). Needs at least two jobs."""
    if trace.extra_field_lines == 0 or len(trace.jobs) < 2:
        return {}
    suspects: dict[str, Number] = {}
    for swf_field in SwfField:
        if swf_field is SwfField.JOB_NUMBER:
            continue
        first = trace.jobs[0][swf_field]
        if first in PLACEHOLDER_VALUES and all(job[swf_field] == first for job in trace.jobs):
            suspects[swf_field.name.lower()] = first
    return suspects


def clean_jobs(trace: SwfTrace, options: ConversionOptions) -> tuple[list[CleanJob], ConversionReport]:
    """Apply the cleaning stages (module docstring) in order, counting each drop."""
    report = ConversionReport(
        source=trace.source,
        parsed_jobs=len(trace.jobs),
        malformed_lines=len(trace.issues),
        issues=list(trace.issues),
        extra_field_lines=trace.extra_field_lines,
        placeholder_suspects=placeholder_suspects(trace),
    )
    nb_res = platform_size(trace, options)
    report.nb_res = nb_res
    dropped = {
        "failed_cancelled": 0,
        "zero_runtime": 0,
        "zero_size": 0,
        "wider_than_platform": 0,
        "outside_time_window": 0,
        "beyond_max_jobs": 0,
    }
    max_runtime = max((float(j[SwfField.RUN_TIME]) for j in trace.jobs), default=0.0)
    kept: list[CleanJob] = []
    for job in trace.jobs:
        status = job[SwfField.STATUS]
        if options.drop_failed_cancelled and status in (SwfStatus.FAILED, SwfStatus.CANCELLED):
            dropped["failed_cancelled"] += 1
            continue
        runtime = float(job[SwfField.RUN_TIME])
        if runtime <= 0:
            if options.drop_zero_runtime:
                dropped["zero_runtime"] += 1
                continue
            if runtime == UNKNOWN:
                raise UserError(
                    f"{trace.source}:{job.line}: job {job.job_number} has unknown run time (-1); "
                    "enable drop_zero_runtime (--drop-zero-runtime) to drop such jobs"
                )
        nodes = nodes_for(processors_of(job, options.processors_field), options.cores_per_node)
        if nodes <= 0:
            if options.drop_zero_size:
                dropped["zero_size"] += 1
                continue
            raise UserError(
                f"{trace.source}:{job.line}: job {job.job_number} has no (or unknown) processor count; "
                "enable drop_zero_size (--drop-zero-size) to drop such jobs"
            )
        if nodes > nb_res and options.wider_than_platform == "drop":
            dropped["wider_than_platform"] += 1
            continue
        submit = float(job[SwfField.SUBMIT_TIME])
        if (options.start_time is not None and submit < options.start_time) or (
            options.end_time is not None and submit >= options.end_time
        ):
            dropped["outside_time_window"] += 1
            continue
        if options.max_jobs is not None and len(kept) >= options.max_jobs:
            dropped["beyond_max_jobs"] += 1
            continue
        requested = float(job[SwfField.REQUESTED_TIME])
        from_fallback = requested <= 0
        walltime = fallback_walltime(job, runtime, trace, options, max_runtime) if from_fallback else requested
        if runtime > walltime:
            report.runtime_over_walltime_jobs += 1
            if options.runtime_over_walltime == "extend":
                walltime = runtime + options.walltime_margin
            elif options.runtime_over_walltime == "clip":
                runtime = walltime
        report.walltime_fallback_jobs += int(from_fallback)
        kept.append(
            CleanJob(job=job, nodes=nodes, runtime=runtime, walltime=walltime, walltime_from_fallback=from_fallback)
        )
    report.dropped = dropped
    report.kept_jobs = len(kept)
    return kept, report


#: Largest date or duration the engine reads from a workload (1e23 s, its kMaxTime): Batsim
#: 4.2.1 writes each number of its protocol with printf("%6f") in 30 characters at most and
#: aborts beyond (a submit time, walltime or delay above 1e23 s).
MAX_TIME = 1e23


def check_times(kept: list[CleanJob], origin: float, source: str) -> None:
    """Submit times must be >= 0 in the trace itself, and submit, run and wall times at most
    :data:`MAX_TIME`: the engine (like Batsim 4.2.1) refuses anything else, so refuse it here,
    naming the line.
    A negative submit time is refused even when the shift to zero would hide it: SWF counts
    seconds from the log's start, so -500 is a corrupt record (and -1, "unknown", leaves the
    job without a date), not a date to move."""
    for clean in kept:
        where = f"{source}:{clean.job.line}: job {clean.job.job_number}"
        raw = float(clean.job[SwfField.SUBMIT_TIME])
        if raw < 0:
            raise UserError(
                f"{where}: submit time {raw:g} is negative (SWF submit times are seconds from the log's start, "
                ">= 0; -1 means unknown); fix the line, or drop such jobs with --start-time 0"
            )
        submit = raw - origin
        for label, value in (("submit time", submit), ("run time", clean.runtime), ("walltime", clean.walltime)):
            if not value <= MAX_TIME:  # also inf and NaN
                raise UserError(
                    f"{where}: {label} {value:g} s is beyond the largest date Batsim 4.2.1 can write ({MAX_TIME:g} s)"
                )


def swf_fields_of(job: SwfJob) -> dict[str, Any]:
    """The original record, kept on the job for traceability (Batsim ignores it)."""
    return {f.name.lower(): job[f] for f in SwfField}


def build_workload(
    trace: SwfTrace, options: ConversionOptions, *, source_sha256: str | None = None
) -> tuple[dict[str, Any], ConversionReport]:
    """The workload document (a dict ready for :func:`write_json`) and its report."""
    kept, report = clean_jobs(trace, options)
    origin = 0.0
    if options.shift_to_zero and kept:
        origin = min(float(c.job[SwfField.SUBMIT_TIME]) for c in kept)
    check_times(kept, origin, trace.source)
    jobs: list[dict[str, Any]] = []
    profiles: dict[str, dict[str, Any]] = {}
    for clean in kept:
        job_id = clean.job.job_number
        profile_name = f"p{job_id}"
        if options.profile_type == "delay":
            profiles[profile_name] = {"type": "delay", "delay": clean.runtime}
        else:
            assert options.host_speed is not None
            profiles[profile_name] = {
                "type": "parallel_homogeneous",
                "cpu": clean.runtime * options.host_speed,
                "com": 0,
            }
        entry: dict[str, Any] = {
            "id": job_id,
            "subtime": float(clean.job[SwfField.SUBMIT_TIME]) - origin,
            "walltime": clean.walltime,
            "res": clean.nodes,
            "profile": profile_name,
        }
        if options.keep_swf_fields:
            entry["datasched_swf"] = dict(
                swf_fields_of(clean.job), line=clean.job.line, walltime_from_fallback=clean.walltime_from_fallback
            )
        jobs.append(entry)
    jobs.sort(key=lambda j: (j["subtime"], j["id"]))
    meta: dict[str, Any] = {
        "generator": GENERATOR_NAME,
        "format_version": FORMAT_VERSION,
        "source": Path(trace.source).name,
        "source_sha256": source_sha256,
        "swf_header": dict(trace.header),
        "options": options.model_dump(),
        "report": report.as_dict(),
        "submit_time_origin": origin,
    }
    document = {"nb_res": report.nb_res, "jobs": jobs, "profiles": profiles, "datasched_meta": meta}
    return document, report


def convert_swf(
    swf_path: str | Path,
    output_path: str | Path,
    options: ConversionOptions | None = None,
    *,
    on_error: OnError = "reject",
    extra_fields: ExtraFields = "reject",
) -> ConversionReport:
    """Read ``swf_path``, clean and convert it, write the workload JSON to ``output_path``.
    Malformed lines raise (``on_error="reject"``) or are skipped and counted in
    ``report.malformed_lines`` (``"skip"``); the caller should show ``trace.issues``."""
    options = options or ConversionOptions()
    trace = read_swf(swf_path, on_error=on_error, extra_fields=extra_fields)
    if not trace.jobs:
        raise UserError(f"{swf_path}: no job to convert: {why_no_job_lines(trace)}")
    document, report = build_workload(trace, options, source_sha256=sha256_of_file(swf_path))
    if report.kept_jobs == 0:
        dropped = ", ".join(f"{k}={v}" for k, v in report.dropped.items() if v)
        raise UserError(
            f"{swf_path}: no job left after cleaning: all {report.parsed_jobs} parsed jobs were dropped ({dropped}); "
            "see the cleaning options (workloads/README.md)"
        )
    write_json(document, output_path)
    return report


def why_no_job_lines(trace: SwfTrace) -> str:
    """Why an SWF file gave no job record: empty, comments only, or every line malformed."""
    if trace.issues:
        first = trace.issues[0]
        return (
            f"all {len(trace.issues)} job line(s) are malformed and were skipped "
            f"(first: line {first.line}: {first.message})"
        )
    if trace.header or trace.comments:
        return "the file has header/comment lines only"
    return "the file is empty"
