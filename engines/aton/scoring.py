"""Scoring the temples and the four immediate wins (rules/aton.md, "Scoring" and "End")."""
from __future__ import annotations

from operator import itemgetter
from typing import Callable, Sequence, TypeAlias

from peerboard.engines.aton.temples import (
    BLACK_SQUARES, BLUE_SQUARES, BONUS_SQUARES, BONUS_VALUE, COLOUR, GREEN, GREEN_SQUARES, YELLOW,
    SQUARES_PER_TEMPLE, YELLOW_SQUARES, temple_of, temple_squares,
)

#: squares a temple or a colour holds: a temple's are a range, a colour's a tuple
Squares: TypeAlias = range | tuple[int, ...]

BLACK_MAJORITY = 8
TEMPLE_2_POINTS = 5
POINTS_PER_BLUE = 3


def _count(board: tuple[int, ...], squares: Squares, seat: int) -> int:
    # (a temple's squares are a range: one slice; the colours' squares are picked in one
    # call: a search scores the board at the end of every playout)
    if type(squares) is range:
        return board[squares.start : squares.stop].count(seat)
    return _PICKS[squares](board).count(seat)


def majority(board: tuple[int, ...], squares: Squares) -> int | None:
    """The seat with strictly more counters on these squares, or None on a tie."""
    a, b = _count(board, squares, 0), _count(board, squares, 1)
    return 0 if a > b else 1 if b > a else None


def temple_scores(board: tuple[int, ...]) -> tuple[int, int]:
    """The points each seat gets from one scoring, itemised in `scoring_items`."""
    totals = [0, 0]
    for seat, points, _ in scoring_items(board):
        totals[seat] += points
    return totals[0], totals[1]


def scoring_items(board: tuple[int, ...]) -> list[tuple[int, int, str]]:
    """(seat, points, why) for every award of one scoring, in the board's order."""
    items: list[tuple[int, int, str]] = []
    t1 = temple_squares(1)
    holder = majority(board, t1)
    if holder is not None:
        diff = _count(board, t1, holder) - _count(board, t1, 1 - holder)
        items.append((holder, diff, "temple 1: the difference in counters"))
    holder = majority(board, temple_squares(2))
    if holder is not None:
        items.append((holder, TEMPLE_2_POINTS, "temple 2: the majority"))
    t3 = temple_squares(3)
    holder = majority(board, t3)
    if holder is not None:
        items.append((holder, _count(board, t3, holder), "temple 3: own counters there"))
    holder = majority(board, temple_squares(4))
    if holder is not None:
        blue = _count(board, BLUE_SQUARES, holder)
        if blue:
            items.append((holder, POINTS_PER_BLUE * blue, "temple 4: 3 per blue square held"))
    holder = majority(board, BLACK_SQUARES)
    if holder is not None:
        items.append((holder, BLACK_MAJORITY, "black squares: the majority"))
    for sq in BONUS_SQUARES:
        if board[sq] != -1:
            items.append((board[sq], BONUS_VALUE[sq], "a bonus square"))
    return items


def immediate_win(board: Sequence[int], seat: int, placed: int) -> str:
    """Why `seat` wins at once by occupation after placing on square `placed`, or "":
    all 12 squares of a temple, all 14 yellow, all 14 green. Only what the new counter
    belongs to can have become complete. (A playout asks it of the board as a list.)"""
    # (counted in one call each: `_place` asks this after every placement)
    start = placed - placed % SQUARES_PER_TEMPLE  # (the temple's first square)
    if board[start : start + SQUARES_PER_TEMPLE].count(seat) == SQUARES_PER_TEMPLE:
        return f"occupies all 12 squares of temple {temple_of(placed)}"
    if COLOUR[placed] == YELLOW and _yellow(board).count(seat) == len(YELLOW_SQUARES):
        return "occupies all 14 yellow squares"
    if COLOUR[placed] == GREEN and _green(board).count(seat) == len(GREEN_SQUARES):
        return "occupies all 14 green squares"
    return ""


#: board -> what its yellow (green) squares hold, in one call
_yellow = itemgetter(*YELLOW_SQUARES)
_green = itemgetter(*GREEN_SQUARES)
#: squares -> board -> what those squares hold, for the colours `_count` counts
_PICKS: dict[Squares, Callable[[tuple[int, ...]], tuple[int, ...]]] = {
    squares: itemgetter(*squares) for squares in (BLACK_SQUARES, BLUE_SQUARES)
}
