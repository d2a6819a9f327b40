"""A game log on a real disk: appends written now and fsynced later are all there, in
order, once `sync` returns, and a refused last entry is taken back byte-exactly."""
from __future__ import annotations

import pytest

from peerboard.node.storage import LogFile
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.log.logfile import read_log
from peerboard.protocol.log.records import Genesis, SeatRecord, make_entry, sign_genesis


def _game(n):
    me = Identity.from_seed(bytes(32))
    genesis = sign_genesis(Genesis("aton", "1", {}, (SeatRecord("a", me.public_key),), bytes(16)), [me])
    entries, prev = [], genesis.hash
    for seq in range(1, n + 1):
        entry = make_entry(me, seq, prev, 0, "move", {"actions": [("pass",)], "nonce": None})
        entries.append(entry)
        prev = entry.hash
    return genesis, entries


def test_appends_synced_later_are_all_there_after_sync_and_in_order(tmp_path):
    genesis, entries = _game(40)
    path = tmp_path / "g.pblog"
    with LogFile.create(path, genesis) as log:
        for i, entry in enumerate(entries):
            log.append(entry, sync=i % 3 == 0)  # fsynced at once, or at the next sync
            if i % 7 == 0:
                log.sync()
        log.sync()
        assert [e.hash for e in read_log(path.read_bytes()).entries] == [e.hash for e in entries]


def test_a_refused_last_entry_is_taken_back_and_the_log_goes_on(tmp_path):
    genesis, entries = _game(3)
    path = tmp_path / "g.pblog"
    with LogFile.create(path, genesis) as log:
        log.append(entries[0])
        log.append(entries[1], sync=False)
        log.remove_last(entries[1])
        assert [e.hash for e in read_log(path.read_bytes()).entries] == [entries[0].hash]
        with pytest.raises(ValueError):
            log.remove_last(entries[2])  # not the last record: nothing is touched
        log.append(entries[1], sync=False)
        log.sync()
    contents = read_log(path.read_bytes())
    assert contents.error is None and [e.hash for e in contents.entries] == [entries[0].hash, entries[1].hash]
