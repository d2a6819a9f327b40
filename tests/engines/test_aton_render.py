"""The Aton picture: scores, hands as the seat may see them, the four temples; drawn the
same every time (its snapshots: tests/engines/test_snapshots.py), with styles for the client."""

from support.aton_helpers import GAME, RED, deal, new, to_actions
from peerboard.engines.styled import plain


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
