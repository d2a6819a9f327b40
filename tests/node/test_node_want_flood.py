"""An admitted spectator that floods `want` gets its catch-up paced, its messages beyond its
budget dropped unread, and is named to the host; the game goes on to its end (issue 22,
point 5; spec/protocol.md and spec/transport.md, "Budgets"). The pace it leaves the game is
measured beside the same game without it by bench/bench_want_flood.py (speed is never
asserted here)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from support.lanhelp import LOOPBACK, Procs, assert_same_logs, entries_in, join_args, logs, the_log, wait_until
from peerboard.node.keys import load_identity
from peerboard.node.transport import MESSAGES_PER_SECOND
from peerboard.protocol.session.budget import WANTS_PER_SECOND
from peerboard.protocol.session.play import BATCH

pytestmark = pytest.mark.processes

FLOOD = Path(__file__).resolve().parents[1] / "programs" / "want_flood.py"


def test_a_want_flood_from_an_admitted_spectator_is_paced_named_to_the_host_and_the_game_ends(tmp_path):
    flooder = load_identity(tmp_path / "flooder")
    procs = Procs(tmp_path)
    flags = ["--bind", LOOPBACK, "--headless", "--think", "0.01"]
    seconds = 6.0
    try:
        host = procs.start("host", "host", "athos", "--players", "2", "--no-beacon", *flags,
                           "--spectator", flooder.public_key.hex())
        args = join_args(host)
        joiner = procs.start("joiner", "join", *args, *flags)
        path = wait_until(lambda: logs(host.home) and logs(host.home)[0], 30, "the host's log")
        wait_until(lambda: entries_in(path) >= 2 * BATCH, 60, "a log longer than one answer to want")
        flood = subprocess.run([sys.executable, str(FLOOD), str(tmp_path / "flooder"), args[0], args[2], args[4],
                                args[6], str(seconds)], capture_output=True, text=True, timeout=120)
        assert flood.returncode == 0, flood.stderr[-2000:]
        print(flood.stdout.strip())
        words = flood.stdout.split()
        wants, entries = int(words[1]), int(words[words.index("entries") - 1])
        # before: every want answered with 64 entries (192,007 entries, 35 MB in 7 s); now at
        # most WANTS_PER_SECOND answers a second, beside the new entries the host passes on
        # to its spectators as the game goes (a few dozen a second)
        assert wants > 20 * WANTS_PER_SECOND * seconds
        assert entries <= (WANTS_PER_SECOND * BATCH + 200) * (seconds + 2)
        # the host names who floods: its wants beyond the pace, its messages beyond the budget
        host.wait_for(rf"{flooder.fingerprint}: flooding: \d+ requests for entries", 20)
        host.wait_for(rf"{flooder.fingerprint} is flooding this node: \d+ messages beyond its budget of "
                      rf"{MESSAGES_PER_SECOND} messages", 20)
        for p in (host, joiner):
            assert p.wait(120) == 0, p.text()[-2000:]
        assert_same_logs([the_log(host.home), the_log(joiner.home)])
    finally:
        procs.close()
