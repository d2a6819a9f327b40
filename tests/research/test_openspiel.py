"""Every registered game passes OpenSpiel's own checks, and OpenSpiel's search plays it.

`pyspiel.random_sim_test` plays random games through the whole pyspiel API (legal actions,
chance odds, clones, serialisation, every seat's observation and information state) for
every game and player count; OpenSpiel's MCTS bot plays whole games of the perfect-
information games and its IS-MCTS bot whole games of Aton, whose hands and cartouches are
hidden.
"""
from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install -e '.[research]'")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import peerboard.openspiel  # noqa: E402,F401  (registers the games)
from peerboard import engines  # noqa: E402

Information = pyspiel.GameType.Information


def _every_count():
    for name in engines.names():
        game = engines.get(name)
        for players in range(game.min_players, game.max_players + 1):
            yield name, players


#: options that keep a random game short where a game has them: the sim test walks the whole
#: API at every state (clones, serialisation, every seat's observation), and a random Asterix game
#: at many seats runs its hundred rounds; ten rounds reach every phase and the end as well
SHORT = {"asterix": ",max_rounds=10"}


@pytest.mark.parametrize("name,players", list(_every_count()))
def test_random_sim_test_passes(name, players):
    game = pyspiel.load_game(f"peerboard_{name}(players={players}{SHORT.get(name, '')})")
    assert game.num_players() == players
    assert game.num_distinct_actions() == len(engines.get(name).action_ids(players))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_every_registered_game_is_an_openspiel_game():
    assert peerboard.openspiel.registered() == {name: f"peerboard_{name}" for name in engines.names()}
    assert {f"peerboard_{name}" for name in engines.names()} <= set(pyspiel.registered_names())


def test_options_are_game_parameters():
    game = pyspiel.load_game('peerboard_athos(players=2,bonus_must_be_spent=True,handicap={"1":2})')
    assert game.get_parameters()["bonus_must_be_spent"] is True
    state = game.new_initial_state()
    assert state.current_player() == 1  # the handicapped seat places its tiles first
    assert game.new_initial_state().engine_state.setup.handicap == (0, 2)


def test_a_bad_option_is_refused_with_the_engines_reason():
    with pytest.raises(Exception, match="teams=True needs 4 players"):
        pyspiel.load_game("peerboard_athos(players=2,teams=True)")


def test_the_kind_of_each_game():
    aton = pyspiel.load_game("peerboard_aton").get_type()
    athos = pyspiel.load_game("peerboard_athos").get_type()
    asterix = pyspiel.load_game("peerboard_asterix").get_type()
    assert aton.information == Information.IMPERFECT_INFORMATION
    assert athos.information == asterix.information == Information.PERFECT_INFORMATION
    assert athos.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert asterix.chance_mode == aton.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def _to_secret_choice(game):
    """An Aton state at the cartouches, seat 0 to choose (the first round's draws dealt)."""
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while state.is_chance_node() or state.engine_state.phase != "assign":
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=odds)))
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def test_a_draw_is_told_to_its_owner_alone():
    state = pyspiel.load_game("peerboard_aton").new_initial_state()
    first = state.chance_outcomes()[0][0]
    state.apply_action(first)
    assert state.information_state_string(0).splitlines()[-1] == f"chance: draw {first + 1}"
    assert state.information_state_string(1).splitlines()[-1] == "chance: draw ?"


def test_a_secret_choice_stays_hidden_until_the_group_has_chosen():
    state = _to_secret_choice(pyspiel.load_game("peerboard_aton"))
    seen_by_1 = state.observation_string(1), list(state.observation_tensor(1))
    choice = state.legal_actions()[0]
    text = state.action_to_string(0, choice)
    state.apply_action(choice)
    assert state.current_player() == 1
    assert state.information_state_string(1).splitlines()[-1] == "seat 0 chose in secret"
    assert state.information_state_string(0).splitlines()[-1] == f"seat 0: {text}"
    assert (state.observation_string(1), list(state.observation_tensor(1))) == seen_by_1
    other = state.legal_actions()[0]
    state.apply_action(other)
    assert f"seat 0 chose: {text}" in state.information_state_string(1).splitlines()


def test_returns_are_zero_sum_at_the_end():
    game = pyspiel.load_game("peerboard_asterix(players=3,max_rounds=2)")
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=odds)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    winners = engines.get("asterix").winners(state.engine_state)
    assert [seat for seat, r in enumerate(returns) if r > 0] == winners


class _ScoreEvaluator(mcts.Evaluator):
    """A leaf's value without a rollout: returns at the end, else 0 (Athos's random
    rollouts run hundreds of actions; the search itself is OpenSpiel's)."""

    def evaluate(self, state):
        return np.asarray(state.returns() if state.is_terminal() else [0.0] * state.num_players())

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def _play(game, bot, rng):
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes())
            action = int(rng.choice(outcomes, p=odds))
        elif state.current_player() == 0:
            action = bot.step(state)
            decisions += 1
        else:
            action = int(rng.choice(state.legal_actions()))
        assert action in (state.legal_actions() if not state.is_chance_node() else [a for a, _ in state.chance_outcomes()])
        state.apply_action(action)
    return state, decisions


@pytest.mark.parametrize("spec,evaluator", [
    ("peerboard_asterix(players=2,max_rounds=15)", "rollout"),
    ("peerboard_asterix(players=4,max_rounds=6)", "rollout"),
    ("peerboard_athos(players=2)", "score"),
    ("peerboard_athos(players=3)", "score"),
])
def test_openspiels_mcts_plays_whole_games(spec, evaluator):
    game = pyspiel.load_game(spec)
    rng = np.random.RandomState(7)
    leaf = mcts.RandomRolloutEvaluator(1, rng) if evaluator == "rollout" else _ScoreEvaluator()
    bot = mcts.MCTSBot(game, 2.0, 3, leaf, random_state=rng, solve=False)
    state, decisions = _play(game, bot, rng)
    assert state.is_terminal() and decisions > 10
    assert sum(state.returns()) == pytest.approx(0.0)


def test_openspiels_is_mcts_plays_whole_games_of_aton():
    game = pyspiel.load_game("peerboard_aton(win_points=20)")
    rng = np.random.RandomState(11)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 10, random_state=rng)
    state, decisions = _play(game, bot, rng)
    assert state.is_terminal() and decisions > 5


def test_a_resampled_state_keeps_what_the_seat_knows():
    state = _to_secret_choice(pyspiel.load_game("peerboard_aton"))
    state.apply_action(state.legal_actions()[-1])  # seat 0 chooses; seat 1 to choose
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(5):
        sample = state.resample_from_infostate(1, sampler)
        assert sample.information_state_string(1) == state.information_state_string(1)
        assert sample.observation_string(1) == state.observation_string(1)
        assert sample.legal_actions() == state.legal_actions()


def test_every_seat_observes_the_same_board_in_a_game_of_perfect_information():
    state = pyspiel.load_game("peerboard_athos(players=3)").new_initial_state()
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    assert {state.observation_string(seat) for seat in range(3)} == {str(state)}
    assert str(state) == engines.get("athos").render_text(state.engine_state)


def test_an_information_state_is_the_same_worked_out_step_by_step_or_at_once():
    """A seat's text is kept and extended action by action; a branch off an earlier state
    and a state read back from its serialisation (worked out from the start) agree."""
    game = pyspiel.load_game("peerboard_aton(win_points=20)")
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    branch = None
    for step in range(120):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes())
            action = int(rng.choice(outcomes, p=odds))
        else:
            action = int(rng.choice(state.legal_actions()))
        if step == 60:
            branch = state.clone()
        state.apply_action(action)
        if step % 7 == 0:
            state.information_state_string(step % 2)
    for seat in range(2):
        fresh = game.deserialize_state(state.serialize())
        assert state.information_state_string(seat) == fresh.information_state_string(seat)
    legal = branch.legal_actions() or [a for a, _ in branch.chance_outcomes()]
    branch.apply_action(legal[-1])
    for seat in range(2):
        fresh = game.deserialize_state(branch.serialize())
        assert branch.information_state_string(seat) == fresh.information_state_string(seat)
