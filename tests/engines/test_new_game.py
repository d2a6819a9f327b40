"""The held-out check: a fourth game added exactly as spec/engine-contract.md ("How an
engine is written") says — the engine's folder and one registration line, nothing else —
plays everywhere through the client's fallbacks.

The game is Pig (tests/support/newgame/pig/, written as `engines/pig/` would be: a dice race with
a CHANCE node, a styled board, a rules text and a heuristic). For each test it is put
where `engines/pig/` would be (`peerboard.engines.__path__`) and registered by the one
line a newcomer adds to `engines/registry.py` (tests/support/new_game.py); nothing in client/
names it (client/games/ has no `pig`), and no list in tests/ does: the checks every game
gets (rules in brief, help, snapshots, vectors, the simulated network) take it by its
registration, with what a newcomer writes beside it (its spec, tests/support/newgame/pig.md,
and its snapshots, tests/support/snapshots/pig-*)."""
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
from peerboard.engines.testing import check_random_games
from peerboard.protocol.log.replay import verify_log
from support import new_game, perft, rules_in_brief, snapshots, vectors
from support.simnet import play_clean
from support.tables import quick_tables, tables
from support.tui_harness import Screen, run

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


@pytest.fixture
def pig(monkeypatch):
    yield new_game.register(monkeypatch)
    new_game.forget()


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


def test_the_checks_of_every_game_take_the_new_one_without_a_list_naming_it(pig):
    """What the tests check of every registered game picks Pig up by its registration alone:
    its rules in brief (against its spec) and the help (tests/client/test_game_pieces.py),
    its board snapshots, its test vector, its perft counts, its tables on the simulated
    network."""
    assert "pig" in engines.names()
    for name in engines.names():  # the four, as test_game_pieces.py checks the games it finds
        folder = new_game.SPEC if name == "pig" else rules_in_brief.SPEC_GAMES
        assert rules_in_brief.spec_differs(name, folder) is None
        assert rules_in_brief.help_misses(name) is None
    mine = sorted(name for name, (game, _, _) in snapshots.cases().items() if game == "pig")
    assert mine == ["pig-played", "pig-start"]
    for name in mine:
        assert snapshots.differences(name) == []
    (case,) = [c for c in vectors.cases() if c[0] == "pig"]
    assert case == ("pig", 2, {})
    log = vectors.build(*case)
    assert log == vectors.build(*case)  # from its seeds, the same bytes every time
    verdict = verify_log(log)
    assert verdict.ok and verdict.ledger.finished, verdict.summary()
    assert [p["players"] for p in perft.stored("pig")["positions"]] == [2, 2, 3, 3, 4, 4]
    for position in perft.stored("pig")["positions"]:
        state = perft.replay(pig, position["players"], position["options"], position["actions"])
        assert perft.perft(pig, state, position["depth"]) == (position["lines"], position["states"])
    assert [t for t in tables() if t[0] == "pig"] == [("pig", 2, {}), ("pig", 3, {}), ("pig", 4, {})]
    assert [t for t in quick_tables() if t[0] == "pig"] == [("pig", 2, {}), ("pig", 3, {})]
    play_clean("pig", 3, {})


def test_the_rules_in_brief_written_with_a_last_newline_are_the_same_words(pig, monkeypatch):
    monkeypatch.setattr(type(pig), "rules_in_brief", pig.rules_text() + "\n")
    assert rules_in_brief.spec_differs("pig", new_game.SPEC) is None
    assert rules_in_brief.help_misses("pig") is None
    from peerboard.client.tui.help import help_text

    assert "wins.\n\nEsc, F1" in help_text("pig", "keys", [("F1", "Help")])  # no blank line more than ever


def test_a_game_without_rules_in_brief_passes_the_checks_by_naming_its_spec(pig, monkeypatch):
    monkeypatch.setattr(type(pig), "rules_in_brief", "")
    assert rules_in_brief.spec_differs("pig", new_game.SPEC) == "pig.md has rules in brief that its engine does not give"
    assert rules_in_brief.help_misses("pig") is None  # the help names spec/games/pig.md instead
