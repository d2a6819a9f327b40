"""Perft for games: how many lines of play, and how many distinct positions, lie a few actions
deep from fixed positions of every registered game and player count (as python-chess counts
its move generator's paths from fixed positions against numbers nobody can fake).

From a position, perft(d) is the number of lines of d actions: at a seat's decision each
legal action is a line, at a chance node each outcome (`legal_actions` there: its odds do
not count here); a line that reaches the end stops there and counts at no depth after.
Beside it, the distinct positions at each depth, by `state_hash` (of the public record: in
a game with hidden parts, positions that differ only in what is hidden count once).

The positions of a game at each player count, its default options: its start, and the
tenth decision by a seat of a seeded random playout (the actions that lead there are
stored as text, so the position stays the same while the rules do).
The depth is the greatest, up to `MOST_DEPTH`, whose lines number at most `MOST_LINES`:
the counts take seconds to check.

The golden counts are data, one file a game: tests/engines/perft/NAME.json. A change in a
count is a change of the rules, and shows as a diff of that file. They are written only on
purpose: `python tests/support/perft.py --write [GAME ...]` (without --write it only says
what differs); tests/engines/test_perft.py checks them.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # run as a script: `support` is found from tests/

from peerboard import engines  # noqa: E402
from peerboard.engines import TERMINAL  # noqa: E402
from peerboard.engines.playout import random_action  # noqa: E402

FOLDER = ROOT / "tests" / "engines" / "perft"
MOST_DEPTH = 4
MOST_LINES = 4000
#: the seat decisions the second position of each count is played to
DECISIONS = 10


class TooMany(Exception):
    """More lines at the deepest level than asked for."""


def perft(game: Any, state: Any, depth: int, most: int | None = None) -> tuple[list[int], list[int]]:
    """(lines at each depth 0..depth, distinct positions at each depth by state hash);
    TooMany once the deepest level passes `most` lines."""
    lines = [0] * (depth + 1)
    seen: list[set[bytes]] = [set() for _ in range(depth + 1)]

    def walk(state: Any, level: int) -> None:
        lines[level] += 1
        if level == depth and most is not None and lines[level] > most:
            raise TooMany
        seen[level].add(game.state_hash(state))
        if level == depth or game.current(state) == TERMINAL:
            return
        for action in game.legal_actions(state):
            walk(game.apply(state, action), level + 1)

    walk(state, 0)
    return lines, [len(s) for s in seen]


def deepest(game: Any, state: Any) -> int:
    """The greatest depth up to MOST_DEPTH whose lines number at most MOST_LINES (at least 1)."""
    depth = 1
    while depth < MOST_DEPTH:
        try:
            perft(game, state, depth + 1, MOST_LINES)
        except TooMany:
            break
        depth += 1
    return depth


def played_to_decisions(game: Any, players: int, decisions: int, seed: str) -> list[str]:
    """The actions, as text, of a seeded random playout that stops at its `decisions`-th
    decision by a seat, before it is made (or at the end)."""
    rng = random.Random(seed)
    state, texts, made = game.new_game(players), [], 0
    while game.current(state) != TERMINAL:
        if game.current(state) >= 0:
            made += 1
            if made == decisions:
                break
        action = random_action(game, state, rng)
        texts.append(game.format_action(state, action))
        state = game.apply(state, action)
    return texts


def replay(game: Any, players: int, options: dict, texts: list[str]) -> Any:
    """The position the stored actions lead to from the start."""
    state = game.new_game(players, options)
    for text in texts:
        state = game.apply(state, game.parse_action(state, text))
    return state


def positions(name: str) -> list[dict]:
    """The fixed positions of a game: every player count, its start and its playout."""
    game = engines.get(name)
    found = []
    for players in range(game.min_players, game.max_players + 1):
        found.append({"players": players, "options": {}, "from": "the start", "actions": []})
        texts = played_to_decisions(game, players, DECISIONS, f"perft {name} {players}")
        found.append({"players": players, "options": {}, "from": f"a random playout's decision {DECISIONS}",
                      "actions": texts})
    return found


def counted(name: str) -> list[dict]:
    """Every position of the game with its depth and counts, as the file stores them."""
    game = engines.get(name)
    out = []
    for position in positions(name):
        state = replay(game, position["players"], position["options"], position["actions"])
        depth = deepest(game, state)
        lines, states = perft(game, state, depth)
        out.append({**position, "depth": depth, "lines": lines, "states": states})
    return out


def path(name: str, folder: Path = FOLDER) -> Path:
    return folder / f"{name}.json"


def stored(name: str, folder: Path = FOLDER) -> dict:
    return json.loads(path(name, folder).read_text())


def document(name: str) -> dict:
    game = engines.get(name)
    return {"game": name, "version": game.version,
            "about": "perft: lines of play and distinct positions by depth (tests/support/perft.py)",
            "positions": counted(name)}


def text_of(doc: dict) -> str:
    """The file's JSON, one position's counts a line each, so that a changed count is a
    one-line diff."""
    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    positions = ",\n".join(
        "  {" + f'"players": {p["players"]}, "options": {one(p["options"])}, "from": {one(p["from"])},\n'
        f'   "depth": {p["depth"]}, "lines": {one(p["lines"])}, "states": {one(p["states"])},\n'
        f'   "actions": {one(p["actions"])}' + "}" for p in doc["positions"])
    return (f'{{"game": {one(doc["game"])}, "version": {one(doc["version"])},\n "about": {one(doc["about"])},\n'
            f' "positions": [\n{positions}\n ]\n}}\n')


def write(name: str, folder: Path = FOLDER) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    doc = document(name)
    assert json.loads(text_of(doc)) == doc  # (the hand-laid JSON reads back as the document)
    path(name, folder).write_text(text_of(doc))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help="the games (default: every registered game)")
    ap.add_argument("--write", action="store_true", help="write the counts as golden (a rules change, on purpose)")
    args = ap.parse_args()
    differ = 0
    for name in args.games or engines.names():
        if args.write:
            write(name)
            print(f"{name}: wrote {path(name).relative_to(ROOT)}")
            continue
        now = document(name)
        was = stored(name) if path(name).exists() else None
        same = was is not None and was["positions"] == now["positions"]
        differ += not same
        print(f"{name}: {'as stored' if same else 'differs from ' + str(path(name).relative_to(ROOT)) if was else 'not stored'}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
