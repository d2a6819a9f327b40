"""peerboard.svg: every game's position as a standalone SVG, as a seat may see it.

The pixels are checked in a real browser (test_svg_render.py); here, what a picture says:
it is one well-formed SVG document, it names whose turn it is and the scores, it changes
when the position does, it hides what the seat may not see, and hostile names stay text."""
import random
import xml.etree.ElementTree as ET

import pytest

import peerboard.svg
from peerboard import engines
from peerboard.engines import CHANCE
from support import new_game

NS = "{http://www.w3.org/2000/svg}"


def played(name: str, players: int, actions: int, seed: int = 1):
    """(game, state, the last seat action, the state before it) after `actions` random actions."""
    game = engines.get(name)
    state, rng, before, last = game.new_game(players), random.Random(seed), None, None
    for _ in range(actions):
        if game.is_terminal(state):
            break
        action = rng.choice(game.legal_actions(state))
        if game.current(state) != CHANCE:
            before, last = state, action
        state = game.apply(state, action)
    return game, state, last, before


def words(svg: str) -> str:
    """The words a picture shows, each text (and each placed word) apart."""
    return " ".join(e.text for e in ET.fromstring(svg).iter() if e.tag in (f"{NS}text", f"{NS}tspan") and e.text)


@pytest.mark.parametrize("name,players", [("athos", 3), ("aton", 2), ("asterix", 3)])
def test_each_game_draws_a_whole_svg_naming_the_turn_and_the_scores(name, players):
    game, state, last, before = played(name, players, 120)
    svg = peerboard.svg.board(game, state, size=500, last=last, before=before, names=["Ann", "Bob", "Cy"])
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg" and root.get("width") == "500"
    said = words(svg)
    actor = game.current(state)
    if actor >= 0:
        assert f"(seat {actor})" in said
    for who in ["Ann", "Bob", "Cy"][:players]:
        assert who in said
    assert f"last: {game.format_action(before, last)}" in said
    assert root.find(f"{NS}title").text  # what the picture shows, in one line


@pytest.mark.parametrize("name,players", [("athos", 2), ("aton", 2), ("asterix", 2)])
def test_the_picture_changes_with_the_position(name, players):
    game, early, _, _ = played(name, players, 60)
    _, later, _, _ = played(name, players, 90)
    assert peerboard.svg.board(game, early) != peerboard.svg.board(game, later)


def test_a_game_by_its_name_and_a_new_game_drawn():
    game = engines.get("athos")
    assert peerboard.svg.board("athos", game.new_game(2)) == peerboard.svg.board(game, game.new_game(2))


def test_the_athos_mountain_has_every_hex_named_and_a_step_drawn_as_an_arrow():
    game = engines.get("athos")
    state = game.new_game(2)
    step = game.parse_action(state, "B-a6")
    svg = peerboard.svg.board(game, game.apply(state, step), last=step, before=state)
    said = words(svg).split()
    assert all(name in said for name in ("a1", "a17", "b16", "k1", "k7", "summit"))
    assert 'marker-end="url(#athos-arrow)"' in svg


def test_the_opponents_aton_hand_is_drawn_face_down_in_a_seat_view():
    game = engines.get("aton")
    state = game.new_game(2)
    while state.phase != "assign":  # both seats have drawn their four cards
        state = game.apply(state, game.legal_actions(state)[0])
    assert state.seats[1].hand_size == 4
    full = peerboard.svg.board(game, state)
    as_seat0 = peerboard.svg.board(game, state, seat=0)
    back = 'fill="#6b4f2a" stroke="#3d2b13"'  # a card's back
    assert full.count(back) == 0
    assert as_seat0.count(back) == 4
    assert "(you)" in words(as_seat0)


def test_hostile_names_stay_text():
    game = engines.get("aton")
    svg = peerboard.svg.board(game, game.new_game(2), names=["<script>alert(1)</script>", "\x1b[2Jbob"])
    ET.fromstring(svg)
    assert "<script" not in svg and "\x1b" not in svg
    assert "<script>alert(1)</script>" in words(svg)


def test_a_notebook_shows_a_picture():
    game = engines.get("asterix")
    picture = peerboard.svg.Picture(game, game.new_game(2))
    assert picture._repr_svg_().startswith("<svg") and str(picture) == picture.svg


@pytest.fixture
def pig(monkeypatch):
    """Pig (tests/support/newgame/pig), registered for the test (support/new_game.py)."""
    yield new_game.register(monkeypatch)
    new_game.forget()


def test_a_game_without_a_drawing_of_its_own_is_drawn_from_its_styled_board(pig):
    state = pig.new_game(2)
    svg = peerboard.svg.board(pig, state, seat=1)
    said = words(svg)
    assert "Pig, first to 30" in said and "banked" in said and "(you)" in said
    seat_colour = 'fill="#f05a55"'  # seat 0's style, "bold ansired", as on the terminal
    assert seat_colour in svg
    rolled = pig.apply(state, ("die", 5))
    assert peerboard.svg.board(pig, rolled) != peerboard.svg.board(pig, state)
