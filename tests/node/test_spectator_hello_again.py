"""A spectator says hello again to a seat that is not serving it (spec/transport.md,
"Spectators", step 3): its first hello after the genesis may have been lost, or the seat
restarted and knows no spectators. The node's own rule (node/spectating.py), driven with a
session's public surface (seats and when each was last heard); the sending is recorded."""
from types import SimpleNamespace

from peerboard.node.spectating import SpectatorHellos
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.session.messages import Hello, decode_message
from peerboard.protocol.session.surface import Phase, SeatInfo


def _seat(index, last_heard):
    key = Identity.from_seed(bytes([index + 1]) * 32).public_key
    return SeatInfo(index, f"p{index}", "abcd-efgh", key, "connected", last_heard)


def _spectator(seats):
    session = SimpleNamespace(seats=seats, table_id=b"\x07" * 16, game_name="aton", local_seat=None,
                              phase=Phase.PLAYING)
    sent = []
    hellos = SpectatorHellos(Identity.from_seed(bytes(32)), "eve", "tcp://127.0.0.1:41000",
                             lambda key, data: sent.append((key, decode_message(data))))
    hellos.started = True  # (it said hello to every seat when the game started)
    return hellos, session, sent


def test_a_spectator_says_hello_again_only_to_the_seats_it_has_not_heard_for_2_s():
    serving, silent, never = _seat(0, 99.5), _seat(1, 97.9), _seat(2, None)
    hellos, session, sent = _spectator([serving, silent, never])
    hellos.again(session, 100.0)
    assert [key for key, _ in sent] == [silent.key, never.key]
    hello = sent[0][1]
    assert isinstance(hello, Hello) and hello.role == "spectator" and hello.addr == "tcp://127.0.0.1:41000"
    assert hello.key == hellos.identity.public_key and hello.chain == hello.seed == bytes(32)


def test_a_spectator_says_it_at_most_every_2_s_and_not_at_all_once_every_seat_serves_it():
    hellos, session, sent = _spectator([_seat(0, None)])
    for now in (100.0, 100.5, 101.9):
        hellos.again(session, now)
    assert len(sent) == 1
    hellos.again(session, 102.0)
    assert len(sent) == 2
    session.seats = [_seat(0, 103.5)]
    hellos.again(session, 104.0)
    assert len(sent) == 2


def test_the_first_hellos_go_to_every_seat_as_the_game_starts():
    hellos, session, sent = _spectator([_seat(0, 1.0), _seat(1, None)])
    hellos.started = False
    hellos.again(session, 100.0)
    assert sent == []  # (nothing before the game started here)
    hellos.introduce(session, 100.0)
    assert [key for key, _ in sent] == [s.key for s in session.seats]
