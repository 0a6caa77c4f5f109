"""A decision process that dies on the first job submission (tests the engine's and
the runner's handling of a decision process that exits early)."""

from batsim.batsim import BatsimScheduler


class CrashSched(BatsimScheduler):
    def onJobSubmission(self, job):
        raise RuntimeError("crashSched: deliberate failure on job " + job.id)
