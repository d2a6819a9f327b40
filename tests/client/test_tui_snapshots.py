"""Each game's board, and the whole screen, at fixed positions, compared with stored text
(tests/support/snapshots/). A change to a game's look shows up as a diff here.

To accept a deliberate change: PEERBOARD_UPDATE_SNAPSHOTS=1 pytest tests/client/test_tui_snapshots.py
(then read the diff before committing it). The Athos snapshots follow the Athos engine: when
its actions or state change (issue 12), they are regenerated the same way.
"""
import os
import random
from pathlib import Path

from peerboard import engines
import pytest
from peerboard.engines import CHANCE

from peerboard.client.tui.app import build
from peerboard.client.tui.boards import BoardContext, board_for
from peerboard.client.tui.replay import load
from peerboard.client.tui.replay_presenter import ReplayPresenter
from peerboard.client.tui.snapshot import FixedSizeOutput, screen_text

HERE = Path(__file__).resolve().parent
STORED = HERE.parent / "support" / "snapshots"
VECTORS = HERE.parents[1] / "spec" / "vectors"
UPDATE = bool(os.environ.get("PEERBOARD_UPDATE_SNAPSHOTS"))


def _matches(name: str, text: str) -> None:
    path = STORED / f"{name}.txt"
    if UPDATE:
        path.write_text(text)
    assert path.exists(), f"no stored snapshot {path}; run with PEERBOARD_UPDATE_SNAPSHOTS=1 to make it"
    assert text == path.read_text(), f"{name} differs from {path}"


def _position(game_name: str, players: int, actions: int, seed: int):
    """The state after `actions` random actions (chance included) from a fixed seed."""
    game = engines.get(game_name)
    state, rng = game.new_game(players), random.Random(seed)
    for _ in range(actions):
        if game.is_terminal(state):
            break
        if game.current(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            state = game.apply(state, outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
    return game, state


@pytest.mark.parametrize("name, players, actions, seat", [
    ("aton", 2, 90, 0),
    ("asterix", 3, 160, 1),
    ("athos", 3, 260, 2),
])
def test_board_at_a_fixed_position(name, players, actions, seat):
    game, state = _position(name, players, actions, seed=7)
    board = board_for(name)
    names = tuple(f"player-{i}" for i in range(players))
    drawing = board.draw(BoardContext(game.view(state, seat), seat, names))
    text = "\n".join([board.situation(state, names), drawing.text(),
                      *(board.seat_detail(state, s) for s in range(players))]) + "\n"
    _matches(f"{name}_board", text)


@pytest.mark.parametrize("name, entry, columns, rows", [
    ("aton", 30, 110, 26),
    ("asterix", 20, 100, 26),
    ("athos", 60, 120, 26),
])
def test_whole_replay_screen_at_a_fixed_entry(name, entry, columns, rows):
    source, _ = load(VECTORS / f"{name}.pblog")
    source.goto(entry)
    presenter = ReplayPresenter(source)
    app, _ = build(presenter, output=FixedSizeOutput(columns, rows))
    presenter.start()  # (what running the application does first; with no loop the check runs at once)
    _matches(f"{name}_screen", screen_text(app))


def test_asterix_pawns_on_a_menhir_read_as_pawns_not_as_a_count_of_twelve():
    from peerboard.engines.asterix.board import MENHIR, SQUARE_NAMES, squares_of
    from peerboard.engines.values import evolve

    game, state = _position("asterix", 3, 70, seed=7)  # the tiles laid
    menhir = next(squares_of(state.tiles[MENHIR]))
    state = evolve(state, pawns=(state.pawns[0], menhir, menhir))
    drawing = board_for("asterix").draw(BoardContext(state, 0, ("a", "b", "c")))
    line, col = drawing.positions[f"sq:{SQUARE_NAMES[menhir]}"]
    rows = drawing.text().splitlines()
    assert rows[line][col:col + 6].strip() == "menhr"
    assert rows[line + 1][col:col + 6].strip() == "p12"
    assert "M12" not in drawing.text()
