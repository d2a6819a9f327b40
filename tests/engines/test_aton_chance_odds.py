"""Aton's chance events have the odds of what is left in the deck: a tie-break card turned
up like a draw (rules/aton.md, "Order"; spec/chance.md), and a search bot's guess at a
hidden hand dealt by the documented recipe (spec/engine-contract.md, `determinize`)."""
import hashlib
from dataclasses import replace
from fractions import Fraction

from support.aton_helpers import BLUE, GAME, RED, deal, new, play, to_actions

from peerboard import engines
from peerboard.engines.aton import cards
from peerboard.engines.chance import pick_weighted


def test_a_tie_break_card_is_turned_up_with_the_odds_of_what_is_left_in_the_deck():
    # both play 2 2 1 1: tied on cartouches 1 and 2, so each turns up a card from its deck
    s = to_actions(new(), "2 2 1 1", "2 2 1 1")
    assert s.phase == "turn-up" and GAME.current(s) == engines.CHANCE
    # red's 36 cards less the four on its cartouches: 1s 7, 2s 7, 3s 9, 4s 9 of 32
    assert GAME.chance_outcomes(s) == [
        (("turn", 1), Fraction(7, 32)), (("turn", 2), Fraction(7, 32)),
        (("turn", 3), Fraction(9, 32)), (("turn", 4), Fraction(9, 32)),
    ]
    s = play(s, "turn 4")
    assert GAME.chance_owner(s) == BLUE
    assert dict(GAME.chance_outcomes(s))[("turn", 4)] == Fraction(9, 32)


def test_a_deck_with_few_cards_left_turns_up_only_what_it_holds():
    s = to_actions(new(), "2 2 1 1", "2 2 1 1")
    red = s.seats[RED]
    s = replace(s, seats=(replace(red, unseen=(0, 0, 1, 3)), s.seats[BLUE]))
    assert GAME.chance_outcomes(s) == [(("turn", 3), Fraction(1, 4)), (("turn", 4), Fraction(3, 4))]


def test_a_hidden_hand_is_dealt_card_by_card_from_sha256_of_entropy_seat_and_card_number():
    full = deal(new(), "1 2 3 4", "2 2 4 4")
    view = GAME.view(full, RED)
    entropy = bytes(range(32))
    # the recipe: card k of seat i is picked (spec/chance.md) by SHA-256(entropy || i || k)
    # from the cards still unseen, weighted by how many of each are left
    left, hand = view.seats[BLUE].unseen, cards.EMPTY
    for k in range(4):
        pick = hashlib.sha256(entropy + bytes((BLUE, k))).digest()
        value = pick_weighted([(v, left[v - 1]) for v in cards.VALUES if left[v - 1]], pick)
        hand, left = cards.add(hand, cards.of_one(value)), cards.sub(left, cards.of_one(value))
    guessed = GAME.determinize(view, RED, entropy)
    assert guessed.seats[BLUE].hand == hand
    assert guessed.seats[RED] == full.seats[RED]  # red's own hand is no guess
