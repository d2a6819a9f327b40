"""`peerboard selfplay`: random players in one process, a results table, signed logs."""
from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from engines import Game
from node.storage import LogFile
from protocol.builder import LogBuilder
from client.progress import Progress


@dataclass
class GameRecord:
    winners: list[int]
    scores: list[int]
    moves: int  # actions taken by the seats (chance outcomes not counted)
    state: Any
    log_path: Path | None = None


@dataclass
class Tally:
    seats: int
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    games: int = 0
    moves: int = 0

    def add(self, record: GameRecord) -> None:
        if not self.wins:
            self.wins = [0] * self.seats
        self.games += 1
        self.moves += record.moves
        if not record.winners:
            self.draws += 1
        for w in record.winners:
            self.wins[w] += 1

    def table(self) -> str:
        rows = [f"{'seat':<8}{'wins':>8}{'share':>9}"]
        for seat, n in enumerate(self.wins):
            rows.append(f"{seat:<8}{n:>8}{n / self.games:>9.1%}")
        rows.append(f"{'draws':<8}{self.draws:>8}{self.draws / self.games:>9.1%}")
        rows.append(f"games {self.games}, average length {self.moves / self.games:.1f} moves")
        return "\n".join(rows)


def play_one(game: Game, players: int, options: Mapping[str, Any], rng: random.Random,
             save_to: Path | None) -> GameRecord:
    """One game between random players, as a signed log written by every seat in turn
    (reveals for fair chance, secret choices, the audit); saved to `save_to` if given.

    The seats' secrets and choices come from `rng`, so a seed replays the same game; the
    signing keys are fresh every time."""
    keys = [os.urandom(32) for _ in range(players)]
    masters = [rng.randbytes(32) for _ in range(players)]
    names = [f"random-{i}" for i in range(players)]
    log = LogBuilder.table(game, options, names, masters, keys, rng.randbytes(16), lambda: rng.randbytes(16))
    log.play(lambda state, seat, legal: legal[rng.randrange(len(legal))])
    if save_to is not None:
        with LogFile.create(save_to, log.chain.genesis) as f:
            f.append_many(log.entries)
    state = log.state
    moves = sum(len(e.body["actions"]) for e in log.entries if e.kind == "move")
    return GameRecord(game.winners(state), game.scores(state), moves, state, save_to)


def free_path(folder: Path, stem: str) -> Path:
    """folder/stem.pblog, or stem-2.pblog, -3 ... when that name is taken: never overwrite."""
    path = folder / f"{stem}.pblog"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}.pblog"
        n += 1
    return path


def run(game: Game, players: int, options: Mapping[str, Any], games: int, seed: int,
        save_dir: Path | None) -> tuple[Tally, list[GameRecord]]:
    tally = Tally(players)
    records = []
    progress = Progress(games, f"{game.name} selfplay")
    for n in range(games):
        rng = random.Random(f"selfplay:{seed}:{n}")
        path = None if save_dir is None else free_path(save_dir, f"{game.name}-seed{seed}-game{n + 1}")
        record = play_one(game, players, options, rng, path)
        tally.add(record)
        records.append(record)
        progress.update(n + 1)
    return tally, records
