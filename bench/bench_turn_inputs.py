"""Inputs per turn, counted while whole turns are played in a real terminal (tmux):
`peerboard play GAME --bots 1` against a real bot process, by the mouse alone and by the
keyboard alone, each beside a baseline played in the same run.

    python bench/bench_turn_inputs.py [--turns N] [--games athos,aton]

An input is one click, one key, or one typed character. A decision is one thing a
person chooses: a monk's move is two (its from and its to), a tile one, a card one, a
square one. The goal is inputs per turn = decisions + 1 (the one send), never a
confirmation the screen did not announce.

- Athos, a turn of one monk's move and the most tiles a turn allows (8 with 2 players),
  the tiles in a random order:
  mouse: the monk, its target, each tile's hex, then a click on "F3 Send";
  its baseline: the way the client needed before (issue 24): the monk, its target, the
  `end move` button, the tiles in board order, the `end turn` button, "F3 Send".
  keyboard: the move typed (`B-a5`), each tile's hex typed alone (`c5`) and Enter, then
  Enter on the empty line; its baseline: every action typed whole (`end move`, `place c5`,
  `end turn`) and Enter, then Enter.
- Aton, a round of the local seat's turns (keep, the four cartouches, the removals and
  placements its cards give): mouse: each button, card and square clicked, "F3 Send" for
  each turn (Asterix the same: the die button, the squares, pick or leave); keyboard: a square typed alone (`1.5`), the rest in the notation, Enter after
  each, Enter to send; its baseline: every action typed whole (`place 1.5`).

The moves are chosen here from the game's log (read as it grows, the public view, the
engine's own rules) and the screen (Aton's hand); the positions clicked are those the
board's drawing gives (the same code the client draws with). Exits non-zero when no turn
was measured.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from peerboard import engines  # noqa: E402
from peerboard.client.tui.boards import BoardContext, board_for  # noqa: E402
from peerboard.client.tui.plan import Plan  # noqa: E402
from peerboard.client.tui.replay import ReplaySource  # noqa: E402
from peerboard.protocol.log import read_log  # noqa: E402

BOARD_TOP = 1  # the board's first line on the game screen (the situation line is above it)
DECIDING = ("Your turn:", "Your secret choice:", "Go on with your turn")  # (the last: a forced first action taken)


class Table:
    """One `peerboard play GAME --bots 1` in a tmux server of its own, its inputs counted."""

    def __init__(self, game: str, home: Path, client_path: str = ""):
        self.game_name = game
        self.game = engines.get(game)
        self.home = home
        self.socket = f"pb-inputs-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.inputs = 0
        path = f"PYTHONPATH={client_path} " if client_path else ""
        command = (f"cd {ROOT} && {path}PEERBOARD_HOME={home} PEERBOARD_BELL=off {sys.executable} -m peerboard.client.cli "
                   f"play {game} --bots 1 --name ann; sleep 60")
        self._tmux("new-session", "-d", "-s", "t", "-x", "120", "-y", "40", command)

    def _tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              timeout=10, check=True).stdout

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
        socket = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}" / self.socket
        socket.unlink(missing_ok=True)  # (a killed server leaves its socket file)

    # -- reading -------------------------------------------------------------------------------------

    def screen(self) -> str:
        return self._tmux("capture-pane", "-t", "t", "-p")

    def wait(self, condition, what: str, seconds: float = 60.0) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            screen = self.screen()
            if condition(screen):
                return screen
            time.sleep(0.05)
        raise RuntimeError(f"{what} did not come; the screen:\n{self.screen()}")

    def wait_for_decision(self, seconds: float = 60.0) -> str:
        """The screen once it asks the local seat to decide and the log agrees (a screen
        not yet redrawn after the seat's own send still shows its last turn)."""
        def ours(screen: str) -> bool:
            if "Game over" in screen:
                return True
            if not any(w in screen for w in DECIDING):
                return False
            state, _ = self.state()
            current = self.game.current(state)
            return current == 0 or (current >= 0 and 0 in self.game.secret_choice(state))

        return self.wait(ours, "our decision", seconds)

    def status(self) -> str:
        lines = self.screen().rstrip("\n").split("\n")
        return lines[-2] if len(lines) >= 2 else ""

    def log(self) -> ReplaySource:
        files = sorted((self.home / "games").glob("*.pblog"))
        return ReplaySource(read_log(files[-1].read_bytes()))

    def state(self):
        """The game's state now (the public view) and how many entries the log holds."""
        source = self.log()
        return source.states[-1], len(source.lines)

    # -- inputs --------------------------------------------------------------------------------------

    def click(self, x: int, y: int) -> None:
        """A left click at column x, row y (0-based), as the terminal reports it (SGR)."""
        self._tmux("send-keys", "-t", "t", "-l", f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m")
        self.inputs += 1
        time.sleep(0.08)

    def click_spot(self, spot: str, state) -> None:
        drawing = board_for(self.game_name).draw(BoardContext(state, 0, ("ann", "bot-1")))
        line, col = drawing.positions[spot]
        self.click(col, BOARD_TOP + line)

    def click_text(self, text: str, last_lines: int | None = None) -> None:
        """A click on `text` as a word: a button under the board (the lowest such word left
        of the side panel, above the status line), or a key's label on the last lines."""
        lines = self.screen().rstrip("\n").split("\n")
        if last_lines is None:
            rows, parts = range(len(lines) - 2), [line.split("│")[0] for line in lines]
        else:
            rows, parts = range(max(0, len(lines) - last_lines), len(lines)), lines
        word = re.compile(rf"(?<![\w.-]){re.escape(text)}(?![\w.-])")
        for y in reversed(rows):
            found = word.search(parts[y])
            if found:
                self.click(found.start() + 1, y)
                return
        raise RuntimeError(f"{text!r} is not on the screen:\n{self.screen()}")

    def send_click(self) -> None:
        self.click_text("F3 Send", last_lines=2)

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", "t", "-l", text)
        self.inputs += len(text)
        self.enter()

    def enter(self) -> None:
        self._tmux("send-keys", "-t", "t", "Enter")
        self.inputs += 1
        time.sleep(0.08)


def _sent(table: Table, entries: int, seconds: float = 30.0) -> None:
    """Wait until the log holds a new entry of ours (the turn went out)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        source = table.log()
        if any(e.seat == 0 and e.kind == "move" for e in source.contents.entries[entries:]):
            return  # (a commitment or a reveal of ours for the dice is not the turn)
        time.sleep(0.05)
    raise RuntimeError(f"the turn was not sent; the screen:\n{table.screen()}")


# -- Athos ------------------------------------------------------------------------------------------


def _athos_turn(game, state, rng: random.Random) -> tuple[tuple, list[tuple]]:
    """A monk's move and the most tiles the turn allows, chosen with the client's own plan."""
    plan = Plan(game, 0, "move", state, tuple(game.legal_actions(state)))
    # a move that leaves points (the usual turn: the move phase has to be ended, or not)
    goes = [a for a in plan.legal_now() if a[0] == "go" and ("end_move",) in plan.add(a).legal_now()]
    go = rng.choice(goes or [a for a in plan.legal_now() if a[0] == "go"])
    plan = plan.add(go).with_forced()
    tiles: list[tuple] = []
    for _ in range(40):
        if len(tiles) == 8:
            break
        places = [a for a in _offered_tiles(plan) if a not in tiles]
        if not places:
            break
        tile = rng.choice(places)
        try:
            plan = plan.add(tile).with_forced()
        except Exception:
            continue
        tiles.append(tile)
    return go, tiles


def _offered_tiles(plan: Plan) -> list[tuple]:
    """The tiles the plan may take now or in a later part of the turn."""
    for part in (plan, *plan.later_parts()):
        tiles = [a for a in part.choices() if a[0] == "place"]
        if tiles:
            return tiles
    return []


def _board_order(tiles: list[tuple]) -> list[tuple]:
    from peerboard.engines.athos.board import NODE_NAMES

    return sorted(tiles, key=lambda a: NODE_NAMES.index(a[1]))


def athos_turn(table: Table, way: str, rng: random.Random) -> tuple[int, int]:
    """One whole turn of seat 0, played `way`; (inputs, decisions)."""
    table.wait_for_decision()
    state, entries = table.state()
    game = table.game
    go, tiles = _athos_turn(game, state, rng)
    table.inputs = 0
    shuffled = rng.sample(tiles, len(tiles))
    if way == "mouse":
        table.click_spot(f"node:{go[1]}", state)
        table.click_spot(f"node:{go[2]}", state)
        for tile in shuffled:
            table.click_spot(f"node:{tile[1]}", state)
        table.send_click()
    elif way == "mouse, the old way":
        table.click_spot(f"node:{go[1]}", state)
        table.click_spot(f"node:{go[2]}", state)
        if ("end_move",) in Plan(game, 0, "move", state, tuple(game.legal_actions(state))).add(go).legal_now():
            table.wait(lambda s: "end move" in s, "the end move button")
            table.click_text("end move")
        for tile in _board_order(tiles):
            table.click_spot(f"node:{tile[1]}", state)
        if len(tiles) < 8:
            table.click_text("end turn")
        table.send_click()
    elif way == "keyboard":
        table.type(game.format_action(state, go))
        for tile in shuffled:
            table.type(tile[1])
        table.enter()
    else:  # the keyboard, the old way: every action typed whole, in board order
        table.type(game.format_action(state, go))
        table.type("end move")
        for tile in _board_order(tiles):
            table.type(f"place {tile[1]}")
        if len(tiles) < 8:
            table.type("end turn")
        table.enter()
    _sent(table, entries)
    source = table.log()
    sent = [line for line, e in zip(source.lines[entries:], source.contents.entries[entries:])
            if e.seat == 0 and e.kind == "move"][0].text
    placed = sorted(t for t in sent.split("; ") if t.startswith("place"))
    if placed != sorted(f"place {t[1]}" for t in tiles):
        raise RuntimeError(f"the tiles sent are not the tiles chosen: {sent!r} for {tiles}")
    return table.inputs, 2 + len(tiles)


# -- Aton -------------------------------------------------------------------------------------------

_CARD = re.compile(r"\[(\d)\]")


def _hand_positions(screen: str) -> list[tuple[int, int, int]]:
    """(value, x, y) of each card in the local seat's hand, read from the screen."""
    for y, line in enumerate(screen.split("\n")):
        if line.startswith("red   ann "):
            left = line.split("│")[0]
            hand_from = 16 + 14  # (the cartouche row's columns, client/games/aton/board.py)
            return [(int(m.group(1)), m.start() + 1, y) for m in _CARD.finditer(left) if m.start() >= hand_from]
    raise RuntimeError(f"no hand on the screen:\n{screen}")


def _shortest(plan: Plan, action: tuple) -> str:
    """The action's text, or its last word alone when no other choice ends so (`1.5` for
    `place 1.5`: the client takes a square named alone)."""
    text = plan.text_of(action)
    last = text.split()[-1]
    ending = [a for a in plan.choices() if plan.text_of(a).split()[-1] == last and " " in plan.text_of(a)]
    return last if ending == [action] else text


def turn(table: Table, way: str, rng: random.Random) -> tuple[int, int] | None:
    """The local seat's next turn, each decision a random legal one (Aton: keep, the
    cartouches, removals, placements; Asterix: the die to move first, each die's square,
    pick or leave, steal); (inputs, decisions), or None when the game is over."""
    screen = table.wait_for_decision()
    if "Game over" in screen:
        return None
    state, entries = table.state()
    game = table.game
    table.inputs = 0
    if "Your secret choice:" in screen:
        hand = _hand_positions(screen)
        picked = rng.sample(hand, 4)
        if way == "mouse":
            for value, _, _ in picked:  # (a card of a value picked shows used from the left:
                _, x, y = [c for c in hand if c[0] == value][-1]  # the last one stays to click)
                table.click(x, y)
            table.send_click()
        else:
            table.type("assign " + " ".join(str(v) for v, _, _ in picked))
            table.enter()
        _sent(table, entries)
        return table.inputs, 4
    plan = Plan(game, 0, "move", state, tuple(game.legal_actions(state))).with_forced()  # (as the client does)
    decisions = 0
    while plan.deciding:
        legal = plan.legal_now()
        action = ("keep",) if ("keep",) in legal else rng.choice(legal)
        if way == "mouse":
            table.wait(lambda s: not any(w in _last_lines(s) for w in ("Sent:", "Taken at once")), "the screen", 20)
            spots = board_for(table.game_name).spots(plan.preview, action)
            if spots is None:
                table.click_text(game.format_action(plan.preview, action))
            else:
                table.click_spot(spots[0], plan.preview)
        else:
            table.type(_shortest(plan, action) if way == "keyboard" else game.format_action(plan.preview, action))
        decisions += 1
        if os.environ.get("BENCH_DEBUG"):
            print("  chose", plan.text_of(action), file=sys.stderr)
        plan = plan.add(action).with_forced()
    if way == "mouse":
        table.send_click()
    else:
        table.enter()
    _sent(table, entries)
    return table.inputs, decisions


def _last_lines(screen: str) -> str:
    return "\n".join(screen.rstrip("\n").split("\n")[-2:])


# -- the run ----------------------------------------------------------------------------------------


def measure(game: str, way: str, turns: int, seed: int, client_path: str = "") -> list[tuple[int, int]]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="pb-inputs-") as home:
        table = Table(game, Path(home), client_path)
        try:
            counts: list[tuple[int, int]] = []
            for _ in range(turns):
                if game == "athos":
                    counts.append(athos_turn(table, way, rng))
                else:
                    got = turn(table, way, rng)
                    if got is None:
                        break
                    counts.append(got)
            return counts
        finally:
            table.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=2, help="turns measured per game and way (default 2)")
    parser.add_argument("--games", default="athos,aton,asterix")
    parser.add_argument("--ways", default="", help="only these ways (separated by ;), e.g. 'mouse;mouse, the old way'")
    parser.add_argument("--client-path", default="",
                        help="a directory holding another peerboard package to run as the client "
                             "(an older commit, for its figures: git archive COMMIT | tar -x -C DIR/peerboard)")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("tmux is not installed: the inputs are counted in a real terminal, nothing was measured", file=sys.stderr)
        return 1
    ways = {"athos": ("mouse", "mouse, the old way", "keyboard", "keyboard, the old way"),
            "aton": ("mouse", "keyboard", "keyboard, the old way"),
            "asterix": ("mouse", "keyboard", "keyboard, the old way")}
    measured = 0
    print(f"{'game':<8}{'way':<24}{'turns':>6}{'inputs':>8}{'decisions':>10}{'inputs/turn':>12}"
          f"{'goal/turn':>10}{'ratio':>7}")
    for game in args.games.split(","):
        for way in ways[game]:
            if args.ways and way not in args.ways.split(";"):
                continue
            try:
                counts = measure(game, way, args.turns, seed=len(way), client_path=args.client_path)
            except RuntimeError as exc:
                print(f"{game:<8}{way:<24} failed: {exc}", file=sys.stderr)
                continue
            if not counts:
                continue
            inputs = sum(c[0] for c in counts)
            decisions = sum(c[1] for c in counts)
            goal = decisions + len(counts)
            measured += 1
            print(f"{game:<8}{way:<24}{len(counts):>6}{inputs:>8}{decisions:>10}{inputs / len(counts):>12.1f}"
                  f"{goal / len(counts):>10.1f}{inputs / goal:>7.2f}", flush=True)
    print("goal: inputs per turn = decisions + 1 (ratio 1.00); an input is a click, a key or a typed character")
    return 0 if measured else 1


if __name__ == "__main__":
    sys.exit(main())
