"""An action's numbers are ints, never a bool or a float that equals one: True == 1 and
1.0 == 1 in Python, but they are other values on the wire (msgpack) and in the log, so the
engines refuse them (spec/engine-contract.md, "Actions")."""
import pytest
from support.aton_helpers import GAME as ATON, new as new_aton, play, to_actions
from support.asterix_positions import position

from peerboard import engines
from peerboard.engines.asterix.state import ORDER

ASTERIX = engines.get("asterix")


@pytest.mark.parametrize("action", [("draw", True), ("draw", 1.0)])
def test_aton_a_card_is_an_int_not_a_bool_or_a_float(action):
    s = new_aton()
    assert ("draw", 1) in ATON.legal_actions(s)
    with pytest.raises(engines.IllegalAction, match="not a card"):
        ATON.apply(s, action)


@pytest.mark.parametrize("action", [("assign", 1, 1, 1, True), ("assign", 1, 1, 1, 1.0)])
def test_aton_an_assignment_is_of_int_cards(action):
    s = play(new_aton(), *["draw 1"] * 8, "keep", "keep")
    assert ("assign", 1, 1, 1, 1) in ATON.legal_actions(s)
    with pytest.raises(engines.IllegalAction, match="not a card"):
        ATON.apply(s, action)


@pytest.mark.parametrize("action", [("place", True), ("place", 1.0)])
def test_aton_a_square_is_an_int_not_a_bool_or_a_float(action):
    s = to_actions(new_aton(), "1 2 1 1", "1 3 1 1")  # red places one counter in temple 1
    assert s.phase == "place" and ("place", 1) in ATON.legal_actions(s)
    with pytest.raises(engines.IllegalAction, match="needs one temple square"):
        ATON.apply(s, action)


@pytest.mark.parametrize("action", [("die", True), ("die", 1.0)])
def test_asterix_a_die_is_an_int_not_a_bool_or_a_float(action):
    state = position(phase=ORDER, dice=(1, 2))
    assert ("die", 1) in ASTERIX.legal_actions(state)
    with pytest.raises(engines.IllegalAction, match="not an Asterix action"):
        ASTERIX.apply(state, action)
