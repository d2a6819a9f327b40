"""The Aton picture: scores, hands as the seat may see them, the four temples; drawn the
same every time (snapshots), with styles for the client."""
import pytest
from support.snapshots import CASES, differences, pictures

from support.aton_helpers import GAME, RED, deal, new, to_actions
from peerboard.engines.styled import plain

NAMES = [name for name in CASES if name.startswith("aton")]


@pytest.mark.parametrize("name", NAMES)
def test_the_board_matches_its_snapshot(name):
    assert differences(name) == []
    assert max(len(line) for line in pictures(name)[0].splitlines()) <= 80


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_other():
    state = deal(new(), "1 2 3 4", "4 4 4 4")
    text = GAME.render_text(GAME.view(state, RED), RED)
    assert "1 2 3 4" in text and "4 hidden" in text and "4 4 4 4" not in text
    assert "You play red." in text


def test_the_styles_name_counters_by_seat_and_squares_by_colour():
    state = to_actions(new(), "1 2 4 4", "4 2 1 1")
    state = GAME.apply(state, GAME.legal_actions(state)[0])  # red places a counter
    fragments = GAME.render_styled(state)
    assert plain(fragments) == GAME.render_text(state)
    styles = {style for style, _ in fragments}
    assert {"seat.0", "seat.1", "square.yellow", "square.black", "square.blue", "square.green",
            "square.bonus", "title", "label", "legend"} <= styles
    assert ("seat.0", "[R]") in fragments
