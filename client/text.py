"""Text from other players made safe to show: every name, beacon field or reason a peer
sent passes through `printable` before it reaches a terminal.

A peer's name is untrusted text: it may hold an escape sequence that moves the cursor,
retitles the window or rewrites what another line said, a newline that forges a line of
our own, or a right-to-left override that reverses what follows. The rule of what is
printable is protocol/log/names.py's (one fixed list of code points, the same every peer
checks names against); here every such character is written as a visible escape.
"""
from __future__ import annotations

from peerboard.protocol.log import shown

_NO_LIMIT = 1 << 30


def printable(text: object, limit: int | None = None) -> str:
    """`text` with every character that could steer a terminal written as a visible escape
    (`\\x1b`, `\\u202e`), cut to `limit` characters (with "…") when given. Never raises: a
    value that is not a str is shown by its repr, made printable the same way."""
    return shown(text if isinstance(text, str) else repr(text), _NO_LIMIT if limit is None else limit)


def shorten(text: str, width: int) -> str:
    """`text` in at most `width` columns: whole when it fits, else cut at the last word
    break that leaves room for "…" (a single word longer than the room is cut within it,
    the only place left). Text to show that is already printable."""
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[:max(width, 0)]
    room = text[: width - 1]
    cut = room.rstrip()
    space = cut.rfind(" ") if text[width - 1] != " " else len(cut)
    if space > 0 and space >= (width - 1) // 3:  # (a break far back would throw most of the line away)
        cut = room[:space].rstrip(" ;,·:")
    return cut + "…"


def shorten_start(text: str, width: int) -> str:
    """`text` in at most `width` columns, its beginning given up at a clause ("; ") or a
    word break ("…" first) when it is too long: for a line whose newest words are last."""
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[:max(width, 0)]
    tail = text[len(text) - (width - 1):]
    cut = tail.find("; ")  # (a whole clause if one ends early enough, else a whole word)
    if not 0 <= cut < (width - 1) // 2:
        cut = tail.find(" ")
    if 0 <= cut < (width - 1) * 2 // 3:
        tail = tail[cut + 1:]
    return "…" + tail.lstrip(" ;,·")


def within(text: str, width: int, rows: int) -> list[str]:
    """`text` in at most `rows` lines of at most `width` columns, broken at spaces; what
    does not fit ends the last line as "…" at a word (`shorten`)."""
    import textwrap

    width = max(width, 1)
    lines = textwrap.wrap(text, width, break_on_hyphens=False) or [""]
    if len(lines) <= rows:
        return lines
    rest = " ".join(lines[rows - 1:])
    return lines[: rows - 1] + [shorten(rest, width)]


def plural(n: int, word: str, words: str | None = None) -> str:
    """'1 entry', '2 entries': a count and its noun (`words` when the plural is not word+s)."""
    return f"{n} {word if n == 1 else (words or word + 's')}"
