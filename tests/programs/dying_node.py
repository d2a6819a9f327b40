"""Test only (tests/lan/test_lan_forming.py): `peerboard` whose process dies right at the end of
the game, before its fsync and its acknowledgement of the game's last entry — after it sent
it, if it is its own (the `results` it gathered, or its own `result` in a log of the form
before); as it came, if another seat gathered the `results` — as a machine losing power
there would.

    python tests/programs/dying_node.py PEERBOARD-ARGS...

Nothing in peerboard itself knows of this file.
"""
from __future__ import annotations

import os
import sys
import time

from peerboard.client.cli import main
from peerboard.node.loop import Node


def plant() -> None:
    store, sync = Node.store, Node.sync

    def die() -> None:
        print("dying right after the last entry left", flush=True)
        os._exit(9)

    def store_noting(self, entry, sync_now):
        if entry.kind == "results" and sync_now:  # (another seat's: stored and fsynced at once)
            die()
        self._last_stored = entry
        store(self, entry, sync_now)

    def sync_or_die(self):
        entry = getattr(self, "_last_stored", None)
        seats = len(self.session.seats)
        if entry is not None and (entry.kind == "results" or (entry.kind == "result" and entry.seat == seats - 1)):
            time.sleep(0.5)  # (the entry itself leaves: ZeroMQ sends from its own thread)
            die()
        sync(self)

    Node.store, Node.sync = store_noting, sync_or_die


if __name__ == "__main__":
    plant()
    sys.exit(main(sys.argv[1:]))
