"""`peerboard resume FILE --repair` (issue 22, point 1): a damaged log's game is got back from
the other players. The damaged file is kept as it was, byte for byte; the log in its place
holds the records before the first bad one, and the rest comes from the peers, each entry
checked as it arrives — and the game finishes with the same log at every seat."""
from __future__ import annotations

import pytest

from lanhelp import LOOPBACK, Procs, assert_same_logs, join_args, logs, verify, wait_until
from stored_games import build, log_bytes, spans, store
from peerboard.node.gamefiles import GameDamaged, GameFiles
from peerboard.protocol.replay import verify_log


def _flip(data: bytes, pos: int) -> bytes:
    return data[:pos] + bytes([data[pos] ^ 0x02]) + data[pos + 1:]


def test_repair_keeps_the_damaged_log_as_it_was_and_goes_on_from_the_records_before_the_damage(tmp_path):
    log = build("aton", seed=8, entries=50)
    data = log_bytes(log)
    start, end = spans(data)[21]  # entry 20
    damaged = _flip(data, end - 5)
    path = store(tmp_path, log, damaged)
    files, contents = GameFiles.reopen(path, repair=True)
    files.close()
    assert files.repaired.damaged == tmp_path / "game.pblog.damaged" and files.repaired.bad_seq == 20
    assert files.repaired.damaged.read_bytes() == damaged
    assert path.read_bytes() == data[:start] and len(contents.entries) == 19
    assert verify_log(path.read_bytes()).ok


def test_a_damaged_genesis_cannot_be_repaired_here_and_nothing_is_touched(tmp_path):
    log = build("aton", seed=8, entries=10)
    data = log_bytes(log)
    _, end = spans(data)[1]  # the genesis
    damaged = _flip(data, end - 5)
    path = store(tmp_path, log, damaged)
    with pytest.raises(GameDamaged, match="only a copy of the log from another player"):
        GameFiles.reopen(path, repair=True)
    assert path.read_bytes() == damaged and not list(tmp_path.glob("*.damaged*"))


def test_a_seat_whose_log_was_damaged_gets_the_game_back_from_its_peer_and_it_finishes(tmp_path):
    procs = Procs(tmp_path)
    flags = ["--headless", "--think", "0.03"]
    try:
        host = procs.start("seat0", "host", "aton", "--players", "2", "--no-beacon", "--bind", LOOPBACK, *flags)
        seat1 = procs.start("seat1", "join", *join_args(host), "--bind", LOOPBACK, *flags)
        path = wait_until(lambda: logs(seat1.home) and logs(seat1.home)[0], 30, "seat 1's log")
        wait_until(lambda: path.stat().st_size > 4_000, 60, "the game to get going")
        seat1.kill9()
        data = path.read_bytes()
        _, end = spans(data)[len(spans(data)) // 2]
        damaged = _flip(data, end - 7)  # a signature in the middle of the log
        path.write_bytes(damaged)

        refused = procs.start("seat1", "resume", str(path), *flags)
        assert refused.wait(30) == 2 and "--repair" in refused.text() and "[signature]" in refused.text()
        assert path.read_bytes() == damaged

        repaired = procs.start("seat1", "resume", str(path), "--repair", *flags)
        repaired.wait_for("repairing: the damaged log is kept as", 30)
        assert repaired.wait(120) == 0, repaired.text()[-2000:]
        assert host.wait(60) == 0, host.text()[-2000:]
        assert (path.parent / (path.name + ".damaged")).read_bytes() == damaged
        assert_same_logs([path, logs(host.home)[0]])
        assert "valid:" in verify(path)
    finally:
        procs.close()
