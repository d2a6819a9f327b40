"""The seats this node runs taken over (spec/protocol.md, "Takeover"): the takeover entry its
seat writes after the claim it wrote, and, from then on, what each seat it runs owes — an
entry its author writes by itself, or a decision its bot makes (`TakeoverTurn`, answered by
`submit`). Each seat's key, chain and seed are derived from this node's master secret
(protocol/log/takeover.py; protocol/session/authors.py keeps them).
"""
from __future__ import annotations

from typing import Any, Protocol

from peerboard.protocol.log import NONCE_BYTES, LedgerError, takeover_body, takeover_secrets
from peerboard.protocol.session.author import Write
from peerboard.protocol.session.effects import Effects
from peerboard.protocol.session.events import TakeoverTurn, YourTurn
from peerboard.protocol.session.surface import LocalError, Phase
from peerboard.protocol.session.table import Table


class Writes(Protocol):
    """How an entry of a seat this node writes for is signed, stored and sent (`Play._write`)."""

    def __call__(self, kind: str, body: dict[str, Any], offered: bool = False, seat: int | None = None) -> Effects: ...


class Takeovers:
    """The taking over, and the turns, of the seats this node runs at `table`."""

    def __init__(self, table: Table, write: Writes):
        self.table = table
        self.write = write

    def due(self) -> Effects | None:
        """The takeover entry the local seat writes now — it wrote the claim a takeover
        follows — else None."""
        t = self.table
        pending, author = t.ledger.pending, t.author
        if pending is None or pending[1] != t.seat or author is None:
            return None
        identity, secrets = takeover_secrets(author.secrets.master, t.genesis.hash, pending[0])
        return self.write("takeover", takeover_body(pending[0], identity, secrets))

    def turn(self) -> Effects:
        """What a seat this node runs owes now: an entry it writes by itself, or a decision
        its bot makes (`TakeoverTurn`)."""
        t = self.table
        try:
            seat = t.ledger.entitled()[0]
        except LedgerError:
            return []
        if seat not in t.authors.taken:
            return []
        step = t.authors.taken[seat][1].next(t.ledger)
        if isinstance(step, Write):
            return self.write(step.kind, step.body, seat=seat)
        if isinstance(step, YourTurn):
            strategy = t.genesis.terms.takeover
            assert strategy is not None  # (a seat is taken over only by the genesis's strategy)
            return [TakeoverTurn(seat, step.kind, step.legal, strategy)]
        return []

    def submit(self, seat: int, actions: tuple[Any, ...]) -> Effects:
        """The bot's decision for seat `seat`, which this node runs."""
        t = self.table
        ledger = t.ledger
        if seat not in t.authors.taken or t.referee.phase() is not Phase.PLAYING:
            raise LocalError(f"This node does not play seat {seat}.")
        author = t.authors.taken[seat][1]
        entitled, kind = ledger.entitled()
        if entitled != seat or kind not in ("move", "commit"):
            raise LocalError(f"It is not seat {seat}'s decision now.")
        if kind == "commit":
            if len(actions) != 1 or actions[0] not in author.options(ledger, kind):
                raise LocalError("That is not one of the seat's choices here.")
            nonce = t.random(NONCE_BYTES)
            return self.write("commit", author.commit(actions, nonce), seat=seat)
        try:
            return self.write("move", {"actions": list(actions), "nonce": None}, author.offered(ledger, actions), seat=seat)
        except LedgerError as exc:
            raise LocalError(exc.why) from None
