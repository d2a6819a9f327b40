"""What resume's full check of a stored log costs, and what it loses of damaged logs.

    python bench/bench_resume.py [--players N] [--damaged N]

1. A long Athos log (a whole random game but its last entries: unfinished, so it resumes) is
   opened as `peerboard resume` opens it — locked, read, every entry checked as
   `replay --verify` checks it (node/resume_check.py), then re-run by the session
   (`Session.resume`) — and, beside it, checked by `verify_log` alone, as
   `peerboard replay --verify` does. Printed: both times and their ratio (resume / verify).
2. N logs, each damaged at random (bits flipped, bytes overwritten, inserted or deleted, a
   length prefix garbled, the file cut), are given to resume's opening. Printed: the entries
   lost — whole records in the file before that are in neither the file after nor a file kept
   aside (goal 0) — beside what cutting at the first unreadable record, as resume used to,
   would have lost.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import shutil
import tempfile
from pathlib import Path

from bench_replay import best_of  # (this folder is on the path of a script run from it)

from peerboard import engines
from peerboard.node.gamefiles import GameFileError, GameFiles, SeatFile, seat_path
from peerboard.node.keys import write_private
from peerboard.node.resume_check import check_for_resume
from peerboard.protocol.log import (
    Identity, LogBuilder, MAX_FRAME, SeatSecrets, frame, frames, header_frame, read_log, verify_log,
)
from peerboard.protocol.session import Session


def build(game: str, players: int, seed: int, drop_last: int = 0) -> tuple[bytes, list[bytes], list[bytes]]:
    rng = random.Random(seed)
    keys = [rng.randbytes(32) for _ in range(players)]
    masters = [rng.randbytes(32) for _ in range(players)]
    log = LogBuilder.table(engines.get(game), {}, [f"p{i}" for i in range(players)], masters, keys,
                           rng.randbytes(16), lambda: rng.randbytes(16))
    log.play(lambda state, seat, legal: legal[rng.randrange(len(legal))])
    entries = log.entries[:len(log.entries) - drop_last]
    data = header_frame() + frame(log.ledger.genesis.record()) + b"".join(frame(e.encoded) for e in entries)
    return data, keys, masters


def store(folder: Path, data: bytes, keys: list[bytes], masters: list[bytes]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "game.pblog"
    path.write_bytes(data)
    seat = SeatFile(keys[0], masters[0], "p0", "tcp://127.0.0.1:1",
                    tuple(f"tcp://127.0.0.1:{i + 1}" for i in range(len(keys))))
    write_private(seat_path(path), seat.to_bytes(), replace=True)
    return path


def session_rerun(contents, seat, keys: list[bytes], masters: list[bytes]) -> bool:
    """What resume did before it checked the whole log: the session's re-run (every check
    but the signatures, the last entry's aside)."""
    Session.resume(Identity.from_seed(keys[0]), SeatSecrets.from_master(masters[0]), "p0", "tcp://127.0.0.1:1",
                   contents.genesis, seat.addrs, list(contents.entries), None, os.urandom, 0.0)
    return True


def resume_opening(path: Path, keys: list[bytes], masters: list[bytes]) -> bool:
    """Everything `peerboard resume` does with the file before it starts listening: lock,
    read, the full check, the session's re-run."""
    files, contents = GameFiles.reopen(path)
    try:
        return session_rerun(contents, files.seat, keys, masters)
    finally:
        files.close()


def measure_cost(players: int, folder: Path) -> None:
    data, keys, masters = build("athos", players, seed=22, drop_last=3)
    path = store(folder / "long", data, keys, masters)
    contents = read_log(data)
    seat = GameFiles.reopen(path)[0]
    seat.close()
    own = Identity.from_seed(keys[0]).public_key
    t_open, t_check, t_rerun, t_verify = best_of(
        7, lambda: resume_opening(path, keys, masters), lambda: bool(check_for_resume(path, data, own)),
        lambda: session_rerun(contents, seat.seat, keys, masters), lambda: verify_log(data).ok)
    print(f"athos {players}p, {len(contents.entries)} entries, {len(data)} bytes (best of 7 each):")
    print(f"  replay --verify (verify_log)             {t_verify * 1000:7.1f} ms")
    print(f"  resume's full check (check_for_resume)   {t_check * 1000:7.1f} ms   {t_check / t_verify:.2f}x replay --verify")
    print(f"  the session's re-run (Session.resume)    {t_rerun * 1000:7.1f} ms   {t_rerun / t_verify:.2f}x"
          f"   (all resume did before)")
    print(f"  resume's whole opening (lock, read, both) {t_open * 1000:6.1f} ms   {t_open / t_verify:.2f}x replay --verify")


def whole_records(data: bytes) -> int:
    n = 0
    for _, raw, problem in frames(data):
        if raw is None:
            break
        n += 1
    return n


def harm(data: bytes, rng: random.Random) -> bytes:
    for _ in range(rng.randint(1, 3)):
        pos = rng.randrange(len(data))
        kind = rng.choice(["flip", "flip", "overwrite", "insert", "delete", "length", "cut"])
        if kind == "flip":
            data = data[:pos] + bytes([data[pos] ^ (1 << rng.randrange(8))]) + data[pos + 1:]
        elif kind == "overwrite":
            n = rng.randint(1, 64)
            data = data[:pos] + rng.randbytes(n) + data[pos + n:]
        elif kind == "insert":
            data = data[:pos] + rng.randbytes(rng.randint(1, 16)) + data[pos:]
        elif kind == "delete":
            data = data[:pos] + data[pos + rng.randint(1, 16):]
        elif kind == "length":
            starts = [off for off, raw, _ in frames(data) if raw is not None] or [0]
            start = rng.choice(starts)
            data = data[:start] + rng.randrange(MAX_FRAME + 2).to_bytes(4, "big") + data[start + 4:]
        else:
            data = data[:pos]
        data = data or b"\0"
    return data


def measure_damage(count: int, folder: Path) -> None:
    base = [build(game, 2, seed) for game, seed in (("aton", 1), ("athos", 2), ("asterix", 3))]
    rng = random.Random(2222)
    lost = cut_before = bytes_lost = 0
    outcomes: dict[str, int] = {}
    for i in range(count):
        data, keys, masters = base[i % len(base)]
        bad = harm(data, rng)
        path = store(folder / f"d{i}", bad, keys, masters)
        try:
            files, _ = GameFiles.reopen(path)
            files.close()
            outcome = "resumable" + (" (a torn tail kept aside)" if files.set_aside else "")
        except GameFileError as exc:
            outcome = type(exc).__name__
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        after = path.read_bytes()
        aside = b"".join(p.read_bytes() for p in sorted(path.parent.glob("*.torn")))
        lost += whole_records(bad) - whole_records(after) - whole_records(aside)
        bytes_lost += len(bad) - len(after) - len(aside)
        try:  # what cutting at the first unreadable record would have taken
            cut_before += whole_records(bad) - whole_records(bad[:read_log(bad).good_bytes])
        except Exception:
            pass
        shutil.rmtree(path.parent)
    print(f"{count} damaged logs given to resume's opening: {lost} entries lost, {bytes_lost} bytes lost "
          f"(cutting at the first unreadable record, as before, would have cut {cut_before} whole records)")
    for outcome, n in sorted(outcomes.items()):
        print(f"  {n:5}  {outcome}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--damaged", type=int, default=1000)
    args = parser.parse_args()
    if args.damaged < 1:
        sys.exit("measured nothing: --damaged must be at least 1")
    folder = Path(tempfile.mkdtemp(prefix="bench-resume-"))
    try:
        measure_cost(args.players, folder)
        measure_damage(args.damaged, folder)
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
