"""A picture of a position: the board (a1 bottom left), the players, the turn.

A square shows its tile's letter, then the pawns on it in brackets, so a menhir with the
pawns of seats 0 and 1 reads `M(0,1)` and never like a count. A square with more than three
pawns shows two and a `+`, and is named in full below the board.

Styles (spec/engine-contract.md, "Styled boards"): `tile.boar`, `tile.cohort`,
`tile.menhir`, `tile.mistletoe`, `tile.lake`, `tile.empty`, `tile.village`, `tile.unlaid`,
`seat.N` (a pawn, a seat's row), `label`, `legend`, `title`, `you`.
"""
from __future__ import annotations

from peerboard.engines.asterix.board import (
    BIT,
    BOAR,
    COHORT,
    KIND_LETTERS,
    KIND_NAMES,
    LAYOUT_ORDER,
    MENHIR,
    MISTLETOE,
    SQUARE_NAMES,
    VILLAGE,
    kind_at,
)
from peerboard.engines.asterix.rules import situation
from peerboard.engines.asterix.scoring import categories_won, winners
from peerboard.engines.asterix.state import FIRST_ROLL, LAYOUT, MOVE, OVER, PICK, STEAL, Pile, State
from peerboard.engines.styled import Fragment, Styled

_CELL = 9  # "M(1,2,3)" and a space
_LEFT = 4  # " 8  " before the first square
_SHOWN = 3  # pawns written on a square; more are named below the board
_LEGEND = (
    ("B", "tile.boar", "boar  "),
    ("C", "tile.cohort", "cohort  "),
    ("M", "tile.menhir", "menhir  "),
    ("G", "tile.mistletoe", "mistletoe  "),
    ("L", "tile.lake", "lake  "),
    (".", "tile.empty", "empty  "),
    ("#", "tile.village", "village  "),
)


def _square(state: State, square: int, laid: frozenset[int]) -> tuple[str, str]:
    """(letter, style) of what lies on a square."""
    if BIT[square] & VILLAGE:
        return "#", "tile.village"
    if square not in laid:
        return "?", "tile.unlaid"
    kind = kind_at(state.tiles, square)
    return KIND_LETTERS[kind], "tile.empty" if KIND_LETTERS[kind] == "." else f"tile.{KIND_NAMES[kind]}"


def _files(out: Styled) -> None:
    for f, letter in enumerate("abcdefgh"):
        out.pad_to(_LEFT + _CELL * f).add(letter, "label")
    out.line()


def _board(out: Styled, state: State) -> list[int]:
    """The 8x8 board, rank 8 at the top, file letters above and below; returns the
    squares with more pawns than a square shows."""
    laid = frozenset(LAYOUT_ORDER[: state.laid])
    crowded = []
    _files(out)
    for rank in range(7, -1, -1):
        out.add(f" {rank + 1}", "label")
        for f in range(8):
            square = 8 * rank + f
            letter, style = _square(state, square, laid)
            out.pad_to(_LEFT + _CELL * f).add(letter, style)
            here = [seat for seat, at in enumerate(state.pawns) if at == square]
            if here:
                shown = here if len(here) <= _SHOWN else here[: _SHOWN - 1]
                out.add("(", "label")
                for i, seat in enumerate(shown):
                    out.add("," if i else "", "label").add(str(seat), f"seat.{seat}")
                if len(here) > _SHOWN:
                    out.add("+", "label")
                    crowded.append(square)
                out.add(")", "label")
        out.pad_to(_LEFT + _CELL * 8 - 1).line(str(rank + 1), "label")
    _files(out)
    return crowded


def _counts(pile: Pile, kinds: tuple[int, ...]) -> str:
    return " ".join(f"{KIND_LETTERS[k]}{pile[k]}" for k in kinds)


def render_styled(state: State, seat: int | None = None) -> list[Fragment]:
    """The whole position, readable in 80 columns."""
    out = Styled()
    head = f"Asterix: The Hunt, {state.players} players, carry rule {state.carry_rule}; "
    head += f"round {state.round} of {state.max_rounds}" if state.round else f"{state.max_rounds} rounds"
    out.line(head, "title")
    if state.phase == OVER:
        best = winners(state.piles)
        out.line("Game over: " + (
            f"seat {best[0]} wins." if len(best) == 1 else "a shared win for seats " + ", ".join(map(str, best)) + "."
        ), "title")
    else:
        now = f"Now: {situation(state)}."
        if state.phase == MOVE and len(state.dice) == 2:
            now += f" Then the {state.dice[1]}."
        elif state.phase in (PICK, STEAL) and state.dice:
            now += f" Then the {state.dice[0]}."
        out.line(now)
    out.line()
    crowded = _board(out, state)
    for letter, style, words in _LEGEND:
        out.add(letter, style).add(" " + words, "legend")
    out.line()
    out.add("M(0,1): a menhir with the pawns of seats 0 and 1", "legend")
    if state.laid < len(LAYOUT_ORDER):
        out.add("  ").add("?", "tile.unlaid").add(" not laid yet", "legend")
    out.line()
    for square in crowded:
        here = ", ".join(str(s) for s, at in enumerate(state.pawns) if at == square)
        out.line(f"{SQUARE_NAMES[square]} holds the pawns of seats {here}.")
    out.line()
    won = categories_won(state.piles)
    out.line("seat  pawn  potions  carried       victory pile     categories won", "label")
    for s in range(state.players):
        mark = ">" if s == state.actor and state.phase not in (OVER, LAYOUT, FIRST_ROLL) else " "
        pawn = SQUARE_NAMES[state.pawns[s]] if state.pawns[s] >= 0 else "-"
        out.add(mark).add(f"{s:>2}", f"seat.{s}")
        out.add(
            f"   {pawn:<4}  {state.potions[s]:<7}  "
            f"{_counts(state.carried[s], (BOAR, MENHIR, MISTLETOE)):<12}  "
            f"{_counts(state.piles[s], (BOAR, COHORT, MENHIR, MISTLETOE)):<15}  {won[s]}"
        )
        if s == seat:
            out.add("  (you)", "you")
        out.line()
    return out.fragments()
