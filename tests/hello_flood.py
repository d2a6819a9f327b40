"""A flood of hellos from fresh keys at a forming host, as a separate process: each key
connects (CURVE), says hello for a seat, and goes, as fast as it can.

    python tests/hello_flood.py ENDPOINT HOST_KEY_HEX TABLE_HEX GAME COUNT

It prints how many hellos it sent, then exits."""
from __future__ import annotations

import os
import sys
import time

import zmq

from peerboard.node.keys import curve_keypair, curve_public
from peerboard.protocol.identity import Identity
from peerboard.protocol.messages import Hello


def main() -> None:
    endpoint, host, table, game, count = (sys.argv[1], bytes.fromhex(sys.argv[2]), bytes.fromhex(sys.argv[3]),
                                          sys.argv[4], int(sys.argv[5]))
    context = zmq.Context()
    context.max_sockets = 32768  # (closed sockets linger a moment: a fast flood has many at once)
    sent, start = 0, time.monotonic()
    for i in range(count):
        identity = Identity.from_seed(os.urandom(32))
        public, secret = curve_keypair(identity)
        dealer = context.socket(zmq.DEALER)
        dealer.linger = 200
        dealer.curve_publickey, dealer.curve_secretkey, dealer.curve_serverkey = public, secret, curve_public(host)
        dealer.connect(endpoint)
        # it says it listens at an address of its own, as a joiner does (nobody listens there)
        hello = Hello(table, game, f"fresh {i}", identity.public_key, "seat", os.urandom(32), os.urandom(32),
                      f"tcp://127.0.0.{2 + i % 200}:{20000 + i % 30000}")
        dealer.send(hello.to_bytes())
        dealer.close()
        sent += 1
    context.term()
    print(f"sent {sent} hellos from fresh keys in {time.monotonic() - start:.1f} s", flush=True)


if __name__ == "__main__":
    main()
