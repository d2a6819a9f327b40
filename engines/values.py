"""Immutable values made cheaply, with derived values that cannot go stale.

* `cached` is functools.cached_property without its lock: a value worked out on first use
  and kept in the object's `__dict__`.
* `derived_from("tiles", "monks")` is a `cached` value that says what it is computed from:
  fields of the object, or other cached values (whose own inputs then count).
* `evolve(value, **changes)` is the one way to make a changed copy of a frozen dataclass;
  `replaced(values, index, value)` the one way to change one item of a tuple.
  It decides, for every cached value the old object holds, whether it survives: only a
  `derived_from` value none of whose inputs is among the changed fields is handed on; a plain
  `cached` value (inputs not declared) never is. No caller picks what to keep.
* `stale_caches(value)` compares every cached value an object holds with the value worked
  out again on a fresh copy (the conformance kit asks it at random points of random games,
  engines/testing.py), so a wrong list of inputs shows up as a named failure, not as two
  peers that silently disagree.
"""
from __future__ import annotations

from typing import Any, Callable, Generic, Iterator, TypeVar

T = TypeVar("T")
V = TypeVar("V")


class cached(Generic[V]):
    """A property worked out on first use and kept in the object's __dict__, where it then
    shadows this descriptor: functools.cached_property without the lock that Python 3.11
    takes on every first use (3.12 dropped it). The values are pure functions of immutable
    objects, so two threads working one out at once would agree.

    Declared bare (`@cached`), the value depends on everything and `evolve` never hands it
    on. `derived_from(...)` declares its inputs."""

    #: the names it is computed from (fields or other cached values); None: everything
    inputs: tuple[str, ...] | None = None

    def __init__(self, fn: Callable[[Any], V]):
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__
        self._fields: frozenset[str] | None = None

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> V:
        if obj is None:
            return self  # type: ignore[return-value]
        value = obj.__dict__[self.name] = self.fn(obj)
        return value

    def fields(self, owner: type) -> frozenset[str] | None:
        """The fields of `owner` this value depends on (through other cached values too);
        None when it depends on everything."""
        if self.inputs is None:
            return None
        if self._fields is None:
            self._fields = _resolve(owner, self, ())
        return self._fields


def derived_from(*inputs: str) -> Callable[[Callable[[Any], V]], cached[V]]:
    """A `cached` value computed from these fields (or other cached values) only:

        @derived_from("tiles")
        def passable(self) -> bytes: ...
    """

    def make(fn: Callable[[Any], V]) -> cached[V]:
        value: cached[V] = cached(fn)
        value.inputs = tuple(inputs)
        return value

    return make


def _resolve(owner: type, value: cached[Any], chain: tuple[str, ...]) -> frozenset[str] | None:
    fields = owner.__dataclass_fields__  # type: ignore[attr-defined]
    if value.name in chain:
        raise TypeError(f"{owner.__name__}.{value.name} depends on itself ({' -> '.join(chain)})")
    if value.inputs is None:
        return None
    found: set[str] = set()
    for name in value.inputs:
        if name in fields:
            found.add(name)
            continue
        other = getattr(owner, name, None)
        if not isinstance(other, cached):
            raise TypeError(f"{owner.__name__}.{value.name} names {name!r}, which is no field or cached value")
        inner = _resolve(owner, other, chain + (value.name,))
        if inner is None:
            return None
        found |= inner
    return frozenset(found)


def evolve(value: T, **changes: Any) -> T:
    """A copy of the frozen dataclass `value` with the named fields changed, carrying over
    exactly the cached values whose inputs did not change."""
    cls = type(value)
    fields = cls.__dataclass_fields__  # type: ignore[attr-defined]
    try:
        values = value.__dict__.copy()  # frozen dataclasses keep their fields in __dict__
    except AttributeError:  # a slotted dataclass: no __dict__, so no cached values either
        return _evolve_slotted(value, fields, changes)
    values.update(changes)
    if len(values) != len(fields):
        for name in changes:
            if name not in fields:
                raise TypeError(f"{cls.__name__} has no field {name!r}")
        # The keys beside the fields: the cached values the class declares, looked for by
        # name (a set difference of every key cost the ledger, which evolves several times an
        # entry, more than the copy itself); any other key, by that difference after all.
        beside = len(values) - len(fields)
        names = _CACHED_NAMES.get(cls)
        if names is None:
            names = _CACHED_NAMES[cls] = _cached_kinds(cls)
        plain, derived, dependents = names
        for name in plain:  # (as the ledger's all are: dropped, no question asked)
            if name in values:
                beside -= 1
                del values[name]
        for name in derived:
            if name in values:
                beside -= 1
        # A derived value goes exactly when one of its inputs changed: looked up from the
        # changed fields (a few), not asked of every value held (a search evolves millions)
        for name in changes:
            for dependent in dependents.get(name, ()):
                values.pop(dependent, None)
        if beside:
            for name in values.keys() - fields.keys():
                _carry_or_drop(cls, name, values, changes)
    new = _new(cls)
    _set(new, "__dict__", values)
    return new


# (bound once: `evolve` is called a few times for every action of every game)
_new = object.__new__
_set = object.__setattr__

#: class -> the names of its cached values (`cached_names`, a walk of its classes): the plain
#: ones (their inputs not declared, or resolving to everything), the `derived_from` ones, and
#: per field the derived ones computed from it; the same for every object of it, so worked
#: out once (a class whose cached values are declared anew while the program runs, as a test
#: may do, needs this memo cleared)
_CACHED_NAMES: dict[type, tuple[tuple[str, ...], tuple[str, ...], dict[str, tuple[str, ...]]]] = {}


def _cached_kinds(cls: type) -> tuple[tuple[str, ...], tuple[str, ...], dict[str, tuple[str, ...]]]:
    names = cached_names(cls)
    plain = tuple(name for name in names if getattr(cls, name).fields(cls) is None)
    derived = tuple(name for name in names if name not in plain)
    dependents: dict[str, tuple[str, ...]] = {}
    for name in derived:
        for field in sorted(getattr(cls, name).fields(cls)):
            dependents[field] = dependents.get(field, ()) + (name,)
    return plain, derived, dependents


def _carry_or_drop(cls: type, name: str, values: dict[str, Any], changes: dict[str, Any]) -> None:
    """Keep the cached value `name` in the new object's `values` only if it is a
    `derived_from` value none of whose inputs `changes` touches."""
    derived = getattr(cls, name, None)
    if isinstance(derived, cached) and derived.inputs is not None:
        inputs = derived.fields(cls)
        if inputs is not None and inputs.isdisjoint(changes):
            return
    del values[name]


def replaced(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """`values` with the item at `index` replaced by `value` (a seat's pile, a square of
    the board): the one way the engines change one item of a tuple."""
    return values[:index] + (value,) + values[index + 1 :]


def _evolve_slotted(value: T, fields: Any, changes: dict[str, Any]) -> T:
    for name in changes:
        if name not in fields:
            raise TypeError(f"{type(value).__name__} has no field {name!r}")
    new = object.__new__(type(value))
    for name in fields:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(value, name))
    return new


def cached_names(cls: type) -> tuple[str, ...]:
    """The cached values a class declares, in the order of its definition."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        for name, attr in vars(klass).items():
            if isinstance(attr, cached) and name not in names:
                names.append(name)
    return tuple(names)


def fresh(value: T) -> T:
    """The same fields as `value` and no cached values: what a replay from scratch builds."""
    if not hasattr(value, "__dict__"):
        return value
    fields = type(value).__dataclass_fields__  # type: ignore[attr-defined]
    new = object.__new__(type(value))
    object.__setattr__(new, "__dict__", {name: value.__dict__[name] for name in fields})
    return new


def warm(value: Any) -> None:
    """Work out every cached value of `value` (and of the dataclasses in its fields), so
    the next `evolve` has all of them to hand on or drop."""
    for obj, _ in _objects(value, ""):
        for name in cached_names(type(obj)):
            getattr(obj, name)


def stale_caches(value: Any) -> list[str]:
    """The cached values `value` holds (its nested dataclasses too) that differ from the
    same value worked out on a fresh copy, as "Class.name" (empty when all agree)."""
    stale = []
    for obj, where in _objects(value, type(value).__name__):
        known = obj.__dict__
        rebuilt = fresh(obj)
        for name in cached_names(type(obj)):
            if name in known and known[name] != getattr(rebuilt, name):
                stale.append(f"{where}.{name}")
    return stale


def _objects(value: Any, where: str) -> Iterator[tuple[Any, str]]:
    """Every dataclass with a __dict__ inside `value`: itself, its fields, tuples of them."""
    fields = getattr(type(value), "__dataclass_fields__", None)
    if fields is None:
        if type(value) is tuple:
            for i, item in enumerate(value):
                yield from _objects(item, f"{where}[{i}]")
        return
    if hasattr(value, "__dict__"):
        yield value, where
    for name in fields:
        yield from _objects(getattr(value, name), f"{where}.{name}")
