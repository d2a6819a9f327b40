"""A random game's next position in one call: `apply(state, random_action(...))` without
the contract's detours, for the search players' playouts (client/games/aton/knowledge.py).

A random player's action comes from the legal list it was just handed, so it needs no
decoding and no check: the chosen entry's rule effect is called directly, then `settle`,
as `apply` would. `random_step` reads the random source exactly as `random_action` reads
it (32 bytes at a chance node, then `sample_chance`'s odds; `randrange(len(legal))` at a
choice, even of one action), so a seed plays the same game either way
(tests/engines/test_aton_random_play.py). `playout_step` and `playout` draw the cards
straight from the random source instead, with the rules' odds: what a playout needs.
"""
from __future__ import annotations

from peerboard.engines.aton import rules, scoring
from peerboard.engines.aton.cards import EMPTY, ONE, add, listed
from peerboard.engines.aton.rules import HAND
from peerboard.engines.aton.state import (
    ASSIGN, DRAW, EXCHANGE, OVER, PLACE, REMOVE, RETRIEVE, TURN_UP, State, changed,
)
from peerboard.engines.playout import FastRandom

# (bound once: a playout takes thousands of steps, each a few of these)
settle = rules.settle
_empty_allowed, _eligible_removals, _own_squares = rules._empty_allowed, rules._eligible_removals, rules._own_squares
_place, _remove, _retrieve, _assign = rules._place, rules._remove, rules._retrieve, rules._assign
_draw, _turn, _keep, _exchange = rules._draw, rules._turn, rules._keep, rules._exchange
_assignments, _card_at, _sample_card = rules.assignments, rules.card_at, rules.sample_card
_immediate_win = scoring.immediate_win


def random_step(state: State, rng: FastRandom) -> State:
    """The position after a uniformly random legal action (a chance outcome with the
    rules' odds), as `apply(state, random_action(game, state, rng))`.

    `rng._randbelow(n)` is what `rng.randrange(n)` returns for n > 0 (random.py: it checks
    its arguments and calls it), without the checks: a playout draws thousands."""
    phase = state.phase
    if phase == DRAW or phase == TURN_UP:
        outcome = _sample_card(state, rng.randbytes(32))
        # (a turned-up card is always named: only a hidden draw is None)
        return settle(_draw(state, outcome[1]) if phase == DRAW else _turn(state, outcome[1]))  # type: ignore[arg-type]
    return _choice(state, phase, rng)


def playout_step(state: State, rng: FastRandom) -> State:
    """`random_step` with each card drawn (or turned up) straight from `rng`, with the
    rules' odds: a playout needs the odds, not the 32 bytes of spec/chance.md's sampling,
    which make a logged draw the same in every process (and cost most of a draw). The
    choices are random_step's, read from `rng` alike."""
    phase = state.phase
    if phase == DRAW or phase == TURN_UP:
        seat = state.seats[state.actor]
        hand = seat.hand
        if hand is None:
            if phase == DRAW:
                return settle(_draw(state, None))  # (a hidden hand's draw is hidden)
            deck = seat.unseen
        else:
            unseen = seat.unseen
            deck = (unseen[0] - hand[0], unseen[1] - hand[1], unseen[2] - hand[2], unseen[3] - hand[3])
        v = _card_at(deck, rng._randbelow(deck[0] + deck[1] + deck[2] + deck[3]))
        return settle(_draw(state, v) if phase == DRAW else _turn(state, v))
    return _choice(state, phase, rng)


def playout(state: State, rng: FastRandom, actions: int) -> State:
    """`actions` playout steps (fewer when the game ends first): the same position as
    `playout_step` taken that many times, the random source read alike; a run of draws is
    dealt in one go (`_draws`)."""
    step = playout_step
    while actions > 0:
        phase = state.phase
        if phase == DRAW:
            state, done = _draws(state, rng, actions)
        elif phase == PLACE:
            state, done = _placements(state, rng, actions)
        elif phase == OVER:
            break
        else:
            done = 0
        if done:
            actions -= done
            continue
        state = step(state, rng)
        actions -= 1
    return state


def _placements(state: State, rng: FastRandom, most: int) -> tuple[State, int]:
    """Up to `most` of the acting seat's placements at once, each square drawn as
    `playout_step` draws it (from the empty squares cartouche 3 allows, ascending), a
    placement that completes an occupation win ending the game as `_place` does, and the
    state settled after the last as `apply` settles it; (the state, the placements)."""
    actor = state.actor
    seat = state.seats[actor]
    owed, supply = state.owed, seat.supply
    board = list(state.board)
    empties = [sq for sq, owner in enumerate(board[: rules.allowed_squares(state, actor).stop]) if owner == -1]
    placed = 0
    won = ""
    while placed < most and owed and supply and empties:
        square = empties.pop(rng._randbelow(len(empties)))
        board[square] = actor
        supply -= 1
        owed -= 1
        placed += 1
        won = _immediate_win(board, actor, square)
        if won:
            break
    if not placed:
        return state, 0
    state = rules._with_seat_and(state, actor, {"supply": supply}, board=tuple(board), owed=owed)
    if won:
        state = rules._end(state, (actor,), f"seat {actor} {won}")
    return settle(state), placed


def _draws(state: State, rng: FastRandom, most: int) -> tuple[State, int]:
    """Up to `most` of the draw phase's draws at once, each card as `playout_step` draws it
    (the lowest seat short of a full hand first, a deck that is empty when its seat must
    draw taking its discards back first), and the state settled after the last as `apply`
    settles it; (the state, the draws dealt). (state, 0) where a hand is hidden."""
    seats = list(state.seats)
    dealt = 0
    last = state.actor
    for i in (0, 1):
        seat = seats[i]
        hand = seat.hand
        if seat.hand_size >= HAND or dealt >= most:
            continue
        if hand is None:
            return state, 0
        size, unseen, discards = seat.hand_size, seat.unseen, seat.discards
        while size < HAND and dealt < most:
            if unseen[0] + unseen[1] + unseen[2] + unseen[3] == size:  # the deck is empty: reshuffle
                unseen, discards = add(unseen, discards), EMPTY
            deck = (unseen[0] - hand[0], unseen[1] - hand[1], unseen[2] - hand[2], unseen[3] - hand[3])
            hand = add(hand, ONE[_card_at(deck, rng._randbelow(deck[0] + deck[1] + deck[2] + deck[3]))])
            size += 1
            dealt += 1
        seats[i] = changed(seat, hand=hand, hand_size=size, unseen=unseen, discards=discards)
        last = i
    if not dealt:
        return state, 0
    return settle(changed(state, seats=(seats[0], seats[1]), actor=last)), dealt


def _choice(state: State, phase: str, rng: FastRandom) -> State:
    """A seat's random choice (not at a chance node): `random_step`'s."""
    if phase == PLACE:
        squares = _empty_allowed(state)
        return settle(_place(state, squares[rng._randbelow(len(squares))]))
    if phase == REMOVE:
        squares = _eligible_removals(state)
        return settle(_remove(state, squares[rng._randbelow(len(squares))]))
    hand = state.seats[state.actor].hand
    if phase == ASSIGN and hand is not None:
        orders = _assignments(hand)
        return settle(_assign(state, *orders[rng._randbelow(len(orders))]))
    if phase == RETRIEVE:
        squares = _own_squares(state, state.actor)
        return settle(_retrieve(state, squares[rng._randbelow(len(squares))]))
    if phase == EXCHANGE and hand is not None:
        # [keep, exchange the hand]: the one hand this view knows
        if rng._randbelow(2) == 0:
            return settle(_keep(state))
        return settle(_exchange(state, *listed(hand)))
    if phase == OVER:
        raise ValueError("the game is over: no action follows")
    # a hand this view cannot see (exchange, assign): the listed actions, applied
    legal = rules.legal_actions(state)
    return rules.apply(state, legal[rng._randbelow(len(legal))])
