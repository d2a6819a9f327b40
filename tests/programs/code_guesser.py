"""Online guessing of a private table's code, as a separate process: hellos from fresh keys,
each with a knock for a wrong code, as fast as it can, from one source address.

    python tests/programs/code_guesser.py ENDPOINT HOST_KEY_HEX TABLE_HEX GAME SECONDS SOURCE_IP[,SOURCE_IP...]

With several source addresses it takes them in turn, one hello each.

A guess costs the guesser one scrypt of the code; this one stretches three wrong codes once
and knocks with them from fresh keys (a knock is one SHA-256), so the host, not the
guesser, sets the pace. It prints how many hellos it sent, then exits."""
from __future__ import annotations

import os
import sys
import time

from fresh_hello import flood_context, send_from_a_fresh_key
from peerboard.protocol.session.messages import Hello
from peerboard.protocol.session.tablecode import knock, stretched


def main() -> None:
    endpoint, host, table, game, seconds, source = (sys.argv[1], bytes.fromhex(sys.argv[2]), bytes.fromhex(sys.argv[3]),
                                                    sys.argv[4], float(sys.argv[5]), sys.argv[6])
    wrong = [stretched(f"wrong-{i}", host, table) for i in range(3)]
    context = flood_context()
    # ZeroMQ's "tcp://SOURCE:0;HOST:PORT": the connection comes from SOURCE (any 127.x.y.z on loopback)
    sources = source.split(",")
    sent, start = 0, time.monotonic()
    while time.monotonic() - start < seconds:
        source = sources[sent % len(sources)]
        target = f"tcp://{source}:0;{endpoint[len('tcp://'):]}"
        send_from_a_fresh_key(context, target, host, lambda identity: Hello(
            table, game, f"guess {sent}", identity.public_key, "seat", os.urandom(32), os.urandom(32),
            f"tcp://{source}:{20000 + sent % 30000}", knock(wrong[sent % 3], identity.public_key)))
        sent += 1
    context.term()
    print(f"sent {sent} wrong-code hellos from fresh keys in {time.monotonic() - start:.1f} s", flush=True)


if __name__ == "__main__":
    main()
