"""Decoding an action by looking it up, the one way the engines make `decode` fast.

An engine whose well-formed actions are few (Aton: under 700; Athos: about 19,500 with a
`go` between any two nodes) lists them all once, at import, and decodes each by a
dictionary lookup instead of checking it: random playouts and replays decode every action.
The table is built by the engine's own `decode`, so a lookup gives exactly what checking
would; anything else (malformed, unhashable) goes to `decode` for the sentence saying
what is wrong.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, TypeVar

from peerboard.engines.contract import Action

D = TypeVar("D")

# The types a table key holds. A value of another type may still find a key, because
# True == 1 and 1.0 == 1 hash alike; such an action is checked by `decode` instead.
_EXACT = frozenset({str, int, type(None)})


def by_lookup(decode: Callable[[Any], D], actions: Iterable[Action]) -> Callable[[Any], D]:
    """`decode` with a table of every action in `actions` in front of it."""
    table = {action: decode(action) for action in actions}

    def decode_by_lookup(action: Any) -> D:
        try:
            decoded = table[action]
        except (KeyError, TypeError):  # not well formed (perhaps unhashable): say why
            return decode(action)
        for item in action:
            if type(item) not in _EXACT:
                return decode(action)
        return decoded

    decode_by_lookup.__doc__ = decode.__doc__
    return decode_by_lookup
