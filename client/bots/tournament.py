"""Tournaments: many games between bots, on any `concurrent.futures.Executor` (a local
process pool for `--jobs`, a Dask cluster's executor for `--scheduler`), with seats
rotated so that every player gets every seat equally often, and a results table with
error bars.

Everything a game needs travels in a `Match` and everything it gives back in an
`Outcome` (both pickle), so a game plays the same in this process, a pool's process or
another machine; the signed log comes back in the outcome and is written here.
"""
from __future__ import annotations

import os
import random
import shlex
import sys
import time
from concurrent.futures import Executor, Future, as_completed
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from peerboard import engines
from peerboard.client.bots.program import ProgramBot
from peerboard.client.bots.registry import bot_class, make_bot
from peerboard.client.bots.sdk import Bot, BotError, Budget
from peerboard.client.bots.stats import elo_interval, signed, wilson
from peerboard.client.bots.table import play_game
from peerboard.protocol.log import Entry, SignedGenesis

#: a tournament's games stop, unfinished, after this many moves. A game that never ends
#: (Athos has no round limit, and two players can each wait for the other for ever) would
#: otherwise hold its worker for good; the built-in players' longest games are far shorter
#: (random Athos players: a few thousand moves).
DEFAULT_MAX_MOVES = 20_000


@dataclass(frozen=True)
class Player:
    """One entrant: a built-in bot, a Bot class by import path, or a program (`exec`)."""

    label: str
    kind: str
    budget: Budget | None = None
    command: str | None = None

    def make(self, seed: str) -> Bot:
        if self.kind == "exec":
            return ProgramBot(self.command or "", seed=seed, budget=self.budget)
        return make_bot(self.kind, seed=seed, budget=self.budget)


def parse_players(text: str | None, seats: int, commands: Sequence[str] = (),
                  budget: Budget | None = None) -> list[Player]:
    """`--players`: a seat count (random players), or one entry per seat, comma-separated:
    a built-in name, `module.path:Class` or `exec` (the next `--exec` command; the last one
    again when there are more `exec` entries than commands), each optionally `@BUDGET`
    (`mcts@2000`, `mcts@0.5s`) over `budget`. BotError with a reason."""
    if text is None or text.strip().isdigit():
        count = seats if text is None else int(text)
        entries = ["random"] * count
    else:
        entries = [e.strip() for e in text.split(",")]
    players: list[Player] = []
    execs = 0
    for entry in entries:
        if not entry:
            raise BotError(f"--players {text!r} has an empty entry")
        kind, at, budget_text = entry.partition("@")
        own = budget
        if at:
            try:
                own = Budget.parse(budget_text)
            except ValueError as exc:
                raise BotError(f"{entry}: {exc}") from None
        command = None
        if kind == "exec":
            if not commands:
                raise BotError("an exec player needs --exec \"COMMAND\"")
            command = commands[min(execs, len(commands) - 1)]
            execs += 1
        else:
            bot_class(kind)  # an unknown name or a bad import path fails here, before any game
        players.append(Player(kind if command is None else exec_label(command), kind, own, command))
    labels = [p.label for p in players]
    for i, p in enumerate(players):
        n = labels[:i].count(p.label)
        if n:
            players[i] = Player(f"{p.label}#{n + 1}", p.kind, p.budget, p.command)
    return players


def exec_label(command: str) -> str:
    """A program's name in tables: its words with directories dropped, at most 34 characters."""
    words = " ".join(os.path.basename(w.rstrip("/")) or w for w in shlex.split(command))
    return "exec:" + (words if len(words) <= 34 else words[:33] + "…")


@dataclass(frozen=True)
class Match:
    """One game of a tournament: who sits where, and the seed that replays it."""

    game: str
    options: Mapping[str, Any]
    players: tuple[Player, ...]
    seating: tuple[int, ...]       # seating[seat] = index of the player in `players`
    index: int
    seed: int
    time_limit: float | None = None
    on_error: str = "random"
    max_moves: int | None = DEFAULT_MAX_MOVES


@dataclass
class Outcome:
    index: int
    seating: tuple[int, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    moves: int
    forfeits: tuple[int, ...]
    faults: list[str]
    genesis: SignedGenesis | None
    entries: list[Entry]
    state: Any
    finished: bool = True
    #: seats whose bot failed before it chose a single move: a stand-in played them all game
    never_played: tuple[int, ...] = ()
    #: the name each seat's bot gave itself ("" where none: a program's hello without one)
    names: tuple[str, ...] = ()
    #: the sides that win or lose together (game.sides): each seat alone, or teams
    sides: tuple[tuple[int, ...], ...] = ()

    def team_win(self) -> tuple[int, ...] | None:
        """The side that won as a team (several seats of one side), else None."""
        winners = tuple(sorted(self.result_winners()))
        return winners if len(winners) > 1 and winners in self.sides else None

    def result_words(self) -> str:
        """Who won for the results, in words: the forfeits named (the log's own winners
        are the board's, not the table's)."""
        if not self.finished:
            return "nobody: stopped unfinished at the move limit"
        won = ", ".join(str(w) for w in self.result_winners()) or "nobody"
        if not self.forfeits:
            return won
        board = ", ".join(str(w) for w in self.winners) or "nobody"
        who = ", ".join(str(f) for f in self.forfeits)
        return f"{won} (seat {who} forfeited; on the board: won by {board})"

    def result_winners(self) -> tuple[int, ...]:
        """The seats that won for the results table: a forfeiting seat never wins; when
        the game's winners all forfeited (or nobody won), the seats that did not forfeit
        share the win."""
        if not self.forfeits:
            return self.winners
        kept = tuple(w for w in self.winners if w not in self.forfeits)
        if kept:
            return kept
        return tuple(s for s in range(len(self.seating)) if s not in self.forfeits)


def play_match(match: Match) -> Outcome:
    """Play one match (in whatever process the executor runs it)."""
    game = engines.get(match.game)
    rng = random.Random(f"selfplay:{match.seed}:{match.index}")
    bots = [match.players[p].make(f"{match.seed}:{match.index}:{seat}") for seat, p in enumerate(match.seating)]
    labels = [match.players[p].label for p in match.seating]
    played = play_game(game, match.options, bots, labels, rng, match.time_limit, match.on_error,
                       max_moves=match.max_moves)
    return Outcome(match.index, match.seating, played.winners, played.scores, played.moves, played.forfeits,
                   played.faults, played.genesis, played.entries, played.state, played.finished,
                   played.never_played, played.names, played.sides)


def schedule(game: str, options: Mapping[str, Any], players: Sequence[Player], games: int, seed: int,
             time_limit: float | None = None, on_error: str = "random",
             max_moves: int | None = DEFAULT_MAX_MOVES) -> list[Match]:
    """`games` matches; game n seats player (seat + n) mod S in each seat, so over every S
    games each player sits once in every seat. A game still going after `max_moves`
    moves stops unfinished (None: no limit)."""
    seats = len(players)
    return [
        Match(game, dict(options), tuple(players), tuple((seat + n) % seats for seat in range(seats)),
              n, seed, time_limit, on_error, max_moves)
        for n in range(games)
    ]


class InProcess(Executor):
    """An Executor that runs each call at once in this process (`--jobs 1`)."""

    def submit(self, fn: Callable, /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


#: without a terminal, a progress line this often (a long tournament is not silent)
PROGRESS_SECONDS = 60.0


def run(matches: Sequence[Match], executor: Executor, done: Callable[[Outcome], None] | None = None,
        label: str = "", progress: bool | None = None) -> list[Outcome]:
    """Play every match on `executor`; `done(outcome)` as each one ends (in the order
    they finish); the outcomes in match order. By default a progress bar on a terminal,
    and without one a line on stdout every PROGRESS_SECONDS; progress=False: neither."""
    lines = progress is None and len(matches) > 1 and not sys.stdout.isatty()
    if progress is None:
        progress = len(matches) > 1 and sys.stderr.isatty() and sys.stdout.isatty()
    if isinstance(executor, InProcess):
        futures_iter: Iterable = (executor.submit(play_match, m) for m in matches)
    else:
        futures_iter = as_completed([executor.submit(play_match, m) for m in matches])
    outcomes: list[Outcome] = []
    started = time.monotonic()
    said = [started]

    def take(future: Future) -> None:
        outcome = future.result()
        outcomes.append(outcome)
        if done is not None:
            done(outcome)
        now = time.monotonic()
        if lines and now - said[0] >= PROGRESS_SECONDS and len(outcomes) < len(matches):
            said[0] = now
            print(f"{label or 'selfplay'}: {len(outcomes)} of {len(matches)} games done, "
                  f"{now - started:.0f} s", flush=True)

    if progress:
        from prompt_toolkit.shortcuts import ProgressBar

        with ProgressBar(title=label or None) as bar:
            for future in bar(futures_iter, total=len(matches), label="games"):
                take(future)
    else:
        for future in futures_iter:
            take(future)
    return sorted(outcomes, key=lambda o: o.index)


# -- the results table ---------------------------------------------------------------------


@dataclass
class Standing:
    player: Player
    games: int = 0
    wins: int = 0
    draws: int = 0      # shared wins and games nobody won (unfinished ones too)
    losses: int = 0
    faults: int = 0     # games in which its bot failed
    forfeits: int = 0
    #: games in which its bot failed before it chose a single move: a stand-in played the
    #: seat, so the game is not in its games, wins, draws or losses (a forfeit still is: a loss)
    stood_in: int = 0
    #: the names its bot gave itself (a program's hello), in the order first met
    names: list[str] = field(default_factory=list)
    team_wins: int = 0  # of its wins, won with its team

    @property
    def never_played(self) -> bool:
        """Every one of its games was played by a stand-in: it has no results of its own."""
        return self.stood_in > 0 and self.games == 0


@dataclass
class Results:
    players: Sequence[Player]
    seats: int
    standings: list[Standing] = field(default_factory=list)
    seat_wins: list[int] = field(default_factory=list)
    undecided: int = 0  # games with no sole winner
    unfinished: int = 0  # games stopped at the move limit (among the undecided)
    games: int = 0
    moves: int = 0
    #: games won by a team (several seats of one side), per side
    team_wins: dict[tuple[int, ...], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.standings = [Standing(p) for p in self.players]
        self.seat_wins = [0] * self.seats

    def add(self, outcome: Outcome) -> None:
        self.games += 1
        self.moves += outcome.moves
        self.unfinished += not outcome.finished
        winners = outcome.result_winners()
        team = outcome.team_win()
        if len(winners) == 1:
            self.seat_wins[winners[0]] += 1
        elif team is not None:
            self.team_wins[team] = self.team_wins.get(team, 0) + 1
        else:
            self.undecided += 1
        faulted = {int(line.split()[1]) for line in outcome.faults if line.startswith("seat ")}
        for seat, p in enumerate(outcome.seating):
            st = self.standings[p]
            name = outcome.names[seat] if seat < len(outcome.names) else ""
            if name and name not in st.names:
                st.names.append(name)
            st.faults += seat in faulted
            st.forfeits += seat in outcome.forfeits
            if seat in outcome.never_played and seat not in outcome.forfeits:
                st.stood_in += 1  # not its game: it never chose a move in it
                continue
            st.games += 1
            if seat in winners and (len(winners) == 1 or team is not None):
                st.wins += 1
                st.team_wins += team is not None
            elif seat in winners or not winners:
                st.draws += 1
            else:
                st.losses += 1

    def failed_players(self) -> list[Standing]:
        """The players whose bot never chose a move: it could not be started, or failed
        before its first decision, in every game (a tournament that says so exits non-zero)."""
        return [s for s in self.standings if s.never_played]

    def table(self) -> str:
        width = max([len("player")] + [len(s.player.label) for s in self.standings]) + 2
        rows = [f"{'player':<{width}}{'games':>6}{'wins':>6}{'draws':>6}{'losses':>7}{'win rate':>10}"
                f"{'95% interval':>18}  faults"]
        for s in self.standings:
            if s.games:
                low, high = wilson(s.wins, s.games)
                rate, interval = f"{s.wins / s.games:.1%}", f"[{low:.1%}, {high:.1%}]"
            else:
                rate, interval = "-", "-"
            notes = [f"{s.forfeits} forfeit"] if s.forfeits else []
            if s.stood_in:
                notes.append(f"{s.stood_in} never played")
            faults = f"{s.faults}" + (f" ({', '.join(notes)})" if notes else "")
            rows.append(f"{s.player.label:<{width}}{s.games:>6}{s.wins:>6}{s.draws:>6}{s.losses:>7}{rate:>10}"
                        f"{interval:>18}  {faults}")
        if len(self.standings) == 2 and self.seats == 2 and all(s.games for s in self.standings):
            a, b = self.standings
            diff, low, high = elo_interval(a.wins, a.draws, a.losses)
            rows.append(f"Elo difference, {a.player.label} - {b.player.label}: {signed(diff)} "
                        f"[{signed(low)}, {signed(high)}] (95%)")
        for s in self.standings:
            if s.names:
                rows.append(f"{s.player.label} calls itself {', '.join(map(repr, s.names))}")
            if s.never_played:
                rows.append(f"{s.player.label} never chose a move: its bot failed before its first decision in "
                            f"every game (a stand-in played its seat), so it has no results")
            elif s.stood_in:
                rows.append(f"{s.player.label}: {s.stood_in} game(s) not counted, its bot having failed before "
                            f"its first decision in them")
            if s.team_wins:
                rows.append(f"{s.player.label}: {s.team_wins} of its wins with its team")
        rows.append(f"{'seat':<8}{'wins':>8}{'share':>9}")
        for seat, n in enumerate(self.seat_wins):
            rows.append(f"{seat:<8}{n:>8}{n / self.games:>9.1%}")
        for side in sorted(self.team_wins):
            n = self.team_wins[side]
            team = "+".join(map(str, side))
            rows.append(f"{'team ' + team:<8}{n:>8}{n / self.games:>9.1%}")
        rows.append(f"{'draws':<8}{self.undecided:>8}{self.undecided / self.games:>9.1%}")
        if self.unfinished:
            rows.append(f"unfinished: {self.unfinished} of the draws stopped at the move limit, nobody "
                        f"having won (the logs end there)")
        rows.append(f"games {self.games}, average length {self.moves / self.games:.1f} moves")
        return "\n".join(rows)


def results_of(players: Sequence[Player], seats: int, outcomes: Iterable[Outcome]) -> Results:
    results = Results(players, seats)
    for o in outcomes:
        results.add(o)
    return results
