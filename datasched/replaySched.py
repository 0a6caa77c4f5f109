"""A pybatsim scheduler that replays a reference schedule (``expected_jobs.csv``).

Used by the conformance suite for cases whose reference scheduler is not
deterministic across processes (pybatsim's ``fillerSched`` iterates a ``set`` of job
objects, whose order follows memory addresses). Replaying the reference decisions
isolates what the engine is responsible for: given the same decisions at the same
moments, every start and finish time must match Batsim's.

At each call at date ``now`` it starts, on the reference hosts, each waiting job
whose reference start lies in ``[now, now + window]``; ``sched_delay`` is consumed
first, as the replayed scheduler did.
"""

from __future__ import annotations

import csv

from batsim.batsim import BatsimScheduler
from procset import ProcSet


class ReplaySched(BatsimScheduler):
    """Named in pybatsim's convention (file replaySched.py -> class ReplaySched) so that
    `pybatsim path/to/replaySched.py` loads it."""

    def __init__(self, options):
        super().__init__(options)
        self.window = float(options.get("window", 0.05))
        self.sched_delay = float(options.get("sched_delay", 0.0))
        with open(options["reference"], newline="") as f:
            self.plan = {
                f"{row['workload_name']}!{row['job_id']}": (
                    float(row["starting_time"]),
                    ProcSet.from_str(row["allocated_resources"]),
                )
                for row in csv.DictReader(f)
                if row["final_state"] != "REJECTED"
            }
        self.waiting = {}

    def onJobSubmission(self, job):
        self.waiting[job.id] = job
        self._replay()

    def onJobCompletion(self, job):
        self._replay()

    def onRequestedCall(self):
        self._replay()

    def _replay(self):
        now = self.bs.time()
        due = [job for job_id, job in self.waiting.items() if now - 1e-9 <= self.plan[job_id][0] <= now + self.window]
        if self.sched_delay:
            self.bs.consume_time(self.sched_delay)
        for job in sorted(due, key=lambda j: self.plan[j.id][0]):
            job.allocation = self.plan[job.id][1]
            del self.waiting[job.id]
        if due:
            self.bs.execute_jobs(sorted(due, key=lambda j: self.plan[j.id][0]))
