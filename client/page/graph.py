"""The page's win-probability graph: each seat's chance of winning across the whole game,
from the analysis beside the log (client/tui/win_graph.py `Track`), as one SVG. The
script moves a cursor over it and jumps to the position clicked; the mistakes and
blunders are dots in the alert colours on the line of the seat that made them."""
from __future__ import annotations

from peerboard.client.picture.drawing import Drawing, el, points, text
from peerboard.client.picture.frame import FAINT, seat_colour

WIDTH, HEIGHT = 900.0, 150.0
LEFT, RIGHT, TOP, BOTTOM = 34.0, 10.0, 10.0, 22.0
MARKS = {"mistake": "#e69500", "blunder": "#d0312d", "close": "#9a9a9a"}  # (close: the viewer's ?!)


def x_of(k: int, positions: int) -> float:
    return LEFT + (WIDTH - LEFT - RIGHT) * k / max(1, positions - 1)


def y_of(chance: float) -> float:
    return TOP + (HEIGHT - TOP - BOTTOM) * (1 - chance)


def graph(track, names: list[str]) -> str:
    """The graph as SVG markup, `viewBox` 0 0 WIDTH HEIGHT; the cursor is `#cursor`."""
    n = len(track.chances)
    d = Drawing(WIDTH, HEIGHT)
    for p in (0, 0.5, 1):
        d.add(el("line", x1=LEFT, x2=WIDTH - RIGHT, y1=y_of(p), y2=y_of(p), stroke="#ccc",
                 stroke_dasharray=None if p != 0.5 else "4 3"))
        d.add(text(f"{100 * p:.0f}%", LEFT - 4, y_of(p) + 4, 10, fill=FAINT, text_anchor="end"))
    for seat in range(track.seats):
        d.add(el("polyline", points=points((x_of(k, n), y_of(c[seat])) for k, c in enumerate(track.chances)),
                 fill="none", stroke=seat_colour(seat), stroke_width=2, stroke_linejoin="round"))
    for k, step in sorted(track.steps.items()):
        if step.mark in MARKS:
            d.add(el("circle", cx=x_of(k, n), cy=y_of(step.after), r=4.5, fill=MARKS[step.mark], stroke="#fff",
                     stroke_width=1.2))
    d.add(text("each seat's chance of winning, by the analysis beside the log", LEFT, HEIGHT - 6, 10, fill=FAINT))
    d.add(el("line", id="cursor", x1=LEFT, x2=LEFT, y1=TOP, y2=HEIGHT - BOTTOM, stroke="#333", stroke_width=1.5))
    return d.svg(None)
