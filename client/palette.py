"""The one palette: how each style name an engine gives its board looks.

Engines name what each piece of their picture is (`render_styled`: "seat.1",
"tile.blocking.green"; spec/engine-contract.md, "Styled boards"); this table says how that
looks, in prompt-toolkit's style words. The full-screen client uses it as it is
(client/tui/styles.py, the classes `board.NAME`); the line prompt turns the same words into
ANSI codes (client/colour.py, `sgr`). A name is styled by every dotted prefix it has, the
longest last, so `tile.blocking` could be styled once for every colour.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Mapping

from prompt_toolkit.output.vt100 import BG_ANSI_COLORS, FG_ANSI_COLORS
from prompt_toolkit.styles import DEFAULT_ATTRS, Attrs, Style

#: seat N's colour, bold: its monks, pawn, counters and name. Chosen to stand out on the
#: coloured grounds of the boards (Athos's green and yellow bands come late).
SEATS = ("ansired", "ansiblue", "ansimagenta", "ansicyan", "ansiyellow", "ansigreen",
         "ansibrightred", "ansibrightblue")

_ORANGE, _BROWN, _CHESTNUT = "#ff8700", "#875f00", "#af5f00"
_HEX = {"green": "ansigreen", "yellow": "ansiyellow", "orange": _ORANGE, "brown": _BROWN, "white": "ansigray"}

#: style name -> prompt-toolkit style words
BOARD: Mapping[str, str] = {
    "title": "bold",
    "label": "dim",
    "legend": "dim",
    "you": "bold",
    "warning": "bold ansired",
    **{f"seat.{n}": f"bold {colour}" for n, colour in enumerate(SEATS)},
    # Athos: a hex in its colour; a blocking tile on a coloured ground, an open one underlined
    "tile.empty": "dim",
    **{f"tile.empty.{name}": f"dim {colour}" for name, colour in _HEX.items()},
    **{f"tile.blocking.{name}": f"bold ansiblack bg:{colour}" for name, colour in _HEX.items()},
    "tile.blocking.brown": f"bold ansigray bg:{_BROWN}",
    **{f"tile.open.{name}": f"underline {colour}" for name, colour in _HEX.items()},
    "piece": "bold ansiyellow",
    "lifted": "bold blink ansiyellow",
    "area": "ansicyan",
    "summit": "bold ansigray",
    # Asterix
    "tile.boar": _CHESTNUT,
    "tile.cohort": "bold ansired",
    "tile.menhir": "bold ansigray",
    "tile.mistletoe": "ansigreen",
    "tile.lake": "bold ansiblue",
    "tile.village": "bold ansiyellow",
    "tile.unlaid": "dim",
    # Aton: the empty temple squares
    "square.yellow": "ansiyellow",
    "square.black": "dim",
    "square.blue": "ansiblue",
    "square.green": "ansigreen",
    "square.bonus": "bold ansiyellow",
}

_STYLE = Style.from_dict(dict(BOARD))
_FLAGS = (("bold", "1"), ("dim", "2"), ("italic", "3"), ("underline", "4"), ("blink", "5"),
          ("reverse", "7"), ("hidden", "8"), ("strike", "9"))


def attrs(name: str) -> Attrs:
    """How style `name` looks (prompt-toolkit's attributes; the default for an unknown name)."""
    return _STYLE.get_attrs_for_style_str(f"class:{name}")


def _colour(value: str, ansi: Mapping[str, int], extended: str) -> list[str]:
    if not value:
        return []
    if value in ansi:
        return [str(ansi[value])]
    # "rrggbb": the nearest of the 256-colour cube (what every colour terminal has)
    levels = [int(value[i:i + 2], 16) for i in (0, 2, 4)]
    cube = [min(range(6), key=lambda k: abs((0 if k == 0 else 55 + 40 * k) - c)) for c in levels]
    return [extended, "5", str(16 + 36 * cube[0] + 6 * cube[1] + cube[2])]


@lru_cache(maxsize=None)
def sgr(name: str) -> str | None:
    """Style `name` as ANSI SGR parameters ("1;34"), or None when the palette has no look
    for it (the text stays plain)."""
    a = attrs(name)
    if a == DEFAULT_ATTRS:
        return None
    codes = [code for flag, code in _FLAGS if getattr(a, flag, False)]  # (older prompt-toolkits have no dim)
    codes += _colour(a.color or "", FG_ANSI_COLORS, "38") + _colour(a.bgcolor or "", BG_ANSI_COLORS, "48")
    return ";".join(codes) or None
