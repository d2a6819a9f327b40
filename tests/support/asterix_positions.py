"""Helpers for the Asterix tests: positions from diagrams, and the walk oracle.

The oracle enumerates every walk step by step from square coordinates, sharing no code
with engines/asterix/walks.py, so the two agreeing is evidence that both are right.
"""
from __future__ import annotations


from peerboard import engines
from peerboard.engines.asterix.board import (
    COHORT,
    KIND_NAMES,
    LAKE,
    SQUARE_NAMES,
    TILE_COUNTS,
    kind_at,
    square_index,
    tiles_from_diagram,
)
from peerboard.engines.asterix.state import MOVE, State

GAME = engines.get("asterix")

#: A whole game's start in the notation: the layout in a fixed order, then a first-player
#: roll, placements and a turn (the notation's hashed record and the first-turn snapshot).
SCRIPT = (
    [f"tile {kind}" for kind, count in zip(KIND_NAMES, TILE_COUNTS) for _ in range(count)]
    + ["d6 3", "d6 5", "village d4", "village e5", "roll 4 2", "die 4", "move c3", "move c4", "pick"]
)

#: Every square a clearing but a8, a mistletoe kept out of the way so that the game goes on
#: (with no scoring tile in reach and nothing carried, it would be over).
OPEN = """
G . . . . . . .
. . . . . . . .
. . . . . . . .
. . . # # . . .
. . . # # . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
"""


def sq(name: str) -> int:
    index = square_index(name)
    assert index is not None, name
    return index


def load(letters: str = "") -> tuple[int, int, int, int]:
    """A pile from letters: "BBG" is two boars and a mistletoe (B C M G as on the board)."""
    counts = [0, 0, 0, 0]
    for letter in letters:
        counts["BCMG".index(letter)] += 1
    return (counts[0], counts[1], counts[2], counts[3])


def position(
    diagram: str = OPEN,
    pawns: tuple[str, ...] = ("d4", "e4"),
    *,
    phase: str = MOVE,
    actor: int = 0,
    dice: tuple[int, ...] = (),
    potions: tuple[int, ...] | None = None,
    carried: tuple[str, ...] | None = None,
    piles: tuple[str, ...] | None = None,
    carry_rule: str = "either",
    max_rounds: int = 100,
    first: int = 0,
    round: int = 1,
) -> State:
    """A mid-game position: the layout done, the pawns placed, `actor` to act in `phase`."""
    n = len(pawns)
    return State(
        players=n,
        carry_rule=carry_rule,
        max_rounds=max_rounds,
        phase=phase,
        actor=actor,
        first=first,
        round=round,
        laid=60,
        tiles=tiles_from_diagram(diagram),
        contenders=(),
        rolls=(),
        pawns=tuple(sq(p) for p in pawns),
        potions=potions if potions is not None else (3,) * n,
        carried=tuple(load(c) for c in carried) if carried else (load(),) * n,
        piles=tuple(load(p) for p in piles) if piles else (load(),) * n,
        dice=dice,
    )


def landing_names(state: State) -> list[str]:
    """The squares the die being moved may land on, by name, in the engine's order."""
    return [a[1] for a in GAME.legal_actions(state) if a[0] == "move"]


def play(state: State, *texts: str) -> State:
    """Apply actions given in notation, as a player would type them."""
    for text in texts:
        state = GAME.apply(state, GAME.parse_action(state, text))
    return state


def oracle_landings(tiles: tuple[int, ...], start: int, steps: int, potions: int) -> set[str]:
    """Every walk of `steps` king steps from `start`, enumerated one by one; their ends.

    A step goes to one of the 8 neighbours; never into a lake; never into a cohort with
    no potion; a village square ends the walk on entering it.
    """
    ends: set[str] = set()

    def enterable(square: int) -> bool:
        kind = kind_at(tiles, square)
        return kind != LAKE and not (kind == COHORT and potions == 0)

    def walk(square: int, left: int) -> None:
        if left == 0:
            ends.add(SQUARE_NAMES[square])
            return
        file, rank = square % 8, square // 8
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                f, r = file + df, rank + dr
                if (df or dr) and 0 <= f < 8 and 0 <= r < 8:
                    nxt = 8 * r + f
                    if not enterable(nxt):
                        continue
                    if 3 <= f <= 4 and 3 <= r <= 4:  # the village: the walk stops here
                        ends.add(SQUARE_NAMES[nxt])
                    else:
                        walk(nxt, left - 1)

    walk(start, steps)
    return ends
