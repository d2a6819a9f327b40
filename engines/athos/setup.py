"""Setting up a game of Athos: the options, the start areas by player count, the first state."""
from __future__ import annotations

from typing import Any, Mapping, NoReturn

from peerboard.engines.athos.board import COLOURS, HEX_COUNT, START_AREAS, START_NAMES
from peerboard.engines.athos.state import HANDICAP, MOVE, NO_TILE, Setup, State
from peerboard.engines.contract import OptionError
from peerboard.engines.options import Option, boolean, one_of, whole_text

MONKS_PER_PLAYER = 3
PIECES_PER_PLAYER = 2
POINTS_PER_TURN = 6
TILES_PER_COLOUR = 16
#: players -> (tiles per turn, at most this many of one colour)
PLACING_LIMITS = {2: (8, 2), 3: (5, 2), 4: (4, 1)}
#: the most tiles one seat may get as a handicap
MAX_HANDICAP = 8


def _handicap_check(value: Any) -> str | None:
    try:
        _handicap_items(value)
    except ValueError as exc:
        return str(exc)
    return None


def _handicap_items(value: Any) -> list[tuple[int, int]]:
    """[(seat, n)] ascending from {seat: n}; a seat is an int or its digits as text (a
    genesis's map keys are text: "1", never " 1", "01" or "+1" — engines.options.whole_text)."""
    if not isinstance(value, Mapping):
        return _bad("must be a mapping of seat to a number of tiles, like {\"1\": 2}")
    items: dict[int, int] = {}
    for key, n in value.items():
        seat = whole_text(key) if isinstance(key, str) else key
        if isinstance(seat, bool) or not isinstance(seat, int):
            return _bad(f"has the seat {key!r}; a seat is a whole number written in the digits 0-9 "
                        f"without sign, space or leading zero, like \"1\"")
        if seat < 0:
            return _bad(f"has the seat {key!r}; seats count from 0")
        if seat in items:
            return _bad(f"names seat {seat} twice")
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_HANDICAP:
            return _bad(f"gives seat {seat} {n!r} tiles; allowed are 0 to {MAX_HANDICAP}")
        items[seat] = n
    return sorted(items.items())


def _bad(reason: str) -> NoReturn:
    raise ValueError(reason)


OPTIONS: dict[str, Option] = {
    "teams": Option(False, boolean, "4 players in two teams, A+B against D+E, seats alternating."),
    "handicap": Option(
        {},
        _handicap_check,
        "{seat: n}: before the first turn that seat places n tiles (either side up).",
    ),
    "athos_on_empty": Option(
        False, boolean, "An Athos piece may also go on a hex without a tile; no tile goes there."
    ),
    "three_player_areas": Option(
        "ACE",
        one_of("ACE", "ACD"),
        "Start areas with 3 players: ACE (the French text) or ACD (the English text).",
    ),
    "bonus_must_be_spent": Option(
        False, boolean, "Bonus points from the summit must be spent (as far as possible)."
    ),
}


def check_options(players: int, options: Mapping[str, Any]) -> None:
    """The checks that need the player count; OptionError with one sentence."""
    if options["teams"] and players != 4:
        raise OptionError(f"Athos option teams=True needs 4 players, not {players}.")
    for seat, _ in _handicap_items(options["handicap"]):
        if seat >= players:
            raise OptionError(
                f"Athos option handicap names seat {seat}, but the seats are 0 to {players - 1}."
            )


def start_areas(players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """seat -> start area node (seat 0 starts)."""
    if players == 2:
        names = "BD"
    elif players == 3:
        names = options["three_player_areas"]
    elif options["teams"]:
        names = "ADBE"  # the teams sit alternately: A, D, B, E
    else:
        names = "ABDE"
    return tuple(START_AREAS[START_NAMES.index(n)] for n in names)


def new_state(players: int, options: Mapping[str, Any]) -> State:
    """The position before the first action (options already resolved and checked)."""
    handicap = [0] * players
    for seat, n in _handicap_items(options["handicap"]):
        handicap[seat] = n
    areas = start_areas(players, options)
    setup = Setup(
        players=players,
        areas=areas,
        teams=options["teams"],
        handicap=tuple(handicap),
        athos_on_empty=options["athos_on_empty"],
        three_player_areas=options["three_player_areas"],
        bonus_must_be_spent=options["bonus_must_be_spent"],
    )
    first = next((s for s in range(players) if handicap[s]), None)
    return State(
        setup=setup,
        round=1,
        actor=first if first is not None else 0,
        phase=HANDICAP if first is not None else MOVE,
        pool=0 if first is not None else POINTS_PER_TURN,
        owed=0,
        spent=0,
        placed=(0,) * len(COLOURS),
        handicap_left=handicap[first] if first is not None else 0,
        monks=tuple((area,) * MONKS_PER_PLAYER for area in areas),
        tiles=NO_TILE * HEX_COUNT,
        fixed=(),
        pieces=(PIECES_PER_PLAYER,) * players,
        arrivals=(),
        last_spent=(0,) * players,
    )
