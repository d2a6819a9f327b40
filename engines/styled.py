"""Styled text: a board as (style, text) fragments, the shape prompt-toolkit draws.

An engine describes what each piece of its picture *is* ("seat.1", "tile.blocking.green",
"summit"); the client decides what that looks like (a colour, bold, nothing). The style
names are listed in spec/engine-contract.md ("Styled boards"). Joined without their styles
the fragments are the plain text, so `render_text` and `render_styled` never disagree.
"""
from __future__ import annotations

import re

#: one fragment: (style name or "" for plain text, text); newlines live inside the text
Fragment = tuple[str, str]

#: Every style name an engine may use (spec/engine-contract.md, "Styled boards"). Names are
#: dotted from the general to the particular, so a client (or a prompt-toolkit Style with
#: "class:" names) may style `tile.blocking` once, or `tile.blocking.green` alone.
STYLE = re.compile(
    r"(|title|label|legend|you|warning"
    r"|seat\.[0-9]"  # a seat's own things: its monks, pawn, counters, its name
    r"|tile\.(empty|blocking|open)\.(green|yellow|orange|brown|white)"  # Athos hexes by tile side
    r"|piece|lifted|area|summit"  # Athos
    r"|tile\.(boar|cohort|menhir|mistletoe|lake|empty|village|unlaid)"  # Asterix squares
    r"|square\.(yellow|black|blue|green|bonus))"  # Aton's empty temple squares
)


class Styled:
    """A picture built fragment by fragment, line by line."""

    def __init__(self) -> None:
        self._parts: list[Fragment] = []
        self._width = 0  # characters on the current line so far

    def add(self, text: str, style: str = "") -> "Styled":
        """Append text in one style (adjacent fragments of one style are merged)."""
        if not text:
            return self
        if self._parts and self._parts[-1][0] == style:
            self._parts[-1] = (style, self._parts[-1][1] + text)
        else:
            self._parts.append((style, text))
        self._width += len(text)
        return self

    def pad_to(self, column: int) -> "Styled":
        """Spaces up to `column` (nothing if the line is already that long)."""
        return self.add(" " * (column - self._width))

    def line(self, text: str = "", style: str = "") -> "Styled":
        """Append text, then end the line."""
        self.add(text, style)
        self._end_line()
        return self

    def _end_line(self) -> None:
        # Trailing spaces are trimmed, so the plain text has no invisible ends.
        while self._parts and self._parts[-1][1].endswith(" "):
            style, text = self._parts.pop()
            text = text.rstrip(" ")
            if text:
                self._parts.append((style, text))
                break
        self.add("\n")
        self._width = 0

    def fragments(self) -> list[Fragment]:
        """The picture (a final newline dropped)."""
        parts = list(self._parts)
        if parts and parts[-1][1].endswith("\n"):
            style, text = parts.pop()
            if text[:-1]:
                parts.append((style, text[:-1]))
        return parts


def plain(fragments: list[Fragment]) -> str:
    """The text of a styled picture, without its styles."""
    return "".join(text for _, text in fragments)
