"""The bot SDK: a class with one method gets the seat's view, the legal actions and their
notation; built-in players by name, third-party bots by import path; seeded play replays."""
import random
import sys
import textwrap

import pytest

from peerboard import engines
from peerboard.client.bots import Bot, BotError, Budget, make_bot
from peerboard.client.bots.table import play_game

ATON = engines.get("aton")


class Spy(Bot):
    """Plays the first legal action and keeps every decision and notification."""

    name = "spy"

    def __init__(self, seed=0, budget=None):
        super().__init__(seed, budget)
        self.decisions, self.actions, self.started, self.ended = [], [], None, None

    def on_start(self, game, seat, players, options):
        self.started = (game, seat, players, dict(options))

    def decide(self, decision):
        self.decisions.append(decision)
        return decision.legal[0]

    def on_action(self, seat, actions, texts):
        self.actions.append((seat, actions, texts))

    def on_end(self, winners, scores):
        self.ended = (winners, scores)


def test_a_bot_gets_its_seats_view_never_the_opponents_hand():
    spy = Spy()
    played = play_game(ATON, {"win_points": 15}, [make_bot("random", seed=1), spy], ["random", "spy"],
                       random.Random(2))
    assert spy.decisions and all(d.seat == 1 and d.game_name == "aton" for d in spy.decisions)
    for d in spy.decisions:
        assert d.view.seats[0].hand is None            # the opponent's hand: unknown
        assert d.view.seats[1].hand is not None        # its own: known
        assert d.notation == tuple(ATON.format_action(d.view, a) for a in d.legal)
    kinds = {d.kind for d in spy.decisions}
    assert kinds == {"move", "commit"}                 # the cartouches are a secret choice
    assert spy.started == ("aton", 1, 2, {"win_points": 15, "first_round_removal": False})
    assert spy.ended == (played.winners, played.scores)
    # every move of both seats was told, in the notation, and no hidden draw among them
    assert {seat for seat, _, _ in spy.actions} == {0, 1}
    assert all(not t.startswith("draw") for _, _, texts in spy.actions for t in texts)
    assert sum(len(a) for _, a, _ in spy.actions) == played.moves


@pytest.mark.parametrize("name", ["random", "greedy", "mcts"])
@pytest.mark.parametrize("game", ["aton", "asterix"])
def test_each_built_in_player_plays_a_whole_game(name, game):
    g = engines.get(game)
    options = {"win_points": 10} if game == "aton" else {"max_rounds": 3}
    bots = [make_bot(name, seed=1, budget=Budget(playouts=10)), make_bot("random", seed=2)]
    played = play_game(g, options, bots, [name, "random"], random.Random(4))
    assert g.is_terminal(played.state) and played.faults == []


def test_the_same_seeds_play_the_same_game():
    def game():
        bots = [make_bot("mcts", seed=7, budget=Budget(playouts=20)), make_bot("greedy", seed=8)]
        played = play_game(ATON, {"win_points": 12}, bots, ["a", "b"], random.Random(5))
        return [e.body for e in played.entries if e.kind == "move"]

    assert game() == game()


def test_budgets_in_playouts_or_seconds():
    assert Budget.parse("2000") == Budget(playouts=2000)
    assert Budget.parse("0.5s") == Budget(seconds=0.5)
    assert Budget.parse("250ms") == Budget(seconds=0.25)
    for bad in ("", "0", "1.5", "fast", "-3s", "0s"):
        with pytest.raises(ValueError):
            Budget.parse(bad)


def test_a_third_party_bot_loads_by_import_path(tmp_path, monkeypatch):
    (tmp_path / "mybots").mkdir()
    (tmp_path / "mybots" / "__init__.py").write_text("")
    (tmp_path / "mybots" / "last.py").write_text(textwrap.dedent('''
        from peerboard.client.bots import Bot

        class LastBot(Bot):
            name = "last"

            def decide(self, decision):
                return decision.legal[-1]
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = make_bot("mybots.last:LastBot", seed=3)
    assert type(bot).__name__ == "LastBot"
    played = play_game(ATON, {"win_points": 10}, [bot, make_bot("random")], ["last", "random"], random.Random(1))
    assert played.faults == []
    sys.modules.pop("mybots.last", None)
    sys.modules.pop("mybots", None)


@pytest.mark.parametrize("spec, says", [
    ("alphazero", "there is no bot 'alphazero'"),
    ("no_such_module:Bot", "cannot import 'no_such_module'"),
    ("peerboard.client.bots.sdk:Budget", "is not a Bot class"),
])
def test_a_bad_bot_name_is_one_clear_sentence(spec, says):
    with pytest.raises(BotError, match=says):
        make_bot(spec)


class Raises(Bot):
    def decide(self, decision):
        raise RuntimeError("my bug")


class Illegal(Bot):
    def decide(self, decision):
        return ("place", 99)


@pytest.mark.parametrize("bot, says", [
    (Raises(), "raised RuntimeError: my bug"),
    (Illegal(), "answered ('place', 99), which is not one of"),
])
def test_a_python_bot_that_fails_falls_back_to_random_and_the_game_goes_on(bot, says):
    lines = []
    played = play_game(ATON, {"win_points": 10}, [make_bot("random", seed=1), bot], ["random", "bad"],
                       random.Random(3), report=lines.append)
    assert ATON.is_terminal(played.state)
    assert len(lines) == 1 and lines == played.faults
    assert lines[0].startswith("seat 1 (bad) ") and says in lines[0]
    assert lines[0].endswith("the seat is played by the random player from here")
    assert played.forfeits == ()
