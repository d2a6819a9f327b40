"""Hostile values that fit the wire's schema reach the engines: an action of any shape the
schema allows (huge or negative numbers, booleans, nil, text, nested tuples), an option of
any plain value, a line of any text. The engine must answer each with its own error —
IllegalAction, OptionError — and nothing else, because anything else is counted as our own
bug, not the peer's (spec/protocol.md, "Whose fault")."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from support.budget import examples
from peerboard import engines
from peerboard.engines import CHANCE, IllegalAction, OptionError
from peerboard.engines.actions import MAX_ACTION_DEPTH, is_action
from peerboard.engines.playout import random_action

NAMES = engines.names()

ATOMS = (st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.integers(-3, 60)
         | st.text(max_size=12) | st.sampled_from(["", "pass", "place", "move", "draw", "keep", "exchange"]))


def _actions(depth: int = 1):
    if depth >= MAX_ACTION_DEPTH:
        return st.lists(ATOMS, max_size=6).map(tuple)
    return st.lists(ATOMS | _actions(depth + 1), max_size=6).map(tuple)


ACTIONS = _actions()


def _states(name: str, count: int = 40) -> list:
    """States along a few random games of `name`, and the views its seats have of them."""
    game = engines.get(name)
    players, options = (game.conformance_setups or ((game.min_players, {}),))[0]
    rng = random.Random(name)
    states = []
    for _ in range(3):
        state = game.new_game(players, options)
        for n in range(100_000):
            if game.is_terminal(state):
                break
            if n % 7 == 0:
                states.append(state)
                states.append(game.view(state, n % players))
            state = game.apply(state, random_action(game, state, rng))
        states.append(state)
    rng.shuffle(states)
    return states[:count]


STATES = {name: _states(name) for name in NAMES}


def _near_misses(state, game, rng: random.Random, hostile) -> list:
    """Legal actions with one field replaced by a hostile value."""
    legal = game.legal_actions(state)
    if not legal:
        return []
    out = []
    for action in rng.sample(legal, min(3, len(legal))):
        if action:
            i = rng.randrange(len(action))
            out.append(action[:i] + (hostile,) + action[i + 1:])
    return out


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(400), deadline=None)
@given(index=st.integers(0, 10_000), action=ACTIONS, hostile=ATOMS | _actions(MAX_ACTION_DEPTH - 1), seed=st.integers(0, 2**32))
def test_apply_answers_any_schema_valid_action_with_illegal_action_or_a_state(name, index, action, hostile, seed):
    game = engines.get(name)
    states = STATES[name]
    state = states[index % len(states)]
    for candidate in [action, *_near_misses(state, game, random.Random(seed), hostile)]:
        assert is_action(candidate)
        try:
            game.apply(state, candidate)
        except IllegalAction as exc:
            assert str(exc)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(300), deadline=None)
@given(index=st.integers(0, 10_000), text=st.text(max_size=30))
def test_parse_action_answers_any_line_with_illegal_action_or_an_action(name, index, text):
    game = engines.get(name)
    states = STATES[name]
    state = states[index % len(states)]
    if game.current(state) == CHANCE:
        return
    try:
        action = game.parse_action(state, text)
    except IllegalAction as exc:
        assert str(exc)
    else:
        assert is_action(action)


PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8) | st.binary(max_size=4),
    lambda inner: st.lists(inner, max_size=4).map(tuple) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=10,
)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(300), deadline=None)
@given(players=st.integers(-2, 10), values=st.dictionaries(st.text(max_size=10), PLAIN, max_size=3),
       known=st.dictionaries(st.sampled_from(sorted({o for n in NAMES for o in engines.get(n).options_schema})),
                             PLAIN | st.dictionaries(st.sampled_from(["0", "1", "2", "3", "9", "-1", "x"]), PLAIN),
                             max_size=3))
def test_new_game_answers_any_plain_options_with_option_error_or_a_game(name, players, values, known):
    game = engines.get(name)
    for options in (values, known, {**{k: v.default for k, v in game.options_schema.items()}, **known}):
        try:
            game.new_game(players, options)
        except OptionError as exc:
            assert str(exc)
