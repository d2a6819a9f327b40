"""The mountain drawn in a terminal (under 80 columns), summit at the top.

Every row of hexes takes two lines: its column numbers, then its hexes. A hex is four
characters: the tile mark, the Athos piece mark, and up to two monks by seat:

    .        a hex without a tile            #     a tile showing its blocking side
    =        a tile showing its open side    *     (second character) an Athos piece
    .  1     a monk of seat 1 on an empty hex
    = 01     monks of seats 0 and 1 sharing an open tile (named again below the board)
    #^       (second character) the tile lifted by the Athos piece, until it is dropped

The styles (spec/engine-contract.md, "Styled boards"): `tile.empty.COLOUR`,
`tile.blocking.COLOUR`, `tile.open.COLOUR` (COLOUR: the tile's own colour, or the hex's
when it has none: green yellow orange brown white), `piece`, `lifted`, `seat.N` (a monk, a
seat's name), `area`, `summit`, `label`, `legend`, `title`, `you`, `warning`.
"""
from __future__ import annotations

import textwrap

from peerboard.engines.athos.board import (
    COLOUR_LETTERS,
    COLOURS,
    COORDS,
    HEX_COLOUR,
    NODE_NAMES,
    ROW_LETTERS,
    ROWS,
    START_AREAS,
    SUMMIT,
)
from peerboard.engines.athos.rules import supply, winners
from peerboard.engines.athos.setup import MONKS_PER_PLAYER, PLACING_LIMITS
from peerboard.engines.athos.state import (
    ATHOS,
    DROP,
    FIX,
    HANDICAP,
    MOVE,
    NO_HEX,
    NO_TILE,
    OVER,
    PLACE,
    State,
)
from peerboard.engines.styled import Fragment, Styled

_CELL = 4
_LABEL = 2  # the row letter and a space
_COLOUR_COLUMN = 74  # where the colour names of the rows stand
_AREA_SHOWS = 4  # monks written in a start area's box; more are named below the board
_LEGEND = (
    (". ", "tile.empty.green", "empty hex  "),
    ("#", "tile.blocking.green", " blocking tile  "),
    ("=", "tile.open.green", " open tile  "),
    ("*", "piece", " Athos piece  "),
    ("0", "seat.0", ""),
    ("-", "", ""),
    ("3", "seat.3", " monks"),
)
_PHASE = {
    HANDICAP: "handicap tiles",
    MOVE: "move phase",
    ATHOS: "Athos phase: lift a tile or skip",
    DROP: "Athos phase: drop the lifted tile",
    FIX: "Athos phase: fix a tile with the piece",
    PLACE: "placement phase",
}


def _monks_at(state: State) -> dict[int, list[int]]:
    """node -> the seats of the monks on it, ascending."""
    at: dict[int, list[int]] = {}
    for seat, nodes in enumerate(state.monks):
        for n in nodes:
            at.setdefault(n, []).append(seat)
    return at


def _x(h: int) -> int:
    """The column where hex h's cell starts."""
    q, r = COORDS[h]
    return _LABEL + 2 * r + _CELL * q


def _tile_style(state: State, h: int) -> tuple[str, str]:
    """(mark, style) of the tile on hex h."""
    tile = state.tiles[h]
    if tile == NO_TILE:
        return ".", f"tile.empty.{COLOURS[HEX_COLOUR[h]]}"
    colour = COLOURS[COLOUR_LETTERS.index(tile.upper())]  # a moved tile keeps its colour
    if tile.isupper():
        return "#", f"tile.blocking.{colour}"
    return "=", f"tile.open.{colour}"


def render_styled(state: State, seat: int | None = None) -> list[Fragment]:
    """The board, the start areas, the summit, a legend and the status, as fragments."""
    out = Styled()
    at = _monks_at(state)
    _heading(out, state)
    _summit(out, state)
    hexes_by_row: list[list[int]] = [[] for _ in range(ROWS)]
    for h, (_, r) in enumerate(COORDS):
        hexes_by_row[r].append(h)
    for r in reversed(range(ROWS)):
        row = hexes_by_row[r]
        for q, h in enumerate(row):
            out.pad_to(_x(h)).add(str(q + 1), "label")
        out.pad_to(_COLOUR_COLUMN).line(COLOURS[HEX_COLOUR[row[0]]], "label")
        out.add(ROW_LETTERS[r], "label")
        for h in row:
            mark, style = _tile_style(state, h)
            out.pad_to(_x(h)).add(mark, style)
            if h in state.fixed:
                out.add("*", "piece")
            elif h == state.lifted:
                out.add("^", "lifted")
            else:
                out.add(" ")
            for s in at.get(h, [])[:2]:
                out.add(str(s), f"seat.{s}")
            if len(at.get(h, [])) > 2:
                out.add("+", "warning")
        out.line()
    _areas(out, state, at)
    for mark, style, words in _LEGEND:
        out.add(mark, style).add(words, "legend")
    if state.phase == DROP:
        out.add("  ").add("^", "lifted").add(" lifted", "legend")
    out.line()
    _status(out, state, seat, at)
    return out.fragments()


def _heading(out: Styled, state: State) -> None:
    out.add(f"Athos, {state.setup.players} players", "title")
    if state.setup.teams:
        out.add(" in teams (seats 0+2 against 1+3)", "title")
    out.line()


def _summit(out: Styled, state: State) -> None:
    out.add("summit", "summit").add(" (every hex of row k leads up)  arrivals in order: ")
    if not state.arrivals:
        out.add("none yet")
    for i, s in enumerate(state.arrivals):
        out.add(" " if i else "").add(str(s), f"seat.{s}")
    out.line()


def _areas(out: Styled, state: State, at: dict[int, list[int]]) -> None:
    crowded = []
    for i, area in enumerate(START_AREAS):
        seats = at.get(area, [])
        shown = seats if len(seats) <= _AREA_SHOWS else seats[: _AREA_SHOWS - 1]
        middle = _x(3 * i + 2)  # the middle hex it touches: a3, a6, a9, a12, a15
        width = 3 + max(1, 2 * len(shown) - 1) + (len(shown) < len(seats))
        out.pad_to(middle - width // 2 + 1).add(f"[{NODE_NAMES[area]} ", "area")
        if not seats:
            out.add("-", "area")
        for j, s in enumerate(shown):
            out.add(" " if j else "").add(str(s), f"seat.{s}")
        if len(shown) < len(seats):
            out.add("+", "area")
            crowded.append(area)
        out.add("]", "area")
    out.line()
    for area in crowded:
        names = " ".join(str(s) for s in at[area])
        out.line(f"Start area {NODE_NAMES[area]} holds monks of seats {names}.")


def _status(out: Styled, state: State, seat: int | None, at: dict[int, list[int]]) -> None:
    setup = state.setup
    for s in range(setup.players):
        up = state.monks[s].count(SUMMIT)
        out.add("> " if s == state.actor and state.phase != OVER else "  ")
        out.add(f"seat {s}", f"seat.{s}")
        if s == seat:
            out.add(" (you)", "you")
        team = f", team {1 + s % 2}" if setup.teams else ""
        pieces = state.pieces[s]
        out.line(
            f": start {NODE_NAMES[setup.areas[s]]}{team}, {up}/{MONKS_PER_PLAYER} up, "
            f"{pieces} Athos {'piece' if pieces == 1 else 'pieces'}, "
            f"last turn used {state.last_spent[s]} points"
        )
    left = supply(state)
    out.line("Supply: " + ", ".join(f"{COLOURS[c]} {n}" for c, n in enumerate(left)))
    moved = [
        h for h in range(len(state.tiles))
        if state.tiles[h] != NO_TILE and COLOUR_LETTERS.index(state.tiles[h].upper()) != HEX_COLOUR[h]
    ]
    if moved:
        listed = ", ".join(
            f"{NODE_NAMES[h]} {COLOURS[COLOUR_LETTERS.index(state.tiles[h].upper())]}" for h in moved
        )
        for line in textwrap.wrap("Tiles off their colour: " + listed, 79, subsequent_indent="  "):
            out.line(line)
    for h in sorted(h for h, seats in at.items() if h < len(state.tiles) and len(seats) > 1):
        seats = " and ".join(str(s) for s in at[h])
        out.line(f"Monks of seats {seats} share {NODE_NAMES[h]}: they part before the move ends.", "warning")
    if state.phase == OVER:
        won = winners(state)
        names = ", ".join(f"seat {s}" for s in won) or "nobody"
        # (the board's reading: a resignation, a claim or a takeover in the log can change who
        # wins, and the result line says that)
        out.line(f"Game over after round {state.round}. On the board: {names} won.", "title")
        return
    out.add(f"Round {state.round}: ")
    out.add(f"seat {state.actor}", f"seat.{state.actor}")
    out.line(f" to act, {_PHASE[state.phase]}.")
    if state.phase == MOVE:
        line = f"{state.pool} {'point' if state.pool == 1 else 'points'} left"
        if state.owed:
            line += f" ({state.owed} of them bonus)"
        out.line(line + f", {state.spent} used this turn.")
    elif state.phase == HANDICAP:
        out.line(f"{state.handicap_left} handicap {'tile' if state.handicap_left == 1 else 'tiles'} to place{_after(state)}.")
    elif state.phase == DROP:
        tile = "blocking" if state.tiles[state.lifted].isupper() else "open"
        out.line(f"The {tile} tile lifted from {NODE_NAMES[state.lifted]} goes to another free hex.")
    elif state.phase == PLACE:
        per_turn, per_colour = PLACING_LIMITS[setup.players]
        out.line(f"Tiles placed {sum(state.placed)}/{per_turn} (at most {per_colour} a colour){_after(state)}.")


def _after(state: State) -> str:
    if state.last_placed == NO_HEX:
        return ""
    return f"; the next after {NODE_NAMES[state.last_placed]} (board order)"
