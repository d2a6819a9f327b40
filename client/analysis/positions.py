"""The decisions a log records, one per action a seat took, each as its seat faced it.

Not every action is the seat's own choice: a forced one (the only legal action) is not,
and neither is a pass, an action that only ends a part of the turn (the engine's
`phase_end` at that position): a client puts those into a plan by itself when its player
moves on to a later part of the turn or sends it as it is (client/tui/plan.py), and the
log does not say who typed them. Both are walked, and neither is judged.

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
    #: the action only ended a part of the seat's turn (the engine's `phase_end` there:
    #: Athos's end move, skip athos, end turn): a step a client puts into a plan by itself
    #: when its player moves on or sends the turn, so no log tells who chose it
    passed: bool = False

    @property
    def forced(self) -> bool:
        return len(self.legal) <= 1

    @property
    def judged(self) -> bool:
        """Whether the analysis judges it: a choice of the seat's own (more than one legal
        action, and not a pass)."""
        return not self.forced and not self.passed


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
                    end = game.phase_end(state)
                    passed = end is not None and tuple(end) == action
                    out.append(Position(entry.seq, i, seat, "move", game.view(state, seat), legal, action, passed))
                    state = game.apply(state, action)
        try:
            ledger = ledger.check(entry, signatures=False)
        except LedgerError:
            break  # (only a log that verified is analysed; this is where an unverified one stops)
    return game, out
