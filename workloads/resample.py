"""Large workloads (millions of jobs) by seeded bootstrap resampling of an SWF trace.

Why: scaling studies need a year of a large machine's trace, and no such file belongs
in the repository. This generator draws as many jobs as asked from a real or
model-made trace (e.g. ``tests/data/traces/lublin_256.swf``, a Lublin–Feitelson model
output) so that the result keeps the trace's statistics:

* each job's (size, run time, walltime) is a job of the cleaned trace drawn uniformly
  with replacement (cleaning as ``datasched workload from-swf`` with its defaults:
  zero-size and zero-runtime jobs dropped, missing walltimes = run time + 1 s);
* sizes are multiplied by ``platform_nodes / trace nodes`` (rounded, at least 1, at
  most the platform), so the trace's offered load on its own machine is kept on the
  target machine;
* each submission gap is a gap between consecutive submissions of the trace, drawn
  uniformly with replacement; with ``offered_load`` every gap is scaled by one factor
  so that the expected offered load (mean node-seconds per job over mean gap, per
  node of the target platform) is that value. Without it the trace's own load is
  kept, which can exceed 1 (``lublin_256.swf``: 1.06), and then the queue, and the
  cost of every scheduling pass, grows without bound over a million jobs.

Sizes, run times and gaps are drawn independently (no correlation between a job and
the gap before it, unlike the trace). Same trace, parameters and seed => byte-identical
file. Profiles are ``delay`` profiles shared by every job with the same run time
(``d<seconds>``), so a million jobs need thousands of profiles, not a million.

The file is written as it is generated (one job per line), never held in memory.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, PositiveInt

from datasched.errors import UserError
from datasched.workloads.jsonio import normalise_number, sha256_of_file
from datasched.workloads.swf import SwfField, read_swf
from datasched.workloads.swf_convert import clean_jobs, make_options

GENERATOR_NAME = "datasched.workloads.resample"


class ResampleParams(BaseModel):
    """Parameters of :func:`generate` (validated; unknown keys are errors)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    jobs: PositiveInt
    platform_nodes: PositiveInt
    offered_load: float | None = Field(
        default=None,
        gt=0,
        description="expected node-seconds asked per node-second of the platform (None: the trace's)",
    )


@dataclass(frozen=True)
class TraceSample:
    """What resampling draws from: cleaned jobs of the trace and its submission gaps."""

    source: Path
    trace_nodes: int
    jobs: tuple[tuple[int, float, float], ...]  # (nodes, run time, walltime)
    gaps: tuple[float, ...]

    @classmethod
    def from_swf(cls, path: str | Path) -> TraceSample:
        trace = read_swf(path)
        kept, report = clean_jobs(trace, make_options())
        if len(kept) < 2:
            raise UserError(f"{path}: fewer than two usable jobs after cleaning; cannot resample it")
        submits = sorted(float(c.job[SwfField.SUBMIT_TIME]) for c in kept)
        gaps = tuple(b - a for a, b in pairwise(submits))
        if not any(gaps):
            raise UserError(f"{path}: every job is submitted at the same time; no arrival gaps to resample")
        return cls(Path(path), report.nb_res, tuple((c.nodes, c.runtime, c.walltime) for c in kept), gaps)

    def scaled_nodes(self, nodes: int, platform_nodes: int) -> int:
        return min(platform_nodes, max(1, round(nodes * platform_nodes / self.trace_nodes)))

    def offered_load(self, platform_nodes: int, gap_scale: float = 1.0) -> float:
        """Expected node-seconds asked per node-second of a ``platform_nodes`` machine."""
        work = sum(self.scaled_nodes(n, platform_nodes) * runtime for n, runtime, _ in self.jobs) / len(self.jobs)
        return work / (sum(self.gaps) / len(self.gaps) * gap_scale) / platform_nodes

    def gap_scale(self, params: ResampleParams) -> float:
        """Factor applied to every drawn gap (1 without ``offered_load``)."""
        if params.offered_load is None:
            return 1.0
        return self.offered_load(params.platform_nodes) / params.offered_load


@dataclass(frozen=True)
class GeneratedJob:
    id: int
    subtime: float
    res: int
    runtime: float
    walltime: float

    @property
    def profile(self) -> str:
        return f"d{normalise_number(self.runtime)}"


def generate(sample: TraceSample, params: ResampleParams, rng: random.Random) -> Iterator[GeneratedJob]:
    """The jobs, in submission order, drawn with ``rng``."""
    gap_scale = sample.gap_scale(params)
    now = 0.0
    jobs, gaps = sample.jobs, sample.gaps
    for job_id in range(params.jobs):
        if job_id:
            now += gaps[rng.randrange(len(gaps))] * gap_scale
        nodes, runtime, walltime = jobs[rng.randrange(len(jobs))]
        res = sample.scaled_nodes(nodes, params.platform_nodes)
        yield GeneratedJob(job_id, normalise_number(now), res, runtime, walltime)


def write(sample: TraceSample, params: ResampleParams, seed: int, path: str | Path) -> int:
    """Generates with ``random.Random(seed)`` straight into ``path``; returns the job count."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    profiles: dict[str, float] = {}
    tmp = path.with_name(path.name + ".tmp")
    try:
        _write_to(tmp, sample, params, seed, profiles)
    except BaseException:
        tmp.unlink(missing_ok=True)  # never a half-written file, even on Ctrl-C
        raise
    tmp.replace(path)
    return params.jobs


def _write_to(tmp: Path, sample: TraceSample, params: ResampleParams, seed: int, profiles: dict[str, float]) -> None:
    with tmp.open("w", encoding="ascii") as out:
        out.write(f'{{"nb_res": {params.platform_nodes}, "jobs": [\n')
        for job in generate(sample, params, random.Random(seed)):
            profiles.setdefault(job.profile, job.runtime)
            entry = {
                "id": job.id,
                "subtime": job.subtime,
                "walltime": normalise_number(job.walltime),
                "res": job.res,
                "profile": job.profile,
            }
            out.write(("" if job.id == 0 else ",\n") + json.dumps(entry))
        out.write("\n],\n")
        body = {
            "profiles": {n: {"type": "delay", "delay": normalise_number(d)} for n, d in sorted(profiles.items())},
            "datasched_meta": {
                "generator": GENERATOR_NAME,
                "source": sample.source.name,
                "source_sha256": sha256_of_file(sample.source),
                "seed": seed,
                "params": params.model_dump(),
            },
        }
        out.write(json.dumps(body, sort_keys=True)[1:] + "\n")
