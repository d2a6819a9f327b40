"""Building Aton positions for the rule tests: boards by square name, rounds by hands."""
from __future__ import annotations

from dataclasses import replace

from peerboard import engines
from peerboard.engines.aton.notation import parse_square
from peerboard.engines.aton.state import State

GAME = engines.get("aton")
RED, BLUE = 0, 1


def board(**owners: str) -> tuple[int, ...]:
    """board(red="1.1 1.2", blue="2.5") -> the 48-square tuple."""
    cells = [-1] * 48
    for who, squares in owners.items():
        seat = {"red": RED, "blue": BLUE}[who]
        for name in squares.split():
            cells[parse_square(name)] = seat
    return tuple(cells)


def with_board(state: State, **owners: str) -> State:
    b = board(**owners)
    seats = tuple(
        replace(s, supply=29 - sum(1 for x in b if x == i)) for i, s in enumerate(state.seats)
    )
    return replace(state, board=b, seats=seats)


def play(state: State, *texts: str) -> State:
    """Apply actions written in the notation, as a player would type them."""
    for text in texts:
        state = GAME.apply(state, GAME.parse_action(state, text))
    return state


def deal(state: State, red: str, blue: str) -> State:
    """Draw these hands ("1 2 3 4") for red then blue, and keep both."""
    state = play(state, *(f"draw {c}" for c in red.split()), *(f"draw {c}" for c in blue.split()))
    while GAME.current(state) in (RED, BLUE) and state.phase == "exchange":
        state = play(state, "keep")
    return state


def new(**options) -> State:
    return GAME.new_game(2, options)


def to_actions(state: State, red: str, blue: str, **options_board) -> State:
    """A round dealt and assigned: red's and blue's cartouches as "c1 c2 c3 c4"."""
    state = deal(state, " ".join(sorted(red.split())), " ".join(sorted(blue.split())))
    return play(state, f"assign {red}", f"assign {blue}")
