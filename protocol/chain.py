"""The game chain: a genesis and the entries after it, re-checked with the engine.

`GameChain.check(entry)` says whether an entry may come next — signature, chain position,
the seat entitled to write it, the legality of what it carries — and returns the chain
with it appended; it never changes the chain it was called on. Replay verification and
the consensus session both stand on it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engines
from engines import CHANCE, TERMINAL, Game, IllegalAction, OptionError
from protocol.identity import verify
from protocol.records import Entry, SignedGenesis


class ChainError(ValueError):
    """An entry (or a genesis) that may not stand in the chain; `seq` is where, `why` why."""

    def __init__(self, seq: int, why: str):
        super().__init__(f"seq {seq}: {why}")
        self.seq = seq
        self.why = why


def dealer(game: Game, state: Any) -> int:
    """Who writes a chance entry (protocol version 1): the owner of a private pile, else
    seat 0. The outcome is checked against its recorded entropy (spec/log-format.md)."""
    owner = game.chance_owner(state)
    return 0 if owner is None else owner


@dataclass(frozen=True)
class GameChain:
    genesis: SignedGenesis
    game: Game
    state: Any
    head: bytes  # hash of the last record (the genesis hash before any entry)
    next_seq: int = 1
    results: int = 0  # result entries so far (one per seat, in seat order, after the end)

    @classmethod
    def start(cls, genesis: SignedGenesis) -> "GameChain":
        """The chain holding only `genesis`; ChainError(0, why) if the genesis is bad."""
        g = genesis.genesis
        try:
            game = engines.get(g.game)
        except OptionError as exc:
            raise ChainError(0, str(exc)) from None
        if g.engine != game.version:
            raise ChainError(0, f"the log needs {g.game} engine version {g.engine}; this peerboard has {game.version}")
        try:
            state = game.new_game(len(g.seats), g.options)
        except OptionError as exc:
            raise ChainError(0, str(exc)) from None
        bad = genesis.bad_signers()
        if bad:
            raise ChainError(0, f"bad genesis signature of seat {bad[0]} ({g.seats[bad[0]].name})")
        return cls(genesis, game, state, genesis.hash)

    @property
    def seats(self) -> int:
        return len(self.genesis.genesis.seats)

    @property
    def finished(self) -> bool:
        """The game is over and every seat has signed the result."""
        return self.game.is_terminal(self.state) and self.results == self.seats

    def entitled(self) -> tuple[int, str]:
        """(seat, kind) of the one entry that may come next."""
        who = self.game.current(self.state)
        if who == TERMINAL:
            if self.results >= self.seats:
                raise ChainError(self.next_seq, "the game is over and its result is signed by every seat")
            return self.results, "result"
        if who == CHANCE:
            return dealer(self.game, self.state), "chance"
        return who, "move"

    def result_body(self) -> dict:
        g, s = self.game, self.state
        return {"winners": list(g.winners(s)), "scores": list(g.scores(s)), "state": g.state_hash(s)}

    def check(self, entry: Entry) -> "GameChain":
        """The chain with `entry` appended, or ChainError naming the seq and the reason."""
        seq = self.next_seq
        if entry.seq != seq:
            raise ChainError(seq, f"out of order: expected seq {seq}, found seq {entry.seq}")
        if entry.prev != self.head:
            raise ChainError(seq, "broken chain: prev is not the hash of the entry before")
        if not 0 <= entry.seat < self.seats:
            raise ChainError(seq, f"seat {entry.seat} is not at this table")
        key = self.genesis.genesis.seats[entry.seat].key
        if not verify(key, entry.signing_bytes(), entry.sig):
            raise ChainError(seq, f"bad signature (not seat {entry.seat}'s key)")
        seat, kind = self.entitled()
        if entry.kind != kind or entry.seat != seat:
            raise ChainError(seq, f"wrong seat: seat {seat} must write a {kind} entry here, not seat {entry.seat} a {entry.kind}")
        state, results = self.state, self.results
        try:
            if kind == "move":
                state = self._apply_move(state, entry.seat, entry.body["actions"])
            elif kind == "chance":
                state = self._apply_chance(state, entry.body["outcome"], entry.body["entropy"])
            else:
                if dict(entry.body) != _as_record(self.result_body()):
                    raise IllegalAction("the result does not match the game: "
                                        f"winners {list(self.game.winners(state))}, scores {list(self.game.scores(state))}")
                results += 1
        except IllegalAction as exc:
            raise ChainError(seq, f"illegal action: {exc}") from None
        except Exception as exc:  # a hostile value the engine did not expect: still illegal
            raise ChainError(seq, f"illegal action: the engine could not apply it ({type(exc).__name__})") from None
        return GameChain(self.genesis, self.game, state, entry.hash, seq + 1, results)

    def _apply_move(self, state: Any, seat: int, actions: tuple) -> Any:
        game = self.game
        for action in actions:
            if game.current(state) != seat:
                raise IllegalAction(f"it is no longer seat {seat}'s turn for {action!r}")
            state = game.apply(state, action)
        return state

    def _apply_chance(self, state: Any, outcome: tuple, entropy: bytes) -> Any:
        game = self.game
        if game.sample_chance(state, entropy) != outcome:
            raise IllegalAction("the outcome is not the one its entropy picks")
        return game.apply(state, outcome)


def _as_record(body: dict) -> dict:
    """A body as it reads back from the log (lists become tuples)."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in body.items()}
