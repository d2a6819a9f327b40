"""The end of a game in two entries (spec/log-format.md, "Who writes the next entry", case 1;
spec/protocol.md, "The end together"): in a log whose genesis says `"ends": "together"`, the
audit is one `audits` entry holding the seed of every seat still playing, and the result one
`results` entry holding the result and every such seat's signature of it.

Both are gathered as a reveal round is (protocol/log/reveals.py): their **gatherer** is the
writer of the entry before, and each seat's part rides on its ack of that entry, to the
gatherer only. A seed proves itself (its commitment is in the genesis, or in the seat's
takeover), so it needs no signature of its own; a seat's agreement with the result is its
Ed25519 signature of the result statement, bound to the log so far (the `results` entry's
seq and prev), so the gatherer can withhold the result, never change it. A log without
`ends` keeps one `audit` and one `result` entry per seat (every log written before).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

from peerboard.engines.canonical import encode
from peerboard.protocol.log import failures
from peerboard.protocol.log.failures import Refused
from peerboard.protocol.log.identity import verify
from peerboard.protocol.log.secrets import seed_commitment

if TYPE_CHECKING:
    from peerboard.protocol.log.ledger import Ledger
    from peerboard.protocol.log.records import Entry

RESULT_DOMAIN = b"peerboard/result/v1\x00"


def result_statement(genesis_hash: bytes, seq: int, prev: bytes, result: dict) -> bytes:
    """What a seat still playing signs to agree with the game's `result` (a result body,
    as `Ledger.result_body` gives it), at the `results` entry `seq` after `prev`: bound to
    the log so far, as a `result` entry's own signature is."""
    return RESULT_DOMAIN + encode({"genesis": genesis_hash, "prev": prev, "result": result, "seq": seq})


def next_statement(ledger: "Ledger") -> bytes:
    """The result statement of the `results` entry due next in `ledger`."""
    return result_statement(ledger.genesis.hash, ledger.next_seq, ledger.head, ledger.result_body())


def fits_seed(ledger: "Ledger", seat: int, seed: bytes) -> bool:
    """Whether `seed` is the one seat `seat`'s commitment (genesis or takeover) names."""
    return seed_commitment(seed) == ledger.seeds[seat]


def fits_signature(ledger: "Ledger", seat: int, sig: bytes) -> bool:
    """Whether `sig` is seat `seat`'s signature of the result statement due next."""
    return verify(ledger.keys[seat], next_statement(ledger), sig)


def audits_seeds(ledger: "Ledger", seeds: Sequence[bytes]) -> dict[int, bytes]:
    """seat -> seed, if `seeds` are one per seat still playing, in seat order, each the seed
    its commitment names; Refused (class `audit`) naming what is wrong otherwise. (A seat
    cannot be framed: the gatherer writes only seeds that prove themselves.)"""
    writers = ledger.writers
    if len(seeds) != len(writers):
        raise Refused(failures.AUDIT, f"an audits entry carries {len(seeds)} seeds; it takes one per seat still "
                                          f"playing ({len(writers)})")
    for seat, seed in zip(writers, seeds):
        if not fits_seed(ledger, seat, seed):
            raise Refused(failures.AUDIT, f"seat {seat}'s seed in the audits entry is not the one its "
                                              f"commitment names (a forged or false seed)")
    return dict(zip(writers, seeds))


def check_results(ledger: "Ledger", entry: "Entry", want: dict) -> None:
    """A `results` entry holds one valid signature per seat still playing, in seat order, of
    the result statement of the result it states — else class `consent` — and that result
    is the game's (`want`, as it reads back from the log) — else class `result`: the order
    of spec/log-format.md, "Checking a log"."""
    body = dict(entry.body)
    sigs = body.pop("sigs")
    writers = ledger.writers
    if len(sigs) != len(writers):
        raise Refused(failures.CONSENT, f"a results entry carries {len(sigs)} signatures; it takes one of each "
                                            f"seat still playing ({len(writers)})")
    statement = result_statement(ledger.genesis.hash, entry.seq, entry.prev, body)
    for seat, sig in zip(writers, sigs):
        if not verify(ledger.keys[seat], statement, sig):
            raise Refused(failures.CONSENT, f"the result is not signed by seat {seat}")
    if body != want:
        raise Refused(failures.RESULT, f"the result does not match the game: winners {list(want['winners'])}, "
                                           f"scores {list(want['scores'])}, cheats {list(want['cheats'])}")


# -- reading a log's end (export, ratings, replay) ----------------------------------------------

def result_in(entry: "Entry") -> dict | None:
    """The result an entry states (a `result`'s body, a `results`'s without its
    signatures), None for any other entry."""
    if entry.kind == "result":
        return dict(entry.body)
    if entry.kind == "results":
        return {k: v for k, v in entry.body.items() if k != "sigs"}
    return None


def seeds_in(entries: Iterable["Entry"], seats: int) -> dict[int, bytes]:
    """seat -> seed, from a log's `audit` entries or its `audits` entry (one per seat still
    playing, in seat order: the seats claimed before it are left out)."""
    seeds: dict[int, bytes] = {}
    gone: set[int] = set()
    for entry in entries:
        if entry.kind == "claim":
            gone.add(entry.body["gone"])
        elif entry.kind == "audit":
            seeds[entry.seat] = entry.body["seed"]
        elif entry.kind == "audits":
            writers = [i for i in range(seats) if i not in gone]
            seeds.update(zip(writers, entry.body["seeds"]))
    return seeds


def finished_in(entries: Sequence["Entry"], seats: int) -> bool:
    """Every seat still playing has signed the result, or a protest ended the game disputed
    (read from the entries alone)."""
    if any(e.kind in ("results", "protest") for e in entries):
        return True
    gone = {e.body["gone"] for e in entries if e.kind == "claim"}
    return sum(e.kind == "result" for e in entries) >= seats - len(gone)


def gathered_part(ledger: "Ledger", kind: str, seat: int, part: Any) -> bool:
    """Whether `part` from seat `seat` is a good part of the `kind` entry due next."""
    if kind == "audits":
        return fits_seed(ledger, seat, part)
    return fits_signature(ledger, seat, part)
