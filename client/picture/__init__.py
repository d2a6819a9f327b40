"""Pictures of positions, as SVG: each game's own drawing (`client/games/NAME/picture.py`,
a `draw(scene) -> Drawing`), or for a game without one its styled text board
(`generic.py`). `peerboard.svg` is the public face; the one-page replay (client/page/)
builds on `draw`.
"""
from __future__ import annotations

from typing import Any, Sequence

from peerboard.client.games import piece
from peerboard.client.picture import generic
from peerboard.client.picture.drawing import Drawing
from peerboard.client.picture.scene import Action, Scene, actions_of


def draw(game: Any, state: Any, seat: int | None = None, *, last: Action | Sequence[Action] | None = None,
         names: Sequence[str] = (), before: Any = None) -> Drawing:
    """The position `state` as `seat` may see it (`game.view`; None: all the state holds),
    with `last` (an action or a turn's actions, taken in `before`) highlighted."""
    shown = state if seat is None else game.view(state, seat)
    scene = Scene(game, shown, seat, actions_of(last), tuple(names), before)
    own = piece(game.name, "picture")
    return (own.draw if own is not None else generic.draw)(scene)


__all__ = ["Drawing", "Scene", "draw"]
