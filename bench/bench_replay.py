"""Replay-verify throughput, side by side with verifying the same signatures alone.

    python bench/bench_replay.py [GAME ...] [--games N]

For each game: N random games are written as signed logs in memory; then the whole
`verify_log` (decode, schema, chain, signature, engine legality, result) runs over them,
and so does a bare loop of Ed25519 verifications of the same entries' signatures. The
ratio is verify time / signatures-alone time (goal: at most 2x).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import engines  # noqa: E402
from engines import CHANCE  # noqa: E402
from engines.playout import random_action  # noqa: E402
from protocol.builder import LogBuilder  # noqa: E402
from protocol.identity import Identity, verify  # noqa: E402
from protocol.logfile import frame, header_frame  # noqa: E402
from protocol.records import Genesis, Seat, sign_genesis  # noqa: E402
from protocol.replay import verify_log  # noqa: E402


def build_log(game, players, seed):
    rng = random.Random(seed)
    ids = [Identity.from_seed(rng.randbytes(32)) for _ in range(players)]
    genesis = Genesis(game.name, game.version, {}, tuple(Seat(f"p{i}", x.public_key) for i, x in enumerate(ids)), rng.randbytes(16))
    log = LogBuilder(sign_genesis(genesis, ids), ids)
    while not game.is_terminal(log.state):
        if game.current(log.state) == CHANCE:
            log.chance(rng.randbytes(32))
        else:
            log.move(random_action(game, log.state, rng))
    log.sign_results()
    data = header_frame() + frame(log.chain.genesis.record()) + b"".join(frame(e.record()) for e in log.entries)
    return data, log


def bench(name: str, players: int, games: int) -> None:
    game = engines.get(name)
    logs = [build_log(game, players, seed) for seed in range(games)]
    signed = [(log.chain.genesis.genesis.seats[e.seat].key, e.signing_bytes(), e.sig) for _, log in logs for e in log.entries]
    entries = len(signed)
    t0 = time.perf_counter()
    for data, _ in logs:
        assert verify_log(data).ok
    t_verify = time.perf_counter() - t0
    t0 = time.perf_counter()
    for key, message, sig in signed:
        assert verify(key, message, sig)
    t_sigs = time.perf_counter() - t0
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
