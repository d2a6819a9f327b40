"""The replay viewer, headless, stepping through the test vectors (spec/vectors), and the
replay command's text forms."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from peerboard.client.tui.replay import load
from peerboard.client.tui.replay_presenter import ReplayPresenter
from support.tui_harness import Screen, run
from support.vectors import CASES

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "spec" / "vectors"


def _viewer(name: str, view_as=None, path: Path | None = None) -> Screen:
    source, _ = load(path or VECTORS / f"{name}.pblog", view_as)
    return Screen(ReplayPresenter(source), 120, 32)


@pytest.mark.parametrize("name", [name for name, _, _ in CASES])
def test_arrow_keys_step_through_every_entry_of_a_vector_log_and_back(name):
    async def body():
        async with _viewer(name) as screen:
            source = screen.presenter.source
            assert source.index == 0 and f"0/{source.last}" in screen.text()
            await screen.press("right", "right", "right")
            assert source.index == 3 and f"3/{source.last}" in screen.text()
            assert screen.presenter.model.snapshot.state == source.states[3]
            await screen.press("left")
            assert source.index == 2
            await screen.press("end")
            assert source.index == source.last and "game over" in screen.presenter.model.snapshot.status
            await screen.press("home", "pagedown")
            assert source.index == 10

    run(body())


@pytest.mark.parametrize("columns", [101, 120, 170])
@pytest.mark.parametrize("name", ["asterix", "athos"])
def test_the_header_shows_the_entry_and_whose_view_whatever_the_width_and_file_name(name, columns, tmp_path):
    """The entry number and the view come first; a long name (as a game's own log is
    named in the data directory) is what gets shortened, at a word, with "…"."""
    path = tmp_path / f"{name}-20261201-134502-3fa9c2d1-qkvy-yhgc.pblog"
    path.write_bytes((VECTORS / f"{name}.pblog").read_bytes())

    async def body():
        source, _ = load(path)
        async with Screen(ReplayPresenter(source), columns, 32) as screen:
            await screen.press("pagedown", "pagedown", "f6", "f6")
            header = screen.text().split("\n")[1].split("│", 1)[1]
            assert header.strip().startswith(f"20/{source.last} · as seat 1"), header
            if columns < 170:
                assert header.rstrip().endswith("…")

    run(body())


@pytest.mark.parametrize("name", ["aton", "asterix"])
def test_the_states_shown_are_the_vector_states_entry_by_entry(name):
    import json

    source, _ = load(VECTORS / f"{name}.pblog")
    vector = json.loads((VECTORS / f"{name}.hashes.json").read_text())
    assert [source.game.state_hash(s).hex() for s in source.states] == vector["state_hashes"]


def test_a_typed_number_jumps_to_that_entry_and_a_wrong_entry_says_what_to_type():
    async def body():
        async with _viewer("aton") as screen:
            await screen.type("42")
            assert screen.presenter.source.index == 42 and "42/74" in screen.text()
            await screen.type("forty")
            assert "Type an entry number (0 to 74)" in screen.text()
            assert screen.presenter.source.index == 42

    run(body())


def test_space_plays_the_log_at_the_chosen_speed_and_pauses():
    async def body():
        async with _viewer("aton") as screen:
            source = screen.presenter.source
            await screen.press("+", "+", "+", "+")
            assert "Speed: 32 entries a second" in screen.text()
            await screen.press("space")
            await screen.until(lambda: source.index >= 5)
            await screen.press("space")
            stopped = source.index
            assert "Paused." in screen.text() and not screen.presenter.playing
            await screen.press("f20")  # (a key that does nothing): the log stays where it paused
            assert source.index == stopped

    run(body())


def test_as_a_seat_the_viewer_shows_only_what_that_seat_saw():
    async def body():
        async with _viewer("aton", view_as=1) as screen:
            await screen.type("3")  # after the first draws: each seat holds four cards
            state = screen.presenter.model.snapshot.state
            assert state.seats[0].hand is None and state.seats[1].hand is not None
            text = screen.text()
            assert "as seat 1" in text and "4 cards" in text
            await screen.press("f6")  # next: everything
            assert screen.presenter.model.snapshot.state.seats[0].hand is not None
            assert "everything" in screen.text()

    run(body())


def test_the_verdict_stays_in_the_status_line():
    async def body():
        async with _viewer("asterix") as screen:
            await screen.press("right")
            await screen.until(lambda: "valid: asterix, seats 0:seat-0" in screen.text().splitlines()[-2])

    run(body())


def test_a_damaged_log_shows_its_readable_part_and_the_verdict_names_the_bad_entry(tmp_path):
    data = (VECTORS / "aton.pblog").read_bytes()
    cut = tmp_path / "cut.pblog"
    cut.write_bytes(data[: len(data) - 40])

    async def body():
        async with _viewer("aton", path=cut) as screen:
            await screen.press("end")
            await screen.until(lambda: "invalid at seq" in screen.text())
            assert "truncated" in screen.text()
            assert screen.presenter.source.last > 50

    run(body())


# -- the command line ---------------------------------------------------------------------------------


def _peerboard(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "peerboard.client.cli", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env=env, stdin=subprocess.DEVNULL)


@pytest.mark.processes
def test_verify_checks_several_files_one_line_each_and_fails_if_any_is_invalid(tmp_path):
    bad = tmp_path / "bad.pblog"
    bad.write_bytes(b"\x00\x00\x00\x05junk!")
    out = _peerboard("replay", "--verify", str(VECTORS / "aton.pblog"), str(VECTORS / "asterix.pblog"), str(bad))
    lines = out.stdout.splitlines()
    assert out.returncode == 1
    assert lines[0].startswith(f"{VECTORS / 'aton.pblog'}: valid: aton")
    assert lines[2].startswith(f"{bad}: invalid at header")
    assert lines[-1] == "2 of 3 valid"


@pytest.mark.processes
def test_several_files_without_verify_are_refused_in_one_line():
    out = _peerboard("replay", str(VECTORS / "aton.pblog"), str(VECTORS / "asterix.pblog"))
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "--verify" in out.stderr


@pytest.mark.processes
def test_plain_prints_the_game_and_as_shows_one_seats_view():
    out = _peerboard("replay", str(VECTORS / "aton.pblog"), "--plain", "--as", "1")
    assert out.returncode == 0
    assert "    3  seat 0  move    keep" in out.stdout and out.stdout.rstrip().splitlines()[-1].startswith("valid:")


def test_the_replay_viewer_shows_what_was_said_at_its_place_in_the_game(tmp_path):
    """The chat file beside a log: a line said after entry 10 shows from entry 10 on, never
    before; a spectator's line by its fingerprint; a forged line and escapes never reach the
    screen; the log itself is untouched and still verifies."""
    from peerboard.node.chatfile import chat_path
    from peerboard.protocol.session import chat
    from peerboard.protocol.log.identity import Identity
    from peerboard.protocol.session.messages import Say
    from support.vectors import seats

    log = tmp_path / "aton.pblog"
    log.write_bytes((VECTORS / "aton.pblog").read_bytes())
    table = load(log)[0].contents.genesis.terms.table
    _, _, keys = seats("aton", 2)
    bob, eve = Identity.from_seed(keys[1]), Identity.from_seed(b"\x05" * 32)
    lines = [chat.signed(bob, table, 10, "nice cartouches"), chat.signed(eve, table, 20, "\x1b[2Jwatching")]
    forged = Say(table, 12, "I cheated", bob.public_key, lines[0].sig)
    chat_path(log).write_bytes(chat.header_frame() + b"".join(chat.line_frame(x) for x in [lines[0], forged, lines[1]]))

    async def body():
        async with _viewer("aton", path=log) as screen:
            await screen.type("9")
            assert "nice cartouches" not in screen.text()
            await screen.type("10")
            assert "seat 1 (seat-1) says: nice cartouches" in screen.text()
            await screen.type("30")
            text = screen.text()
            assert f"spectator {eve.fingerprint} says: \\x1b[2Jwatching" in text and "\x1b[2J" not in text
            assert "I cheated" not in text

    run(body())
    assert log.read_bytes() == (VECTORS / "aton.pblog").read_bytes()


def test_a_resigned_game_replays_to_its_ending_said_in_the_status_line():
    from peerboard.client.tui.replay import ReplaySource
    from peerboard.protocol.log.logfile import read_log

    path = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "athos-resigned.pblog"
    source = ReplaySource(read_log(path.read_bytes()), path.name)
    source.index = 41
    assert not source.snapshot().over
    source.index = 42  # the resign entry
    snap = source.snapshot()
    assert snap.over and snap.status.startswith("game over: seat 0 (seat-0) resigned at seq 42")
    # the line over the board says so too, where the board alone would say whose turn it is
    from peerboard.client.tui.game_model import GameModel

    assert GameModel(snap).situation() == snap.status
    source.index = 41
    assert GameModel(source.snapshot()).situation() == GameModel(source.snapshot()).board.situation(
        source.snapshot().state, GameModel(source.snapshot()).names)


def _analysis_of(path: Path) -> dict:
    """A well-formed analysis document of the log at `path` (one judged move)."""
    from peerboard.client.analysis.document import FORMAT, VERSION, head_of
    from peerboard.protocol.log import read_log

    contents = read_log(path.read_bytes())
    n = len(contents.genesis.terms.seats)
    return {"format": FORMAT, "version": VERSION, "log": {"head": head_of(contents).hex()},
            "seats": [{"name": "x", "fingerprint": "y"}] * n, "settings": {}, "decisions": 1,
            "moves": [{"seq": 1, "index": 0, "seat": 0, "kind": "move", "played": "a", "preferred": "b",
                       "before": [0.5] * n, "after": [0.25] * n, "drop": 0.25, "mark": "mistake"}]}


@pytest.mark.parametrize("hostile", ["deep", "drop as text", "a chance of 7", "NaN", "escape in a move", "huge"])
def test_a_hostile_analysis_beside_the_log_is_refused_in_one_line_and_the_game_still_shows(hostile, tmp_path):
    """The analysis file is nobody's signed word: whatever it holds, the viewer says in one
    line why it does not use it, and shows the game (issue 39: a 200,000-deep file was an
    internal error, exit 4)."""
    import json

    from peerboard.client.analysis import document

    log = tmp_path / "aton.pblog"
    log.write_bytes((VECTORS / "aton.pblog").read_bytes())
    good = _analysis_of(log)
    move = good["moves"][0]
    if hostile == "deep":
        text = "[" * 200_000 + "]" * 200_000
    elif hostile == "huge":
        text = " " * (document.MAX_FILE + 1)
    else:
        if hostile == "drop as text":
            move["drop"] = "a lot"
        elif hostile == "a chance of 7":
            move["after"] = [7, 0]
        elif hostile == "escape in a move":
            move["played"] = "\x1b[2J" + "x" * 300
        text = json.dumps(good)
        if hostile == "NaN":
            text = text.replace("0.25, 0.25", "NaN, 0.25")
    document.path_for(log).write_text(text)

    async def body():
        source, _ = load(log)
        assert source.analysis is None and source.analysis_refused
        assert "\n" not in source.analysis_note and len(source.analysis_note) < 200
        async with Screen(ReplayPresenter(source), 120, 32) as screen:
            alert = screen.presenter.model.alert
            assert alert.kind == "warn" and alert.text.startswith(f"The analysis beside the log is not used: "
                                                                  f"{log.stem}.analysis.json")
            assert "The analysis beside the log is not used" in screen.text()
            await screen.press("right", "right")
            assert source.index == 2 and f"2/{source.last}" in screen.text()

    run(body())


def test_a_good_analysis_beside_the_log_shows_its_graph_and_escapes_its_moves(tmp_path):
    import json

    from peerboard.client.analysis import document

    log = tmp_path / "aton.pblog"
    log.write_bytes((VECTORS / "aton.pblog").read_bytes())
    good = _analysis_of(log)
    good["moves"][0]["played"] = "a\x1bb"
    document.path_for(log).write_text(json.dumps(good))
    source, _ = load(log)
    assert source.analysis is not None and not source.analysis_refused
    assert "a\\x1bb" in source.analysis.line(1, ["p", "q"]) and "\x1b" not in source.analysis.line(1, ["p", "q"])
