"""A bot of the SDK (client/bots) at a node: `peerboard bot --strategy NAME` or `--exec CMD`.
"""
from __future__ import annotations


from peerboard.client.player import Player
from peerboard.client.text import printable
from peerboard.node.loop import Node
from peerboard.protocol.session import Claimable, Event, Offered


class StrategyPlayer(Player):
    """A bot of the SDK (client/bots) plays the seat: `peerboard bot --strategy NAME` or
    `--exec CMD`. It prints the game like any seat; the bot sees only the seat's view. A
    fault of the bot is one line here and in `faults` (a file the host that started this
    bot shows), and its seat plays on as its `--on-error` says."""

    def __init__(self, node: Node, bot, label: str, seed: str, on_error: str, time_limit: float | None,
                 faults: str | None = None, remake=None, **kw):
        from peerboard.client.bots.seat import BotSeat

        super().__init__(node, **kw)
        self.faults = faults
        self.player = BotSeat(node, bot, label, seed, on_error, time_limit, report=self.fault, remake=remake)
        self.say(f"the bot {printable(label)} plays this seat")

    def fault(self, line: str) -> None:
        self.say(line)
        if self.faults:
            try:
                with open(self.faults, "a") as f:
                    f.write(line.replace("\n", " ") + "\n")
            except OSError as exc:
                self.say(f"cannot note the fault in {self.faults}: {exc.strerror}")

    def on_event(self, event: Event) -> None:
        super().on_event(event)
        self.player.on_event(event)

    def on_claimable(self, e: Claimable) -> None:
        # a bot claims a seat as soon as the table's patience has run out
        self.tell(e)
        self.claim(e.seat)

    def on_offered(self, e: Offered) -> None:
        # a bot declines, unless its `on_offer` hook accepts (client/bots/seat.py asks it)
        self.tell(e)
