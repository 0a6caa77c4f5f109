"""Built-in scheduling policies, one file per policy.

Each module registers its class with ``@register_policy`` or ``@register_allocator``;
``datasched.policy.registry.discover`` imports every module here by its qualified
name (``datasched.schedulers.<file>``). See README.md for how to add one.
"""
