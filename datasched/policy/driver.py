"""In-memory driver: a tiny discrete-event simulation of job starts and ends.

It stands in for the engine in tests: jobs take their known runtime (killed at
their walltime, as Batsim does), there is no network or I/O model (a data stage,
``StageData``, ends ``stage_seconds(decision)`` after it was asked for: 0 s unless the
test says otherwise), and the policy
is called exactly as the pybatsim adapter calls it — one ``react`` per instant,
with every event of that instant. Decisions go through :class:`ValidatingPolicy`
unless asked otherwise, so an illegal decision fails the test that caused it.
"""

from __future__ import annotations

import heapq
import itertools
import time as wallclock
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import cast

from datasched.policy.base import Policy
from datasched.policy.decisions import CallMeLater, ExecuteJob, KillJobs, RejectJob, StageData
from datasched.policy.events import (
    CompletionState,
    Event,
    JobCompleted,
    JobInfo,
    JobsKilled,
    JobSubmitted,
    NoMoreSubmissions,
    RequestedCall,
    StageDone,
)
from datasched.policy.platform import PlatformView
from datasched.policy.validating import ValidatingPolicy


@dataclass(frozen=True)
class SimJob:
    """A job of the in-memory workload: what the scheduler sees plus its true runtime."""

    info: JobInfo
    runtime: float


@dataclass
class JobOutcome:
    job_id: str
    submit_time: float
    start: float | None = None
    finish: float | None = None
    hosts: tuple[int, ...] = ()
    state: str = "waiting"  # completed | walltime_reached | killed | rejected | never_started


@dataclass
class DriverResult:
    outcomes: dict[str, JobOutcome]
    batches: int = 0
    decision_seconds: list[float] = field(default_factory=list)

    @property
    def makespan(self) -> float:
        ends = [o.finish for o in self.outcomes.values() if o.finish is not None]
        return max(ends, default=0.0)


_COMPLETION, _SUBMISSION, _CALL, _KILLED, _STAGED = 0, 1, 2, 3, 4


class InMemoryDriver:
    def __init__(
        self,
        platform: PlatformView,
        jobs: Iterable[SimJob],
        *,
        validate: bool = True,
        max_batches: int = 10_000_000,
        stage_seconds: Callable[[StageData], float] | None = None,
    ) -> None:
        self.platform = platform
        self.jobs = list(jobs)
        ids = [j.info.id for j in self.jobs]
        if len(set(ids)) != len(ids):
            raise ValueError("job ids must be unique")
        self.validate = validate
        self.max_batches = max_batches
        self.stage_seconds = stage_seconds or (lambda _stage: 0.0)
        self.stages: list[tuple[float, StageData]] = []  # (when asked, decision), in order

    def run(self, policy: Policy) -> DriverResult:
        if self.validate:
            policy = ValidatingPolicy(policy)
        by_id = {j.info.id: j for j in self.jobs}
        outcomes = {j.info.id: JobOutcome(j.info.id, j.info.submit_time) for j in self.jobs}
        result = DriverResult(outcomes)
        counter = itertools.count()
        heap: list[tuple[float, int, int, object]] = []
        for job in sorted(self.jobs, key=lambda j: j.info.submit_time):
            heapq.heappush(heap, (job.info.submit_time, _SUBMISSION, next(counter), job.info))
        pending_submissions = len(self.jobs)
        end_tokens: dict[str, int] = {}  # job id -> token of its scheduled completion

        now = 0.0
        self._apply(policy.begin(self.platform, now), now, heap, counter, by_id, outcomes, end_tokens)
        while heap:
            now = heap[0][0]
            events: list[Event] = []
            while heap and heap[0][0] == now:
                _, kind, token, payload = heapq.heappop(heap)
                if kind == _SUBMISSION:
                    events.append(JobSubmitted(now, payload))  # type: ignore[arg-type]
                    pending_submissions -= 1
                elif kind == _COMPLETION:
                    job_id, state = cast(tuple[str, CompletionState], payload)
                    if end_tokens.get(job_id) != token:
                        continue  # the job was killed before
                    del end_tokens[job_id]
                    outcome = outcomes[job_id]
                    outcome.finish = now
                    outcome.state = (
                        "completed" if state is CompletionState.COMPLETED_SUCCESSFULLY else "walltime_reached"
                    )
                    events.append(JobCompleted(now, job_id, state))
                elif kind == _KILLED:
                    events.append(JobsKilled(now, payload))  # type: ignore[arg-type]
                elif kind == _STAGED:
                    asked, stage = cast(tuple[float, StageData], payload)
                    events.append(StageDone(now, stage.stage_id, stage.item, "", 0.0, asked))
                else:
                    events.append(RequestedCall(now))
            if not events:
                continue
            if pending_submissions == 0 and any(isinstance(e, JobSubmitted) for e in events):
                events.append(NoMoreSubmissions(now))
            result.batches += 1
            if result.batches > self.max_batches:
                raise RuntimeError(f"policy did not settle after {self.max_batches} decision rounds")
            started = wallclock.perf_counter()
            decisions = policy.react(now, events)
            result.decision_seconds.append(wallclock.perf_counter() - started)
            self._apply(decisions, now, heap, counter, by_id, outcomes, end_tokens)
        policy.end(now)
        for outcome in outcomes.values():
            if outcome.state == "waiting":
                outcome.state = "never_started"
        return result

    def _apply(self, decisions, now, heap, counter, by_id, outcomes, end_tokens) -> None:
        for decision in decisions:
            if isinstance(decision, ExecuteJob):
                job = by_id[decision.job_id]
                outcome = outcomes[decision.job_id]
                outcome.start, outcome.hosts, outcome.state = now, tuple(decision.hosts), "running"
                walltime = job.info.walltime
                if walltime is not None and job.runtime > walltime:
                    end, state = now + walltime, CompletionState.COMPLETED_WALLTIME_REACHED
                else:
                    end, state = now + job.runtime, CompletionState.COMPLETED_SUCCESSFULLY
                token = next(counter)
                end_tokens[decision.job_id] = token
                heapq.heappush(heap, (end, _COMPLETION, token, (decision.job_id, state)))
            elif isinstance(decision, RejectJob):
                outcomes[decision.job_id].state = "rejected"
            elif isinstance(decision, KillJobs):
                killed = tuple(j for j in decision.job_ids if j in end_tokens)
                for job_id in killed:
                    del end_tokens[job_id]
                    outcomes[job_id].finish, outcomes[job_id].state = now, "killed"
                heapq.heappush(heap, (now, _KILLED, next(counter), killed))
            elif isinstance(decision, CallMeLater):
                heapq.heappush(heap, (decision.at, _CALL, next(counter), None))
            elif isinstance(decision, StageData):
                self.stages.append((now, decision))
                end = now + self.stage_seconds(decision)
                heapq.heappush(heap, (end, _STAGED, next(counter), (now, decision)))
