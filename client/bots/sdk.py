"""The bot SDK: a bot is a class with one method, `decide(decision) -> action`.

    from peerboard.client.bots import Bot, Decision

    class FirstBot(Bot):
        name = "first"

        def decide(self, decision: Decision):
            return decision.legal[0]

A `Decision` holds what the seat may know and nothing more: the seat's `view` of the game
(`game.view(state, seat)`: another seat's hidden cards are "unknown" in it), the legal
actions with their notation, the kind of decision and the time it has. The same bot class
plays in-process (`peerboard selfplay`, client/bots/table.py) and at a LAN table
(client/bots/seat.py); the optional hooks tell it the game's start, every move and the end.

A bot's randomness comes from `self.rng`, seeded from the `seed` it is made with, so a
tournament replays exactly (when budgets are counted in playouts, not seconds).
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from peerboard.engines import Action, Game


@dataclass(frozen=True)
class Budget:
    """How much thinking a search bot may do per decision: playouts, or seconds (a
    seconds budget is not reproducible: how far a search gets depends on the machine)."""

    playouts: int | None = None
    seconds: float | None = None

    @classmethod
    def parse(cls, text: str) -> "Budget":
        """"2000" -> 2000 playouts; "0.5s" -> half a second. ValueError with a reason."""
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(s|ms)?\s*", text or "")
        if not m:
            raise ValueError(f"a budget is a number of playouts (2000) or of seconds (0.5s), not {text!r}")
        number, unit = m.groups()
        if unit is None:
            if "." in number or int(number) < 1:
                raise ValueError(f"a budget in playouts is a whole number of at least 1, not {text!r}")
            return cls(playouts=int(number))
        seconds = float(number) / (1000 if unit == "ms" else 1)
        if seconds <= 0:
            raise ValueError(f"a budget in seconds must be more than 0, not {text!r}")
        return cls(seconds=seconds)

    def __str__(self) -> str:
        if self.seconds is not None:
            return f"{self.seconds:g}s"
        return f"{self.playouts} playouts"


@dataclass(frozen=True)
class Decision:
    """One decision of one seat. `legal[i]` is written `notation[i]` in the game's notation."""

    game_name: str
    #: the engine (engines.Game): apply, legal_actions, scores, format_action ... on `view`
    game: Game
    seat: int
    #: what this seat may know: `game.view(state, seat)`, never the whole state
    view: Any
    legal: tuple[Action, ...]
    notation: tuple[str, ...]
    #: "move", or "commit" for a simultaneous secret choice (Aton's cartouches): then
    #: `legal` is `game.choices_for(view, seat)` and `game.current(view)` may be another seat
    kind: str = "move"
    #: seconds this decision may take, None: no limit
    time: float | None = None


def notation_of(game: Game, view: Any, legal: Sequence[Action]) -> tuple[str, ...]:
    return tuple(game.format_action(view, a) for a in legal)


class Bot:
    """A player. Subclasses implement `decide`; the hooks are optional.

    `seed` seeds `self.rng` (every bot's only source of randomness); `budget` is what a
    search bot may spend per decision (others ignore it)."""

    #: the name a bot gives itself (tables, logs)
    name: str = "bot"

    def __init__(self, seed: int | str | bytes = 0, budget: Budget | None = None):
        self.seed = seed
        self.rng = random.Random(seed if not isinstance(seed, bytes) else seed.hex())
        self.budget = budget

    def decide(self, decision: Decision) -> Action:
        """One of `decision.legal`."""
        raise TypeError(f"{type(self).__name__} does not implement decide(decision)")

    def on_start(self, game: str, seat: int, players: int, options: Mapping[str, Any]) -> None:
        """The game begins: which game, this bot's seat, how many seats, the options."""

    def on_action(self, seat: int, actions: tuple[Action, ...], texts: tuple[str, ...]) -> None:
        """A seat's move was accepted (every seat's, this bot's own too), with its notation."""

    def on_offer(self, how: str, seat: int) -> bool:
        """Seat `seat` offers that the game ends `how` ("drawn" or "aborted"): True accepts,
        False (the default) declines. Called at a LAN table only."""
        return False

    def on_ending(self, how: str, seats: tuple[int, ...], seq: int) -> None:
        """The game ended otherwise than by its rules, at entry `seq`: `how` is "resigned"
        and `seats` the seat that resigned (spec/log-format.md, "Endings"). `on_end` follows
        once the result is signed."""

    def on_takeover(self, seat: int, seq: int, strategy: str) -> None:
        """Seat `seat` was away longer than the table's patience, was claimed, and is played
        from entry `seq` on by a bot of `strategy` that another seat's node runs (this bot's
        own seat, if it was the one claimed: it decides nothing more). That seat's moves
        come to `on_action` as any seat's; it can never win (spec/protocol.md, "Takeover")."""

    def on_end(self, winners: tuple[int, ...], scores: tuple[int, ...]) -> None:
        """The game is over."""

    def close(self) -> None:
        """Let go of what the bot holds (a child process); called once, after the game."""


class BotError(Exception):
    """A bot that cannot be made: an unknown name, a bad import path, a bad budget."""
