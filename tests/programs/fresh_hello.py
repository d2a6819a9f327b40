"""One hello from a key nobody has seen, the way a stranger floods a host: a fresh identity
connects over CURVE to `target`, sends the hello `hello_for(identity)` makes, and goes.
Shared by tests/programs/hello_flood.py and tests/programs/code_guesser.py (each a separate process)."""
from __future__ import annotations

import errno
import os
import resource
import time
from typing import Callable

import zmq

from peerboard.node.keys import curve_keypair, curve_public
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.session.messages import Hello


#: how long a sender waits for closed sockets to be reaped when its context is full (a loaded
#: machine's reaper can take seconds: a sender that gave up would fail a test for nothing)
FULL_WAIT = 60.0


def flood_context() -> zmq.Context:
    """A context for a fast stream of short-lived sockets. Closed sockets linger a moment, so
    many are open at once; each holds a few file descriptors (its mailbox, its connection), and
    libzmq aborts the whole process ("Too many open files", in its I/O thread) when the process
    runs out of them. So the context holds at most an eighth of the process's limit of open
    files (a socket connecting over CURVE holds several): beyond that `socket()` refuses with
    EMFILE, which a sender can wait out."""
    context = zmq.Context()
    context.max_sockets = max(16, resource.getrlimit(resource.RLIMIT_NOFILE)[0] // 8)
    return context


def _socket(context: zmq.Context) -> zmq.Socket:
    """A DEALER, once the context has room for it (closed ones are reaped as they go)."""
    deadline = time.monotonic() + FULL_WAIT
    while True:
        try:
            return context.socket(zmq.DEALER)
        except zmq.ZMQError as exc:
            if exc.errno != errno.EMFILE or time.monotonic() > deadline:
                raise
            time.sleep(0.001)


def send_from_a_fresh_key(context: zmq.Context, target: str, host: bytes,
                          hello_for: Callable[[Identity], Hello]) -> None:
    identity = Identity.from_seed(os.urandom(32))
    public, secret = curve_keypair(identity)
    dealer = _socket(context)
    dealer.linger = 200
    dealer.curve_publickey, dealer.curve_secretkey, dealer.curve_serverkey = public, secret, curve_public(host)
    dealer.connect(target)
    dealer.send(hello_for(identity).to_bytes())
    dealer.close()
