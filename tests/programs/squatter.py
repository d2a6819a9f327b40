"""Test only (tests/lan/test_lan_forming.py): a squatter on the LAN. It says `hello` to a forming
table from COUNT throwaway keys — each over its own CurveZMQ connection, as a real node must
— waits for each answer, then vanishes without a word.

    python tests/programs/squatter.py ENDPOINT HOST-KEY-HEX TABLE-HEX GAME COUNT [NAME]

Prints one line per key ("welcomed to seat N" or "refused: REASON") and exits. Nothing in
peerboard knows of this file.
"""
from __future__ import annotations

import os
import sys
import time

import zmq

from peerboard.node.transport import Admission, Transport
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.session.messages import Hello, MessageError, Refuse, Welcome, decode_message


def answer(transport: Transport, host: bytes, seconds: float) -> str:
    """The host's answer to this key's hello, as a line."""
    poller = zmq.Poller()
    poller.register(transport.router, zmq.POLLIN)
    poller.register(transport.zap, zmq.POLLIN)
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        for sock, _ in poller.poll(left * 1000):
            if sock is transport.zap:
                transport.answer_zap()
                continue
            for _, _, data in transport.receive():
                try:
                    message = decode_message(data)
                except MessageError:
                    continue
                if isinstance(message, Welcome):
                    return f"welcomed to seat {message.seat}"
                if isinstance(message, Refuse):
                    return f"refused: {message.reason}"
    return "no answer"


def main(endpoint: str, host_hex: str, table_hex: str, game: str, count: int, name: str = "squatter") -> None:
    host, table = bytes.fromhex(host_hex), bytes.fromhex(table_hex)
    held = []
    for _ in range(count):
        identity = Identity.from_seed(os.urandom(32))
        transport = Transport(identity, "tcp://127.0.0.1:0", Admission())
        transport.connect(host, endpoint)
        hello = Hello(table, game, name, identity.public_key, "seat", os.urandom(32), os.urandom(32),
                      transport.endpoint)
        transport.send(host, hello.to_bytes())
        print(answer(transport, host, 5.0), flush=True)
        held.append(transport)
    for transport in held:  # vanish: no leave, nothing more
        transport.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), *sys.argv[6:7])
