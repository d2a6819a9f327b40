"""What a seat observes, as OpenSpiel asks for it (its PyObserver interface).

* the information state (perfect recall): the lines the seat observed, in order, after a
  header naming the game, its options and the seat (research/openspiel/state.py says what
  each seat is told); a string only: a tensor of a whole history has no fixed length;
* the observation (no recall): the board as the seat sees it, `render_text` of its view
  (in a game of perfect information the board every seat sees, `str(state)`), and as a
  tensor the engine's `features` of that view (spec/games/NAME.md, "Features").
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel


class PeerboardObserver:
    """An observer of one kind: with perfect recall (the information state) or without."""

    def __init__(self, game: Any, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"peerboard games take no observation parameters; got {params}")
        self._game = game
        self._recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        features = None if self._recall else game.features
        size = len(features) if features is not None else 0
        self._features = features
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"features": self.tensor} if size else {}

    def set_from(self, state: Any, player: int) -> None:
        if self._features is not None:
            self.tensor[:] = state.seat_features(player)

    def string_from(self, state: Any, player: int) -> str:
        if self._recall:
            return state.information_state_text(player)
        return state.observation_text(player)
