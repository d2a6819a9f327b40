"""A plain-text picture of a position: the board (a1 bottom left), the players, the turn."""
from __future__ import annotations

from engines.asterix.board import (
    BIT,
    BOAR,
    COHORT,
    KIND_LETTERS,
    LAYOUT_ORDER,
    MENHIR,
    MISTLETOE,
    SQUARE_NAMES,
    VILLAGE,
    kind_at,
)
from engines.asterix.rules import situation
from engines.asterix.scoring import categories_won, winners
from engines.asterix.state import FIRST_ROLL, LAYOUT, MOVE, OVER, PICK, STEAL, Pile, State

LEGEND = "B boar  C cohort  M menhir  G mistletoe  L lake  . empty  # village"
_CELL = 6  # a tile letter and up to 4 pawn digits, then a space


def _cell(state: State, square: int, laid: frozenset[int]) -> str:
    if BIT[square] & VILLAGE:
        letter = "#"
    elif square not in laid:
        letter = "?"
    else:
        letter = KIND_LETTERS[kind_at(state.tiles, square)]
    here = "".join(str(seat) for seat, at in enumerate(state.pawns) if at == square)
    if len(here) > _CELL - 2:
        here = here[: _CELL - 3] + "+"
    return (letter + here).ljust(_CELL)


def _counts(pile: Pile, kinds: tuple[int, ...]) -> str:
    return " ".join(f"{KIND_LETTERS[k]}{pile[k]}" for k in kinds)


def render_board(state: State) -> str:
    """The 8x8 board, rank 8 at the top, file letters above and below."""
    laid = frozenset(LAYOUT_ORDER[: state.laid])
    files = "    " + "".join(f.ljust(_CELL) for f in "abcdefgh")
    lines = [files.rstrip()]
    for rank in range(7, -1, -1):
        cells = "".join(_cell(state, 8 * rank + f, laid) for f in range(8))
        lines.append(f" {rank + 1}  {cells}{rank + 1}")
    lines.append(files.rstrip())
    return "\n".join(lines)


def render_text(state: State, seat: int | None = None) -> str:
    """The whole position as text, readable in 80 columns."""
    head = f"Asterix: The Hunt, {state.players} players, carry rule {state.carry_rule}; "
    head += f"round {state.round} of {state.max_rounds}" if state.round else f"{state.max_rounds} rounds"
    if state.phase == OVER:
        best = winners(state.piles)
        now = "Game over: " + (
            f"seat {best[0]} wins." if len(best) == 1 else "a shared win for seats " + ", ".join(map(str, best)) + "."
        )
    else:
        now = f"Now: {situation(state)}."
        if state.phase == MOVE and len(state.dice) == 2:
            now += f" Then the {state.dice[1]}."
        elif state.phase in (PICK, STEAL) and state.dice:
            now += f" Then the {state.dice[0]}."
    won = categories_won(state.piles)
    table = ["seat  pawn  potions  carried       victory pile     categories won"]
    for s in range(state.players):
        mark = ">" if s == state.turn and state.phase not in (OVER, LAYOUT, FIRST_ROLL) else " "
        you = "  (you)" if s == seat else ""
        square = SQUARE_NAMES[state.pawns[s]] if state.pawns[s] >= 0 else "-"
        table.append(
            f"{mark}{s:>2}   {square:<4}  {state.potions[s]:<7}  "
            f"{_counts(state.carried[s], (BOAR, MENHIR, MISTLETOE)):<12}  "
            f"{_counts(state.piles[s], (BOAR, COHORT, MENHIR, MISTLETOE)):<15}  {won[s]}{you}"
        )
    legend = LEGEND + ("  ? unlaid" if state.laid < len(LAYOUT_ORDER) else "  0-7 pawns")
    return "\n".join([head, now, "", render_board(state), legend, "", *table]) + "\n"
