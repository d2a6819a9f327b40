"""The game screen, headless, where issue 24 found small faults a person met: Aton's cards
fill the cartouches in order, no text is cut mid-word, pasted text is text, the status
line keeps the newest of the other seats' moves."""
import random

import pytest

from peerboard import engines
from peerboard.client.tui.local import LocalSource
from support.tui_harness import click_at, local_screen, run, to_decision


def test_aton_cards_pointed_at_fill_the_cartouches_in_order_and_ask_for_no_target():
    """(issue 24, 19: each card clicked said "now its target", and the line under the
    board "picked 3 → ?", though the cards simply fill cartouches 1 to 4.)"""
    async def body():
        async with local_screen("aton", seed=5) as screen:
            await to_decision(screen, "assign")
            model = screen.presenter.model
            action = model.plan.legal_now()[-1]
            await click_at(screen, f"card:{action[1]}")
            text = screen.text()
            first = f"Cartouche 1: {action[1]}; now the card for cartouche 2 (Esc clears)."
            assert model.alert.text == first and "target" not in text and "→ ?" not in text
            await click_at(screen, f"card:{action[2]}")
            assert f"cartouche 1: {action[1]}, cartouche 2: {action[2]}; now the card for cartouche 3" in screen.text()
            for v in action[3:]:
                await click_at(screen, f"card:{v}")
            assert model.plan.actions == (action,)

    run(body())


def _cut_at_a_word(shown: str, whole: str) -> bool:
    """Whether `shown` is `whole`, or `whole` shortened at a word break with "…"."""
    if shown == whole:
        return True
    if not shown.endswith("…"):
        return False
    kept = shown[:-1]
    return whole.startswith(kept) and (whole[len(kept)] in " ;,·:" or kept == "")


def test_an_asterix_game_of_four_at_80_columns_cuts_no_text_mid_word():
    """The situation line wraps, the line under the board, the header and the move list
    are shortened at a word with "…" (issue 24, 15: "place 3.2; plac")."""
    async def body():
        source = LocalSource(engines.get("asterix"), 4, {"max_rounds": 3}, seed=11)
        async with local_screen("asterix", source=source, columns=80, rows=30) as screen:
            model, view, rng = screen.presenter.model, screen.view, random.Random(4)
            for _ in range(120):
                plan = model.plan
                if source.snapshot().over:
                    break
                if plan is not None and plan.open:
                    await screen.type(rng.choice(model.legal_texts()))
                else:
                    await screen.press("enter")
            rows = screen.text().split("\n")
            situation = model.situation()
            top = " ".join(line.strip() for line in rows[: len(view.situation_lines)])
            assert _cut_at_a_word(top, situation), (top, situation)
            panel = [row.split("│", 1)[1] for row in rows if "│" in row]
            whole = {f"{m.seq:>4} {m.seat if m.seat >= 0 else ' '} {m.text}": m for m in model.move_lines()}
            listed = [row.rstrip() for row in panel if row[:4].strip().isdigit()]
            assert listed and any(t.endswith("…") for t in listed), panel  # (four players' turns are long)
            for shown in listed:
                seq = int(shown[:4])
                full = next(t for t in whole if int(t[:4]) == seq)
                assert _cut_at_a_word(shown, full), (shown, full)

    run(body())


@pytest.mark.parametrize("pasted", ["\x1b[5M", "\x1b[1;2M", "\x1b[<1;2M", "\x1b[<99;3;4M", "\x1b[9;9;9;9M"])
def test_pasted_text_holding_an_escape_sequence_is_text_at_the_move_line(pasted):
    """prompt-toolkit's parser takes `ESC [ 5 M` for a mouse report and its handler raised
    on it ("Internal error in the terminal client (ValueError)"): pasted text is text."""
    async def body():
        async with local_screen("aton") as screen:
            await screen.type(f"assign{pasted} x", enter=False)
            assert screen.app.is_running and not screen.task.done()
            assert screen.presenter.model.alert is None or "Internal error" not in screen.presenter.model.alert.text
            typed = screen.view.input.text
            assert typed.startswith("assign") and typed.endswith(" x") and "\x1b" not in typed
            await screen.click(2, 2)  # a real click still is one
            assert screen.app.is_running

    run(body())


def test_the_other_seats_moves_in_the_status_line_keep_the_newest_when_too_long():
    """(issue 24, 16) The other seats' moves are said oldest first; a line too long for the
    screen lost its end, so the status line told of moves older than the move list's last.
    It loses its beginning instead."""
    from peerboard.client.tui.source import Alert

    said = "; ".join(f"seat {i % 3} (bot-{i % 3}) played: move c{i}; pick" for i in range(1, 9))
    async def body():
        async with local_screen("aton", columns=100) as screen:
            screen.presenter.on_source_event(Alert(said, newest_last=True))
            await screen.flush()
            status = screen.text().rstrip("\n").split("\n")[-2]
            assert status.startswith("…") and status.endswith("seat 2 (bot-2) played: move c8; pick"), status

    run(body())

