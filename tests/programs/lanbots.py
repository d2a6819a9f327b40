"""Bots a test seats at a real LAN table by import path (`--strategy tests.lanbots:Name`),
as a third party's bot would be: one that plays the first legal action, and one that fails."""
from __future__ import annotations

from peerboard.client.bots import Bot, Decision


class FirstLegal(Bot):
    name = "first-legal"

    def decide(self, decision: Decision):
        return decision.legal[0]


class Crasher(Bot):
    """Plays two decisions, then raises: the table must go on without it."""

    name = "crasher"

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.decided = 0

    def decide(self, decision: Decision):
        self.decided += 1
        if self.decided > 2:
            raise RuntimeError("the crasher crashed on purpose")
        return decision.legal[0]
