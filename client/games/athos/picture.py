"""Athos drawn as SVG: the hex mountain by colour band (green in the valley, white below
the summit), the start areas at its foot, the summit monastery above row k; tiles showing
their blocking side (hatched, dark rim) or their open side (plain, dashed rim), each in
its own colour; Athos pieces; monks by their seat's colour and number; the last turn's
steps as arrows and the hexes it touched ringed.

Hexes point up, rows run from a (the valley, 17 hexes) to k (7); each row sits half a
hex to the right of the one below, so hex (q, r) touches (q±1, r), (q, r+1), (q−1, r+1),
(q, r−1) and (q+1, r−1), exactly as engines/athos/board.py says.
"""
from __future__ import annotations

import math

from peerboard.client.games.athos.board import monks_at
from peerboard.client.picture import frame
from peerboard.client.picture.drawing import Drawing, el, points, text
from peerboard.client.picture.frame import FAINT, HIGHLIGHT, INK, PAPER, seat_colour
from peerboard.client.picture.scene import Scene
from peerboard.engines.athos.board import (
    COLOUR_LETTERS, COLOURS, COORDS, HEX_COLOUR, HEX_COUNT, NEIGHBOURS, NODE_NAMES, ROW_LETTERS, ROWS,
    START_AREAS, SUMMIT,
)
from peerboard.engines.athos.rules import supply
from peerboard.engines.athos.setup import MONKS_PER_PLAYER, PLACING_LIMITS

R = 23.0  # a hex's corner radius
W = math.sqrt(3) * R  # a hex's width
LEFT = 34.0
SUMMIT_TOP = frame.HEIGHT + 8
ROW_A = SUMMIT_TOP + 56 + R + 1.5 * R * (ROWS - 1)  # the centre line of row a
WIDTH = LEFT + 17 * W + 64
AREAS_TOP = ROW_A + R + 10
FOOT = AREAS_TOP + 48
#: a hex without a tile, on the ground of its band; a tile in its own colour
GROUND = {"green": "#d4ebc6", "yellow": "#f8efc0", "orange": "#fadcbc", "brown": "#e6d2bf", "white": "#f3f3f3"}
TILE = {"green": "#4a9a36", "yellow": "#e0b92a", "orange": "#e5812a", "brown": "#8a5a2e", "white": "#e9e9e9"}
_NODE = {name: i for i, name in enumerate(NODE_NAMES)}
_PHASES = {"handicap": "places handicap tiles", "move": "moves", "athos": "may use an Athos piece",
           "drop": "puts the lifted tile down", "fix": "fixes a tile with the Athos piece",
           "place": "places tiles"}

DEFS = el("defs", el("pattern", el("path", d="M0,6 L6,0", stroke="#000", stroke_width=1.6, stroke_opacity=0.45),
                     id="athos-hatch", width=6, height=6, patternUnits="userSpaceOnUse")
          + el("marker", el("path", d="M0,0 L8,4 L0,8 z", fill=HIGHLIGHT), id="athos-arrow", viewBox="0 0 8 8",
               refX=6, refY=4, markerWidth=5, markerHeight=5, orient="auto"))


def centre(h: int) -> tuple[float, float]:
    q, r = COORDS[h]
    return LEFT + W * (q + r / 2 + 0.5), ROW_A - 1.5 * R * r


def _corners(x: float, y: float, radius: float) -> str:
    return points((x + radius * math.cos(math.radians(90 + 60 * k)), y + radius * math.sin(math.radians(90 + 60 * k)))
                  for k in range(6))


def _area_box(area: int) -> tuple[float, float, float, float]:
    touched = [centre(h)[0] for h in NEIGHBOURS[area]]
    return min(touched) - W / 2 + 3, AREAS_TOP, max(touched) - min(touched) + W - 6, 34


def _summit_box() -> tuple[float, float, float, float]:
    top_row = [centre(h)[0] for h, (_, r) in enumerate(COORDS) if r == ROWS - 1]
    return min(top_row) - W / 2, SUMMIT_TOP, max(top_row) - min(top_row) + W, 40


def node_point(node: int) -> tuple[float, float]:
    """Where a node's monk stands (a hex's centre, the middle of an area or the summit)."""
    if node < HEX_COUNT:
        return centre(node)
    x, y, w, h = _summit_box() if node == SUMMIT else _area_box(node)
    return x + w / 2, y + h / 2


def _monk(x: float, y: float, seat: int, radius: float = 8.5) -> str:
    return (el("circle", cx=x, cy=y, r=radius, fill=seat_colour(seat), stroke="#fff", stroke_width=1.6)
            + text(seat, x, y + radius * 0.42, radius * 1.25, fill="#fff", font_weight="bold", text_anchor="middle"))


def _hex(state, h: int, seats: list[int]) -> str:
    x, y = centre(h)
    band = COLOURS[HEX_COLOUR[h]]
    out = [el("polygon", points=_corners(x, y, R - 0.6), fill=GROUND[band], stroke="#b9b2a3", stroke_width=1)]
    tile = state.tiles[h]
    if tile != ".":
        colour = COLOURS[COLOUR_LETTERS.index(tile.upper())]
        inner = _corners(x, y, R - 4)
        if tile.isupper():  # the blocking side: a wall, hatched
            out.append(el("polygon", points=inner, fill=TILE[colour], stroke="#2b2b2b", stroke_width=2.2))
            out.append(el("polygon", points=inner, fill="url(#athos-hatch)"))
        else:  # the open side: the way is free
            out.append(el("polygon", points=inner, fill=TILE[colour], fill_opacity=0.55, stroke="#2b2b2b",
                          stroke_width=1.3, stroke_dasharray="3 2"))
        if h == state.lifted:
            out.append(el("polygon", points=_corners(x, y, R - 2), fill="none", stroke="#c0392b", stroke_width=2.5,
                          stroke_dasharray="5 3"))
    if h in state.fixed:  # an Athos piece: a small dark monastery
        out.append(el("path", d=f"M{x - 6:.1f},{y - 8:.1f} l0,-5 l6,-5 l6,5 l0,5 z", fill="#222", stroke="#f0c419",
                      stroke_width=1.2))
    label_fill = "#fff" if tile.isupper() and tile in "GOB" else FAINT
    out.append(text(NODE_NAMES[h], x, y + R * 0.62, 8, fill=label_fill, text_anchor="middle"))
    if len(seats) == 1:
        out.append(_monk(x, y + 1, seats[0]))
    elif seats:
        for k, s in enumerate(seats[:3]):
            out.append(_monk(x + (k - (min(3, len(seats)) - 1) / 2) * 11, y + 1, s, 6.5))
    return el("g", "".join(out))


def _labels() -> str:
    out = []
    for r in range(ROWS):
        first = COORDS.index((0, r))
        x, y = centre(first)
        out.append(text(ROW_LETTERS[r], x - W / 2 - 10, y + 4, 12, fill=FAINT, text_anchor="middle",
                        font_weight="bold"))
        band = COLOURS[HEX_COLOUR[first]]
        if r == 0 or COLOURS[HEX_COLOUR[COORDS.index((0, r - 1))]] != band:
            last = COORDS.index((16 - r, r))
            out.append(text(band, centre(last)[0] + W / 2 + 6, y + 4, 11, fill=FAINT))
    return el("g", "".join(out))


def _summit(state) -> str:
    x, y, w, h = _summit_box()
    out = [el("rect", x=x, y=y, width=w, height=h, rx=10, fill="#fdfdfd", stroke="#7a7a7a", stroke_width=1.5),
           text("summit", x + 10, y + 16, 12, fill=INK, font_weight="bold"),
           text("every hex of row k leads up", x + 10, y + 31, 9, fill=FAINT)]
    for k, s in enumerate(state.arrivals):
        out.append(_monk(x + w - 14 - 19 * (len(state.arrivals) - 1 - k), y + h / 2, s))
    return el("g", "".join(out))


def _area(state, area: int, seats: list[int]) -> str:
    x, y, w, h = _area_box(area)
    owners = [s for s, a in enumerate(state.setup.areas) if a == area]
    stroke = seat_colour(owners[0]) if owners else "#9a9a9a"
    out = [el("rect", x=x, y=y, width=w, height=h, rx=8, fill="#fff" if owners else "#f1f1f1", stroke=stroke,
              stroke_width=2.2 if owners else 1, stroke_dasharray=None if owners else "4 3"),
           text(NODE_NAMES[area], x + 9, y + 22, 14, fill=stroke, font_weight="bold")]
    if not owners and not seats:
        out.append(text("not in play", x + 24, y + 21, 9, fill=FAINT))
    shown = seats[:5]
    for k, s in enumerate(shown):
        out.append(_monk(x + 32 + 17 * k, y + h / 2, s, 7.5))
    if len(seats) > len(shown):
        out.append(text(f"+{len(seats) - len(shown)}", x + w - 6, y + 22, 10, fill=INK, text_anchor="end"))
    return el("g", "".join(out))


def _last(scene: Scene) -> str:
    """Rings round the nodes the last turn named, arrows for its steps."""
    rings, arrows = [], []
    for action in scene.last:
        nodes = [_NODE[a] for a in action[1:] if isinstance(a, str) and a in _NODE]
        for n in nodes:
            if n < HEX_COUNT:
                rings.append(el("polygon", points=_corners(*centre(n), R - 1.5), fill="none", stroke=HIGHLIGHT,
                                stroke_width=3))
        if action and action[0] == "go" and len(nodes) == 2:
            (x1, y1), (x2, y2) = node_point(nodes[0]), node_point(nodes[1])
            length = math.hypot(x2 - x1, y2 - y1) or 1
            cut = min(9, length / 3)
            arrows.append(el("line", x1=x1 + (x2 - x1) * cut / length, y1=y1 + (y2 - y1) * cut / length,
                             x2=x2 - (x2 - x1) * cut / length, y2=y2 - (y2 - y1) * cut / length, stroke=HIGHLIGHT,
                             stroke_width=3, stroke_linecap="round", marker_end="url(#athos-arrow)"))
    return el("g", "".join(rings + arrows)) if rings or arrows else ""


def _doing(state) -> str:
    words = _PHASES.get(state.phase, "")
    if state.phase == "move":
        bonus = f" ({state.owed} bonus)" if state.owed else ""
        words += f", {state.pool} point{'s' if state.pool != 1 else ''} left{bonus}"
    elif state.phase == "place":
        words += f", {sum(state.placed)} of {PLACING_LIMITS[state.setup.players][0]} placed"
    elif state.phase == "handicap":
        words += f", {state.handicap_left} to place"
    return words


def _foot(scene: Scene, top: float) -> list[str]:
    """Under the board: a line per seat, the supply (parts that change apart)."""
    state = scene.state
    lines = []
    for s in range(state.setup.players):
        y = top + 18 + 20 * s
        up = state.monks[s].count(SUMMIT)
        team = f", team {1 + s % 2}" if state.setup.teams else ""
        pieces = state.pieces[s]
        lines.append(_monk(LEFT + 2, y - 4, s, 7) + text(f"{scene.name(s)}: area {NODE_NAMES[state.setup.areas[s]]}{team}, {up}/{MONKS_PER_PLAYER} up, "
                        f"{pieces} Athos piece{'s' if pieces != 1 else ''}, last turn {state.last_spent[s]} points",
                        LEFT + 16, y, 12, 90, fill=INK))
    x = WIDTH - 12 - 5 * 46
    out = [text("tiles in the supply", x, top + 14, 11, fill=FAINT)]
    for c, left in enumerate(supply(state)):
        colour = COLOURS[c]
        cx, cy = x + 12 + 46 * c, top + 36
        out.append(el("polygon", points=_corners(cx, cy, 11), fill=TILE[colour], stroke="#2b2b2b", stroke_width=1))
        out.append(text(left, cx + 14, cy + 4, 12, fill=INK, font_weight="bold"))
    return lines + [el("g", "".join(out))]


def draw(scene: Scene) -> Drawing:
    state = scene.state
    at = monks_at(state)
    players = state.setup.players
    height = FOOT + 30 + 20 * players
    d = Drawing(WIDTH, height, title=f"Athos: {frame.turn_words(scene, _doing(state))}")
    d.add(DEFS, el("rect", x=0, y=frame.HEIGHT, width=WIDTH, height=height - frame.HEIGHT, fill=PAPER))
    d.add(*frame.header(scene, WIDTH, f"Athos · round {state.round}", _doing(state)))
    d.add(_labels(), _summit(state))
    for h in range(HEX_COUNT):
        d.add(_hex(state, h, at.get(h, [])))
    for area in START_AREAS:
        d.add(_area(state, area, at.get(area, [])))
    d.add(_last(scene), *_foot(scene, FOOT))
    return d
