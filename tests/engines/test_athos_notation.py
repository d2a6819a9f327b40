"""Athos notation (one text per action) and the public record that is hashed."""
import pytest
from support.athos_positions import position

from peerboard.engines.athos import GAME
from peerboard.engines.contract import IllegalAction

FORMS = [
    (("go", "a2", "b2"), "a2-b2"),
    (("go", "B", "e7"), "B-e7"),
    (("go", "a5", "c6"), "a5-c6"),
    (("go", "k3", "summit"), "k3-summit"),
    (("turn", "e5"), "turn e5"),
    (("end_move",), "end move"),
    (("lift", "e5"), "lift e5"),
    (("drop", "g7"), "drop g7"),
    (("fix", "g7"), "fix g7"),
    (("skip_athos",), "skip athos"),
    (("place", "e5"), "place e5"),
    (("place_open", "e5"), "place e5 open"),
    (("end_turn",), "end turn"),
]


@pytest.mark.parametrize("action, text", FORMS)
def test_every_action_has_one_text_form_that_reads_back(action, text):
    state = GAME.new_game(2)
    assert GAME.format_action(state, action) == text
    assert GAME.parse_action(state, text) == action


@pytest.mark.parametrize(
    "text, action",
    [
        ("  E5 - F7 ", ("go", "e5", "f7")),
        ("go b e7", ("go", "B", "e7")),
        ("step b a5", ("go", "B", "a5")),
        ("move k3 SUMMIT", ("go", "k3", "summit")),
        ("end_move", ("end_move",)),
        ("End   Turn", ("end_turn",)),
        ("LIFT e5", ("lift", "e5")),
        ("skip", ("skip_athos",)),
        ("place e5 blocking", ("place", "e5")),
    ],
)
def test_reading_accepts_case_space_and_spelling_variants(text, action):
    assert GAME.parse_action(GAME.new_game(2), text) == action


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "is no Athos action"),
        ("jump e5", "'jump' is no node"),
        ("jump over e5", "is no Athos action"),
        ("e5-z9", "'z9' is no node"),
        ("turn B", "turn needs a hex"),
        ("place summit", "place needs a hex"),
        ("drop A", "drop needs a hex"),
        ("tile e5-g7", "a tile moves in two actions, 'lift' and 'drop'"),
    ],
)
def test_bad_text_is_refused_with_a_reason(text, words):
    with pytest.raises(IllegalAction, match=words):
        GAME.parse_action(GAME.new_game(2), text)


@pytest.mark.parametrize(
    "action, words",
    [
        ("go", "is no Athos action"),
        (("hop", "e5"), "is no Athos action"),
        (("step", "e5", "e6"), "is no Athos action"),
        (("go", "e5"), "takes 2 node names"),
        (("lift", "e5", "e6"), "takes 1 node name"),
        (("turn", 7), "is no node of the board"),
        (("place", "A"), "needs a hex"),
    ],
)
def test_malformed_actions_are_refused_with_a_reason(action, words):
    with pytest.raises(IllegalAction, match=words):
        GAME.apply(GAME.new_game(2), action)


def test_an_action_of_the_wrong_phase_names_the_phase():
    with pytest.raises(IllegalAction, match="seat 0's move phase, where place is not possible"):
        GAME.apply(GAME.new_game(2), ("place", "a1"))


def test_the_public_record_layout_of_a_new_two_player_game():
    record = GAME.public_record(GAME.new_game(2))
    assert record == (
        "athos", 2, (2, ("B", "D"), False, (0, 0), False, "ACE", False),
        1, 0, "move", 6, 0, 0, (0, 0, 0, 0, 0), 0,
        ("B B B", "D D D"), "." * 132, (), (2, 2), (), (0, 0), None, None,
    )


def test_the_record_names_the_lifted_tile_and_the_last_placement():
    state = GAME.apply(position(phase="athos", pool=0, blocking=["e5"]), ("lift", "e5"))
    assert GAME.public_record(state)[5] == "drop" and GAME.public_record(state)[17] == "e5"
    state = GAME.apply(position(phase="place", pool=0), ("place", "c3"))
    assert GAME.public_record(state)[18] == "c3"


def test_state_hash_test_vectors():
    # spec/games/athos.md gives these, so another implementation can check itself
    state = GAME.new_game(2)
    assert GAME.state_hash(state).hex() == (
        "c1d24e28c6f64878d4a14c8f00aba380fba3e1e7891f32f33fe39e6785e62ede"
    )
    state = GAME.apply(state, ("go", "B", "e7"))
    assert GAME.state_hash(state).hex() == (
        "ec4640dec4e34b4e9bbdb991519760d6b7995ead76d46832b628f6f53d33a75f"
    )


def test_the_record_names_tiles_by_colour_and_side():
    state = position(monks={0: ["e5"]}, blocking=["a1"], open_tiles=["k7"], fixed=["k7"])
    record = GAME.public_record(state)
    monks, tiles, fixed = record[11], record[12], record[13]
    assert tiles[0] == "G" and tiles[131] == "w" and fixed == ("k7",)
    assert monks[0] == "e5 B B"


def test_only_handicap_tiles_go_passable_side_up():
    state = position(phase="place", pool=0)
    with pytest.raises(IllegalAction, match="only handicap tiles may be placed passable side up"):
        GAME.apply(state, ("place_open", "a1"))
