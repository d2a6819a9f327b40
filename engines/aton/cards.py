"""A seat's cards as counts: (how many 1s, 2s, 3s, 4s). A deck is a pile with no order
the rules can see, so counts are all the engine keeps; each draw is a chance node."""
from __future__ import annotations

from typing import Iterable

Counts = tuple[int, int, int, int]
VALUES = (1, 2, 3, 4)
EMPTY: Counts = (0, 0, 0, 0)
#: a seat's whole deck: nine each of 1, 2, 3, 4 (what it has unseen at the start)
FULL_DECK: Counts = (9, 9, 9, 9)


def size(c: Counts) -> int:
    return c[0] + c[1] + c[2] + c[3]


def add(a: Counts, b: Counts) -> Counts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def sub(a: Counts, b: Counts) -> Counts:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


def contains(a: Counts, b: Counts) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] >= b[2] and a[3] >= b[3]


def of(values: Iterable[int]) -> Counts:
    c = [0, 0, 0, 0]
    for v in values:
        c[v - 1] += 1
    return (c[0], c[1], c[2], c[3])


def of_one(value: int) -> Counts:
    return of((value,))


#: the counts of one card of each value (a draw adds one to the hand)
ONE: dict[int, Counts] = {v: of_one(v) for v in VALUES}


def listed(c: Counts) -> tuple[int, ...]:
    """The cards in ascending order."""
    return tuple(v for v in VALUES for _ in range(c[v - 1]))
