"""The four temples as data: 48 squares, their colours and bonus values.

A square is numbered 0..47 as `12 * (temple - 1) + (n - 1)` for square n (1..12) of a
temple (1..4); squares run row by row: 1-4 the yellow row, 5-8 the middle row, 9-12 green.
"""
from __future__ import annotations

YELLOW, BLACK, BLUE, GREEN, BONUS = "Y", "K", "B", "G", "+"

# (colour, bonus value) for squares 1..12 of each temple, as printed on the board.
_ROWS = {
    1: "Y Y Y Y  K K +1 B  G G G G",
    2: "Y Y Y Y  K K +1 B  G G G G",
    3: "Y Y Y +1  K K K B  G G G +1",
    4: "Y Y Y +2  K K K B  G G G +2",
}

TEMPLES = (1, 2, 3, 4)
SQUARES_PER_TEMPLE = 12


def _parse(cells: str) -> list[tuple[str, int]]:
    out = []
    for cell in cells.split():
        out.append((BONUS, int(cell[1:])) if cell.startswith("+") else (cell, 0))
    return out


#: colour of every square 0..47
COLOUR: tuple[str, ...] = tuple(c for t in TEMPLES for c, _ in _parse(_ROWS[t]))
#: bonus value of every square 0..47 (0 when not a bonus square)
BONUS_VALUE: tuple[int, ...] = tuple(v for t in TEMPLES for _, v in _parse(_ROWS[t]))
NUM_SQUARES = len(COLOUR)

YELLOW_SQUARES = tuple(i for i in range(NUM_SQUARES) if COLOUR[i] == YELLOW)
GREEN_SQUARES = tuple(i for i in range(NUM_SQUARES) if COLOUR[i] == GREEN)
BLACK_SQUARES = tuple(i for i in range(NUM_SQUARES) if COLOUR[i] == BLACK)
BLUE_SQUARES = tuple(i for i in range(NUM_SQUARES) if COLOUR[i] == BLUE)
BONUS_SQUARES = tuple(i for i in range(NUM_SQUARES) if COLOUR[i] == BONUS)


def temple_squares(temple: int) -> range:
    start = SQUARES_PER_TEMPLE * (temple - 1)
    return range(start, start + SQUARES_PER_TEMPLE)


def squares_up_to(temple: int) -> range:
    """The squares of temples 1..temple (what a cartouche-3 card of that value allows)."""
    return range(0, SQUARES_PER_TEMPLE * temple)


def temple_of(square: int) -> int:
    return square // SQUARES_PER_TEMPLE + 1


def square_name(square: int) -> str:
    """'t.n': temple t, square n (1..12)."""
    return f"{temple_of(square)}.{square % SQUARES_PER_TEMPLE + 1}"


assert (len(YELLOW_SQUARES), len(GREEN_SQUARES), len(BLACK_SQUARES), len(BLUE_SQUARES)) == (14, 14, 10, 4)
assert sorted(BONUS_VALUE[i] for i in BONUS_SQUARES) == [1, 1, 1, 1, 2, 2]
