"""Athos's features (spec/games/athos.md, "Features"): the whole position, as numbers.

Per hex (132, board order): no tile, blocking tile, open tile, an Athos piece on it, the
tile lifted; per node (138) and seat (always 4 slots): that seat's monks there, / 3;
then the phase (7), the seat to act (4), the viewing seat (4), points left / 12, bonus
owed / 3, points used / 30, handicap tiles left / 8, Athos pieces per seat / 2 (4),
tiles placed this turn per colour / 8 (5), monks arrived / 12.
"""
from __future__ import annotations

from functools import cache

from peerboard.engines.athos.board import COLOURS, HEX_COUNT, NODE_COUNT, NODE_NAMES
from peerboard.engines.athos.state import ATHOS, DROP, FIX, HANDICAP, MOVE, NO_TILE, OVER, PLACE, State
from peerboard.engines.features import Features, one_hot, scaled

PHASES = (HANDICAP, MOVE, ATHOS, DROP, FIX, PLACE, OVER)
SEATS = 4
_HEX = ("empty", "blocking", "open", "piece", "lifted")


def _encode(state: State, seat: int) -> list[float]:
    values: list[float] = []
    fixed = set(state.fixed)
    for h, tile in enumerate(state.tiles):
        values += (float(tile == NO_TILE), float(tile.isupper()), float(tile.islower()),
                   float(h in fixed), float(h == state.lifted))
    for s in range(SEATS):
        monks = state.monks[s] if s < len(state.monks) else ()
        values += [monks.count(node) / 3 for node in range(NODE_COUNT)]
    values += one_hot(PHASES.index(state.phase), len(PHASES))
    values += one_hot(state.actor, SEATS) + one_hot(seat, SEATS)
    values += [scaled(state.pool, 12), scaled(state.owed, 3), scaled(state.spent, 30), scaled(state.handicap_left, 8)]
    values += [scaled(state.pieces[s], 2) if s < len(state.pieces) else 0.0 for s in range(SEATS)]
    values += [scaled(n, 8) for n in state.placed]
    values.append(scaled(len(state.arrivals), 12))
    return values


@cache
def features() -> Features:
    names = [f"{what} {NODE_NAMES[h]}" for h in range(HEX_COUNT) for what in _HEX]
    names += [f"monks of seat {s} on {NODE_NAMES[n]}" for s in range(SEATS) for n in range(NODE_COUNT)]
    names += [f"phase {p}" for p in PHASES] + [f"to act: seat {s}" for s in range(SEATS)]
    names += [f"viewing seat {s}" for s in range(SEATS)]
    names += ["points left", "bonus owed", "points used", "handicap tiles left"]
    names += [f"athos pieces of seat {s}" for s in range(SEATS)]
    names += [f"placed {colour}" for colour in COLOURS] + ["monks arrived"]
    return Features(names, _encode)
