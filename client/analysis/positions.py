"""The decisions a log records, one per action a seat took, each as its seat faced it.

A seat's decision is taken at the state before its action, except at a simultaneous
secret choice (Aton's cartouches): the seat chose when it committed, before anyone revealed,
so its decision is the state at its commit entry (the reveal only makes it public). The
state is the full one (the audit's seeds, when the log holds them), but a `Position` gives
out only `view`: `game.view(state, seat)`, what the seat itself could see.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from peerboard.engines import Action, Game
from peerboard.protocol.log import Ledger, LedgerError, LogContents, audited_seeds


@dataclass(frozen=True)
class Position:
    """One action of one move entry: `index` is its place among the entry's actions."""

    seq: int
    index: int
    seat: int
    #: "move", or "commit" for a simultaneous secret choice
    kind: str
    #: what the seat could know: game.view(state, seat)
    view: Any
    legal: tuple[Action, ...]
    played: Action

    @property
    def forced(self) -> bool:
        return len(self.legal) <= 1


class Unjudgeable(ValueError):
    """A log whose seats' own knowledge cannot be rebuilt (a sentence says why)."""


def positions(contents: LogContents) -> tuple[Game, list[Position]]:
    """Every action the seats took in a log that verified, as its seat faced it."""
    seeds = audited_seeds(contents)
    ledger = Ledger.start(contents.genesis, seeds)
    game = ledger.game
    hidden = type(game).determinize is not Game.determinize
    if hidden and not seeds:
        raise Unjudgeable("the log holds no complete audit, so a seat's own hidden cards are unknown "
                          "and its moves cannot be judged from what it knew")
    out: list[Position] = []
    committed: dict[int, Any] = {}  # seat -> the state when it committed its secret choice
    for entry in contents.entries:
        state = ledger.state
        if entry.kind == "commit":
            committed[entry.seat] = state
        elif entry.kind == "move":
            seat = entry.seat
            actions = [tuple(a) for a in entry.body["actions"]]
            if seat in game.secret_choice(state):
                faced = committed.pop(seat, state)
                legal = tuple(game.choices_for(faced, seat))
                out.append(Position(entry.seq, 0, seat, "commit", game.view(faced, seat), legal, actions[0]))
            else:
                for i, action in enumerate(actions):
                    legal = tuple(game.legal_actions(state))
                    out.append(Position(entry.seq, i, seat, "move", game.view(state, seat), legal, action))
                    state = game.apply(state, action)
        try:
            ledger = ledger.check(entry, signatures=False)
        except LedgerError:
            break  # (only a log that verified is analysed; this is where an unverified one stops)
    return game, out
