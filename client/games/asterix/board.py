"""Asterix's look: the chess board with its tiles, lakes and the village, the pawns; each seat's potions, load and victory pile by category in the side panel.

Every square is two lines: the tile on the first, the pawns on the second, written `p01`
(pawns of seats 0 and 1), so a pawn is never read as a count of tiles. More than five
pawns on a square show as `p1234+`; the cursor line names them all.

Spots: `sq:c3` a square. Which die moves first, skip, pick, leave and steal are buttons.
"""
from __future__ import annotations

from peerboard.engines.asterix.board import (
    BIT, BOAR, COHORT, KIND_NAMES, LAYOUT_ORDER, LAKE, MENHIR, MISTLETOE, SQUARE_NAMES, VILLAGE, kind_at,
)
from peerboard.engines.asterix.scoring import winners
from peerboard.engines.asterix.state import FIRST_ROLL, LAYOUT, MOVE, ORDER, OVER, PICK, PLACE, ROLL, STEAL, State
from peerboard.client.tui.boards.canvas import BoardContext, Canvas, Drawing

_CELL = 6
#: at most five letters, so that two neighbours never run together
_WORD = {BOAR: "boar", COHORT: "cohrt", MENHIR: "menhr", MISTLETOE: "mistl", LAKE: "lake"}
#: each square on the ground of its tile
_STYLE = {BOAR: "bg:#875f00 ansiwhite", COHORT: "bg:ansired ansiwhite", MENHIR: "bg:ansibrightblack ansiwhite",
          MISTLETOE: "bg:ansigreen ansiblack", LAKE: "bg:ansiblue ansiwhite"}
_VILLAGE = "bg:ansiyellow ansiblack"
LEGEND = ("cohrt cohort  menhr menhir  mistl mistletoe", "vill village  p01 pawns of seats 0 and 1")
_PAWNS_SHOWN = 5
#: how to read this board, for the help screen (F1)
READING = """\
Reading the board. A chess board: files a-h left to right, ranks 1-8 bottom to top (a1
 bottom left); each square two lines, its tile above, the pawns on it below. Tiles: boar,
 cohrt (cohort), menhr (menhir), mistl (mistletoe), lake, blank a clearing, ? not laid
 yet, vill the village (d4 e4 d5 e5). p01: the pawns of seats 0 and 1 (p1234+: more than
 five; the cursor line names them). The side panel, per seat: where its pawn is, its
 potions, its load (boar, men menhir, mist mistletoe) and its victory pile (VP) of banked
 tiles by category. Dice, skip, pick, leave and steal are buttons under the board.
 What scores: each of boar, cohort, menhir and mistletoe goes to the one seat with the
 most of it banked; the most categories wins."""


def _pawns_at(state: State, square: int) -> list[int]:
    return [seat for seat, at in enumerate(state.pawns) if at == square]


def _tile(state: State, square: int, laid: frozenset[int]) -> tuple[str, str]:
    if BIT[square] & VILLAGE:
        return "vill", _VILLAGE
    if square not in laid:
        return "?", "class:dim"
    kind = kind_at(state.tiles, square)
    return _WORD.get(kind, ""), _STYLE.get(kind, "")


def _pawn_text(seats: list[int]) -> str:
    if not seats:
        return ""
    digits = "".join(str(s) for s in seats)
    if len(seats) > _PAWNS_SHOWN:
        digits = digits[: _PAWNS_SHOWN - 1] + "+"
    return "p" + digits


class AsterixBoard:
    reading = READING

    def draw(self, ctx: BoardContext) -> Drawing:
        state: State = ctx.state
        c = Canvas(ctx)
        laid = frozenset(LAYOUT_ORDER[: state.laid])
        files = "   " + "".join(f.center(_CELL) for f in "abcdefgh")
        c.line(files, "class:dim")
        for rank in range(7, -1, -1):
            for half in (0, 1):
                c.put(f" {rank + 1} " if half == 0 else "   ", "class:dim")
                for f in range(8):
                    sq = 8 * rank + f
                    text, style = _tile(state, sq, laid)
                    if half == 1:
                        seats = _pawns_at(state, sq)
                        text = _pawn_text(seats)
                        if seats:
                            style += " class:pawn" + (" class:mine" if ctx.seat in seats else "")
                    c.put(text.center(_CELL), style, spot=f"sq:{SQUARE_NAMES[sq]}")
                c.newline()
        for line in LEGEND:
            c.line(line, "class:dim")
        return c.drawing()

    # -- pointing --------------------------------------------------------------------------------

    def spots(self, state: State, action: tuple) -> tuple[str, ...] | None:
        kind = action[0]
        if kind in ("village", "move"):
            return (f"sq:{action[1]}",)
        return None  # the dice, skip, pick, leave, steal: buttons under the board

    def describe(self, state: State, spot: str, names: tuple[str, ...]) -> str:
        kind, _, value = spot.partition(":")
        if kind != "sq":
            return ""
        sq = SQUARE_NAMES.index(value)
        if BIT[sq] & VILLAGE:
            what = "a village square"
        elif sq not in LAYOUT_ORDER[: state.laid]:
            what = "no tile laid yet"
        else:
            what = KIND_NAMES[kind_at(state.tiles, sq)]
        seats = _pawns_at(state, sq)
        pawns = ("; pawns of " + ", ".join(f"seat {s} ({_name(names, s)})" for s in seats)) if seats else ""
        return f"{value}: {what}{pawns}"

    def situation(self, state: State, names: tuple[str, ...]) -> str:
        rounds = f"Round {state.round} of {state.max_rounds}. " if state.round else ""
        who = f"seat {state.actor} ({_name(names, state.actor)})"
        phase = state.phase
        if phase == OVER:
            best = winners(state.piles)
            won = " and ".join(f"seat {s} ({_name(names, s)})" for s in best) or "nobody"
            return rounds + f"Game over: {won} won."
        if phase == LAYOUT:
            return "The tiles are being laid."
        if phase == FIRST_ROLL:
            return "Rolling for the first player."
        if phase == PLACE:
            return rounds + f"{who} puts its pawn in the village."
        if phase == ROLL:
            return rounds + f"{who} rolls."
        if phase == ORDER:
            return rounds + f"{who} rolled {state.dice[0]} and {state.dice[1]}: which die first?"
        square = SQUARE_NAMES[state.pawns[state.actor]]
        if phase == MOVE:
            return rounds + f"{who} moves {state.dice[0]} from {square}."
        if phase == PICK:
            return rounds + f"{who} picks up the {KIND_NAMES[kind_at(state.tiles, state.pawns[state.actor])]} or leaves it."
        if phase == STEAL:
            return rounds + f"{who} may steal from a pawn on {square}."
        return rounds

    def seat_detail(self, state: State, seat: int) -> str:
        at = SQUARE_NAMES[state.pawns[seat]] if state.pawns[seat] >= 0 else "-"
        load = state.carried[seat]
        pile = state.piles[seat]
        carried = " ".join(f"{word}{load[k]}" for word, k in (("boar", BOAR), ("men", MENHIR), ("mist", MISTLETOE)) if load[k])
        return (f"pawn {at} potions {state.potions[seat]} load {carried or '-'}\n"
                f"VP boar{pile[BOAR]} coh{pile[COHORT]} men{pile[MENHIR]} mist{pile[MISTLETOE]}")


def _name(names: tuple[str, ...], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


BOARD = AsterixBoard()
