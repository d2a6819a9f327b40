"""A secret choice made before the seat may commit to it (spec/protocol.md, "The session's
public surface", `choice_ahead`): the session holds it and commits it the moment the seat
may — sans-IO, on the simulated network. Nothing on the wire or in the log differs from a
choice made then, and nobody is asked again."""
import pytest

from peerboard.protocol.session import Accepted, LocalError, YourTurn
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
    assert node.session.submit([list(choice)], net.now) == []  # (a list is an action too)
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
