"""What the local seat owes and what it must decide (spec/protocol.md, "Entries").

A seat's node writes some entries by itself — its reveals (and a new hash chain's tip when
one is spent), an outcome from its own pile, the reveal of a secret choice it committed, its
audit, its result — and asks its player for the others: a move, or a secret choice to commit. `Author` says which, for the ledger as it
stands, and keeps what that takes: the choice committed and not yet revealed, the prompt
last given (and the legal moves offered with it), and, after a restart, the seats whose head
it has not heard yet (it writes nothing until it has).
"""
from __future__ import annotations

from dataclasses import dataclass

from peerboard.engines import Action
from peerboard.protocol.log import Entry, Ledger, SeatSecrets, WireMap, choice_digest, node_entropy
from peerboard.protocol.session.events import YourTurn
from peerboard.protocol.session.surface import LocalError


#: why a seat that came back writes nothing yet (spec/log-format.md, "One process per log")
WAITING = ("This seat came back and waits to hear from the other seats where the game stands; it writes nothing "
           "before (the game may have gone on, or ended, without you).")


@dataclass(frozen=True)
class Write:
    """An entry the seat owes by itself: its kind and body."""

    kind: str
    body: WireMap


class Author:
    """The local seat's side of writing the log."""

    def __init__(self, seat: int, secrets: SeatSecrets):
        self.seat = seat
        self.secrets = secrets
        self.choice: tuple[tuple[Action, ...], bytes] | None = None  # (actions, nonce) committed, not yet revealed
        #: a secret choice the player made before the seat may commit to it (`choice_ahead`)
        self.held: Action | None = None
        #: resumed: the seats whose head this node has not heard yet
        self.unheard: set[bytes] = set()
        self._prompted: tuple[int, str] | None = None  # (seq, kind) of the last prompt
        self._offered: tuple[int, frozenset[Action]] = (0, frozenset())  # (seq, the legal moves prompted there)
        self._options: tuple[tuple[int, str] | None, tuple[Action, ...]] = (None, ())  # ((seq, kind), its options)
        #: the other seats' values for the reveal round this seat gathers, and the seq of
        #: the `reveals` entry they are for (spec/protocol.md, "Reveals that travel together")
        self.gathered: dict[int, bytes] = {}
        self.gathered_at = 0

    def decision(self, ledger: Ledger) -> str:
        """"move" or "commit": what the player must decide now; LocalError saying why not."""
        if self.unheard:
            raise LocalError(WAITING)
        if ledger.ending is not None:
            raise LocalError(f"The game has ended: seat {ledger.ending[1][0]} {ledger.ending[0]}.")
        seat, kind = ledger.entitled()
        if seat != self.seat or kind not in ("move", "commit"):
            raise LocalError(f"It is not your turn: seat {seat} must write a {kind} entry.")
        if kind == "move" and self.revealing(ledger):
            raise LocalError("Your committed choice is revealed automatically.")
        return kind

    def options(self, ledger: Ledger, kind: str) -> tuple[Action, ...]:
        """The seat's options for its `kind` of decision at the head (worked out once)."""
        at = (ledger.next_seq, kind)
        if self._options[0] != at:
            game, state = ledger.game, ledger.state
            legal = game.choices_for(state, self.seat) if kind == "commit" else game.legal_actions(state)
            self._options = (at, tuple(legal))
        return self._options[1]

    def choice_ahead(self, ledger: Ledger) -> tuple[Action, ...]:
        """A secret choice this seat is in but may not commit to yet — a seat ahead of it in
        the group commits first — and its options then (the engine's `choices_for`: the
        others' choices cannot change them); () when there is none."""
        if self.unheard or self.choice is not None:
            return ()
        game, state = ledger.game, ledger.state
        if self.seat not in game.secret_choice(state) or self.seat in {s for s, _ in ledger.commits}:
            return ()
        if ledger.entitled() == (self.seat, "commit"):
            return ()  # (its decision now: `decision`)
        return tuple(game.choices_for(state, self.seat))

    def held_due(self, ledger: Ledger) -> Action | None:
        """The secret choice the player made ahead, now that its commit is due, if it is
        still one of the seat's options (else the player is asked after all); None when
        there is none or it is not due yet."""
        if self.held is None or self.unheard or ledger.entitled() != (self.seat, "commit"):
            return None
        held, self.held = self.held, None
        return held if held in self.options(ledger, "commit") else None

    def revealing(self, ledger: Ledger) -> bool:
        """Whether the move due is the reveal of the choice this seat committed."""
        return self.choice is not None and bool(ledger.game.secret_choice(ledger.state))

    def next(self, ledger: Ledger) -> Write | YourTurn | None:
        """What the seat does now: write an entry it owes, ask its player (once per
        decision), or nothing (it is not the seat's turn, or it has not heard every seat)."""
        if self.unheard:
            return None
        seat, kind = ledger.entitled()
        if seat != self.seat:
            return None
        secrets = self.secrets
        if kind == "reveal":
            return Write(kind, {"value": secrets.reveal(ledger.chain_used[seat] + 1)})
        if kind == "reveals":  # the round this seat gathers: written once every seat's value is in
            values = dict(self.gathered) if self.gathered_at == ledger.next_seq else {}
            values[seat] = self.round_value(ledger)
            if len(values) < ledger.seats:
                return None
            return Write(kind, {"values": [values[i] for i in range(ledger.seats)]})
        if kind in ("audits", "results"):  # gathered: every part, its own too, comes in by `gather`
            values = self.gathered if self.gathered_at == ledger.next_seq else {}
            if any(i not in values for i in ledger.writers):
                return None
            parts = [values[i] for i in ledger.writers]
            return Write(kind, {"seeds": parts} if kind == "audits" else {**ledger.result_body(), "sigs": parts})
        if kind == "chain":  # its hash chain is spent: commit to the next one
            return Write(kind, {"tip": secrets.next_tip(ledger.chain_used[seat])})
        if kind == "chance":
            assert ledger.run is not None  # (a `chance` entry is due only in a run)
            entropy, index = ledger.run
            return Write(kind, {"outcome": ledger.game.sample_chance(ledger.state, node_entropy(entropy, index, secrets.seed))})
        if kind == "audit":
            return Write(kind, {"seed": secrets.seed})
        if kind == "result":
            return Write(kind, ledger.result_body())
        if kind == "move" and self.revealing(ledger):
            assert self.choice is not None  # (`revealing`: this seat's choice is committed)
            actions, nonce = self.choice
            return Write(kind, {"actions": list(actions), "nonce": nonce})
        if self._prompted == (ledger.next_seq, kind):
            return None
        self._prompted = (ledger.next_seq, kind)
        legal = self.options(ledger, kind)
        if kind == "move":
            self._offered = (ledger.next_seq, frozenset(legal))
        return YourTurn(seat, kind, legal)

    def round_value(self, ledger: Ledger) -> bytes:
        """This seat's hash-chain value for the reveal round due at the head."""
        return self.secrets.reveal(ledger.chain_used[self.seat] + 1)

    def gather(self, seq: int, seat: int, value: bytes) -> bool:
        """Seat `seat`'s value (checked) for the `reveals` entry `seq` this seat writes;
        whether it is news."""
        if self.gathered_at != seq:
            self.gathered, self.gathered_at = {}, seq
        if seat in self.gathered:
            return False
        self.gathered[seat] = value
        return True

    def offered(self, ledger: Ledger, actions: tuple[Action, ...]) -> bool:
        """Whether `actions` is a single move from the legal list the prompt offered: it
        applies by the engine contract, so it may leave before it is re-run."""
        return len(actions) == 1 and self._offered[0] == ledger.next_seq and actions[0] in self._offered[1]

    def commit(self, actions: tuple[Action, ...], nonce: bytes) -> WireMap:
        """The body of the commit entry for this secret choice (kept until it is revealed)."""
        self.choice = (actions, nonce)
        return {"digest": choice_digest(actions, nonce)}

    def taken(self, entry: Entry) -> None:
        """A move entry is in the ledger: the seat's own reveal of its choice frees it."""
        if entry.seat == self.seat and entry.body["nonce"] is not None:
            self.choice = None

    def ask_again(self) -> None:
        """The seat's own move was taken back: prompt for the decision again."""
        self._prompted = None
