"""Athos's look: the hex mountain by colour band, summit at the top, the start areas at the
foot; tiles (blocking `#`, open `o`), monks by owner, Athos pieces, and the points left.

Each hex is four characters: the tile mark, then the monk (`m1`: a monk of seat 1; `m+`:
several, the cursor line names them) or else the hex's column number, then `*` when an
Athos piece stands on it. Rows are lettered a (the valley) to k; a hex is its row letter
and column number, as in the notation (`e5`). Beside the row's letter stands its colour's
letter (`a G`: green), so the bands read without colour too (NO_COLOR).

Spots: `node:e5` a hex, `node:B` a start area, `node:summit` the summit. An action is
pointed at by the nodes it names, in order (a monk's node, then where it goes).
"""
from __future__ import annotations

from peerboard.engines.athos.board import (
    COLOUR_LETTERS, COLOURS, COORDS, HEX_COLOUR, HEX_COUNT, NEIGHBOURS, NODE_NAMES, ROW_LETTERS, ROWS, START_AREAS,
    SUMMIT,
)
from peerboard.engines.athos.rules import finished_sides, winners
from peerboard.client.tui.boards.canvas import BoardContext, Canvas, Drawing

_CELL = 4
_INDENT = 2
_LABEL = 4  # the row's letter and its colour's, then a space
NO_TILE = "."
TILES_PER_COLOUR = 16
MONKS = 3
LEGEND = ("#5 blocking tile  o5 open tile  * Athos piece  ^ O lifted tile", "m1 monk of seat 1  m+ monks of several seats",
          "row colours: G green  Y yellow  O orange  B brown  W white")
_NODE_INDEX = {name: i for i, name in enumerate(NODE_NAMES)}
#: a hex on the ground of its colour band; a tile's mark in the tile's own colour
_BAND = {"green": "bg:#005f00 ansiwhite", "yellow": "bg:#878700 ansiwhite", "orange": "bg:#af5f00 ansiwhite",
         "brown": "bg:#5f3a00 ansiwhite", "white": "bg:#b2b2b2 ansiblack"}
_TILE = {"green": "ansibrightgreen bold", "yellow": "ansibrightyellow bold", "orange": "#ffaf00 bold",
         "brown": "#d7875f bold", "white": "ansiwhite bold"}
_LIFTED = "bold blink reverse"
_SUMMIT = "bold reverse"
_PHASES = {"handicap": "places handicap tiles", "move": "moves", "athos": "may use an Athos piece",
           "drop": "puts the lifted tile down on another hex", "fix": "fixes a tile with the Athos piece",
           "place": "places tiles (in any order: they go down in board order)"}
#: how to read this board, for the help screen (F1)
READING = """\
Reading the board. The mountain, valley at the foot: rows a (17 hexes) up to k (7 hexes),
 then the summit. A hex is its row and column: e5 is the 5th hex of row e. Beside each
 row's letter stands its colour (the same without colour, NO_COLOR): G green (rows a-b),
 Y yellow (c-d), O orange (e-f), B brown (g-h), W white (i-k); a tile goes only on a hex
 of its own colour. Each hex: its tile (# blocking, o open, blank: none), then its column
 number, or m1 for a monk of seat 1 (m+ monks of several seats), then * for an Athos
 piece. [B 000] at the foot is start area B with the monks still in it. The top line:
 the points left this turn, the tiles placed, the tiles of each colour in the supply.
 What scores: each monk on the summit counts 1; when a seat has all 3 up, the round is
 finished, and the seat that used the fewest points in its last turn wins.
 Which hexes touch: the two beside it in its row, two in the row above (drawn up-left
 and up-right of it) and two below: e5 touches e4 e6, f4 f5, d5 d6. Row a touches the
 start areas under it, row k the summit. F1 with the board cursor on a hex names them.
 Pointing: a monk, then where it goes; a hex alone places a tile (in any order)."""


def _why_over(state, names: tuple[str, ...]) -> str:
    """Who won and by which rule: all monks up, and when several sides are, the fewest
    points spent in the last turn (spec/games/athos.md, "End")."""
    def side_name(side: tuple[int, ...]) -> str:
        who = " and ".join(f"seat {s} ({_name(names, s)})" for s in side)
        return f"team {who}" if len(side) > 1 else who

    done = finished_sides(state)
    if not done:  # (the engine ends a game only so; said rather than raised all the same)
        return "nobody won"
    won = winners(state)
    up = f"all {MONKS * len(done[0])} monks on the summit"
    if len(done) == 1:
        return f"{side_name(done[0])} won, with {up}"
    spent = {side: sum(state.last_spent[s] for s in side) for side in done}
    winning = [side for side in done if side[0] in won]
    others = ", ".join(f"{spent[side]} for {side_name(side)}" for side in done if side not in winning)
    who = " and ".join(side_name(side) for side in winning)
    least = f"{spent[winning[0]]} point{'s' if spent[winning[0]] != 1 else ''}"
    if len(winning) > 1:
        return (f"{who} share the win: {len(done)} sides have {up}, and these spent the fewest points "
                f"in their last turn, {least} each" + (f", against {others}" if others else ""))
    return (f"{who} won: {len(done)} sides have {up}, and it spent the fewest points in its last turn, "
            f"{least}, against {others}")


def monks_at(state) -> dict[int, list[int]]:
    """The seats of the monks on each hex (a hex number -> the seats, a seat once per monk)."""
    at: dict[int, list[int]] = {}
    for seat, nodes in enumerate(state.monks):
        for n in nodes:
            at.setdefault(n, []).append(seat)
    return at


def _x(q: int, r: int) -> int:
    return _LABEL + _INDENT * r + _CELL * q


class AthosBoard:
    reading = READING

    def draw(self, ctx: BoardContext) -> Drawing:
        state = ctx.state
        at = monks_at(state)
        c = Canvas(ctx)
        self._header(c, state)
        arrivals = " ".join(str(s) for s in state.arrivals) or "-"
        summit = f" summit, arrivals {arrivals} "
        c.put(" " * max(0, _x(0, ROWS - 1) + (7 * _CELL - len(summit)) // 2))
        c.put(summit, _SUMMIT, spot="node:summit")
        c.newline()
        rows: list[list[int]] = [[] for _ in range(ROWS)]
        for h, (_, r) in enumerate(COORDS):
            rows[r].append(h)
        for r in reversed(range(ROWS)):
            c.put(" " * (_INDENT * r))
            letter = COLOUR_LETTERS[HEX_COLOUR[rows[r][0]]]
            c.put(f"{ROW_LETTERS[r]} ", "class:dim")  # beside the row's first hex
            c.put(f"{letter} ", _TILE[COLOURS[HEX_COLOUR[rows[r][0]]]])
            for h in rows[r]:
                self._hex(c, state, h, at.get(h, []))
            c.newline()
        self._areas(c, state, at)
        for line in LEGEND:
            c.line(line, "class:dim")
        return c.drawing()

    def _header(self, c: Canvas, state) -> None:
        supply = " ".join(f"{letter}{TILES_PER_COLOUR - state.tiles.upper().count(letter)}" for letter in COLOUR_LETTERS)
        if state.phase == "move":
            bonus = f" ({state.owed} bonus)" if state.owed else ""
            c.put("points left ", "class:heading")
            c.put(f"{state.pool}{bonus}", "class:points")
        else:
            c.put("points used ", "class:heading")
            c.put(f"{state.spent}", "class:points")
        c.line(f"   tiles placed {sum(state.placed)}   supply {supply}")

    def _hex(self, c: Canvas, state, h: int, seats: list[int]) -> None:
        band = _BAND[COLOURS[HEX_COLOUR[h]]]
        tile = state.tiles[h]
        q = COORDS[h][0]
        if tile == NO_TILE:
            mark, mark_style = " ", band
        else:
            colour = COLOURS[COLOUR_LETTERS.index(tile.upper())]
            mark = "#" if tile.isupper() else "o"
            mark_style = f"{band} {_TILE[colour]}"
            if h == state.lifted:  # lifted by the Athos piece, not yet dropped
                mark, mark_style = mark.upper() if mark == "o" else "^", f"{band} {_LIFTED}"
        if seats:
            middle = f"m{seats[0]}" if len(seats) == 1 else "m+"
            middle_style = f"{band} class:seat{seats[0]} class:monk"
        else:
            middle, middle_style = f"{q + 1:>2}", band
        spot = f"node:{NODE_NAMES[h]}"
        c.put(mark, mark_style, spot=spot)
        c.put(middle, middle_style, spot=spot)
        c.put("*" if h in state.fixed else " ", "bold")

    def _areas(self, c: Canvas, state, at: dict[int, list[int]]) -> None:
        c.put(" " * (_x(1, 0)))
        for area in START_AREAS:
            seats = sorted(at.get(area, []))
            owner = [s for s, a in enumerate(state.setup.areas) if a == area]
            style = f"class:seat{owner[0]}" if owner else "class:dim"
            text = f"[{NODE_NAMES[area]} {''.join(str(s) for s in seats):<6}]"
            c.put(text.ljust(3 * _CELL - 1), style, spot=f"node:{NODE_NAMES[area]}")
            c.put(" ")
        c.newline()

    # -- pointing --------------------------------------------------------------------------------

    def spots(self, state, action: tuple) -> tuple[str, ...] | None:
        nodes = tuple(f"node:{a}" for a in action[1:] if isinstance(a, str) and a in _NODE_INDEX)
        return nodes or None

    def describe(self, state, spot: str, names: tuple[str, ...]) -> str:
        kind, _, name = spot.partition(":")
        node = _NODE_INDEX.get(name) if kind == "node" else None
        if node is None:
            return ""
        seats = monks_at(state).get(node, [])
        monks = ", ".join(f"seat {s} ({_name(names, s)})" for s in seats)
        if node == SUMMIT:
            order = ", ".join(f"seat {s}" for s in state.arrivals) or "nobody yet"
            return f"the summit: arrived in order {order}"
        if node >= HEX_COUNT:
            owner = [s for s, a in enumerate(state.setup.areas) if a == node]
            whose = f"seat {owner[0]}'s" if owner else "no seat's: not in play in this game"
            return f"start area {name} ({whose}): " + (f"monks of {monks}" if monks else "no monks")
        tile = state.tiles[node]
        if tile == NO_TILE:
            what = "no tile"
        else:
            colour = COLOURS[COLOUR_LETTERS.index(tile.upper())]
            what = f"a {colour} tile, {'blocking' if tile.isupper() else 'open'} side up"
        piece = ", an Athos piece on it" if node in state.fixed else ""
        if node == state.lifted:
            piece += ", lifted by the Athos piece (it goes down on another hex)"
        here = f"; monks of {monks}" if monks else ""
        return f"{name} ({COLOURS[HEX_COLOUR[node]]}): {what}{piece}{here}"

    def touching(self, state, spot: str) -> str:
        """Which nodes touch the one at `spot` (for the help screen, F1): a hex's six
        neighbours by row, a start area's three hexes, the summit's seven."""
        kind, _, name = spot.partition(":")
        node = _NODE_INDEX.get(name) if kind == "node" else None
        if node is None:
            return ""
        around = [NODE_NAMES[n] for n in NEIGHBOURS[node]]
        if node == SUMMIT:
            return f"The summit touches every hex of row k: {', '.join(around)}."
        if node >= HEX_COUNT:
            return f"Start area {name} touches {', '.join(around)}."
        row = COORDS[node][1]
        by_row = {r: [NODE_NAMES[n] for n in NEIGHBOURS[node] if n < HEX_COUNT and COORDS[n][1] == r]
                  for r in (row, row + 1, row - 1)}
        words = [f"{' and '.join(by_row[row])} beside it"]
        if by_row[row + 1]:
            words.append(f"{' and '.join(by_row[row + 1])} above")
        if by_row[row - 1]:
            words.append(f"{' and '.join(by_row[row - 1])} below")
        others = [NODE_NAMES[n] for n in NEIGHBOURS[node] if n >= HEX_COUNT]
        if others:
            words.append(" and ".join("the summit" if n == "summit" else f"start area {n}" for n in others))
        return f"{name} touches {', '.join(words)}: a step from {name} goes to one of these."

    def situation(self, state, names: tuple[str, ...]) -> str:
        who = f"seat {state.actor} ({_name(names, state.actor)})"
        if state.phase == "over":
            return f"Round {state.round}. Game over: {_why_over(state, names)}."
        doing = _PHASES.get(state.phase, state.phase)
        extra = ""
        if state.phase == "move":
            extra = f", {state.pool} point{'s' if state.pool != 1 else ''} left"
        elif state.phase == "handicap":
            extra = f", {state.handicap_left} to place"
        return f"Round {state.round}. {who} {doing}{extra}."

    def seat_detail(self, state, seat: int) -> str:
        up = state.monks[seat].count(SUMMIT)
        area = NODE_NAMES[state.setup.areas[seat]]
        team = f", team {1 + seat % 2}" if state.setup.teams else ""
        return f"area {area}{team}, {up}/{MONKS} up, {state.pieces[seat]} Athos, last turn {state.last_spent[seat]}"


def _name(names: tuple[str, ...], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


BOARD = AthosBoard()
