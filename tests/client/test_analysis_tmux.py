"""The replay viewer in a real terminal (tmux) with an analysis beside the log: the
win-probability graph across the screen, the current entry's judgement over it, the
marks in the move list."""
import io
import json
import shutil
import sys
from pathlib import Path

import pytest

from peerboard.client.analysis import document
from peerboard.client.analysis.command import analyse
from peerboard.client.bots.sdk import Budget
from peerboard.client.bots.tournament import InProcess
from support.tui_harness import HAVE_TMUX, Tmux

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.tmux,
              pytest.mark.skipif(not HAVE_TMUX, reason="tmux is not installed")]


@pytest.mark.timeout(900)  # CPU-bound: on a loaded machine its wall time is several times its CPU time
def test_the_viewer_draws_the_graph_and_marks_the_costliest_move(tmp_path):
    """Slow (tens of seconds): every decision of a whole Athos game (the spec's vector) is judged by the
    search before the viewer can draw the graph; the budget is already the smallest that marks a move."""
    log = tmp_path / "athos.pblog"
    shutil.copy(ROOT / "spec" / "vectors" / "athos.pblog", log)
    assert analyse([log], Budget(playouts=20), 0, InProcess(), io.StringIO(), io.StringIO()) == 0
    doc = json.loads(document.path_for(log).read_text())
    worst = max(doc["moves"], key=lambda m: m["drop"])
    term = Tmux(f"{sys.executable} -m peerboard.client.cli replay {log}", 120, 45)
    try:
        screen = term.wait_for("to win ·")
        graph = [line for line in screen.split("\n") if "█" in line or "▄" in line]
        assert len(graph) >= 2  # the graph's rows, across the screen
        term.type(str(worst["seq"]))
        term.keys("Enter")
        screen = term.wait_for(f"seq {worst['seq']} seat {worst['seat']}")
        caption = next(line for line in screen.split("\n") if "to win ·" in line)
        assert worst["played"] in caption
        if worst["mark"]:
            assert worst["mark"] in caption and f"better {worst['preferred']}" in caption
            sign = "??" if worst["mark"] == "blunder" else "?"
            assert any(f"{worst['seq']:>4} {worst['seat']} {worst['played']} {sign}" in line for line in screen.split("\n"))
        term.keys("Right")
        term.wait_for(f"{worst['seq'] + 1}/")  # (the header: "ENTRY/LAST · view · …")
    finally:
        term.close()
