"""Pictures of positions, for notebooks, bug reports and pages, in the spirit of
`chess.svg.board`:

    import peerboard.svg
    from peerboard import engines

    game = engines.get("athos")
    state = game.new_game(players=3)
    peerboard.svg.board(game, state)              # a standalone SVG document, as text
    peerboard.svg.Picture(game, state, seat=1)    # shows itself in a Jupyter notebook

Every registered game has a picture: the three that ship draw their own boards
(client/games/NAME/picture.py), any other its styled text board. docs/pictures.md shows them.
"""
from __future__ import annotations

from typing import Any, Sequence

from peerboard import engines
from peerboard.client.picture import draw

Action = tuple
#: the width in pixels of a picture when none is asked for
SIZE = 640


def board(game: Any, state: Any, seat: int | None = None, size: float | None = SIZE,
          last: Action | Sequence[Action] | None = None, *, names: Sequence[str] = (),
          before: Any = None) -> str:
    """A standalone SVG of `state` as `seat` may see it (hidden parts hidden: the engine's
    `view`; None shows all that `state` holds), `size` pixels wide (None: as wide as its
    container), with the pieces, whose turn it is, the scores and, given `last` (an action
    or a turn's actions), those highlighted (`before`, the state they were taken in, lets
    the header say them in the notation). `game` is a game or its registry name;
    `names` are the seats' names."""
    if isinstance(game, str):
        game = engines.get(game)
    return draw(game, state, seat, last=last, names=names, before=before).svg(size)


class Picture:
    """A position's picture: a notebook shows it (`_repr_svg_`), `str()` is the SVG."""

    def __init__(self, game: Any, state: Any, seat: int | None = None, size: float | None = SIZE,
                 last: Action | Sequence[Action] | None = None, **more: Any) -> None:
        self.svg = board(game, state, seat, size, last, **more)

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg

    def save(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)


__all__ = ["Picture", "SIZE", "board"]
