"""A bot that accepts every draw or abort offered to it (the SDK's `on_offer` hook), for
tests/client/test_tui_live.py: `peerboard bot --strategy tests.accepting_bot:AcceptingBot`."""
from peerboard.client.bots.sdk import Bot, Decision


class AcceptingBot(Bot):
    name = "accepting"

    def decide(self, decision: Decision):
        return decision.legal[0]

    def on_offer(self, how: str, seat: int) -> bool:
        return True
