"""Notation, options, the board picture and the hashed record."""
from __future__ import annotations

import pytest

from peerboard.engines import IllegalAction, OptionError
from peerboard.engines.asterix.state import PICK, ROLL, STEAL

from support.asterix_positions import GAME, SCRIPT, position, play



@pytest.mark.parametrize(
    "action, text",
    [
        (("tile", "mistletoe"), "tile mistletoe"),
        (("d6", 4), "d6 4"),
        (("village", "e5"), "village e5"),
        (("roll", 2, 5), "roll 2 5"),
        (("die", 5), "die 5"),
        (("move", "c3"), "move c3"),
        (("skip",), "skip"),
        (("pick",), "pick"),
        (("leave",), "leave"),
        (("steal", 2, "menhir"), "steal menhir from seat 2"),
    ],
)
def test_every_action_has_one_text_form(action, text):
    assert GAME.format_action(None, action) == text


def test_parsing_ignores_case_and_extra_whitespace():
    state = position(pawns=("c3", "g7"), dice=(1,))
    assert GAME.parse_action(state, "  MOVE   C4 ") == ("move", "c4")
    rolled = position(pawns=("c3", "g7"), phase=ROLL)
    assert GAME.parse_action(rolled, "Roll 5 2") == ("roll", 2, 5)  # low die first


@pytest.mark.parametrize(
    "text, complaint",
    [
        ("", "empty"),
        ("fly c3", "not an Asterix action"),
        ("move", "wrong form"),
        ("move c3 c4", "wrong form"),
        ("move z9", "not a square"),
        ("die five", "not a number"),
        ("steal gold from seat 1", "not a tile kind"),
        ("steal menhir from 1", "write 'steal KIND from seat SEAT'"),
        ("move h8", "not legal now"),
        ("pick", "not legal now"),
    ],
)
def test_bad_text_is_refused_with_a_reason(text, complaint):
    state = position(pawns=("c3", "g7"), dice=(1,))
    with pytest.raises(IllegalAction, match=complaint):
        GAME.parse_action(state, text)


def test_a_refusal_names_whose_turn_it_is_and_what_is_legal():
    state = position(pawns=("c3", "g7"), phase=PICK)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, ("move", "c4"))
    assert "seat 0's choice to pick up or leave" in str(refused.value)
    assert str(refused.value).endswith("the legal actions are: pick, leave.")


def test_numbers_must_be_true_integers():
    state = position(pawns=("c3", "g7"), phase=ROLL)
    for fake in [("roll", True, 2), ("roll", 1.0, 2), ("roll", 1, 2, 3), "roll 1 2", ()]:
        with pytest.raises(IllegalAction):
            GAME.apply(state, fake)


def test_the_steal_phase_offers_steals_in_seat_then_kind_order():
    state = position(pawns=("c3", "c3", "c3"), phase=STEAL, carried=("", "GM", "B"))
    assert [GAME.format_action(state, a) for a in GAME.legal_actions(state)] == [
        "steal menhir from seat 1", "steal mistletoe from seat 1", "steal boar from seat 2", "leave",
    ]


def test_a_theft_names_the_thing_then_whose_pawn_and_the_earlier_form_is_still_read():
    """`steal 2 menhir` read as "two menhirs" (issue 24, 19); a log holds the action
    ("steal", 2, "menhir"), not its text, so old logs read as before; the earlier text is
    still taken (a bot of the earlier notation)."""
    state = position(pawns=("c3", "c3", "c3"), phase=STEAL, carried=("", "GM", "B"))
    assert GAME.parse_action(state, "steal menhir from seat 1") == ("steal", 1, "menhir")
    assert GAME.parse_action(state, "steal 1 menhir") == ("steal", 1, "menhir")
    assert GAME.format_action(state, ("steal", 2, "boar")) == "steal boar from seat 2"


@pytest.mark.parametrize(
    "players, options, complaint",
    [
        (1, {}, "played by 2 to 8 players"),
        (9, {}, "played by 2 to 8 players"),
        (2, {"carry_rule": "all"}, "carry_rule='all' must be one of 'either', 'both'"),
        (2, {"max_rounds": 0}, "max_rounds=0 must be a whole number from 1 to 10000"),
        (2, {"max_rounds": True}, "max_rounds=True must be a whole number"),
        (2, {"rounds": 5}, "has no option 'rounds'"),
    ],
)
def test_bad_options_are_refused_in_one_sentence(players, options, complaint):
    with pytest.raises(OptionError, match=complaint):
        GAME.new_game(players, options)


def test_options_reach_the_state():
    state = GAME.new_game(5, {"carry_rule": "both", "max_rounds": 7})
    assert (state.players, state.carry_rule, state.max_rounds) == (5, "both", 7)


def test_the_board_picture_has_a1_bottom_left_and_fits_80_columns():
    state = play(GAME.new_game(2), *SCRIPT)
    text = GAME.render_text(state, seat=1)
    lines = text.splitlines()
    assert max(map(len, lines)) <= 80
    rank1 = next(line for line in lines if line.startswith(" 1 "))
    assert rank1.split()[1] == "B"  # the first tile laid went on a1, bottom left
    assert any("#(0)" in line for line in lines if line.startswith(" 5 "))  # seat 0 on e5
    assert ".(1)" in next(line for line in lines if line.startswith(" 4 "))  # seat 1 took c4's menhir
    assert "(you)" in next(line for line in lines if line.startswith("  1 "))
    assert "Now: seat 0's roll of 2d6." in text


def test_the_record_is_the_whole_state_and_its_hash_is_pinned():
    start = GAME.new_game(2)
    assert GAME.public_record(start) == (
        "asterix", 2, "either", 100, "layout", 0, -1, 0, 0, (0, 0, 0, 0, 0), (), (),
        (-1, -1), (3, 3), ((0, 0, 0, 0), (0, 0, 0, 0)), ((0, 0, 0, 0), (0, 0, 0, 0)), (),
    )
    # The test vectors of spec/games/asterix.md.
    assert GAME.state_hash(start).hex() == START_HASH
    assert GAME.state_hash(play(start, *SCRIPT)).hex() == SCRIPT_HASH


START_HASH = "3a52041c7b56a47a978409b5f0a9fec3e91f91a9096600a1c98c6dea32955f6b"
SCRIPT_HASH = "703d7500b0ad91b3174328bef69a0a45173d716754fa50d8a4cf54930494f9bf"
