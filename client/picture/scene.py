"""What one picture shows: a position as one seat may see it, who sits where, and the
actions that led to it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from peerboard.engines import CHANCE, TERMINAL

Action = tuple


def actions_of(last: Action | Sequence[Action] | None) -> tuple[Action, ...]:
    """`last` as a tuple of actions: one action (a tuple starting with its kind), a list
    of them (a whole turn), or None."""
    if not last:
        return ()
    if isinstance(last, tuple) and not isinstance(last[0], (tuple, list)):
        return (last,)
    return tuple(tuple(a) for a in last)


@dataclass(frozen=True)
class Scene:
    game: Any
    #: the position as `seat` may see it (already the engine's view)
    state: Any
    #: the seat whose view this is, None for everything the state holds
    seat: int | None
    #: the actions that led here (highlighted where the drawing can point at them)
    last: tuple[Action, ...] = ()
    #: the seats' names, where known
    names: tuple[str, ...] = ()
    #: the state the last actions were taken in (their words), where known
    before: Any = None

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) and self.names[seat] else f"seat {seat}"

    @property
    def current(self) -> int:
        return self.game.current(self.state)

    @property
    def over(self) -> bool:
        return self.current == TERMINAL

    @property
    def chance(self) -> bool:
        return self.current == CHANCE

    def last_words(self) -> str:
        """The last actions in the game's notation (empty when unknown)."""
        if not self.last or self.before is None:
            return ""
        words, state = [], self.before
        for action in self.last:
            try:
                words.append(self.game.format_action(state, action))
                state = self.game.apply(state, action)
            except Exception:  # a view may not hold what the action needs: say what is known
                break
        return "; ".join(words)
