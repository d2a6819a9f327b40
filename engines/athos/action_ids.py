"""Athos's action ids (spec/games/athos.md, "Action ids"): the same for every player count
and option set, and never renumbered.

    0 end move, 1 skip athos, 2 end turn
    3 + 138·u + v           go from node u to node v (every pair of nodes, 19,044 ids)
    19047 + 132·k + h       on hex h the k-th of: turn, lift, drop, fix, place, place open

Nodes are numbered as in board.py (hexes 0-131, start areas A-E 132-136, the summit 137).
Athos has no chance, so no id is a chance outcome. 19,839 ids in all.
"""
from __future__ import annotations

from functools import cache

from peerboard.engines.action_ids import ActionIds
from peerboard.engines.athos.board import HEX_COUNT, NODE_COUNT, NODE_NAMES
from peerboard.engines.contract import Action

#: the kinds of action on one hex, in the order of their blocks of ids
HEX_KINDS = ("turn", "lift", "drop", "fix", "place", "place_open")


@cache
def numbering() -> ActionIds:
    decisions: list[Action] = [("end_move",), ("skip_athos",), ("end_turn",)]
    decisions += [("go", NODE_NAMES[u], NODE_NAMES[v]) for u in range(NODE_COUNT) for v in range(NODE_COUNT)]
    decisions += [(kind, NODE_NAMES[h]) for kind in HEX_KINDS for h in range(HEX_COUNT)]
    return ActionIds("athos", (), decisions)
