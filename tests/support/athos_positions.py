"""Building Athos positions for the rule tests, by the names the rules use.

`position(...)` starts from a new game and puts monks, tiles and Athos pieces where a test
says, so every test shows its board. The tests at the bottom check the builder itself.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

from peerboard.engines.athos import GAME
from peerboard.engines.athos.board import HEX_COLOUR, NODE_NAMES, SUMMIT
from peerboard.engines.athos.notation import NODE_INDEX
from peerboard.engines.athos.state import MOVE, NO_TILE, State, tile_char
from peerboard.engines.contract import IllegalAction

#: seat 0 with two monks on the summit and one a step below it (k1)
TWO_UP = ["k1", "summit", "summit"]


def node(name: str) -> int:
    return NODE_INDEX[name]


def position(
    players: int = 2,
    options: Mapping[str, Any] | None = None,
    *,
    monks: Mapping[int, Sequence[str]] | None = None,
    blocking: Sequence[str] = (),
    open_tiles: Sequence[str] = (),
    fixed: Sequence[str] = (),
    **fields: Any,
) -> State:
    """A position: `monks` {seat: node names} (3 each; missing ones stay in the start area,
    "summit" for arrived ones), tiles of each hex's own colour, Athos pieces, other fields."""
    state = GAME.new_game(players, options)
    all_monks = list(state.monks)
    for seat, names in (monks or {}).items():
        nodes = [node(n) for n in names]
        nodes += [state.setup.areas[seat]] * (3 - len(nodes))
        all_monks[seat] = tuple(sorted(nodes))
    tiles = list(NO_TILE * len(state.tiles))
    for name in blocking:
        tiles[node(name)] = tile_char(HEX_COLOUR[node(name)], True)
    for name in open_tiles:
        tiles[node(name)] = tile_char(HEX_COLOUR[node(name)], False)
    changes: dict[str, Any] = dict(
        monks=tuple(all_monks),
        tiles="".join(tiles),
        fixed=tuple(sorted(node(n) for n in fixed)),
    )
    if "phase" not in fields and state.phase != MOVE:
        changes["phase"] = state.phase
    changes.update(fields)
    return dataclasses.replace(state, **changes)


def finish_turn(state: State) -> State:
    """The acting seat ends its turn: ends its move, skips the Athos piece and places
    nothing, as far as each is still asked of it (a phase with nothing else to decide
    passes by itself)."""
    seat, turn = state.actor, state.round
    while not GAME.is_terminal(state) and (state.actor, state.round) == (seat, turn):
        end = next(a for a in GAME.legal_actions(state) if a in ENDS)
        state = GAME.apply(state, end)
    return state


ENDS = (("end_move",), ("skip_athos",), ("end_turn",))


def names(actions: Sequence[tuple]) -> list[str]:
    """The text of each action (to read a legal list at a glance)."""
    return [GAME.format_action(None, a) for a in actions]


def arrived(state: State, seat: int) -> int:
    return state.monks[seat].count(SUMMIT)


def play(state, *texts):
    """The actions `texts`, in the notation, applied one after another."""
    for text in texts:
        state = GAME.apply(state, GAME.parse_action(state, text))
    return state


def refused(state, text):
    """The reason the rules give for refusing `text` (it must be refused)."""
    import pytest

    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, GAME.parse_action(state, text))
    return str(caught.value)

