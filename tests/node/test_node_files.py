"""The files a node keeps: secrets with mode 0600, and a crash in the middle of rewriting the
seat file (a stale temporary left behind) does not stop the next write."""
from __future__ import annotations

from peerboard.node.keys import write_private


def test_a_temporary_left_by_a_crash_does_not_block_rewriting_a_secret_file(tmp_path):
    path = tmp_path / "game.seat"
    write_private(path, b"first")
    (tmp_path / "game.seat.tmp").write_bytes(b"half-writ")  # killed between write and rename
    write_private(path, b"second", replace=True)
    assert path.read_bytes() == b"second" and not (tmp_path / "game.seat.tmp").exists()
    assert path.stat().st_mode & 0o777 == 0o600
