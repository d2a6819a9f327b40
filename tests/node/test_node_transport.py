"""The transport on a real socket: what a peer sends arrives with the key its CURVE
handshake proved, and a message of several frames (no node of ours sends one) is dropped
whole without losing the message after it."""
from __future__ import annotations

import time

import zmq

from peerboard.node.keys import curve_keypair
from peerboard.node.transport import Admission, Transport
from peerboard.protocol.log.identity import Identity


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


def test_the_curve_keys_are_derived_from_the_ed25519_key_as_the_transport_spec_says():
    """spec/transport.md "Keys": the formula and its worked example, byte for byte."""
    import hashlib

    from zmq.utils import z85

    from peerboard.node.keys import curve_keypair

    identity = Identity.from_seed(bytes(range(32)))
    assert identity.public_key.hex() == "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"
    public, secret = curve_keypair(identity)
    assert public == b"m/*$&H^-y+t0OZ/ISr/LFYZlVkyTnmN9xTcTAhI+"
    assert z85.decode(public).hex() == "4701d08488451f545a409fb58ae3e58581ca40ac3f7f114698cd71deac73ca01"
    assert z85.decode(secret).hex() == "3894eea49c580aef816935762be049559d6d1440dede12e6a125f1841fff8e6f"
    # the formula itself, as an implementation in another language would write it
    p = 2**255 - 19
    y = int.from_bytes(identity.public_key, "little") & ((1 << 255) - 1)
    assert ((1 + y) * pow(1 - y, p - 2, p) % p).to_bytes(32, "little") == z85.decode(public)
    h = bytearray(hashlib.sha512(identity.secret).digest()[:32])
    h[0] &= 248
    h[31] &= 127
    h[31] |= 64
    assert bytes(h) == z85.decode(secret)


def test_the_zap_reply_is_frame_for_frame_what_the_transport_spec_says():
    """spec/transport.md "Who is the sender": 200 with the client's CURVE key as its 40 Z85
    characters for the user id, 400 with empty user id and metadata for anything else."""
    from peerboard.node.transport import ZAP_ENDPOINT

    me, seat, stranger = (Identity.from_seed(bytes([i]) * 32) for i in (0, 1, 2))
    transport = Transport(me, "tcp://127.0.0.1:0", Admission())
    transport.admit_seats([me.public_key, seat.public_key])
    seat_curve, stranger_curve = curve_keypair(seat)[0], curve_keypair(stranger)[0]
    from zmq.utils import z85

    asker = transport.context.socket(zmq.REQ)
    asker.linger = 0
    asker.connect(ZAP_ENDPOINT)

    def ask(version, mechanism, credentials):
        frames = [version, b"7", b"peerboard", b"127.0.0.1", b"", mechanism] + credentials
        asker.send_multipart(frames)
        deadline = time.monotonic() + 5
        while not asker.poll(10) and time.monotonic() < deadline:
            transport.answer_zap()
        return asker.recv_multipart()

    try:
        assert ask(b"1.0", b"CURVE", [z85.decode(seat_curve)]) == [b"1.0", b"7", b"200", b"OK", seat_curve, b""]
        assert len(seat_curve) == 40
        refused = [b"1.0", b"7", b"400", b"key not admitted", b"", b""]
        assert ask(b"1.0", b"CURVE", [z85.decode(stranger_curve)]) == refused
        assert ask(b"2.0", b"CURVE", [z85.decode(seat_curve)]) == refused
        assert ask(b"1.0", b"PLAIN", [b"user", b"password"]) == refused
    finally:
        asker.close(0)
        transport.close()
