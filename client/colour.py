"""Boards in colour on a terminal: the engines' styled fragments painted with ANSI codes.

An engine says what each piece of its picture is (`render_styled`: "seat.1",
"tile.blocking.green", spec/engine-contract.md "Styled boards"); this module decides how
that looks on a plain terminal, by the one palette (client/palette.py) the full-screen
client draws with too. Colour is used only when the stream is a terminal and the
NO_COLOR environment variable is unset or empty (no-color.org); otherwise the text is
exactly `render_text`.
"""
from __future__ import annotations

import os
from typing import Any, Mapping, Sequence, TextIO

from peerboard.client.palette import sgr


def wants_colour(stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """Colour for this stream: a terminal, and NO_COLOR unset or empty."""
    if environ.get("NO_COLOR", ""):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def paint(fragments: Sequence[tuple[str, str]], colour: bool) -> str:
    """The fragments as text; with `colour`, each style in its ANSI colour (reset at every
    line end, so a cut-off line never bleeds into the next)."""
    if not colour:
        return "".join(text for _, text in fragments)
    out = []
    for style, text in fragments:
        code = sgr(style) if style else None
        if code is None:
            out.append(text)
            continue
        lines = text.split("\n")
        out.append("\n".join(f"\x1b[{code}m{line}\x1b[0m" if line else "" for line in lines))
    return "".join(out)


def board(game: Any, state: Any, seat: int | None, stream: TextIO) -> str:
    """The position as `seat` sees it, ready to print on `stream` (coloured if it wants)."""
    return paint(game.render_styled(state, seat), wants_colour(stream))
