"""The full-screen client playing live, in a real terminal (tmux): `peerboard play aton
--bots 1` against a real bot process, played to the end by typing (Tab lists the legal
actions, the first is typed out, Enter takes it, Enter sends the turn), the log verified;
Ctrl-C leaves a game that waits, and `resume` brings it back; the lobby (`peerboard` alone)
lists a table hosted by another process and joins it; the lobby's form hosts a table that
another process joins.

Each test has its own tmux server and PEERBOARD_HOME, polls the captured screen for what
it waits for (bounded in time) and kills what it started."""
import re
import subprocess
import sys

import pytest

from peerboard import engines

from support.lanhelp import Proc, free_udp_port
from support.tui_harness import HAVE_TMUX, ROOT, Tmux, play_to_the_end

pytestmark = [pytest.mark.tmux,
              pytest.mark.skipif(not HAVE_TMUX, reason="tmux is not installed: the real-terminal tests need it")]
PEERBOARD = f"{sys.executable} -m peerboard.client.cli"
LOG = re.compile(r"The game's log: (\S+\.pblog)")
# (the command is the one that works where the test stands: `peerboard`, a path, or `python -m`)
RESUME = re.compile(r"(?:peerboard|peerboard\.client\.cli) resume (\S+\.pblog)")


@pytest.fixture
def tmux_of(tmp_path):
    made: list[Tmux] = []

    def make(command: str, columns: int = 120, rows: int = 40, **env: str) -> Tmux:
        made.append(Tmux(command, columns, rows, {"PEERBOARD_HOME": str(tmp_path / "home"), **env}))
        return made[-1]

    yield make
    for t in made:
        t.close()


@pytest.fixture
def procs():
    started: list[Proc] = []
    yield started
    for p in started:
        p.close()


def _joined(t, text: str, seconds: float = 30.0) -> str:
    """The screen once `text` shows, as tmux joins the lines the terminal wrapped (a long path)."""
    t.wait_for(text, seconds)
    return t.joined()


def test_play_aton_against_a_bot_to_the_end_by_typing_and_the_log_verifies(tmux_of):
    t = tmux_of(f"{PEERBOARD} play aton --bots 1 --name ann")
    screen = t.wait_for("Your turn:")
    assert "Aton · you are seat 0" in screen and "0 ann" in screen and "you" in screen
    said = play_to_the_end(t, seconds=180)
    assert any("Planned: assign " in line for line in said) and any("Planned: place " in line for line in said)
    screen = t.wait_for("Game over: won by")
    assert "F10 leaves" in screen
    t.keys("F10")
    screen = _joined(t, "EXIT=")
    assert "EXIT=0" in screen and "Traceback" not in screen
    log = LOG.search(screen).group(1)
    verdict = subprocess.run([sys.executable, "-m", "peerboard.client.cli", "replay", log, "--verify"], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    assert verdict.returncode == 0 and verdict.stdout.startswith("valid: aton, seats 0:ann, 1:bot-1"), verdict.stdout


def test_ctrl_c_leaves_a_game_that_waits_and_resume_brings_it_back(tmux_of):
    t = tmux_of(f"{PEERBOARD} play aton --bots 1 --name ann")
    t.wait_for("Your turn:")
    t.type("keep")  # the notation, typed
    t.keys("Enter")
    t.wait_for("Planned: keep. The turn is whole: Enter (or F3) sends it")
    t.keys("Enter")
    t.wait_until(lambda s: re.search(r"│ +\d+ 0 keep", s), "the move sent, in the move list")
    played = "keep"
    t.keys("C-c")
    screen = _joined(t, "EXIT=")
    assert "EXIT=130" in screen and "You left the game; it waits for you." in screen
    log = RESUME.search(screen).group(1)

    back = tmux_of(f"{PEERBOARD} resume {log}")
    screen = back.wait_for("The game goes on from entry")
    assert "Aton · you are seat 0" in screen and re.search(rf"│ +\d+ 0 {played}", screen)  # its move, as it was
    back.keys("F10")
    screen = _joined(back, "EXIT=")
    assert "EXIT=0" in screen and "You left the game; it waits for you." in screen


def test_the_lobby_lists_a_table_hosted_elsewhere_and_joins_it(tmux_of, procs, tmp_path):
    port = str(free_udp_port())
    host = Proc(["host", "aton", "--headless", "--name", "hosty", "--bind", "tcp://127.0.0.1:0", "--max-seconds", "60"],
                tmp_path / "host", tmp_path / "host.out", beacon_port=int(port))
    procs.append(host)
    table = host.wait_for(r"table (\w{8}) open", 20).group(1)
    t = tmux_of(PEERBOARD, PEERBOARD_BEACON_PORT=port)  # no command on a terminal: the lobby
    screen = t.wait_for(f"{table}  aton     1/2 seated  host hosty")
    assert "peerboard · lobby" in screen
    t.keys("Enter")
    t.wait_for("Join hosty's table")  # the form: the name the others see, where to listen
    t.keys("Enter")
    screen = t.wait_for("Aton · you are seat 1")
    assert "0 hosty" in screen
    t.wait_for("Your turn:")  # (the host kept or exchanged: seat 1's turn)
    t.keys("F10")
    screen = _joined(t, "EXIT=")
    assert "EXIT=0" in screen and "You left the game; it waits for you." in screen
    host.wait_for(r"left the table; the game waits until it resumes", 10)


def test_a_wrong_private_code_in_the_lobby_is_asked_again_and_the_right_one_joins(tmux_of, procs, tmp_path):
    port = str(free_udp_port())
    host = Proc(["host", "aton", "--headless", "--name", "hosty", "--code", "s3cret", "--bind", "tcp://127.0.0.1:0",
                 "--max-seconds", "90"], tmp_path / "host", tmp_path / "host.out", beacon_port=int(port))
    procs.append(host)
    table = host.wait_for(r"table (\w{8}) open", 20).group(1)
    t = tmux_of(PEERBOARD, PEERBOARD_BEACON_PORT=port)
    t.wait_for(f"{table}  aton")
    t.keys("Enter")
    t.wait_for("Join a private table")
    t.type("wrong")
    t.keys("Enter")
    screen = t.wait_for("That is not this private table's code: ask its host for it.", 30)
    assert "Join a private table" in screen and "EXIT=" not in screen
    t.type("s3cret")
    t.keys("Enter")
    t.wait_for("Aton · you are seat 1", 30)
    screen = t.wait_for("0 hosty", 30)  # (the seats panel fills in once the game starts)
    assert "Aton · you are seat 1" in screen
    t.keys("F10")
    assert "EXIT=0" in t.wait_for("EXIT=")


def test_the_lobby_form_hosts_a_table_and_the_forming_screen_shows_who_takes_a_seat(tmux_of, procs, tmp_path):
    port = str(free_udp_port())
    t = tmux_of(f"{PEERBOARD} lobby --name ann --bind tcp://127.0.0.1:0", PEERBOARD_BEACON_PORT=port)
    t.wait_for("Open tables on this network")
    t.keys("F2")
    t.wait_for("Host a table")
    names = engines.names()
    for game in names[1 : names.index("aton") + 1]:  # Right: the next game
        t.keys("Right")
        t.wait_for(f"‹ {game} ›", 5)
    t.keys("Enter")
    screen = t.wait_for("Waiting for players: 1 of 2 seats taken.")
    table = re.search(r"peerboard join (\w{8})", screen).group(1)
    assert f"Aton · table {table} · 2 seats · open table" in screen and "seat 1  (free)" in screen
    joiner = Proc(["join", table, "--headless", "--name", "bob", "--bind", "tcp://127.0.0.1:0", "--max-seconds", "60"],
                  tmp_path / "joiner", tmp_path / "joiner.out", beacon_port=int(port))
    procs.append(joiner)
    screen = t.wait_for("Your turn:")  # the game started: seat 0 keeps or exchanges
    assert "1 bob" in screen and "Aton · you are seat 0" in screen
    t.keys("F10")
    assert "EXIT=0" in t.wait_for("EXIT=")


def test_max_seconds_ends_the_screen_with_exit_status_3_and_says_how_to_come_back(tmux_of):
    t = tmux_of(f"{PEERBOARD} play aton --bots 1 --max-seconds 3")
    t.wait_for("Your turn:")  # (and then nobody moves)
    t.wait_for("EXIT=", 20)
    screen = t.joined()
    assert "EXIT=3" in screen and "Gave up (--max-seconds); the game is not over." in screen
    assert RESUME.search(screen) and "Traceback" not in screen


def _descendants(pid: int) -> list[tuple[int, str]]:
    """The processes started under `pid` (pid, command line), from ps."""
    rows = subprocess.run(["ps", "-eo", "pid=,ppid=,args="], capture_output=True, text=True, timeout=10).stdout
    children: dict[int, list[tuple[int, str]]] = {}
    for row in rows.splitlines():
        child, parent, args = row.strip().split(None, 2) if len(row.split()) > 2 else (*row.split(), "")
        children.setdefault(int(parent), []).append((int(child), args))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child[0])
    return found


def test_a_silent_seat_is_shown_away_for_a_time_that_counts_on_while_nothing_else_happens(tmux_of):
    """Nothing is typed and nothing comes from the network: the "away Ns" beside the bot's
    seat still counts (issue 24, 12: it stood at 5s for twenty seconds)."""
    import os
    import signal
    import time

    t = tmux_of(f"{PEERBOARD} play aton --bots 1 --name ann")
    t.wait_for("Your turn:", 60)
    pane = int(t._run("display-message", "-p", "-t", "t", "#{pane_pid}").strip())
    bots = [pid for pid, args in _descendants(pane) if " bot " in f" {args} "]
    assert bots, _descendants(pane)
    for pid in bots:
        os.kill(pid, signal.SIGSTOP)  # (silent: it sends no heartbeat)
    try:
        away = re.compile(r"away (\d+)s")
        first = int(away.search(t.wait_until(lambda s: away.search(s), "away Ns", 40)).group(1))
        deadline = time.monotonic() + 20
        seen = first
        while time.monotonic() < deadline and seen < first + 2:
            time.sleep(0.25)
            m = away.search(t.screen())
            seen = int(m.group(1)) if m else seen
        assert seen >= first + 2, f"'away {first}s' stood still; the screen:\n{t.screen()}"
    finally:
        for pid in bots:
            os.kill(pid, signal.SIGCONT)



def test_pasted_text_holding_an_escape_sequence_is_text_in_a_real_terminal(tmux_of):
    """(issue 24, 11: "Internal error in the terminal client (ValueError)", from
    prompt-toolkit's mouse-report parser.)"""
    from support.tui_harness import input_line

    t = tmux_of(f"{PEERBOARD} play aton --bots 1 --name ann")
    t.wait_for("Your turn:", 60)
    t.type("keep\x1b[5M x")
    screen = t.wait_until(lambda s: input_line(s).endswith(" x"), "the pasted text on the input line", 20)
    assert input_line(screen) == "keep[5M x" and "Internal error" not in screen
    t.keys("C-u")
    t.type("keep")
    t.keys("Enter")
    t.wait_for("Planned: keep.", 20)  # and the screen goes on as ever
