"""A secret choice made before the seat may commit to it (spec/protocol.md, "The session's
public surface", `choice_ahead`): the session holds it and commits it the moment the seat
may — sans-IO, on the simulated network. Nothing in the log differs from a choice made then,
and nobody is asked again; the other seat is only told that the choice is made (`chosen`,
"Hidden information")."""
import pytest

from peerboard.protocol.session import Accepted, ChoseAhead, LocalError, YourTurn
from peerboard.protocol.session.messages import Chosen
from support.simnet import SimNet


def _a_choice_ahead(seed: int):
    """An Aton table where one seat may choose ahead of its turn to commit: (net, nodes,
    that node, its options)."""
    net = SimNet(seed)
    nodes = net.table("aton", 2)
    ahead = lambda: next((n for n in nodes if n.session.decision_kind() is None and n.session.choice_ahead()), None)  # noqa: E731
    assert net.run(lambda: ahead() is not None, max_time=200), "no seat could choose ahead"
    node = ahead()
    return net, nodes, node, node.session.choice_ahead()


@pytest.mark.parametrize("seed", range(4))
def test_a_choice_made_ahead_is_held_and_committed_when_the_seat_may_nobody_asked_again(seed):
    net, nodes, node, options = _a_choice_ahead(seed)
    choice = options[-1]
    at, before = node.session.log_length, len(node.events)
    signs = node.session.submit([list(choice)], net.now)  # (a list is an action too)
    assert {e.data for e in signs} == {Chosen(node.session.local_seat, at + 1).to_bytes()}  # the sign, no entry
    net.apply(node, signs)
    assert node.session.held_choice == choice
    mine = node.session.local_seat
    assert net.run(lambda: any(e.kind == "move" and e.seat == mine and e.body["nonce"] is not None
                               for e in node.disk.entries[at:]), max_time=200)
    commit = next(e for e in node.disk.entries[at:] if e.kind == "commit" and e.seat == mine)
    reveal = next(e for e in node.disk.entries[at:] if e.kind == "move" and e.seat == mine)
    assert tuple(reveal.body["actions"]) == (choice,) and commit.seq < reveal.seq
    assert node.session.held_choice is None
    # the player was never asked for that commit
    upto = next(i for i, e in enumerate(node.events) if isinstance(e, Accepted) and e.seq == commit.seq)
    assert not any(isinstance(e, YourTurn) and e.kind == "commit" for e in node.events[before:upto])
    # the other node holds the same log, checked (the commit matched the reveal)
    other = next(n for n in nodes if n is not node)
    assert net.run(lambda: len(other.disk.entries) >= reveal.seq, max_time=100)
    assert other.disk.entries[reveal.seq - 1].hash == reveal.hash


def test_a_choice_ahead_that_is_not_one_of_the_options_is_refused():
    net, _, node, options = _a_choice_ahead(1)
    with pytest.raises(LocalError, match="not one of your secret choices"):
        node.session.submit([("nothing", 99)], net.now)
    with pytest.raises(LocalError, match="not one of your secret choices"):
        node.session.submit([options[0], options[0]], net.now)
    assert node.session.held_choice is None


def test_a_choice_made_again_ahead_replaces_the_one_held():
    net, _, node, options = _a_choice_ahead(2)
    node.session.submit([options[0]], net.now)
    node.session.submit([options[-1]], net.now)
    assert node.session.held_choice == options[-1]


@pytest.mark.parametrize("seed", range(3))
def test_the_seat_still_choosing_is_told_once_that_the_other_has_chosen_and_waits(seed):
    net, nodes, node, options = _a_choice_ahead(seed)
    net.think = (20.0, 20.0)  # (the other seat thinks long over its choice)
    other = next(n for n in nodes if n is not node)
    mine, at = node.session.local_seat, node.session.log_length
    assert other.session.chosen_ahead == ()
    net.apply(node, node.session.submit([options[0]], net.now))
    assert net.run(lambda: other.session.decision_kind() == "commit" and other.session.chosen_ahead == (mine,),
                   max_time=10)
    told = [e for e in other.events if isinstance(e, ChoseAhead)]
    assert len(told) == 1 and told[0].seat == mine and told[0].seq == other.session.log_length + 1 > at
    # the sign is said again with each beat while the choice is held, and told no more
    sent = len(node.sent)
    net.run(lambda: False, max_time=3)
    assert sum(data == Chosen(mine, told[0].seq).to_bytes() for _, data in node.sent[sent:]) >= 2
    assert [e for e in other.events if isinstance(e, ChoseAhead)] == told and other.session.chosen_ahead == (mine,)
    # once the other seat's commit is in, the sign has done its work
    assert net.run(lambda: other.session.log_length > told[0].seq, max_time=60)
    assert other.session.chosen_ahead == ()
    assert net.run(lambda: node.session.held_choice is None, max_time=100)


def test_a_sign_from_a_node_that_does_not_hold_the_seat_is_its_fault_and_a_stale_one_is_dropped():
    net, nodes, node, options = _a_choice_ahead(1)
    net.think = (20.0, 20.0)
    other = next(n for n in nodes if n is not node)
    mine = node.session.local_seat
    assert net.run(lambda: other.session.decision_kind() == "commit", max_time=10)
    at = other.session.log_length
    net.inject(node, other, Chosen(mine, at + 7).to_bytes())  # (a head the other has not reached: dropped)
    net.inject(node, other, Chosen(mine, at).to_bytes())  # (a head it has passed: dropped)
    net.run(lambda: False, max_time=0.5)
    assert net.rejections(other) == []
    net.inject(node, other, Chosen(other.session.local_seat, at + 1).to_bytes())  # (a seat it does not hold)
    net.run(lambda: False, max_time=0.5)
    assert any("chosen: the sender does not hold seat" in r for r in net.rejections(other))
    assert not any(isinstance(e, ChoseAhead) for e in other.events) and other.session.chosen_ahead == ()
