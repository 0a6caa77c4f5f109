"""Workflow-aware list scheduling (seed 001 section 4.1), data-aware or data-unaware.

Queue: jobs in submission order (ties by job number), each started as soon as its
dependencies are met and enough hosts are free ("scheduled by incrementing ID, if there
is sufficient space": a job that does not fit does not block the ones behind it).
Dependencies are the workload's job fields written by ``datasched workload
from-workflow``: ``dependencies`` (Slurm ``afterok``: the job waits, queued, until every
listed job completed successfully) and ``datasched_submit_after`` (chaining: the job
enters the queue only when every listed job completed, behind everything queued
meanwhile). A job whose dependency failed or was killed is rejected.

``data_aware`` (the compared variable, everything else equal):

- ``false``: hosts from the ``allocation`` option (default sequential: lowest free
  ids); every named data item is written to central storage (``items_to: central``), as
  on a system whose jobs share data through the external file system.
- ``true``: the policy tracks where the items written to node NVM are (the hosts that
  wrote them: the first I/O tasks of the write phase) and places a job on the free
  hosts that hold most of its input bytes (a holder of an item striped over h hosts
  holds 1/h of the bytes read from it), the rest at the lowest free ids; items stay
  where the profile says (node NVM for intermediate products, central storage for a
  workflow's final output). Released steps whose inputs are on node NVM are tried
  before the other waiting jobs in each round, so that the nodes holding their data are
  not taken by another job the moment they free up (our choice: the paper only says
  the steps "are now scheduled to use the same nodes").

Item locations come from the policy's own book (datasched/policy/items.py: the
workload's item entries, its own decisions, and the engine's evictions): a data-aware
policy asks datasched-sim for DATASCHED_ITEM_EVICTED (``wants_item_evictions``; the runner
passes ``--datasched-item-evictions``), so an item the engine evicted from node NVM is no
longer counted on its nodes, neither for placement nor as a pre-stage source or NVM room.
Evictions are applied after the other events of their message: an item is pinned while a
job or mover uses it, so an eviction reported with the completion (or StageDone) that put
the item on NVM happened after it, whatever the order inside the message. Without the
events (real Batsim, or a run without the option) the book is an upper bound, as before.

Data movers and holds (options, each needs ``data_aware``; the compared variants of the
Table 4 artifact). The rates come from the platform the engine runs (datasched/policy/rates.py):

- ``prestage``: after each round, for every *next* step B (waiting, no failed dependency,
  every unfinished dependency running), copy each input item that exists, is not being
  copied, is not rewritten by a running predecessor and is not already exactly on B's
  likely readers, onto those readers' NVM with a data mover (``StageData``: a stage-in
  from central storage, or a move from other nodes = post-moving an output that a later
  step needs elsewhere). B's likely hosts: the hosts held for it, else its running
  predecessors' hosts (the placement follows their outputs), else free hosts then the
  hosts of running jobs by expected end; its readers are the first ``io_tasks`` of them
  in id order, as the engine picks readers. Only onto NVMs with room for the stripe
  (capacity minus booked items minus copies under way): never a stage that must evict.
  Only between nodes free of running I/O: no reader and no node holding the item's
  stripes may be an I/O host of a running job's read or write phase (of any size > 0),
  since a copy shares their NVM and storage NIC with that job's own I/O -- on WfCommons'
  1000genome x100, copying onto the predecessors' nodes while they ran made T_all 39 %
  longer than not pre-staging, the running steps being on the critical path. The policy
  does not know which phase a running job is in, so a job that does any I/O on a node
  keeps copies off it for its whole run; compute-only and communication-only jobs do not.
  ``prestage_onto_busy: true`` lifts this test; a copy that waits is tried again at every
  round until its step starts.
- ``post_move``: a step whose profile sends an item to central storage writes it to node
  NVM instead (``items_to: nvm``) and a data mover stages it out to central storage after
  the step ends, in the background -- only where the engine's rates make that faster for
  the step: every I/O host's NVM write rate above its central-storage path rate.
- ``hold``: when step B's input bytes lie on free nodes H while B still waits for a
  running predecessor, keep H from other jobs for B when that is cheaper than moving the
  data later. With b_h the bytes of B's input items' stripes on h (what a mover would
  copy), P the unfinished predecessors::

      T_move = max_{h in H} b_h / min(r_nvm_read(h), r_link, r_nvm_write(h))
      T_wait = max_{P} max(0, start_P + est_P - now)
      hold H for B  iff  T_wait < T_move;  the hold ends when B starts, at the latest
                                           at now + T_move (a CALL_ME_LATER wakes us)

  est_P is the sum of P's phases' ``nominal_seconds`` (the profile's own estimate), else
  its walltime, else infinite. Both sides are node-seconds over the |H| nodes: a hold idles
  them for T_wait; not holding keeps their NVMs (and B, if the move is on its path) busy
  for T_move, the time of the engine's stage_move (one activity at the slowest of source
  NVM read, path and target NVM write; the target is taken as fast as the source). H is
  at most B's node count, the holders with most bytes first. A step is held at most once:
  once est_P has passed, T_wait is 0 and the rule would hold again at every wake-up,
  advancing time by T_move each round (microseconds for small items: a livelock seen on
  WfCommons' Blast with prestage).

On real Batsim: ``prestage`` and ``post_move`` send DATASCHED_STAGE, which only
datasched-sim understands (Batsim refuses unknown events and has no named items), so run
them on datasched-sim; the Batsim-compatible fallback is to run without them (the
data-aware variant with ``hold`` uses only standard Batsim events). A stage-in as a
``data_staging`` job (workloads/README.md) would move the same bytes but feed no item
placement, so this policy does not emulate it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import Field, model_validator

from datasched.policy.decisions import CENTRAL, CallMeLater, Decision, ExecuteJob, RejectJob, StageData, StorageChoice
from datasched.policy.events import (
    CompletionState,
    Event,
    ItemEvicted,
    JobCompleted,
    JobInfo,
    JobsKilled,
    StageDone,
)
from datasched.policy.items import ItemBook, phase_items
from datasched.policy.queue import QueueParams, QueuePolicy, RunningJob
from datasched.policy.rates import DataRates
from datasched.policy.registry import register_policy
from datasched.policy.storage import is_phase_job
from datasched.policy.validating import PROTOCOL_TIME_RESOLUTION


class WorkflowParams(QueueParams):
    data_aware: bool = Field(True, description="place steps near their input data and keep data on node NVM")
    prestage: bool = Field(False, description="copy the next steps' inputs to their likely nodes with data movers")
    prestage_onto_busy: bool = Field(
        False, description="let pre-stage copies use nodes where a running job does I/O (they then share it)"
    )
    post_move: bool = Field(
        False, description="write central outputs to node NVM first, stage them out after the step (when faster)"
    )
    hold: bool = Field(False, description="keep a step's data nodes for it while that is cheaper than moving data")

    @model_validator(mode="after")
    def _movers_need_data_awareness(self) -> WorkflowParams:
        used = [name for name in ("prestage", "post_move", "hold") if getattr(self, name)]
        if used and not self.data_aware:
            raise ValueError(f"{', '.join(used)} need data_aware: true (a data-unaware policy tracks no data)")
        if self.prestage_onto_busy and not self.prestage:
            raise ValueError("prestage_onto_busy needs prestage: true")
        return self


def _number(job_id: str) -> int:
    tail = job_id.split("!")[-1]
    return int(tail) if tail.lstrip("-").isdigit() else 0


def _job_ids(job: JobInfo, key: str) -> tuple[str, ...]:
    """Full ids of the jobs listed in the job's ``key`` field (same workload)."""
    workload = job.id.split("!")[0]
    value = job.extra.get(key) or ()
    return tuple(f"{workload}!{v}" for v in value)


def _dependencies(job: JobInfo) -> tuple[str, ...]:
    return _job_ids(job, "dependencies") + _job_ids(job, "datasched_submit_after")


def _io_hosts(profile: Mapping[str, Any], phase: Mapping[str, Any], hosts: tuple[int, ...]) -> tuple[int, ...]:
    """The hosts doing a phase's I/O: the first min(phase nodes, io_tasks) of the job's."""
    active = phase.get("nodes") or len(hosts)
    io_tasks = profile.get("io_tasks") or len(hosts)
    return hosts[: min(active, io_tasks, len(hosts))]


def estimated_runtime(job: JobInfo) -> float:
    """The profile's own estimate (sum of its phases' ``nominal_seconds``), else the
    walltime, else infinite."""
    phases = job.profile.get("phases") if job.profile else None
    if phases and all(isinstance(p.get("nominal_seconds"), (int, float)) for p in phases):
        return float(sum(p["nominal_seconds"] for p in phases))
    return math.inf if job.walltime is None else job.walltime


def move_seconds(stripe_bytes: Mapping[int, float], rates: DataRates) -> float:
    """T_move of the hold rule: the slowest holder's stripes copied by a data mover."""
    return max((b / rates.move(h, h) for h, b in stripe_bytes.items()), default=0.0)


def hold_pays(wait_seconds: float, stripe_bytes: Mapping[int, float], rates: DataRates) -> bool:
    """The hold rule (module docstring): T_wait < T_move."""
    return wait_seconds < move_seconds(stripe_bytes, rates)


@register_policy
class WorkflowPolicy(QueuePolicy):
    name = "workflow"
    description = "workflow-aware list scheduling (dependencies, chains); data_aware places steps on their data"
    Params = WorkflowParams

    def __init__(self, params: WorkflowParams) -> None:
        super().__init__(params)
        self.options = params
        self.data_aware = params.data_aware
        self.succeeded: set[str] = set()
        self.failed: set[str] = set()
        self.held: dict[str, JobInfo] = {}  # chained jobs not submitted yet (datasched_submit_after)
        self.book = ItemBook()
        self.stages: dict[str, StageData] = {}  # data movers under way, by stage id
        self.stage_count = 0
        self.reserved: dict[int, tuple[str, float]] = {}  # host -> (job it is held for, hold end)
        self.post_moving: set[str] = set()  # running jobs whose central outputs go to NVM first
        self.prestaged: set[tuple[str, str]] = set()  # (step, item) copied for it already
        self.held_once: set[str] = set()  # steps a hold was placed for (never twice)
        self._release_order: dict[str, tuple[float, int]] = {}

    @property
    def wants_item_evictions(self) -> bool:
        """A data-aware policy books item locations, so it needs the engine's evictions."""
        return self.data_aware

    @property
    def item_hosts(self) -> dict[str, tuple[int, ...]]:
        """Item -> hosts whose NVM holds its stripes, as far as the policy knows."""
        return self.book.nvm

    # ---- events ---------------------------------------------------------------
    def react(self, now: float, events: Sequence[Event]) -> list[Decision]:
        decisions: list[Decision] = []
        for event in events:
            if isinstance(event, JobCompleted):
                running = self.running.get(event.job_id)
                if event.state is CompletionState.COMPLETED_SUCCESSFULLY:
                    self.succeeded.add(event.job_id)
                    if running is not None:
                        decisions.extend(self._record_writes(running))
                else:
                    self.failed.add(event.job_id)
                self.post_moving.discard(event.job_id)
            elif isinstance(event, JobsKilled):
                self.failed.update(event.job_ids)
            elif isinstance(event, StageDone):
                stage = self.stages.pop(event.stage_id, None)
                if stage is not None:
                    self.book.staged(stage.item, stage.hosts or None)
        for event in events:  # last: an eviction followed whatever put the item on NVM (docstring)
            if isinstance(event, ItemEvicted):
                self.book.evicted(event.item, event.on_central)
        decisions.extend(super().react(now, events))
        return decisions

    def on_submitted(self, job: JobInfo, now: float) -> None:
        for _, item in phase_items(job.profile, "read"):
            self.book.note_read(item["name"], float(item["bytes"]))
        self.book.note_initial(job.extra)
        if _job_ids(job, "datasched_submit_after"):
            del self.waiting[job.id]  # the predecessor's script has not submitted it yet
            self.held[job.id] = job
        else:
            self._release_order[job.id] = (job.submit_time, _number(job.id))

    def _record_writes(self, finished: RunningJob) -> list[Decision]:
        """Where the job's named items are now: its write phases' I/O hosts (NVM) or
        central storage; post-moved outputs are staged out now."""
        profile = finished.job.profile
        post_move = finished.job.id in self.post_moving
        stage_outs: list[Decision] = []
        for phase, item in phase_items(profile, "write"):
            wanted = "central" if not self.data_aware else item.get("to", "nvm")
            to_nvm = wanted == "nvm" or post_move
            hosts = _io_hosts(profile, phase, finished.hosts) if to_nvm else None
            self.book.written(item["name"], float(item["bytes"]), hosts)
            if post_move and wanted == "central":
                stage_outs.append(self._stage(item["name"], CENTRAL))
        return stage_outs

    def _stage(self, item: str, to: tuple[int, ...] | str) -> StageData:
        self.stage_count += 1
        stage = StageData(f"stage-{self.stage_count}", item, to)
        self.stages[stage.stage_id] = stage
        return stage

    # ---- scheduling -------------------------------------------------------------
    def schedule(self, now: float) -> list[Decision]:
        decisions: list[Decision] = []
        for job_id in sorted(self.held, key=lambda j: _number(j)):
            after = _job_ids(self.held[job_id], "datasched_submit_after")
            if all(a in self.succeeded or a in self.failed for a in after):
                job = self.held.pop(job_id)
                self.waiting[job.id] = job
                self._release_order[job.id] = (now, _number(job.id))  # queued behind everything so far
        self._expire_holds(now)
        if self.options.hold:
            decisions.extend(self._hold(now))
        for job in self._candidates():
            deps = _dependencies(job)
            if any(d in self.failed for d in deps):
                del self.waiting[job.id]
                self._unhold(job.id)
                decisions.append(RejectJob(job.id))
                continue
            if not all(d in self.succeeded for d in deps):
                continue
            started = self._start(job, now)
            if started is not None:
                decisions.append(started)
        if self.options.prestage:
            decisions.extend(self._prestage(now))
        return decisions

    def _candidates(self) -> list[JobInfo]:
        jobs = sorted(self.waiting.values(), key=lambda j: self._release_order.get(j.id, (j.submit_time, 0)))
        if not self.data_aware:
            return jobs
        with_data = [j for j in jobs if self._input_bytes_by_host(j)]
        return with_data + [j for j in jobs if j not in with_data]

    def _input_bytes_by_host(self, job: JobInfo) -> dict[int, float]:
        held: dict[int, float] = {}
        for _, item in phase_items(job.profile, "read"):
            hosts = self.book.nvm.get(item["name"], ())
            for h in hosts:
                held[h] = held.get(h, 0.0) + float(item["bytes"]) / len(hosts)
        return held

    def _free_for(self, job_id: str) -> list[int]:
        """Free hosts not held for another job."""
        return [h for h in self.free_hosts.ascending() if self.reserved.get(h, (job_id, 0.0))[0] == job_id]

    def _start(self, job: JobInfo, now: float) -> ExecuteJob | None:
        if not self.data_aware:
            decision = self.try_start(job, now)
            if decision is None or not is_phase_job(job):
                return decision
            storage = decision.storage or StorageChoice()
            return ExecuteJob(decision.job_id, decision.hosts, _with_items_to(storage, "central"))
        free = self._free_for(job.id)
        if job.requested_hosts > len(free):
            return None
        held = self._input_bytes_by_host(job)
        ranked = sorted(free, key=lambda h: (-held.get(h, 0.0), h))
        hosts = tuple(sorted(ranked[: job.requested_hosts]))
        choice = self.assign_storage(job, hosts, now)
        if self.options.post_move and self._post_move_pays(job, hosts):
            choice = _with_items_to(choice or StorageChoice(), "nvm")
            self.post_moving.add(job.id)
        del self.waiting[job.id]
        self._unhold(job.id)
        self.running[job.id] = RunningJob.started(job, hosts, now)
        self.free_hosts.difference_update(hosts)
        return ExecuteJob(job.id, hosts, choice)

    def _post_move_pays(self, job: JobInfo, hosts: tuple[int, ...]) -> bool:
        """The job writes an item to central storage, and every writer's NVM is faster
        than its central-storage path: writing to NVM then staging out ends it sooner."""
        rates = self.platform.rates
        found = False
        for phase, item in phase_items(job.profile, "write"):
            if item.get("to", "nvm") != "central":
                continue
            found = True
            if any(rates.nvm_write(h) <= rates.central(h) for h in _io_hosts(job.profile, phase, hosts)):
                return False
        return found

    # ---- holds --------------------------------------------------------------------
    def _expire_holds(self, now: float) -> None:
        for host, (job_id, until) in list(self.reserved.items()):
            if until <= now + PROTOCOL_TIME_RESOLUTION or job_id not in self.waiting:  # dates are rounded
                del self.reserved[host]

    def _unhold(self, job_id: str) -> None:
        for host in [h for h, (j, _) in self.reserved.items() if j == job_id]:
            del self.reserved[host]

    def _next_steps(self) -> list[tuple[JobInfo, list[RunningJob]]]:
        """Waiting steps whose unfinished dependencies all run (at least one), with those."""
        out = []
        for job in sorted(self.waiting.values(), key=lambda j: self._release_order.get(j.id, (j.submit_time, 0))):
            deps = _dependencies(job)
            if any(d in self.failed for d in deps):
                continue
            unfinished = [d for d in deps if d not in self.succeeded]
            if unfinished and all(d in self.running for d in unfinished):
                out.append((job, [self.running[d] for d in unfinished]))
        return out

    def _hold(self, now: float) -> list[Decision]:
        decisions: list[Decision] = []
        for job, predecessors in self._next_steps():
            if job.id in self.held_once:
                continue
            stripes: dict[int, float] = {}
            for _, item in phase_items(job.profile, "read"):
                for h in self.book.nvm.get(item["name"], ()):
                    stripes[h] = stripes.get(h, 0.0) + self.book.stripe(item["name"])
            free = set(self._free_for(job.id))
            holders = sorted((h for h in stripes if h in free), key=lambda h: (-stripes[h], h))
            holders = holders[: job.requested_hosts]
            if not holders:
                continue
            wait = max(max(0.0, p.start + estimated_runtime(p.job) - now) for p in predecessors)
            t_move = move_seconds({h: stripes[h] for h in holders}, self.platform.rates)
            if wait < t_move:
                self.held_once.add(job.id)
                for h in holders:
                    self.reserved[h] = (job.id, now + t_move)
                decisions.append(CallMeLater(now + t_move))
        return decisions

    # ---- pre-staging --------------------------------------------------------------
    def _likely_hosts(self, job: JobInfo, predecessors: list[RunningJob]) -> tuple[int, ...] | None:
        n = job.requested_hosts
        order = [h for h, (j, _) in sorted(self.reserved.items()) if j == job.id]
        for p in predecessors:
            order.extend(sorted(p.hosts))
        order.extend(self._free_for(job.id))
        for running in sorted(self.running.values(), key=lambda r: (r.expected_end, r.job.id)):
            order.extend(sorted(running.hosts))
        chosen = list(dict.fromkeys(order))[:n]
        return tuple(sorted(chosen)) if len(chosen) == n else None

    def _prestage(self, now: float) -> list[Decision]:
        decisions: list[Decision] = []
        rates = self.platform.rates
        room = {h: rates.nvm_capacity(h) - used for h, used in self.book.used().items()}
        in_flight = {s.item for s in self.stages.values()}
        for stage in self.stages.values():
            for h in stage.hosts:
                room[h] = room.get(h, rates.nvm_capacity(h)) - self.book.size.get(stage.item, 0.0) / len(stage.hosts)
        busy = set() if self.options.prestage_onto_busy else self._storage_io_hosts()
        candidates = list(self._next_steps())
        candidates += [(j, []) for j in self._ready_waiting() if all(j.id != c.id for c, _ in candidates)]
        for job, predecessors in candidates:
            hosts = self._likely_hosts(job, predecessors)
            if hosts is None:
                continue
            rewritten = {item["name"] for p in predecessors for _, item in phase_items(p.job.profile, "write")}
            for phase, item in phase_items(job.profile, "read"):
                name = item["name"]
                if name in in_flight or name in rewritten or not self.book.exists(name):
                    continue
                if (job.id, name) in self.prestaged:
                    continue  # once per step and item: likely hosts may change, no ping-pong
                readers = _io_hosts(job.profile, phase, hosts)
                holders = self.book.nvm.get(name, ())
                if set(holders) == set(readers):
                    continue
                if busy.intersection(readers) or busy.intersection(holders):
                    continue  # tried again next round: the copy would share a running job's NVM and NIC
                share = self.book.size.get(name, 0.0) / len(readers)
                if any(room.get(h, rates.nvm_capacity(h)) < share for h in readers):
                    continue
                for h in readers:
                    room[h] = room.get(h, rates.nvm_capacity(h)) - share
                in_flight.add(name)
                self.prestaged.add((job.id, name))
                decisions.append(self._stage(name, readers))
        return decisions

    def _storage_io_hosts(self) -> set[int]:
        """Hosts whose NVM or storage NIC a running job's read or write phases use."""
        hosts: set[int] = set()
        for running in self.running.values():
            profile = running.job.profile or {}
            for phase in profile.get("phases") or ():
                if phase.get("kind") in ("read", "write") and (phase.get("bytes") or 0) > 0:
                    hosts.update(_io_hosts(profile, phase, running.hosts))
        return hosts

    def _ready_waiting(self) -> list[JobInfo]:
        """Waiting steps whose dependencies all succeeded (they did not fit this round)."""
        return [
            j
            for j in sorted(self.waiting.values(), key=lambda j: self._release_order.get(j.id, (j.submit_time, 0)))
            if all(d in self.succeeded for d in _dependencies(j))
        ]


def _with_items_to(storage: StorageChoice, items_to: str) -> StorageChoice:
    return StorageChoice(
        devices=storage.devices, access=storage.access, allocation=storage.allocation, items_to=items_to
    )
