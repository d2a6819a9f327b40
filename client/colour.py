"""Boards in colour on a terminal: the engines' styled fragments painted with ANSI codes.

An engine says what each piece of its picture is (`render_styled`: "seat.1",
"tile.blocking.green", spec/engine-contract.md "Styled boards"); this module decides how
that looks on a plain terminal. Colour is used only when the stream is a terminal and the
NO_COLOR environment variable is unset or empty (no-color.org); otherwise the text is
exactly `render_text`. The full-screen client draws the same fragments with its own style.
"""
from __future__ import annotations

import os
from typing import Any, Mapping, Sequence, TextIO

#: style name (or a dotted prefix of one) -> ANSI SGR parameters; the longest prefix wins
PALETTE: Mapping[str, str] = {
    "title": "1",
    "label": "2",
    "legend": "2",
    "you": "1",
    "warning": "1;31",
    "seat.0": "1;31",
    "seat.1": "1;34",
    "seat.2": "1;32",
    "seat.3": "1;35",
    "seat.4": "1;36",
    "seat.5": "1;33",
    "seat.6": "1;91",
    "seat.7": "1;94",
    # Athos: a hex in its colour; a blocking tile on a coloured ground, an open one underlined
    "tile.empty": "2",
    "tile.empty.green": "2;32",
    "tile.empty.yellow": "2;33",
    "tile.empty.orange": "2;38;5;208",
    "tile.empty.brown": "2;38;5;94",
    "tile.empty.white": "2;37",
    "tile.blocking.green": "1;30;42",
    "tile.blocking.yellow": "1;30;43",
    "tile.blocking.orange": "1;30;48;5;208",
    "tile.blocking.brown": "1;37;48;5;94",
    "tile.blocking.white": "1;30;47",
    "tile.open.green": "4;32",
    "tile.open.yellow": "4;33",
    "tile.open.orange": "4;38;5;208",
    "tile.open.brown": "4;38;5;94",
    "tile.open.white": "4;37",
    "piece": "1;33",
    "lifted": "1;5;33",
    "area": "36",
    "summit": "1;37",
    # Asterix
    "tile.boar": "38;5;130",
    "tile.cohort": "1;31",
    "tile.menhir": "1;37",
    "tile.mistletoe": "32",
    "tile.lake": "1;34",
    "tile.village": "1;33",
    "tile.unlaid": "2",
    # Aton
    "square.yellow": "33",
    "square.black": "2",
    "square.blue": "34",
    "square.green": "32",
    "square.bonus": "1;33",
}


def wants_colour(stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """Colour for this stream: a terminal, and NO_COLOR unset or empty."""
    if environ.get("NO_COLOR", ""):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _code(style: str) -> str | None:
    name = style
    while name:
        if name in PALETTE:
            return PALETTE[name]
        name = name.rpartition(".")[0]
    return None


def paint(fragments: Sequence[tuple[str, str]], colour: bool) -> str:
    """The fragments as text; with `colour`, each style in its ANSI colour (reset at every
    line end, so a cut-off line never bleeds into the next)."""
    if not colour:
        return "".join(text for _, text in fragments)
    out = []
    for style, text in fragments:
        code = _code(style) if style else None
        if code is None:
            out.append(text)
            continue
        lines = text.split("\n")
        out.append("\n".join(f"\x1b[{code}m{line}\x1b[0m" if line else "" for line in lines))
    return "".join(out)


def board(game: Any, state: Any, seat: int | None, stream: TextIO) -> str:
    """The position as `seat` sees it, ready to print on `stream` (coloured if it wants)."""
    return paint(game.render_styled(state, seat), wants_colour(stream))
