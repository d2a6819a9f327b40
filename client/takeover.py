"""The bot that plays a seat taken over at this node (spec/protocol.md, "Takeover").

The session asks with `TakeoverTurn` (the seat, its decision, the legal options, the
table's strategy); the node (node/loop.py) calls the player installed here, which asks a
bot of that strategy through the bot SDK's `decide`, reading only the session's public
surface. The strategy is one of the built-in bots (client/bots/registry.py `BUILT_IN`): the
name comes from the genesis, another node's words, so it is never an import path — nothing
another node writes makes this one import code. A strategy this client does not know, or a
bot that fails, is said once and answered with the first legal action (the node does that),
so the table never waits on it.
"""
from __future__ import annotations

from typing import Any, Callable

from peerboard.client.bots.sdk import Bot, BotError, Budget, Decision, notation_of
from peerboard.client.text import printable


#: seconds a search bot (mcts) may think per decision for a seat taken over: it decides in the
#: node's own loop, so it must stay far below the 5 s after which a silent seat is shown away
THINK = Budget(seconds=0.5)


class TakeoverPlayer:
    """Decides for every seat this node plays taken over, one bot per seat."""

    def __init__(self, say: Callable[[str], None] = print):
        self.say = say
        self.bots: dict[tuple[bytes, int], Bot | None] = {}  # (genesis hash, seat) -> its bot (None: cannot be made)

    def __call__(self, turn: Any, session: Any) -> list:
        bot = self._bot(turn, session)
        if bot is None:
            return []
        game = session.game
        view = game.view(session.position().state, turn.seat)
        decision = Decision(session.game_name, game, turn.seat, view, tuple(turn.legal),
                            notation_of(game, view, turn.legal), turn.kind)
        try:
            action = bot.decide(decision)
        except Exception as exc:  # a strategy's fault: said, and the first legal action instead
            self.say(f"the {printable(turn.strategy, 100)} bot playing seat {turn.seat} failed ({type(exc).__name__}: {exc}); "
                     f"it plays the first legal move")
            return []
        return [action] if action in turn.legal else []

    def _bot(self, turn: Any, session: Any) -> Bot | None:
        key = (session.genesis_hash, turn.seat)
        if key not in self.bots:
            from peerboard.client.bots.registry import BUILT_IN, make_bot  # (loaded only by a node that takes a seat over)
            try:
                if turn.strategy not in BUILT_IN:
                    raise BotError(f"not a bot this client knows: {', '.join(sorted(BUILT_IN))}")
                bot = make_bot(turn.strategy, seed=f"takeover-{session.genesis_hash.hex()}-{turn.seat}", budget=THINK)
                bot.on_start(session.game_name, turn.seat, session.players, session.options)
            except Exception as exc:  # (a bot's constructor or hook: its fault, said in one line)
                self.say(f"seat {turn.seat} is taken over here, but its bot {printable(turn.strategy, 100)!r} cannot "
                         f"play ({exc}); the first legal move is played for it")
                bot = None
            self.bots[key] = bot
        return self.bots[key]


def install(node: Any) -> None:
    """This node plays the seats it takes over with the table's strategy; what goes wrong
    with its bot is said to the person as a node notice."""
    from peerboard.node.loop import Notice
    node.takeover_player = TakeoverPlayer(lambda text: node.on_event(Notice(text)))
