"""The table's rough edges of issue 41, each as a tester met it, on the full-screen client
driven headless (support/tui_harness.py)."""
import os

from peerboard import engines
from peerboard.client.invocation import command
from peerboard.client.tui.game_presenter import GamePresenter
from peerboard.client.tui.local import LocalSource
from support.tui_harness import Screen, run


def _screen(game: str, columns: int = 120, rows: int = 40, **kw) -> Screen:
    return Screen(GamePresenter(LocalSource(engines.get(game), seed=3, **kw)), columns, rows)


def test_tab_on_a_prefix_nothing_fits_says_so():
    async def body():
        async with _screen("asterix", players=2) as screen:
            await screen.type("zzz", enter=False)
            await screen.press("tab")
            assert screen.view.input.complete_state is None
            assert "Nothing fits 'zzz': no legal move begins so" in screen.text()

    run(body())


def test_the_athos_cursor_goes_straight_up_the_mountain():
    async def body():
        async with _screen("athos") as screen:
            presenter = screen.presenter
            presenter.model.cursor = "node:a9"
            columns = [presenter.pointing.positions()["node:a9"][1]]
            walked = []
            for _ in range(10):  # a9 up to row k
                presenter.pointing.move_cursor("up")
                walked.append(presenter.model.cursor)
                columns.append(presenter.pointing.positions()[presenter.model.cursor][1])
            assert walked[-1].startswith("node:k")
            assert max(columns) - min(columns) <= 2  # a zigzag about one column, no drift
            assert walked[-1] in ("node:k4", "node:k5")  # the middle of row k, as a9 is of row a

    run(body())


def test_f1_names_the_hexes_that_touch_the_one_under_the_cursor():
    async def body():
        async with _screen("athos") as screen:
            screen.presenter.model.cursor = "node:e5"
            await screen.press("f1")
            text = screen.text()
            assert "Under the board cursor: e5 touches e4 and e6 beside it, f4 and f5 above, d5 and d6 below" in text

    run(body())


def test_an_unplayed_start_area_says_it_is_not_in_play():
    board = __import__("peerboard.client.games.athos.board", fromlist=["BOARD"]).BOARD
    state = engines.get("athos").new_game(2)  # start areas B and D
    assert board.describe(state, "node:A", ("ann", "bob")) == "start area A (no seat's: not in play in this game): no monks"


def test_a_tile_planned_in_the_athos_phase_says_it_skips_the_athos_piece():
    async def body():
        async with _screen("athos") as screen:
            model = screen.presenter.model
            await screen.type("end move")  # the first turn: no tile is out yet, no Athos phase
            await screen.type("place c5")
            await screen.press("enter")  # sent; the random player's turn, then ours again
            await screen.until(lambda: model.plan is not None and model.plan.deciding and not model.plan.steps)
            await screen.type("end move")
            assert ("skip_athos",) in model.plan.legal_now()  # a tile is out: the piece may be used
            place = next(a for part in model.plan.later_parts() for a in part.legal_now() if a[0] == "place")
            await screen.type(model.plan.text_of(place))
            assert f"Planned: place {place[1]}, after skip athos." in screen.text()

    run(body())


def test_the_top_line_does_not_announce_the_next_turn_before_it_is_sent():
    async def body():
        async with _screen("athos") as screen:
            await screen.type("end move")
            await screen.type("end turn")  # planned whole, not sent
            top = screen.text().splitlines()[0]
            assert top.startswith("After you send: ")

    run(body())


def test_the_command_to_come_back_is_the_one_that_works_here(tmp_path):
    venv = tmp_path / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "peerboard").write_text("#!/bin/sh\n")
    assert command(".venv/bin/peerboard", str(tmp_path), None) == ".venv/bin/peerboard"  # after make play
    assert command(str(venv / "peerboard"), "/", None) == str(venv / "peerboard").lstrip("/")
    assert command(str(venv / "peerboard"), str(tmp_path), str(venv / "peerboard")) == "peerboard"  # on PATH
    assert command("-c", str(tmp_path), None).endswith(" -m peerboard.client.cli")
    assert os.sep in command(str(venv / "peerboard"), str(tmp_path / "elsewhere"), None)
