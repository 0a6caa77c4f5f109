"""A scripted test decision process (pybatsim) for protocol features.

It logs every event it receives (type, timestamp, data) to ``options["log"]`` (JSON)
and performs scripted actions: ``on_begin`` (a list, at SIMULATION_BEGINS) and
``on_submit`` (job number -> list, when that job is submitted). Actions:
  {"register_profile": [workload, name, profile]}
  {"register_job": [full id, res, walltime, profile name]}
  {"execute": full id, "alloc": "0-1", "storage_mapping": {...}, "io": {...}}
  {"reject": full id}    {"kill": full id}    {"metadata": [full id, text]}    {"change_state": [full id, STATE]}
  {"notify": "registration_finished" | "continue_registration"}
  {"storage_controller": {"datasets": {storage id: [{"id","size"}]}, "transfers": [[dataset, src, dst]]}}
  {"set_state": ["0-1", pstate]}    {"query_energy": true}    (energy, -E)
``on_complete`` (job number -> list) and ``on_state`` (pstate as a string -> list, at
RESOURCE_STATE_CHANGED) script more actions.
Named in pybatsim's file/class convention (actionSched.py -> ActionSched).
"""

import json

from procset import ProcSet

from batsim.batsim import BatsimScheduler, Job


class ActionSched(BatsimScheduler):
    def __init__(self, options):
        super().__init__(options)
        self.log = []
        self.controller = None
        self.arrived = []

    # ---- scripted actions -------------------------------------------------------
    def _do(self, actions):
        for action in actions:
            if "register_profile" in action:
                workload, name, profile = action["register_profile"]
                self.bs.register_profiles(workload, {name: profile})
            elif "register_job" in action:
                job_id, res, walltime, profile = action["register_job"]
                self.bs.register_job(id=job_id, res=res, walltime=walltime, profile_name=profile)
            elif "execute" in action:
                job = self.bs.jobs[action["execute"]]
                job.allocation = ProcSet.from_str(action["alloc"])
                if "storage_mapping" in action:
                    job.storage_mapping = action["storage_mapping"]
                self.bs.execute_job(job, io_job=action.get("io"))
            elif "kill" in action:
                self.bs.kill_jobs([self.bs.jobs[action["kill"]]])
            elif "reject" in action:
                self.bs.reject_jobs_by_id([action["reject"]])
            elif "metadata" in action:
                self.bs.set_job_metadata(*action["metadata"])
            elif "change_state" in action:
                job_id, state = action["change_state"]
                self.bs.change_job_state(self.bs.jobs[job_id], Job.State[state])
            elif "notify" in action:
                if action["notify"] == "registration_finished":
                    self.bs.notify_registration_finished()
                else:
                    self.bs.notify_registration_continue()
            elif "storage_controller" in action:
                self._start_storage_controller(action["storage_controller"])
            elif "set_state" in action:
                resources, pstate = action["set_state"]
                self.bs.set_resource_state(ProcSet.from_str(resources), pstate)
            elif "query_energy" in action:
                self.bs.request_consumed_energy()

    def _start_storage_controller(self, spec):
        from batsim.storageController import StorageController

        self.controller = StorageController(self.bs.machines["storage"], self.bs, self, {})
        for storage_id, datasets in spec["datasets"].items():
            self.controller.get_storage(int(storage_id)).load_datasets_from_list(datasets, self.bs.time())
        for dataset, src, dst in spec["transfers"]:
            assert self.controller.ask_data_transfer(dataset, src, dst)

    def _record(self, kind, **data):
        self.log.append({"event": kind, "time": self.bs.time(), **data})

    # ---- pybatsim callbacks -------------------------------------------------------
    def onSimulationBegins(self):
        self._record("SIMULATION_BEGINS", nb_resources=self.bs.nb_resources,
                     storage=sorted(self.bs.storage_resources))
        self._do(self.options.get("on_begin", []))

    def onJobSubmission(self, job):
        self._record("JOB_SUBMITTED", job=job.id)
        self._do(self.options.get("on_submit", {}).get(job.id.split("!")[1], []))

    def onJobCompletion(self, job):
        self._record("JOB_COMPLETED", job=job.id, state=job.job_state.name)
        self._do(self.options.get("on_complete", {}).get(job.id.split("!")[1], []))

    def onJobsKilled(self, jobs):
        self._record("JOB_KILLED", jobs=[j.id for j in jobs])

    def onRequestedCall(self):
        self._record("REQUESTED_CALL")

    def onNotifyEventMachineUnavailable(self, machines):
        self._record("MACHINE_UNAVAILABLE", machines=str(machines))
        self._do(self.options.get("on_unavailable", []))

    def onNotifyEventMachineAvailable(self, machines):
        self._record("MACHINE_AVAILABLE", machines=str(machines))

    def onMachinePStateChanged(self, machines, new_pstate):
        self._record("RESOURCE_STATE_CHANGED", machines=str(machines), state=str(new_pstate))
        self._do(self.options.get("on_state", {}).get(str(new_pstate), []))

    def onReportEnergyConsumed(self, consumed_energy):
        self._record("ANSWER", consumed_energy=consumed_energy)

    def onNoMoreExternalEvents(self):
        self._record("NO_MORE_EXTERNAL_EVENTS")

    def onDatasetArrivedOnStorage(self, source_id, dest_id, dataset_id):
        # pybatsim calls it with DataTransfer(source_id, dest_id, dataset_id) unpacked,
        # whatever its base class's parameter names say.
        present = self.controller.has_dataset_on_storage(dataset_id, dest_id)
        self._record("DATASET_ARRIVED", dataset=dataset_id, source=source_id, dest=dest_id, present=present)
        self._do(self.options.get("on_arrival", []))

    def onDataTransferNotTerminated(self, source_id, dest_id, dataset_id):
        self._record("TRANSFER_FAILED", dataset=dataset_id)

    def onSimulationEnds(self):
        self._record("SIMULATION_ENDS")
        with open(self.options["log"], "w") as f:
            json.dump(self.log, f, indent=1)
