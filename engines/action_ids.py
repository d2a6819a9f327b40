"""`ActionIds`: a game's fixed numbering of its actions (spec/engine-contract.md, "Action ids").

For one player count and option set, every action that can ever be legal in the game (chance
outcomes included) has one integer id in `[0, len(ids))`, chance outcomes first (`[0,
ids.chance)`), and keeps it across versions: the numbering is written in spec/games/NAME.md
and tests/engines/test_action_ids.py holds golden ids. The research frameworks (OpenSpiel,
PettingZoo) speak of actions by these numbers; the log and the wire never do.
"""
from __future__ import annotations

from typing import Iterable, Iterator

from peerboard.engines.contract import Action, IllegalAction


class ActionIds:
    """A numbering: `id(action)` and its inverse `action(number)`; `len()` the id space."""

    __slots__ = ("_actions", "_ids", "chance", "game")

    def __init__(self, game: str, chance: Iterable[Action], decisions: Iterable[Action]) -> None:
        #: the game's registry name (for the errors)
        self.game = game
        outcomes = tuple(chance)
        actions = (*outcomes, *decisions)
        #: ids `[0, chance)` are chance outcomes, the rest the seats' decisions
        self.chance = len(outcomes)
        self._actions: tuple[Action, ...] = actions
        self._ids = {action: number for number, action in enumerate(actions)}
        if len(self._ids) != len(actions):
            raise ValueError(f"{game}: an action is numbered twice")

    def __len__(self) -> int:
        return len(self._actions)

    def id(self, action: Action) -> int:
        """The action's id; IllegalAction for a value that is no numbered action."""
        try:
            number = self._ids.get(action)
        except TypeError:  # unhashable: no action at all
            number = None
        if number is None or not _same_shape(self._actions[number], action):
            raise IllegalAction(f"{action!r} is no {self.game} action with an id.")
        return number

    def action(self, number: int) -> Action:
        """The action numbered `number`; IllegalAction outside `[0, len)`."""
        if type(number) is not int or not 0 <= number < len(self._actions):
            raise IllegalAction(
                f"{number!r} is no {self.game} action id; the ids are 0 to {len(self._actions) - 1}."
            )
        return self._actions[number]

    def __iter__(self) -> Iterator[Action]:
        """Every numbered action, in id order."""
        return iter(self._actions)


def _same_shape(numbered: Action, given: Action) -> bool:
    """`given`, equal to `numbered`, has its types too: ("die", True) equals ("die", 1) but
    is no action (a field of str or int is the common case, and needs no pairing)."""
    if numbered is given:
        return True
    for field in given:
        kind = type(field)
        if kind is not str and kind is not int:
            return all(type(a) is type(b) for a, b in zip(numbered, given))
    return type(given) is tuple
