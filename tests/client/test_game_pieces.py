"""Each game's client pieces in one place (client/games/NAME/), each with a fallback that
serves; the rules in brief from the engine, in the same words as its spec; one palette
for the line prompt and the full screen; a program bot's hello that plays any game."""
import json
import re
import sys
import textwrap
from pathlib import Path

import pytest

from peerboard import engines
from peerboard.client import palette
from peerboard.client.bots.guard import BotFault
from peerboard.client.bots.program import ProgramBot
from peerboard.client.colour import paint
from peerboard.client.games import piece
from peerboard.client.tui import styles
from peerboard.client.tui.boards import BoardContext, board_for
from peerboard.client.tui.boards.plain import PlainBoard
from peerboard.client.tui.help import help_text
from support import rules_in_brief

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", engines.names())
def test_the_rules_in_brief_are_the_same_words_in_the_engine_and_its_spec(name):
    assert rules_in_brief.spec_differs(name) is None


@pytest.mark.parametrize("name", engines.names())
def test_help_shows_the_rules_the_engine_gives(name):
    assert engines.get(name).rules_text()  # (the shipped games each have theirs)
    assert rules_in_brief.help_misses(name) is None


def test_the_lobby_help_names_no_game_and_needs_no_engine():
    assert help_text("", "keys", [("F1", "Help")]) == "F1 Help\n\nkeys\n\nEsc, F1 or ? closes this help."


def test_the_shipped_games_bring_their_own_board_knowledge_and_view_where_they_have_them():
    assert type(board_for("aton")).__module__ == "peerboard.client.games.aton.board"
    assert piece("athos", "view") is None  # Athos: the generic JSON view, its public record
    assert piece("asterix", "view") is not None and piece("aton", "knowledge") is not None
    assert piece("no-such-game", "board") is None and piece("nope", "board") is None


def test_a_game_without_a_board_of_its_own_is_drawn_from_its_styled_picture():
    board = PlainBoard("athos")
    state = board.game.new_game(2)
    drawing = board.draw(BoardContext(state, 0, ("a", "b")))
    assert drawing.text() == "\n".join(line.rstrip() for line in board.game.render_text(state, 0).splitlines())
    styled = {style for line in drawing.lines for style, _, _ in line if style}
    assert "class:board.seat.0" in styled and any(s.startswith("class:board.tile.blocking.") or
                                                   s.startswith("class:board.tile.empty.") for s in styled)


def _engine_styles():
    """Every style name the engines gave in the stored board snapshots."""
    names = set()
    for path in (ROOT / "tests" / "support" / "snapshots").glob("*.styles.txt"):
        for line in path.read_text().splitlines():
            names.add(line.split("\t", 1)[0])
    return names - {""}


def test_every_style_the_engines_give_has_one_look_in_the_palette_for_both_clients():
    names = _engine_styles()
    assert "seat.1" in names and "tile.boar" in names and "square.bonus" in names
    screen = styles.style()
    for name in sorted(names):
        code = palette.sgr(name)
        assert code is not None, f"the palette has no look for the style {name!r}"
        assert screen.get_attrs_for_style_str(f"class:board.{name}") == palette.attrs(name), name
        assert paint([(name, "x")], True) == f"\x1b[{code}mx\x1b[0m"


def test_the_screens_seat_colours_are_the_palettes():
    screen = styles.style()
    for seat, colour in enumerate(palette.SEATS):
        assert screen.get_attrs_for_style_str(f"class:seat{seat}").color == colour


HELLO = textwrap.dedent('''
    import json, sys
    hello = json.loads(sys.argv[1])
    for raw in sys.stdin:
        t = json.loads(raw).get("type")
        if t == "error":
            continue
        print(json.dumps(hello if t == "hello" else {"ok": True}), flush=True)
''')


def _start(tmp_path, hello, game="athos"):
    program = tmp_path / "hello.py"
    program.write_text(HELLO)
    bot = ProgramBot(f"{sys.executable} {program} '{json.dumps(hello)}'")
    try:
        bot.on_start(game, 0, 2, engines.get(game).resolve_options(2, {}))
    finally:
        bot.close()


@pytest.mark.processes
@pytest.mark.parametrize("hello", [
    {"protocol": 1, "games": "*"},
    {"protocol": 1},
    {"protocol": 1, "games": ["athos", "aton"]},  # a version-1 program's list
])
def test_a_program_that_plays_any_game_or_names_this_one_is_taken(tmp_path, hello):
    _start(tmp_path, hello)


@pytest.mark.processes
@pytest.mark.parametrize("hello, says", [
    ({"protocol": 1, "games": 3}, 'named neither a list of games nor "*" in its hello'),
    ({"protocol": 1, "games": "athos"}, 'named neither a list of games nor "*" in its hello'),
    ({"protocol": 1, "games": ["aton"]}, "does not play athos (it plays aton)"),
])
def test_a_program_that_does_not_say_it_plays_this_game_is_refused(tmp_path, hello, says):
    with pytest.raises(BotFault, match=re.escape(says)):
        _start(tmp_path, hello)


def test_a_registered_package_without_its_game_says_what_it_must_define(monkeypatch):
    from peerboard.engines import registry

    monkeypatch.setitem(registry._MODULES, "styled", "peerboard.engines.styled")  # a module with no GAME
    monkeypatch.setattr(registry, "_loaded", {})
    with pytest.raises(TypeError, match=re.escape("peerboard.engines.styled must define GAME, an engines.Game "
                                                  "whose name is 'styled'")):
        engines.get("styled")
