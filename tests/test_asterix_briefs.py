"""A search's followers in brief (engines/asterix/briefs.py) are the followers `apply`
makes, read as a search's judge reads them: the same actions in the same order, the
position itself wherever the seat acts on, and for every action the brief of the position
`apply` makes, to the last bit; and the judge values a brief as it values that position."""
from __future__ import annotations

import random

import pytest

from peerboard import engines
from peerboard.client.bots.knowledge import knowledge_for
from peerboard.client.bots.lookahead import followers, lookahead
from peerboard.engines.asterix.briefs import in_brief
from peerboard.engines.asterix.state import OVER
from peerboard.engines.playout import random_action

GAME = engines.get("asterix")
OPTION_SETS = ({}, {"carry_rule": "both"}, {"max_rounds": 3}, {"carry_rule": "both", "max_rounds": 12})


def _positions(players: int, seed: int):
    """Every position of a seeded random game where a seat acts."""
    rng = random.Random(f"briefs:{players}:{seed}")
    state = GAME.new_game(players, OPTION_SETS[seed % len(OPTION_SETS)])
    while not GAME.is_terminal(state):
        if GAME.current(state) >= 0:
            yield state
        state = GAME.apply(state, random_action(GAME, state, rng))


@pytest.mark.parametrize("players", range(2, 9))
def test_every_brief_is_the_brief_of_the_position_apply_makes(players):
    ended = kept = 0
    for seed in range(6):
        for state in _positions(players, seed):
            briefs = GAME.successors_in_brief(state)
            applied = [(action, GAME.apply(state, action)) for action in GAME.legal_actions(state)]
            assert [action for action, _, _ in briefs] == [action for action, _ in applied]
            for (action, after, brief), (_, real) in zip(briefs, applied):
                assert brief == in_brief(real), (GAME.render_text(state), action)
                if GAME.current(real) == state.actor:
                    assert after == real and GAME.state_hash(after) == GAME.state_hash(real)
                    kept += 1
                else:
                    assert after is None  # the seat's own actions end there: never built
                    ended += 1
    assert ended > 1000 and kept > 1000  # both kinds met, in every phase a seat acts in


def test_a_brief_says_the_game_is_over_when_the_last_landing_ends_it():
    # Seat 0 on the last round lands with its last die: the round limit ends the game,
    # whatever square it lands on; every landing is given in brief, and over.
    for state in _positions(2, 2):  # max_rounds 3
        if state.phase == "move" and len(state.dice) == 1 and state.round == 3 \
                and (state.actor + 1) % state.players == state.first:
            break
    else:
        pytest.fail("no last landing of the last round met")
    briefs = GAME.successors_in_brief(state)
    ended = [brief for _, after, brief in briefs if after is None]
    assert ended and all(over for *_, over in ended)
    assert all(GAME.apply(state, action).phase == OVER for action, after, _ in briefs if after is None)


def test_the_judge_values_a_brief_as_the_position_itself():
    know = knowledge_for(GAME)
    fresh = knowledge_for(GAME)  # (its own memo: each value worked out from what it is given)
    for state in _positions(3, 1):
        for action, after, brief in GAME.successors_in_brief(state):
            real = GAME.apply(state, action)
            assert list(know.evaluate_brief(brief)) == fresh.evaluate(real)


def test_a_search_in_brief_finds_the_same_values_as_one_that_builds_every_position():
    know = knowledge_for(GAME)
    met = 0
    for state in _positions(2, 0):
        if state.phase not in ("order", "move"):
            continue
        seat = state.actor
        spent, spent_briefly = [10**6], [10**6]
        built = lookahead(GAME, know, state, seat, 3, spent, {}, {})
        brief = lookahead(GAME, know, state, seat, 3, spent_briefly, {}, {}, briefly=True)
        assert brief == built
        # a position given in brief is never built, and not counted: a deep search is
        # cut short no sooner than before
        assert spent_briefly[0] >= spent[0]
        met += 1
    assert met > 50


def test_followers_in_brief_leave_unbuilt_only_where_the_turn_ends():
    state = next(s for s in _positions(2, 3) if s.phase == "move" and len(s.dice) == 1)
    for action, after, brief in followers(GAME, state, None, briefly=True):
        real = GAME.apply(state, action)
        assert (after is None) == (real.phase in ("roll", "over"))
    for action, after, brief in followers(GAME, state, None):
        assert brief is None and after == GAME.apply(state, action)
