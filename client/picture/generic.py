"""The picture of any game that has no drawing of its own: its styled text board
(`render_styled`, spec/engine-contract.md "Styled boards") set in a monospaced font on a
dark ground, each style in the colour the terminal shows it in (client/palette.py), under
the common header. A new game is never without a picture.

Every word is placed at its own column, so the columns line up whatever the viewer's
monospaced font, and no run of spaces depends on how a viewer treats white space.
"""
from __future__ import annotations

import re

from peerboard.client.palette import attrs
from peerboard.client.picture import frame
from peerboard.client.picture.drawing import MONO, Drawing, el
from peerboard.client.picture.scene import Scene
from peerboard.client.text import printable

#: the terminal's colour names as colours on the dark ground (and prompt-toolkit's "rrggbb")
ANSI = {
    "ansiblack": "#4a4a4a", "ansired": "#f05a55", "ansigreen": "#6cc26f", "ansiyellow": "#f2d13a",
    "ansiblue": "#6aa0ff", "ansimagenta": "#d67ae6", "ansicyan": "#4fd2e2", "ansigray": "#c8c8c8",
    "ansibrightblack": "#8a8a8a", "ansibrightred": "#ff8a80", "ansibrightgreen": "#a4ec7c",
    "ansibrightyellow": "#fff27a", "ansibrightblue": "#9cc1ff", "ansibrightmagenta": "#f29cff",
    "ansibrightcyan": "#8cf6ff", "ansiwhite": "#f4f4f4",
}
GROUND = "#1d2021"
FOREGROUND = "#e6e6e6"
FONT = 14
CELL = FONT * 0.6  # the advance of one character of a monospaced font
LINE = FONT * 1.35
MARGIN = 14
_WORD = re.compile(r"\S+")


def _colour(value: str, default: str) -> str:
    if not value or value == "default":
        return default
    if value in ANSI:
        return ANSI[value]
    if re.fullmatch(r"[0-9a-fA-F]{6}", value):
        return f"#{value}"
    return default


def _look(style: str) -> tuple[str, str | None, bool, bool, bool]:
    """(text colour, ground colour or None, bold, dim, underline) of an engine's style name."""
    if not style:
        return FOREGROUND, None, False, False, False
    a = attrs(style)
    fg, bg = _colour(a.color or "", FOREGROUND), _colour(a.bgcolor or "", "") or None
    if a.reverse:
        fg, bg = bg or GROUND, fg
    return fg, bg, bool(a.bold), bool(getattr(a, "dim", False)), bool(a.underline)


def _lines(fragments: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    lines: list[list[tuple[str, str]]] = [[]]
    for style, words in fragments:
        for k, piece in enumerate(words.split("\n")):
            if k:
                lines.append([])
            if piece:
                lines[-1].append((style, printable(piece)))
    return lines


def _line_part(runs: list[tuple[str, str]], y: float) -> str:
    grounds, spans, column = [], [], 0
    for style, words in runs:
        fg, bg, bold, dim, underline = _look(style)
        if bg:
            grounds.append(el("rect", x=MARGIN + column * CELL, y=y - FONT, width=len(words) * CELL,
                              height=LINE, fill=bg))
        for match in _WORD.finditer(words):
            spans.append(el("tspan", _escape(match.group()), x=MARGIN + (column + match.start()) * CELL,
                            fill=None if fg == FOREGROUND else fg, font_weight="bold" if bold else None,
                            opacity=0.6 if dim else None, text_decoration="underline" if underline else None))
        column += len(words)
    if not spans:
        return "".join(grounds)
    return "".join(grounds) + el("text", "".join(spans), y=y, font_family=MONO, font_size=FONT, fill=FOREGROUND)


def _escape(words: str) -> str:
    return words.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def draw(scene: Scene) -> Drawing:
    lines = _lines(scene.game.render_styled(scene.state, scene.seat))
    while lines and not lines[-1]:
        lines.pop()
    columns = max((sum(len(w) for _, w in line) for line in lines), default=0)
    width = max(560.0, 2 * MARGIN + columns * CELL)
    top = frame.HEIGHT
    height = top + 2 * MARGIN + len(lines) * LINE
    d = Drawing(width, height, title=f"{scene.game.title}: {frame.turn_words(scene)}")
    d.add(*frame.header(scene, width, scene.game.title))
    d.add(el("rect", x=0, y=top, width=width, height=height - top, fill=GROUND))
    for i, line in enumerate(lines):
        d.add(_line_part(line, top + MARGIN + FONT + i * LINE))
    return d
