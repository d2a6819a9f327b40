"""A seat's bot behind a guard: a bot that raises, answers an illegal action, or (an
`--exec` program) prints garbage, hangs past its time or dies, gets one clear line, and
its seat is played by the random player from then on. With `on_error="forfeit"` the seat
is also marked as forfeited: it still plays random moves to the end (the log stays a whole
game every peer can verify; the engines have no resign action), and the results count the
game as lost for it (client/bots/tournament.py). The other seats lose nothing either way.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from peerboard.client.bots.players import RandomBot
from peerboard.client.bots.sdk import Bot, Decision
from peerboard.engines import Action

ON_ERROR = ("random", "forfeit")


class BotFault(Exception):
    """What a bot did wrong, as one sentence (raised by bots that talk to programs)."""


def describe(exc: BaseException) -> str:
    if isinstance(exc, BotFault):
        return str(exc)
    return f"raised {type(exc).__name__}: {exc}"


class GuardedSeat:
    """Calls the bot; on its first fault says so through `report` and plays random."""

    def __init__(self, bot: Bot, seat: int, label: str, seed: str, on_error: str,
                 report: Callable[[str], None]):
        if on_error not in ON_ERROR:
            raise ValueError(f"on_error is one of {', '.join(ON_ERROR)}, not {on_error!r}")
        self.bot, self.seat, self.label, self.on_error = bot, seat, label, on_error
        self.report = report
        self.fallback = RandomBot(seed=f"{seed}:fallback")
        self.fault: str | None = None
        self.moves = 0  # decisions made (for the fault line)
        self.chosen = 0  # of them, the bot's own choices (not the stand-in's)

    @property
    def forfeited(self) -> bool:
        return self.fault is not None and self.on_error == "forfeit"

    @property
    def played_none(self) -> bool:
        """It failed before it chose a single move: none of the seat's moves were its own."""
        return self.fault is not None and self.chosen == 0

    def _fail(self, why: str, when: str) -> None:
        self.fault = why
        then = ("forfeits the game (it plays random moves to the end)" if self.on_error == "forfeit"
                else "is played by the random player from here")
        self.report(f"seat {self.seat} ({self.label}) {why} {when}; the seat {then}")
        try:
            self.bot.close()
        except Exception:  # a bot that cannot even close: nothing more to do with it
            pass

    def decide(self, decision: Decision) -> Action:
        if self.fault is None:
            try:
                action = self.bot.decide(decision)
            except Exception as exc:
                self._fail(describe(exc), f"at its decision {self.moves + 1}")
            else:
                action = _as_action(action)
                if action in decision.legal:
                    self.moves += 1
                    self.chosen += 1
                    return action
                self._fail(f"answered {action!r}, which is not one of the {len(decision.legal)} legal actions",
                           f"at its decision {self.moves + 1}")
        self.moves += 1
        return self.fallback.decide(decision)

    def hook(self, name: str, *args: Any) -> None:
        """on_start / on_action / on_end, unless the bot has failed already."""
        if self.fault is not None:
            return
        try:
            getattr(self.bot, name)(*args)
        except Exception as exc:
            self._fail(describe(exc), self._when(name))

    def _when(self, hook: str) -> str:
        """When a hook failed, in the bot author's words (not the SDK's method names)."""
        if hook == "on_start":
            return "at the start of the game"
        if hook == "on_end":
            return "at the end of the game"
        return f"after its decision {self.moves}" if self.moves else "before its first decision"

    def start(self, game: str, players: int, options: Mapping[str, Any]) -> None:
        self.hook("on_start", game, self.seat, players, dict(options))

    def close(self) -> None:
        if self.fault is None:
            try:
                self.bot.close()
            except Exception as exc:
                self.report(f"seat {self.seat} ({self.label}) failed to close: {describe(exc)}")


def _as_action(value: Any) -> Any:
    """A bot may answer a list where the action is a tuple (JSON, msgpack)."""
    if isinstance(value, list):
        return tuple(_as_action(v) for v in value)
    return value
