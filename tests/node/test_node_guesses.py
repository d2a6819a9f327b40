"""Wrong codes at a private table cost the guesser time: the host checks a code at most once
a second, less often as wrong ones pile up, per source address and in all; a hello that
comes while it waits is not checked, right or wrong; the host is shown each wrong code with
the count; and a joiner with the right code still gets its seat, asking again while the
host waits (issue 22, point 7; spec/protocol.md, "Private tables")."""
from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support.lanhelp import LOOPBACK, Procs, assert_same_logs, join_args, the_log
from peerboard.protocol.session.guesses import Guesses, source_wait, total_wait

GUESSER = Path(__file__).resolve().parents[1] / "programs" / "code_guesser.py"
WRONG = re.compile(r"a wrong code for this private table from (\S+) \((\d+) wrong codes so far")


def test_a_wrong_code_makes_its_source_wait_twice_as_long_each_time_and_everyone_a_second_or_more():
    g = Guesses()
    assert g.wait("10.0.0.9", 0.0) == 0
    g.missed("10.0.0.9", 0.0)
    assert g.wait("10.0.0.9", 0.0) == 1.0 and g.wait("10.0.0.7", 0.5) == 0.5  # everyone waits a second
    g.missed("10.0.0.9", 1.0)
    assert g.wait("10.0.0.9", 1.0) == 2.0 and g.wait("10.0.0.7", 1.0) == 1.0
    # many sources, one wrong code each: everyone waits more and more
    for i in range(300):
        g.missed(f"10.1.{i // 250}.{i % 250}", 10.0 + i)
    assert g.wait("10.0.0.7", 310.0) == total_wait(302) - 1.0 == 29.0
    assert [source_wait(k) for k in (1, 2, 3, 9, 50)] == [1, 2, 4, 256, 300]


@pytest.mark.processes
def test_online_guessing_of_a_private_code_costs_a_second_a_guess_and_the_right_code_still_gets_in(tmp_path):
    """Slow (over 10 s by design): the guesser runs for a fixed time, so the guesses the host checks
    can be counted against the seconds they took."""
    procs = Procs(tmp_path)
    flags = ["--bind", LOOPBACK, "--headless", "--think", "0.002"]
    seconds = 10.0
    try:
        host = procs.start("host", "host", "aton", "--no-beacon", "--code", "tea-time-42", *flags)
        address, _, key, _, table, _, game = join_args(host)[:7]
        started = time.monotonic()
        guesser = subprocess.run([sys.executable, str(GUESSER), address, key, table, game, str(seconds), "127.0.0.5"],
                                 capture_output=True, text=True, timeout=120)
        took = time.monotonic() - started
        assert guesser.returncode == 0, guesser.stderr[-2000:]
        time.sleep(1)
        checked = WRONG.findall(host.text())
        print(f"{guesser.stdout.strip()}; the host checked {len(checked)} of them in {took:.1f} s "
              f"({len(checked) / took:.2f} guesses/s)")
        sent = int(guesser.stdout.split()[1])
        assert sent > 10 * len(checked)  # most were never checked
        # each check waits a second or more after the last wrong one (here: 1, 2, 4, 8 s from one source)
        assert 1 <= len(checked) <= 1 + took
        assert [int(n) for _, n in checked] == list(range(1, len(checked) + 1))  # counted, and shown each time
        assert {source for source, _ in checked} == {"127.0.0.5"}
        assert host.popen.poll() is None

        joiner = procs.start("joiner", "join", address, "--key", key, "--table", table, "--game", game,
                             "--code", "TEA-TIME-42", *flags)
        for p in (host, joiner):
            assert p.wait(90) == 0, p.text()[-2000:]
        assert_same_logs([the_log(host.home), the_log(joiner.home)])
    finally:
        procs.close()
