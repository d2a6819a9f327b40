"""A spectator says hello again to a seat that is not serving it (spec/transport.md,
"Spectators", step 3): its first hello after the genesis may have been lost, or the seat
restarted and knows no spectators. The node's own rule, driven with its session's public
surface (seats and when each was last heard); the sending is recorded."""
from types import SimpleNamespace

from peerboard.node import loop
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.session.messages import Hello, decode_message
from peerboard.protocol.session.surface import Phase, SeatInfo


def _seat(index, last_heard):
    key = Identity.from_seed(bytes([index + 1]) * 32).public_key
    return SeatInfo(index, f"p{index}", "abcd-efgh", key, "connected", last_heard)


def _spectator(seats):
    node = loop.Node.__new__(loop.Node)  # no sockets: only the rule is under test
    node.session = SimpleNamespace(seats=seats, table_id=b"\x07" * 16, game_name="aton", local_seat=None,
                                   phase=Phase.PLAYING)
    node.name, node.identity, node.addr = "eve", Identity.from_seed(bytes(32)), "tcp://127.0.0.1:41000"
    node._spectator_intro, node._next_hello = True, 0.0
    sent = []
    node.send = lambda key, data: sent.append((key, decode_message(data)))
    return node, sent


def test_a_spectator_says_hello_again_only_to_the_seats_it_has_not_heard_for_2_s():
    serving, silent, never = _seat(0, 99.5), _seat(1, 97.9), _seat(2, None)
    node, sent = _spectator([serving, silent, never])
    node._hello_again(100.0)
    assert [key for key, _ in sent] == [silent.key, never.key]
    hello = sent[0][1]
    assert isinstance(hello, Hello) and hello.role == "spectator" and hello.addr == "tcp://127.0.0.1:41000"
    assert hello.key == node.identity.public_key and hello.chain == hello.seed == bytes(32)


def test_a_spectator_says_it_at_most_every_2_s_and_not_at_all_once_every_seat_serves_it():
    node, sent = _spectator([_seat(0, None)])
    for now in (100.0, 100.5, 101.9):
        node._hello_again(now)
    assert len(sent) == 1
    node._hello_again(102.0)
    assert len(sent) == 2
    node.session.seats = [_seat(0, 103.5)]
    node._hello_again(104.0)
    assert len(sent) == 2
