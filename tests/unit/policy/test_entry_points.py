"""External packages add policies through the ``datasched.schedulers`` entry-point group.

Each test installs a throwaway distribution the way pip would leave it — a
``*.dist-info`` folder with ``METADATA`` and ``entry_points.txt`` next to the
package's modules — in a temporary directory put on ``sys.path``, so discovery goes
through the real ``importlib.metadata`` machinery, not a mock.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from datasched.errors import UserError
from datasched.policy import JobInfo, PlatformView, create_policy, registry
from datasched.policy.driver import InMemoryDriver, SimJob

EXTERNAL_MODULE = '''
from datasched.policy.allocation import AllocationRequest, Allocator
from datasched.policy.decisions import Decision
from datasched.policy.queue import QueuePolicy
from datasched.policy.registry import register_policy


@register_policy
class NewestFirst(QueuePolicy):
    """Last come, first served: proves an outside policy runs like a built-in one."""

    name = "ext-newest-first"
    description = "start the most recently submitted job first"

    def schedule(self, now: float) -> list[Decision]:
        started = []
        for job in reversed(list(self.waiting.values())):
            decision = self.try_start(job, now)
            if decision is None:
                break
            started.append(decision)
        return started


class HighestIds(Allocator):
    """Not decorated: registered because an entry point names the class itself."""

    name = "ext-highest-ids"
    description = "highest free host ids"

    def choose(self, request: AllocationRequest):
        needed = request.job.requested_hosts
        return tuple(request.free_hosts[-needed:]) if needed <= len(request.free_hosts) else None


def not_a_class():
    return None


class NotAPolicy:
    name = "ext-not-a-policy"
    description = "a class that subclasses neither Policy nor Allocator"
'''


@pytest.fixture
def isolated_registry(monkeypatch):
    """Built-ins discovered once, then a fresh discovery per test; registry and imported
    external modules restored afterwards."""
    registry.discover()
    monkeypatch.setattr(registry, "_policies", dict(registry._policies))
    monkeypatch.setattr(registry, "_allocators", dict(registry._allocators))
    monkeypatch.setattr(registry, "_discovered", False)
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.startswith("ext_sched_test"):
            del sys.modules[name]


def install_distribution(root: Path, monkeypatch, entry_points: dict[str, str], name: str = "ext-sched-test") -> None:
    """Write ``ext_sched_test_policies.py`` and a dist-info declaring ``entry_points``."""
    (root / "ext_sched_test_policies.py").write_text(EXTERNAL_MODULE)
    dist_info = root / f"{name.replace('-', '_')}-0.1.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    lines = "\n".join(f"{key} = {value}" for key, value in entry_points.items())
    (dist_info / "entry_points.txt").write_text(f"[{registry.ENTRY_POINT_GROUP}]\n{lines}\n")
    monkeypatch.syspath_prepend(str(root))


def test_module_entry_point_registers_the_policies_it_defines(tmp_path, monkeypatch, isolated_registry):
    install_distribution(tmp_path, monkeypatch, {"newest": "ext_sched_test_policies"})
    assert "ext-newest-first" in registry.policy_names()
    assert {"fcfs", "easy"} <= set(registry.policy_names())  # built-ins still there
    jobs = [
        SimJob(JobInfo("1", 0.0, 2, 10.0), 10.0),
        SimJob(JobInfo("2", 1.0, 2, 10.0), 10.0),
        SimJob(JobInfo("3", 2.0, 2, 10.0), 10.0),
    ]
    result = InMemoryDriver(PlatformView.uniform(2), jobs).run(create_policy("ext-newest-first"))
    # job 1 runs 0-10; at 10 both 2 and 3 wait and the newest (3) goes first
    assert [result.outcomes[j].start for j in ("1", "3", "2")] == [0.0, 10.0, 20.0]


def test_class_entry_point_registers_an_undecorated_allocator(tmp_path, monkeypatch, isolated_registry):
    install_distribution(tmp_path, monkeypatch, {"highest": "ext_sched_test_policies:HighestIds"})
    assert "ext-highest-ids" in registry.allocator_names()
    jobs = [SimJob(JobInfo("1", 0.0, 2, 10.0), 10.0)]
    result = InMemoryDriver(PlatformView.uniform(5), jobs).run(create_policy("fcfs", {"allocation": "ext-highest-ids"}))
    assert result.outcomes["1"].hosts == (3, 4)


@pytest.mark.parametrize(
    "value,message",
    [
        ("ext_sched_test_missing_module", "ModuleNotFoundError: No module named 'ext_sched_test_missing_module'"),
        ("ext_sched_test_policies:Missing", "AttributeError"),
        ("ext_sched_test_policies:not_a_class", "neither a module nor a policy, allocator or storage class"),
        ("ext_sched_test_policies:NotAPolicy", "must subclass datasched.policy.Policy"),
    ],
)
def test_broken_entry_point_is_a_user_error_naming_it_and_its_package(
    tmp_path, monkeypatch, isolated_registry, value, message
):
    install_distribution(tmp_path, monkeypatch, {"broken": value})
    with pytest.raises(UserError) as caught:
        registry.policy_names()
    text = str(caught.value)
    assert f"scheduler entry point 'broken = {value}'" in text
    assert "package ext-sched-test 0.1" in text
    assert message in text
    # a failed discovery is not remembered as done: the next call reports it again
    with pytest.raises(UserError):
        registry.create_policy("fcfs")


def test_policy_module_failing_at_import_names_the_cause(tmp_path, monkeypatch, isolated_registry):
    (tmp_path / "ext_sched_test_crashing.py").write_text(
        textwrap.dedent("""
        raise RuntimeError("needs a licence server")
    """)
    )
    install_distribution(tmp_path, monkeypatch, {"crashing": "ext_sched_test_crashing"})
    with pytest.raises(UserError, match=r"'crashing = ext_sched_test_crashing'.*RuntimeError: needs a licence server"):
        registry.discover()


CLASHING_MODULE = '''
from datasched.policy.queue import QueuePolicy
from datasched.policy.registry import register_policy


class Easy(QueuePolicy):
    """Same class name and policy name as the built-in EASY."""

    name = "easy"
    description = "an outside policy that wants the built-in's name"

    def schedule(self, now):
        return []
'''


@pytest.mark.parametrize(
    "entry,decorated",
    [("ext_sched_test_clash", True), ("ext_sched_test_clash:Easy", False)],
    ids=["module-with-decorated-class", "class-entry-point"],
)
def test_outside_class_with_a_builtin_name_is_an_error_naming_both(
    tmp_path, monkeypatch, isolated_registry, entry, decorated
):
    builtin = registry.policy_class("easy")
    source = CLASHING_MODULE.replace("\nclass Easy", "\n@register_policy\nclass Easy") if decorated else CLASHING_MODULE
    (tmp_path / "ext_sched_test_clash.py").write_text(source)
    install_distribution(tmp_path, monkeypatch, {"clash": entry})
    monkeypatch.setattr(registry, "_discovered", False)
    with pytest.raises(UserError) as caught:
        registry.discover()
    text = str(caught.value)
    assert "policy name 'easy' is used by both datasched.schedulers.easy.Easy and ext_sched_test_clash.Easy" in text
    assert "'clash = " in text
    assert registry._policies["easy"] is builtin  # never replaced


def test_the_same_class_registered_again_is_not_a_clash(isolated_registry):
    builtin = registry.policy_class("easy")
    assert registry.register_policy(builtin) is builtin
    assert registry.policy_class("easy") is builtin
