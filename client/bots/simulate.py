"""What a search bot imagines: a full state it cannot tell from its view, and a secret
choice played out with the other seats choosing without seeing its own."""
from __future__ import annotations

import random
from typing import Any, Callable

from peerboard.engines import Action, Game

#: (state, seat, that seat's options) -> its choice
Picker = Callable[[Any, int, list], Action]


def sample_state(game: Game, view: Any, seat: int, rng: random.Random) -> Any:
    """A full state consistent with `view` (the view itself in a perfect-information game)."""
    return game.determinize(view, seat, rng.randbytes(32))


def play_choice(game: Game, state: Any, seat: int, action: Action, pick: Picker) -> Any:
    """`seat` does `action`. At a simultaneous secret choice, every other seat of it picks
    first from the same position (so none sees `seat`'s choice), then the engine takes
    the choices in its order."""
    group = game.secret_choice(state)
    if seat not in group:
        return game.apply(state, action)
    chosen = {s: pick(state, s, game.choices_for(state, s)) for s in group if s != seat}
    chosen[seat] = action
    for s in group:
        state = game.apply(state, chosen[s])
    return state
