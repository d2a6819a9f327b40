"""The conformance kit: checks every registered engine must pass (tests/engines/test_conformance.py).

Each check plays seeded random games and asserts the contract at every state, so a new
engine is tested the moment it is registered. Failures are AssertionErrors that name the
game, the seed, the action index and what went wrong.
"""
from __future__ import annotations

import copy
import random
from fractions import Fraction
from typing import Any, Mapping

import msgpack

from peerboard.engines.actions import MAX_ACTION_DEPTH, is_action
from peerboard.engines.canonical import digest, encode
from peerboard.engines.contract import CHANCE, TERMINAL, Action, Game, IllegalAction
from peerboard.engines.playout import random_action
from peerboard.engines.styled import STYLE, plain
from peerboard.engines.values import stale_caches, warm

#: texts that are no action in any game
OFFERED_APPLIED = 3  # legal actions applied at every checked state, besides the one played
WARM_ONE_IN = 4  # states at which every cached value is worked out before the next action
DRAW_ONE_IN = 25  # states whose board is drawn and checked
NONSENSE_TEXTS = ("", "   ", "xyzzy", "place 99.99", "step z99 z98", "move 7 to the moon", "é∞☃")


def wire_roundtrip(action: Action) -> Action:
    """An action after a trip through msgpack, as the protocol decodes it."""
    back: Action = msgpack.unpackb(msgpack.packb(action, use_bin_type=True), use_list=False, raw=False)
    return back


def _perturbed(action: Action, rng: random.Random) -> Action:
    """A near miss of a legal action: one int field far off, or a field dropped."""
    ints = [(i, x) for i, x in enumerate(action) if isinstance(x, int) and not isinstance(x, bool)]
    if ints and rng.random() < 0.7:
        i, x = rng.choice(ints)
        return action[:i] + (x + rng.choice((1000, -1000, 37)),) + action[i + 1 :]
    return action[:-1] if len(action) > 1 else action + ("extra",)


def check_action_ids(game: Game, players: int, options: Mapping[str, Any] | None = None) -> Any:
    """A game's numbering (spec/engine-contract.md, "Action ids"), if it has one: each id
    names one action, which names that id back, and every numbered value is an action.
    Returns the numbering (None for a game without one)."""
    ids = game.action_ids(players, options)
    if ids is None:
        return None
    assert len(ids) > 0 and 0 <= ids.chance <= len(ids), f"{game.name}: an empty numbering"
    for number in range(len(ids)):
        action = ids.action(number)
        assert is_action(action) and ids.id(action) == number, f"{game.name}: id {number} names {action!r} back wrong"
    for bad in (-1, len(ids), True, "0"):
        try:
            ids.action(bad)
        except IllegalAction:
            continue
        raise AssertionError(f"{game.name}: the numbering took {bad!r} as an id")
    return ids


def _check_ids(ids: Any, legal: list[Action], chance: bool, where: str) -> None:
    """Every legal action has an id, of the chance part at CHANCE and of the seats' otherwise."""
    for action in legal:
        try:
            number = ids.id(action)
        except IllegalAction:
            raise AssertionError(f"{where}: the legal {action!r} has no action id") from None
        assert (number < ids.chance) == chance, (
            f"{where}: {action!r} has id {number}, {'not ' if chance else ''}among the chance ids [0, {ids.chance})"
        )


def check_features(game: Game, features: Any, view: Any, seat: int, where: str) -> None:
    """The seat's features: as many numbers as named, each in [0, 1]."""
    values = features(view, seat)
    assert len(values) == len(features.names), f"{where}: {len(values)} features, {len(features.names)} names"
    odd = [features.names[i] for i, v in enumerate(values) if not (isinstance(v, float) and 0.0 <= v <= 1.0)]
    assert not odd, f"{where}: features outside [0, 1]: {odd[:5]}"


def check_state(game: Game, state: Any, players: int, rng: random.Random, where: str, ids: Any = None) -> None:
    """The contract at one state (and with `ids`, the game's numbering, that every legal
    action has an id)."""
    who = game.current(state)
    assert who in (CHANCE, TERMINAL) or (isinstance(who, int) and 0 <= who < players), (
        f"{where}: current() gave {who!r}"
    )
    legal = game.legal_actions(state)
    assert legal == game.legal_actions(state), f"{where}: legal_actions is not deterministic"
    record = game.public_record(state)
    assert isinstance(record, tuple) and encode(record) == msgpack.packb(record, use_bin_type=True), (
        f"{where}: public_record is not a tuple that msgpack encodes canonically as it is "
        "(no maps, no floats)"
    )
    assert game.state_hash(state) == digest(record), f"{where}: state_hash is not the digest of public_record"
    if who == TERMINAL:
        assert game.is_terminal(state) and legal == [], f"{where}: terminal state offers actions"
        winners = game.winners(state)
        assert all(0 <= w < players for w in winners), f"{where}: bad winners {winners}"
        assert winners == sorted(set(winners)), f"{where}: winners not sorted/unique"
        scores = game.scores(state)
        assert len(scores) == players and all(isinstance(s, int) for s in scores), (
            f"{where}: scores {scores!r}"
        )
        try:
            game.apply(state, ("pass",))
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{where}: apply accepted an action after the end")
        return
    assert legal, f"{where}: a live state with no legal action (a dead end)"
    assert len(set(legal)) == len(legal), f"{where}: legal_actions repeats an action"
    for action in legal:
        assert is_action(action), (
            f"{where}: {action!r} is not an action (a tuple of str/int/bool/None, nested at most "
            f"{MAX_ACTION_DEPTH} deep: engines/actions.py)"
        )
    if ids is not None:
        _check_ids(ids, legal, who == CHANCE, where)
    if who == CHANCE:
        outcomes = game.chance_outcomes(state)
        assert [a for a, _ in outcomes] == legal, f"{where}: chance outcomes != legal actions"
        assert sum(p for _, p in outcomes) == Fraction(1), f"{where}: odds do not sum to 1"
        assert all(p > 0 for _, p in outcomes), f"{where}: an outcome with odds 0"
        picked = game.sample_chance(state, bytes(32))
        assert picked in legal, f"{where}: sample_chance gave {picked!r}"
    sample = legal if len(legal) <= 40 else rng.sample(legal, 40)
    for action in sample:
        text = game.format_action(state, action)
        assert isinstance(text, str) and text and text == text.strip(), f"{where}: text {text!r}"
        back = game.parse_action(state, text)
        assert back == action, f"{where}: parse(format({action!r})) = {back!r} via {text!r}"
        assert wire_roundtrip(action) == action, f"{where}: {action!r} changes over msgpack"
    # Every offered action applies: a seat's own move from its legal list is sent before
    # its node re-runs it (spec/protocol.md, "Entries"). A few per state, besides the one
    # the random game plays; a generator of their own, so the game's path stays the same.
    offered = random.Random(where)
    for action in offered.sample(legal, min(len(legal), OFFERED_APPLIED)):
        try:
            game.apply(state, action)
        except IllegalAction as exc:
            raise AssertionError(f"{where}: legal_actions offered {action!r} but apply refused it: {exc}") from None
    legal_set = set(legal)
    for _ in range(3):
        bad = _perturbed(rng.choice(legal), rng)
        if bad in legal_set:
            continue
        try:
            game.apply(state, bad)
        except IllegalAction as exc:
            assert str(exc), f"{where}: IllegalAction without a reason for {bad!r}"
        else:
            raise AssertionError(f"{where}: apply accepted the illegal action {bad!r}")
    for text in NONSENSE_TEXTS:
        try:
            parsed = game.parse_action(state, text)
        except IllegalAction:
            continue
        raise AssertionError(f"{where}: parse_action({text!r}) gave {parsed!r}")


def check_caches(state: Any, where: str) -> None:
    """Every cached value the state carries equals the value worked out on a state rebuilt
    from its fields alone, as a peer replaying the log from scratch would have it."""
    stale = stale_caches(state)
    assert not stale, (
        f"{where}: cached {', '.join(stale)} differ from a state rebuilt from scratch "
        "(a derived value handed on where its inputs changed: see engines/values.py)"
    )


def check_drawing(game: Game, state: Any, seat: int | None, where: str) -> None:
    """The board: styled fragments whose text is render_text, known style names, 80 columns."""
    fragments = game.render_styled(state, seat)
    assert all(isinstance(f, tuple) and len(f) == 2 and all(isinstance(x, str) for x in f) for f in fragments), (
        f"{where}: render_styled gave something other than (style, text) pairs"
    )
    unknown = sorted({style for style, _ in fragments if not STYLE.fullmatch(style)})
    assert not unknown, f"{where}: style names not in spec/engine-contract.md: {unknown}"
    text = game.render_text(state, seat)
    assert plain(fragments) == text, f"{where}: render_text is not render_styled without its styles"
    wide = max((len(line) for line in text.splitlines()), default=0)
    assert wide <= 80, f"{where}: a line of the board is {wide} characters wide"


def check_random_games(
    game: Game,
    players: int,
    options: Mapping[str, Any] | None = None,
    *,
    games: int = 3,
    seed: int = 0,
    max_actions: int = 200_000,
    full_check_every: int = 1,
) -> list[int]:
    """Play `games` seeded random games to the end, checking the contract along the way.

    Also checks that apply never mutates its input, that every seat's view (and the
    public view) follows the game with the same state hash, that every legal action has
    an action id (when the game numbers its actions), and that the game ends within
    `max_actions`. Returns the length of each game.
    """
    lengths = []
    seats: list[int | None] = [None, *range(players)]
    ids = check_action_ids(game, players, options)
    features = game.features(players, options)
    for g in range(games):
        rng = random.Random(f"{game.name}:{players}:{seed}:{g}")
        # the kit's own choices (which states to warm or draw) never move the game's path
        kit = random.Random(f"kit {game.name}:{players}:{seed}:{g}")
        state = game.new_game(players, options)
        views = {s: game.view(state, s) for s in seats}
        for n in range(max_actions):
            where = f"{game.name} players={players} options={dict(options or {})} game {g} action {n}"
            if n % full_check_every == 0:
                check_state(game, state, players, rng, where, ids)
                check_caches(state, where)
                if kit.randrange(DRAW_ONE_IN) == 0:
                    check_drawing(game, state, kit.choice(seats), where)
                    if features is not None:
                        seat = kit.randrange(players)
                        check_features(game, features, game.view(state, seat), seat, where)
            if kit.randrange(WARM_ONE_IN) == 0:
                warm(state)  # every cached value in place, for the next apply to hand on or drop
            if game.is_terminal(state):
                lengths.append(n)
                break
            action = random_action(game, state, rng)
            before = copy.deepcopy(state)
            owner = game.chance_owner(state) if game.current(state) == CHANCE else None
            hidden = owner is not None and game.chance_hidden(state)
            new_state = game.apply(state, action)
            assert state == before, f"{where}: apply mutated its input state"
            check_caches(new_state, where + f" after {action!r}")
            for s in seats:
                seen = action if not hidden or s == owner else game.hidden_outcome(views[s])
                views[s] = game.apply(views[s], seen)
            state = new_state
            if n % full_check_every == 0:
                want = game.state_hash(state)
                for s in seats:
                    assert game.state_hash(views[s]) == want, (
                        f"{where}: seat {s}'s view hashes differently after {action!r}"
                    )
                    assert game.current(views[s]) == game.current(state), (
                        f"{where}: seat {s}'s view disagrees on whose turn it is"
                    )
                    assert game.state_hash(game.view(state, s)) == want, (
                        f"{where}: view(state, {s}) hashes differently"
                    )
        else:
            raise AssertionError(f"{game.name}: game {g} did not end within {max_actions} actions")
    return lengths


def playout_hashes(name: str, players: int, options: Mapping[str, Any] | None, seed: int) -> list[str]:
    """The state hash after every action of one seeded random game (for cross-process checks)."""
    from peerboard.engines.registry import get

    game = get(name)
    rng = random.Random(seed)
    state = game.new_game(players, options)
    hashes = [game.state_hash(state).hex()]
    while not game.is_terminal(state):
        state = game.apply(state, random_action(game, state, rng))
        hashes.append(game.state_hash(state).hex())
    return hashes
