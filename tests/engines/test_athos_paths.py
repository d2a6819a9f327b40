"""The path rule: the one-walk analysis (paths.py) against the plain search (oracle.py).

Random positions: some hexes carry tiles (blocking or passable, of the hex's colour),
monks stand anywhere that still has a way up. In each, the hexes that would cut a monk
off, and the legal actions of the placement, move and Athos phases, must be the same
whether the engine asks paths.cutting_hexes or oracle.cutting_hexes.
"""
import dataclasses

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support.athos_positions import node, position
from support.budget import examples

from peerboard.engines.athos import oracle, paths, rules
from peerboard.engines.athos.board import HEX_COLOUR, HEX_COUNT, NEIGHBOURS, NODE_COUNT, SUMMIT
from peerboard.engines.athos.state import ATHOS, DROP, MOVE, PLACE, tile_char

TILE = st.sampled_from([".", ".", "block", "block", "open"])


def _reachable(passable):
    seen = {SUMMIT}
    todo = [SUMMIT]
    while todo:
        v = todo.pop()
        for w in NEIGHBOURS[v]:
            if passable[w] and w not in seen:
                seen.add(w)
                todo.append(w)
    return sorted(seen - {SUMMIT})


@st.composite
def positions(draw, players=st.sampled_from([2, 3, 4])):
    n = draw(players)
    layout = draw(st.lists(TILE, min_size=HEX_COUNT, max_size=HEX_COUNT))
    tiles = "".join(
        "." if t == "." else tile_char(HEX_COLOUR[h], t == "block") for h, t in enumerate(layout)
    )
    state = position(n, tiles=tiles)
    places = _reachable(state.passable)  # every node with a way up
    assume(len(places) >= 3 * n)
    picks = draw(st.lists(st.integers(0, 10**6), min_size=3 * n, max_size=3 * n))
    monks = []
    taken: set[int] = set()
    for seat in range(n):
        nodes = []
        for i in picks[3 * seat : 3 * seat + 3]:
            where = places[i % len(places)]
            while where < HEX_COUNT and where in taken:  # one monk a hex between turns
                i += 1
                where = places[i % len(places)]
            taken.add(where)
            nodes.append(where)
        monks.append(tuple(sorted(nodes)))
    seat = draw(st.integers(0, n - 1))
    return dataclasses.replace(state, monks=tuple(monks), actor=seat)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_the_one_walk_analysis_finds_exactly_the_hexes_the_plain_search_finds(state):
    fast = paths.cutting_hexes(state.passable, state.walkers)
    slow = oracle.cutting_hexes(state.passable, state.walkers)
    assert fast == slow


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.sampled_from([PLACE, MOVE]))
def test_placement_and_move_phases_offer_the_same_actions_with_either_analysis(state, phase):
    state = dataclasses.replace(state, phase=phase, pool=6 if phase == MOVE else 0)
    assert rules.legal_actions(state) == rules.legal_actions(state, oracle.cutting_hexes)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(players=st.just(2)))
def test_the_athos_phase_offers_the_same_tile_moves_with_either_analysis(state):
    state = dataclasses.replace(state, phase=ATHOS, pool=0)
    assert rules.legal_actions(state) == rules.legal_actions(state, oracle.cutting_hexes)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_the_drop_phase_offers_the_same_hexes_with_either_analysis(state):
    liftable = [h for h in state.movable if not state.crowd[h]]
    assume(liftable)
    state = dataclasses.replace(state, phase=DROP, pool=0, lifted=liftable[-1])
    assert rules.legal_actions(state) == rules.legal_actions(state, oracle.cutting_hexes)


def test_a_single_gap_in_a_wall_is_the_hex_that_cuts():
    wall = "".join("O" if h in range(node("f1"), node("f12") + 1) and h != node("f5") else "."
                   for h in range(HEX_COUNT))
    state = position(monks={0: ["e5"]}, tiles=wall)
    cut = paths.cutting_hexes(state.passable, state.walkers)
    assert [h for h in range(HEX_COUNT) if cut[h]] == [node("f5")]


def test_monks_never_block_a_way_and_hexes_under_monks_are_never_reported():
    wall = "".join("O" if h in range(node("f1"), node("f12") + 1) and h != node("f5") else "."
                   for h in range(HEX_COUNT))
    state = position(monks={0: ["e5", "f5"], 1: ["g5"]}, tiles=wall)
    assert not any(paths.cutting_hexes(state.passable, state.walkers))
    assert len(state.passable) == NODE_COUNT


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_a_hex_its_neighbours_prove_safe_never_cuts_a_monk_off(state):
    """paths.bypassed, the six-node proof the rules ask before any search: never True
    for a hex the plain search finds cutting (it may be False for one that does not)."""
    slow = oracle.cutting_hexes(state.passable, state.walkers)
    proved = [h for h in range(HEX_COUNT) if state.passable[h] and paths.bypassed(state.passable, h)]
    assert proved  # (it proves something in every position drawn)
    assert not any(slow[h] for h in proved)


def test_a_gap_in_a_wall_is_not_proved_safe_and_a_hex_in_the_open_is():
    wall = "".join("O" if h in range(node("f1"), node("f12") + 1) and h != node("f5") else "."
                   for h in range(HEX_COUNT))
    state = position(monks={0: ["e5"]}, tiles=wall)
    assert not paths.bypassed(state.passable, node("f5"))
    assert paths.bypassed(state.passable, node("c7"))


def test_the_walk_is_remembered_and_the_same_as_worked_out():
    passable = position(monks={0: ["e5"]}).passable
    assert paths.skeleton(passable) is paths.skeleton(bytearray(passable))
    assert paths.skeleton(passable) == paths._walk(bytes(passable))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, NODE_COUNT - 1), st.integers(0, NODE_COUNT - 1), st.integers(0, 12))
def test_the_steps_of_one_go_are_the_walks_distance(state, start, goal, limit):
    """paths.steps, the walk stopped at the goal's level: exactly what paths.distances says."""
    assert paths.steps(state.passable, start, goal, limit) == paths.distances(state.passable, start, limit).get(goal)
