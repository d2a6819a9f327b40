"""The pictures of a whole game, each distinct part kept once.

A position's picture is a list of parts (client/picture/drawing.py); from one position to
the next most parts are the very same text (a hex nobody touched, a temple square that
kept its counter). The pool numbers each distinct part on its first appearance, and a
picture is written as those numbers in runs: "0-180" for a first picture, then
"0-40,181,42-180" for one that differs in one part. A picture with as many parts as the
one before it is written as the parts that changed instead, "=41:181" (part 181 in place
41), except every KEYFRAME-th, so that the script can rebuild any position from one at most
that many steps back (client/page/script.py, `slots`).
"""
from __future__ import annotations

from peerboard.client.picture.drawing import Drawing

#: a position written whole at least this often
KEYFRAME = 50


class Pool:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self._index: dict[str, int] = {}

    def number(self, part: str) -> int:
        found = self._index.get(part)
        if found is None:
            found = self._index[part] = len(self.parts)
            self.parts.append(part)
        return found

    def numbers(self, drawing: Drawing) -> list[int]:
        """The drawing's parts as numbers; its `<svg>` tag is a part too."""
        return [self.number(drawing.opening())] + [self.number(p) for p in drawing.parts]


def code(numbers: list[int], before: list[int] | None, whole: bool) -> str:
    """A picture's numbers written for the page: the changes from `before` (the picture of
    the position before, in the same view), or whole when `whole` or the count differs."""
    if whole or before is None or len(before) != len(numbers):
        return runs(numbers)
    return "=" + ",".join(f"{i}:{n}" for i, (n, was) in enumerate(zip(numbers, before)) if n != was)


def runs(numbers: list[int]) -> str:
    """[0, 1, 2, 7, 4, 5] -> "0-2,7,4-5" (each run of consecutive numbers as first-last)."""
    out: list[str] = []
    k = 0
    while k < len(numbers):
        end = k
        while end + 1 < len(numbers) and numbers[end + 1] == numbers[end] + 1:
            end += 1
        out.append(str(numbers[k]) if end == k else f"{numbers[k]}-{numbers[end]}")
        k = end + 1
    return ",".join(out)
