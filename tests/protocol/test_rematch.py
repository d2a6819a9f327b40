"""Rematch, sans-IO (spec/protocol.md, "Rematch"): the answers a session takes and refuses,
when a node waits for them, and a rematch's table that seats its keys in the new order."""
import pytest

from peerboard.protocol.session.events import Refused, RematchAnswer, Rejected, Seated
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.session.messages import Hello, Refuse, Rematch
from peerboard.protocol.session.rematch import REMATCH_WAIT, RematchState, next_order
from peerboard.protocol.log.secrets import SeatSecrets
from peerboard.protocol.session.session import LocalError, Phase, Session
from support.simnet import SimNet

STRANGER = Identity.from_seed(b"\x66" * 32)


def _over(seed=4):
    net = SimNet(seed)
    nodes = net.table("aton", 2, {"win_points": 15})
    assert net.run(lambda: net.finished(nodes), max_time=5000)
    return net, nodes


def test_the_first_seat_moves_on():
    assert next_order([b"a", b"b", b"c"]) == (b"b", b"c", b"a")


def test_a_seat_answers_only_once_the_game_is_over():
    net = SimNet(2)
    ann, bob = net.table("aton", 2)
    with pytest.raises(LocalError, match="not over yet"):
        ann.session.rematch("yes")
    assert ann.session.rematch("ask")  # (a person sits here: said when the game starts)


def test_an_offer_is_told_to_the_other_seat_and_a_repeat_is_not():
    net, (ann, bob) = _over()
    effects = ann.session.rematch("yes")
    [data] = [e.data for e in effects if hasattr(e, "data")]
    told = bob.session.receive(ann.key, data, net.now)
    assert [(e.seat, e.answer, e.mine) for e in told if isinstance(e, RematchAnswer)] == [(0, "yes", False)]
    assert bob.session.receive(ann.key, data, net.now) == []
    assert bob.session.rematch_state.offered and not bob.session.rematch_state.agreed


def test_only_a_seat_of_this_table_answers_and_only_seat_0_names_the_new_table():
    net, (ann, bob) = _over()
    table = ann.session.table_id
    cases = [
        (STRANGER.public_key, Rematch(table, "yes"), "holds no seat"),
        (ann.key, Rematch(b"\x01" * 16, "yes"), "another table"),
        (bob.key, Rematch(table, "yes", b"\x02" * 16), "only seat 0's node"),
        (ann.key, Rematch(table, "no", b"\x02" * 16), "only seat 0's node"),
    ]
    for sender, message, says in cases:
        effects = (bob if sender != bob.key else ann).session.receive(sender, message.to_bytes(), net.now)
        assert any(isinstance(e, Rejected) and says in e.reason for e in effects), says
        assert not any(isinstance(e, RematchAnswer) for e in effects)


def test_a_node_waits_while_a_rematch_may_come_and_never_longer_than_the_wait():
    state = RematchState(2)
    assert not state.pending(0, 1.0)  # nobody asked, nobody offered: stop as before
    state.heard(1, "ask")
    assert state.pending(0, 1.0) and not state.pending(0, REMATCH_WAIT)
    state.heard(1, "yes")
    assert state.pending(0, 1.0)  # an offer: wait for the answers
    assert not state.pending(0, 1.0, left=[1]) and not state.pending(None, 1.0)
    state.heard(0, "no")
    assert not state.pending(0, 1.0) and state.declined() == 0


def _hello(identity, table, secrets):
    return Hello(table, "aton", "x", identity.public_key, "seat", secrets.chain_tip, secrets.commitments()["seed"],
                 "sim://x")


def test_a_rematch_table_seats_each_key_at_its_place_and_refuses_any_other():
    ann, bob = Identity.from_seed(b"\x01" * 32), Identity.from_seed(b"\x02" * 32)
    table = b"\x10" * 16
    order = next_order([ann.public_key, bob.public_key])  # bob is seat 0 now, ann (the host) seat 1
    host = Session.host(ann, SeatSecrets.from_master(b"\x03" * 32), "ann", "sim://ann", "aton", 2, {}, table,
                        lambda n: b"\x04" * n, 0.0, order=order)
    assert host.local_seat == 1 and host.phase is Phase.FORMING
    stranger = host.receive(STRANGER.public_key, _hello(STRANGER, table, SeatSecrets.from_master(b"\x05" * 32))
                            .to_bytes(), 0.1)
    assert any(getattr(e, "data", b"") == Refuse("this table is a rematch: only the seats of the game before play "
                                                 "at it").to_bytes() for e in stranger)
    welcome = host.receive(bob.public_key, _hello(bob, table, SeatSecrets.from_master(b"\x06" * 32)).to_bytes(), 0.2)
    assert [s.index for s in host.seats] == [0, 1] and host.seats[0].key == bob.public_key
    assert not any(isinstance(e, (Refused, Seated)) for e in welcome)
