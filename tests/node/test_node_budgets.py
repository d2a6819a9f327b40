"""The transport's budgets on a real socket (spec/transport.md, "Budgets"): what one key
sends beyond its second's worth is dropped unread and counted, and the node reads no more
than its second's worth from everyone together, then rests from its ROUTER."""
from __future__ import annotations

import time

import zmq

from peerboard.node.keys import curve_keypair, curve_public
from peerboard.node.transport import MESSAGES_IN_ALL_PER_SECOND, MESSAGES_PER_SECOND, Admission, Transport
from peerboard.protocol.log.identity import Identity


def test_a_key_beyond_its_budget_has_its_messages_dropped_unread_and_the_node_reads_no_more_than_its_all():
    me, peer = Identity.from_seed(bytes(32)), Identity.from_seed(bytes([1]) * 32)
    transport = Transport(me, "tcp://127.0.0.1:0", Admission())
    ctx = zmq.Context()
    dealer = ctx.socket(zmq.DEALER)
    dealer.linger = 0
    dealer.sndhwm = 0
    dealer.curve_publickey, dealer.curve_secretkey = curve_keypair(peer)
    dealer.curve_serverkey = transport.public
    sent = MESSAGES_IN_ALL_PER_SECOND + 500
    try:
        transport.know(peer.public_key)
        dealer.connect(transport.endpoint)
        for i in range(sent):
            dealer.send(b"m%d" % i)
        now = transport.inbound[1]  # time stands still: no budget comes back while this reads
        got, dropped = [], lambda: transport.beyond.get(curve_public(peer.public_key), 0)
        deadline = time.monotonic() + 60
        while len(got) + dropped() < MESSAGES_IN_ALL_PER_SECOND:
            assert time.monotonic() < deadline, (len(got), dropped())
            transport.answer_zap()
            got += transport.receive(now)
            time.sleep(0.001)
        # the key's first second's worth arrives, in order; the rest it sent is dropped
        # unread and counted, until the node has read all it reads in a second
        assert [data for _, _, data in got] == [b"m%d" % i for i in range(MESSAGES_PER_SECOND)]
        assert transport.flooding() == {peer.public_key: MESSAGES_IN_ALL_PER_SECOND - MESSAGES_PER_SECOND}
        # then it rests from its ROUTER: nothing more is read until time goes on
        assert transport.resting_until > now and transport.receive(now) == [] and dropped() == sent - 500 - len(got)
        later = [data for _, _, data in transport.receive(now + 1.0)]  # a second on: both budgets are back
        assert later and later == [b"m%d" % i for i in range(MESSAGES_IN_ALL_PER_SECOND, sent)][:len(later)]
    finally:
        dealer.close(0)
        ctx.term()
        transport.close()
