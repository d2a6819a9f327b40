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
    #: taken for the action after it (a phase ended so that action could be taken): undone with it
    joined: bool = False


@dataclass(frozen=True)
class Ending:
    """What ending the turn as it is means: the plan with the turn ended, or None when the
    rules do not let it end there, with the rule's reason when one refused it."""

    plan: "Plan | None"
    missing: str = ""


#: the most phase ends a turn may take in one go (Athos: end move, no Athos piece, end turn)
PHASE_ENDS = 6


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
    def deciding(self) -> bool:
        """The preview still waits on the local seat: the engine offers it actions."""
        if not self.steps:
            return bool(self.offered)
        if self.decision == "commit":
            return False
        state, game = self.preview, self.game
        current = game.current(state)
        return current == self.seat and current != CHANCE and not game.secret_choice(state)

    @property
    def open(self) -> bool:
        """More actions can be added: the engine offers some now, or a placement planned out
        of the engine's order still fits among those planned."""
        return self.deciding or bool(self.reorderable())

    @property
    def complete(self) -> bool:
        """The turn is planned to its end: nothing more can be added; it only waits to be sent."""
        return bool(self.steps) and not self.open

    @property
    def turn_over(self) -> bool:
        """The planned actions end the turn (the engine waits on someone else after them)."""
        return bool(self.steps) and not self.deciding

    @property
    def only_forced(self) -> bool:
        return all(s.forced for s in self.steps)

    def legal_now(self) -> tuple:
        """The actions the engine offers next (in its order)."""
        if not self.deciding:
            return ()
        if not self.steps:
            return self.offered
        return _legal(self.game, self.preview)

    def choices(self) -> tuple:
        """What a person may add now: the engine's next actions, then the placements that
        join the plan in the engine's order (each checked when it is added)."""
        now = self.legal_now()
        return now + tuple(a for a in self.reorderable() if a not in now)

    def text_of(self, action: tuple) -> str:
        return self.game.format_action(self.preview, action)

    def reorderable(self) -> tuple:
        """The actions the seat could take earlier in this plan and not now, that the
        engine's `plan_order` puts before some planned action (Athos: a tile on an earlier
        hex): a person adds them in any order and the plan is sorted."""
        cached = self.__dict__.get("_reorderable")
        if cached is None:
            planned = {p[1:] for p in self.actions}  # (a tile on a hex already planned: no)
            cached = tuple(a for a, _ in self._earlier() if a[1:] not in planned and self._moved_by_order(a))
            object.__setattr__(self, "_reorderable", cached)
        return cached

    # -- changing it -------------------------------------------------------------------------

    def add(self, action: tuple, forced: bool = False) -> "Plan":
        """The plan with `action` taken; IllegalAction with the rules' reason when it may not be.

        The person's set of actions is searched against the order the engine offers: an
        action the rules take only in another order (Athos: a turn's tiles go down in board
        order) joins the plan where `plan_order` puts it, when the whole plan holds in that
        order; an action of a later part of the turn (a tile during the move phase) is
        reached by ending the parts before it (`phase_end`), said in the plan's steps."""
        action = tuple(action)
        if action in self.legal_now():
            return self._with(action, forced)
        if self._moved_by_order(action):
            return self._reordered(action)
        passed = self._passing_to(action)
        if passed is not None:
            return passed
        raise IllegalAction(self.refusal(action))

    def refusal(self, action: tuple) -> str:
        """Why `action` may not be added: the engine's own reason when it has one."""
        if not self.deciding:
            return ("Your turn is planned to its end: Enter sends it, F2 takes back."
                    if self.steps else "There is nothing for you to decide now.")
        # the reason given where actions of its kind are played (a tile: the placement phase)
        state = self.preview
        for plan in (self, *self.later_parts()):
            if any(a[:1] == action[:1] for a in plan.legal_now()):
                state = plan.preview
                break
        try:
            self.game.apply(state, action)
        except IllegalAction as exc:
            return str(exc)
        except Exception:  # the view lacks what the engine looks at: not a choice of ours
            pass
        return f"{self._text(action)} is not one of your choices now."

    def _with(self, action: tuple, forced: bool, joined: bool = False) -> "Plan":
        step = Step(action, self.text_of(action), forced, joined)
        if self.decision == "commit":
            state = self.preview  # a secret choice: nothing to show until it is revealed
        else:
            state = self.game.apply(self.preview, action)
        return Plan(self.game, self.seat, self.decision, self.base, self.offered,
                    self.steps + (step,), self.states + (state,))

    def _moved_by_order(self, action: tuple) -> bool:
        """`plan_order` puts `action` before something already planned."""
        if not self.steps or self.decision == "commit":
            return False
        wanted = [*self.actions, action]
        try:
            ordered = [tuple(a) for a in self.game.plan_order(self.base, list(wanted))]
        except Exception:
            return False
        return ordered != wanted and sorted(map(repr, ordered)) == sorted(map(repr, wanted))

    def _reordered(self, action: tuple) -> "Plan":
        """The plan with `action` added and everything in the engine's order; IllegalAction
        with the rules' reason where that order does not hold."""
        wanted = [*self.actions, action]
        ordered = [tuple(a) for a in self.game.plan_order(self.base, list(wanted))]
        kept = {s.action: s for s in self.steps}
        plan = Plan(self.game, self.seat, self.decision, self.base, self.offered)
        for a in ordered:
            if a not in plan.legal_now():
                if plan.deciding:
                    raise IllegalAction(plan.refusal(a))
                order = "; ".join(self.game.format_action(self.base, x) for x in ordered)
                raise IllegalAction(f"{self._text(action)} does not fit with what is planned: taken in the "
                                    f"order the rules take them ({order}), the turn is over before "
                                    f"{self._text(a)}. F2 takes back.")
            old = kept.get(a)
            plan = plan._with(a, old.forced if old else False, old.joined if old else False)
        return plan

    def _passing_to(self, action: tuple) -> "Plan | None":
        """The plan with the parts of the turn before `action` ended, then `action`; None
        when no phase end leads to it."""
        for plan in self.later_parts():
            if action in plan.legal_now():
                return plan._with(action, False)
        return None

    def later_parts(self) -> tuple["Plan", ...]:
        """The plan with the part of the turn it is in ended, then the next part too, and
        so on while the engine has a phase end and the turn goes on (each step `joined`)."""
        cached = self.__dict__.get("_later")
        if cached is None:
            parts: list[Plan] = []
            plan = self
            for _ in range(PHASE_ENDS):
                end = plan._phase_end()
                if end is None:
                    break
                plan = plan._with(end, False, joined=True).with_forced()
                if not plan.deciding:
                    break
                parts.append(plan)
            cached = tuple(parts)
            object.__setattr__(self, "_later", cached)
        return cached

    def _phase_end(self) -> tuple | None:
        """The engine's phase end when it is legal now."""
        if self.decision == "commit" or not self.deciding:
            return None
        end = self.game.phase_end(self.preview)
        return tuple(end) if end is not None and tuple(end) in self.legal_now() else None

    def ending(self) -> Ending:
        cached = self.__dict__.get("_ending")
        if cached is None:
            cached = self._ending()
            object.__setattr__(self, "_ending", cached)
        return cached

    def _ending(self) -> Ending:
        """The turn ended as it is: the planned actions, then the phase ends the rules allow,
        until another seat is to act; or None (and the reason of the rule that refused, if
        one did) where the rules do not let it end."""
        plan = self
        for _ in range(PHASE_ENDS + 1):
            if not plan.deciding:
                return Ending(plan)
            end = plan.game.phase_end(plan.preview) if plan.decision != "commit" else None
            if end is None:
                break
            try:
                plan = plan.add(tuple(end)).with_forced()
            except IllegalAction as exc:
                return Ending(None, str(exc))
        return Ending(None)  # (the screen says what the turn still needs: its situation)

    def _earlier(self) -> list[tuple[tuple, str]]:
        """(action, its text) of the actions that were choices earlier in this plan and are
        not now."""
        now = set(self.legal_now())
        out: list[tuple[tuple, str]] = []
        for i, state in enumerate(self.states[:-1]):
            legal = self.offered if i == 0 else _legal(self.game, state)
            for action in legal:
                if action not in now:
                    now.add(action)
                    out.append((action, self.game.format_action(state, action)))
        return out

    def earlier_choices(self) -> list[tuple[tuple, str]]:
        """(action, its text) of the placements that join the plan in the engine's order."""
        wanted = set(self.reorderable())
        return [(a, t) for a, t in self._earlier() if a in wanted]

    def with_forced(self) -> "Plan":
        """The plan with every action taken that is the only one left."""
        plan = self
        while plan.deciding:
            legal = plan.legal_now()
            if len(legal) != 1:
                break
            plan = plan._with(legal[0], forced=True)
        return plan

    def undo(self) -> "Plan":
        """The plan without its last chosen action (the forced ones that followed it and the
        phase ends taken for it); the same plan when only forced actions (or nothing) are
        planned."""
        steps = list(self.steps)
        while steps and steps[-1].forced:
            steps.pop()
        if not steps:
            return self
        steps.pop()
        while steps and steps[-1].joined:
            steps.pop()
        return Plan(self.game, self.seat, self.decision, self.base, self.offered,
                    tuple(steps), self.states[: len(steps) + 1])

    def parse(self, text: str) -> tuple:
        """The action a typed text names (a choice now or one `add` may reach); IllegalAction
        with the reason when the text names none."""
        wanted = _normal(text)
        for action in self.legal_now():
            if _normal(self.text_of(action)) == wanted:
                return action
        for action, written in self.earlier_choices():  # planned out of the engine's order
            if _normal(written) == wanted:
                return action
        shorthand = self._by_last_word(wanted)
        if shorthand is not None:
            return shorthand
        try:
            return tuple(self.game.parse_action(self.preview, text))
        except IllegalAction:
            raise  # the engine's own reason, as it is
        except Exception:  # the view lacks what the engine looked at: not a choice of ours
            raise IllegalAction(f"{text.strip()!r} is not one of your choices now.") from None

    def _by_last_word(self, wanted: str) -> tuple | None:
        """A text naming only where (`c5`: the one choice that ends in `c5`, as a click on
        that hex), among the choices now, else those of a later part of the turn; None when
        none does; IllegalAction naming them when several do."""
        if not wanted or " " in wanted:
            return None
        for plan in (self, *self.later_parts()):
            choices = plan.choices() if plan is self else plan.legal_now()
            named = [a for a in choices if _normal(plan.text_of(a)).endswith(" " + wanted)]
            if len(named) == 1:
                return named[0]
            if named:
                texts = ", ".join(plan.text_of(a) for a in named[:6])
                raise IllegalAction(f"{wanted!r} could be {texts}: type the whole move (Tab lists them).")
        return None

    def _text(self, action: tuple) -> str:
        try:
            return repr(self.game.format_action(self.preview, action))
        except Exception:
            return repr(action)


def _legal(game: Game, state: Any) -> tuple:
    return tuple(tuple(a) for a in game.legal_actions(state))


def _normal(text: str) -> str:
    return " ".join(text.lower().split())
