"""Replay-verify throughput, side by side with verifying the same signatures alone.

    python bench/bench_replay.py [GAME ...] [--games N]

For each game: N random games are written as signed logs in memory; then the whole
`verify_log` (decode, schema, chain, signature, engine legality, result) runs over them,
and so does a bare loop of Ed25519 verifications of the same entries' signatures. The
ratio is verify time / signatures-alone time (goal: at most 2x).
"""
from __future__ import annotations

import argparse
import random
import sys
import time


from peerboard import engines  # noqa: E402
from peerboard.protocol.log import LogBuilder  # noqa: E402
from peerboard.protocol.log import verify  # noqa: E402
from peerboard.protocol.log import frame, header_frame  # noqa: E402
from peerboard.protocol.log import verify_log  # noqa: E402


def build_log(game, players, seed):
    rng = random.Random(seed)
    log = LogBuilder.table(
        game, {}, [f"p{i}" for i in range(players)], [rng.randbytes(32) for _ in range(players)],
        [rng.randbytes(32) for _ in range(players)], rng.randbytes(16), lambda: rng.randbytes(16),
    )
    log.play(lambda state, seat, legal: legal[rng.randrange(len(legal))])
    data = header_frame() + frame(log.ledger.genesis.record()) + b"".join(frame(e.record()) for e in log.entries)
    return data, log


def best_of(runs: int, *works) -> list[float]:
    """For each work, the fastest of `runs` timed runs, the works taking turns: the least
    disturbed by whatever else the machine does, and disturbed alike."""
    best = [float("inf")] * len(works)
    for _ in range(runs):
        for i, work in enumerate(works):
            t0 = time.perf_counter()
            assert work()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def bench(name: str, players: int, games: int) -> None:
    game = engines.get(name)
    logs = [build_log(game, players, seed) for seed in range(games)]
    signed = [(log.ledger.genesis.terms.seats[e.seat].key, e.signing_bytes(), e.sig) for _, log in logs for e in log.entries]
    entries = len(signed)
    if entries == 0:
        sys.exit(f"{name}: measured nothing (no game, no entry)")
    t_verify, t_sigs = best_of(5, lambda: all(verify_log(data).ok for data, _ in logs),
                               lambda: all(verify(key, message, sig) for key, message, sig in signed))
    print(f"{name:8} {players}p  {games} games, {entries} entries: replay-verify {entries / t_verify:8.0f} entries/s, "
          f"signatures alone {entries / t_sigs:8.0f}/s, ratio {t_verify / t_sigs:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="*", default=["aton"])
    parser.add_argument("--games", dest="count", type=int, default=20)
    parser.add_argument("--players", type=int)
    args = parser.parse_args()
    for name in args.games:
        bench(name, args.players or engines.get(name).min_players, args.count)


if __name__ == "__main__":
    main()
