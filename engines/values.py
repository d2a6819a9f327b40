"""Immutable values made cheaply: `evolve` is dataclasses.replace without its per-call
introspection (random playouts and log replays make millions of new states)."""
from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def evolve(value: T, **changes: Any) -> T:
    """A copy of the frozen dataclass `value` with the named fields changed."""
    fields = type(value).__dataclass_fields__  # type: ignore[attr-defined]
    values = value.__dict__.copy()  # frozen dataclasses keep their fields in __dict__
    values.update(changes)
    if len(values) != len(fields):
        unknown = sorted(set(changes) - set(fields))
        if unknown:
            raise TypeError(f"{type(value).__name__} has no field {unknown[0]!r}")
        values = {name: values[name] for name in fields}  # drop cached attributes: stale now
    new = object.__new__(type(value))
    object.__setattr__(new, "__dict__", values)
    return new
