"""Move phase: a monk goes to a node in one action, passing through, one monk per hex,
turning tiles, parting monks, and the phase ending by itself when no point is left.

Two players unless said: seat 0 starts in B (touching a5-a7), seat 1 in D (a11-a13).
"""
from support.athos_positions import node, play, position, refused

from peerboard.engines.athos import GAME
from peerboard.engines.athos.board import HEX_COUNT, NODE_COUNT
from peerboard.engines.athos.parting import can_part
from peerboard.engines.athos.state import ATHOS, MOVE, PLACE


def test_a_go_costs_the_shortest_distance_to_its_destination():
    state = play(position(monks={0: ["e5"]}), "e5-e7")
    assert node("e7") in state.monks[0] and (state.pool, state.spent) == (4, 2)
    state = play(GAME.new_game(2), "B-e5")  # B, then a5 b5 c5 d5 e5
    assert (state.pool, state.spent) == (1, 5)


def test_a_step_is_a_go_of_distance_one_in_any_direction():
    state = play(position(monks={0: ["e5"]}), "e5-d5", "d5-e5")
    assert (state.pool, state.spent) == (4, 2)


def test_every_node_the_points_pay_for_is_offered_once_per_monk_node():
    state = GAME.new_game(2)
    gos = [a for a in GAME.legal_actions(state) if a[0] == "go"]
    assert all(a[1] == "B" for a in gos)  # three monks on one node: one set of moves
    assert ("go", "B", "e5") in gos and ("go", "B", "g5") not in gos  # 5 and 7 away


def test_a_go_passes_through_hexes_held_by_other_monks():
    state = position(monks={0: ["e5"], 1: ["e6"]})
    state = play(state, "e5-e7", "end move")
    assert node("e7") in state.monks[0] and state.spent == 2


def test_a_go_goes_around_a_blocking_tile_and_never_through_it():
    state = play(position(monks={0: ["e5"]}, blocking=["e6"]), "e5-e7")
    assert state.spent == 3  # e5 f5 f6 e7 (or e5 d6 d7 e7)


def test_a_go_into_a_blocking_hex_is_refused():
    state = position(monks={0: ["e5"]}, blocking=["e6"])
    assert ("go", "e5", "e6") not in GAME.legal_actions(state)
    assert "e6 shows a blocking tile" in refused(state, "e5-e6")


def test_a_go_the_points_do_not_pay_for_is_refused_with_its_distance():
    state = position(monks={0: ["e5"]}, pool=2)
    assert ("go", "e5", "e8") not in GAME.legal_actions(state)
    assert "From e5 to e8 is 3 steps; seat 0 has 2 points left" in refused(state, "e5-e8")


def test_a_go_to_a_node_no_way_leads_to_is_refused():
    walled = dict(blocking=["e6", "e8", "f6", "f7", "d7", "d8"])  # e7 closed in
    state = position(monks={0: ["e5"]}, **walled)
    assert "No way leads from e5 to e7" in refused(state, "e5-e7")


def test_a_go_from_a_node_without_a_monk_of_the_seat_is_refused():
    state = position(monks={0: ["e5"], 1: ["e6"]})
    assert "Seat 0 has no monk on e6" in refused(state, "e6-e7")
    assert "must go to another node" in refused(state, "e5-e5")


def test_turning_a_tile_between_two_gos_opens_the_way_through_it():
    state = position(monks={0: ["e5"]}, blocking=["e6"])
    state = play(state, "turn e6", "e5-e7")
    assert node("e7") in state.monks[0] and state.spent == 6


def test_two_monks_may_not_end_the_move_phase_on_one_hex():
    state = play(position(monks={0: ["e5"], 1: ["e6"]}), "e5-e6")
    assert ("end_move",) not in GAME.legal_actions(state)
    assert "Two monks share e6" in refused(state, "end move")


def test_two_monks_of_one_player_may_not_end_on_one_hex_either():
    state = play(position(monks={0: ["e5", "e6"]}), "e5-e6")
    assert "Two monks share e6" in refused(state, "end move")


def test_a_go_leaving_two_monks_with_too_few_points_to_part_them_is_not_offered():
    state = position(monks={0: ["e5"], 1: ["e6"]}, pool=1)
    assert ("go", "e5", "e6") not in GAME.legal_actions(state)
    assert "too few points left to part them" in refused(state, "e5-e6")
    # with a second point the monk can go on and off again
    two_points = position(monks={0: ["e5"], 1: ["e6"]}, pool=2)
    assert ("go", "e5", "e6") in GAME.legal_actions(two_points)


def test_a_longer_go_onto_a_monk_needs_a_point_left_to_part():
    assert ("go", "e5", "e7") in GAME.legal_actions(position(monks={0: ["e5"], 1: ["e7"]}, pool=3))
    state = position(monks={0: ["e5"], 1: ["e7"]}, pool=2)
    assert ("go", "e5", "e7") not in GAME.legal_actions(state)


def test_passing_through_a_start_area_costs_one_point():
    # a3 is blocked: a4 -> A -> a2 is two steps, the start area counting as one node
    state = play(position(monks={0: ["a4"]}, blocking=["a3"]), "a4-a2")
    assert state.pool == 4 and node("a2") in state.monks[0]


def test_any_number_of_monks_may_end_in_a_start_area():
    state = position(monks={0: ["a4", "a3"], 1: ["A"]})
    state = play(state, "a4-A", "a3-A", "end move")
    assert state.monks[0].count(node("A")) == 2 and state.phase != MOVE


def test_a_monk_on_the_summit_cannot_move_again():
    state = position(monks={0: ["summit"]})
    assert "can't move again" in refused(state, "summit-k1")


def test_unused_points_are_lost():
    state = play(position(monks={0: ["e5"]}), "e5-e6", "end move")
    assert state.pool == 0 and state.spent == 1
    state = play(state, "end turn")
    assert (state.actor, state.phase, state.pool) == (1, MOVE, 6)


def test_the_move_phase_ends_by_itself_when_no_point_is_left():
    state = play(position(monks={0: ["e5"]}), "e5-e11")
    assert state.phase == PLACE and state.spent == 6


def test_turning_a_tile_costs_four_points_and_flips_it():
    state = position(monks={0: ["e5"]}, blocking=["e6", "a1"])
    state = play(state, "turn e6")
    assert state.tiles[node("e6")] == "o" and (state.pool, state.spent) == (2, 4)
    state = play(state, "e5-e6")  # passable now
    assert "costs 4 movement points; seat 0 has 1 left" in refused(state, "turn a1")


def test_a_passable_tile_may_be_turned_back_to_blocking():
    state = play(position(monks={0: ["e5"]}, open_tiles=["e6"]), "turn e6")
    assert state.tiles[node("e6")] == "O"


def test_turning_a_tile_with_a_monk_on_it_is_refused():
    state = position(monks={0: ["e5"], 1: ["e6"]}, open_tiles=["e6"])
    assert ("turn", "e6") not in GAME.legal_actions(state)
    assert "A monk stands on e6" in refused(state, "turn e6")


def test_a_tile_under_an_athos_piece_cannot_be_turned():
    state = position(monks={0: ["e5"]}, blocking=["e6"], fixed=["e6"])
    assert ("turn", "e6") not in GAME.legal_actions(state)
    assert "carries an Athos piece" in refused(state, "turn e6")


def _row_f_closed_but(gap: str, gap_open_tile: bool = False):
    """Row f (the only way between e and g) all blocking except `gap`."""
    blocking = [f"f{i}" for i in range(1, 13) if f"f{i}" != gap]
    return dict(blocking=blocking, open_tiles=[gap] if gap_open_tile else [])


def test_turning_a_tile_to_blocking_that_cuts_a_monk_off_is_refused():
    state = position(monks={0: ["e5"]}, **_row_f_closed_but("f5", gap_open_tile=True))
    assert ("turn", "f5") not in GAME.legal_actions(state)
    assert "would cut monk on e5 off from the summit" in refused(state, "turn f5")


# e6 is a pocket: d6 d7 e7 f5 f6 blocking, so its only way out is e5. Seat 1 holds e5 and e6.
POCKET = dict(blocking=["d6", "d7", "e7", "f5", "f6"])


def test_bonus_points_can_pay_for_parting_monks():
    # Seat 0 goes e4-e6 (through e5) with 3 points; its monk on e6 then needs 2 more to get
    # out (back past e5), which only the monk on k3 can earn by climbing for 3 bonus points.
    climbing = position(monks={0: ["e4", "k3"], 1: ["e5", "e6"]}, pool=3, **POCKET)
    assert ("go", "e4", "e6") in GAME.legal_actions(climbing)
    state = play(climbing, "e4-e6", "k3-summit")
    assert state.pool == 3
    state = play(state, "e6-e4", "end move")
    assert state.phase != MOVE and node("e4") in state.monks[0]


def test_without_a_bonus_to_earn_the_same_go_is_not_offered():
    state = position(monks={0: ["e4"], 1: ["e5", "e6"]}, pool=3, **POCKET)
    assert ("go", "e4", "e6") not in GAME.legal_actions(state)
    assert ("go", "e4", "e5") in GAME.legal_actions(state)  # and back for 1 point


def test_no_bonus_after_the_fifth_arrival_means_no_parting_on_credit():
    state = position(
        3,
        monks={0: ["e4", "k3"], 1: ["e5", "e6", "summit"], 2: ["summit"] * 3},
        arrivals=(1, 2, 2, 2, 0),
        pool=3,
        **POCKET,
    )
    assert ("go", "e4", "e6") not in GAME.legal_actions(state)


def test_turning_a_tile_open_can_part_monks():
    # A synthetic corner: the monk on e6 shares it with another seat's monk; every other
    # way is shut, only the blocking tile on e7 could be turned open (4 points + 1 step).
    passable = bytearray(b"\x01" * NODE_COUNT)
    for name in ("d6", "d7", "e5", "e7", "f5", "f6"):
        passable[node(name)] = 0
    taken = bytearray(HEX_COUNT)
    taken[node("e6")] = 1
    mine = (node("e6"),)
    assert can_part(passable, mine, taken, 5, 0, (node("e7"),))
    assert not can_part(passable, mine, taken, 4, 0, (node("e7"),))
    assert not can_part(passable, mine, taken, 5, 0, ())


def test_the_move_phase_ends_into_the_athos_phase_only_with_pieces_left():
    state = play(position(monks={0: ["e5"]}, blocking=["a1"], pieces=(0, 2)), "end move")
    assert state.phase == PLACE
    state = play(position(monks={0: ["e5"]}, blocking=["a1"]), "end move")
    assert state.phase == ATHOS
