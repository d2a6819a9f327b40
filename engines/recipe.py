"""`Recipe`: the `Game` of an engine written by the recipe (spec/engine-contract.md, "How an
engine is written"), whose contract methods are each one line into the modules beside it.

A game's `game.py` names those modules' pieces once, as class attributes, instead of writing
a method per pass-through:

    class Pig(Recipe[State]):                   # over its own frozen State
        name, title, ... = ...
        book = rules.BOOK                        # legal_actions, apply
        seats_aside = {ROLL: CHANCE, OVER: TERMINAL}   # current: these phases, else state.actor
        write = staticmethod(notation.format_action)   # format_action(state, action)
        read = staticmethod(notation.parse_action)     # parse_action(state, text)
        record = staticmethod(record)                  # public_record
        draw = staticmethod(render.render_styled)      # render_styled(state, seat)
        rules_in_brief = summary.RULES_IN_BRIEF  # rules_text

It is a convenience, not part of the contract: a game may still subclass `Game` and write
every method, and a `Recipe` game overrides any method whose work is more than a call.
"""
from __future__ import annotations

from typing import ClassVar, Generic, Mapping, Protocol, TypeVar

from peerboard.engines.canonical import Record
from peerboard.engines.contract import CHANCE, Action, Game, IllegalAction
from peerboard.engines.rulebook import Rulebook
from peerboard.engines.styled import Fragment


class Turned(Protocol):
    """What the recipe reads of a game's state itself: its phase (the key of the rule
    table) and the seat to act in it (the word is the same in every engine)."""

    @property
    def phase(self) -> str: ...

    @property
    def actor(self) -> int: ...


S = TypeVar("S", bound=Turned)


class Recipe(Game, Generic[S]):
    """A `Game` whose contract methods go to the modules the recipe names (above), over
    the game's state `S` (`class Pig(Recipe[State])`)."""

    #: the rules as one table (engines/rulebook.py): `legal_actions` and `apply`
    book: Rulebook[S]
    #: phase -> CHANCE or TERMINAL for the phases in which no seat acts; in every other
    #: phase the seat to act is `state.actor` (the word is the same in every engine)
    seats_aside: ClassVar[Mapping[str, int]] = {}
    #: `format_action(action)`: the action's one text form (notation.py)
    write: staticmethod[[Action], str]
    #: `parse_action(text)`: the action a text names, by its form (notation.py)
    read: staticmethod[[str], Action]
    #: `record(state)`, the public record (state.py)
    record: staticmethod[[S], Record]
    #: `render_styled(state, seat)` (render.py)
    draw: staticmethod[[S, int | None], list[Fragment]]
    #: the rules in brief (summary.py), or "" for none
    rules_in_brief: ClassVar[str] = ""
    #: whether `parse_action` asks the rules too, so that a well-formed but illegal text
    #: is refused with the rules' reason (Aton, Asterix); otherwise it reads the form only
    parse_asks_the_rules: ClassVar[bool] = False

    def current(self, state: S) -> int:
        aside = self.seats_aside.get(state.phase)  # (one lookup: the ledger asks this often)
        return state.actor if aside is None else aside

    def legal_actions(self, state: S) -> list[Action]:
        return self.book.legal_actions(state)

    def chance_weights(self, state: S) -> list[tuple[Action, int]]:
        """Every outcome of the chance node's lister, equally likely (Pig's die); a game with
        other odds overrides this."""
        if self.current(state) != CHANCE:
            raise IllegalAction("This is not a chance node.")
        return [(action, 1) for action in self.book.legal_actions(state)]

    def apply(self, state: S, action: Action) -> S:
        return self.book.apply(state, action)

    def format_action(self, state: S, action: Action) -> str:
        return self.write(action)

    def parse_action(self, state: S, text: str) -> Action:
        action = self.read(text)
        if self.parse_asks_the_rules:
            self.apply(state, action)  # raises IllegalAction with the rules' reason
        return action

    def public_record(self, state: S) -> Record:
        return self.record(state)

    def render_styled(self, state: S, seat: int | None = None) -> list[Fragment]:
        return self.draw(state, seat)

    def rules_text(self) -> str:
        return self.rules_in_brief
