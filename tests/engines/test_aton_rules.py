"""Aton: one test per rule of rules/aton.md, named after it."""
from dataclasses import replace

import pytest

from peerboard import engines
from peerboard.engines.aton.scoring import scoring_items, temple_scores
from support.aton_helpers import BLUE, GAME, RED, board, deal, new, play, to_actions, with_board

ALL_TEMPLE_1 = " ".join(f"1.{n}" for n in range(1, 13))
YELLOW = "1.1 1.2 1.3 1.4 2.1 2.2 2.3 2.4 3.1 3.2 3.3 4.1 4.2 4.3"
GREEN = "1.9 1.10 1.11 1.12 2.9 2.10 2.11 2.12 3.9 3.10 3.11 4.9 4.10 4.11"


# -- components ---------------------------------------------------------------------------


def test_each_player_has_36_cards_nine_of_each_and_29_counters():
    s = new()
    for seat in s.seats:
        assert seat.unseen == (9, 9, 9, 9) and seat.supply == 29 and seat.exchange


def test_a_round_begins_with_four_private_cards_each_red_first():
    s = new()
    assert GAME.current(s) == engines.CHANCE and GAME.chance_owner(s) == RED and GAME.chance_hidden(s)
    s = deal(s, "1 1 2 4", "3 3 3 4")
    assert s.phase == "assign"
    assert s.seats[RED].hand == (2, 1, 0, 1) and s.seats[BLUE].hand == (0, 0, 3, 1)


def test_a_draw_has_the_odds_of_what_is_left_in_the_deck():
    s = play(new(), "draw 1", "draw 1")
    odds = dict(GAME.chance_outcomes(s))
    assert odds[("draw", 1)] == pytest.approx(7 / 34) and odds[("draw", 2)] == pytest.approx(9 / 34)


# -- scoring --------------------------------------------------------------------------------


def test_temple_1_scores_the_difference_for_the_majority():
    assert temple_scores(board(red="1.1 1.2 1.3", blue="1.9")) == (2, 0)


def test_temple_1_tie_scores_nothing():
    assert temple_scores(board(red="1.1 1.2", blue="1.9 1.10")) == (0, 0)


def test_temple_2_scores_five_for_the_majority():
    assert temple_scores(board(red="2.1", blue="2.2 2.9")) == (0, 5)


def test_temple_2_tie_scores_nothing():
    assert temple_scores(board(red="2.1", blue="2.2")) == (0, 0)


def test_temple_3_scores_the_majority_holders_own_counters():
    # the seed says both players' counters; the published rules: only the holder's own
    assert temple_scores(board(red="3.1 3.2 3.9", blue="3.10 3.11")) == (3, 0)


def test_temple_3_tie_scores_nothing():
    assert temple_scores(board(red="3.1 3.2", blue="3.10 3.11")) == (0, 0)


def test_temple_4_majority_scores_three_per_blue_square_it_holds_anywhere():
    # red holds temple 4 and the blue squares of temples 1, 2 (and 4); blue holds 3's
    b = board(red="4.1 4.2 1.8 2.8 4.8", blue="4.9 3.8")
    assert dict(((s, why), p) for s, p, why in scoring_items(b))[(RED, "temple 4: 3 per blue square held")] == 9


def test_temple_4_blue_squares_held_without_the_majority_score_nothing():
    b = board(red="4.1 1.8 2.8 3.8", blue="4.9 4.10")
    items = scoring_items(b)
    assert not any(s == RED and "temple 4" in why for s, _, why in items)
    # red: temple 1 (+1), temple 2 (+5), temple 3 (+1); blue's majority holds no blue square
    assert temple_scores(b) == (7, 0)


def test_temple_4_tie_scores_nothing():
    b = board(red="4.1 1.8 2.8", blue="4.9")
    assert not any("temple 4" in why for _, _, why in scoring_items(b))


def test_black_squares_majority_scores_eight():
    items = scoring_items(board(red="1.5 1.6 2.5", blue="3.5 3.6"))
    assert (RED, 8, "black squares: the majority") in items


def test_black_squares_tie_scores_nothing():
    items = scoring_items(board(red="1.5 2.5", blue="3.5 3.6"))
    assert not any("black" in why for _, _, why in items)


def test_bonus_squares_score_their_value_for_whoever_holds_them():
    # +1 squares: 1.7 2.7 3.4 3.12; +2 squares: 4.4 4.12
    items = scoring_items(board(red="1.7 4.4", blue="3.12 4.12"))
    bonus = [(s, p) for s, p, why in items if why == "a bonus square"]
    assert sorted(bonus) == [(RED, 1), (RED, 2), (BLUE, 1), (BLUE, 2)]


def test_a_bonus_square_is_neither_yellow_nor_green():
    # all yellow but 3.4 and 4.4 (bonus squares in the yellow row) is the whole yellow set
    from peerboard.engines.aton.temples import YELLOW_SQUARES
    from peerboard.engines.aton.notation import parse_square

    assert parse_square("3.4") not in YELLOW_SQUARES and parse_square("4.12") not in YELLOW_SQUARES


# -- the four immediate wins ----------------------------------------------------------------


def test_immediate_win_on_reaching_40_points_at_cartouche_1():
    s = deal(new(), "1 1 1 4", "1 1 1 1")
    s = replace(s, seats=(replace(s.seats[RED], score=34), s.seats[BLUE]))
    s = play(s, "assign 4 1 1 1", "assign 1 1 1 1")
    assert GAME.is_terminal(s) and GAME.winners(s) == [RED] and GAME.scores(s)[RED] == 40


def test_immediate_win_on_occupying_all_12_squares_of_a_temple():
    s = with_board(new(), red=" ".join(f"1.{n}" for n in range(1, 12)))
    s = to_actions(s, "1 2 1 1", "1 3 1 1")
    assert s.actor == RED and s.phase == "place"
    s = play(s, "place 1.12")
    assert GAME.is_terminal(s) and GAME.winners(s) == [RED]
    assert "all 12 squares of temple 1" in s.ending


def test_immediate_win_on_all_14_yellow_squares():
    s = with_board(new(), blue=YELLOW.replace(" 4.3", ""))
    s = to_actions(s, "1 4 1 1", "1 2 4 1")
    assert s.actor == BLUE and s.phase == "place"
    s = play(s, "place 4.3")
    assert GAME.winners(s) == [BLUE] and "yellow" in s.ending


def test_immediate_win_on_all_14_green_squares():
    s = with_board(new(), red=GREEN.replace("1.9 ", ""))
    s = to_actions(s, "1 2 1 1", "1 3 1 1")
    s = play(s, "place 1.9")
    assert GAME.winners(s) == [RED] and "green" in s.ending


# -- the cartouches ----------------------------------------------------------------------------


def test_cartouche_1_scores_twice_the_difference_to_the_higher_card():
    s = to_actions(new(), "4 1 1 1", "1 2 1 1")
    assert GAME.scores(s) == [6, 0]


def test_cartouche_1_equal_cards_score_nothing():
    s = to_actions(new(), "3 1 1 1", "3 2 1 1")
    assert GAME.scores(s) == [0, 0]


@pytest.mark.parametrize("card, count, whose", [(4, 2, BLUE), (3, 1, BLUE), (2, 0, BLUE), (1, 1, RED)])
def test_cartouche_2_removes_card_minus_two_and_a_1_removes_an_own_counter(card, count, whose):
    s = with_board(new(first_round_removal=True), red="1.1 1.2 1.3", blue="1.9 1.10 1.11")
    s = to_actions(s, f"1 {card} 1 1", "2 4 1 1")
    # red acts first (lower cartouche 2, or the lower cartouche 1 on a tie)
    assert s.order[0] == RED
    if count == 0:
        assert s.phase == "place"
        return
    assert s.phase == "remove" and s.owed == count
    owners = {s.board[a[1]] for a in GAME.legal_actions(s)}
    assert owners == {whose}
    before = s.seats[whose].dead
    for _ in range(count):
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert s.seats[whose].dead == before + count and s.phase == "place"


def test_removal_only_from_the_temples_cartouche_3_allows():
    s = with_board(new(first_round_removal=True), blue="1.9 2.9 3.9 4.9")
    s = to_actions(s, "1 3 2 1", "1 4 1 1")
    assert s.phase == "remove" and s.actor == RED
    assert GAME.legal_actions(s) == [("remove", 8), ("remove", 20)]  # 1.9 and 2.9
    with pytest.raises(engines.IllegalAction, match="outside the temples cartouche 3 allows"):
        play(s, "remove 3.9")


def test_too_few_eligible_counters_the_rest_of_the_removal_is_lost():
    s = with_board(new(first_round_removal=True), blue="1.9 4.9")
    s = to_actions(s, "1 4 1 1", "2 4 1 1")
    assert s.phase == "remove" and s.owed == 2 and GAME.legal_actions(s) == [("remove", 8)]
    s = play(s, "remove 1.9")
    assert s.phase == "place" and s.seats[BLUE].dead == 1


def test_no_counter_may_be_removed_in_the_first_round():
    s = with_board(new(), blue="1.9")
    s = to_actions(s, "1 4 1 1", "2 4 1 1")
    assert s.phase == "place" and s.board == with_board(new(), blue="1.9").board


def test_option_first_round_removal_allows_it():
    s = with_board(new(first_round_removal=True), blue="1.9")
    s = to_actions(s, "1 4 1 1", "2 4 1 1")
    assert s.phase == "remove"


def test_cartouche_4_places_that_many_counters_in_the_allowed_temples():
    s = to_actions(new(), "1 1 2 3", "2 2 1 1")
    assert s.phase == "place" and s.owed == 3 and s.actor == RED
    assert {a[1] // 12 for a in GAME.legal_actions(s)} == {0, 1}
    with pytest.raises(engines.IllegalAction, match="outside the temples"):
        play(s, "place 3.1")
    s = play(s, "place 1.1", "place 2.5", "place 1.12")
    assert s.actor == BLUE and s.seats[RED].supply == 26


def test_placements_without_an_empty_allowed_square_overflow_into_the_kingdom():
    s = with_board(new(), blue=" ".join(f"1.{n}" for n in range(1, 12)))
    s = to_actions(s, "1 1 1 4", "2 2 1 1")
    assert s.actor == RED and s.phase == "place"
    s = play(s, "place 1.12")
    # red's other three counters, then blue's one, find temple 1 full
    assert s.seats[RED].dead == 3 and s.seats[RED].supply == 25
    assert s.seats[BLUE].dead == 1 and s.phase == "draw" and s.round == 2


def test_an_empty_supply_places_what_it_has():
    s = new()
    s = replace(s, seats=(replace(s.seats[RED], supply=1), s.seats[BLUE]))
    s = to_actions(s, "1 1 4 4", "2 2 1 1")
    s = play(s, "place 1.1")
    assert s.actor == BLUE and s.seats[RED].supply == 0 and s.seats[RED].dead == 0


# -- order -----------------------------------------------------------------------------------------


def test_order_the_lower_cartouche_2_card_acts_first():
    s = to_actions(new(), "1 3 1 1", "2 2 1 1")
    assert s.order == (BLUE, RED)


def test_order_tie_on_cartouche_2_the_lower_cartouche_1_acts_first():
    s = to_actions(new(), "3 2 1 1", "2 2 1 1")
    assert s.order == (BLUE, RED)


def test_order_tie_on_both_cards_turned_up_from_the_decks_decide_and_are_discarded():
    s = to_actions(new(), "2 2 1 1", "2 2 1 1")
    assert s.phase == "turn-up" and GAME.current(s) == engines.CHANCE and GAME.chance_owner(s) == RED
    assert not GAME.chance_hidden(s)
    s = play(s, "turn 3", "turn 3")  # still tied: again
    assert s.phase == "turn-up" and s.turned == ()
    s = play(s, "turn 4", "turn 1")
    assert s.order == (BLUE, RED)
    assert s.seats[RED].discards == (0, 0, 1, 1) and s.seats[BLUE].discards == (1, 0, 1, 0)


# -- exchange -------------------------------------------------------------------------------------


def test_the_exchange_counter_can_be_used_once_per_game():
    s = play(new(), *["draw 1"] * 4, *["draw 2"] * 4)
    assert s.phase == "exchange" and s.actor == RED
    s = play(s, "exchange 1 1 1 1")
    assert s.seats[RED].discards == (4, 0, 0, 0) and not s.seats[RED].exchange
    s = play(s, "draw 4", "draw 4", "draw 4", "draw 3", "keep")
    assert s.phase == "assign"
    s = play(s, "assign 4 4 4 3", "assign 2 2 2 2")
    while s.phase != "exchange" and not GAME.is_terminal(s):
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    # next round: only blue still holds the white counter
    assert s.actor == BLUE
    assert all(a == ("keep",) or a[0] == "exchange" for a in GAME.legal_actions(s))


def test_an_exchange_must_hand_in_the_cards_held():
    s = play(new(), *["draw 1"] * 4, *["draw 2"] * 4)
    with pytest.raises(engines.IllegalAction, match="cards in hand"):
        play(s, "exchange 2 2 2 2")


# -- scoring at the end of the round ----------------------------------------------------------


def _kingdom(state, red_dead, blue_dead):
    seats = tuple(
        replace(seat, dead=dead, supply=seat.supply - dead)
        for seat, dead in zip(state.seats, (red_dead, blue_dead))
    )
    return replace(state, seats=seats)


def test_scoring_happens_at_the_end_of_the_round_the_kingdom_fills():
    s = with_board(new(first_round_removal=True), red="2.1", blue="1.9 1.10")
    s = _kingdom(s, 3, 4)
    s = to_actions(s, "1 3 1 1", "1 4 1 2")
    # red acts first, removes one blue counter: the Kingdom holds 8, but blue still acts
    s = play(s, "remove 1.9", "place 1.1")
    assert sum(x.dead for x in s.seats) == 8 and GAME.scores(s) == [0, 0]
    assert s.actor == BLUE and s.phase == "remove"  # blue still takes its actions
    s = play(s, "remove 1.1", "place 1.2", "place 1.3")
    # now the round is over and scored: blue holds temple 1 by 3 to 0, red temple 2
    assert GAME.scores(s) == [5, 3] and s.phase == "retrieve"


def test_kingdom_below_eight_no_scoring():
    s = with_board(new(), red="2.1 2.2")
    s = _kingdom(s, 0, 6)
    s = to_actions(s, "1 2 1 1", "1 3 1 1")
    s = play(s, "place 1.1", "place 1.2")
    assert s.phase == "draw" and GAME.scores(s) == [0, 0] and s.round == 2


def _round_to_scoring(red_board, blue_board, scores=(0, 0), red="1 2 1 1", blue="1 3 1 1", **opts):
    s = with_board(new(**opts), red=red_board, blue=blue_board)
    s = _kingdom(s, 4, 4)
    s = replace(s, seats=(replace(s.seats[RED], score=scores[0]), replace(s.seats[BLUE], score=scores[1])))
    s = to_actions(s, red, blue)
    while s.phase in ("remove", "place"):
        s = GAME.apply(s, GAME.legal_actions(s)[-1])
    return s


def test_after_scoring_the_kingdom_empties_back_to_the_supplies():
    s = _round_to_scoring("2.1 2.2", "3.1")
    assert s.phase == "retrieve" and s.seats[RED].dead == 0 and s.seats[BLUE].dead == 0


def test_after_scoring_the_leader_takes_four_counters_back_first():
    s = _round_to_scoring("2.1 2.2 2.3 2.4 2.5", "3.1")
    assert GAME.scores(s)[RED] > GAME.scores(s)[BLUE]
    assert s.phase == "retrieve" and s.actor == RED and s.owed == 4
    for _ in range(4):
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    # blue holds two counters (3.1 and its placement): both come back
    assert s.actor == BLUE and s.owed == 2


def test_after_scoring_a_tie_in_points_the_first_player_of_the_round_retrieves_first():
    s2 = _round_to_scoring("1.1", "1.9", scores=(10, 10))
    assert GAME.scores(s2) == [10, 10]
    assert s2.phase == "retrieve" and s2.actor == s2.order[0] == RED  # red acted first (lower 2)


def test_the_game_ends_after_a_scoring_at_40_and_the_higher_total_wins():
    # red: temple 2 (+5) -> 35; blue: temple 3, one own counter (+1) -> 40
    s = _round_to_scoring("2.1 2.2", "3.1", scores=(30, 39))
    assert GAME.is_terminal(s) and GAME.scores(s) == [35, 40] and GAME.winners(s) == [BLUE]


def test_the_scoring_order_does_not_decide_the_winner():
    # blue reaches 40 in the same scoring as red, but red's total is higher
    s = _round_to_scoring("2.1 2.2", "3.1", scores=(38, 39))
    assert GAME.scores(s) == [43, 40] and GAME.winners(s) == [RED]


def test_equal_totals_draw_exactly():
    s = with_board(new(), red="1.1", blue="1.9")
    s = _kingdom(s, 4, 4)
    s = replace(s, seats=(replace(s.seats[RED], score=40), replace(s.seats[BLUE], score=40)))
    s = to_actions(s, "1 2 1 1", "1 3 1 1")
    s = play(s, "place 1.2", "place 1.10")  # temple 1: two each, a tie
    assert GAME.is_terminal(s) and GAME.scores(s) == [40, 40] and GAME.winners(s) == []


# -- decks ----------------------------------------------------------------------------------------


def test_an_empty_deck_is_reshuffled_from_the_discards():
    s = new()
    red = replace(s.seats[RED], unseen=(1, 1, 1, 1), discards=(8, 8, 8, 8))
    s = replace(s, seats=(red, s.seats[BLUE]))
    s = play(s, "draw 1", "draw 2", "draw 3", "draw 4")  # the last four
    assert s.seats[RED].deck_size == 0
    s = play(s, *["draw 2"] * 4, "keep", "keep", "assign 1 2 3 4", "assign 2 2 2 2")
    while s.phase != "draw":
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    # round 2: red's deck was empty; the 36 cards less none in hand are back in it
    assert s.seats[RED].deck_size == 36 and s.seats[RED].discards == (0, 0, 0, 0)
    assert dict(GAME.chance_outcomes(s))[("draw", 1)] == pytest.approx(9 / 36)


# -- hidden information -------------------------------------------------------------------------


def test_the_view_hides_the_opponents_hand_and_deck_but_not_the_counts():
    s = deal(new(), "1 2 3 4", "4 4 4 4")
    v = GAME.view(s, RED)
    assert v.seats[RED].hand == (1, 1, 1, 1) and v.seats[BLUE].hand is None
    assert v.seats[BLUE].hand_size == 4 and GAME.state_hash(v) == GAME.state_hash(s)
    assert "4 4 4 4" not in GAME.render_text(v, RED)


def test_the_opponents_draws_are_applied_hidden_to_a_view():
    s = GAME.view(play(new(), *["draw 1"] * 4), RED)
    assert GAME.chance_owner(s) == BLUE and GAME.legal_actions(s) == [("draw", None)]
    s = play(s, "draw ?", "draw ?", "draw ?", "draw ?")
    assert s.seats[BLUE].hand_size == 4 and s.seats[BLUE].hand is None
    with pytest.raises(engines.IllegalAction):
        play(s, "draw ?")


def test_the_cartouches_are_a_secret_simultaneous_choice():
    s = deal(new(), "1 2 3 4", "4 4 4 4")
    assert GAME.secret_choice(s) == (RED, BLUE) and s.phase == "assign"
    # blue's options do not wait for red's reveal
    assert ("assign", 4, 4, 4, 4) in GAME.choices_for(s, BLUE)
    s = play(s, "assign 1 2 3 4")
    assert GAME.secret_choice(s) == (BLUE,) and GAME.current(s) == BLUE


# -- notation and options -----------------------------------------------------------------------


@pytest.mark.parametrize("text, action", [
    ("draw 3", ("draw", 3)), ("draw ?", ("draw", None)), ("keep", ("keep",)),
    ("exchange 1 2 2 4", ("exchange", 1, 2, 2, 4)), ("assign 4 1 3 2", ("assign", 4, 1, 3, 2)),
    ("turn 2", ("turn", 2)), ("remove 2.7", ("remove", 18)), ("place 3.12", ("place", 35)),
    ("retrieve 1.5", ("retrieve", 4)),
])
def test_notation_round_trips(text, action):
    from peerboard.engines.aton.notation import format_action, parse_action

    assert parse_action(text) == action and format_action(action) == text
    assert parse_action("  " + text.upper() + " ") == action


@pytest.mark.parametrize("text, reason", [
    ("place 5.1", "temples are 1-4"), ("assign 1 2 3", "four cards"), ("assign 1 2 3 5", "not a card"),
    ("fly 1.1", "Unknown action"), ("", "Empty move"),
])
def test_bad_notation_is_refused_with_a_reason(text, reason):
    with pytest.raises(engines.IllegalAction, match=reason):
        GAME.parse_action(new(), text)


def test_parse_refuses_an_action_the_rules_do_not_allow_now():
    s = deal(new(), "1 2 3 4", "4 4 4 4")
    with pytest.raises(engines.IllegalAction, match="cards in hand"):
        GAME.parse_action(s, "assign 4 4 4 4")


@pytest.mark.parametrize("players, options, reason", [
    (3, {}, "exactly 2 players"), (2, {"win_points": 0}, "from 1 to 200"),
    (2, {"first_round_removal": "yes"}, "true or false"), (2, {"colour": 1}, "no option 'colour'"),
])
def test_bad_options_are_a_clear_error(players, options, reason):
    with pytest.raises(engines.OptionError, match=reason):
        GAME.new_game(players, options)


def test_option_win_points_changes_the_threshold():
    s = deal(new(win_points=6), "1 1 1 4", "1 1 1 1")
    s = play(s, "assign 4 1 1 1", "assign 1 1 1 1")
    assert GAME.winners(s) == [RED]
