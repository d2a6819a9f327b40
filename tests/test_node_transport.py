"""The transport on a real socket: what a peer sends arrives with the key its CURVE
handshake proved, and a message of several frames (no node of ours sends one) is dropped
whole without losing the message after it."""
from __future__ import annotations

import time

import zmq

from node.keys import curve_keypair
from node.transport import Admission, Transport
from protocol.identity import Identity


def test_a_message_of_several_frames_is_dropped_whole_and_the_next_one_arrives():
    me, peer = Identity.from_seed(bytes(32)), Identity.from_seed(bytes([1]) * 32)
    transport = Transport(me, "tcp://127.0.0.1:0", Admission())
    ctx = zmq.Context()
    dealer = ctx.socket(zmq.DEALER)
    dealer.linger = 0
    dealer.curve_publickey, dealer.curve_secretkey = curve_keypair(peer)
    dealer.curve_serverkey = transport.public
    try:
        transport.know(peer.public_key)
        dealer.connect(transport.endpoint)
        dealer.send_multipart([b"one", b"two", b"three"])
        dealer.send(b"hello")
        got = []
        deadline = time.monotonic() + 10
        while len(got) < 1 and time.monotonic() < deadline:
            transport.answer_zap()
            got += transport.receive()
            time.sleep(0.01)
        time.sleep(0.1)
        got += transport.receive()
        assert [(key, data) for key, _, data in got] == [(peer.public_key, b"hello")]
    finally:
        dealer.close(0)
        ctx.term()
        transport.close()
