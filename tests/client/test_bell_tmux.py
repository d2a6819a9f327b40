"""The bell when it becomes your turn after the game waited on others, in a real terminal
(tmux): everything the program writes to the terminal is kept (`pipe-pane`) and its bells
counted (BEL outside the OSC sequences that also end with one). The full-screen client and
the line prompt ring at the start and after the bot's turn, not after the seat's own move;
PEERBOARD_BELL=off rings nothing."""
import re
import sys
import time

import pytest

from support.tui_harness import HAVE_TMUX, Tmux, status_line

pytestmark = [pytest.mark.tmux,
              pytest.mark.skipif(not HAVE_TMUX, reason="tmux is not installed: the real-terminal tests need it")]
PEERBOARD = f"{sys.executable} -m peerboard.client.cli"
OSC = re.compile(rb"\x1b\][^\x07\x1b]*(\x07|\x1b\\\\)")


def _bells(path) -> int:
    data = path.read_bytes() if path.exists() else b""
    return OSC.sub(b"", data).count(b"\x07")


def _wait_bells(path, n: int, seconds: float = 60.0) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and _bells(path) < n:
        time.sleep(0.05)
    return _bells(path)


@pytest.fixture
def terminal(tmp_path):
    made: list[Tmux] = []

    def make(command: str, **env: str) -> tuple[Tmux, object]:
        written = tmp_path / f"written-{len(made)}"
        exports = " ".join(f"{k}={v}" for k, v in {"PEERBOARD_HOME": str(tmp_path / f"home{len(made)}"), **env}.items())
        t = Tmux(f"sleep 0.5; {exports} {command}", 120, 40)  # (the pipe is on before the program starts)
        t._run("pipe-pane", "-t", "t", "-o", f"cat >> {written}")
        made.append(t)
        return t, written

    yield make
    for t in made:
        t.close()


def _play_athos_turn(t: Tmux) -> None:
    """One whole turn, typed: a monk's move, then Enter sends it and ends the turn."""
    t.type("B-a5")
    t.keys("Enter")
    t.wait_until(lambda s: "Planned: B-a5" in status_line(s), "the move planned")
    t.keys("Enter")
    # the move list keeps the turn; the status line's "Sent: ..." is soon replaced by the bot's
    # move (waiting for that line alone failed whenever the bot answered between two looks)
    t.wait_until(lambda s: "Sent: B-a5; end move; end turn." in status_line(s)
                 or re.search(r"\b1 0 B-a5; end move; end turn\b", s), "the turn sent")


def test_the_full_screen_client_rings_when_the_turn_comes_back_after_the_bot(terminal):
    t, written = terminal(f"{PEERBOARD} play athos --bots 1 --name ann")
    t.wait_for("Your turn:")
    assert _wait_bells(written, 1) == 1  # the game began with the local seat's turn
    _play_athos_turn(t)
    assert _wait_bells(written, 2) == 2, "no bell when the bot's turn was over"
    t.wait_for("Your turn:")
    time.sleep(0.5)
    assert _bells(written) == 2  # one per turn
    t.keys("F10")
    t.wait_for("EXIT=")


def test_peerboard_bell_off_rings_nothing(terminal):
    t, written = terminal(f"{PEERBOARD} play athos --bots 1 --name ann", PEERBOARD_BELL="off")
    t.wait_for("Your turn:")
    _play_athos_turn(t)
    t.wait_until(lambda s: "Your turn:" in s and "Sent:" not in status_line(s), "the turn back")
    time.sleep(0.5)
    assert _bells(written) == 0
    t.keys("F10")
    t.wait_for("EXIT=")


def test_the_line_prompt_rings_when_it_is_your_turn_after_the_others(terminal):
    t, written = terminal(f"{PEERBOARD} play athos --bots 1 --name ann --plain")
    t.wait_for("your move")
    assert _wait_bells(written, 1) == 1
    for text in ("B-a5", "end move", "end turn"):  # one action a line: no bell within the turn
        t.type(text)
        t.keys("Enter")
        time.sleep(0.3)
    assert _wait_bells(written, 2) == 2, t.screen()
    t.type("quit")
    t.keys("Enter")
    t.wait_for("EXIT=")
