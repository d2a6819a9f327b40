"""How strong and how fast the built-in bots are (issue 14's figures).

    python bench/bench_bots.py                       # every game, the default sizes
    python bench/bench_bots.py --games 40 --athos-games 4 --only aton asterix --jobs 2

Per game, two seats, seats rotated: mcts vs random, greedy vs random, mcts vs greedy, each
with the first player's win rate and its 95% (Wilson) interval; both sides get the same
budget per decision (`--budget`, default 100 playouts: only mcts spends it); with `--against
REV|DIR` each pairing is played again by that code's players, the same seeds, beside this
tree's (a child process importing that code). Then MCTS
playouts per second per game, and a tournament's games per second with --jobs 1 and
--jobs 2 (random players, so the figure is the table's own cost). Goals: mcts vs random
>= 90%, greedy vs random >= 70%, mcts vs greedy >= 60%.

Then what a program bot's decision costs (spec/bot-protocol.md): the time peerboard spends
in an `--exec` bot (examples/random_bot.py) per decision — the decision and the
notifications since the one before, message building included — in protocol version 2 and
version 1, against the floor measured in the same run and the same moments: one JSON line
round trip over a pipe (the same decide message, built and sent to a Python child that
parses it and writes one line back, beside each decision: before it and after it in turn,
so that neither always comes first). A decision's time holds its round trip: each counts
the lines it read from the program, and one that read none stops the bench (it would not be
timing a round trip). Goal: version 2 at most 1.5x the floor. MCTS playouts are counted per
CPU-second of the deciding process, in child processes, and with `--against REV|DIR`
beside another code's in the same run. Exits 1 when it measured nothing.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import against  # (bench/against.py)

from peerboard import engines  # noqa: E402
from peerboard.client.bots import tournament  # noqa: E402
from peerboard.client.bots.mcts import MctsBot  # noqa: E402
from peerboard.client.bots.program import ProgramBot  # noqa: E402
from peerboard.client.bots.players import RandomBot  # noqa: E402
from peerboard.client.bots.table import play_game  # noqa: E402
from peerboard.client.bots.sdk import Budget, Decision, notation_of  # noqa: E402
from peerboard.client.bots.stats import wilson  # noqa: E402
from peerboard.engines.playout import random_action  # noqa: E402

PAIRINGS = (("mcts", "random", 0.90), ("greedy", "random", 0.70), ("mcts", "greedy", 0.60))


def pairing(game: str, a: str, b: str, games: int, budget: Budget, jobs: int, seed: int) -> str:
    players = tournament.parse_players(f"{a},{b}", 2, budget=budget)
    matches = tournament.schedule(game, {}, players, games, seed)
    executor = tournament.InProcess() if jobs == 1 else ProcessPoolExecutor(max_workers=jobs)
    started = time.perf_counter()
    try:
        outcomes = tournament.run(matches, executor, progress=False)
    finally:
        executor.shutdown()
    seconds = time.perf_counter() - started
    results = tournament.results_of(players, 2, outcomes)
    first = results.standings[0]
    low, high = wilson(first.wins, first.games)
    return (f"  {a:>6} vs {b:<6} {first.wins:>4}/{first.games:<4} wins {first.wins / first.games:>6.1%} "
            f"[{low:.1%}, {high:.1%}]  draws {first.draws:<3} {results.moves / results.games:6.1f} moves/game  "
            f"{seconds / games:6.2f} s/game" + (f"  ({results.unfinished} stopped unfinished)" if results.unfinished else ""))


def other_pairing(other: Path, game: str, a: str, b: str, games: int, args: argparse.Namespace) -> str:
    """The same pairing played by the code in `other` (a child importing it; this script,
    whose pairing it runs, is the same in both), with the same seed and budget."""
    found = subprocess.run([sys.executable, __file__, "--pairing-child", f"{game},{a},{b},{games}",
                            "--budget", args.budget, "--jobs", str(args.jobs), "--seed", str(args.seed)],
                           env=against.env(other), capture_output=True, text=True)
    if found.returncode != 0:
        return f"  {a:>6} vs {b:<6} not measured: {found.stderr.strip().splitlines()[-1:]}"
    return found.stdout.rstrip("\n")


def playout_figures(game_name: str, budget: int, positions: int, seed: int) -> dict:
    """MCTS playouts and the CPU seconds of this process they took (the decisions only), over
    positions from seeded random games (two seats), and a digest of the choices made."""
    game = engines.get(game_name)
    _warm_up(game)
    rng = random.Random(seed)
    bot = MctsBot(seed=seed, budget=Budget(playouts=budget))
    found = 0
    cpu = 0.0
    digest = hashlib.sha256()
    state = game.new_game(2)
    while found < positions:
        if game.is_terminal(state):
            state = game.new_game(2)
        seat = game.current(state)
        if seat >= 0 and not game.secret_choice(state):
            legal = tuple(game.legal_actions(state))
            if len(legal) > 1 and rng.random() < 0.2:
                view = game.view(state, seat)
                decision = Decision(game_name, game, seat, view, legal, notation_of(game, view, legal))
                started = time.process_time()
                choice = bot.decide(decision)
                cpu += time.process_time() - started
                digest.update(repr(choice).encode())
                found += 1
        state = game.apply(state, random_action(game, state, rng))
    return {"playouts": bot.playouts, "cpu": cpu, "choices": digest.hexdigest()[:12]}


def _warm_up(game) -> None:
    """A few decisions not counted: what an engine builds once per process (its tables of
    actions, its memos) is not what a playout costs."""
    rng = random.Random("warm-up")
    bot = MctsBot(seed=0, budget=Budget(playouts=20))
    state = game.new_game(2)
    for _ in range(200):
        if game.is_terminal(state):
            break
        seat = game.current(state)
        if seat >= 0 and not game.secret_choice(state):
            legal = tuple(game.legal_actions(state))
            if len(legal) > 1 and rng.random() < 0.2:
                view = game.view(state, seat)
                bot.decide(Decision(game.name, game, seat, view, legal, notation_of(game, view, legal)))
        state = game.apply(state, random_action(game, state, rng))


def _child_figures(game_name: str, budget: int, positions: int, seed: int, code) -> dict:
    """`playout_figures` in a fresh child process importing the code at `code` (None: this tree)."""
    out = subprocess.run([sys.executable, __file__, "--playouts-child", game_name, "--budget", str(budget),
                          "--positions", str(positions), "--seed", str(seed)],
                         env=against.env(code), capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        raise SystemExit(f"the playouts child failed ({game_name}):\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def playouts_side_by_side(games: list[str], budget: int, seed: int, rounds: int, other: str | None) -> int:
    """MCTS playouts per CPU-second per game, this tree and (with `other`) the code there,
    each round in fresh child processes taking turns; the median of the rounds' ratios."""
    measured = 0
    with against.code(other) as code:
        name = against.describe(other)
        print(f"MCTS playouts per CPU-second (budget {budget} per position, bench positions of seed {seed}; "
              f"CPU time of the deciding process, {rounds} round(s), child processes taking turns"
              + (f"; against {name})" if other else ")"))
        for game in games:
            positions = 10 if game != "athos" else 3
            mine: list[float] = []
            theirs: list[float] = []
            choices = set()
            for _ in range(rounds):
                here = _child_figures(game, budget, positions, seed, None)
                mine.append(here["playouts"] / here["cpu"])
                if code is not None:
                    there = _child_figures(game, budget, positions, seed, code)
                    theirs.append(there["playouts"] / there["cpu"])
                    choices.add(here["choices"] == there["choices"])
            line = (f"  {game:<8} {statistics.median(mine):8.0f} playouts/CPU-s "
                    f"({here['playouts']} playouts over {positions} positions)")
            if theirs:
                ratio = statistics.median(a / b for a, b in zip(mine, theirs))
                same = "the same choices" if choices == {True} else "other choices (the search itself changed)"
                line += f"; {name}: {statistics.median(theirs):8.0f}; ratio {ratio:.2f} ({same})"
            print(line, flush=True)
            measured += 1
    return measured


def throughput(game: str, games: int, jobs: int, seed: int) -> float:
    players = tournament.parse_players(None, engines.get(game).min_players)
    matches = tournament.schedule(game, {}, players, games, seed)
    executor = tournament.InProcess() if jobs == 1 else ProcessPoolExecutor(max_workers=jobs)
    started = time.perf_counter()
    try:
        tournament.run(matches, executor, progress=False)
    finally:
        executor.shutdown()
    return games / (time.perf_counter() - started)


ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'random_bot.py'}"
# the floor's child: read a line, parse it, answer one line (what any program must do at least)
ECHO = ("import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    print(json.dumps({'action': m['legal'][0]}), flush=True)\n")


class TimedProgram(ProgramBot):
    """A program bot that times what peerboard spends in it per decision: the decision and
    the notifications since the one before (the start, which starts the process, is left
    out: it is once a game, not per decision). Beside each decision it times the floor too,
    the same decide message sent to `echo` and one line read back, so both are measured in
    the same conditions (the game's own work in between, the same machine load): before
    the decision at even decisions, after it at odd ones, so that neither always comes
    first. Each timed decision also counts the lines it read from the program: a decision
    whose time holds no reply (none read) would not be a round trip, and is counted apart."""

    def __init__(self, command: str, echo: subprocess.Popen, seed: str, version: int = 2):
        super().__init__(command, seed=seed)
        self.protocols = (1, 2) if version == 2 else (1,)
        self.echo = echo
        self.spent = 0.0
        self.read = 0
        self.costs: list[float] = []
        self.floors: list[tuple[float, float]] = []  # (built and sent, sent)
        #: decisions whose time held no line read from the program
        self.without_reply = 0

    def _timed(self, fn, *args):
        started = time.perf_counter()
        try:
            return fn(*args)
        finally:
            self.spent += time.perf_counter() - started

    def _line(self, seconds: float, what: str) -> bytes:
        self.read += 1
        return super()._line(seconds, what)

    def _floor(self, decision) -> None:
        started = time.perf_counter()
        line = (json.dumps(self.decide_message(decision), separators=(",", ":")) + "\n").encode()
        built = time.perf_counter()
        self.echo.stdin.write(line)
        json.loads(self.echo.stdout.readline())
        done = time.perf_counter()
        self.floors.append((done - started, done - built))

    def decide(self, decision):
        first = len(self.costs) % 2 == 0
        if first:
            self._floor(decision)
        self.read = 0
        try:
            return self._timed(super().decide, decision)
        finally:
            self.costs.append(self.spent)
            self.without_reply += self.read == 0
            self.spent = 0.0
            if not first:
                self._floor(decision)

    def on_action(self, *args):
        return self._timed(super().on_action, *args)

    def on_end(self, *args):
        return self._timed(super().on_end, *args)


def exec_decisions(game_name: str, games: int, version: int, seed: int) -> tuple[float, float, float, int]:
    """(the median seconds a decision costs in the program bot, the median floor with the
    message built and without, decisions) over `games` games of examples/random_bot.py
    against the random player."""
    game = engines.get(game_name)
    costs: list[float] = []
    floors: list[tuple[float, float]] = []
    echo = subprocess.Popen([sys.executable, "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    try:
        for n in range(games):
            bot = TimedProgram(EXAMPLE, echo, seed=f"{seed}:{n}", version=version)
            played = play_game(game, {}, [bot, RandomBot(seed=n)], ["exec", "random"], random.Random(f"{seed}:{n}"))
            if played.faults:
                raise SystemExit(f"the example bot failed: {played.faults[0]}")
            costs += bot.costs[1:]  # the first decision of a game waits for the program to be warm
            floors += bot.floors[1:]
            if bot.without_reply:
                raise SystemExit(f"{bot.without_reply} timed decisions read no reply: the bench times no round trip")
    finally:
        echo.stdin.close()
        echo.wait()
    if not costs:
        return 0.0, 0.0, 0.0, 0
    return (statistics.median(costs), statistics.median(f for f, _ in floors),
            statistics.median(f for _, f in floors), len(costs))


def exec_cost(game_name: str, games: int, seed: int) -> bool:
    two, floor2, bare2, n2 = exec_decisions(game_name, games, 2, seed)
    one, floor1, bare1, n1 = exec_decisions(game_name, games, 1, seed)
    print(f"program bot ({game_name}, examples/random_bot.py, {games} games against random; medians):")
    print("  floor: the same decide message built (its view as JSON) and sent to a Python child that parses it")
    print("  and writes one line back, beside each decision (before it and after it in turn); bare: the round trip")
    print("  alone, the line built; every timed decision read the program's reply (a round trip)")
    for version, cost, floor, bare, n in ((2, two, floor2, bare2, n2), (1, one, floor1, bare1, n1)):
        print(f"  protocol {version}: {cost * 1e6:6.0f} us a decision (with the notifications since the one before);"
              f" floor {floor * 1e6:5.0f} us: {cost / floor:5.2f} x; bare {bare * 1e6:5.0f} us: {cost / bare:5.2f} x"
              f"  ({n} decisions)" + ("; goal <= 1.5 x the floor" if version == 2 else ""))
    return n1 > 0 and n2 > 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="games per pairing (Aton, Asterix)")
    ap.add_argument("--athos-games", type=int, default=40, help="games per pairing for Athos")
    ap.add_argument("--budget", default="100", help="playouts (or seconds: 0.2s) per decision, both sides")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--only", nargs="*", default=["aton", "asterix", "athos"])
    ap.add_argument("--pairings", nargs="*", default=[f"{a},{b}" for a, b, _ in PAIRINGS])
    ap.add_argument("--exec-games", type=int, default=6, help="games for the program bot's cost (0: skip it)")
    ap.add_argument("--no-playouts", action="store_true", help="skip MCTS playouts and the tournament throughput")
    ap.add_argument("--against", metavar="REV|DIR",
                    help="also measure the code at this git revision or checkout (e.g. main): its players in the "
                         "same pairings with the same seeds, and its playouts")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the playout measurement (default 3)")
    ap.add_argument("--playouts-only", action="store_true", help="only the MCTS playouts per CPU-second")
    ap.add_argument("--playouts-child", metavar="GAME", help=argparse.SUPPRESS)
    ap.add_argument("--pairing-child", metavar="GAME,A,B,N", help=argparse.SUPPRESS)
    ap.add_argument("--positions", type=int, default=10, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.playouts_child:
        print(json.dumps(playout_figures(args.playouts_child, int(args.budget), args.positions, args.seed)))
        return
    if args.pairing_child:
        game, a, b, n = args.pairing_child.split(",")
        print(pairing(game, a, b, int(n), Budget.parse(args.budget), args.jobs, args.seed))
        return
    if args.playouts_only:
        playouts_side_by_side(args.only, 200, args.seed, args.rounds, args.against)
        return
    measured = 0
    budget = Budget.parse(args.budget)
    print(f"bots: the same budget per decision for both sides: {budget} (only mcts spends it); "
          f"--jobs {args.jobs}; seed {args.seed}"
          + (f"; each pairing played by this tree, then by {against.describe(args.against)} (the same seeds)"
             if args.against else ""))
    with against.code(args.against) as other:
        for game in args.only:
            n = args.athos_games if game == "athos" else args.games
            print(f"{game}: {n} games per pairing, seats rotated")
            for text in args.pairings:
                a, b = text.split(",")
                print(pairing(game, a, b, n, budget, args.jobs, args.seed)
                      + ("  this tree" if other is not None else ""), flush=True)
                if other is not None:
                    print(other_pairing(other, game, a, b, n, args) + f"  {against.describe(args.against)}", flush=True)
                measured += 1
    if not args.no_playouts:
        measured += playouts_side_by_side(args.only, 200, args.seed, args.rounds, args.against)
        one, two = throughput("aton", 40, 1, args.seed), throughput("aton", 40, 2, args.seed)
        print(f"tournament, aton, random players, 40 games: --jobs 1 {one:.1f} games/s, --jobs 2 {two:.1f} games/s "
              f"(ratio {two / one:.2f})")
    if args.exec_games:
        measured += exec_cost("aton", args.exec_games, args.seed)
    if not measured:
        print("measured nothing", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
