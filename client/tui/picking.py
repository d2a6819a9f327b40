"""Choosing an action by pointing: the board cursor (arrow keys, Enter) and the mouse.

Each game's board names the *spots* an action touches, in the order a person points at
them: a monk then where it goes (`node:a2`, `node:b2`), a square to place on (`sq:7`),
the cards for cartouches 1 to 4 (`card:4` ...). An action with no spot on the board
becomes a *button* (`do:<its text>`) under the board. Pointing at spots narrows the
legal actions to those whose spots begin with what was pointed at; when one is left and
complete it is taken. The same `pick` serves a key and a click, so both give exactly
the action typing its notation gives.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

BUTTON = "do:"

#: spots(action) -> the spots a person points at for it, or None: a button
SpotsOf = Callable[[tuple], "tuple[str, ...] | None"]


@dataclass(frozen=True)
class Route:
    action: tuple
    text: str
    spots: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    """What one pick did: `picking` is the new selection; `action` when one was chosen;
    `note` a line for the status line when the pick did not choose (or could not)."""

    picking: "Picking"
    action: tuple | None = None
    note: str = ""
    #: the spot was nothing to any legal action now
    missed: bool = False


@dataclass(frozen=True)
class Picking:
    routes: tuple[Route, ...] = ()
    selection: tuple[str, ...] = ()

    @classmethod
    def of(cls, legal: Sequence[tuple], text_of: Callable[[tuple], str], spots_of: SpotsOf) -> "Picking":
        routes = []
        for action in legal:
            text = text_of(action)
            spots = spots_of(action)
            routes.append(Route(action, text, tuple(spots) if spots else (BUTTON + text,)))
        return cls(tuple(routes))

    # -- what can be pointed at ------------------------------------------------------------------

    def candidates(self) -> tuple[Route, ...]:
        n = len(self.selection)
        return tuple(r for r in self.routes if r.spots[:n] == self.selection)

    def next_spots(self) -> frozenset[str]:
        """The board spots that continue the selection (the targets to highlight)."""
        n = len(self.selection)
        return frozenset(r.spots[n] for r in self.candidates()
                         if len(r.spots) > n and not r.spots[n].startswith(BUTTON))

    def buttons(self) -> tuple[Route, ...]:
        """The actions shown as buttons now: those no spot names (with nothing selected),
        and those the selection names exactly while others share or extend it."""
        if not self.selection:
            return tuple(r for r in self.routes if r.spots[0].startswith(BUTTON))
        return tuple(r for r in self.candidates() if r.spots == self.selection)

    # -- pointing ----------------------------------------------------------------------------------

    def pick(self, spot: str) -> Outcome:
        if spot.startswith(BUTTON):
            for route in self.buttons():
                if route.spots == (spot,) or (route.spots == self.selection and BUTTON + route.text == spot):
                    return Outcome(Picking(self.routes), route.action)
            return Outcome(self, note="That button is not a choice now.")
        tried = self.selection + (spot,)
        matching = [r for r in self.routes if r.spots[: len(tried)] == tried]
        if not matching:
            if self.selection and spot == self.selection[-1]:
                return self._again()
            if any(r.spots[0] == spot for r in self.routes):  # a fresh start from this spot
                return Picking(self.routes).pick(spot)
            return Outcome(self, note="Nothing can be done there now.", missed=True)
        exact = [r for r in matching if r.spots == tried]
        picking = Picking(self.routes, tried)
        if len(matching) == 1 and exact:
            return Outcome(Picking(self.routes), exact[0].action)
        if exact:
            names = ", ".join(r.text for r in exact)
            more = "; or point further" if len(matching) > len(exact) else ""
            return Outcome(picking, note=f"Choose: {names} (the buttons below, or Enter again){more}.")
        return Outcome(picking)

    def _again(self) -> Outcome:
        """Pointing at the last spot again takes the one action that ends there."""
        exact = [r for r in self.candidates() if r.spots == self.selection]
        if len(exact) == 1:
            return Outcome(Picking(self.routes), exact[0].action)
        return Outcome(Picking(self.routes), note="Selection cleared.")

    def clear(self) -> "Picking":
        return Picking(self.routes)
