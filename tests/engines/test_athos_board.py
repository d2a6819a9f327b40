"""The board facts of rules/athos.md, checked on the data in engines/athos/board.py."""
from collections import Counter, deque

from peerboard.engines.athos.board import (
    COLOURS,
    HEX_COLOUR,
    HEX_COUNT,
    NEIGHBOURS,
    NODE_NAMES,
    START_AREAS,
    SUMMIT,
)
from peerboard.engines.athos.setup import TILES_PER_COLOUR


def _steps(start: int, goal: int) -> int:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for w in NEIGHBOURS[v]:
            if w not in dist:
                dist[w] = dist[v] + 1
                queue.append(w)
    return dist[goal]


def test_the_board_has_132_hexes_named_a1_to_k7():
    assert HEX_COUNT == 132
    assert NODE_NAMES[0] == "a1" and NODE_NAMES[16] == "a17" and NODE_NAMES[131] == "k7"
    assert NODE_NAMES[132:] == ("A", "B", "C", "D", "E", "summit")


def test_colours_have_33_29_25_21_24_hexes_each_more_than_its_16_tiles():
    counts = Counter(COLOURS[c] for c in HEX_COLOUR)
    assert counts == {"green": 33, "yellow": 29, "orange": 25, "brown": 21, "white": 24}
    assert min(counts.values()) > TILES_PER_COLOUR


def test_the_summit_touches_exactly_k1_to_k7():
    assert [NODE_NAMES[n] for n in NEIGHBOURS[SUMMIT]] == [f"k{i}" for i in range(1, 8)]


def test_start_areas_touch_three_valley_hexes_and_not_each_other():
    touched = {NODE_NAMES[a]: [NODE_NAMES[n] for n in NEIGHBOURS[a]] for a in START_AREAS}
    assert touched == {
        "A": ["a2", "a3", "a4"],
        "B": ["a5", "a6", "a7"],
        "C": ["a8", "a9", "a10"],
        "D": ["a11", "a12", "a13"],
        "E": ["a14", "a15", "a16"],
    }
    for area in START_AREAS:
        assert not set(NEIGHBOURS[area]) & set(START_AREAS)


def test_the_shortest_way_from_every_start_area_to_the_summit_is_12_steps():
    assert [_steps(area, SUMMIT) for area in START_AREAS] == [12] * 5


def test_adjacency_is_symmetric_and_hexes_have_at_most_six_neighbours():
    for v, around in enumerate(NEIGHBOURS):
        for w in around:
            assert v in NEIGHBOURS[w]
        if v < HEX_COUNT:
            hexes = [w for w in around if w < HEX_COUNT]
            assert 2 <= len(hexes) <= 6
