"""Registry of queue policies and allocators.

Adding a policy means adding one file to ``schedulers/`` (the ``datasched.schedulers``
package) whose class carries ``@register_policy``, ``@register_allocator`` or
``@register_storage``.
:func:`discover` imports every module of that package by its *qualified* name
(never a top-level ``schedulers``, which pybatsim owns) and then loads the
``datasched.schedulers`` entry-point group, through which external packages add
policies: each entry point names a module (importing it registers its classes)
or a class (registered as it is loaded).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import pkgutil
import types
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from datasched.errors import UserError

if TYPE_CHECKING:  # the policy modules import this registry
    from datasched.policy.allocation import Allocator
    from datasched.policy.base import Policy
    from datasched.policy.storage import StorageAssigner

ENTRY_POINT_GROUP = "datasched.schedulers"
BUILTIN_PACKAGE = "datasched.schedulers"

_policies: dict[str, type[Policy]] = {}
_allocators: dict[str, type[Allocator]] = {}
_storage: dict[str, type[StorageAssigner]] = {}
_discovered = False

T = TypeVar("T", bound=type)


def _check_name(klass: type, kind: str) -> str:
    name = getattr(klass, "name", None)
    if not isinstance(name, str) or not name:
        raise TypeError(f"{kind} {klass.__qualname__} needs a non-empty class attribute 'name'")
    if not isinstance(getattr(klass, "description", None), str):
        raise TypeError(f"{kind} {name!r} needs a one-line class attribute 'description'")
    return name


def _register(klass: T, kind: str, base: type, base_path: str, table: dict) -> T:
    """Shared by both decorators: checks the class and files it under its name."""
    name = _check_name(klass, kind)
    if not issubclass(klass, base):
        raise TypeError(f"{kind} {name!r} must subclass {base_path}")
    existing = table.get(name)
    if existing is not None and not _same_definition(existing, klass):
        raise TypeError(
            f"{kind} name {name!r} is used by both {_full_name(existing)} and {_full_name(klass)}: "
            f"rename one of them (class attribute 'name')"
        )
    table[name] = klass
    return klass


def _full_name(klass: type) -> str:
    return f"{klass.__module__}.{klass.__qualname__}"


def _same_definition(a: type, b: type) -> bool:
    """The same class, or the same definition executed again (its module re-imported):
    only then may a name be registered twice. A class of another module whose name
    collides is an error, never a silent replacement of a built-in policy."""
    return a is b or _full_name(a) == _full_name(b)


def register_policy(klass: T) -> T:
    """Class decorator: make a :class:`~datasched.policy.base.Policy` available by its ``name``."""
    from datasched.policy.base import Policy

    return _register(klass, "policy", Policy, "datasched.policy.Policy", _policies)


def register_allocator(klass: T) -> T:
    """Class decorator: make an :class:`~datasched.policy.allocation.Allocator` available by ``name``."""
    from datasched.policy.allocation import Allocator

    return _register(klass, "allocator", Allocator, "datasched.policy.allocation.Allocator", _allocators)


def register_storage(klass: T) -> T:
    """Class decorator: make a :class:`~datasched.policy.storage.StorageAssigner` available by ``name``."""
    from datasched.policy.storage import StorageAssigner

    return _register(klass, "storage policy", StorageAssigner, "datasched.policy.storage.StorageAssigner", _storage)


def discover() -> None:
    """Import built-in policy files and entry points once (idempotent; retried after a failure)."""
    global _discovered
    if _discovered:
        return
    _discovered = True  # set first: policy modules may call back into the registry
    try:
        package = importlib.import_module(BUILTIN_PACKAGE)
        for module in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            if not module.name.startswith("_"):
                importlib.import_module(f"{BUILTIN_PACKAGE}.{module.name}")
        for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            _load_entry_point(entry)
    except BaseException:
        _discovered = False
        raise


def _load_entry_point(entry: importlib.metadata.EntryPoint) -> None:
    """Load one external entry point; any failure is a UserError naming it and its package."""
    dist = getattr(entry, "dist", None)
    origin = f" (package {dist.name} {dist.version})" if dist is not None else ""
    where = f"scheduler entry point '{entry.name} = {entry.value}' in group '{ENTRY_POINT_GROUP}'{origin}"
    try:
        loaded = entry.load()
    except Exception as exc:  # an external package's import may fail in any way
        raise UserError(f"{where} cannot be loaded: {type(exc).__name__}: {exc}") from exc
    if isinstance(loaded, types.ModuleType):
        return  # importing the module registered its classes
    if not isinstance(loaded, type):
        raise UserError(f"{where} names {loaded!r}, which is neither a module nor a policy, allocator or storage class")
    from datasched.policy.allocation import Allocator
    from datasched.policy.storage import StorageAssigner

    try:
        if issubclass(loaded, Allocator):
            register_allocator(loaded)
        elif issubclass(loaded, StorageAssigner):
            register_storage(loaded)
        else:
            register_policy(loaded)
    except TypeError as exc:
        raise UserError(f"{where}: {exc}") from exc


def policy_names() -> list[str]:
    discover()
    return sorted(_policies)


def allocator_names() -> list[str]:
    discover()
    return sorted(_allocators)


def policy_class(name: str) -> type[Policy]:
    discover()
    try:
        return _policies[name]
    except KeyError:
        raise UserError(f"unknown scheduler policy '{name}' (known: {', '.join(sorted(_policies))})") from None


def allocator_class(name: str, error: type[Exception] = UserError) -> type[Allocator]:
    discover()
    try:
        return _allocators[name]
    except KeyError:
        raise error(f"unknown allocation policy '{name}' (known: {', '.join(sorted(_allocators))})") from None


def storage_names() -> list[str]:
    discover()
    return sorted(_storage)


def storage_class(name: str, error: type[Exception] = UserError) -> type[StorageAssigner]:
    discover()
    try:
        return _storage[name]
    except KeyError:
        raise error(f"unknown storage policy '{name}' (known: {', '.join(sorted(_storage))})") from None


def create_policy(name: str, options: Mapping[str, Any] | None = None) -> Any:
    """Instantiate policy ``name`` with validated ``options`` (a JSON-like mapping)."""
    from datasched.policy.params import parse_params

    klass = policy_class(name)
    return klass(parse_params(klass.Params, options, f"policy '{name}'"))
