"""Asterix's action ids (spec/games/asterix.md, "Action ids"): by player count only (the
thefts name a seat), never renumbered; an id below 110 means the same at every count.
Chance outcomes first:

    0-5      tile boar, cohort, menhir, mistletoe, lake, clearing   (chance: the layout)
    6-11     d6 1 … d6 6                                           (chance: first player)
    12-32    roll a b, a ≤ b: (1 1) (1 2) … (1 6) (2 2) … (6 6)     (chance: the 2d6)
    33-38    die 1 … die 6
    39-42    village d4, e4, d5, e5
    43-106   move square s   43 + s  (s = 0 for a1 … 63 for h8, rank by rank)
    107 skip, 108 pick, 109 leave
    110 + 3·v + k   steal kind k from seat v, k: 0 boar, 1 menhir, 2 mistletoe

110 + 3 × players ids in all (116 at 2 players … 134 at 8).
"""
from __future__ import annotations

from functools import cache

from peerboard.engines.action_ids import ActionIds
from peerboard.engines.asterix.board import CARRIED_KINDS, KIND_NAMES, SQUARE_NAMES, VILLAGE_SQUARES
from peerboard.engines.contract import Action


@cache
def numbering(players: int) -> ActionIds:
    chance: list[Action] = [("tile", kind) for kind in KIND_NAMES]
    chance += [("d6", n) for n in range(1, 7)]
    chance += [("roll", a, b) for a in range(1, 7) for b in range(a, 7)]
    decisions: list[Action] = [("die", n) for n in range(1, 7)]
    decisions += [("village", SQUARE_NAMES[s]) for s in VILLAGE_SQUARES]
    decisions += [("move", name) for name in SQUARE_NAMES]
    decisions += [("skip",), ("pick",), ("leave",)]
    decisions += [("steal", victim, KIND_NAMES[k]) for victim in range(players) for k in CARRIED_KINDS]
    return ActionIds("asterix", chance, decisions)
