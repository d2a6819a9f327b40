"""Rematch, sans-IO (spec/protocol.md, "Rematch"): the answers a session takes and refuses,
when a node waits for them, a rematch's table that seats its keys in the new order, and the
whole flow on the simulated network — what each node says by itself, seat 0's node opening
the new table, the others joining it, and a new table left when its game never starts."""
import pytest

from peerboard.protocol.session.events import Refused, RematchAnswer, Rejected, Seated
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.session.messages import Hello, Refuse, Rematch
from peerboard.protocol.session.rematch import REMATCH_WAIT, RematchState, Rematches, next_order
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


# -- the rematch's flow, sans-IO on the simulated network (what a node once decided itself) -----------


def _rematch_table(seed: int, *answers: Rematches | None, players: int = 2):
    """A finished game whose seats answer a rematch as `answers` say (one per seat)."""
    net = SimNet(seed)
    nodes = net.table("aton", players, {"win_points": 15})
    for node, answer in zip(nodes, answers):
        if answer is not None:
            node.session.answers_rematch(answer)
    return net, nodes


def _said(node, answer: str, since: int = 0) -> bool:
    return any(isinstance(e, RematchAnswer) and e.mine and e.answer == answer for e in node.events[since:])


@pytest.mark.parametrize("seed", range(3))
def test_a_rematch_offered_and_accepted_by_themselves_is_a_new_game_with_the_first_seat_moved_on(seed):
    net, nodes = _rematch_table(seed, Rematches(left=1), Rematches())
    old_keys = [s.key for s in nodes[0].session.seats]
    old_table = nodes[0].session.table_id
    assert net.run(lambda: all(n.session.table_id != old_table for n in nodes), max_time=5000)
    assert _said(nodes[0], "yes") and _said(nodes[1], "yes")  # the offer, and its acceptance
    assert net.run(lambda: all(n.session.phase is Phase.PLAYING for n in nodes), max_time=60)
    new = nodes[0].session
    assert [s.key for s in new.seats] == list(next_order(old_keys))
    assert nodes[1].session.table_id == new.table_id and nodes[0].disk.genesis is not None
    # the rematch is played like any game; with no rematch left, nobody offers another
    since = len(nodes[0].events)
    assert net.run(lambda: net.finished(nodes), max_time=5000)
    assert not any(n.session.awaits_rematch(net.now) for n in nodes)
    assert not _said(nodes[0], "yes", since) and not nodes[0].session.rematch_state.offered


def test_a_rematch_declined_by_a_node_with_none_left_ends_it_for_both():
    net, nodes = _rematch_table(5, Rematches(left=1), Rematches(left=0))
    assert net.run(lambda: net.finished(nodes), max_time=5000)
    assert net.run(lambda: _said(nodes[1], "no"), max_time=10)
    assert net.run(lambda: all(n.session.rematch_state.declined() == 1 for n in nodes), max_time=10)
    assert not any(n.session.awaits_rematch(net.now) for n in nodes)
    net.run(lambda: False, max_time=5)
    assert all(n.session.phase is Phase.OVER and n.disk.genesis.terms.table == n.session.table_id for n in nodes)


def test_the_others_wait_for_a_persons_answer_and_no_longer_than_the_wait():
    net, nodes = _rematch_table(6, Rematches(), Rematches(person=True))
    assert net.run(lambda: net.finished(nodes), max_time=5000)
    assert net.run(lambda: nodes[0].session.rematch_state.asking == {1}, max_time=10)  # "ask", again at the end
    assert not _said(nodes[1], "yes") and not _said(nodes[0], "yes")  # nobody answers for a person
    assert nodes[0].session.awaits_rematch(net.now)
    assert not nodes[0].session.awaits_rematch(nodes[0].session.over_since + REMATCH_WAIT)


def test_a_persons_yes_is_accepted_by_the_other_node_and_the_rematch_begins():
    net, nodes = _rematch_table(7, Rematches(), Rematches(person=True))
    old_table = nodes[0].session.table_id
    assert net.run(lambda: net.finished(nodes), max_time=5000)
    net.apply(nodes[1], nodes[1].session.rematch("yes"))
    assert net.run(lambda: all(n.session.table_id != old_table and n.session.phase is Phase.PLAYING for n in nodes),
                   max_time=60)


def test_a_rematch_table_that_does_not_start_within_the_wait_is_left_and_said_so():
    net, nodes = _rematch_table(8, Rematches(left=1), Rematches())
    old_table = nodes[0].session.table_id
    assert net.run(lambda: nodes[1].session.rematch_state.next is not None, max_time=5000)
    net.crash(nodes[1])  # it said yes, and never comes to the new table
    assert net.run(lambda: nodes[0].session.table_id != old_table, max_time=10)
    assert nodes[0].session.phase is Phase.FORMING
    assert net.run(lambda: any(isinstance(e, Refused) and "did not start" in e.reason for e in nodes[0].events),
                   max_time=REMATCH_WAIT + 5)
    assert nodes[0].session.phase is Phase.FORMING  # (it left the table: its node stops)


def test_a_yes_after_a_seat_left_is_refused_with_a_reason():
    net, nodes = _rematch_table(9, Rematches(), Rematches(person=True))
    assert net.run(lambda: net.finished(nodes), max_time=5000)
    net.apply(nodes[0], nodes[0].session.leave())
    assert net.run(lambda: nodes[1].session.seats[0].connection == "left", max_time=10)
    with pytest.raises(LocalError, match="has left the table: there can be no rematch"):
        nodes[1].session.rematch("yes")
