"""Text from other players made safe to show: every name, beacon field or reason a peer
sent passes through `printable` before it reaches a terminal.

A peer's name is untrusted text: it may hold an escape sequence that moves the cursor,
retitles the window or rewrites what another line said, a newline that forges a line of
our own, or a right-to-left override that reverses what follows. The rule of what is
printable is protocol/names.py's (one fixed list of code points, the same every peer
checks names against); here every such character is written as a visible escape.
"""
from __future__ import annotations

from peerboard.protocol.names import shown

_NO_LIMIT = 1 << 30


def printable(text: object, limit: int | None = None) -> str:
    """`text` with every character that could steer a terminal written as a visible escape
    (`\\x1b`, `\\u202e`), cut to `limit` characters (with "…") when given. Never raises: a
    value that is not a str is shown by its repr, made printable the same way."""
    return shown(text if isinstance(text, str) else repr(text), _NO_LIMIT if limit is None else limit)
