"""Text from other players made safe to show: every name, beacon field or reason a peer
sent passes through `printable` before it reaches a terminal.

A peer's name is untrusted bytes turned into a str: it may hold an escape sequence that
moves the cursor, retitles the window or rewrites what another line said, a newline that
forges a line of our own, or a right-to-left override that reverses what follows. None of
that may reach the screen; what remains is shown as written.
"""
from __future__ import annotations

import unicodedata

#: Unicode categories shown as they are: letters, marks, numbers, punctuation, symbols and
#: the plain space. Everything else (controls Cc, format Cf such as the bidirectional
#: overrides, separators other than the space, surrogates, unassigned) is replaced.
_SHOWN = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No",
                    "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So"})
REPLACEMENT = "?"


def printable(text: object, limit: int | None = None) -> str:
    """`text` with every character that could steer a terminal replaced by "?", cut to
    `limit` characters (with "…" at the end) when given. Never raises: a value that is
    not a str is shown by its repr, made printable the same way."""
    if not isinstance(text, str):
        text = repr(text)
    out = "".join(c if c == " " or unicodedata.category(c) in _SHOWN else REPLACEMENT for c in text)
    if limit is not None and len(out) > limit:
        out = out[: max(0, limit - 1)] + "…"
    return out
