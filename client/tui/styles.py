"""The full-screen client's style, by class name, and the NO_COLOR rule: the screen's own
classes here, the boards' colours from the one palette (client/palette.py). A game's own
board (client/games/NAME/board.py) may also write its looks into its fragments.

Every mark on a board also reads without colour (letters, brackets, `#`/`o`, `p12`), and
the cursor, the selection and the targets use reverse video, bold and underline, which
a terminal shows without colour too. With NO_COLOR set (https://no-color.org) the
application draws in one colour depth of 1 bit: no colours, only those attributes.
"""
from __future__ import annotations

import os

from prompt_toolkit.output import ColorDepth
from prompt_toolkit.styles import Style

from peerboard.client.palette import BOARD, SEATS

_RULES = {
    # the frame of every screen
    "title": "reverse bold",
    "heading": "bold",
    "dim": "ansibrightblack",
    "status": "",
    "status.info": "",
    "status.warn": "ansiyellow bold",
    "status.error": "ansired bold",
    "keybar": "reverse",
    "keybar.key": "bold",
    "panel": "",
    "panel.turn": "bold",
    "input": "",
    "button": "reverse",
    "help": "bg:ansiblack ansiwhite",
    "info": "italic",
    # pointing
    "cursor": "reverse",
    "selected": "bold underline",
    "target": "underline",
    "used": "ansibrightblack strike",
    "mine": "bold",
    # marks the games' own boards share (their grounds they write into their fragments)
    "counter": "bold",
    "card": "bold",
    "facedown": "ansibrightblack",
    "pawn": "bold reverse",
    "die": "bold reverse",
    "monk": "bold",
    "points": "bold",
}
# the engines' style names, as the line prompt paints them too: `class:board.seat.1` on the
# plain board; the screen's own `seatN` (panel, seat lists, the games' own boards) the same
_RULES.update({f"board.{name}": look for name, look in BOARD.items()})
_RULES.update({f"seat{n}": BOARD[f"seat.{n}"] for n in range(len(SEATS))})


def style() -> Style:
    """Seat colours are foregrounds, so a counter or monk keeps the colour of its square."""
    return Style.from_dict(_RULES)


def no_color(environ: dict | None = None) -> bool:
    """NO_COLOR set to anything but the empty string turns colour off."""
    return bool((os.environ if environ is None else environ).get("NO_COLOR"))


def color_depth(environ: dict | None = None) -> ColorDepth | None:
    """1 bit under NO_COLOR; otherwise None (prompt-toolkit asks the terminal)."""
    return ColorDepth.DEPTH_1_BIT if no_color(environ) else None
