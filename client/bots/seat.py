"""A bot at a LAN table: the adapter between a node (node/loop.py) and any Bot.

It reads the game only through the session's public surface (spec/protocol.md, "The
session's public surface"): `session.legal_actions()`, `session.decision_kind()`,
`session.position().state` (the local seat's view), `session.moves`, and the events
GameStarted, YourTurn, Accepted, Ended (a resignation), TakenOver and GameOver. A decision runs in a worker thread, so the
node keeps its heartbeats and acks going while a search thinks; its answer is handed to
the node from the node's own loop (`node.call_later`), and dropped if the game moved on
meanwhile. A bot that fails is guarded as in self-play (client/bots/guard.py).
"""
from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable

from peerboard.client.bots.guard import GuardedSeat
from peerboard.client.bots.sdk import Bot, Decision, notation_of
from peerboard.protocol.session import Accepted, Ended, GameOver, GameStarted, LocalError, Offered, TakenOver, YourTurn

POLL = 0.02  # seconds between looks at a decision in progress


class BotSeat:
    """Plays the node's local seat with `bot`. `report` gets every fault line."""

    def __init__(self, node: Any, bot: Bot, label: str, seed: str, on_error: str = "random",
                 time_limit: float | None = None, report: Callable[[str], None] = print,
                 remake: Callable[[], Bot] | None = None):
        self.node, self.bot, self.label, self.seed = node, bot, label, seed
        #: a fresh bot for each game after the first (a rematch: the last one was closed)
        self.remake = remake
        self.on_error, self.time_limit, self.report = on_error, time_limit, report
        self.guard: GuardedSeat | None = None
        self.told = 0  # moves passed to on_action so far
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot")
        self.thinking: tuple[int, Future] | None = None

    @property
    def session(self) -> Any:
        return self.node.session

    def on_event(self, event: Any) -> None:
        """Give the node this as (part of) its `on_event` callback."""
        match event:
            case GameStarted():
                s = self.session
                if self.guard is not None:  # a rematch: another game here (the last bot closed at its end)
                    self.bot = self.remake() if self.remake is not None else self.bot
                    self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot")
                    self.told, self.thinking = 0, None
                self.guard = GuardedSeat(self.bot, s.local_seat, self.label, self.seed, self.on_error, self.report)
                self.guard.start(s.game_name, s.players, s.options)
            case Accepted():
                self._tell_moves()
            case YourTurn():
                self._decide()
            case Offered(seat=seat, how=how):
                self._answer_offer(seat, how)
            case Ended(ending=ending):
                self._tell_moves()
                if self.guard is not None:
                    self.guard.hook("on_ending", ending.how, tuple(ending.seats), ending.seq)
            case TakenOver(seat=seat, seq=seq, strategy=strategy):
                self._tell_moves()
                if self.guard is not None:
                    self.guard.hook("on_takeover", seat, seq, strategy)
            case GameOver(winners=winners, scores=scores):
                self._tell_moves()
                if self.guard is not None:
                    self.guard.hook("on_end", tuple(winners), tuple(scores))
                self.close()

    def _answer_offer(self, seat: int, how: str) -> None:
        """The bot's `on_offer` says whether to accept; a bot that fails there declines."""
        accept = False
        if self.guard is not None and self.guard.fault is None:
            try:
                accept = bool(self.bot.on_offer(how, seat))
            except Exception as exc:
                self.report(f"the bot failed in on_offer ({type(exc).__name__}: {exc}); declining")
        try:
            if accept:
                self.node.offer(how)
            else:
                self.node.decline(how)
        except LocalError:
            pass  # (the offer lapsed meanwhile)

    def _tell_moves(self) -> None:
        if self.guard is None:
            return
        moves = self.session.moves
        for record in moves[self.told:]:
            self.guard.hook("on_action", record.seat, tuple(record.actions), tuple(record.texts))
        self.told = len(moves)

    def _decide(self) -> None:
        s = self.session
        kind, legal, position = s.decision_kind(), tuple(s.legal_actions()), s.position()
        if self.guard is None or kind is None or not legal or position is None:
            return
        if self.thinking is not None and self.thinking[0] == position.seq:
            return  # already thinking about this position
        game = s.game
        decision = Decision(s.game_name, game, s.local_seat, position.state, legal,
                            notation_of(game, position.state, legal), kind, self.time_limit)
        self.thinking = (position.seq, self.worker.submit(self.guard.decide, decision))
        self.node.call_later(POLL, self._answer)

    def _answer(self) -> None:
        if self.thinking is None:
            return
        seq, future = self.thinking
        if not future.done():
            self.node.call_later(POLL, self._answer)
            return
        self.thinking = None
        s = self.session
        position = s.position()
        if position is None or position.seq != seq or not s.legal_actions():
            return  # stale: the game moved on (or ended) while the bot thought
        try:
            self.node.submit([future.result()])
        except LocalError:
            pass  # the session refused it as out of turn: the next YourTurn asks again

    def close(self) -> None:
        self.worker.shutdown(wait=False, cancel_futures=True)
        if self.guard is not None:
            self.guard.close()
