"""Claims at three or more seats (spec/protocol.md, "Patience and claims"): the statements of
a claim being gathered, and the one rule that keeps the table from splitting while they are.

A claim of seat g at entry N after P needs the statement of every other seat still playing;
the writer (the lowest of them) collects them and writes the claim. Two entries compete for
N: the claim, and g's own entry if g is not dead but was cut off. So:

- a seat that signed the claim for (N, P) never takes g's entry at N: it **holds** it aside
  (not stored, not acked) — until it hears an ack of that entry at N from another of the
  claim's signers (neither g nor itself). That seat took g's entry, and an honest seat that took an entry at
  N never signs a claim for N: the claim can never be whole, the signature is dead (it is
  bound to N and P), and the entry is taken;
- a seat that took an entry at N never signs for N, and answers a statement for N with its
  ack of the entry it took there, so every signer learns it.

Either every other seat signed before any of them took g's entry (the claim is written; g's
entry is never acked, never confirmed, set aside by g when it hears the claim), or one of
them took it first and every signer learns it from that seat's ack.

The local seat's own statement is kept on disk before it leaves (`StoreClaim`): a seat that
restarted having forgotten it signed could take g's entry while the writer writes the claim.
`Gathering` is that rule; `Claims` the local seat's claims: which seat it may sign for
where, its statement, the claim it writes once it is whole, and the seats its player is told
may be claimed. The session (protocol/session/play.py) sends and stores.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from peerboard.protocol.log import DEFAULT_PATIENCE, GATHERED, Entry, LedgerError, claim_statement, verify
from peerboard.protocol.session.author import WAITING
from peerboard.protocol.session.effects import Effects, NextStep, Send, StoreClaim
from peerboard.protocol.session.events import Claimable
from peerboard.protocol.session.messages import Ack, Claim, MessageError
from peerboard.protocol.session.surface import LocalError
from peerboard.protocol.session.table import Table


@dataclass(frozen=True)
class Signed:
    """A claim statement of the local seat: seat `gone` claimed at entry `seq` after `prev`."""

    gone: int
    seq: int
    prev: bytes


@dataclass
class Gathering:
    """The statements of the claims at the next entry, heard or made at this node."""

    #: the local seat's own statement, while it may still stand (None: none)
    mine: Signed | None = None
    #: (seq, prev) the statements in `sigs` are for
    at: tuple[int, bytes] = (0, b"")
    #: gone seat -> signer -> its signature, for `at`
    sigs: dict[int, dict[int, bytes]] = field(default_factory=dict)
    #: an entry at `mine.seq` held aside while the local statement stands, with its sender
    held: tuple[Entry, bytes] | None = None
    #: entry hash at `mine.seq` -> the seats (neither the gone seat nor the local one) that acked it
    refuted: dict[bytes, set[int]] = field(default_factory=dict)

    def here(self, seq: int, prev: bytes) -> None:
        """The next entry is `seq` after `prev`: statements for any other entry have lapsed;
        the local one stands until the log has passed its entry (after a power cut the log
        may be behind it for a while: it stands again when the log is back there)."""
        if self.at != (seq, prev):
            self.at, self.sigs = (seq, prev), {}
        mine = self.mine
        if mine is not None and (seq > mine.seq or (seq == mine.seq and prev != mine.prev)):
            self.mine, self.held, self.refuted = None, None, {}

    def standing(self, seq: int, prev: bytes) -> Signed | None:
        """The local statement, if it is for exactly the next entry."""
        mine = self.mine
        return mine if mine is not None and (mine.seq, mine.prev) == (seq, prev) else None

    def sign(self, mine: Signed, seat: int, sig: bytes) -> None:
        self.mine, self.held, self.refuted = mine, None, {}
        self.add(mine.gone, seat, sig)

    def add(self, gone: int, seat: int, sig: bytes) -> bool:
        """A statement for `at`; False if it was heard already."""
        sigs = self.sigs.setdefault(gone, {})
        if seat in sigs:
            return False
        sigs[seat] = sig
        return True

    def holds(self, entry: Entry) -> bool:
        """Whether `entry` must be held aside: the local statement stands at its seq, it is
        not the claim, and no third seat has acked it yet."""
        mine = self.mine
        if mine is None or entry.seq != mine.seq or entry.prev != mine.prev or entry.kind == "claim":
            return False
        return not self.refuted.get(entry.hash)

    def acked(self, seat: int, seq: int, entry_hash: bytes, local: int,
              signers: tuple[int, ...]) -> tuple[Entry, bytes] | None:
        """Seat `seat` acked `entry_hash` at `seq`. If that refutes the local statement (a
        third seat, one of the claim's `signers`, took an entry at its seq), it is dead: the
        entry held, if it is that one, is handed back to be taken. (The ack of a seat that is
        no signer — gone for good, watching — says nothing about whether the claim is whole.)"""
        mine = self.mine
        if mine is None or seq != mine.seq or seat in (mine.gone, local) or seat not in signers:
            return None
        self.refuted.setdefault(entry_hash, set()).add(seat)
        held = self.held
        if held is not None and held[0].hash == entry_hash:
            self.mine, self.held = None, None
            return held
        return None

    def complete(self, gone: int, signers: tuple[int, ...]) -> list[bytes] | None:
        """The signatures of a claim of `gone`, in seat order, once every signer's is here."""
        sigs = self.sigs.get(gone, {})
        if any(s not in sigs for s in signers):
            return None
        return [sigs[s] for s in signers]


class Claims:
    """The claims of this node's seat at `table`: the statements being gathered
    (`gathering`), and the seats its player was told may be claimed (`Claimable`) — at three
    or more seats, once per entry, as a claim there is of one entry. `write` writes an entry
    of the local seat (at two seats it writes its claim at once)."""

    def __init__(self, table: Table, write: Callable[[str, dict[str, Any]], Effects]):
        self.table = table
        self.write = write
        #: seconds a seat may be away before the others may claim it (the genesis's, or the default)
        self.patience: int = table.genesis.terms.patience or DEFAULT_PATIENCE
        self.gathering = Gathering()
        self.told: set[int] = set()  # seats told `Claimable` since they were last heard
        self.told_at = 0  # (at three or more seats) the entry they were told at

    # -- the local seat's claims ---------------------------------------------------------------------

    def claim(self, gone: int, away: float | None) -> Effects:
        """The local seat claims seat `gone`, away for `away` seconds (None: not away): at
        two seats it is the only other seat, so it signs the claim and writes it at once; at
        more it signs its statement, and the claim's writer writes it once every statement is in."""
        t = self.table
        ledger, seat, author = t.ledger, t.seat, t.author
        if author is None or seat is None:
            raise LocalError("Only a seat still playing can claim another seat.")
        if not 0 <= gone < t.players or gone == seat:
            raise LocalError(f"Claim the other seat: seat {1 - seat}." if t.players == 2 else
                             f"Claim another seat: one of 0 to {t.players - 1}, not your own ({seat}).")
        if not ledger.may_claim(gone):
            raise LocalError(f"Seat {gone} cannot be claimed now: the game's result is being signed, or it is gone already.")
        if away is None:
            raise LocalError(f"Seat {gone} is not away: only a seat away longer than the table's patience "
                             f"({self.patience} s) can be claimed.")
        if away < self.patience:
            raise LocalError(f"Seat {gone} has been away for {int(away)} s; it can be claimed once it has been away "
                             f"for the table's patience, {self.patience} s (in {int(self.patience - away) + 1} s).")
        if author.unheard:
            raise LocalError(WAITING)
        if t.players > 2 and len(ledger.writers) > 2:
            return self._sign(gone)
        sig = t.identity.sign(claim_statement(t.genesis.hash, gone, ledger.next_seq, ledger.head))
        return self.write("claim", {"gone": gone, "sigs": [sig]})

    def _sign(self, gone: int) -> Effects:
        """Sign the claim of `gone` at the next entry, keep that on disk, send it to every
        other seat; the writer writes the claim once every statement is in."""
        t = self.table
        ledger, seat = t.ledger, t.seat
        assert seat is not None  # (`claim`)
        if not self.may_sign(gone):
            raise LocalError(f"Seat {gone} can be claimed only when the game waits for it (it is not its turn now).")
        if self.gathering.standing(ledger.next_seq, ledger.head) is not None:
            raise LocalError(f"You have claimed seat {gone} already; the other seats are asked.")
        mine = Signed(gone, ledger.next_seq, ledger.head)
        sig = t.identity.sign(claim_statement(ledger.genesis.hash, gone, mine.seq, mine.prev))
        self.gathering.sign(mine, seat, sig)
        message = Claim(seat, gone, mine.seq, mine.prev, sig)
        return [StoreClaim(gone, mine.seq, mine.prev)] + t.send_seats(message) + [NextStep()]

    def may_sign(self, gone: int) -> bool:
        """Whether the local seat may sign a claim of `gone` at the next entry: at two seats
        whenever it may be claimed; at more, only where the game waits for it (it is entitled
        to the next entry, or the next entry is gathered from every seat's part, which waits
        for its part), so the one entry the claim competes with is its own, or the entry its
        part would complete (written by another signer, whose ack refutes the claim)."""
        ledger = self.table.ledger
        if not ledger.may_claim(gone):
            return False
        if len(ledger.writers) <= 2:
            return True
        try:
            waits_for, kind = ledger.entitled()
        except LedgerError:
            return False
        self.gathering.here(ledger.next_seq, ledger.head)
        mine = self.gathering.standing(ledger.next_seq, ledger.head)
        # (a seat taken over is played by its runner's node: the game waits for the runner)
        runs = {seat: runner for seat, _, runner in ledger.taken}
        waits = kind in GATHERED or runs.get(waits_for, waits_for) == gone
        return waits and (mine is None or mine.gone == gone)

    def signed_before(self, mine: Signed) -> None:
        """The local seat signed `mine` before it restarted: it stands again (Ed25519
        signatures are deterministic: the same bytes)."""
        t = self.table
        ledger = t.ledger
        if mine.seq < ledger.next_seq or t.seat is None:
            return  # the log has passed it: it lapsed
        self.gathering.here(ledger.next_seq, ledger.head)
        sig = t.identity.sign(claim_statement(ledger.genesis.hash, mine.gone, mine.seq, mine.prev))
        self.gathering.sign(mine, t.seat, sig)
        self.gathering.here(ledger.next_seq, ledger.head)

    def again(self) -> Effects:
        """The local statement, said again every beat while it stands at the next entry."""
        t = self.table
        ledger = t.ledger
        self.gathering.here(ledger.next_seq, ledger.head)
        mine = self.gathering.standing(ledger.next_seq, ledger.head)
        if mine is None or t.seat is None:
            return []
        return t.send_seats(Claim(t.seat, mine.gone, mine.seq, mine.prev, self.gathering.sigs[mine.gone][t.seat]))

    def to_write(self) -> dict[str, Any] | None:
        """The body of the claim the local seat writes now: it is the claim's writer, and
        every other seat still playing signed it for the next entry."""
        ledger = self.table.ledger
        self.gathering.here(ledger.next_seq, ledger.head)
        mine = self.gathering.standing(ledger.next_seq, ledger.head)
        if mine is None or not ledger.may_claim(mine.gone) or ledger.claim_writer(mine.gone) != self.table.seat:
            return None
        sigs = self.gathering.complete(mine.gone, ledger.claim_signers(mine.gone))
        return None if sigs is None else {"gone": mine.gone, "sigs": sigs}

    def claimable(self, missing: Iterable[int], away_for: Callable[[int], float | None]) -> list[Claimable]:
        """The seats among those `missing` (away or left) that the player may claim now, not
        told yet: away for the table's patience, and claimable by the local seat here."""
        ledger = self.table.ledger
        if len(ledger.writers) > 2 and self.told_at != ledger.next_seq:
            # at three or more seats a claim is of one entry: told again at the next one
            self.told.clear()
            self.told_at = ledger.next_seq
        told = []
        for seat in sorted(missing):
            if seat in self.told or not self.may_sign(seat):
                continue
            away = away_for(seat)
            if away is not None and away >= self.patience:
                self.told.add(seat)
                told.append(Claimable(seat, self.patience))
        return told

    # -- the other seats' statements, and the entry a statement holds aside ---------------------------

    def on_claim(self, sender: bytes, m: Claim, now: float) -> Effects:
        """A seat's statement claiming seat `gone` at entry `seq` after `prev`: kept for the
        writer if it is for the next entry; answered with our ack if we took an entry there."""
        t = self.table
        keys = t.seat_keys
        if not m.seat < len(keys) or keys[m.seat] != sender or m.gone == m.seat or not m.gone < len(keys):
            raise MessageError(f"claim: the sender does not hold seat {m.seat}, or claims itself")
        if not verify(sender, claim_statement(t.genesis.hash, m.gone, m.seq, m.prev), m.sig):
            raise MessageError(f"claim: not signed by seat {m.seat}")
        ledger = t.ledger
        if t.author is None or t.seat is None:
            return []  # (a spectator, or a seat gone for good: it signs nothing, its acks refute nothing)
        if m.seq < ledger.next_seq:
            taken = t.entries[m.seq - 1]
            if taken.prev == m.prev and taken.kind != "claim" and m.seq <= len(t.acks.hashes):
                # we took another entry there: our ack tells the signer its claim is dead
                return [Send(sender, Ack(t.seat, m.seq, taken.hash, t.acks.hashes[m.seq - 1][1]).to_bytes())]
            return []
        self.gathering.here(ledger.next_seq, ledger.head)
        if (m.seq, m.prev) != (ledger.next_seq, ledger.head) or not ledger.may_claim(m.gone):
            return []  # for a head this node has not reached: it is said again
        return [NextStep()] if self.gathering.add(m.gone, m.seat, m.sig) else []

    def hold(self, sender: bytes, entry: Entry) -> Effects:
        """An entry at the seq of our claim statement: held aside, not stored, not acked,
        until a third seat's ack shows the claim can never be whole (if the entry checks out)."""
        t = self.table
        try:
            t.ledger.check(entry)
        except LedgerError as exc:
            return t.referee.reject(sender, f"entry seq {exc.seq}: {exc.why}")
        self.gathering.held = (entry, sender)
        return []

    def released(self, m: Ack) -> tuple[Entry, bytes] | None:
        """An ack that shows our statement can never be whole (a third seat took the entry at
        its seq): the entry held aside, with its sender, to be taken now; else None."""
        t = self.table
        mine = self.gathering.mine
        if mine is None or t.seat is None:
            return None
        return self.gathering.acked(m.seat, m.seq, m.entry, t.seat, t.ledger.claim_signers(mine.gone))
