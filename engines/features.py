"""`Features`: a game's fixed-length numeric picture of what one seat sees (spec/engine-contract.md,
"Features"), for learning programs: OpenSpiel's observation tensor, PettingZoo's observation.

`features(view, seat)` reads only the seat's view (`game.view(state, seat)`), so it never
shows what the seat may not know; every number lies in [0, 1]; the length depends on the
player count alone. `names` says what each number is, in order.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence


class Features:
    """`len(features)` numbers; `features(view, seat)` the list of them for one view."""

    __slots__ = ("_encode", "names")

    def __init__(self, names: Sequence[str], encode: Callable[[Any, int], list[float]]) -> None:
        #: what each number is (e.g. "tile.blocking a1"), one per number
        self.names = tuple(names)
        self._encode = encode

    def __len__(self) -> int:
        return len(self.names)

    def __call__(self, view: Any, seat: int) -> list[float]:
        values = self._encode(view, seat)
        if len(values) != len(self.names):  # our bug, said where it is
            raise AssertionError(f"features gave {len(values)} numbers, not {len(self.names)}")
        return values


def one_hot(index: int, size: int) -> list[float]:
    """`size` zeros with a one at `index` (none when index is outside)."""
    row = [0.0] * size
    if 0 <= index < size:
        row[index] = 1.0
    return row


def scaled(value: int, most: int) -> float:
    """`value / most`, held in [0, 1]."""
    return min(max(value / most, 0.0), 1.0)
