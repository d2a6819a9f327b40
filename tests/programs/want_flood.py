"""An admitted spectator that floods a game with `want`, as a separate process: it listens
(a CURVE ROUTER, reading and discarding everything it is sent, so the answers really flow),
says hello to a seat as a spectator, then sends `want(1)` as fast as it can for SECONDS.

    python tests/programs/want_flood.py HOME ENDPOINT SEAT_KEY_HEX TABLE_HEX GAME SECONDS

Its key is the identity in HOME (the seat must admit it: --spectator KEY). It prints how many
wants it sent, how many entries and bytes came back, then exits."""
from __future__ import annotations

import sys
import time
from pathlib import Path

import zmq

from peerboard.node.keys import curve_keypair, curve_public, load_identity
from peerboard.protocol.session.messages import Hello, Want

ENTRY = b"\xa1t\xa5entry"  # an entry message's "t": "entry", as canonical msgpack writes it


def main() -> None:
    home, endpoint, seat, table, game, seconds = (Path(sys.argv[1]), sys.argv[2], bytes.fromhex(sys.argv[3]),
                                                  bytes.fromhex(sys.argv[4]), sys.argv[5], float(sys.argv[6]))
    identity = load_identity(home)
    public, secret = curve_keypair(identity)
    context = zmq.Context()
    inbox = context.socket(zmq.ROUTER)
    inbox.curve_server, inbox.curve_publickey, inbox.curve_secretkey = True, public, secret
    port = inbox.bind_to_random_port("tcp://127.0.0.1")
    dealer = context.socket(zmq.DEALER)
    dealer.linger = 0
    dealer.sndhwm = 100_000
    dealer.curve_publickey, dealer.curve_secretkey, dealer.curve_serverkey = public, secret, curve_public(seat)
    dealer.connect(endpoint)
    hello = Hello(table, game, "flood", identity.public_key, "spectator", bytes(32), bytes(32),
                  f"tcp://127.0.0.1:{port}", None)
    dealer.send(hello.to_bytes())
    want = Want(1).to_bytes()
    sent = entries = received = 0
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        for _ in range(100):
            try:
                dealer.send(want, zmq.NOBLOCK)
                sent += 1
            except zmq.Again:
                break
        while inbox.poll(0):
            _, data = inbox.recv_multipart()
            received += len(data)
            entries += ENTRY in data  # (not decoded: the flooder's time goes to flooding)
        if not dealer.poll(1, zmq.POLLOUT):
            time.sleep(0.0005)
    took = time.monotonic() - start
    context.destroy(linger=0)
    print(f"sent {sent} wants in {took:.1f} s; {entries} entries ({received / 1e6:.1f} MB) came back", flush=True)


if __name__ == "__main__":
    main()
