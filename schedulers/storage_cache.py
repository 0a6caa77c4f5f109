"""Cache storage assignment (seed 000 section 4.1): every task's data on its own node's NVM.

No device is shared and no storage byte crosses the network (k equals the job's size),
which makes Cache the reference the paper compares the other assignments against.
"""

from __future__ import annotations

from datasched.policy.decisions import StorageChoice
from datasched.policy.params import PolicyParams
from datasched.policy.registry import register_storage
from datasched.policy.storage import StorageAssigner, StorageRequest, nvm_of


@register_storage
class CacheStorage(StorageAssigner):
    name = "cache"
    description = "each task's data on its own node's NVM (no network storage traffic)"
    Params = PolicyParams  # no k (k is the job's size) and no access type (every access is local)

    def assign(self, request: StorageRequest) -> StorageChoice:
        devices = tuple(nvm_of(request, host) for host in request.hosts)
        return StorageChoice(devices=devices, allocation="cache")
