"""Plan, then commit: the local seat's decision built up on a preview before it is sent.

Within a turn each action the player takes applies to a local preview (the engine's
`apply` on the seat's view); `undo` takes the last one back; `send` hands the whole list
to the source as one entry. A plan is an immutable value: every change is a new Plan, so
taking back is free and the screen can never show a half-applied action.

A secret choice (Aton's cartouches, decision "commit") is a single action: the plan holds
it and the preview stays as it was (the choice stays hidden until every seat committed).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from peerboard.engines import CHANCE, Game, IllegalAction


@dataclass(frozen=True)
class Step:
    action: tuple
    text: str           # in the notation, formatted at the state before the action
    forced: bool        # the only legal action: taken by itself, never undone alone


@dataclass(frozen=True)
class Plan:
    game: Game
    seat: int
    #: "move" or "commit"
    decision: str
    #: the seat's view when the decision began, and the legal actions the source offered there
    base: Any
    offered: tuple
    steps: tuple[Step, ...] = ()
    #: the state after each step (states[-1] is the preview; states[0] the base)
    states: tuple = field(default=())

    def __post_init__(self) -> None:
        if not self.states:
            object.__setattr__(self, "states", (self.base,))

    # -- what the plan shows -----------------------------------------------------------------

    @property
    def preview(self) -> Any:
        return self.states[-1]

    @property
    def actions(self) -> tuple[tuple, ...]:
        return tuple(s.action for s in self.steps)

    @property
    def open(self) -> bool:
        """More actions can be added: the decision is still the local seat's."""
        if not self.steps:
            return bool(self.offered)
        if self.decision == "commit":
            return False
        state, game = self.preview, self.game
        current = game.current(state)
        return current == self.seat and current != CHANCE and not game.secret_choice(state)

    @property
    def complete(self) -> bool:
        """The turn is planned to its end: nothing more can be added; it only waits to be sent."""
        return bool(self.steps) and not self.open

    @property
    def only_forced(self) -> bool:
        return all(s.forced for s in self.steps)

    def legal_now(self) -> tuple:
        """The actions that may be added next."""
        if not self.open:
            return ()
        if not self.steps:
            return self.offered
        return tuple(self.game.legal_actions(self.preview))

    def text_of(self, action: tuple) -> str:
        return self.game.format_action(self.preview, action)

    # -- changing it -------------------------------------------------------------------------

    def add(self, action: tuple, forced: bool = False) -> "Plan":
        """The plan with `action` taken; IllegalAction (the reason) when it may not be.

        An action the rules take only in another order (Athos: a turn's tiles go down in
        board order) joins the plan where the engine's `plan_order` puts it, when the whole
        plan still holds in that order: a person plans in any order, the plan goes out in
        the engine's."""
        if action not in self.legal_now():
            reordered = self._reordered(action)
            if reordered is None:
                raise IllegalAction(f"{self._text(action)} is not one of your choices now.")
            return reordered
        return self._with(action, forced)

    def _with(self, action: tuple, forced: bool) -> "Plan":
        step = Step(action, self.text_of(action), forced)
        if self.decision == "commit":
            state = self.preview  # a secret choice: nothing to show until it is revealed
        else:
            state = self.game.apply(self.preview, action)
        return Plan(self.game, self.seat, self.decision, self.base, self.offered,
                    self.steps + (step,), self.states + (state,))

    def _reordered(self, action: tuple) -> "Plan | None":
        """The plan with `action` added and everything in the engine's order, or None when
        that order changes nothing or does not hold."""
        if not self.steps or self.decision == "commit":
            return None
        wanted = [*self.actions, action]
        try:
            ordered = [tuple(a) for a in self.game.plan_order(self.base, list(wanted))]
        except Exception:
            return None
        if ordered == wanted or sorted(map(repr, ordered)) != sorted(map(repr, wanted)):
            return None
        forced = {s.action: s.forced for s in self.steps}
        plan = Plan(self.game, self.seat, self.decision, self.base, self.offered)
        for a in ordered:
            if a not in plan.legal_now():
                return None
            plan = plan._with(a, forced.get(a, False))
        return plan

    def earlier_choices(self) -> list[tuple[tuple, str]]:
        """(action, its text) of the actions that were choices earlier in this plan and are
        not now: candidates for `add` in another order (each checked when it is added)."""
        now = set(self.legal_now())
        out: list[tuple[tuple, str]] = []
        for i, state in enumerate(self.states[:-1]):
            legal = self.offered if i == 0 else self.game.legal_actions(state)
            for action in legal:
                if action not in now:
                    now.add(action)
                    out.append((action, self.game.format_action(state, action)))
        return out

    def with_forced(self) -> "Plan":
        """The plan with every action taken that is the only one left."""
        plan = self
        while plan.open:
            legal = plan.legal_now()
            if len(legal) != 1:
                break
            plan = plan.add(legal[0], forced=True)
        return plan

    def undo(self) -> "Plan":
        """The plan without its last chosen action (and the forced ones that followed it);
        the same plan when only forced actions (or nothing) are planned."""
        steps = list(self.steps)
        while steps and steps[-1].forced:
            steps.pop()
        if not steps:
            return self
        steps.pop()
        return Plan(self.game, self.seat, self.decision, self.base, self.offered,
                    tuple(steps), self.states[: len(steps) + 1])

    def parse(self, text: str) -> tuple:
        """The legal action a typed text names; IllegalAction with the reason otherwise."""
        legal = self.legal_now()
        wanted = _normal(text)
        for action in legal:
            if _normal(self.text_of(action)) == wanted:
                return action
        for action, written in self.earlier_choices():  # planned out of the engine's order
            if _normal(written) == wanted and self._reordered(action) is not None:
                return action
        if not legal:
            raise IllegalAction("Your turn is planned to its end: Enter sends it, F2 takes back."
                                if self.steps else "There is nothing for you to decide now.")
        try:
            action = tuple(self.game.parse_action(self.preview, text))
        except IllegalAction:
            raise  # the engine's own reason, as it is
        except Exception:  # the view lacks what the engine looked at: not a choice of ours
            raise IllegalAction(f"{text.strip()!r} is not one of your choices now.") from None
        if action not in legal:
            raise IllegalAction(f"{text.strip()!r} is not one of your choices now.")
        return action

    def _text(self, action: tuple) -> str:
        try:
            return repr(self.game.format_action(self.preview, action))
        except Exception:
            return repr(action)


def _normal(text: str) -> str:
    return " ".join(text.lower().split())
