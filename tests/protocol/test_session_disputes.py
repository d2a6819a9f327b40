"""A claim of a present seat, in the simulated network (spec/protocol.md, "What a claim
proves"): at two seats a claim is one seat's word; a seat that was there all along never
takes it as the truth — it protests, carrying its own entries the claim displaced — and is
told plainly; the claimer is told too. A node that was frozen knows it was the silent one:
it neither counts the others away nor offers to claim them for the time it did not run."""
import pytest

from peerboard.protocol.log import Copy, compare, read_log, verify_contents
from peerboard.protocol.log.logfile import frame, header_frame
from peerboard.protocol.session import Claimable, Disputed, Ended, PeerAway, Woke
from support.simnet import SimNet, game_over


def copy_of(node, name):
    data = header_frame() + frame(node.disk.genesis.record()) + b"".join(frame(e.encoded) for e in node.disk.entries)
    contents = read_log(data)
    return Copy(name, contents, verify_contents(contents))


def cheat(net, claimer, gone):
    """`claimer` claims `gone` now, as a changed client would: its session told the seat has
    been away for ages (tests/programs/cheating_claimer.py does the same in a real process)."""
    play = claimer.session._stage
    play.away.add(gone)
    play.away_for = lambda index, now: 1e9
    net.apply(claimer, claimer.session.claim(gone, net.now))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("whose_turn", ["claimed", "claimer"])
def test_a_present_seat_claimed_by_the_other_protests_and_the_game_ends_disputed(seed, whose_turn):
    net = SimNet(300 + seed, drop=0.1, dup=0.05, delay=(0.001, 0.1))
    nodes = net.table("aton", 2, {}, patience=300)
    net.run(lambda: min(len(n.disk.entries) for n in nodes) >= 6 + seed, max_time=400)
    net.think = (3.0, 4.0)  # the seat to move is thinking: present, and sending its beats
    net.run(lambda: False, max_time=1)
    to_move = nodes[0].session.position().to_act[0]
    gone = to_move if whose_turn == "claimed" else 1 - to_move
    claimed, claimer = nodes[gone], nodes[1 - gone]
    cheat(net, claimer, gone)
    assert net.run(lambda: any(isinstance(e, Disputed) for e in claimer.events), max_time=60)
    net.run(lambda: False, max_time=5)
    mine, theirs = claimed.disk.entries, claimer.disk.entries
    claim, protest = mine[-2], mine[-1]
    assert (claim.kind, claim.seat, claim.body["gone"]) == ("claim", 1 - gone, gone)
    assert (protest.kind, protest.seat) == ("protest", gone)
    assert [e.kind for e in theirs[claim.seq:]] == ["audits", "results"]  # (the claimer's own copy: its end)
    (told,) = [e for e in claimed.events if isinstance(e, Disputed)]
    assert (told.you, told.claimer, told.seq, told.protest) == ("claimed", 1 - gone, claim.seq, protest.seq)
    assert not any(isinstance(e, Ended) for e in claimed.events)  # never "you were claimed" as the truth
    assert game_over(claimed).winners == () and game_over(claimed).ending.disputed == protest.seq
    assert [e.you for e in claimer.events if isinstance(e, Disputed)] == ["claimer"]
    found = compare([copy_of(claimed, "claimed"), copy_of(claimer, "claimer")])
    assert [(d.gone, d.seq) for d in found.disputes] == [(gone, claim.seq)] and not found.equivocations


def test_a_node_that_was_frozen_counts_nobody_away_for_the_time_it_did_not_run():
    """Its process stopped for 40 s (a table's patience is 10): when it runs again, the other
    seat — which was there all along — is neither away nor claimable at once; it is told it
    was the silent one; the other seat's silence counts from then."""
    net = SimNet(5)
    a, b = net.table("aton", 2, {}, patience=10)
    net.run(lambda: min(len(n.disk.entries) for n in (a, b)) >= 6, max_time=400)
    net.think = (60.0, 61.0)  # (the seat to move thinks: both nodes run and beat meanwhile)
    net.run(lambda: False, max_time=3)
    now = net.now + 40  # (nothing ran here meanwhile: a frozen process hears nothing)
    effects = a.session.tick(now)
    assert any(isinstance(e, Woke) and e.seconds >= 39 for e in effects)
    assert not any(isinstance(e, (PeerAway, Claimable)) for e in effects)
    assert a.session.claimable_in(1, now) is None
    for later in (now + 3, now + 6, now + 9):
        effects = a.session.tick(later)
        assert not any(isinstance(e, Claimable) for e in effects)
    effects = a.session.tick(now + 11)  # (had b really gone silent: away after 5 s, claimable after 10)
    assert any(isinstance(e, Claimable) for e in effects)


def test_a_claimed_seat_back_with_nobody_to_answer_is_told_what_that_may_mean_then_what_happened():
    """issue 39: a seat claimed while it was down comes back after the claimer left: nobody
    answers, so it cannot know yet — after 10 s it is told plainly that the game may have gone
    on or ended without it (never only 'wait'); the moment the claimer's node is back, it is
    told that it was claimed, from which entry, and sees the end."""
    from peerboard.protocol.session import Unanswered

    net = SimNet(11)
    a, b = net.table("aton", 2, {}, patience=10)
    net.run(lambda: min(len(n.disk.entries) for n in (a, b)) >= 8, max_time=400)
    net.crash(b)
    net.drop = 1.0  # (what the claimer sends to the dead node is lost)
    assert net.run(lambda: any(isinstance(e, Claimable) for e in a.events), max_time=60)
    net.apply(a, a.session.claim(1, net.now))
    assert net.run(lambda: a.session.result is not None, max_time=30)
    net.crash(a)  # the claimer's node left once its game was over
    net.drop = 0.0
    net.restart(b)
    start = net.now
    assert net.run(lambda: any(isinstance(e, Unanswered) for e in b.events), max_time=30)
    (told,) = [e for e in b.events if isinstance(e, Unanswered)]
    assert told.seats == (0,) and 10 <= net.now - start <= 11
    assert not any(isinstance(e, Ended) for e in b.events)
    net.restart(a)
    assert net.run(lambda: any(isinstance(e, Ended) for e in b.events), max_time=10)
    (ended,) = [e for e in b.events if isinstance(e, Ended)]
    assert ended.ending.how == "claimed" and ended.ending.seats == (1,)
    assert net.run(lambda: b.session.result is not None, max_time=10)
    assert [e.encoded for e in b.disk.entries] == [e.encoded for e in a.disk.entries]
