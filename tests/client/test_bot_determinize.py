"""`determinize`: a full state a seat cannot tell from its view (information-set search)."""
import random
from collections import Counter
from math import comb

from peerboard import engines
from peerboard.engines.aton import cards
from peerboard.engines.contract import CHANCE
from peerboard.engines.playout import random_action

ATON = engines.get("aton")


def aton_positions(n=40, seed=3):
    """Seeded random Aton positions, each with the opponent's hand hidden from seat 0."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        state = ATON.new_game(2)
        while not ATON.is_terminal(state) and len(out) < n:
            if rng.random() < 0.1 and state.seats[1].hand_size:
                out.append(state)
            state = ATON.apply(state, random_action(ATON, state, rng))
    return out


def test_a_determinized_aton_state_agrees_with_the_view_on_everything_public():
    for i, full in enumerate(aton_positions()):
        view = ATON.view(full, 0)
        det = ATON.determinize(view, 0, bytes([i]) * 32)
        assert ATON.public_record(det) == ATON.public_record(view)
        assert ATON.state_hash(det) == ATON.state_hash(view) == ATON.state_hash(full)
        assert det.seats[0] == view.seats[0]  # the seat's own hand is its own
        assert ATON.view(det, 0) == view


def test_the_sampled_hand_is_drawn_from_exactly_the_unseen_cards():
    for i, full in enumerate(aton_positions()):
        view = ATON.view(full, 0)
        opp = view.seats[1]
        hand = ATON.determinize(view, 0, bytes([i, 7]) * 16).seats[1].hand
        assert cards.size(hand) == opp.hand_size
        assert cards.contains(opp.unseen, hand)  # hand + deck is exactly the unseen multiset
        assert cards.add(hand, cards.sub(opp.unseen, hand)) == opp.unseen


def four_cards_hidden():
    """Seat 0's view once seat 1 has drawn its first four cards."""
    state = ATON.new_game(2)
    while state.seats[1].hand_size < 4:
        state = ATON.apply(state, random_action(ATON, state, random.Random(1)))
    return ATON.view(state, 0)


def test_determinize_is_deterministic_given_the_entropy_and_varies_with_it():
    view = four_cards_hidden()
    assert ATON.determinize(view, 0, b"\x01" * 32) == ATON.determinize(view, 0, b"\x01" * 32)
    hands = {ATON.determinize(view, 0, bytes([k]) * 32).seats[1].hand for k in range(50)}
    assert len(hands) > 5


def test_hidden_hands_come_out_with_their_hypergeometric_odds():
    view = four_cards_hidden()
    n = 4000
    counts = Counter(ATON.determinize(view, 0, k.to_bytes(32, "big")).seats[1].hand for k in range(n))
    # a hand with a, b, c, d cards of 1..4 out of nine each: C(9,a)C(9,b)C(9,c)C(9,d) / C(36,4)
    for hand, seen in counts.items():
        expected = n * comb(9, hand[0]) * comb(9, hand[1]) * comb(9, hand[2]) * comb(9, hand[3]) / comb(36, 4)
        assert abs(seen - expected) < 5 * expected ** 0.5 + 3, (hand, seen, expected)
    assert len(counts) == 35  # every 4-card hand of four values appears


def test_a_game_plays_on_from_a_determinized_state():
    rng = random.Random(9)
    for i, full in enumerate(aton_positions(10)):
        state = ATON.determinize(ATON.view(full, 0), 0, bytes([i]) * 32)
        for _ in range(300):
            if ATON.is_terminal(state):
                break
            state = ATON.apply(state, random_action(ATON, state, rng))
        if ATON.current(state) == CHANCE:
            assert all(w > 0 for _, w in ATON.chance_weights(state))


def test_a_perfect_information_game_determinizes_to_its_view():
    for name in ("athos", "asterix"):
        game = engines.get(name)
        state = game.new_game(2)
        assert game.determinize(game.view(state, 0), 0, b"\x00" * 32) is state
