"""Policy framework: typed events and decisions, the policy base class, the registry,
allocation interface, validating wrapper, in-memory driver and the pybatsim adapter.

Policies themselves live in ``schedulers/`` (package ``datasched.schedulers``).
"""

from datasched.policy.allocation import AllocationRequest, Allocator, DataLocations
from datasched.policy.base import Policy
from datasched.policy.decisions import (
    CallMeLater,
    Decision,
    ExecuteJob,
    KillJobs,
    RejectJob,
    StageData,
    StorageChoice,
)
from datasched.policy.events import (
    CompletionState,
    Event,
    ItemEvicted,
    JobCompleted,
    JobInfo,
    JobsKilled,
    JobSubmitted,
    NoMoreSubmissions,
    RequestedCall,
    StageDone,
)
from datasched.policy.params import PolicyParams
from datasched.policy.platform import HostInfo, PlatformView
from datasched.policy.rates import DataRates
from datasched.policy.registry import create_policy, register_allocator, register_policy

__all__ = [
    "AllocationRequest",
    "Allocator",
    "CallMeLater",
    "CompletionState",
    "DataLocations",
    "DataRates",
    "Decision",
    "Event",
    "ExecuteJob",
    "HostInfo",
    "ItemEvicted",
    "JobCompleted",
    "JobInfo",
    "JobSubmitted",
    "JobsKilled",
    "KillJobs",
    "NoMoreSubmissions",
    "PlatformView",
    "Policy",
    "PolicyParams",
    "RejectJob",
    "RequestedCall",
    "StageData",
    "StageDone",
    "StorageChoice",
    "create_policy",
    "register_allocator",
    "register_policy",
]
