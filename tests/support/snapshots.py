"""Board pictures at fixed positions, stored in tests/support/snapshots/ and compared exactly.

Each snapshot is a position built by play (or, for Athos, by the rule tests' position
builder) and the seat it is drawn for. `NAME.txt` is `render_text`; `NAME.styles.txt`
lists `render_styled`'s fragments one a line as `style<TAB>text` (newlines written `\\n`),
so a changed style name shows up as well. `python tests/support/snapshots.py` writes them again
after an intended change; tests/engines/test_snapshots.py compares.

Every registered game has snapshots without being named here: a game `CASES` does not name
gets two, `GAME-start` (the start at its fewest seats, as seat 0 sees it) and `GAME-played`
(after 40 seeded random actions, as everyone sees it); `cases()` gives them all. A game may
add positions of its own to `CASES`.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # run as a script: `support` is found from tests/

from peerboard import engines  # noqa: E402
from peerboard.engines.playout import random_action  # noqa: E402

SNAPSHOTS = ROOT / "tests" / "support" / "snapshots"


def _play(game: Any, state: Any, *texts: str) -> Any:
    for text in texts:
        state = game.apply(state, game.parse_action(state, text))
    return state


def _random(name: str, players: int, actions: int, seed: str, options: dict | None = None) -> Any:
    game = engines.get(name)
    rng = random.Random(seed)
    state = game.new_game(players, options)
    for _ in range(actions):
        state = game.apply(state, random_action(game, state, rng))
    return state


def athos_mid_move() -> Any:
    from support.athos_positions import position

    state = position(
        monks={0: ["e5", "k3", "summit"], 1: ["e7", "D", "D"]},
        blocking=["e6", "f5", "g7", "a1", "c9"], open_tiles=["e8", "b4", "k5"],
        fixed=["c9"], arrivals=(0,), pieces=(1, 2), last_spent=(5, 6), round=4,
    )
    return _play(engines.get("athos"), state, "e5-e7")  # two monks share e7 now


def athos_teams_drop() -> Any:
    from support.athos_positions import position

    state = position(
        4, {"teams": True},
        monks={0: ["A", "A", "a3"], 1: ["g2", "summit", "summit"], 2: ["B", "B", "B"], 3: ["h9", "h10", "E"]},
        blocking=["b2", "c3", "d4", "e5", "g3"], open_tiles=["a2", "f1"], fixed=["f1"],
        arrivals=(1, 1), phase="athos", pool=0, actor=1, round=9,
    )
    return _play(engines.get("athos"), state, "lift b2")


def athos_over() -> Any:
    from support.athos_positions import finish_turn, position

    state = position(monks={0: ["k1", "summit", "summit"], 1: ["k7", "summit", "summit"]},
                     arrivals=(0, 1, 0, 1), blocking=["k4"], round=12)
    game = engines.get("athos")
    state = finish_turn(_play(game, state, "k1-summit"))
    return finish_turn(_play(game, state, "k7-k6", "k6-summit"))


def asterix_first_turn() -> Any:
    from support.asterix_positions import SCRIPT

    game = engines.get("asterix")
    return _play(game, game.new_game(2), *SCRIPT)


def asterix_crowded() -> Any:
    """Six pawns, five of them on d4: more than a square shows."""
    state = _random("asterix", 6, 60, "snapshot crowded")  # the layout
    rolls = ["d6 6"] + ["d6 2"] * 5
    places = ["village d4"] * 5 + ["village e5"]
    return _play(engines.get("asterix"), state, *rolls, *places, "roll 3 5")


def asterix_layout() -> Any:
    return _random("asterix", 3, 23, "snapshot layout")


def asterix_over() -> Any:
    state = _random("asterix", 3, 0, "snapshot over", {"max_rounds": 3})
    game = engines.get("asterix")
    rng = random.Random("snapshot over")
    while not game.is_terminal(state):
        state = game.apply(state, random_action(game, state, rng))
    return state


def aton_round(seat: int | None) -> Callable[[], Any]:
    def build() -> Any:
        game = engines.get("aton")
        state = _random("aton", 2, 90, "snapshot aton")
        return state if seat is None else game.view(state, seat)

    return build


def aton_over() -> Any:
    game = engines.get("aton")
    state = game.new_game(2, {"win_points": 12})
    rng = random.Random("snapshot aton over")
    while not game.is_terminal(state):
        state = game.apply(state, random_action(game, state, rng))
    return state


#: name -> (game, how the position is built, the seat it is drawn for)
CASES: dict[str, tuple[str, Callable[[], Any], int | None]] = {
    "athos-mid-move": ("athos", athos_mid_move, 0),
    "athos-teams-drop": ("athos", athos_teams_drop, None),
    "athos-over": ("athos", athos_over, 1),
    "asterix-first-turn": ("asterix", asterix_first_turn, 1),
    "asterix-crowded": ("asterix", asterix_crowded, None),
    "asterix-layout": ("asterix", asterix_layout, 0),
    "asterix-over": ("asterix", asterix_over, None),
    "aton-red": ("aton", aton_round(0), 0),
    "aton-public": ("aton", aton_round(None), None),
    "aton-over": ("aton", aton_over, None),
}


#: actions played at random before a game's generic `GAME-played` snapshot
PLAYED = 40


def _start(name: str) -> Callable[[], Any]:
    return lambda: engines.get(name).new_game(engines.get(name).min_players)


def _played(name: str) -> Callable[[], Any]:
    def build() -> Any:
        game = engines.get(name)
        rng = random.Random(f"snapshot {name} played")
        state = game.new_game(game.min_players)
        for _ in range(PLAYED):
            if game.is_terminal(state):
                break
            state = game.apply(state, random_action(game, state, rng))
        return state

    return build


def cases() -> dict[str, tuple[str, Callable[[], Any], int | None]]:
    """Every snapshot of every game registered now: `CASES`, and the generic two of each
    game that `CASES` does not name."""
    named = {game for game, _, _ in CASES.values()}
    found = dict(CASES)
    for name in engines.names():
        if name not in named:
            found[f"{name}-start"] = (name, _start(name), 0)
            found[f"{name}-played"] = (name, _played(name), None)
    return found


def pictures(name: str) -> tuple[str, str]:
    """(the plain text, the fragments one a line) of a snapshot, as drawn now."""
    game_name, build, seat = cases()[name]
    game = engines.get(game_name)
    state = build()
    fragments = game.render_styled(state, seat)
    styles = "".join(f"{style}\t{text}".replace("\n", "\\n") + "\n" for style, text in fragments)
    return game.render_text(state, seat) + "\n", styles


def main() -> None:
    write(cases())


def write(names) -> None:
    """Store the snapshots `names` as drawn now."""
    SNAPSHOTS.mkdir(exist_ok=True)
    for name in names:
        text, styles = pictures(name)
        (SNAPSHOTS / f"{name}.txt").write_text(text)
        (SNAPSHOTS / f"{name}.styles.txt").write_text(styles)
        print(f"{name}: {len(text.splitlines())} lines")


if __name__ == "__main__":
    main()


def differences(name: str) -> list[str]:
    """What differs between a snapshot as stored and as drawn now (empty when equal)."""
    import difflib

    text, styles = pictures(name)
    found = []
    for suffix, now in ((".txt", text), (".styles.txt", styles)):
        path = SNAPSHOTS / f"{name}{suffix}"
        stored = path.read_text() if path.exists() else ""
        if stored != now:
            diff = difflib.unified_diff(stored.splitlines(), now.splitlines(), f"stored {path.name}", "drawn now", lineterm="")
            found.append("\n".join(diff) + "\n(python tests/support/snapshots.py writes them again after an intended change"
                         + ("; this one is new: write it once, look at it, and commit it)" if not path.exists() else ")"))
    return found
