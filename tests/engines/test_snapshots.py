"""Every registered game's board drawn the same every time: each snapshot of
tests/support/snapshots.py (a game's own positions, or the two every game gets) matches the
text and the styles stored in tests/support/snapshots/, in under 80 columns."""
import pytest

from peerboard import engines
from support.snapshots import cases, differences, pictures


@pytest.mark.parametrize("name", sorted(cases()))
def test_the_board_matches_its_snapshot(name):
    assert differences(name) == []
    assert max(len(line) for line in pictures(name)[0].splitlines()) <= 80


def test_every_registered_game_has_snapshots():
    drawn = {game for game, _, _ in cases().values()}
    assert drawn == set(engines.names())
