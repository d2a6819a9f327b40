"""Claims at three or more seats in the simulated network (spec/protocol.md, "Patience and
claims"; protocol/session/claims.py): every other seat signs the claim of the seat gone, the lowest
of them writes it. The gone seat is dead, or only cut off and back at any moment — before
anyone signed, after some signed, after all signed but before the writer wrote, after the
claim — under loss, duplication, reordering and partitions. Never two different logs, never
a table waiting for ever once the seat is really gone, and every log verifies."""
import pytest

from peerboard.protocol.session.messages import Claim, decode_message
from peerboard.protocol.session.session import Claimable, LocalError
from support.budget import seeds
from support.claim_tables import Claimers, play_until, same_logs, seat_of, table
from support.simnet import game_over

@pytest.mark.parametrize("game, seats", [("athos", 3), ("asterix", 3), ("asterix", 4), ("athos", 4)])
@pytest.mark.parametrize("seed", range(4))
def test_a_dead_seat_is_claimed_by_every_other_seat_and_the_game_ends_with_no_winner(game, seats, seed):
    net, nodes = table(seed, game, seats, drop=0.1, dup=0.05, delay=(0.001, 0.1))
    play_until(net, nodes, net.rng.randrange(0, 25))
    if net.finished(nodes):
        pytest.skip("the game ended by its rules before the chosen moment")
    gone = net.rng.randrange(seats)
    net.crash(nodes[gone])
    rest = [n for n in nodes if seat_of(n) != gone]
    claimers = Claimers(net, rest)
    assert claimers.run(lambda: net.finished(rest), max_time=300), \
        [(n.index, n.session.phase, n.session.position().to_act, len(n.disk.entries)) for n in rest]
    net.run(lambda: False, max_time=2)
    same_logs(rest)
    result = game_over(rest[0])
    if result.ending is None or result.ending.how != "claimed":
        pytest.skip("the game ended before the seat was claimed")  # (its last entries were all others')
    assert result.ending.seats == (gone,) and result.winners == () and result.ending.unchecked == (gone,)
    claim = next(e for e in rest[0].disk.entries if e.kind == "claim")
    assert claim.seat == min(seat_of(n) for n in rest) and len(claim.body["sigs"]) == seats - 1
    # the gone seat comes back: it takes the claim, keeps its own entries aside, and watches
    net.restart(nodes[gone])
    assert net.run(lambda: net.finished(nodes), max_time=60)
    same_logs(nodes)
    assert nodes[gone].session.ending.seats == (gone,) and nodes[gone].session.decision_kind() is None


@pytest.mark.parametrize("game, seats", [("athos", 3), ("asterix", 3), ("asterix", 4)])
@pytest.mark.parametrize("seed", seeds(10))
def test_a_seat_cut_off_and_back_at_any_moment_never_splits_the_table(game, seats, seed):
    """The gone seat is alive, cut off from every other seat for a while (sometimes shorter
    than the patience, sometimes long past the claim), writing what it is entitled to; the
    others claim it, each at its own pace. Whatever the moment it comes back, every node
    ends with one log: the claim's, or the game's going on with that seat's entries."""
    net, nodes = table(300 + seed, game, seats, drop=0.1, dup=0.05, delay=(0.001, 0.15))
    play_until(net, nodes, net.rng.randrange(0, 25))
    if net.finished(nodes):
        pytest.skip("the game ended by its rules before the chosen moment")
    gone = net.rng.randrange(seats)
    rest = [n for n in nodes if seat_of(n) != gone]
    net.partition([nodes[gone]], rest, net.rng.uniform(8, 40))
    if seed % 3 == 1:  # and one link among the others is cut too: the statements wait
        a, b = net.rng.sample(rest, 2)
        net.partition([a], [b], net.rng.uniform(5, 30))
    claimers = Claimers(net, rest, delay=(0.0, net.rng.choice([0.5, 3.0, 10.0])))
    assert claimers.run(lambda: net.finished(nodes), max_time=2000), \
        [(n.index, n.session.phase, n.session.position().to_act, len(n.disk.entries)) for n in nodes]
    net.run(lambda: False, max_time=2)
    same_logs(nodes)
    assert all(e.seat == gone for e in nodes[gone].aside)
    ending = game_over(nodes[0]).ending
    if ending is not None and ending.how == "claimed":
        assert nodes[gone].session.decision_kind() is None


def at_seats_move(seed, seat, think):
    """A 3-seat Athos table where `seat` is to move, its players taking `think` seconds."""
    for attempt in range(20):
        net, nodes = table(seed + attempt, "athos", 3, delay=(0.001, 0.05))
        net.think = think
        to_move = lambda: nodes[0].session.position().to_act == (seat, "move") and \
            len({n.session.log_length for n in nodes}) == 1  # noqa: E731
        play_until(net, nodes, 4)
        if net.run(to_move, max_time=200) and not net.finished(nodes):
            return net, nodes
    pytest.fail(f"no table where seat {seat} is to move")


def test_a_signer_that_restarts_still_holds_the_gone_seats_entry():
    """Seat 1 signed the claim of seat 2 and restarts: it remembers its statement (it is on
    its disk), so when seat 2 comes back to it, it does not take seat 2's entry while the
    claim can still be whole — and the claim is written once seat 0 signs too."""
    net, nodes = at_seats_move(500, 2, (0.0, 0.02))
    a, b, g = nodes
    start = net.now
    net.partition([g], [a], 100)
    net.partition([g], [b], 30)
    net.partition([a], [b], 60)  # seat 0's statement reaches seat 1 late
    assert Claimers(net, [b]).run(lambda: b.disk.claim is not None, max_time=40)
    assert b.disk.claim[0] == 2
    net.crash(b)
    net.restart(b)
    net.run(lambda: False, max_time=start + 45 - net.now)  # seat 2 is back for seat 1, its move with it
    assert g.session.log_length >= b.disk.claim[1], "seat 2 wrote no entry to compete with the claim"
    assert len(b.disk.entries) == b.disk.claim[1] - 1, "the signer took the gone seat's entry"
    assert Claimers(net, [a]).run(lambda: a.disk.claim is not None, max_time=40)
    assert a.disk.claim == b.disk.claim
    assert net.run(lambda: net.finished(nodes), max_time=400)
    same_logs(nodes)
    assert game_over(a).ending.how == "claimed" and g.aside


def test_a_seat_that_took_the_gone_seats_entry_kills_the_claim_with_its_ack():
    """Seat 1 signs the claim of seat 2; seat 0 still hears seat 2 and takes its entry, so
    it never signs: seat 1 learns it from seat 0's ack, takes the entry, the game goes on."""
    net, nodes = at_seats_move(700, 2, (20.0, 20.0))
    a, b, g = nodes
    net.partition([g], [b], 60)
    told = lambda: any(isinstance(e, Claimable) for e in b.events)  # noqa: E731
    assert net.run(told, max_time=19)
    with pytest.raises(LocalError):
        a.session.claim(2, net.now)  # seat 0 hears seat 2: not claimable there
    at = b.session.log_length
    net.apply(b, b.session.claim(2, net.now))
    assert any(isinstance(decode_message(d), Claim) for _, d in b.sent[-2:])
    assert net.run(lambda: b.session.log_length > at, max_time=30), "the signer never took the entry"
    assert b.disk.entries[at].seat == 2 and b.disk.entries[at].kind != "claim"
    net.think = (0.0, 0.02)
    assert net.run(lambda: net.finished(nodes), max_time=4000)
    same_logs(nodes)
    assert game_over(a).ending is None or game_over(a).ending.how != "claimed"


def test_a_claim_is_of_the_seat_the_game_waits_for():
    net, nodes = at_seats_move(900, 0, (100.0, 100.0))
    net.crash(nodes[2])
    net.run(lambda: False, max_time=15)
    assert not any(isinstance(e, Claimable) for n in nodes[:2] for e in n.events)
    with pytest.raises(LocalError, match="waits for it"):
        nodes[1].session.claim(2, net.now)
    with pytest.raises(LocalError, match="not your own"):
        nodes[1].session.claim(1, net.now)


def test_the_gone_seat_back_after_every_seat_signed_but_before_the_claim_is_written_is_claimed():
    """Seats 0 and 1 both signed the claim of seat 2, but seat 1's statement has not reached
    the writer (seat 0) when seat 2 comes back with its entry: both hold it, nobody acks it,
    and once the statement arrives the claim is written; seat 2 keeps its entry aside."""
    net, nodes = at_seats_move(1100, 2, (0.0, 0.02))
    a, b, g = nodes
    start = net.now
    net.partition([g], [a, b], 30)
    net.partition([a], [b], 40)
    claimers = Claimers(net, [a, b], delay=(0.0, 1.0))
    assert claimers.run(lambda: a.disk.claim is not None and b.disk.claim is not None, max_time=29)
    assert a.disk.claim == b.disk.claim
    seq = a.disk.claim[1]
    net.run(lambda: False, max_time=start + 38 - net.now)  # seat 2 is back; the writer lacks seat 1's statement
    assert g.session.log_length >= seq and len(a.disk.entries) == len(b.disk.entries) == seq - 1
    assert net.run(lambda: net.finished(nodes), max_time=400)
    same_logs(nodes)
    assert a.disk.entries[seq - 1].kind == "claim" and g.aside and all(e.seat == 2 for e in g.aside)
    assert game_over(g).ending.how == "claimed" and game_over(g).winners == ()
