"""What a game's board drawing is made of, and what it is given.

A board draws on a `Canvas`: lines of fragments (style, text, spot). A fragment with a
spot can be pointed at: the view turns it into a mouse target, the cursor walks between
spots by their `positions`, and the canvas marks the spot under the cursor, the spots
already selected and the spots that may come next, the same way for every game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

Fragment = tuple[str, str, "str | None"]


@dataclass(frozen=True)
class BoardContext:
    """Everything a board may draw from; it decides nothing."""

    state: Any
    #: the seat whose view this is (None: a public view)
    seat: int | None
    #: seat names, printable already
    names: tuple[str, ...]
    cursor: str | None = None
    selection: tuple[str, ...] = ()
    targets: frozenset[str] = frozenset()
    #: the local seat's planned (or committed, not yet revealed) secret choice, shown to it only
    choice: tuple | None = None


@dataclass(frozen=True)
class Drawing:
    lines: tuple[tuple[Fragment, ...], ...]
    #: spot -> (line, column) of its first character
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)

    @cached_property
    def width(self) -> int:
        return max((sum(len(t) for _, t, _ in line) for line in self.lines), default=0)

    @property
    def height(self) -> int:
        return len(self.lines)

    def text(self) -> str:
        """The drawing as plain text (snapshots, README screenshots), trailing blanks cut."""
        return "\n".join("".join(t for _, t, _ in line).rstrip() for line in self.lines)


class Canvas:
    def __init__(self, ctx: BoardContext):
        self.ctx = ctx
        self._lines: list[list[Fragment]] = [[]]
        self._col = 0
        self._positions: dict[str, tuple[int, int]] = {}

    def put(self, text: str, style: str = "", spot: str | None = None, show_selected: bool = True) -> None:
        """`show_selected` False: a spot that may be chosen several times (a card value
        in a hand) is not marked as selected when one of its kind was."""
        if spot is not None:
            self._positions.setdefault(spot, (len(self._lines) - 1, self._col))
            if spot == self.ctx.cursor:
                style += " class:cursor"
            elif show_selected and spot in self.ctx.selection:
                style += " class:selected"
            elif spot in self.ctx.targets:
                style += " class:target"
        self._lines[-1].append((style, text, spot))
        self._col += len(text)

    def newline(self) -> None:
        self._lines.append([])
        self._col = 0

    def line(self, text: str = "", style: str = "") -> None:
        """A whole line of plain text, then a new line."""
        if text:
            self.put(text, style)
        self.newline()

    def drawing(self) -> Drawing:
        lines = self._lines[:-1] if not self._lines[-1] else self._lines
        return Drawing(tuple(tuple(line) for line in lines), dict(self._positions))


class Board(Protocol):
    """One game's look: `BOARD` in client/games/NAME/board.py, or the plain board (plain.py)."""

    def draw(self, ctx: BoardContext) -> Drawing:
        """The board, with a spot on everything a person may point at."""
        ...

    def spots(self, state: Any, action: tuple) -> tuple[str, ...] | None:
        """The spots a person points at for `action`, in order; None: shown as a button."""
        ...

    def describe(self, state: Any, spot: str, names: tuple[str, ...]) -> str:
        """One line saying what is at `spot` (for the cursor)."""
        ...

    def situation(self, state: Any, names: tuple[str, ...]) -> str:
        """One line saying what happens now in the game."""
        ...

    def seat_detail(self, state: Any, seat: int) -> str:
        """A short line of the seat's own things for the side panel ("" for none)."""
        ...


class DrawingCache:
    """The last drawing of a board and the context it was drawn from: the view (every
    render) and the presenter (the cursor's geometry) ask for the same one many times."""

    def __init__(self) -> None:
        self._context: BoardContext | None = None
        self._drawing: Drawing | None = None

    def draw(self, board: Board, ctx: BoardContext) -> Drawing:
        if self._drawing is None or ctx != self._context:
            self._context, self._drawing = ctx, board.draw(ctx)
        return self._drawing
