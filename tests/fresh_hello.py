"""One hello from a key nobody has seen, the way a stranger floods a host: a fresh identity
connects over CURVE to `target`, sends the hello `hello_for(identity)` makes, and goes.
Shared by tests/hello_flood.py and tests/code_guesser.py (each a separate process)."""
from __future__ import annotations

import os
from typing import Callable

import zmq

from peerboard.node.keys import curve_keypair, curve_public
from peerboard.protocol.identity import Identity
from peerboard.protocol.messages import Hello


def send_from_a_fresh_key(context: zmq.Context, target: str, host: bytes,
                          hello_for: Callable[[Identity], Hello]) -> None:
    identity = Identity.from_seed(os.urandom(32))
    public, secret = curve_keypair(identity)
    dealer = context.socket(zmq.DEALER)
    dealer.linger = 200
    dealer.curve_publickey, dealer.curve_secretkey, dealer.curve_serverkey = public, secret, curve_public(host)
    dealer.connect(target)
    dealer.send(hello_for(identity).to_bytes())
    dealer.close()
