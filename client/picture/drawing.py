"""An SVG picture as a list of parts: what every game's drawing builds and what the
one-page replay shares between positions.

A `Drawing` is a canvas of fixed width and height (the viewBox) holding top-level parts,
each one complete SVG element as text. `svg(size)` joins them into a standalone file. The
page of a whole game (client/page/) keeps each distinct part once and a position as the
list of its parts, so a hex that did not change between two positions costs a number,
not its markup. A part that depends only on the board, not the position, is therefore
worth keeping apart from the parts that change.

Every text that reaches a picture passes through `text()`, which escapes it for XML and
writes control characters (from a peer's name) as visible escapes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Iterable

from peerboard.client.text import printable

#: the fonts a picture names: whatever sans-serif the viewer has (nothing is fetched)
SANS = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"


def _number(value: float) -> str:
    """A coordinate in at most two decimals, without trailing zeros (small files)."""
    if isinstance(value, int):
        return str(value)
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def attributes(attrs: dict[str, object]) -> str:
    """`key="value"` pairs; underscores in keys become dashes (`stroke_width`), a trailing
    one is dropped (`class_`), None values are left out."""
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        shown = _number(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
        out.append(f' {name}="{escape(shown, quote=True)}"')
    return "".join(out)


def el(tag: str, content: str = "", **attrs: object) -> str:
    """One SVG element as text; `content` is markup already (use `text()` for words)."""
    if content:
        return f"<{tag}{attributes(attrs)}>{content}</{tag}>"
    return f"<{tag}{attributes(attrs)}/>"


def text(words: object, x: float, y: float, size: float = 14, limit: int = 60, **attrs: object) -> str:
    """A line of words at (x, y) (the baseline), escaped and made printable, cut to `limit`
    characters. The font is the picture's own (SANS, set once on the `<svg>`) unless
    `font_family` says otherwise."""
    return el("text", escape(printable(words, limit), quote=False), x=x, y=y, font_size=size, **attrs)


def points(pairs: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_number(x)},{_number(y)}" for x, y in pairs)


@dataclass
class Drawing:
    """A picture `width` × `height` (user units) and its parts in painting order."""

    width: float
    height: float
    parts: list[str] = field(default_factory=list)
    #: one line saying what the picture shows, for a screen reader and the page's title
    title: str = ""

    def add(self, *parts: str) -> "Drawing":
        """Parts in painting order. An empty one is kept as a place: a ring drawn in one
        position and not the next leaves the other parts where they were (the page
        writes a position as the parts that changed, client/page/pool.py)."""
        self.parts.extend(parts)
        return self

    def group(self, parts: Iterable[str], **attrs: object) -> "Drawing":
        """Several elements kept as one part (they change together)."""
        inner = "".join(parts)
        if inner:
            self.parts.append(el("g", inner, **attrs))
        return self

    def opening(self, size: float | None = None) -> str:
        """The `<svg>` start tag: `size` pixels wide (the height in proportion), or as
        wide as the viewer gives it when None."""
        height = None if size is None else size * self.height / self.width
        box = {"viewBox": f"0 0 {_number(self.width)} {_number(self.height)}", "width": size, "height": height,
               "font_family": SANS}
        return f'<svg xmlns="http://www.w3.org/2000/svg"{attributes(box)} role="img">'

    def svg(self, size: float | None = None) -> str:
        """The standalone SVG document."""
        title = el("title", escape(printable(self.title, 300), quote=False)) if self.title else ""
        return self.opening(size) + title + "".join(self.parts) + "</svg>\n"
