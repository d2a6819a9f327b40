"""Copies of one game that disagree, as a cheating seat makes them (tests of
protocol/log/copies.py, `peerboard ratings` and `replay --verify`): an honest two-seat game
to its end, and the loser's forged copy of it — the log cut where the winner was to move,
then a claim of the winner, the audit and a result signed by the loser's key alone (issue
39: what any player can do offline with a few lines of code)."""
from __future__ import annotations

import random
from dataclasses import dataclass

from peerboard import engines
from peerboard.protocol.log.builder import LogBuilder
from peerboard.protocol.log.logfile import frame, header_frame
from peerboard.protocol.log.records import Entry
from peerboard.protocol.log.schema import ENDS_TOGETHER, REVEALS_TOGETHER


@dataclass
class Forgery:
    honest: bytes  # the finished game, every seat's signature on its result
    forged: bytes  # the loser's copy: cut at `cut`, a claim of the winner there, its own end
    winner: int
    loser: int
    cut: int  # the seq of the forged claim (the winner was to write it)
    honest_entries: list[Entry]
    builder: LogBuilder  # the honest table, every seat's keys and secrets


def log_bytes(builder_or_genesis, entries) -> bytes:
    genesis = builder_or_genesis.ledger.genesis if isinstance(builder_or_genesis, LogBuilder) else builder_or_genesis
    return header_frame() + frame(genesis.record()) + b"".join(frame(e.encoded) for e in entries)


def table(seed: int, game: str = "aton", options: dict | None = None, players: int = 2) -> tuple[LogBuilder, random.Random]:
    rng = random.Random(f"forged copies {seed}")
    masters = [rng.randbytes(32) for _ in range(players)]
    keys = [rng.randbytes(32) for _ in range(players)]
    options = {"win_points": 15} if options is None and game == "aton" else options or {}
    builder = LogBuilder.table(engines.get(game), options, [f"p{i}" for i in range(players)], masters, keys,
                               rng.randbytes(16), lambda: rng.randbytes(16), reveals=REVEALS_TOGETHER,
                               ends=ENDS_TOGETHER)
    return builder, rng


def replayed(builder: LogBuilder, entries: list[Entry]) -> LogBuilder:
    """A table with the same seats, holding `entries` (checked)."""
    copy = LogBuilder(builder.ledger.genesis, builder.identities, builder.secrets, lambda: bytes(16))
    for e in entries:
        copy.ledger = copy.ledger.check(e)
        copy.entries.append(e)
    return copy


def forgery(seed: int = 1, back: int = 0) -> Forgery:
    """An honest Aton game with a winner, and its loser's forged copy: cut at the `back`-th
    entry from the end (0: the last) that the winner wrote before the end, a claim of the
    winner there, the audits and the results by the loser alone."""
    for attempt in range(50):
        builder, rng = table(seed * 100 + attempt)
        choose = lambda state, seat, legal: legal[rng.randrange(len(legal))]  # noqa: E731
        builder.play(choose)
        winners = builder.ledger.result_body()["winners"]
        if len(winners) == 1:
            break
    else:
        raise AssertionError("no game with one winner")
    winner = winners[0]
    loser = 1 - winner
    entries = list(builder.entries)
    ends = [e.seq for e in entries if e.kind in ("audits", "results")]
    theirs = [e.seq for e in entries if e.seat == winner and e.seq < ends[0]]
    cut = theirs[-1 - back]
    forged = replayed(builder, entries[: cut - 1])
    forged.claim(winner)
    forged.play(lambda state, seat, legal: legal[0])
    return Forgery(log_bytes(builder, entries), log_bytes(forged, forged.entries), winner, loser, cut, entries, builder)


@dataclass
class Disputed:
    claimer_copy: bytes  # the claim, then the claimer's audit and result: it won by claim
    claimed_copy: bytes  # the claim, then the claimed seat's protest carrying its move
    claimer: int
    claimed: int
    claim: int  # its seq


def disputed(seed: int = 1, after: int = 12) -> Disputed:
    """A live claim of a present seat, as each node keeps it: seat 1 claims seat 0 where seat
    0 had just moved (its move never taken); seat 1's node writes its end at once, seat 0's
    node protests carrying that move."""
    from peerboard.protocol.log.records import make_entry

    builder, rng = table(seed)
    choose = lambda state, seat, legal: legal[rng.randrange(len(legal))]  # noqa: E731
    while len(builder.entries) < after or builder.ledger.entitled() != (0, "move"):
        builder.step(choose)
    ledger = builder.ledger
    action = choose(ledger.state, 0, ledger.game.legal_actions(ledger.state))
    move = make_entry(builder.identities[0], ledger.next_seq, ledger.head, 0, "move", {"actions": [action], "nonce": None})
    before = list(builder.entries)
    claimer = replayed(builder, before)
    claim = claimer.claim(0)
    claimed = replayed(builder, before + [claim])
    claimed.protest([move])
    claimer.play(choose)
    return Disputed(log_bytes(builder, claimer.entries), log_bytes(builder, claimed.entries), 1, 0, claim.seq)
