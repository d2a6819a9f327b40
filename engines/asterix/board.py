"""The board: 64 squares a1..h8, the village, king steps, and the tile mix.

A square is an index 0..63: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63
(index = 8 * (rank - 1) + file). A set of squares is a 64-bit mask with bit i for
square i, so "every neighbour of every square in a set" is a handful of shifts.
"""
from __future__ import annotations

from typing import Iterator

FILES = "abcdefgh"
SQUARE_NAMES: tuple[str, ...] = tuple(FILES[i % 8] + str(i // 8 + 1) for i in range(64))
#: a square's name -> its index (a decoded action's square is one of these names)
SQUARE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SQUARE_NAMES)}

BIT: tuple[int, ...] = tuple(1 << i for i in range(64))
FULL = (1 << 64) - 1
_FILE_A = sum(BIT[8 * r] for r in range(8))
_FILE_H = sum(BIT[8 * r + 7] for r in range(8))
_NOT_A = FULL & ~_FILE_A
_NOT_H = FULL & ~_FILE_H

#: The Gaul village: the centre four squares d4, e4, d5, e5.
VILLAGE_SQUARES: tuple[int, ...] = (27, 28, 35, 36)
VILLAGE = sum(BIT[i] for i in VILLAGE_SQUARES)
OUTSIDE = FULL & ~VILLAGE

#: The order in which the layout lays one tile per square: a1, b1, ..., h8 without the village.
LAYOUT_ORDER: tuple[int, ...] = tuple(i for i in range(64) if not BIT[i] & VILLAGE)

# Tile kinds, in the order of the seed's tile mix. The first four score.
BOAR, COHORT, MENHIR, MISTLETOE, LAKE, CLEARING = range(6)
KIND_NAMES: tuple[str, ...] = ("boar", "cohort", "menhir", "mistletoe", "lake", "clearing")
KIND_INDEX = {name: k for k, name in enumerate(KIND_NAMES)}
#: One letter per kind for diagrams; a clearing (or an emptied square) is ".".
KIND_LETTERS = "BCMGL."
TILE_COUNTS: tuple[int, ...] = (10, 10, 8, 12, 8, 12)
SCORING_KINDS: tuple[int, ...] = (BOAR, COHORT, MENHIR, MISTLETOE)
SCORING_TILES = sum(TILE_COUNTS[k] for k in SCORING_KINDS)  # 40
#: The kinds a pawn can carry (a cohort goes straight to the victory pile).
CARRIED_KINDS: tuple[int, ...] = (BOAR, MENHIR, MISTLETOE)

#: Potions a pawn holds at the start and gets back up to in the village.
FULL_POTIONS = 3


def square_index(name: str) -> int | None:
    """The index of a square name like "c3", or None."""
    return SQUARE_INDEX.get(name)


def spread(mask: int) -> int:
    """Every square one king step (orthogonal or diagonal) from some square of `mask`."""
    west = (mask >> 1) & _NOT_H  # a square on file a has no west neighbour
    east = (mask << 1) & _NOT_A & FULL
    row = mask | west | east
    return ((row << 8) & FULL) | (row >> 8) | west | east


def squares_of(mask: int) -> Iterator[int]:
    """The squares of a mask in index order (a1 first)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def kind_at(tiles: tuple[int, ...], square: int) -> int:
    """The kind on a square given the five tile masks (a clearing when none holds it)."""
    bit = BIT[square]
    for kind, mask in enumerate(tiles):
        if mask & bit:
            return kind
    return CLEARING


def tiles_from_diagram(text: str) -> tuple[int, int, int, int, int]:
    """Tile masks from 8 lines of 8 letters (KIND_LETTERS, "#" for the village), rank 8 first.

    Used by tests and documentation to set up a position that can be read at a glance.
    """
    rows = [line.split() if " " in line.strip() else list(line.strip()) for line in text.strip().splitlines()]
    if len(rows) != 8 or any(len(row) != 8 for row in rows):
        raise ValueError("a diagram is 8 lines of 8 squares, rank 8 at the top")
    masks = [0, 0, 0, 0, 0]
    for r, row in enumerate(rows):
        for f, letter in enumerate(row):
            square = 8 * (7 - r) + f
            if letter == "#":
                if not BIT[square] & VILLAGE:
                    raise ValueError(f"{SQUARE_NAMES[square]} is not a village square")
                continue
            if BIT[square] & VILLAGE:
                raise ValueError(f"{SQUARE_NAMES[square]} is a village square; write '#'")
            kind = KIND_LETTERS.find(letter)
            if kind < 0:
                raise ValueError(f"unknown tile letter {letter!r} on {SQUARE_NAMES[square]}")
            if kind != CLEARING:
                masks[kind] |= BIT[square]
    return (masks[0], masks[1], masks[2], masks[3], masks[4])
