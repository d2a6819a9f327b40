"""How every engine turns an action into a new state: one table, read in one screen.

A game's rules are a `Rulebook`: for each phase, the function that lists the legal actions
there; for each (phase, kind of action), a `Rule` saying why such an action is not allowed
(None when it is) and what it does. `apply` is the same four steps in every engine:

1. `decode` the action's shape (its kind and arguments, names turned into numbers), or
   refuse it with the reason it is malformed;
2. find the rule for (the state's phase, that kind), or refuse it as out of place;
3. ask the rule's `problem`; a sentence refuses the action;
4. return the rule's `effect`, then `settle`: every step that follows with no choice in it.

spec/engine-contract.md ("How an engine is written") is the recipe around this table.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterable, Mapping, TypeAlias, TypeVar

from peerboard.engines.contract import Action, IllegalAction

S = TypeVar("S")

#: a kind of action and its arguments as `decode` reads them (numbers, names): the rule of
#: that kind takes them after the state, so each rule's functions say their own types
Decoded: TypeAlias = tuple[str, tuple[Any, ...]]


@dataclass(frozen=True)
class Rule(Generic[S]):
    """One kind of action in one phase."""

    #: (state, *args) -> None when the action is allowed, else the sentence saying why not
    problem: Callable[..., str | None]
    #: (state, *args) -> the state after the action (called only when `problem` is None)
    effect: Callable[..., S]


def until_settled(step: Callable[[S], S]) -> Callable[[S], S]:
    """A `settle` made of one forced step, the one way the engines carry out what the
    rules leave no choice in: `step(state)` is the state after the next such step, or
    `state` itself (the same object) when a seat must decide, a chance event comes or the
    game is over; `settle` takes steps until then."""

    def settle(state: S) -> S:
        while True:
            after = step(state)
            if after is state:
                return state
            state = after

    return settle


def _unsettled(state: Any) -> Any:
    """The default `settle`: a game whose rules have no forced steps."""
    return state


def always(state: Any, *args: Any) -> None:
    """The `problem` of an action that is always allowed in its phase (an "end" or "skip")."""
    return None


@dataclass(frozen=True)
class Rulebook(Generic[S]):
    """The rules of one game as data: what each phase offers, what each action does."""

    #: state -> its phase (the key of `lists` and the first half of the key of `rules`)
    phase: Callable[[S], str]
    #: phase -> (state -> every legal action, in the order spec/games/NAME.md gives)
    lists: Mapping[str, Callable[[S], list[Action]]]
    #: (phase, kind) -> the rule for that kind of action in that phase
    rules: Mapping[tuple[str, str], Rule[S]]
    #: action -> (kind, arguments), IllegalAction when malformed
    decode: Callable[[Action], Decoded]
    #: (state, kind) -> why that kind of action is out of place here (a sentence)
    elsewhere: Callable[[S, str], str]
    #: state -> the state after every step the rules leave no choice in (none by default)
    settle: Callable[[S], S] = _unsettled
    #: the action values the engine itself hands out (its legal lists are built from these
    #: very objects), decoded once: `apply` skips step 1 for an action that *is* one of
    #: them. Identity, not equality: ("die", True) equals ("die", 1) and must still be
    #: refused by `decode`, so anything else (a text parsed, an action off the wire) is
    #: decoded in full.
    known: Iterable[Action] = ()

    def __post_init__(self) -> None:
        table = {action: (action, self.decode(action)) for action in self.known}
        object.__setattr__(self, "_decoded", table)
        object.__setattr__(self, "_settles", self.settle is not _unsettled)

    def legal_actions(self, state: S) -> list[Action]:
        lister = self.lists.get(self.phase(state))
        return lister(state) if lister is not None else []

    def apply(self, state: S, action: Action) -> S:
        try:
            hit = self._decoded.get(action)  # type: ignore[attr-defined]
        except TypeError:  # unhashable (a list inside): malformed, decode says how
            hit = None
        if hit is not None and hit[0] is action:
            kind, args = hit[1]
        else:
            kind, args = self.decode(action)
        rule = self.rules.get((self.phase(state), kind))
        if rule is None:
            raise IllegalAction(self.elsewhere(state, kind))
        problem = rule.problem(state, *args)
        if problem is not None:
            raise IllegalAction(problem)
        after = rule.effect(state, *args)
        return self.settle(after) if self._settles else after  # type: ignore[attr-defined]

    def kinds(self, phase: str) -> list[str]:
        """The kinds of action a phase takes, in the table's order (for error messages)."""
        return [kind for (p, kind) in self.rules if p == phase]
