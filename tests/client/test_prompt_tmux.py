"""A person at the line prompt, in a real terminal (tmux): `peerboard play aton --bots 1 --plain`,
then help, a wrong move (one line saying why), a legal move, and quit.

Each test's terminal is a tmux server of its own (`-L`, named as its session): on the one default
server that every tmux user of the machine shares, a session made just as another closed the
server's last one failed with "server exited unexpectedly"."""
import os
import re
import shutil
import subprocess
import sys
import time
import uuid

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
pytestmark = [pytest.mark.tmux,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")]


def _screen(session: str) -> str:
    return subprocess.run(["tmux", "-L", session, "capture-pane", "-t", session, "-p", "-S", "-200"],
                          capture_output=True, text=True, timeout=10).stdout


def _wait_for(session: str, text: str, seconds: float = 30.0) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        screen = _screen(session)
        if text in screen:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{text!r} did not appear; the screen:\n{_screen(session)}")


def test_a_person_plays_at_the_prompt_in_a_terminal(tmp_path):
    session = f"pb-prompt-{uuid.uuid4().hex[:12]}"  # (its own tmux server: -L)
    command = (f"cd {ROOT} && PEERBOARD_HOME={tmp_path} {sys.executable} -m peerboard.client.cli play aton --bots 1 --plain; "
               f"echo EXIT=$?; sleep 30")
    subprocess.run(["tmux", "-L", session, "new-session", "-d", "-s", session, "-x", "100", "-y", "50", command],
                   check=True, timeout=10)
    try:
        _wait_for(session, "your move")
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, "help", "Enter"], check=True, timeout=10)
        screen = _wait_for(session, "legal now:")
        legal = screen.split("legal now:")[-1].splitlines()[0].split(",")[0].strip()
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, "place 9.9", "Enter"], check=True, timeout=10)
        _wait_for(session, "temples are 1-4")
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, legal, "Enter"], check=True, timeout=10)
        # (entry 1 is the shuffle's reveal round, every seat's value in it: the move is entry 2)
        _wait_for(session, f"2: You played: {legal}")
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, "quit", "Enter"], check=True, timeout=10)
        screen = _wait_for(session, "EXIT=")
        assert "EXIT=0" in screen and "Traceback" not in screen
        assert "resume" in screen  # how to come back to the unfinished game
    finally:
        subprocess.run(["tmux", "-L", session, "kill-server"], capture_output=True, timeout=10)


def test_a_person_resigns_at_the_prompt_in_a_terminal(tmp_path):
    """`resign` asks first (an unclear answer asks again, `no` goes on); `yes` resigns: the
    game ends, the bot's seat wins, and the log says who resigned at which entry."""
    session = f"pb-prompt-{uuid.uuid4().hex[:12]}"  # (its own tmux server: -L)
    command = (f"cd {ROOT} && PEERBOARD_HOME={tmp_path} {sys.executable} -m peerboard.client.cli play aton --bots 1 --plain; "
               f"echo EXIT=$?; sleep 30")
    subprocess.run(["tmux", "-L", session, "new-session", "-d", "-s", session, "-x", "100", "-y", "50", command],
                   check=True, timeout=10)
    try:
        _wait_for(session, "your move")
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, "resign", "Enter"], check=True, timeout=10)
        _wait_for(session, "(yes/no)")
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, "maybe", "Enter"], check=True, timeout=10)
        _wait_for(session, "Please answer yes or no")
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, "no", "Enter"], check=True, timeout=10)
        _wait_for(session, "Not resigned; the game goes on.")
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, "resign", "Enter"], check=True, timeout=10)
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, "yes", "Enter"], check=True, timeout=10)
        _wait_for(session, "You resigned")
        screen = _wait_for(session, "Game over:")
        assert "You resigned at entry" in screen  # (the Ended line)
        assert "Game over: you resigned at entry" in screen
        assert "won by seat 1" in screen
        _wait_for(session, "Play again?")
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, "no", "Enter"], check=True, timeout=10)
        screen = _wait_for(session, "EXIT=")
        assert "EXIT=0" in screen and "Traceback" not in screen
    finally:
        subprocess.run(["tmux", "-L", session, "kill-server"], capture_output=True, timeout=10)
    logs = list(tmp_path.rglob("*.pblog"))
    assert logs, "no log was kept"
    verdict = subprocess.run([sys.executable, "-m", "peerboard.client.cli", "replay", str(logs[0]), "--verify"], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    assert verdict.returncode == 0, verdict.stdout
    assert re.search(r"seat 0 \([^)]*\) resigned at seq \d+; seat 1 \([^)]*\) won", verdict.stdout), verdict.stdout


def test_at_the_prompt_seat_1_gives_its_secret_choice_while_seat_0_still_chooses(tmp_path):
    """(issue 24, 4) The host, seat 0, thinks 3 s a decision; seat 1 types its `assign`
    before seat 0 has committed: it is taken (held by its node, committed in its turn),
    never "It is not your turn"."""
    import re

    from support.lanhelp import Proc

    host = Proc(["host", "aton", "--headless", "--think", "3", "--name", "hosty", "--bind", "tcp://127.0.0.1:0",
                 "--no-beacon", "--max-seconds", "90"], tmp_path / "host", tmp_path / "host.out")
    session = f"pb-prompt-{uuid.uuid4().hex[:12]}"  # (its own tmux server: -L)
    try:
        line = host.wait_for(r"peerboard join (tcp://\S+ --key \w+ --table \w+ --game aton)", 20).group(1)
        command = (f"cd {ROOT} && PEERBOARD_HOME={tmp_path / 'bea'} {sys.executable} -m peerboard.client.cli join {line} "
                   f"--plain --name bea --bind tcp://127.0.0.1:0; echo EXIT=$?; sleep 30")
        subprocess.run(["tmux", "-L", session, "new-session", "-d", "-s", session, "-x", "160", "-y", "50", command],
                       check=True, timeout=10)
        _wait_for(session, "seat 1, your move", 60)  # keep or exchange
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, "keep", "Enter"], check=True, timeout=10)
        _wait_for(session, "You played: keep", 30)
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, "assign", "Enter"], check=True, timeout=10)
        screen = _wait_for(session, "is not one of your secret choices; they are: ", 30)
        choice = re.search(r"they are: (assign \d \d \d \d)", screen).group(1)
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, choice, "Enter"], check=True, timeout=10)
        screen = _wait_for(session, "Your choice is made: it goes in once the seat ahead of you has committed.", 10)
        assert "It is not your turn" not in screen
        _wait_for(session, f"You played: {choice}", 30)  # committed in its turn, then revealed
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, "quit", "Enter"], check=True, timeout=10)
        assert "EXIT=0" in _wait_for(session, "EXIT=", 20)
    finally:
        subprocess.run(["tmux", "-L", session, "kill-server"], capture_output=True, timeout=10)
        host.close()
