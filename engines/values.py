"""Immutable values made cheaply: `evolve` is dataclasses.replace without its per-call
introspection (random playouts and log replays make millions of new states), and `cached`
is functools.cached_property without its lock."""
from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

T = TypeVar("T")
V = TypeVar("V")


class cached(Generic[V]):
    """A property worked out on first use and kept in the object's __dict__, where it then
    shadows this descriptor: functools.cached_property without the lock that Python 3.11
    takes on every first use (3.12 dropped it). The values are pure functions of immutable
    objects, so two threads working one out at once would agree."""

    def __init__(self, fn: Callable[[Any], V]):
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> V:
        if obj is None:
            return self  # type: ignore[return-value]
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


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
