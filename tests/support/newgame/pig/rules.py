"""Pig's rules as one table (engines/rulebook.py)."""
from __future__ import annotations

from peerboard.engines.pig import notation
from peerboard.engines.pig.state import CHOOSE, OVER, ROLL, State
from peerboard.engines.rulebook import Rule, Rulebook, always
from peerboard.engines.values import evolve

FACES = tuple(range(1, 7))


def _next_seat(state: State) -> State:
    return evolve(state, turn=(state.turn + 1) % len(state.banked), total=0, phase=ROLL)


def _die(state: State, face: int) -> State:
    if face == 1:
        return _next_seat(state)  # the turn's total is lost
    return evolve(state, total=state.total + face, phase=CHOOSE)


def _hold(state: State) -> State:
    banked = list(state.banked)
    banked[state.turn] += state.total
    state = evolve(state, banked=tuple(banked))
    if banked[state.turn] >= state.goal:
        return evolve(state, total=0, phase=OVER)
    return _next_seat(state)


def _elsewhere(state: State, kind: str) -> str:
    if state.phase == OVER:
        return "The game is over; no action is taken any more."
    if state.phase == ROLL:
        return f"The die is to be rolled now; {kind} is not the die's outcome."
    return f"Seat {state.turn} rolls again or holds now; a die's outcome comes only after a roll."


BOOK = Rulebook(
    phase=lambda state: state.phase,
    lists={ROLL: lambda state: [("die", face) for face in FACES],
           CHOOSE: lambda state: [("roll",), ("hold",)]},
    rules={(ROLL, "die"): Rule(always, _die),
           (CHOOSE, "roll"): Rule(always, lambda state: evolve(state, phase=ROLL)),
           (CHOOSE, "hold"): Rule(always, _hold)},
    decode=notation.decode,
    elsewhere=_elsewhere,
)
