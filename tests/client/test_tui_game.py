"""The game screen, headless (pipe input, a fixed-size output), in front of a game against
random players in this process (client/tui/local.py stands in for the live game: the
same GameSource interface the live adapter implements)."""
import random

from peerboard import engines
import pytest
from prompt_toolkit.output import ColorDepth

from peerboard.client.tui.app import build
from peerboard.client.tui.game_presenter import GamePresenter
from peerboard.client.tui.game_view import ActionCompleter
from peerboard.client.tui.help import help_text
from peerboard.client.tui.local import LocalSource
from peerboard.client.tui.snapshot import FixedSizeOutput, screen_text
from support.tui_harness import Screen, click_at, local_screen, run, to_decision


async def _walk_to(screen: Screen, spot: str) -> None:
    """Arrow keys until the board cursor stands on `spot` (a person looking at the board)."""
    presenter = screen.presenter
    if presenter.model.focus != "board":
        await screen.press("f4")
    for _ in range(80):
        cursor = presenter.model.cursor
        if cursor == spot:
            return
        positions = presenter.pointing.positions()
        (r0, c0), (r1, c1) = positions[cursor], positions[spot]
        key = "up" if r1 < r0 else "down" if r1 > r0 else "left" if c1 < c0 else "right"
        await screen.press(key)
    raise AssertionError(f"the cursor never reached {spot}")


# -- completion -------------------------------------------------------------------------------------


def test_tab_completion_offers_exactly_the_legal_actions():
    async def body():
        async with local_screen("asterix", players=2) as screen:
            model = screen.presenter.model
            legal = [model.plan.text_of(a) for a in model.plan.legal_now()]
            await screen.press("tab")
            offered = [c.display_text for c in screen.view.input.complete_state.completions]
            assert offered == legal == ["village d4", "village e4", "village d5", "village e5"]

    run(body())


def test_completion_narrows_to_the_legal_actions_that_fit_what_is_typed():
    async def body():
        async with local_screen("athos") as screen:
            completer = ActionCompleter(screen.presenter)
            from prompt_toolkit.document import Document

            texts = [c.text for c in completer.get_completions(Document("b-a"), None)]
            legal = screen.presenter.model.legal_texts()
            assert texts == [t for t in legal if t.lower().startswith("b-a")] and texts  # (case does not matter)

    run(body())


# -- three ways to enter a move give the same action ---------------------------------------------


def _three_ways(game: str, kind: str, typed_from, spots_of, **kw):
    """The same decision taken by typing, by the board cursor and by mouse clicks, in
    three fresh screens of the same game: the planned actions are equal."""

    async def way(how: str):
        async with local_screen(game, **kw) as screen:
            await to_decision(screen, kind)
            model = screen.presenter.model
            action = [a for a in model.plan.legal_now() if a[0] == kind][-1]
            if how == "type":
                await screen.type(typed_from(model, action))
            for spot in spots_of(action) if how != "type" else ():
                if how == "cursor":
                    await _walk_to(screen, spot)
                    await screen.press("enter")
                else:
                    await click_at(screen, spot)
            assert model.plan.steps, f"nothing was planned by {how}: {model.alert}"
            return model.plan.actions[0], action

    results = [run_and_get(way(how)) for how in ("type", "cursor", "click")]
    assert results[0] == results[1] == results[2]
    assert results[0][0] == results[0][1]


def run_and_get(coro):
    box = []

    async def keep():
        box.append(await coro)

    run(keep())
    return box[0]


def test_aton_cartouches_typed_pointed_at_and_clicked_give_the_same_choice():
    _three_ways("aton", "assign", lambda m, a: m.plan.text_of(a), lambda a: [f"card:{v}" for v in a[1:]], seed=5)


def test_asterix_village_square_typed_pointed_at_and_clicked_give_the_same_placement():
    _three_ways("asterix", "village", lambda m, a: m.plan.text_of(a), lambda a: [f"sq:{a[1]}"], players=2)


def test_athos_monk_going_typed_pointed_at_and_clicked_give_the_same_go():
    _three_ways("athos", "go", lambda m, a: m.plan.text_of(a), lambda a: [f"node:{a[1]}", f"node:{a[2]}"])


def test_a_button_taken_by_the_cursor_is_the_action_its_text_names():
    async def body():
        async with local_screen("athos") as screen:
            await _walk_to(screen, "do:end move")
            await screen.press("enter")
            assert screen.presenter.model.plan.actions[0] == ("end_move",)

    run(body())


# -- plan, then commit ----------------------------------------------------------------------------------


def test_undo_restores_the_preview_and_the_board_shown():
    async def body():
        async with local_screen("athos") as screen:
            model = screen.presenter.model
            before, board_before = model.shown_state, screen.text()
            await screen.type("B-a5")
            assert model.shown_state != before and "planned: B-a5" in screen.text()
            await screen.press("f2")
            assert model.shown_state == before and not model.plan.steps
            await screen.type("B-a6")
            await screen.type("undo")
            assert model.shown_state == before
            assert screen.text().splitlines()[1:20] == board_before.splitlines()[1:20]

    run(body())


def test_ending_the_turn_sends_the_planned_turn_as_one_entry():
    async def body():
        source = LocalSource(engines.get("athos"))
        async with local_screen("athos", source=source) as screen:
            for text in ("B-a5", "a5-b5", "end move", "end turn"):
                await screen.type(text)
            assert screen.presenter.model.plan.complete and source.lines == []
            await screen.press("enter")
            await screen.until(lambda: source.lines)
            assert source.lines[0].seat == 0
            assert source.lines[0].text == "B-a5; a5-b5; end move; end turn"

    run(body())


def test_athos_tiles_planned_in_any_order_go_out_in_board_order():
    async def body():
        source = LocalSource(engines.get("athos"))
        async with local_screen("athos", source=source) as screen:
            model = screen.presenter.model
            await screen.type("end move")
            places = [t for t in model.legal_texts() if t.startswith("place ")]
            first, last = places[0], places[len(places) // 2]  # a low and a higher hex in board order
            await screen.type(last)
            await screen.type(first)  # before the other one in board order: still taken
            assert [s.text for s in model.plan.steps] == ["end move", first, last]
            await screen.type("end turn")
            await screen.press("enter")
            await screen.until(lambda: source.lines)
            assert source.lines[0].text == f"end move; {first}; {last}; end turn"

    run(body())


def test_athos_tiles_clicked_in_any_order_join_the_plan_in_board_order():
    async def body():
        async with local_screen("athos") as screen:
            model = screen.presenter.model
            await screen.type("end move")
            places = [a for a in model.plan.legal_now() if a[0] == "place"]
            low, high = places[0], places[len(places) // 2]
            await click_at(screen, f"node:{high[1]}")
            await click_at(screen, f"node:{low[1]}")  # no longer a target, yet a choice in board order
            assert model.plan.actions == (("end_move",), low, high)

    run(body())


def test_an_illegal_entry_shows_its_reason_and_changes_nothing():
    async def body():
        async with local_screen("aton", seed=5) as screen:
            await to_decision(screen, "assign")
            model = screen.presenter.model
            plan, board = model.plan, screen.text().splitlines()[:18]
            await screen.type("assign 5 1 1 1")
            assert "'5' is not a card: cards are 1, 2, 3 and 4." in screen.text()
            assert model.plan is plan and screen.text().splitlines()[:18] == board

    run(body())


def test_a_move_typed_out_of_turn_says_whose_turn_it_is():
    class Waiting(LocalSource):
        def _decision(self):
            return None, ()

    async def body():
        async with local_screen("athos", source=Waiting(engines.get("athos"))) as screen:
            await screen.type("B-a5")
            assert "It is not your turn" in screen.text()

    run(body())


def test_declining_a_draw_says_so_on_the_decliners_screen_in_place_of_the_offer():
    """issue 39: the offer's alert stands no more once the person declined it."""
    from peerboard.client.tui.source import Alert

    class Offered(LocalSource):
        standing = (("drawn", (1,)),)

        def offers(self):
            return self.standing

        def decline(self, how):
            self.standing = ()

    async def body():
        source = Offered(engines.get("athos"))
        async with local_screen("athos", source=source) as screen:
            screen.presenter.say("seat 1 (bob) offers a draw: `accept` or `decline`", "warn")
            await screen.type("decline")
            assert source.standing == ()
            assert screen.presenter.model.alert == Alert("You declined a draw; the game goes on.", "info")
            assert "offers a draw" not in screen.text()

    run(body())


class OnlyChoice(LocalSource):
    """Offers the local seat only the first of its legal actions: each decision is forced."""

    def _decision(self):
        kind, legal = super()._decision()
        return kind, legal[:1]


def test_a_decision_with_one_legal_action_is_taken_at_once_and_shown_in_the_log():
    async def body():
        source = OnlyChoice(engines.get("aton"), seed=2)
        async with local_screen("aton", source=source) as screen:
            # the white counter (keep) and the cartouches (one commit): nobody typed anything
            await screen.until(lambda: any(line.text.startswith("assign") for line in source.lines
                                           if line.seat == 0))
            mine = [line.text for line in source.lines if line.seat == 0]
            assert mine[0] == "keep" and mine[1].startswith("commit")
            assert "Taken at once (the only choice)" in screen.text()
            assert "   1 0 keep" in screen.text()  # the move list

    run(body())


# -- whole games by keystrokes --------------------------------------------------------------------------


@pytest.mark.parametrize("game, options, players, limit", [
    ("aton", {"win_points": 20}, 2, 400),
    ("asterix", {"max_rounds": 3}, 3, 400),
    ("athos", {}, 2, 120),  # Athos games are long: a bounded stretch of one
])
def test_a_game_played_by_keystrokes_against_random_players(game, options, players, limit):
    async def body():
        source = LocalSource(engines.get(game), players, options, seed=11)
        async with local_screen(game, source=source) as screen:
            model, rng = screen.presenter.model, random.Random(4)
            for _ in range(limit):
                if source.snapshot().over:
                    break
                plan = model.plan
                if plan is not None and plan.deciding:
                    await screen.type(rng.choice(model.legal_texts()))
                else:
                    await screen.press("enter")
                assert model.alert is None or model.alert.kind == "info", model.alert
            mine = [line for line in source.lines if line.seat == 0]
            assert mine, "the local seat never moved"
            if game != "athos":
                assert source.snapshot().over and "Game over" in screen.text()

    run(body())


# -- the frame: help, size, colour, leaving ---------------------------------------------------------------


def test_help_opens_on_question_mark_and_f1_with_the_keys_and_the_rules():
    async def body():
        async with local_screen("asterix", players=2) as screen:
            await screen.press("?")
            text = screen.text()
            assert "F2 Undo" in text and "the village is d4 e4 d5 e5" in text
            await screen.escape(lambda: not screen.presenter.model.help_shown)
            await screen.press("f1")
            assert screen.presenter.model.help_shown
            await screen.press("f1")
            assert "the village is d4 e4 d5 e5" not in screen.text()

    run(body())


def test_a_terminal_below_the_minimum_size_gets_one_message_and_a_resize_redraws():
    source = LocalSource(engines.get("athos"))
    app, view = build(GamePresenter(source), output=FixedSizeOutput(80, 24))
    small = screen_text(app)
    assert "Athos needs a terminal of at least" in small and "this one is 80x24" in small
    assert "summit" not in small
    app.output.size = type(app.output.size)(rows=30, columns=110)
    large = screen_text(app)
    assert "summit" in large and "needs a terminal" not in large


def test_no_color_draws_without_colours(monkeypatch):
    from peerboard.client.tui import styles

    monkeypatch.setenv("NO_COLOR", "1")
    app, _ = build(GamePresenter(LocalSource(engines.get("aton"))), output=FixedSizeOutput())
    assert app.color_depth == ColorDepth.DEPTH_1_BIT
    assert styles.color_depth({"NO_COLOR": ""}) is None  # empty: colour as the terminal has it
    assert styles.color_depth({}) is None


def test_ctrl_c_leaves_cleanly_and_tells_the_game():
    closed = []

    class Watched(LocalSource):
        def close(self):
            closed.append(True)
            super().close()

    async def body():
        screen = local_screen("aton", source=Watched(engines.get("aton")))
        async with screen:
            screen.input.send_text("\x03")
            await screen.until(lambda: screen.task.done())
            assert screen.task.exception() is None
        assert closed == [True]

    run(body())


def test_a_click_on_a_function_key_label_does_what_the_key_does():
    async def body():
        async with local_screen("athos") as screen:
            await screen.type("B-a5")
            rows = screen.text().splitlines()
            bar = len(rows) - 1
            await screen.click(rows[bar].index("F2 Undo") + 3, bar)
            assert not screen.presenter.model.plan.steps and "Taken back" in screen.text()
            await screen.click(rows[bar].index("F1 Help") + 3, bar)
            assert screen.presenter.model.help_shown

    run(body())


# -- the turn: issue 24's points 1 to 3 ------------------------------------------------------------


def test_athos_tiles_clicked_from_the_top_of_the_mountain_down_all_count_and_each_click_names_its_hex():
    async def body():
        source = LocalSource(engines.get("athos"))
        async with local_screen("athos", source=source) as screen:
            model = screen.presenter.model
            await screen.type("end move")
            places = [a for a in model.plan.legal_now() if a[0] == "place"]
            chosen = [next(a for a in reversed(places) if a[1].startswith(row)) for row in "kigeca"]
            for action in chosen:  # k first: in board order it would end the placements
                await click_at(screen, f"node:{action[1]}")
                assert f"Planned: place {action[1]}" in screen.text()
            assert [a for a in model.plan.actions if a[0] == "place"] == sorted(chosen, key=places.index)
            await screen.press("enter")
            await screen.until(lambda: source.lines)
            texts = [t for t in source.lines[0].text.split("; ") if t.startswith("place")]
            assert texts == [f"place {a[1]}" for a in sorted(chosen, key=places.index)]  # all six, in board order

    run(body())


def test_a_tile_clicked_during_the_move_phase_ends_it_and_enter_ends_the_turn_with_fewer_tiles():
    async def body():
        source = LocalSource(engines.get("athos"))
        async with local_screen("athos", source=source) as screen:
            model = screen.presenter.model
            await screen.type("B-a5")
            assert "Go on, or Enter (or F3) sends the turn as it is" in screen.text()
            await click_at(screen, "node:c5")
            assert "Planned: place c5, after end move." in screen.text()  # the move phase ended, said
            await screen.press("enter")  # on the empty line: sent, and the turn ends (fewer tiles is legal)
            await screen.until(lambda: source.lines)
            assert source.lines[0].text == "B-a5; end move; place c5; end turn"
            assert model.plan is None or source.lines[-1].seat != 0

    run(body())


def test_a_refused_click_or_text_gives_the_rules_reason():
    async def body():
        async with local_screen("athos") as screen:
            await screen.type("end move")
            await screen.type("place a1")
            await click_at(screen, "node:a1")  # a tile there already
            assert "a1 already has a tile" in screen.text()
            await screen.type("place b2")
            await screen.type("place b3")
            await screen.type("place b4")  # b is green like a: the third green tile
            assert "the most of one colour" in screen.text()

    run(body())


def test_enter_on_the_board_sends_a_turn_planned_whole_as_the_line_under_the_board_says():
    async def body():
        source = LocalSource(engines.get("aton"), seed=5)
        async with local_screen("aton", source=source) as screen:
            await to_decision(screen, "assign")
            model = screen.presenter.model
            await screen.type(model.legal_texts()[0])
            await screen.press("f4")
            assert "Enter commits; F2 takes back." in screen.text()  # the line under the board
            count = len(source.lines)
            await screen.press("enter")
            await screen.until(lambda: len(source.lines) > count)

    run(body())


@pytest.mark.parametrize("game, words", [
    ("aton", ("k black", "Square t.n is temple", "+n a bonus square", "What scores")),
    ("athos", ("G green (rows a-b)", "# blocking, o open", "What scores")),
    ("asterix", ("a1\n bottom left", "cohrt (cohort)", "p01: the pawns of seats 0 and 1", "What scores")),
])
def test_f1_teaches_the_board_its_marks_and_what_scores_and_scrolls_to_the_end(game, words):
    async def body():
        async with local_screen(game, players=2) as screen:
            await screen.press("f1")
            seen = screen.text()
            for _ in range(8):  # PgDn until the help's last line is in view
                if "Esc, F1 or ? closes this help." in screen.text():
                    break
                await screen.press("pagedown")
                seen += screen.text()
            assert "Esc, F1 or ? closes this help." in screen.text()
            assert "Reading the board" in seen and "What scores" in seen
            flat = " ".join(help_text(game, screen.presenter.keys_help, []).split())
            for wanted in words:
                assert " ".join(wanted.split()) in flat, wanted

    run(body())


def test_athos_rows_are_told_apart_without_colour_on_the_full_screen_board():
    from peerboard.client.tui.boards import BoardContext, board_for

    game = engines.get("athos")
    text = board_for("athos").draw(BoardContext(game.new_game(2), 0, ("a", "b"))).text()
    rows = {line.split()[0]: line.split()[1] for line in text.splitlines()
            if len(line.split()) > 2 and line.split()[0] in "abcdefghijk" and len(line.split()[0]) == 1}
    assert rows == {"a": "G", "b": "G", "c": "Y", "d": "Y", "e": "O", "f": "O", "g": "B", "h": "B",
                    "i": "W", "j": "W", "k": "W"}


def test_a_monks_target_clicked_before_the_monk_says_to_point_at_the_monk_first():
    async def body():
        async with local_screen("athos") as screen:
            model = screen.presenter.model
            go = next(a for a in model.plan.legal_now() if a[0] == "go" and a[1] == "B")
            await click_at(screen, f"node:{go[2]}")
            assert "Point at where it starts first" in screen.text() and not model.plan.steps

    run(body())
