"""Immutable values made cheaply: `evolve` is dataclasses.replace without its per-call
introspection (random playouts and log replays make millions of new states)."""
from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def evolve(value: T, **changes: Any) -> T:
    """A copy of the frozen dataclass `value` with the named fields changed."""
    fields = type(value).__dataclass_fields__  # type: ignore[attr-defined]
    if not changes.keys() <= fields.keys():
        unknown = sorted(set(changes) - set(fields))
        raise TypeError(f"{type(value).__name__} has no field {unknown[0]!r}")
    new = object.__new__(type(value))
    new.__dict__.update(value.__dict__)  # frozen dataclasses keep fields in __dict__
    new.__dict__.update(changes)
    return new
