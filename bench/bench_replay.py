"""Replay-verify throughput, side by side with verifying the same signatures alone.

    python bench/bench_replay.py [GAME ...] [--games N]

For each game: N random games are written as signed logs in memory; then the whole
`verify_log` (decode, schema, chain, signature, engine legality, result) runs over them,
and so does a bare loop of Ed25519 verifications of the same entries' signatures. The
ratio is verify time / signatures-alone time (goal: at most 2x), both in CPU time of this
process, the least of `--runs` runs each, taking turns. `--against REV|DIR` measures the
code there too, in a child process, game by game after this tree's.
"""
from __future__ import annotations

import argparse
import random
import subprocess
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
    """For each work, the least CPU time of this process over `runs` timed runs, the works
    taking turns: the least disturbed by whatever else the machine does (a shared machine
    takes the core away, which CPU time does not count; caches and frequency it shares),
    and disturbed alike."""
    best = [float("inf")] * len(works)
    for _ in range(runs):
        for i, work in enumerate(works):
            t0 = time.process_time()
            assert work()
            best[i] = min(best[i], time.process_time() - t0)
    return best


def bench(name: str, players: int, games: int, runs: int = 5) -> float:
    game = engines.get(name)
    logs = [build_log(game, players, seed) for seed in range(games)]
    signed = [(log.ledger.genesis.terms.seats[e.seat].key, e.signing_bytes(), e.sig) for _, log in logs for e in log.entries]
    entries = len(signed)
    if entries == 0:
        sys.exit(f"{name}: measured nothing (no game, no entry)")
    t_verify, t_sigs = best_of(runs, lambda: all(verify_log(data).ok for data, _ in logs),
                               lambda: all(verify(key, message, sig) for key, message, sig in signed))
    print(f"{name:8} {players}p  {games} games, {entries} entries: replay-verify {entries / t_verify:8.0f} entries/CPU-s, "
          f"signatures alone {entries / t_sigs:8.0f}/CPU-s, ratio {t_verify / t_sigs:.2f}x", flush=True)
    return t_verify / t_sigs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="*", default=["aton"])
    parser.add_argument("--games", dest="count", type=int, default=20)
    parser.add_argument("--players", type=int)
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each work, the least kept (default 5)")
    parser.add_argument("--against", metavar="REV|DIR",
                        help="also measure the code at this git revision or checkout, in a child, game by game")
    args = parser.parse_args()
    if args.against is None:
        for name in args.games:
            bench(name, args.players or engines.get(name).min_players, args.count, args.runs)
        return
    import against  # (bench/against.py)

    with against.code(args.against) as code:
        for name in args.games:
            ratios = {}
            for label, where in (("this tree", None), (against.describe(args.against), code)):
                cmd = [sys.executable, __file__, name, "--games", str(args.count), "--runs", str(args.runs)]
                if args.players:
                    cmd += ["--players", str(args.players)]
                out = subprocess.run(cmd, env=against.env(where), capture_output=True, text=True, timeout=7200)
                line = out.stdout.strip().splitlines()[-1] if out.returncode == 0 else out.stderr.strip()[-300:]
                print(f"{label}: {line}", flush=True)
                ratios[label] = float(line.rsplit("ratio ", 1)[1].rstrip("x")) if out.returncode == 0 else None


if __name__ == "__main__":
    main()
