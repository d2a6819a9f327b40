"""Test only (tests/test_lan_forming.py): `peerboard` whose process dies right at the end of
the game — after it sent the game's last entry (its own result), before its fsync and its
acknowledgement of it — as a machine losing power there would.

    python tests/dying_node.py PEERBOARD-ARGS...

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

    def store_noting(self, entry, sync_now):
        self._last_stored = entry
        store(self, entry, sync_now)

    def sync_or_die(self):
        entry = getattr(self, "_last_stored", None)
        seats = len(self.session.seats)
        if entry is not None and entry.kind == "result" and entry.seat == seats - 1:
            time.sleep(0.5)  # (the entry itself leaves: ZeroMQ sends from its own thread)
            print("dying right after the last entry left", flush=True)
            os._exit(9)
        sync(self)

    Node.store, Node.sync = store_noting, sync_or_die


if __name__ == "__main__":
    plant()
    sys.exit(main(sys.argv[1:]))
