"""Test vectors (spec/vectors/): one complete log per game, made from fixed seeds, with the
public state hash after every entry. `python tests/support/vectors.py` writes them again; the test
suite checks the stored ones still verify and hash the same.

Every registered game has its vector without being named here (`cases()`): at its fewest
seats with its default options, unless `TABLES` sets the table its vector was made at."""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from peerboard import engines  # noqa: E402
from peerboard.protocol.log.builder import LogBuilder  # noqa: E402
from peerboard.protocol.log.ledger import Ledger  # noqa: E402
from peerboard.protocol.log.logfile import frame, header_frame  # noqa: E402
from peerboard.protocol.log.schema import ENDS_TOGETHER, REVEALS_TOGETHER  # noqa: E402

VECTORS = ROOT / "spec" / "vectors"
#: the table of a game's vector where it is not the fewest seats and the default options
#: (a short Aton, Asterix at three seats and two rounds: as these vectors were made)
TABLES: dict[str, tuple[int, dict]] = {
    "aton": (2, {"win_points": 15}),
    "asterix": (3, {"max_rounds": 2}),
}


def cases() -> list[tuple[str, int, dict]]:
    """(game, seats, options) of the vector of every game registered now."""
    return [(name, *TABLES.get(name, (engines.get(name).min_players, {}))) for name in engines.names()]


CASES = cases()

#: games whose genesis says `"reveals": "together"`: each reveal round one `reveals` entry
#: (what a table of this version writes; the CASES above are of the form before)
TOGETHER = [
    ("aton-together", "aton", 2, {"win_points": 15}),
    ("asterix-together", "asterix", 3, {"max_rounds": 2}),
]

#: games that end otherwise than by their rules (spec/protocol.md, "Endings"): (file name,
#: game, players, options, the entry after which it ends, the seat it names, how)
ENDINGS = [
    ("aton-resigned", "aton", 2, {"win_points": 15}, 20, 1, "resigned"),
    ("athos-resigned", "athos", 2, {}, 41, 0, "resigned"),  # out of turn: seat 1 carries it
    ("aton-claimed", "aton", 2, {"win_points": 15}, 15, 0, "claimed"),  # seat 1 claims seat 0
    ("asterix-claimed", "asterix", 3, {"max_rounds": 2}, 12, 0, "claimed"),  # seats 1 and 2 claim seat 0
    ("athos-drawn", "athos", 2, {}, 30, None, "drawn"),  # both seats agree to a draw
    ("asterix-aborted", "asterix", 3, {"max_rounds": 2}, 9, None, "aborted"),  # all three agree to abort
    # seats 0 and 1 claim seat 2; seat 0 takes it over (spec/protocol.md, "Takeover") and the game goes on
    ("athos-takenover", "athos", 3, {}, 30, 2, "takenover"),
    ("asterix-takenover", "asterix", 3, {"max_rounds": 2}, 14, 1, "takenover"),  # seats 0 and 2 claim seat 1
]

#: takeovers in a log of reveal rounds together (what a table of this version writes): the
#: taken-over seat's value in every round after it is its new chain's
TAKEOVERS_TOGETHER = [
    ("asterix-takenover-together", "asterix", 3, {"max_rounds": 3}, 12, 2, "takenover"),  # seats 0 and 1 claim seat 2
]

#: games whose genesis says `"ends": "together"` besides (what a table of this version writes):
#: the end is one `audits` and one `results` entry (protocol/log/ends.py); whole games, then
#: endings as in ENDINGS
ENDS = [
    ("aton-ends", "aton", 2, {"win_points": 15}),
    ("asterix-ends", "asterix", 3, {"max_rounds": 2}),
]
ENDINGS_ENDS = [
    ("aton-resigned-ends", "aton", 2, {"win_points": 15}, 20, 1, "resigned"),
    ("asterix-claimed-ends", "asterix", 3, {"max_rounds": 2}, 12, 0, "claimed"),  # seats 1 and 2 claim seat 0
    ("asterix-takenover-ends", "asterix", 3, {"max_rounds": 3}, 12, 2, "takenover"),  # seats 0 and 1 claim seat 2
]


def seats(name: str, players: int) -> tuple[random.Random, list[bytes], list[bytes]]:
    """The vector's random source, and its seats' master secrets and Ed25519 seeds (the
    invalid vectors sign with them: tests/support/invalid_vectors.py)."""
    rng = random.Random(f"peerboard test vector {name}")
    masters = [rng.randbytes(32) for _ in range(players)]
    keys = [rng.randbytes(32) for _ in range(players)]
    return rng, masters, keys


def build(name: str, players: int, options: dict, game: str | None = None, reveals: str | None = None,
          ends: str | None = None) -> bytes:
    rng, masters, keys = seats(name, players)
    log = LogBuilder.table(
        engines.get(game or name), options, [f"seat-{i}" for i in range(players)], masters, keys,
        rng.randbytes(16), lambda: rng.randbytes(16), reveals=reveals, ends=ends,
    )
    log.play(lambda state, seat, legal: legal[rng.randrange(len(legal))])
    return header_frame() + frame(log.ledger.genesis.record()) + b"".join(frame(e.encoded) for e in log.entries)


def build_ending(name: str, game: str, players: int, options: dict, after: int, seat: int, how: str,
                 reveals: str | None = None, ends: str | None = None) -> bytes:
    """A game where, after entry `after`, seat `seat` resigns (the seat entitled to the next
    entry carries the resignation) or is claimed by every other seat, then audited and signed."""
    rng, masters, keys = seats(name, players)
    log = LogBuilder.table(
        engines.get(game), options, [f"seat-{i}" for i in range(players)], masters, keys,
        rng.randbytes(16), lambda: rng.randbytes(16), takeover="greedy" if how == "takenover" else None,
        reveals=reveals, ends=ends,
    )
    choose = lambda state, seat, legal: legal[rng.randrange(len(legal))]  # noqa: E731
    while len(log.entries) < after:
        log.step(choose)
    if how == "resigned":
        log.resign(seat)
    elif how in ("claimed", "takenover"):
        log.claim(seat)  # (and, at a table whose genesis names a takeover, the takeover right after)
    else:
        while log.ledger.entitled()[1] not in ("move", "commit"):  # an agreement is made at a decision
            log.step(choose)
        log.agree(how)
    log.play(choose)
    return header_frame() + frame(log.ledger.genesis.record()) + b"".join(frame(e.encoded) for e in log.entries)


#: the corners spec/log-format.md settles, one valid vector each (issue 39): (file name,
#: game, players, options, what happens); built by `build_settled`
SETTLED = [
    # seat 2 is claimed and taken over by seat 0; later seat 2 resigns, its statement signed
    # by the takeover's key (its runner's node writes for it)
    ("athos-takenover-resigned", "athos", 3, {}, "a taken-over seat resigns"),
    # seat 2 is claimed and taken over by seat 0; later seat 1 claims seat 0, the runner: the
    # game ends there, seats 0 and 2 gone with it, seat 1 the only signer
    ("athos-takenover-runner-claimed", "athos", 3, {}, "the runner of a taken-over seat is claimed"),
    # the game over by its rules, seat 0 audits, seat 1 never does: seat 0 claims it, and the
    # claim completes the audit (the form of one audit entry per seat)
    ("aton-claimed-at-the-audit", "aton", 2, {"win_points": 15}, "a claim completes the audit"),
]


def build_settled(name: str, game: str, players: int, options: dict, what: str) -> bytes:
    rng, masters, keys = seats(name, players)
    log = LogBuilder.table(
        engines.get(game), options, [f"seat-{i}" for i in range(players)], masters, keys,
        rng.randbytes(16), lambda: rng.randbytes(16), takeover="greedy" if players >= 3 else None,
        reveals=REVEALS_TOGETHER if players >= 3 else None,
    )
    choose = lambda state, seat, legal: legal[rng.randrange(len(legal))]  # noqa: E731
    if name.startswith("athos-takenover"):
        while len(log.entries) < 30:
            log.step(choose)
        log.claim(2)  # and seat 0 takes it over
        if name == "athos-takenover-resigned":
            while log.ledger.entitled()[0] != 2:
                log.step(choose)
            log.resign(2)  # (seat 2 is entitled: its runner writes it, signed by the takeover's key)
        else:
            for _ in range(6):
                log.step(choose)
            log.claim(0)
    else:
        while log.ledger.entitled() != (1, "audit"):
            log.step(choose)
        log.claim(1)
    log.play(choose)
    return header_frame() + frame(log.ledger.genesis.record()) + b"".join(frame(e.encoded) for e in log.entries)


#: two-seat claims the claimed seat protests (spec/protocol.md, "What a claim proves"): (file
#: name, the entry after which the claim comes, whether the claimed seat had written its own
#: entry there, which the protest carries)
DISPUTES = [
    # seat 0 wrote its move at entry 16; seat 1 claimed it there anyway; seat 0 protests,
    # carrying that move
    ("aton-disputed", 15, True),
    # seat 1 claims seat 0 at an entry seat 1 itself was to write; seat 0, which had been
    # sending all along, protests with nothing to carry
    ("aton-disputed-present", 15, False),
]


def build_disputed(name: str, after: int, carried: bool) -> bytes:
    from peerboard.protocol.log.records import make_entry

    rng, masters, keys = seats(name, 2)
    log = LogBuilder.table(engines.get("aton"), {"win_points": 15}, ["seat-0", "seat-1"], masters, keys,
                           rng.randbytes(16), lambda: rng.randbytes(16), reveals=REVEALS_TOGETHER, ends=ENDS_TOGETHER)
    choose = lambda state, seat, legal: legal[rng.randrange(len(legal))]  # noqa: E731
    want = (0, "move") if carried else (1, "move")
    while len(log.entries) < after or log.ledger.entitled() != want:
        log.step(choose)
    displaced = []
    if carried:  # seat 0's move, which seat 1 never took: it claims seat 0 in its place
        ledger = log.ledger
        action = choose(ledger.state, 0, ledger.game.legal_actions(ledger.state))
        displaced.append(make_entry(log.identities[0], ledger.next_seq, ledger.head, 0, "move",
                                    {"actions": [action], "nonce": None}))
    log.claim(0)
    log.protest(displaced)
    return header_frame() + frame(log.ledger.genesis.record()) + b"".join(frame(e.encoded) for e in log.entries)


def hashes(data: bytes) -> list[str]:
    """The public state hash after the genesis and after every entry, as a verifier sees it."""
    from peerboard.protocol.log.logfile import read_log

    contents = read_log(data)
    ledger = Ledger.start(contents.genesis)
    out = [ledger.game.state_hash(ledger.state).hex()]
    for entry in contents.entries:
        ledger = ledger.check(entry)
        out.append(ledger.game.state_hash(ledger.state).hex())
    return out


def main() -> None:
    VECTORS.mkdir(parents=True, exist_ok=True)
    for name, players, options in cases():
        data = build(name, players, options)
        (VECTORS / f"{name}.pblog").write_bytes(data)
        doc = {"game": name, "players": players, "options": options, "state_hashes": hashes(data)}
        (VECTORS / f"{name}.hashes.json").write_text(json.dumps(doc, indent=0) + "\n")
        print(f"{name}: {len(data)} bytes, {len(doc['state_hashes']) - 1} entries")
    for name, game, players, options in TOGETHER:
        data = build(name, players, options, game, REVEALS_TOGETHER)
        (VECTORS / f"{name}.pblog").write_bytes(data)
        doc = {"game": game, "players": players, "options": options, "state_hashes": hashes(data)}
        (VECTORS / f"{name}.hashes.json").write_text(json.dumps(doc, indent=0) + "\n")
        print(f"{name}: {len(data)} bytes, {len(doc['state_hashes']) - 1} entries")
    for name, *case in ENDINGS:
        data = build_ending(name, *case)
        (VECTORS / f"{name}.pblog").write_bytes(data)
        print(f"{name}: {len(data)} bytes")
    for name, *case in TAKEOVERS_TOGETHER:
        data = build_ending(name, *case, REVEALS_TOGETHER)
        (VECTORS / f"{name}.pblog").write_bytes(data)
        print(f"{name}: {len(data)} bytes")
    for name, game, players, options in ENDS:
        data = build(name, players, options, game, REVEALS_TOGETHER, ENDS_TOGETHER)
        (VECTORS / f"{name}.pblog").write_bytes(data)
        doc = {"game": game, "players": players, "options": options, "state_hashes": hashes(data)}
        (VECTORS / f"{name}.hashes.json").write_text(json.dumps(doc, indent=0) + "\n")
        print(f"{name}: {len(data)} bytes, {len(doc['state_hashes']) - 1} entries")
    for name, *case in ENDINGS_ENDS:
        data = build_ending(name, *case, REVEALS_TOGETHER, ENDS_TOGETHER)
        (VECTORS / f"{name}.pblog").write_bytes(data)
        print(f"{name}: {len(data)} bytes")
    for name, *case in SETTLED:
        data = build_settled(name, *case)
        (VECTORS / f"{name}.pblog").write_bytes(data)
        print(f"{name}: {len(data)} bytes")
    for name, *case in DISPUTES:
        data = build_disputed(name, *case)
        (VECTORS / f"{name}.pblog").write_bytes(data)
        print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
