"""Setting up: start areas by player count, the pieces, and every option with its errors."""
import pytest
from support.athos_positions import play, refused

from peerboard.engines.athos import GAME
from peerboard.engines.athos.board import NODE_NAMES
from peerboard.engines.athos.state import HANDICAP, MOVE
from peerboard.engines.contract import OptionError


def areas(players, options=None):
    return "".join(NODE_NAMES[a] for a in GAME.new_game(players, options).setup.areas)


def test_start_areas_by_player_count():
    assert areas(2) == "BD"
    assert areas(3) == "ACE"
    assert areas(4) == "ABDE"


def test_three_player_areas_ACD_is_what_the_english_text_prints():
    assert areas(3, {"three_player_areas": "ACD"}) == "ACD"


def test_teams_sit_alternately_A_D_B_E():
    assert areas(4, {"teams": True}) == "ADBE"


def test_each_player_starts_with_three_monks_in_its_area_two_pieces_and_seat_0_moves():
    state = GAME.new_game(3)
    assert [[NODE_NAMES[n] for n in m] for m in state.monks] == [["A"] * 3, ["C"] * 3, ["E"] * 3]
    assert state.pieces == (2, 2, 2)
    assert (GAME.current(state), state.phase, state.pool) == (0, MOVE, 6)


@pytest.mark.parametrize("players", [1, 5, "2", True])
def test_athos_is_for_two_to_four_players(players):
    with pytest.raises(OptionError, match="2 to 4 players"):
        GAME.new_game(players)


@pytest.mark.parametrize("players", [2, 3])
def test_teams_needs_four_players(players):
    with pytest.raises(OptionError, match="teams=True needs 4 players"):
        GAME.new_game(players, {"teams": True})


@pytest.mark.parametrize(
    "options, words",
    [
        ({"three_player_areas": "ABC"}, "must be one of 'ACE', 'ACD'"),
        ({"athos_on_empty": "yes"}, "must be true or false"),
        ({"bonus_must_be_spent": 1}, "must be true or false"),
        ({"handicap": [2]}, "must be a mapping of seat to a number of tiles"),
        ({"handicap": {"one": 2}}, "a seat is a whole number"),
        ({"handicap": {0: 9}}, "allowed are 0 to 8"),
        ({"handicap": {0: 1, "0": 2}}, "names seat 0 twice"),
        ({"handicap": {5: 1}}, "the seats are 0 to 1"),
        ({"colour": "red"}, "has no option 'colour'"),
    ],
)
def test_bad_option_values_get_one_clear_sentence(options, words):
    with pytest.raises(OptionError, match=words) as caught:
        GAME.new_game(2, options)
    assert str(caught.value).count(". ") == 0  # one sentence


def test_handicap_keys_may_be_numbers_or_numeric_strings():
    assert GAME.new_game(3, {"handicap": {"2": 1, 1: 3}}).setup.handicap == (0, 3, 1)


def test_handicap_seats_place_their_tiles_before_the_first_turn_either_side_up():
    state = GAME.new_game(3, {"handicap": {"2": 1, "1": 2}})
    assert (state.phase, GAME.current(state), state.handicap_left) == (HANDICAP, 1, 2)
    assert ("end_turn",) not in GAME.legal_actions(state)
    state = play(state, "place a1", "place k7 open")
    assert state.tiles[0] == "G" and state.tiles[-1] == "w"
    assert (GAME.current(state), state.handicap_left) == (2, 1)
    state = play(state, "place a2")  # no per-turn or per-colour limit for a handicap
    assert (GAME.current(state), state.phase, state.pool) == (0, MOVE, 6)


def test_handicap_tiles_obey_the_path_rule():
    # start area B touches only a5, a6 and a7
    state = play(GAME.new_game(2, {"handicap": {0: 3}}), "place a5", "place a6")
    assert "would cut the monks in start area B off from the summit" in refused(state, "place a7")
    state = play(state, "place a7 open")
    assert state.tiles[:8] == "....GGg." and state.phase == MOVE


def test_handicap_tiles_go_down_in_board_order_leaving_room_for_the_rest():
    state = GAME.new_game(2, {"handicap": {0: 3}})
    offered = [a[1] for a in GAME.legal_actions(state)]
    assert "k5" in offered and "k6" not in offered and "k7" not in offered
    assert "no room is left for the other 2 handicap tiles" in refused(state, "place k6")
    state = play(state, "place k5", "place k6 open")
    assert "after k6 only a later hex may take one, not a1" in refused(state, "place a1")
    state = play(state, "place k7")
    assert state.phase == MOVE and state.tiles[-3:] == "WwW"
