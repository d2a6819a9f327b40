"""Endings in the simulated network (spec/protocol.md, "Endings"): a seat resigns at any
moment — its turn or another's, mid reveal round, at a secret choice — under loss,
duplication, reordering and partitions; every honest node ends with the same log, whose
result says who resigned at which entry, and the log verifies from scratch."""
import pytest

from peerboard.protocol.chain import GameChain
from peerboard.protocol.session import Ended, LocalError, Phase
from simnet import SimNet, game_over, problems


def settle(net, nodes, max_time=4000):
    assert net.run(lambda: net.finished(nodes), max_time=max_time), [(n.index, n.session.phase, len(n.disk.entries)) for n in nodes]
    net.run(lambda: False, max_time=2)  # the last acks arrive


def assert_same_logs(nodes):
    logs = [[e.encoded for e in n.disk.entries] for n in nodes]
    assert all(log == logs[0] for log in logs), "the honest nodes' logs differ"
    for n in nodes:
        assert not problems(n)
    chain = GameChain.start(nodes[0].disk.genesis)
    for entry in nodes[0].disk.entries:
        chain = chain.check(entry)
    assert chain.finished
    return chain


def play_until(net, nodes, entries, max_time=400):
    net.run(lambda: min(len(n.disk.entries) for n in nodes) >= entries or net.finished(nodes), max_time=max_time)


@pytest.mark.parametrize("game", ["aton", "athos", "asterix"])
@pytest.mark.parametrize("seed", range(6))
def test_a_resignation_at_any_moment_ends_the_game_the_same_everywhere(game, seed):
    net = SimNet(seed, drop=0.15, dup=0.1, delay=(0.001, 0.2))
    nodes = net.table(game, 2, {"max_rounds": 3} if game == "asterix" else {})
    play_until(net, nodes, net.rng.randrange(0, 30))
    if net.finished(nodes):
        pytest.skip("the game ended by its rules before the chosen moment")  # (rare: short games)
    resigner = nodes[net.rng.randrange(2)]
    if seed % 3 == 0:
        net.partition(nodes[:1], nodes[1:], net.rng.uniform(0.5, 5.0))
    net.apply(resigner, resigner.session.resign(net.now))
    settle(net, nodes)
    chain = assert_same_logs(nodes)
    over = {game_over(n) for n in nodes}
    assert len(over) == 1
    result = over.pop()
    assert result.ending is not None and result.ending.how == "resigned"
    assert result.ending.seats == (resigner.index,)
    assert result.winners == (1 - resigner.index,)
    assert chain.result_body()["ending"]["seats"] == [resigner.index]
    assert all(any(isinstance(e, Ended) for e in n.events) for n in nodes)


def test_both_seats_resigning_at_once_end_with_one_resignation():
    net = SimNet(3, drop=0.1, delay=(0.001, 0.2))
    nodes = net.table("athos", 2, {})
    play_until(net, nodes, 6)
    for n in nodes:
        net.apply(n, n.session.resign(net.now))
    settle(net, nodes)
    assert_same_logs(nodes)
    ends = {game_over(n).ending for n in nodes}
    assert len(ends) == 1 and len(ends.pop().seats) == 1


def test_a_seat_cannot_resign_twice_nor_after_the_end():
    net = SimNet(5)
    nodes = net.table("athos", 2, {})
    play_until(net, nodes, 3)
    a = nodes[0]
    net.apply(a, a.session.resign(net.now))
    with pytest.raises(LocalError):
        a.session.resign(net.now)
    settle(net, nodes)
    with pytest.raises(LocalError, match="over"):
        a.session.resign(net.now)


def test_a_three_seat_resignation_ends_the_game_with_no_winner():
    net = SimNet(8, drop=0.1, delay=(0.001, 0.1))
    nodes = net.table("athos", 3, {})
    play_until(net, nodes, 5)
    net.apply(nodes[2], nodes[2].session.resign(net.now))
    settle(net, nodes)
    assert_same_logs(nodes)
    result = game_over(nodes[0])
    assert result.winners == () and result.ending.seats == (2,)


def test_a_resigned_seat_that_crashes_and_restarts_still_ends_the_game_the_same():
    net = SimNet(12, drop=0.1, delay=(0.001, 0.1))
    nodes = net.table("aton", 2, {})
    play_until(net, nodes, 10)
    net.apply(nodes[1], nodes[1].session.resign(net.now))
    net.crash(nodes[1])
    net.run(lambda: False, max_time=3)
    net.restart(nodes[1])
    if nodes[1].session.phase is Phase.PLAYING and nodes[1].session.ending is None:
        # its statement may have been lost with it: it resigns again once back
        net.run(lambda: not any(isinstance(a, bytes) for a in ()), max_time=0.1)
        try:
            net.apply(nodes[1], nodes[1].session.resign(net.now))
        except LocalError:
            pass
    settle(net, nodes)
    assert_same_logs(nodes)
    assert game_over(nodes[0]).ending.seats == (1,)
