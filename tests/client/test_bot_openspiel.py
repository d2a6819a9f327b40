"""OpenSpiel's bots in a peerboard seat: `openspiel:mcts` and `openspiel:is_mcts` by name,
whole games at a table of bots, selfplay pitting ours against theirs, and one clear line
where the research extra is missing."""
from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install -e '.[research]'")

import peerboard.openspiel  # noqa: E402
from peerboard import engines  # noqa: E402
from peerboard.client.bots import Budget, Decision, make_bot  # noqa: E402
from peerboard.client.bots.openspiel_bots import PROBE, OpenSpielIsMctsBot, OpenSpielMctsBot  # noqa: E402
from peerboard.client.bots.sdk import BotError, notation_of  # noqa: E402
from peerboard.client.bots.table import play_game  # noqa: E402
from peerboard.client.lan.reading import takeover_strategy  # noqa: E402
from peerboard.client.usage import UsageError  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _decision(game, state, seat, kind="move"):
    view = game.view(state, seat)
    legal = tuple(game.choices_for(view, seat) if kind == "commit" else game.legal_actions(state))
    return Decision(game.name, game, seat, view, legal, notation_of(game, view, legal), kind)


def _aton_at_the_cartouches():
    """An Aton position at the four cartouches, both seats to choose in secret."""
    game = engines.get("aton")
    state, rng = game.new_game(2), random.Random(1)
    while not game.secret_choice(state):
        state = game.apply(state, game.sample_chance(state, rng.randbytes(32)) if game.current(state) == engines.CHANCE
                           else rng.choice(game.legal_actions(state)))
    return game, state


def test_the_openspiel_bots_are_built_in_names():
    assert isinstance(make_bot("openspiel:mcts"), OpenSpielMctsBot)
    assert isinstance(make_bot("openspiel:is_mcts"), OpenSpielIsMctsBot)


def test_is_mcts_plays_whole_games_of_aton_against_random_with_no_fault():
    game = engines.get("aton")
    bots = [make_bot("random", seed=2), make_bot("openspiel:is_mcts", seed=1, budget=Budget(playouts=15))]
    played = play_game(game, {"win_points": 12}, bots, ["random", "is_mcts"], random.Random(3))
    assert played.finished and played.winners and played.faults == []
    assert bots[1].playouts >= 15 * 5  # it searched, turn after turn (a single legal action needs no search)


@pytest.mark.parametrize("name,options", [("asterix", {"max_rounds": 2}), ("athos", {})])
def test_mcts_plays_whole_games_of_the_open_games_with_no_fault(name, options):
    game = engines.get(name)
    bot = make_bot("openspiel:mcts", seed=5, budget=Budget(playouts=8))
    bot.rollout = 0 if name == "athos" else bot.rollout  # (a random Athos rollout runs a thousand actions)
    played = play_game(game, options, [bot, make_bot("random", seed=6)], ["mcts", "random"], random.Random(7),
                       max_moves=4000)
    assert played.finished and played.faults == []


def test_a_seat_second_at_the_cartouches_chooses_with_the_first_choice_hidden():
    game, state = _aton_at_the_cartouches()
    decision = _decision(game, state, 1, kind="commit")
    spiel = peerboard.openspiel.load("aton", 2)
    searched = peerboard.openspiel.from_view(spiel, decision.view, 1, bytes(32))
    assert searched.current_player() == 1
    assert searched.information_state_string(1).splitlines()[-1] == "seat 0 chose in secret"
    for bot in (OpenSpielIsMctsBot(seed=3, budget=Budget(playouts=20)),
                OpenSpielMctsBot(seed=3, budget=Budget(playouts=20))):
        bot.on_start("aton", 1, 2, {})
        assert bot.decide(decision) in decision.legal


def test_the_same_seed_makes_the_same_choice():
    game, state = _aton_at_the_cartouches()
    decision = _decision(game, state, 0, kind="commit")
    chosen = set()
    for _ in range(2):
        bot = make_bot("openspiel:is_mcts", seed=11, budget=Budget(playouts=30))
        bot.on_start("aton", 0, 2, {})
        chosen.add(bot.decide(decision))
    assert len(chosen) == 1


def test_a_budget_in_seconds_measures_the_speed_then_searches():
    game = engines.get("asterix")
    state, rng = game.new_game(2), random.Random(2)
    while game.current(state) == engines.CHANCE or len(game.legal_actions(state)) < 2:
        state = game.apply(state, game.sample_chance(state, rng.randbytes(32)) if game.current(state) == engines.CHANCE
                           else game.legal_actions(state)[0])
    bot = make_bot("openspiel:mcts", seed=1, budget=Budget(seconds=0.2))
    bot.on_start("asterix", 0, 2, {"max_rounds": 2})
    decision = _decision(game, state, game.current(state))
    assert bot.decide(decision) in decision.legal
    assert bot.playouts >= PROBE  # at least the first, measuring search


@pytest.mark.processes
def test_selfplay_pits_ours_against_theirs():
    out = subprocess.run([sys.executable, "-m", "peerboard.client.cli", "selfplay", "asterix", "--players",
                          "mcts@10,openspiel:mcts@10", "--games", "2", "--seed", "4", "--option", "max_rounds=2"],
                         capture_output=True, text=True, cwd=ROOT, timeout=240)
    assert out.returncode == 0, out.stderr
    rows = {line.split()[0]: line.split() for line in out.stdout.splitlines() if line.split()}
    assert rows["mcts"][1] == rows["openspiel:mcts"][1] == "2"  # both played both games
    assert rows["mcts"][-1] == rows["openspiel:mcts"][-1] == "0"  # and neither failed


def test_without_the_research_extra_one_line_says_how_to_install_it(monkeypatch):
    for module in ("pyspiel", "peerboard.client.bots.openspiel_bots"):
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # what `import pyspiel` meets where it is not installed
    with pytest.raises(BotError, match=r"needs the research extra.*pip install 'peerboard\[research\]'"):
        make_bot("openspiel:is_mcts")


def test_a_takeover_bot_is_one_every_node_can_run():
    with pytest.raises(UsageError, match="--takeover takes one of greedy, mcts, random or none"):
        takeover_strategy("openspiel:mcts")


@pytest.mark.processes
def test_the_example_of_an_openspiel_bot_plays_from_its_folder():
    """examples/openspiel_mcts.py, the docs' bot of a dozen lines, as docs/research.md runs it."""
    out = subprocess.run([sys.executable, "-m", "peerboard.client.cli", "selfplay", "asterix", "--players",
                          "openspiel_mcts:OpenSpielMCTS,random", "--games", "1", "--seed", "2", "--option", "max_rounds=2"],
                         capture_output=True, text=True, cwd=os.path.join(ROOT, "examples"), timeout=240)
    assert out.returncode == 0, out.stderr
    row = next(line.split() for line in out.stdout.splitlines() if line.startswith("openspiel_mcts:OpenSpielMCTS"))
    assert row[1] == "1" and row[-1] == "0"  # it played the game, and never failed
