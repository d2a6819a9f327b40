"""Takeovers in the simulated network (spec/protocol.md, "Takeover"): at a table whose
genesis names a takeover strategy, a seat claimed by every other seat is played on by a
bot its claim's writer runs. Under loss, duplication and partitions, with the gone seat dead
or only cut off and back at any moment, and the runner restarting: never two different
logs, the game always finishes, the taken-over seat never wins, every log verifies."""
import pytest

from peerboard.protocol.session.session import LocalError, Phase, TakenOver
from support.budget import seeds
from support.claim_tables import OPTIONS, Claimers, by_seat, play_until, same_logs, seat_of
from support.simnet import SimNet, game_over


def table(seed, game, seats, **net_args):
    net = SimNet(seed, **net_args)
    return net, by_seat(net.table(game, seats, OPTIONS[game], patience=10, takeover="greedy"))


def taken_over(node):
    return [e for e in node.events if isinstance(e, TakenOver)]


@pytest.mark.parametrize("game, seats", [("athos", 3), ("asterix", 3), ("asterix", 4)])
@pytest.mark.parametrize("seed", range(4))
def test_a_dead_seat_is_taken_over_and_the_game_finishes_without_it(game, seats, seed):
    net, nodes = table(seed, game, seats, drop=0.1, dup=0.05, delay=(0.001, 0.1))
    play_until(net, nodes, net.rng.randrange(0, 25))
    if net.finished(nodes):
        pytest.skip("the game ended by its rules before the chosen moment")
    gone = net.rng.randrange(seats)
    net.crash(nodes[gone])
    rest = [n for n in nodes if seat_of(n) != gone]
    assert Claimers(net, rest).run(lambda: net.finished(rest), max_time=20000), \
        [(seat_of(n), n.session.phase, n.session.position().to_act, len(n.disk.entries)) for n in rest]
    net.run(lambda: False, max_time=2)
    same_logs(rest)
    result = game_over(rest[0])
    if not result.takeovers:
        pytest.skip("the game ended before the seat was claimed")  # (its last entries were all others')
    runner = min(seat_of(n) for n in rest)
    (taken,) = result.takeovers
    assert taken[0] == gone and taken[2] == runner and result.ending is None
    assert gone not in result.winners
    assert all(taken_over(n) and taken_over(n)[0].seat == gone for n in rest)
    assert any(e.seat == gone and e.seq > taken[1] for e in rest[0].disk.entries), "the bot never played"
    # the gone seat comes back: it takes the claim and the takeover, and watches the rest
    net.restart(nodes[gone])
    assert net.run(lambda: net.finished(nodes), max_time=120)
    same_logs(nodes)
    assert taken_over(nodes[gone])[-1].you and nodes[gone].session.decision_kind() is None


@pytest.mark.parametrize("game, seats", [("athos", 3), ("asterix", 3), ("asterix", 4)])
@pytest.mark.parametrize("seed", seeds(8))
def test_a_seat_cut_off_and_back_at_any_moment_is_taken_over_or_plays_on_never_both(game, seats, seed):
    net, nodes = table(1300 + seed, game, seats, drop=0.1, dup=0.05, delay=(0.001, 0.15))
    play_until(net, nodes, net.rng.randrange(0, 25))
    if net.finished(nodes):
        pytest.skip("the game ended by its rules before the chosen moment")
    gone = net.rng.randrange(seats)
    rest = [n for n in nodes if seat_of(n) != gone]
    net.partition([nodes[gone]], rest, net.rng.uniform(8, 40))
    if seed % 3 == 1:
        a, b = net.rng.sample(rest, 2)
        net.partition([a], [b], net.rng.uniform(5, 30))
    claimers = Claimers(net, rest, delay=(0.0, net.rng.choice([0.5, 3.0, 10.0])))
    assert claimers.run(lambda: net.finished(nodes), max_time=20000), \
        [(seat_of(n), n.session.phase, n.session.position().to_act, len(n.disk.entries)) for n in nodes]
    net.run(lambda: False, max_time=2)
    same_logs(nodes)
    assert all(e.seat == gone for e in nodes[gone].aside)
    result = game_over(nodes[0])
    if result.takeovers:
        assert gone not in result.winners and taken_over(nodes[gone])[-1].you


@pytest.mark.parametrize("seed", range(4))
def test_a_runner_that_restarts_plays_the_seat_it_took_over_again(seed):
    """The runner's node crashes after the takeover and restarts from its log: it derives the
    seat's key and chain again from its own secret, and its bot plays on."""
    net, nodes = table(1500 + seed, "asterix", 3, drop=0.05, delay=(0.001, 0.05))
    play_until(net, nodes, 8)
    if net.finished(nodes):
        pytest.skip("the game ended by its rules before the chosen moment")
    net.crash(nodes[2])
    rest = nodes[:2]
    claimers = Claimers(net, rest)
    assert claimers.run(lambda: bool(taken_over(nodes[0])), max_time=200)
    net.run(lambda: False, max_time=net.rng.uniform(0, 3))
    net.crash(nodes[0])
    net.run(lambda: False, max_time=net.rng.uniform(0, 4))
    net.restart(nodes[0])
    assert net.run(lambda: net.finished(rest), max_time=20000)
    net.run(lambda: False, max_time=2)
    same_logs(rest)
    assert game_over(nodes[0]).takeovers[0][:1] == (2,)


def test_with_takeover_none_a_claim_at_three_seats_ends_the_game():
    net = SimNet(17, drop=0.05, delay=(0.001, 0.05))
    nodes = by_seat(net.table("athos", 3, {}, patience=10, takeover="none"))
    play_until(net, nodes, 6)
    net.crash(nodes[1])
    rest = [nodes[0], nodes[2]]
    assert Claimers(net, rest).run(lambda: net.finished(rest), max_time=400)
    result = game_over(nodes[0])
    if result.ending is not None:
        assert result.ending.how == "claimed" and result.winners == () and not result.takeovers
    assert nodes[0].disk.genesis.terms.takeover is None


def test_a_taken_over_seat_cannot_be_claimed_and_its_bot_is_the_runners():
    net, nodes = table(19, "athos", 3, delay=(0.001, 0.05))
    play_until(net, nodes, 4)
    net.crash(nodes[2])
    assert Claimers(net, nodes[:2]).run(lambda: bool(taken_over(nodes[1])), max_time=200)
    with pytest.raises(LocalError):
        nodes[1].session.claim(2, net.now)
    with pytest.raises(LocalError):
        nodes[1].session.submit_takeover(2, [("x",)], net.now)  # (seat 1 does not run it)
    assert net.run(lambda: net.finished(nodes[:2]), max_time=20000)


def test_a_runner_that_dies_is_claimed_when_the_game_waits_for_the_seat_it_ran():
    """After the takeover the runner's node dies too: the game waits for the seat it ran, so
    the last seat claims the runner; a runner is not taken over in its turn (the seat it ran
    would have no runner), so the game ends with no winner — it never waits for ever."""
    net = SimNet(23, drop=0.05, delay=(0.001, 0.05))
    nodes = by_seat(net.table("asterix", 4, OPTIONS["asterix"], patience=10, takeover="greedy"))
    play_until(net, nodes, 6)
    net.crash(nodes[3])
    assert Claimers(net, nodes[:3]).run(lambda: bool(taken_over(nodes[0])), max_time=200)
    net.crash(nodes[0])  # the runner of seat 3
    rest = nodes[1:3]
    assert Claimers(net, rest).run(lambda: net.finished(rest), max_time=2000), \
        [(seat_of(n), n.session.phase, n.session.position().to_act) for n in rest]
    same_logs(rest)
    result = game_over(rest[0])
    if result.ending is not None:
        assert result.ending.how == "claimed" and result.ending.seats == (0,) and result.winners == ()


def test_a_spectator_ends_with_the_same_log_as_the_seats():
    net, nodes = table(29, "asterix", 3, drop=0.05, delay=(0.001, 0.05))
    watcher = net.spectator(nodes[1])
    play_until(net, nodes, 6)
    net.crash(nodes[2])
    rest = nodes[:2]
    assert Claimers(net, rest).run(lambda: net.finished(rest) and watcher.session.phase is Phase.OVER, max_time=2000)
    net.run(lambda: False, max_time=2)
    same_logs([*rest, watcher])
    if game_over(rest[0]).takeovers:
        assert taken_over(watcher) and not taken_over(watcher)[0].you
