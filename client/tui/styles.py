"""The client's colours, by class name, and the NO_COLOR rule.

Every mark on a board also reads without colour (letters, brackets, `#`/`o`, `p12`), and
the cursor, the selection and the targets use reverse video, bold and underline, which
a terminal shows without colour too. With NO_COLOR set (https://no-color.org) the
application draws in one colour depth of 1 bit: no colours, only those attributes.
"""
from __future__ import annotations

import os

from prompt_toolkit.output import ColorDepth
from prompt_toolkit.styles import Style

#: seat colours (Aton: seat 0 red, seat 1 blue, as the game names them)
SEAT_COLOURS = ("ansired", "ansiblue", "ansimagenta", "ansicyan", "ansiyellow", "ansigreen",
                "ansibrightred", "ansibrightblue")

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
    # Aton
    "aton.yellow": "bg:ansiyellow ansiblack",
    "aton.black": "bg:ansibrightblack ansiwhite",
    "aton.blue": "bg:ansibrightblue ansiblack",
    "aton.green": "bg:ansigreen ansiblack",
    "aton.bonus": "bg:ansiwhite ansiblack",
    "counter": "bold",
    "card": "bold",
    "facedown": "ansibrightblack",
    # Asterix
    "asterix.boar": "bg:#875f00 ansiwhite",
    "asterix.cohort": "bg:ansired ansiwhite",
    "asterix.menhir": "bg:ansibrightblack ansiwhite",
    "asterix.mistletoe": "bg:ansigreen ansiblack",
    "asterix.lake": "bg:ansiblue ansiwhite",
    "asterix.clearing": "",
    "asterix.village": "bg:ansiyellow ansiblack",
    "pawn": "bold reverse",
    "die": "bold reverse",
    # Athos
    "athos.green": "bg:#005f00 ansiwhite",
    "athos.yellow": "bg:#878700 ansiwhite",
    "athos.orange": "bg:#af5f00 ansiwhite",
    "athos.brown": "bg:#5f3a00 ansiwhite",
    "athos.white": "bg:#b2b2b2 ansiblack",
    "athos.number": "",
    "athos.tile-green": "ansibrightgreen bold",
    "athos.tile-yellow": "ansibrightyellow bold",
    "athos.tile-orange": "#ffaf00 bold",
    "athos.tile-brown": "#d7875f bold",
    "athos.tile-white": "ansiwhite bold",
    "athos.piece": "bold",
    "athos.lifted": "bold blink reverse",
    "athos.summit": "bold reverse",
    "monk": "bold",
    "points": "bold",
}
for _seat, _colour in enumerate(SEAT_COLOURS):
    _RULES[f"seat{_seat}"] = _colour


def style() -> Style:
    """Seat colours are foregrounds, so a counter or monk keeps the colour of its square."""
    return Style.from_dict(_RULES)


def no_color(environ: dict | None = None) -> bool:
    """NO_COLOR set to anything but the empty string turns colour off."""
    return bool((os.environ if environ is None else environ).get("NO_COLOR"))


def color_depth(environ: dict | None = None) -> ColorDepth | None:
    """1 bit under NO_COLOR; otherwise None (prompt-toolkit asks the terminal)."""
    return ColorDepth.DEPTH_1_BIT if no_color(environ) else None
