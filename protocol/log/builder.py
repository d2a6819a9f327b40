"""A whole table in one process: every seat's keys and secrets, every entry signed by the
seat entitled to it and checked by the ledger before it is kept (selfplay, tests, vectors).

A seat's decisions come from `choose(state, seat, options) -> action`; everything else —
reveals (and new hash chains' tips), commitments to secret choices and their reveals, announced
outcomes, the audit and the result — the builder writes itself, as each seat's node would.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from peerboard.engines import Action, Game
from peerboard.protocol.log.ledger import Ledger
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.log.schema import WireMap
from peerboard.protocol.log.records import Entry, Genesis, SeatRecord, SignedGenesis, make_entry, agree_statement, claim_statement, resign_statement, sign_genesis
from peerboard.protocol.log.secrets import SeatSecrets, choice_digest, node_entropy
from peerboard.protocol.log.takeover import takeover_body, takeover_secrets
from peerboard.protocol.log.writers import IN_PLACE

#: picks one of the actions (the last argument) for a seat (the second) in a state (the first)
Chooser = Callable[[Any, int, list[Action]], Action]


def new_genesis(game: Game, options: Mapping[str, Any], names: Sequence[str], identities: Sequence[Identity],
                secrets: Sequence[SeatSecrets], table: bytes, takeover: str | None = None,
                reveals: str | None = None, ends: str | None = None) -> Genesis:
    """`reveals`: REVEALS_TOGETHER for a log of `reveals` entries (what a table of this
    version writes), None for one `reveal` entry per seat (the older form); `ends`:
    ENDS_TOGETHER for an end of one `audits` and one `results` entry, None for one `audit`
    and one `result` entry per seat."""
    seats = tuple(
        SeatRecord(name, ident.public_key, sec.chain_tip, sec.commitments()["seed"])
        for name, ident, sec in zip(names, identities, secrets)
    )
    return Genesis(game=game.name, engine=game.version, options=dict(options), seats=seats, table=table,
                   takeover=takeover, reveals=reveals, ends=ends)


class LogBuilder:
    def __init__(self, genesis: SignedGenesis, identities: Sequence[Identity], secrets: Sequence[SeatSecrets],
                 nonce: Callable[[], bytes], knows_hidden: bool = True):
        # knows_hidden=False: the builder follows the public view only, as a verifier
        # would, so its seats may claim things their hidden cards do not allow (tests).
        known = {i: s.seed for i, s in enumerate(secrets)} if knows_hidden else {}
        self.ledger = Ledger.start(genesis, known)
        self.identities = list(identities)
        self.secrets = list(secrets)
        self.entries: list[Entry] = []
        self._nonce = nonce
        self._chosen: dict[int, tuple[tuple[Action, ...], bytes]] = {}

    @classmethod
    def table(cls, game: Game, options: Mapping[str, Any], names: Sequence[str], masters: Sequence[bytes],
              keys: Sequence[bytes], table: bytes, nonce: Callable[[], bytes],
              knows_hidden: bool = True, takeover: str | None = None, reveals: str | None = None,
              ends: str | None = None) -> "LogBuilder":
        identities = [Identity.from_seed(k) for k in keys]
        secrets = [SeatSecrets.from_master(m) for m in masters]
        genesis = new_genesis(game, options, names, identities, secrets, table, takeover, reveals, ends)
        return cls(sign_genesis(genesis, identities), identities, secrets, nonce, knows_hidden)

    @property
    def state(self) -> Any:
        return self.ledger.state

    @property
    def game(self) -> Game:
        return self.ledger.game

    def resign(self, seat: int) -> Entry:
        """Seat `seat` resigns: the seat entitled to the next entry carries its signed
        statement into the log (spec/protocol.md, "Endings")."""
        sig = self.identities[seat].sign(resign_statement(self.ledger.genesis.hash, seat))
        return self.add("resign", {"seat": seat, "sig": sig})

    def claim(self, gone: int) -> Entry:
        """Every other seat still playing claims seat `gone` (gone for good); the claim's
        writer, the lowest of them, writes it (spec/protocol.md, "Endings")."""
        ledger = self.ledger
        statement = claim_statement(ledger.genesis.hash, gone, ledger.next_seq, ledger.head)
        sigs = [self.identities[i].sign(statement) for i in ledger.claim_signers(gone)]
        entry = self.add("claim", {"gone": gone, "sigs": sigs}, seat=ledger.claim_writer(gone))
        if self.ledger.pending is not None:  # a takeover follows: the writer's node runs the seat
            runner = self.ledger.pending[1]
            identity, secrets = takeover_secrets(self.secrets[runner].master, self.ledger.genesis.hash, gone)
            self.add("takeover", takeover_body(gone, identity, secrets))
            self.identities[gone], self.secrets[gone] = identity, secrets
            self._chosen.pop(gone, None)
        return entry

    def protest(self, carried: Sequence[Entry] = ()) -> Entry:
        """The seat the last entry claimed (one seat alone signed that claim) protests it,
        carrying the entries of its own the claim displaced (spec/protocol.md, "What a claim
        proves")."""
        seat = self.ledger.disputable
        if seat is None:
            raise ValueError("a protest stands only right after a claim one seat alone signed")
        return self.add("protest", {"entries": [e.record() for e in carried]}, seat=seat)

    def agree(self, how: str) -> Entry:
        """Every seat still playing agrees that the game ends `how` ("drawn", "aborted") here;
        the seat entitled to this entry writes it."""
        ledger = self.ledger
        statement = agree_statement(ledger.genesis.hash, how, ledger.next_seq, ledger.head)
        return self.add("agree", {"how": how, "sigs": [self.identities[i].sign(statement) for i in ledger.writers]})

    def add(self, kind: str, body: WireMap, seat: int | None = None) -> Entry:
        """Sign and append the next entry (by `seat`, for a claim; else by the seat entitled to
        the entry due); ValueError if no entry of `kind` may stand there, LedgerError if the
        ledger refuses it."""
        entitled, expected = self.ledger.entitled()
        seat = entitled if seat is None else seat
        if kind != expected and kind not in IN_PLACE:
            raise ValueError(f"the next entry is a {expected} entry, not {kind}")
        entry = make_entry(self.identities[seat], self.ledger.next_seq, self.ledger.head, seat, kind, body)
        self.ledger = self.ledger.check(entry)
        self.entries.append(entry)
        return entry

    def step(self, choose: Chooser) -> Entry:
        """Write the next entry, whatever its kind."""
        ledger, game, state = self.ledger, self.game, self.state
        seat, kind = ledger.entitled()
        if kind == "reveal":
            return self.add(kind, {"value": self.secrets[seat].reveal(ledger.chain_used[seat] + 1)})
        if kind == "reveals":
            return self.add(kind, {"values": [s.reveal(ledger.chain_used[i] + 1) for i, s in enumerate(self.secrets)]})
        if kind == "chain":
            return self.add(kind, {"tip": self.secrets[seat].next_tip(ledger.chain_used[seat])})
        if kind == "commit":
            actions: tuple[Action, ...] = (choose(state, seat, game.choices_for(state, seat)),)
            nonce = self._nonce()
            self._chosen[seat] = (actions, nonce)
            return self.add(kind, {"digest": choice_digest(actions, nonce)})
        if kind == "move":
            if seat in self._chosen:
                actions, nonce = self._chosen.pop(seat)
                return self.add(kind, {"actions": list(actions), "nonce": nonce})
            return self.add(kind, {"actions": [choose(state, seat, game.legal_actions(state))], "nonce": None})
        if kind == "chance":
            assert ledger.run is not None  # (a `chance` entry is due only in a run)
            entropy, index = ledger.run
            outcome = game.sample_chance(state, node_entropy(entropy, index, self.secrets[seat].seed))
            return self.add(kind, {"outcome": outcome})
        if kind == "audit":
            return self.add(kind, {"seed": self.secrets[seat].seed})
        if kind == "audits":
            return self.add(kind, {"seeds": [self.secrets[i].seed for i in ledger.writers]})
        if kind == "results":
            statement = ledger.result_statement()
            return self.add(kind, {**ledger.result_body(), "sigs": [self.identities[i].sign(statement)
                                                                   for i in ledger.writers]})
        return self.add(kind, ledger.result_body())

    def play(self, choose: Chooser, max_entries: int = 1_000_000) -> None:
        """Write entries until the game is over, audited and its result signed by all."""
        for _ in range(max_entries):
            if self.ledger.finished:
                return
            self.step(choose)
        raise RuntimeError(f"the game did not finish within {max_entries} entries")
