"""`peerboard selfplay`: random players in one process, a results table, signed logs."""
from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from engines import CHANCE, Game
from engines.playout import random_action
from node.storage import LogFile
from protocol.builder import LogBuilder
from protocol.identity import Identity
from protocol.records import Genesis, Seat, sign_genesis
from client.progress import Progress


@dataclass
class GameRecord:
    winners: list[int]
    scores: list[int]
    actions: int
    state: Any
    log_path: Path | None = None


@dataclass
class Tally:
    seats: int
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    games: int = 0
    actions: int = 0

    def add(self, record: GameRecord) -> None:
        if not self.wins:
            self.wins = [0] * self.seats
        self.games += 1
        self.actions += record.actions
        if not record.winners:
            self.draws += 1
        for w in record.winners:
            self.wins[w] += 1

    def table(self) -> str:
        rows = [f"{'seat':<8}{'wins':>8}{'share':>9}"]
        for seat, n in enumerate(self.wins):
            rows.append(f"{seat:<8}{n:>8}{n / self.games:>9.1%}")
        rows.append(f"{'draws':<8}{self.draws:>8}{self.draws / self.games:>9.1%}")
        rows.append(f"games {self.games}, average length {self.actions / self.games:.1f} actions")
        return "\n".join(rows)


def play_one(game: Game, players: int, options: Mapping[str, Any], rng: random.Random,
             save_to: Path | None) -> GameRecord:
    """One random game; with `save_to`, also a signed log of it in that file."""
    if save_to is None:
        state = game.new_game(players, options)
        actions = 0
        while not game.is_terminal(state):
            state = game.apply(state, random_action(game, state, rng))
            actions += 1
        return GameRecord(game.winners(state), game.scores(state), actions, state)
    identities = [Identity.from_seed(os.urandom(32)) for _ in range(players)]
    genesis = Genesis(
        game=game.name, engine=game.version, options=dict(options),
        seats=tuple(Seat(f"random-{i}", ident.public_key) for i, ident in enumerate(identities)),
        table=os.urandom(16),
    )
    log = LogBuilder(sign_genesis(genesis, identities), identities)
    actions = 0
    while not game.is_terminal(log.state):
        if game.current(log.state) == CHANCE:
            log.chance(rng.randbytes(32))
        else:
            log.move(random_action(game, log.state, rng))
        actions += 1
    log.sign_results()
    with LogFile.create(save_to, log.chain.genesis) as f:
        f.append_many(log.entries)
    state = log.state
    return GameRecord(game.winners(state), game.scores(state), actions, state, save_to)


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
