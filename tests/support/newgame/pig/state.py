"""The position: whose turn, what each seat banked, the turn's total, and the phase."""
from __future__ import annotations

from dataclasses import dataclass

#: a die to roll (a CHANCE node), the seat to choose (roll again or hold), the end
ROLL, CHOOSE, OVER = "roll", "choose", "over"


@dataclass(frozen=True)
class State:
    goal: int
    banked: tuple[int, ...]
    turn: int = 0
    total: int = 0
    phase: str = ROLL


def record(state: State) -> tuple:
    """The public record: everything (Pig has no hidden information)."""
    return ("pig", state.goal, state.banked, state.turn, state.total, state.phase)
