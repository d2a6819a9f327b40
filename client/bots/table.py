"""One game in one process between bots, as a signed log every seat's node would have
written (protocol/log/builder.py): each seat's bot gets its Decisions with the seat's view
only, every accepted move, and the end."""
from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from peerboard.client.bots.guard import GuardedSeat
from peerboard.client.bots.sdk import Bot, Decision, notation_of
from peerboard.engines import Game
from peerboard.protocol.log import ENDS_TOGETHER, Entry, LogBuilder, MAX_NAME, REVEALS_TOGETHER, SignedGenesis

MAX_ENTRIES = 5_000_000  # a bound on any one game's log (Athos, played at random, is the longest)


@dataclass
class Played:
    """A finished game: the result, what went wrong, and its signed log."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    moves: int                     # actions by the seats (chance outcomes not counted)
    state: Any                     # the final state (full information)
    finished: bool = True          # False: stopped at `max_moves`, nobody won
    forfeits: tuple[int, ...] = ()
    faults: list[str] = field(default_factory=list)
    genesis: SignedGenesis | None = None
    entries: list[Entry] = field(default_factory=list)
    #: the seats whose bot failed before it chose a single move (a stand-in played them)
    never_played: tuple[int, ...] = ()
    #: the name each seat's bot gave itself, where it gave one (a program's hello)
    names: tuple[str, ...] = ()
    #: the sides that win or lose together (game.sides): each seat alone, or teams
    sides: tuple[tuple[int, ...], ...] = ()


def play_game(game: Game, options: Mapping[str, Any], bots: Sequence[Bot], labels: Sequence[str],
              rng: random.Random, time_limit: float | None = None, on_error: str = "random",
              report: Callable[[str], None] | None = None, max_moves: int | None = None) -> Played:
    """Play one whole game, bots[i] in seat i. The seats' secrets and chance come from
    `rng` (a seed replays the game); signing keys are fresh every time. With `max_moves`,
    a game whose seats have made that many moves (actions) without finishing stops there,
    unfinished: its log is the game so far, and nobody won."""
    players = len(bots)
    faults: list[str] = []

    def say(line: str) -> None:
        faults.append(line)
        if report is not None:
            report(line)

    keys = [os.urandom(32) for _ in range(players)]
    masters = [rng.randbytes(32) for _ in range(players)]
    names = [label[:MAX_NAME] for label in labels]
    # (a log of this version: each reveal round one `reveals` entry, spec/log-format.md)
    log = LogBuilder.table(game, options, names, masters, keys, rng.randbytes(16), lambda: rng.randbytes(16),
                           reveals=REVEALS_TOGETHER, ends=ENDS_TOGETHER)
    resolved = game.resolve_options(players, options)
    seats = [GuardedSeat(bot, i, labels[i], f"{rng.random()}", on_error, say) for i, bot in enumerate(bots)]
    try:
        for s in seats:
            s.start(game.name, players, resolved)

        def choose(state: Any, seat: int, legal: list) -> tuple:
            kind = log.ledger.entitled()[1]
            view = game.view(state, seat)
            legal = tuple(legal)
            decision = Decision(game.name, game, seat, view, legal, notation_of(game, view, legal), kind, time_limit)
            return seats[seat].decide(decision)

        moves = 0
        for _ in range(MAX_ENTRIES):
            if log.ledger.finished:
                break
            if max_moves is not None and moves >= max_moves and not game.is_terminal(log.state):
                break  # unfinished (a game that ended still gets its signed result)
            before = log.state
            entry = log.step(choose)
            if entry.kind == "move":
                public = game.view(before, None)
                actions = tuple(tuple(a) for a in entry.body["actions"])
                moves += len(actions)
                texts = tuple(game.format_action(public, a) for a in actions)
                for s in seats:
                    s.hook("on_action", entry.seat, actions, texts)
        else:
            raise RuntimeError(f"the game did not finish within {MAX_ENTRIES} entries")
        state = log.state
        finished = log.ledger.finished
        winners = tuple(game.winners(state)) if finished else ()
        scores = tuple(game.scores(state))
        if finished:
            for s in seats:
                s.hook("on_end", winners, scores)
    finally:
        for s in seats:
            s.close()
    forfeits = tuple(s.seat for s in seats if s.forfeited)
    never = tuple(s.seat for s in seats if s.played_none)
    names = tuple(str(getattr(bot, "program_name", "") or "") for bot in bots)
    return Played(winners, scores, moves, state, finished, forfeits, faults, log.ledger.genesis, log.entries,
                  never, names, tuple(tuple(side) for side in game.sides(state)))
