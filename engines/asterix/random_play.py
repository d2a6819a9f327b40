"""A random game's next position in one call: `apply(state, random_action(...))` without
the contract's detours (engines/playout.py asks for it when a game has it).

A random player's action comes from the legal list it was just handed, so the action
needs no decoding and no check: the list is built here and its rule's effect is called
with the chosen entry. The random source is read exactly as `random_action` reads it
(32 bytes at a chance node, then `sample_chance`'s odds; `randrange(len(legal))` at a
choice, even of one action), so a seed plays the same game either way
(tests/engines/test_asterix_random_play.py).
"""
from __future__ import annotations

from peerboard.engines.asterix import rules
from peerboard.engines.asterix.board import KIND_NAMES, LAYOUT_ORDER, VILLAGE_SQUARES
from peerboard.engines.asterix.state import FIRST_ROLL, LAYOUT, MOVE, ORDER, PICK, PLACE, ROLL, STEAL, State, changed
from peerboard.engines.asterix.walks import blocked_squares, layers
from peerboard.engines.chance import uniform_below
from peerboard.engines.playout import FastRandom

_TOTAL_ROLLS = 36
#: the 2d6 for each value below 36, as `sample_chance` maps them (low die first)
_ROLL_BY_VALUE: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(1, 7) for b in range(a, 7) for _ in range(1 if a == b else 2))


#: per 8-bit pattern, the files of its set bits in order (a rank of a landing mask)
_FILES_OF: tuple[tuple[int, ...], ...] = tuple(tuple(f for f in range(8) if byte >> f & 1) for byte in range(256))


def _nth_square(mask: int, n: int) -> int:
    """The n-th square (0-based, a1 first) of a mask: the n-th of the move list."""
    rank = (mask & -mask).bit_length() - 1 & ~7  # from the first rank with a landing
    while True:
        files = _FILES_OF[mask >> rank & 255]
        if n < len(files):
            return rank + files[n]
        n -= len(files)
        rank += 8


def random_step(state: State, rng: FastRandom) -> State:
    """The position after a uniformly random legal action (a chance outcome with the
    rules' odds), as `apply(state, random_action(game, state, rng))`.

    `rng._randbelow(n)` is what `rng.randrange(n)` returns for n > 0 (random.py: it checks
    its arguments and calls it), without the checks: a random game draws thousands."""
    phase = state.phase
    if phase == MOVE:
        seat = state.actor
        mask = layers(state.pawns[seat], blocked_squares(state.tiles, state.potions[seat]))[state.dice[0]]
        if not mask:
            rng._randbelow(1)  # the one action, skip: drawn for all that, as random_action does
            return rules._end_turn(state)
        return rules._move(state, _nth_square(mask, rng._randbelow(mask.bit_count())))
    if phase == ROLL:
        low, high = _ROLL_BY_VALUE[uniform_below(_TOTAL_ROLLS, rng.randbytes(32))]
        return changed(state, phase=ORDER, dice=(low, high))
    if phase == ORDER:
        # rules.usable_dice and rules._order, written out: the dice as rolled, low first
        seat = state.actor
        walks = layers(state.pawns[seat], blocked_squares(state.tiles, state.potions[seat]))
        low, high = state.dice
        usable: tuple[int, ...]
        if low == high:
            usable = (low,) if walks[low] else ()
        elif walks[low]:
            usable = (low, high) if walks[high] else (low,)
        else:
            usable = (high,) if walks[high] else ()
        if not usable:
            rng._randbelow(1)
            return rules._end_turn(state)
        first = usable[rng._randbelow(len(usable))]
        return changed(state, phase=MOVE, dice=(first, high if first == low else low))
    if phase == PICK:
        return rules._pick(state, rng._randbelow(2) == 0)  # [pick, leave]
    if phase == LAYOUT:
        value = uniform_below(len(LAYOUT_ORDER) - state.laid, rng.randbytes(32))
        for kind, left in enumerate(rules.tiles_left_to_lay(state)):
            if value < left:
                return rules._lay(state, kind)
            value -= left
        raise AssertionError("unreachable: the bag holds as many tiles as squares are left")
    if phase == STEAL:
        thefts = rules.thefts(state)
        n = rng._randbelow(len(thefts) + 1)  # [the thefts..., leave]
        if n == len(thefts):
            return rules._next_die(state)
        victim, kind = thefts[n]
        return rules._steal(state, victim, KIND_NAMES[kind])
    if phase == FIRST_ROLL:
        return rules._first_roll(state, 1 + uniform_below(6, rng.randbytes(32)))
    if phase == PLACE:
        return rules._place(state, VILLAGE_SQUARES[rng._randbelow(len(VILLAGE_SQUARES))])
    raise ValueError("the game is over: no action follows")
