"""A test decision process (pybatsim): starts each job as soon as it is submitted, on
the allocation the test chose, and kills jobs when told to.

Options (JSON): {"alloc": {"<job number>": "0-1", ...}, "kill_at": {"<job number>": date},
"mapping": {"<job number>": {"0": 0, ...}}, "never_start": ["<job number>"],
"storage": {"<job number>": {"devices": [ids], "access": "..."}}}. "storage" becomes
EXECUTE_JOB's ``datasched_storage`` extension field (datasched_phases jobs). Jobs without an alloc entry start on hosts
0..res-1. Named in pybatsim's file/class convention so `pybatsim path/scriptedSched.py`
loads it.
"""

from procset import ProcSet

from batsim.batsim import BatsimScheduler


class ScriptedSched(BatsimScheduler):
    def onJobSubmission(self, job):
        number = job.id.split("!")[1]
        if number in self.options.get("never_start", []):
            return
        alloc = self.options.get("alloc", {}).get(number)
        job.allocation = ProcSet.from_str(alloc) if alloc else ProcSet((0, job.requested_resources - 1))
        if number in self.options.get("mapping", {}):
            job.mapping = self.options["mapping"][number]
        self.bs.execute_jobs([job])
        storage = self.options.get("storage", {}).get(number)
        if storage is not None:  # pybatsim has no API for extension fields: amend the event it queued
            self.bs._events_to_send[-1]["data"]["datasched_storage"] = storage
        kill_at = self.options.get("kill_at", {}).get(number)
        if kill_at is not None:
            self.bs.wake_me_up_at(kill_at)

    def onRequestedCall(self):
        now = self.bs.time()
        for number, date in self.options.get("kill_at", {}).items():
            job = self.bs.jobs.get(f"w0!{number}")
            if job is not None and abs(date - now) < 1e-6:
                self.bs.kill_jobs([job])

    def onJobCompletion(self, job):
        pass

    def onJobsKilled(self, jobs):
        pass
