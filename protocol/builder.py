"""Writing a game log in one process: every entry signed by the seat entitled to it and
checked by the chain before it is kept (selfplay, tests, test vectors)."""
from __future__ import annotations

from typing import Any, Sequence

from protocol.chain import GameChain
from protocol.identity import Identity
from protocol.records import Entry, SignedGenesis, make_entry


class LogBuilder:
    def __init__(self, genesis: SignedGenesis, identities: Sequence[Identity]):
        self.chain = GameChain.start(genesis)
        self.identities = list(identities)
        self.entries: list[Entry] = []

    @property
    def state(self) -> Any:
        return self.chain.state

    def add(self, kind: str, body: dict) -> Entry:
        """Sign and append the next entry; ChainError if the chain refuses it."""
        seat, expected = self.chain.entitled()
        if kind != expected:
            raise ValueError(f"the next entry is a {expected} entry, not {kind}")
        entry = make_entry(self.identities[seat], self.chain.next_seq, self.chain.head, seat, kind, body)
        self.chain = self.chain.check(entry)
        self.entries.append(entry)
        return entry

    def move(self, *actions: tuple) -> Entry:
        return self.add("move", {"actions": list(actions)})

    def chance(self, entropy: bytes) -> Entry:
        """The chance outcome `entropy` picks, recorded with its entropy."""
        outcome = self.chain.game.sample_chance(self.chain.state, entropy)
        return self.add("chance", {"outcome": outcome, "entropy": entropy})

    def sign_results(self) -> None:
        """After the end: every seat signs the result, in seat order."""
        while not self.chain.finished:
            self.add("result", self.chain.result_body())
