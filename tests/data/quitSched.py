"""A decision process that leaves with exit status 0 in the middle of the simulation
(tests that the runner does not wait for the engine's decision timeout)."""

import os

from batsim.batsim import BatsimScheduler


class QuitSched(BatsimScheduler):
    def onJobSubmission(self, job):
        os._exit(0)
