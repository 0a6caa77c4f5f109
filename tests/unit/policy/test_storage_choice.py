"""A policy's storage choice (StorageChoice) is checked by the validating wrapper and
reaches the engine as EXECUTE_JOB's ``datasched_storage`` field."""

from __future__ import annotations

import types

import pytest
from procset import ProcSet

from datasched.policy import ExecuteJob, JobInfo, JobSubmitted, PlatformView, Policy, StorageChoice
from datasched.policy.adapter import PybatsimAdapter
from datasched.policy.params import PolicyParams
from datasched.policy.validating import IllegalDecision, ValidatingPolicy


class _Fixed(Policy):
    """Returns the decisions it is given."""

    name = "fixed"
    description = "test only"

    def __init__(self, params: PolicyParams) -> None:
        super().__init__(params)
        self.decisions: list = []

    def react(self, now, events):
        return self.decisions


@pytest.mark.parametrize(
    ("storage", "message"),
    [
        (StorageChoice(devices=(3, 3)), "storage device twice"),
        (StorageChoice(devices=(-1,)), "must be resource ids"),
        (StorageChoice(access="random"), "access type 'random'"),
    ],
)
def test_validating_wrapper_checks_the_storage_choice(storage, message):
    policy = _Fixed(Policy.Params())
    policy.decisions = [ExecuteJob("a", (0,), storage)]
    wrapper = ValidatingPolicy(policy)
    wrapper.begin(PlatformView.uniform(2), 0.0)
    with pytest.raises(IllegalDecision, match=message):
        wrapper.react(0.0, [JobSubmitted(0.0, JobInfo("a", 0.0, 1, 1.0))])


def test_adapter_adds_the_storage_field_to_pybatsims_execute_job_event():
    """pybatsim's own execute_job builds the events; the adapter amends them."""
    from batsim.batsim import Batsim

    class _Job:
        def __init__(self, job_id):
            self.id = job_id
            self.state = None

    fake = types.SimpleNamespace(
        _events_to_send=[], nb_jobs_scheduled=0, time=lambda: 5.0, jobs={"w0!1": _Job("w0!1"), "w0!2": _Job("w0!2")}
    )
    fake.execute_job = types.MethodType(Batsim.execute_job, fake)
    fake.execute_jobs = types.MethodType(Batsim.execute_jobs, fake)
    adapter = PybatsimAdapter(_Fixed(Policy.Params()))
    adapter.bs = fake
    adapter._jobs = dict(fake.jobs)
    adapter._send(
        [ExecuteJob("w0!1", (0, 1), StorageChoice(devices=(7, 9), access="affinity")), ExecuteJob("w0!2", (2,))]
    )
    events = {e["data"]["job_id"]: e["data"] for e in fake._events_to_send}
    assert events["w0!1"]["alloc"] == str(ProcSet(0, 1))
    assert events["w0!1"]["datasched_storage"] == {"devices": [7, 9], "access": "affinity"}
    assert "datasched_storage" not in events["w0!2"]


def test_a_start_within_the_protocols_microsecond_of_the_submission_is_legal():
    """The engine (as Batsim 4) sends dates rounded to 1e-6 s: a job submitted at
    20.1219161177 is started at the rounded "now" 20.121916."""
    policy = _Fixed(Policy.Params())
    policy.decisions = [ExecuteJob("a", (0,))]
    wrapper = ValidatingPolicy(policy)
    wrapper.begin(PlatformView.uniform(1), 0.0)
    assert wrapper.react(20.121916, [JobSubmitted(20.121916, JobInfo("a", 20.1219161177, 1, 1.0))])
    policy.decisions = [ExecuteJob("b", (0,))]
    with pytest.raises(IllegalDecision, match="before its submission"):
        wrapper.react(20.0, [JobSubmitted(20.0, JobInfo("b", 20.1, 1, 1.0))])
