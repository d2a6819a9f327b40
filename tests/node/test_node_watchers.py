"""A spectator is served only if a node admits its key (--spectator KEY, --spectators-any).
While a table forms any key may connect (a joiner's key is not known before its hello), so
the host itself refuses a spectator's hello from a key nobody admitted, before it sends that
node anything: no genesis, no entry (issue 22, point 9; spec/transport.md, "Spectators")."""
from __future__ import annotations

import pytest

from support.lanhelp import LOOPBACK, Procs, assert_same_logs, join_args, logs, the_log
from peerboard.node.keys import load_identity

pytestmark = pytest.mark.processes


def test_a_spectator_nobody_admitted_is_refused_before_the_start_and_is_sent_no_genesis(tmp_path):
    watcher = load_identity(tmp_path / "watcher")
    procs = Procs(tmp_path)
    flags = ["--bind", LOOPBACK, "--headless", "--think", "0.01"]
    try:
        host = procs.start("host", "host", "aton", "--no-beacon", *flags, "--spectator", watcher.public_key.hex())
        args = join_args(host)
        # both say hello while the table waits for its second seat
        stranger = procs.start("stranger", "join", *args, "--watch", *flags)
        spectator = procs.start("watcher", "join", *args, "--watch", *flags)
        assert stranger.wait(30) == 2, stranger.text()[-2000:]
        assert "does not admit this node's key to watch" in stranger.text()
        spectator.wait_for(r"Watching as a spectator", 20)
        seat1 = procs.start("seat1", "join", *args, *flags, "--spectator", watcher.public_key.hex())
        for p in (host, seat1, spectator):
            assert p.wait(90) == 0, p.text()[-2000:]
        assert_same_logs([the_log(host.home), the_log(seat1.home), the_log(spectator.home)])
        # the stranger never had a genesis to store
        assert logs(stranger.home) == []
        assert "has started" not in stranger.text()
    finally:
        procs.close()
