"""The held-out check: a fourth game added exactly as spec/engine-contract.md ("How an
engine is written") says — the engine's folder and one registration line, nothing else —
plays everywhere through the client's fallbacks.

The game is Pig (tests/support/newgame/pig/, written as `engines/pig/` would be: a dice race with
a CHANCE node, a styled board, a rules text and a heuristic). For each test it is put
where `engines/pig/` would be (`peerboard.engines.__path__`) and registered by the one
line a newcomer adds to `engines/registry.py`; nothing in client/ or tests/ names it
(client/games/ has no `pig`)."""
import asyncio
import json
import random
import sys
from pathlib import Path

import pytest
from prompt_toolkit.application.current import set_app
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen as Cells, WritePosition

from peerboard import engines
from peerboard.client import palette
from peerboard.client.bots import make_bot
from peerboard.client.bots.jsonview import view_json
from peerboard.client.bots.program import ProgramBot
from peerboard.client.bots.table import play_game
from peerboard.client.tui import styles
from peerboard.client.tui.app import build
from peerboard.client.tui.game_presenter import GamePresenter
from peerboard.client.tui.local import LocalSource
from peerboard.client.tui.snapshot import FixedSizeOutput
from peerboard.engines import registry
from peerboard.engines.testing import check_random_games
from support.tui_harness import Screen, run

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


@pytest.fixture
def pig(monkeypatch):
    import peerboard.engines as package

    monkeypatch.setattr(package, "__path__", [*package.__path__, str(HERE.parent / "support" / "newgame")])
    monkeypatch.setitem(registry._MODULES, "pig", "peerboard.engines.pig")  # the registration line
    monkeypatch.setattr(registry, "_loaded", {})
    yield engines.get("pig")
    for name in [m for m in sys.modules if m == "peerboard.engines.pig" or m.startswith("peerboard.engines.pig.")]:
        del sys.modules[name]  # no later test meets a game the registry no longer names


def test_nothing_outside_its_folder_names_the_new_game():
    from peerboard.client.games import piece

    assert "pig" not in engines.names()  # registered only inside these tests
    assert piece("pig", "board") is None and piece("pig", "knowledge") is None and piece("pig", "view") is None


def test_the_new_game_passes_the_conformance_kit(pig):
    assert "pig" in engines.names()
    for players, options in pig.conformance_setups:
        lengths = check_random_games(pig, players, options, games=3, seed=1, max_actions=pig.playout_limit)
        assert len(lengths) == 3 and all(n > 0 for n in lengths)


def test_peerboard_games_lists_the_new_game_with_its_options(pig, capsys):
    from peerboard.client.cli import cmd_games

    cmd_games(None)
    out = capsys.readouterr().out
    assert any(line.split()[:2] == ["pig", "Pig"] and "2-4 players" in line for line in out.splitlines()), out
    assert "--option goal=30: points to bank to win" in out


def _cells(app, columns, rows):
    """The screen as prompt-toolkit would write it to a terminal: (char, style) per cell."""
    cells = Cells(initial_width=columns)
    with set_app(app):
        app.layout.container.write_to_screen(cells, MouseHandlers(), WritePosition(0, 0, columns, rows),
                                             parent_style="", erase_bg=False, z_index=None)
    return [[(cells.data_buffer[y][x].char, cells.data_buffer[y][x].style) for x in range(columns)]
            for y in range(rows)]


def test_the_plain_board_draws_the_new_game_in_the_palettes_colours(pig):
    source = LocalSource(pig, players=2, seed=4)
    app, _ = build(GamePresenter(source), output=FixedSizeOutput(110, 30))

    async def draw():  # (drawing the input line starts a task: it needs a running loop)
        return _cells(app, 110, 30)

    rows = asyncio.run(draw())
    text = ["".join(ch for ch, _ in row) for row in rows]
    assert any("Pig, first to 30" in line for line in text), "\n".join(text)
    look = styles.style()
    seat_one = [(ch, style) for row in rows for ch, style in row if "class:board.seat.1" in style]
    assert seat_one and {ch for ch, _ in seat_one} == {"1"}, seat_one  # seat 1's number on the board
    attrs = look.get_attrs_for_style_str(seat_one[0][1])
    assert attrs.color == palette.SEATS[1].removeprefix("#") and attrs.bold  # drawn in seat 1's colour
    title = next(style for row in rows for ch, style in row if "class:board.title" in style)
    assert look.get_attrs_for_style_str(title).bold


def test_f1_shows_the_new_games_rules_from_its_engine(pig):
    async def body():
        async with Screen(GamePresenter(LocalSource(pig, players=2, seed=4)), 110, 32) as screen:
            await screen.press("f1")
            assert "a 1 loses the turn total" in screen.text()

    run(body())


def test_f1_names_the_spec_file_of_a_game_without_a_rules_text(pig, monkeypatch):
    from peerboard.client.tui.help import help_text

    monkeypatch.setattr(type(pig), "rules_text", lambda self: "")
    shown = help_text("pig", "keys", [("F1", "Help")])
    assert "Pig has no rules summary here; its rules are in spec/games/pig.md." in shown


def _wins(game, games, seed):
    """Wins per bot name over `games` seeded games, the seats swapped every other game."""
    wins = {"greedy": 0, "random": 0}
    for g in range(games):
        names = ("greedy", "random") if g % 2 == 0 else ("random", "greedy")
        bots = [make_bot(name, seed=f"{seed}-{g}-{i}") for i, name in enumerate(names)]
        played = play_game(game, {}, bots, list(names), random.Random(f"{seed}-{g}"))
        assert played.finished and not played.faults
        for w in played.winners:
            wins[names[w]] += 1
    return wins


def test_greedy_beats_random_in_the_new_game(pig, monkeypatch):
    """The generic knowledge adds the engine's heuristic to its scores, so greedy rolls
    while one more roll is worth it; by the scores alone it banks every roll, and loses
    (measured: 45 of 60 won with the heuristic, 150 of 200; by scores alone 47 of 200)."""
    wins = _wins(pig, games=60, seed=1)
    assert wins["greedy"] + wins["random"] == 60
    assert wins["greedy"] >= 39, wins
    monkeypatch.setattr(type(pig), "heuristic", lambda self, state, seat: None)
    assert _wins(pig, games=60, seed=1)["greedy"] < wins["greedy"] - 10


def test_the_json_view_serves_the_new_game_its_record_and_board(pig):
    state = pig.apply(pig.new_game(2), ("die", 5))
    view = view_json(pig, pig.view(state, 0), 0)
    assert view["record"] == ["pig", 30, [0, 0], 0, 5, "choose"]
    assert "turn total 5; seat 0 rolls again or holds" in view["text"]
    json.dumps(view)  # JSON as it is


@pytest.mark.processes
def test_the_example_python_bot_plays_the_new_game(pig):
    command = f"{sys.executable} {ROOT / 'examples' / 'random_bot.py'} 3"
    for g in range(2):
        bots = [ProgramBot(command, seed=g), make_bot("random", seed=g)]
        played = play_game(pig, {}, bots, ["exec", "random"], random.Random(g))
        assert played.finished and not played.faults and not played.forfeits, played.faults
        assert played.moves > 0
