"""The tables at which the simulated-network tests play whole games: every registered game,
picked up by its name (spec/engine-contract.md, "How an engine is written": nothing else
names a new game), at its fewest seats, its most, and one count between.

What is written here of a game only tunes it: `SHORT` the options that keep its whole games
short, `LONG_GAMES` the games whose random games run to thousands of entries (the long set
plays fewer of them). A game named nowhere here plays its defaults.
"""
from __future__ import annotations

from typing import Callable

from peerboard import engines

#: options that keep a whole game short enough for a test, by seats
SHORT: dict[str, Callable[[int], dict]] = {
    "asterix": lambda seats: {"max_rounds": 3 if seats == 2 else 2 if seats <= 5 else 1},
}
#: games whose random games run to thousands of entries
LONG_GAMES = frozenset({"athos"})


def seat_counts(name: str) -> list[int]:
    """The fewest seats, the most, and the count halfway between (each once)."""
    game = engines.get(name)
    low, high = game.min_players, game.max_players
    return sorted({low, (low + high) // 2, high})


def tables() -> list[tuple[str, int, dict]]:
    """(game, seats, options) for every game registered now, at each of its `seat_counts`."""
    return [(name, seats, SHORT[name](seats) if name in SHORT else {})
            for name in engines.names() for seats in seat_counts(name)]


def quick_tables() -> list[tuple[str, int, dict]]:
    """The tables of the games not in `LONG_GAMES`, but for each game's most seats (unless it
    has one count only): the faulty-network tests play each with several seeds."""
    quick = []
    for name, seats, options in tables():
        counts = seat_counts(name)
        if name not in LONG_GAMES and (seats < counts[-1] or len(counts) == 1):
            quick.append((name, seats, options))
    return quick
