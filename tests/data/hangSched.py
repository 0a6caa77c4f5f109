"""A decision process that stops answering on the first job submission (tests the
engine's bounded wait for decisions)."""

import time

from batsim.batsim import BatsimScheduler


class HangSched(BatsimScheduler):
    def onJobSubmission(self, job):
        time.sleep(3600)
