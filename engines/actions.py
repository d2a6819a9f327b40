"""The shape of an action, the one definition the engines, the conformance kit and the wire
share (spec/engine-contract.md, "Actions"; spec/log-format.md, "ACTION").

An action is a tuple of str, int, bool and None, or of such tuples, nested less than
`MAX_ACTION_DEPTH` deep: small, immutable, hashable, and the same value after a trip through
msgpack. The protocol refuses anything else from the network before an engine sees it, and
the conformance kit refuses an engine that offers anything else.
"""
from __future__ import annotations

from typing import Any

#: tuples inside an action nest at most this deep (the action itself is depth 1)
MAX_ACTION_DEPTH = 4


def is_action(value: Any, depth: int = 1) -> bool:
    """Whether `value` has the shape of an action (not whether any game allows it)."""
    if not isinstance(value, tuple) or depth > MAX_ACTION_DEPTH:
        return False
    for item in value:
        # bool is an int; a str, an int or None is an atom; a tuple is looked into
        if item is None or isinstance(item, (str, int)):
            continue
        if not is_action(item, depth + 1):
            return False
    return True
