"""Our own faults in a real game of processes: a node whose engine raises (a bug planted by
tests/programs/faulty_node.py) says so in one line, keeps the traceback beside the game's log, and
stops — blaming nobody; the honest node waits for it; resumed without the bug, the node
goes on from its log and the game finishes with the same log at both seats."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.lanhelp import LOOPBACK, Procs, assert_same_logs, join_args, the_log, verify

pytestmark = pytest.mark.processes

FAULTY = ["tests/programs/faulty_node.py", "aton", "120"]  # its engine raises after 120 actions: mid-game


def test_a_node_whose_engine_raises_pauses_the_game_keeps_the_details_and_resumes_from_its_log(tmp_path):
    procs = Procs(tmp_path)
    flags = ["--headless", "--think", "0.002"]
    try:
        host = procs.start("seat0", "host", "aton", "--no-beacon", "--bind", LOOPBACK, *flags)
        faulty = procs.start("seat1", "join", *join_args(host), "--bind", LOOPBACK, *flags, entry=FAULTY)
        line = faulty.wait_for(r"The game is paused here: internal error .* — our own fault, not a peer's; details in "
                               r"(\S+)\. Resume it later with: peerboard resume (\S+)", 60)
        assert faulty.wait(20) == 1, faulty.text()
        log = the_log(faulty.home)
        errors = Path(line.group(1))
        assert errors == log.with_suffix(".errors.txt") and Path(line.group(2)) == log
        details = errors.read_text()
        assert "Traceback" in details and "RuntimeError: a fault planted by tests/programs/faulty_node.py" in details
        assert "Traceback" not in faulty.text() and "rejected a message" not in faulty.text().lower()
        assert host.popen.poll() is None  # the honest seat waits for it

        resumed = procs.start("seat1", "resume", str(log), *flags)
        for p in (host, resumed):
            assert p.wait(90) == 0, p.text()[-2000:]
        assert_same_logs([the_log(host.home), log])
        assert "valid:" in verify(log)
        assert "rejected a message" not in host.text().lower()
    finally:
        procs.close()


def test_a_fault_of_our_own_outside_a_game_is_one_line_naming_the_file_with_the_details(tmp_path):
    """`replay --verify` with an engine that raises: no verdict is made up (the log is not
    "invalid": our engine is broken), one line names the file with the traceback, exit 4."""
    procs = Procs(tmp_path)
    try:
        selfplay = procs.start("maker", "selfplay", "aton", "--seed", "3", "--save", str(tmp_path / "saved"))
        assert selfplay.wait(60) == 0, selfplay.text()
        log = next((tmp_path / "saved").glob("*.pblog"))
        replay = procs.start("checker", "replay", str(log), "--verify", entry=FAULTY)
        assert replay.wait(60) == 4, replay.text()
        text = replay.text()
        assert text.count("\n") == 1 and "Traceback" not in text, text
        path = Path(text.split("details in ")[1].strip())
        assert path.parent == tmp_path / "checker" and "RuntimeError: a fault planted" in path.read_text()
    finally:
        procs.close()
