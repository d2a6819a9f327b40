"""A full Aton state consistent with one seat's view: the hands it cannot see, dealt at
random from what those seats have not shown (for information-set search bots).

What a seat cannot see is each other seat's hand; the rest of that seat's unseen cards
is its deck, a plain pile with no order the rules know (the engine keeps counts only). So
a hidden hand of k cards is k cards drawn without replacement from the seat's public
*unseen* counts (hand + deck), one card at a time with odds equal to the counts left:
every k-card hand the unseen cards allow comes out with its true (hypergeometric) odds.
"""
from __future__ import annotations

import hashlib

from peerboard.engines.aton import cards
from peerboard.engines.aton.state import State
from peerboard.engines.chance import pick_weighted
from peerboard.engines.values import evolve


def determinize(view: State, seat: int | None, entropy: bytes) -> State:
    """`view` with every hand hidden from `seat` dealt from that seat's unseen cards; the
    k-th card of seat i's hand is picked by SHA-256(entropy + i + k) (spec/chance.md)."""
    if len(entropy) != 32:
        raise ValueError("determinize needs exactly 32 bytes of entropy")
    seats = list(view.seats)
    for i, s in enumerate(seats):
        if i == seat or s.hand is not None:
            continue
        left = s.unseen
        hand = cards.EMPTY
        for k in range(s.hand_size):
            pick = hashlib.sha256(entropy + bytes((i, k))).digest()
            value = pick_weighted([(v, left[v - 1]) for v in cards.VALUES if left[v - 1]], pick)
            one = cards.of_one(value)
            hand, left = cards.add(hand, one), cards.sub(left, one)
        seats[i] = evolve(s, hand=hand)
    return evolve(view, seats=tuple(seats))
