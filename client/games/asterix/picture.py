"""Asterix: The Hunt drawn as SVG: the 8×8 board (a1 at the bottom left) with the Gaul
village in the middle behind its palisade, each square's tile as a small picture (wild
boar, Roman cohort, menhir, mistletoe, lake; a clearing is bare grass; a square not laid
yet a "?"), the pawns by their seat's colour and number; beside the board each seat's
potions, what it carries, its victory pile and the categories it wins, and the dice; the
square the last move landed on ringed.
"""
from __future__ import annotations

from peerboard.client.picture import frame
from peerboard.client.picture.drawing import Drawing, el, text
from peerboard.client.picture.frame import FAINT, HIGHLIGHT, INK, PAPER, seat_colour
from peerboard.client.picture.scene import Scene
from peerboard.engines.asterix.board import (
    BIT, BOAR, COHORT, FILES, LAKE, LAYOUT_ORDER, MENHIR, MISTLETOE, VILLAGE, kind_at, square_index,
)
from peerboard.engines.asterix.rules import situation
from peerboard.engines.asterix.scoring import categories_won
from peerboard.engines.asterix.state import FIRST_ROLL, LAYOUT, OVER

SQ = 58.0
LEFT = 30.0
TOP = frame.HEIGHT + 22
BOARD = 8 * SQ
PANEL = LEFT + BOARD + 28
WIDTH = PANEL + 300
GRASS = ("#dcebc5", "#d0e3b6")

#: the pictures of the tiles, drawn round (0, 0) in a square of SQ
ICONS = {
    BOAR: (el("ellipse", cx=-2, cy=4, rx=15, ry=9.5, fill="#7a4a25")
           + el("ellipse", cx=13, cy=1, rx=7, ry=6, fill="#6a3d1c")
           + el("path", d="M17,3 q5,-1 4,-6", stroke="#fff", stroke_width=2, fill="none")
           + el("circle", cx=14, cy=-1, r=1.3, fill="#fff")
           + el("path", d="M-10,12 v6 M-3,12 v6 M4,12 v6", stroke="#4a2a10", stroke_width=2.5)
           + el("path", d="M-10,-5 l4,-6 l3,5 l4,-6 l3,6", fill="#4a2a10")),
    COHORT: (el("rect", x=-11, y=-15, width=22, height=30, rx=4, fill="#b3261e", stroke="#e9b949", stroke_width=2.5)
             + el("path", d="M-11,0 h22 M0,-15 v30", stroke="#e9b949", stroke_width=1.6)
             + el("circle", cx=0, cy=0, r=4, fill="#e9b949")),
    MENHIR: (el("path", d="M-8,17 C-11,2 -9,-13 -1,-18 C8,-14 10,2 8,17 Z", fill="#9aa0a6", stroke="#5f6368",
                stroke_width=1.8)
             + el("path", d="M-3,-6 q3,4 1,10", stroke="#6f757a", fill="none", stroke_width=1.2)),
    MISTLETOE: (el("ellipse", cx=-7, cy=-2, rx=10, ry=5, fill="#3f8f3a", transform="rotate(-35 -7 -2)")
                + el("ellipse", cx=7, cy=-2, rx=10, ry=5, fill="#4ea645", transform="rotate(35 7 -2)")
                + el("path", d="M0,2 v12", stroke="#2f6b2a", stroke_width=2)
                + el("circle", cx=-3, cy=6, r=3, fill="#fff", stroke="#bbb")
                + el("circle", cx=3, cy=7, r=3, fill="#fff", stroke="#bbb")
                + el("circle", cx=0, cy=1, r=3, fill="#fff", stroke="#bbb")),
}
WORDS = ("boar", "cohort", "menhir", "mistletoe")
PILE_LETTERS = "BCMG"


def corner(square: int) -> tuple[float, float]:
    """The top left corner of a square (a1 at the bottom left)."""
    return LEFT + (square % 8) * SQ, TOP + (7 - square // 8) * SQ


def _pawns(cx: float, cy: float, seats: list[int]) -> str:
    out = []
    shown = seats if len(seats) <= 4 else seats[:3]
    spots = [(0, 0)] if len(shown) == 1 else [(-11, -11), (11, -11), (-11, 11), (11, 11)]
    radius = 13 if len(shown) == 1 else 10
    for (dx, dy), s in zip(spots, shown):
        out.append(el("circle", cx=cx + dx, cy=cy + dy, r=radius, fill=seat_colour(s), stroke="#fff", stroke_width=2))
        out.append(text(s, cx + dx, cy + dy + radius * 0.4, radius * 1.1, fill="#fff", font_weight="bold",
                        text_anchor="middle"))
    if len(seats) > len(shown):
        out.append(text(f"+{len(seats) - len(shown)}", cx + 11, cy + 15, 11, fill=INK, font_weight="bold",
                        text_anchor="middle"))
    return "".join(out)


def _square(state, square: int, laid: bool, seats: list[int]) -> str:
    x, y = corner(square)
    cx, cy = x + SQ / 2, y + SQ / 2
    ground = GRASS[(square // 8 + square) % 2]
    out = []
    if BIT[square] & VILLAGE:
        out.append(el("rect", x=x, y=y, width=SQ, height=SQ, fill="#f1d58a"))
        out.append(el("path", d=f"M{cx - 14},{cy + 4} L{cx},{cy - 12} L{cx + 14},{cy + 4} Z", fill="#a0662b"))
        out.append(el("rect", x=cx - 10, y=cy + 4, width=20, height=12, fill="#e8c48c", stroke="#a0662b"))
    elif not laid:
        out.append(el("rect", x=x, y=y, width=SQ, height=SQ, fill="#cfcfcf"))
        out.append(text("?", cx, cy + 8, 22, fill="#8a8a8a", text_anchor="middle", font_weight="bold"))
    else:
        kind = kind_at(state.tiles, square)
        if kind == LAKE:
            out.append(el("rect", x=x, y=y, width=SQ, height=SQ, fill="#5d9bd6"))
            out.append(el("path", d=f"M{x + 10},{cy - 6} q6,-5 12,0 t12,0 t12,0 M{x + 10},{cy + 7} q6,-5 12,0 t12,0 t12,0",
                          stroke="#e6f1fb", stroke_width=2, fill="none"))
        else:
            out.append(el("rect", x=x, y=y, width=SQ, height=SQ, fill=ground))
            if kind in ICONS:
                out.append(el("g", ICONS[kind], transform=f"translate({cx:.1f} {cy:.1f})"))
    out.append(el("rect", x=x, y=y, width=SQ, height=SQ, fill="none", stroke="#00000026"))
    if seats:
        out.append(_pawns(cx, cy, seats))
    return el("g", "".join(out))


def _frame_and_labels() -> str:
    out = [el("rect", x=LEFT - 2, y=TOP - 2, width=BOARD + 4, height=BOARD + 4, fill="none", stroke="#5b4a2f",
              stroke_width=3)]
    for f in range(8):
        out.append(text(FILES[f], LEFT + (f + 0.5) * SQ, TOP + BOARD + 16, 12, fill=FAINT, text_anchor="middle"))
        out.append(text(FILES[f], LEFT + (f + 0.5) * SQ, TOP - 7, 12, fill=FAINT, text_anchor="middle"))
    for rank in range(8):
        y = TOP + (7 - rank + 0.5) * SQ + 4
        out.append(text(rank + 1, LEFT - 12, y, 12, fill=FAINT, text_anchor="middle"))
    return el("g", "".join(out))


def _palisade() -> str:
    x, y = corner(square_index("d5"))
    return el("rect", x=x + 1, y=y + 1, width=2 * SQ - 2, height=2 * SQ - 2, rx=6, fill="none", stroke="#8a5a22",
              stroke_width=4, stroke_dasharray="7 3")


def _dice(state, top: float) -> str:
    if not state.dice:
        return ""
    out = [text("dice to move", PANEL, top, 11, fill=FAINT)]
    for k, value in enumerate(state.dice):
        x = PANEL + k * 40
        out.append(el("rect", x=x, y=top + 8, width=32, height=32, rx=6, fill="#fff", stroke="#444", stroke_width=1.5))
        out.append(text(value, x + 16, top + 31, 18, fill=INK, font_weight="bold", text_anchor="middle"))
    return el("g", "".join(out))


def _seats(scene: Scene) -> list[str]:
    """The column headings, then a part per seat (its row changes alone)."""
    state = scene.state
    won = categories_won(state.piles)
    rows = [text("potions, what it carries", PANEL, TOP + 4, 10, fill=FAINT),
           text("victory pile", PANEL + 200, TOP + 4, 10, fill=FAINT),
           text("won", PANEL + 282, TOP + 4, 10, fill=FAINT, text_anchor="end")]
    for s in range(state.players):
        out = []
        y = TOP + 24 + 46 * s
        colour = seat_colour(s)
        if s == state.actor and state.phase not in (OVER, LAYOUT, FIRST_ROLL):
            out.append(el("rect", x=PANEL - 6, y=y - 14, width=292, height=42, rx=6, fill="none", stroke=HIGHLIGHT,
                          stroke_width=2))
        out.append(el("circle", cx=PANEL + 6, cy=y - 4, r=7, fill=colour, stroke="#fff", stroke_width=1.5))
        out.append(text(scene.name(s), PANEL + 18, y, 13, 24, fill=colour, font_weight="bold"))
        for k in range(3):  # the potions: full flasks, empty ones
            fill = "#4fb0c6" if k < state.potions[s] else "none"
            out.append(el("circle", cx=PANEL + 8 + 12 * k, cy=y + 16, r=4.5, fill=fill, stroke="#2b7a8c"))
        carried = " ".join(f"{n} {WORDS[k]}" for k, n in enumerate(state.carried[s]) if n) or "nothing"
        out.append(text(f"carries {carried}", PANEL + 48, y + 20, 10, 40, fill=INK))
        pile = " ".join(f"{PILE_LETTERS[k]}{n}" for k, n in enumerate(state.piles[s]))
        out.append(text(pile, PANEL + 200, y + 20, 10, fill=INK))
        out.append(text(f"{won[s]}★", PANEL + 282, y, 13, fill=INK, font_weight="bold", text_anchor="end"))
        rows.append(el("g", "".join(out)))
    return rows


def _legend(top: float) -> str:
    out, x = [], LEFT
    for kind, word in zip((BOAR, COHORT, MENHIR, MISTLETOE), WORDS):
        out.append(el("g", ICONS[kind], transform=f"translate({x + 12} {top}) scale(0.6)"))
        out.append(text(word, x + 26, top + 4, 11, fill=INK))
        x += 92
    out.append(el("rect", x=x, y=top - 9, width=18, height=18, fill="#5d9bd6"))
    out.append(text("lake", x + 24, top + 4, 11, fill=INK))
    return el("g", "".join(out))


def _last(scene: Scene) -> str:
    rings = []
    for action in scene.last:
        if len(action) == 2 and action[0] in ("move", "village") and isinstance(action[1], str):
            square = square_index(action[1])
            if square is not None:
                x, y = corner(square)
                rings.append(el("rect", x=x + 2, y=y + 2, width=SQ - 4, height=SQ - 4, rx=4, fill="none",
                                stroke=HIGHLIGHT, stroke_width=4))
    return el("g", "".join(rings)) if rings else ""


def _doing(scene: Scene) -> str:
    state = scene.state
    if state.phase == OVER:
        return ""
    words = situation(state)  # "seat 2's move of 5 steps from c3"
    seat_words = f"seat {state.actor}'s "
    if scene.chance:
        return words
    return words[len(seat_words):] if words.startswith(seat_words) else words


def draw(scene: Scene) -> Drawing:
    state = scene.state
    laid = frozenset(LAYOUT_ORDER[: state.laid])
    at: dict[int, list[int]] = {}
    for seat, square in enumerate(state.pawns):
        if square >= 0:
            at.setdefault(square, []).append(seat)
    height = max(TOP + BOARD + 60, TOP + 40 + 46 * state.players + 60)
    round_words = f"round {state.round}" if state.round else "setting up"
    doing = _doing(scene)
    if not scene.chance and not scene.over and doing:
        doing = f"to act: {doing}"
    d = Drawing(WIDTH, height, title=f"Asterix: The Hunt: {frame.turn_words(scene, doing)}")
    d.add(el("rect", x=0, y=frame.HEIGHT, width=WIDTH, height=height - frame.HEIGHT, fill=PAPER))
    d.add(*frame.header(scene, WIDTH, f"Asterix: The Hunt · {round_words}", doing))
    d.add(_frame_and_labels())
    for square in range(64):
        d.add(_square(state, square, square in laid or bool(BIT[square] & VILLAGE), at.get(square, [])))
    d.add(_palisade(), _last(scene), *_seats(scene), _dice(state, TOP + 40 + 46 * state.players),
          _legend(TOP + BOARD + 38))
    return d
