"""Stored games for the resume tests: a signed log written with the log builder, with the
seat file of seat 0 beside it, as a node that played seat 0 would have left them."""
from __future__ import annotations

import random
from pathlib import Path

from peerboard import engines
from peerboard.node.gamefiles import SeatFile, seat_path
from peerboard.node.keys import write_private
from peerboard.protocol.log.builder import LogBuilder
from peerboard.protocol.log.logfile import frame, frames, header_frame


def build(game: str = "aton", seed: int = 1, entries: int | None = None, players: int = 2) -> LogBuilder:
    """A game between random players: whole (audited, its result signed by all), or its
    first `entries` entries."""
    rng = random.Random(seed)
    keys = [rng.randbytes(32) for _ in range(players)]
    masters = [rng.randbytes(32) for _ in range(players)]
    log = LogBuilder.table(engines.get(game), {}, [f"p{i}" for i in range(players)], masters, keys,
                           rng.randbytes(16), lambda: rng.randbytes(16))
    log.keys, log.masters = keys, masters
    choose = lambda state, seat, legal: legal[rng.randrange(len(legal))]  # noqa: E731
    if entries is None:
        log.play(choose)
    else:
        for _ in range(entries):
            log.step(choose)
    return log


def log_bytes(log: LogBuilder) -> bytes:
    return header_frame() + frame(log.ledger.genesis.record()) + b"".join(frame(e.encoded) for e in log.entries)


def store(directory: Path, log: LogBuilder, data: bytes | None = None, name: str = "game.pblog") -> Path:
    """The log (its bytes, or `data` instead) and seat 0's seat file, in `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_bytes(log_bytes(log) if data is None else data)
    seats = len(log.keys)
    seat = SeatFile(log.keys[0], log.masters[0], "p0", "tcp://127.0.0.1:1",
                    tuple(f"tcp://127.0.0.1:{i + 1}" for i in range(seats)))
    write_private(seat_path(path), seat.to_bytes(), replace=True)
    return path


def spans(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of each frame: the header, the genesis, then entry 1, 2 ..."""
    return [(off, off + 4 + len(raw)) for off, raw, _ in frames(data) if raw is not None]
