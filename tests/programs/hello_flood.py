"""A flood of hellos from fresh keys at a forming host, as a separate process: each key
connects (CURVE), says hello for a seat, and goes, as fast as it can.

    python tests/programs/hello_flood.py ENDPOINT HOST_KEY_HEX TABLE_HEX GAME COUNT

It prints how many hellos it sent, then exits."""
from __future__ import annotations

import os
import sys
import time

from fresh_hello import flood_context, send_from_a_fresh_key
from peerboard.protocol.session.messages import Hello


def main() -> None:
    endpoint, host, table, game, count = (sys.argv[1], bytes.fromhex(sys.argv[2]), bytes.fromhex(sys.argv[3]),
                                          sys.argv[4], int(sys.argv[5]))
    context = flood_context()
    sent, start = 0, time.monotonic()
    for i in range(count):
        # it says it listens at an address of its own, as a joiner does (nobody listens there)
        send_from_a_fresh_key(context, endpoint, host, lambda identity: Hello(
            table, game, f"fresh {i}", identity.public_key, "seat", os.urandom(32), os.urandom(32),
            f"tcp://127.0.0.{2 + i % 200}:{20000 + i % 30000}"))
        sent += 1
    context.term()
    print(f"sent {sent} hellos from fresh keys in {time.monotonic() - start:.1f} s", flush=True)


if __name__ == "__main__":
    main()
