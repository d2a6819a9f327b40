"""The mountain drawn in a terminal (under 80 columns), summit at the top.

Each hex is three characters:

    g.    empty hex (colour letter in lower case: g y o b w)
    G#    tile showing its blocking side (colour in upper case)
    G.    tile showing its passable side
    g1    a monk of seat 1 (on an empty hex or a passable tile: G1)
    ..*   an Athos piece on the hex
"""
from __future__ import annotations

from engines.athos.board import (
    COLOUR_LETTERS,
    COORDS,
    HEX_COLOUR,
    NODE_NAMES,
    ROW_LETTERS,
    ROWS,
    START_AREAS,
    SUMMIT,
)
from engines.athos.rules import supply, winners
from engines.athos.setup import PLACING_LIMITS
from engines.athos.state import HANDICAP, NO_TILE, OVER, PLACE, State

_CELL = 4  # every line stays under 80 columns
_MARGIN = 2
_LEGEND = "g. empty hex  G# blocking tile  G. passable tile  g1 seat 1's monk  * Athos"
_PHASE = {
    HANDICAP: "handicap tiles",
    "move": "move phase",
    "athos": "Athos phase",
    "fix": "Athos phase: put the piece down",
    PLACE: "placement phase",
}


def _monk_at(state: State) -> dict[int, list[int]]:
    at: dict[int, list[int]] = {}
    for seat, nodes in enumerate(state.monks):
        for n in nodes:
            at.setdefault(n, []).append(seat)
    return at


def _cell(state: State, h: int, at: dict[int, list[int]]) -> str:
    tile = state.tiles[h]
    letter = COLOUR_LETTERS[HEX_COLOUR[h]]
    if tile == NO_TILE:
        first = letter.lower()
        middle = "."
    else:
        first = tile.upper()  # a moved tile keeps its own colour
        middle = "#" if tile.isupper() else "."
    seats = at.get(h)
    if seats:
        middle = str(seats[0]) if len(seats) == 1 else "+"
    return first + middle + ("*" if h in state.fixed else " ")


def render(state: State, seat: int | None = None) -> str:
    """The board, the start areas, the summit and a status block."""
    at = _monk_at(state)
    lines = []
    arrivals = " ".join(str(s) for s in state.arrivals) or "-"
    lines.append(f"summit (arrivals in order): {arrivals}")
    rows: list[list[str]] = [[] for _ in range(ROWS)]
    for h, (_, r) in enumerate(COORDS):
        rows[r].append(_cell(state, h, at))
    for r in reversed(range(ROWS)):
        indent = " " * (_MARGIN * r)
        lines.append(f"{ROW_LETTERS[r]} {indent}{' '.join(rows[r])}".rstrip())
    areas = []
    for area in START_AREAS:
        monks = "".join(str(s) for s in sorted(at.get(area, []))) or "-"
        areas.append(f"[{NODE_NAMES[area]}:{monks}]".center(3 * _CELL))
    lines.append(" " * (_MARGIN + _CELL) + "".join(areas).rstrip())
    lines.append(_LEGEND)
    lines.extend(_status(state, seat))
    return "\n".join(lines)


def _status(state: State, seat: int | None) -> list[str]:
    setup = state.setup
    out = []
    for s in range(setup.players):
        up = state.monks[s].count(SUMMIT)
        team = f", team {1 + s % 2}" if setup.teams else ""
        you = " (you)" if s == seat else ""
        out.append(
            f"seat {s}{you}: start {NODE_NAMES[setup.areas[s]]}{team}, {up}/3 up, "
            f"{state.pieces[s]} Athos pieces, last turn used {state.last_spent[s]} points"
        )
    left = supply(state)
    stock = " ".join(f"{COLOUR_LETTERS[c]}{n}" for c, n in enumerate(left))
    if state.phase == OVER:
        won = winners(state)
        out.append(f"Game over after round {state.round}. Winners: seats {won}. Supply {stock}")
        return out
    line = f"Round {state.round}, seat {state.seat} to act, {_PHASE[state.phase]}"
    if state.phase == "move":
        line += f", {state.pool} {'point' if state.pool == 1 else 'points'} left"
        if state.owed:
            line += f" ({state.owed} of them bonus)"
    elif state.phase == HANDICAP:
        line += f", {state.handicap_left} to place"
    else:
        per_turn, per_colour = PLACING_LIMITS[setup.players]
        line += f", tiles placed {sum(state.placed)}/{per_turn} (max {per_colour} a colour)"
    out.append(f"{line}.")
    out.append(f"Points used this turn {state.spent}. Supply {stock}")
    return out
