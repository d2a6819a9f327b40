"""Aton's action ids (spec/games/aton.md, "Action ids"): the same for both option sets, never
renumbered. Chance outcomes first:

    0-3      draw 1 … draw 4             (chance: the drawer's next card)
    4-7      turn 1 … turn 4             (chance: the tie-break card)
    8        keep
    9-264    exchange a b c d            9 + 64(a−1) + 16(b−1) + 4(c−1) + (d−1)
    265-520  assign a b c d              265 + the same
    521-568  remove square s             521 + s   (s = 0 for 1.1 … 47 for 4.12)
    569-616  place square s              569 + s
    617-664  retrieve square s           617 + s

665 ids in all. The hidden draw `draw ?` (a view's placeholder) has none: it is never a move.
"""
from __future__ import annotations

from functools import cache
from itertools import product

from peerboard.engines.action_ids import ActionIds
from peerboard.engines.aton.cards import VALUES
from peerboard.engines.aton.temples import NUM_SQUARES
from peerboard.engines.contract import Action


@cache
def numbering() -> ActionIds:
    chance: list[Action] = [(kind, v) for kind in ("draw", "turn") for v in VALUES]
    decisions: list[Action] = [("keep",)]
    decisions += [(kind, *four) for kind in ("exchange", "assign") for four in product(VALUES, repeat=4)]
    decisions += [(kind, square) for kind in ("remove", "place", "retrieve") for square in range(NUM_SQUARES)]
    return ActionIds("aton", chance, decisions)
