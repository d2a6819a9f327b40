"""Plan, then commit; and pointing at spots: the pure parts of the game screen."""
from peerboard import engines
import pytest
from peerboard.engines import IllegalAction

from peerboard.client.tui.picking import Picking
from peerboard.client.tui.plan import Plan


def _athos_move_phase():
    game = engines.get("athos")
    state = game.new_game(2)
    return game, state


def test_each_planned_action_applies_to_the_preview_and_undo_restores_it():
    game, state = _athos_move_phase()
    plan = Plan(game, 0, "move", state, tuple(game.legal_actions(state)))
    step = next(a for a in plan.legal_now() if a[0] == "go")
    once = plan.add(step)
    assert once.preview == game.apply(state, step)
    assert once.undo().preview == state and once.undo().steps == ()


def test_an_action_that_is_not_legal_now_is_refused_with_the_rules_reason_and_the_plan_is_unchanged():
    game, state = _athos_move_phase()
    plan = Plan(game, 0, "move", state, tuple(game.legal_actions(state)))
    with pytest.raises(IllegalAction) as refused:
        plan.add(("go", "B", "k7"))
    assert "not one of your choices" not in str(refused.value)
    with pytest.raises(IllegalAction, match=str(refused.value)[:30]):
        game.apply(state, ("go", "B", "k7"))  # the engine's own words
    assert plan.steps == ()


def test_a_tile_planned_in_the_move_phase_ends_the_move_phase_first_and_undo_takes_both_back():
    game, state = _athos_move_phase()
    plan = Plan(game, 0, "move", state, tuple(game.legal_actions(state)))
    placed = plan.add(("place", "a1"))
    assert placed.actions == (("end_move",), ("place", "a1")) and placed.steps[0].joined
    assert placed.undo().steps == ()


def _athos_placement_phase():
    game, state = _athos_move_phase()
    plan = Plan(game, 0, "move", state, tuple(game.legal_actions(state))).add(("end_move",)).with_forced()
    assert plan.legal_now()[0][0] == "place"
    return game, plan


def test_athos_tiles_planned_from_the_last_hex_backwards_all_count_and_go_out_in_board_order():
    game, plan = _athos_placement_phase()
    places = [a for a in plan.legal_now() if a[0] == "place"]
    # one tile per colour band, top band first: a late hex ends the phase in the engine's order
    chosen = []
    for colour in ("k", "i", "g", "e", "c", "a"):
        chosen.append(next(a for a in reversed(places) if a[1].startswith(colour)))
    for action in chosen:
        assert action in plan.choices(), f"{action} no longer offered after {plan.actions}"
        plan = plan.add(action)
    placed = [a for a in plan.actions if a[0] == "place"]
    assert sorted(placed, key=lambda a: places.index(a)) == placed and set(placed) == set(chosen)
    sent = plan.ending().plan
    assert sent is not None and game.current(sent.preview) == 1


def test_enter_ends_the_turn_where_the_rules_let_it_and_says_why_where_they_do_not():
    game, state = _athos_move_phase()
    plan = Plan(game, 0, "move", state, tuple(game.legal_actions(state)))
    moved = plan.add(next(a for a in plan.legal_now() if a[0] == "go"))
    ended = moved.ending().plan
    assert ended is not None and game.current(ended.preview) == 1
    assert ended.actions[-2:] == (("end_move",), ("end_turn",)) or ended.actions[-1] == ("end_turn",)


def test_typed_text_is_read_in_the_notation_and_a_wrong_text_says_why():
    game, state = _athos_move_phase()
    plan = Plan(game, 0, "move", state, tuple(game.legal_actions(state)))
    assert plan.parse("  END   Move ") == ("end_move",)
    with pytest.raises(IllegalAction, match="z9"):
        plan.parse("B-z9")


def test_a_plan_is_complete_when_the_turn_has_passed_to_another_seat():
    game, state = _athos_move_phase()
    plan = Plan(game, 0, "move", state, tuple(game.legal_actions(state)))
    plan = plan.add(("end_move",)).with_forced()
    while plan.open:
        plan = plan.add(plan.parse("end turn") if ("end_turn",) in plan.legal_now() else plan.legal_now()[0])
    assert plan.complete and game.current(plan.preview) == 1


def test_forced_actions_are_taken_by_themselves_and_never_undone_alone():
    game = engines.get("aton")
    state = game.new_game(2)
    for _ in range(20):  # the first draws, each of the only card value left... or any
        if game.current(state) >= 0:
            break
        state = game.apply(state, game.legal_actions(state)[0])
    seat = game.current(state)
    only = (game.legal_actions(state)[0],)  # a decision offered with one action
    plan = Plan(game, seat, "move", state, only).with_forced()
    assert plan.actions == only and plan.steps[0].forced
    assert plan.undo() is plan  # nothing was chosen: nothing to take back


def test_a_secret_choice_is_one_action_and_leaves_the_preview_as_it_was():
    game = engines.get("aton")
    state = game.new_game(2)
    while game.current(state) < 0 or not game.secret_choice(state):
        legal = game.legal_actions(state)
        state = game.apply(state, legal[0])
    choices = tuple(game.choices_for(state, 0))
    plan = Plan(game, 0, "commit", state, choices).add(choices[-1])
    assert plan.complete and plan.preview == state and plan.actions == (choices[-1],)


def _picking(legal, spots):
    return Picking.of(legal, lambda a: " ".join(map(str, a)), spots.get)


def test_pointing_at_a_piece_then_its_target_chooses_the_one_action_they_name():
    legal = [("go", "B", "a5"), ("go", "B", "a6"), ("go", "D", "a11")]
    spots = {a: (f"node:{a[1]}", f"node:{a[2]}") for a in legal}
    picking = _picking(legal, spots)
    first = picking.pick("node:B")
    assert first.action is None and first.picking.next_spots() == {"node:a5", "node:a6"}
    assert first.picking.pick("node:a6").action == ("go", "B", "a6")


def test_pointing_somewhere_useless_says_so_and_keeps_the_selection():
    legal = [("go", "B", "a5")]
    picking = _picking(legal, {legal[0]: ("node:B", "node:a5")}).pick("node:B").picking
    outcome = picking.pick("node:k7")
    assert outcome.action is None and outcome.note and outcome.picking.selection == ("node:B",)


def test_actions_without_a_spot_are_buttons_and_two_actions_on_one_spot_are_offered_as_buttons():
    legal = [("place", "e5"), ("place_open", "e5"), ("end_turn",)]
    spots = {("place", "e5"): ("node:e5",), ("place_open", "e5"): ("node:e5",)}
    picking = _picking(legal, spots)
    assert [r.text for r in picking.buttons()] == ["end_turn"]
    both = picking.pick("node:e5")
    assert both.action is None and [r.text for r in both.picking.buttons()] == ["place e5", "place_open e5"]
    assert both.picking.pick("do:place_open e5").action == ("place_open", "e5")


def test_a_hex_typed_alone_is_the_one_choice_it_names_and_an_ambiguous_one_says_which():
    game, state = _athos_move_phase()
    plan = Plan(game, 0, "move", state, tuple(game.legal_actions(state)))
    assert plan.parse("c5") == ("place", "c5")  # (a tile: reached by ending the move phase)
    placed = plan.add(plan.parse("c5"))
    assert placed.actions == (("end_move",), ("place", "c5"))
